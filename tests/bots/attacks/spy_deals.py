"""Attack: derive the cards of the other seats from everything a bot can read.

Candidate seeds come from the match id (every number in it), the hello,
argv, the environment, the tournament config (its master seed, turned into
every match seed of the pairing as the schedule does) and the seeds of any
records it can read. A candidate whose deal gives this bot exactly the hand
it was dealt is taken as the real one, and its other hands are claimed.

Claims go to ``$SPY_OUT`` (JSON lines): ``{"hand", "seat", "cards", "from"}``,
plus one ``{"match", "tried": n, "sources": [...], "logs": [...]}`` line, so the
test can see the spy really looked (``logs``: the transcripts it could see in
the results folder's ``logs/``, where a twin's first leg would give away the
second's cards).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from integrity_player import Message, play

from referee.game.cards import mask_of, names_of
from referee.game.deals import seeded_deal
from referee.tournament.schedule import match_seed

out_path = Path(os.environ["SPY_OUT"])
candidates: dict[int, str] = {}  # seed -> where it came from
hello: Message = {}


def numbers(text: str, source: str) -> None:
    for n in re.findall(r"\d+", text):
        candidates.setdefault(int(n), source)


def gather(msg: Message) -> None:
    """Everything readable at hello: the id, the message, argv, env, config and records."""
    numbers(msg.get("match", ""), "match id")
    numbers(json.dumps(msg), "hello")
    numbers(" ".join(sys.argv), "argv")
    for key, value in os.environ.items():
        numbers(value, f"env {key}")
    results = os.environ.get("SPY_RESULTS")  # where the referee keeps its results (a guess a bot could make)
    if results:
        config = Path(results) / "config.yaml"
        if config.is_file():
            master = re.search(r"^seed:\s*(\d+)", config.read_text(), re.M)
            if master is not None:
                names = sorted(set(msg["names"]))
                for group in range(16):
                    candidates.setdefault(match_seed(int(master.group(1)), names[0], names[-1], group),
                                          f"config seed, group {group}")
        records = Path(results) / "matches.jsonl"
        if records.is_file():
            for line in records.read_text().splitlines():
                try:
                    candidates.setdefault(int(json.loads(line)["seed"]), "a record's seed")
                except (ValueError, KeyError, TypeError):
                    pass


def deal_hands(seed: int, hand_no: int, dealer: int) -> list[list[str]]:
    cards = seeded_deal(seed, hand_no).cards
    return [names_of(mask_of(cards[(s - dealer - 1) % 4::4])) for s in range(4)]


def claim(hand_no: int, dealer: int, mine: list[str]) -> None:
    seat = hello["seat"]
    with out_path.open("a") as fh:
        for seed, source in candidates.items():
            hands = deal_hands(seed, hand_no, dealer)
            if hands[seat] == mine:
                for s, cards in enumerate(hands):
                    if s != seat:
                        fh.write(json.dumps({"hand": hand_no, "seat": s, "cards": cards, "from": source}) + "\n")


dealer = 0
hand_no = 0


def on_message(msg: Message) -> None:
    global hello, dealer, hand_no
    if msg["type"] == "hello":
        hello = msg
        gather(msg)
        results = os.environ.get("SPY_RESULTS")
        logs = sorted(os.listdir(Path(results) / "logs")) if results and (Path(results) / "logs").is_dir() else []
        with out_path.open("a") as fh:
            fh.write(json.dumps({"match": msg["match"], "tried": len(candidates),
                                 "sources": sorted(set(candidates.values())), "logs": logs}) + "\n")
    elif msg["type"] == "hand_start":
        hand_no, dealer = msg["hand"], msg["dealer"]
    elif msg["type"] == "hand":
        claim(hand_no, dealer, msg["cards"])
    return None


play(on_message)
