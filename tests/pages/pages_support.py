"""Matches for the pages' tests: played in-process by scripted seats, with a transcript.

Seeded policies make every match the same on every run (only the times in
the transcript differ), so the replays and ``spades show`` can be compared
with stored snapshots.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.game.rules import Rules, Variant
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat.faults import FaultPolicy
from referee.seat.scripted import Reply, ScriptedTransport, random_policy
from referee.seat.spec import SeatSpec
from referee.tournament.results import ResultsFolder

SNAPSHOTS = Path(__file__).parent / "snapshots"


def play(folder: Path, match_id: str, *, variant: str = "partnership", seed: int = 7, names: list[str] | None = None,
         rules: dict[str, Any] | None = None, illegal_at_first_play: int | None = None,
         faults: FaultPolicy = FaultPolicy.FORFEIT) -> MatchRecord:
    """Play one match and store it in the results folder ``folder``; return its record.

    ``illegal_at_first_play``: that seat answers its first play request with a
    card it does not hold (a fault where it happened)."""
    v = Variant(variant)
    names = names or [f"bot{i}" for i in range(v.seats)]
    done = {"faulted": False}

    def override(req: dict[str, Any]) -> str | Reply | None:
        if req.get("type") == "play" and not done["faulted"]:
            done["faulted"] = True
            held = set(req["state"]["hand"])
            card = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "AS", "KS") if c not in held)
            return f'{{"id":{req["id"]},"card":"{card}"}}'
        return None

    def factory(seat: int, seat_spec: SeatSpec, transcript: Any) -> ScriptedTransport:
        rng = random.Random(seed * 10 + seat)
        return ScriptedTransport(random_policy(rng, blind_nil=0.15), name=seat_spec.name,
                                 answer_override=override if seat == illegal_at_first_play else None,
                                 transcript=transcript.for_seat(seat))

    results = ResultsFolder(folder)
    spec = MatchSpec(variant=v, seats=[SeatSpec(n, ["scripted"]) for n in names],
                     rules=Rules.from_mapping(rules or {}), seed=seed, match_id=match_id, faults=faults,
                     logs=str(results.logs))
    record = run_match(spec, transport_factory=factory)
    results.append_record(record.to_dict())
    return record


def record_of(folder: Path, match_id: str) -> MatchRecord:
    for line in (folder / "matches.jsonl").read_text().splitlines():
        data = json.loads(line)
        if data["match"] == match_id:
            return MatchRecord.from_dict(data)
    raise KeyError(match_id)


def sent_to(folder: Path, match_id: str, seat: int) -> list[dict[str, Any]]:
    """Every message the referee sent ``seat``, straight from the transcript."""
    out = []
    for line in (folder / "logs" / f"{match_id}.jsonl").read_text().splitlines():
        obj = json.loads(line)
        if obj.get("seat") == seat and obj.get("dir") == "out":
            out.append(obj["msg"])
    return out


def transcript_trick(folder: Path, match_id: str, hand: int, trick: int) -> list[list[Any]]:
    """The ``trick`` message of hand ``hand``, trick ``trick`` as seat 0 was told it."""
    current, count = 0, 0
    for msg in sent_to(folder, match_id, 0):
        if msg["type"] == "hand_start":
            current, count = msg["hand"], 0
        elif msg["type"] == "trick" and current == hand:
            count += 1
            if count == trick:
                return msg["cards"]
    raise AssertionError(f"no trick {trick} in hand {hand}")


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder: a partnership and a two-player match, a first-hand forfeit, a 100-hand match."""
    folder = tmp_path_factory.mktemp("results")
    play(folder, "p7", seed=7, names=["north-south", "east-west", "north-south", "east-west"],
         rules={"max_hands": 6})
    play(folder, "t3", variant="two-player", seed=3, names=["alpha", "beta"], rules={"max_hands": 4})
    play(folder, "ff", seed=4, names=["alpha", "beta", "alpha", "beta"], illegal_at_first_play=1)
    play(folder, "long", seed=21, names=["alpha", "beta", "alpha", "beta"],
         rules={"target": 100000, "max_hands": 100})
    return folder


def transcript_hand_after(folder: Path, match_id: str, seat: int, hand: int, trick: int) -> list[str]:
    """The cards ``seat`` held after trick ``trick`` of hand ``hand``, from what the referee told it:
    its last ``hand`` message of that hand minus the cards it then played."""
    current, tricks, held, played = 0, 0, [], []
    for msg in sent_to(folder, match_id, seat):
        if msg["type"] == "hand_start":
            if current == hand:
                break
            current, tricks, held, played = msg["hand"], 0, [], []
        elif current != hand or tricks >= trick:
            continue
        elif msg["type"] == "hand":
            held = list(msg["cards"])
        elif msg["type"] == "played" and msg["seat"] == seat:
            played.append(msg["card"])
        elif msg["type"] == "trick":
            tricks += 1
    return sorted(c for c in held if c not in played)
