"""The strong bot as a real subprocess: every request type answered legally and in time,
events and unknown messages ignored, exit on match_end and on EOF; plus whole in-process
matches of both variants without an illegal answer or a failed decision."""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import bots.strong.bot as strong_bot_module
from bots.strong.arena import Arena, PolicyBot
from bots.strong.bot import Budget, StrongBot
from bots.strong.game import RuleSet

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bots" / "strong_bot.py"


class BotProc:
    """A strong bot subprocess with a line-reading thread (so reads can time out)."""

    def __init__(self, *args: str, cwd: Path | None = None):
        self.p = subprocess.Popen([sys.executable, str(BOT), *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  cwd=cwd or ROOT)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, msg: dict | str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write((msg if isinstance(msg, str) else json.dumps(msg)) + "\n")
        self.p.stdin.flush()

    def ask(self, msg: dict, timeout: float = 5.0) -> tuple[dict, float]:
        t0 = time.perf_counter()
        self.send(msg)
        line = self.lines.get(timeout=timeout)
        elapsed = time.perf_counter() - t0
        assert line is not None, "bot closed stdout"
        ans = json.loads(line)
        assert ans["id"] == msg["id"]
        return ans, elapsed

    def silent(self, wait: float = 0.2) -> bool:
        try:
            self.lines.get(timeout=wait)
        except queue.Empty:
            return True
        return False

    def close(self) -> int:
        if self.p.stdin and not self.p.stdin.closed:
            self.p.stdin.close()
        try:
            return self.p.wait(timeout=10)
        finally:
            if self.p.poll() is None:
                self.p.kill()


RULES = dataclasses.asdict(RuleSet())


def hello(variant: str, seat: int, move_ms: int = 1000) -> dict:
    return {"type": "hello", "id": 0, "protocol": 1, "match": "t", "variant": variant, "seat": seat,
            "names": ["a", "b", "c", "d"][: 2 if variant == "two-player" else 4],
            "rules": dict(RULES), "time": {"move_ms": move_ms, "bank_ms": 5000}, "future_field": 1}


def state(**kw) -> dict:
    base = {"hand_no": 1, "seat": 0, "phase": "play", "hand": [], "dealer": 3,
            "bids": [None, None, None, None], "blind": [False] * 4, "tricks": [0, 0, 0, 0],
            "trick": [], "leader": 0, "spades_broken": False, "played": [], "score": [0, 0],
            "bags": [0, 0], "time": {"move_ms": 1000, "bank_ms": 5000}}
    base.update(kw)
    return base


HAND = ["2C", "5C", "9C", "KC", "3D", "8D", "AD", "4H", "TH", "QH", "6S", "JS", "AS"]


def test_partnership_session_every_request_type() -> None:
    bot = BotProc("--budget", "40ms", "--seed", "3")
    try:
        ans, _ = bot.ask(hello("partnership", 0))
        assert ans.get("name")
        bot.send({"type": "hand_start", "hand": 1, "dealer": 3, "score": [0, 0], "bags": [0, 0]})
        bot.send({"type": "some_future_event", "x": [1, 2]})
        bot.send("this line is not json")
        assert bot.silent(), "events and junk must not be answered"
        ans, _ = bot.ask({"type": "blind_nil", "id": 1, "state": state(phase="blind_nil")})
        assert isinstance(ans["blind_nil"], bool)
        bot.send({"type": "hand", "cards": HAND})
        ans, t = bot.ask({"type": "bid", "id": 2, "legal": list(range(14)),
                          "state": state(phase="bid", hand=HAND)})
        assert ans["bid"] in range(14) and isinstance(ans["bid"], int)
        for seat, bid, blind in ((1, 3, False), (2, 0, True), (3, 4, False)):
            bot.send({"type": "bid_made", "seat": seat, "bid": bid, "blind": blind})
        bids = [ans["bid"], 3, 0, 4]
        ans, _ = bot.ask({"type": "pass", "id": 3, "count": 3, "to": 2,
                          "state": state(phase="pass", hand=HAND, bids=bids, blind=[False, False, True, False])})
        passed = ans["cards"]
        assert len(passed) == 3 and len(set(passed)) == 3 and set(passed) <= set(HAND)
        hand = sorted(set(HAND) - set(passed)) + ["2D", "3H", "4S"]
        bot.send({"type": "received", "cards": ["2D", "3H", "4S"], "from": 2})
        bot.send({"type": "hand", "cards": hand})
        # Lead with spades unbroken: a spade is not legal while plain cards are held.
        legal = sorted(c for c in hand if not c.endswith("S"))
        st = state(hand=hand, bids=bids, blind=[False, False, True, False], passed=passed)
        ans, t = bot.ask({"type": "play", "id": 4, "legal": legal, "state": st})
        assert ans["card"] in legal
        assert t < 1.0
        # Following a led heart with a single heart: the only legal card, answered at once.
        hearts = [c for c in hand if c.endswith("H")]
        st2 = state(hand=hand, bids=bids, blind=[False, False, True, False], leader=3,
                    trick=[[3, "KH"]], played=[[3, "KH"]])
        ans, _ = bot.ask({"type": "play", "id": 5, "legal": hearts, "state": st2})
        assert ans["card"] in hearts
        # An unknown request type still gets an answer line with its id (never silence).
        ans, _ = bot.ask({"type": "future_request", "id": 6, "state": st2})
        assert ans == {"id": 6}
        bot.send({"type": "match_end", "score": [0, 0], "winner": None, "reason": "max_hands"})
        assert bot.close() == 0
    finally:
        bot.p.kill()


def test_two_player_session_keep_discard_bid_play() -> None:
    bot = BotProc("--budget", "30ms", cwd=ROOT / "docs" if (ROOT / "docs").is_dir() else ROOT)
    try:
        bot.ask(hello("two-player", 1))
        bot.send({"type": "hand_start", "hand": 1, "first": 0, "score": [0, 0], "bags": [0, 0]})
        st = {"hand_no": 1, "seat": 1, "phase": "blind_nil", "hand": [], "first": 0, "bids": [None, None],
              "blind": [False, False], "tricks": [0, 0], "trick": [], "leader": 1, "spades_broken": False,
              "played": [], "score": [0, 0], "bags": [0, 0], "time": {"move_ms": 1000, "bank_ms": 5000}}
        ans, _ = bot.ask({"type": "blind_nil", "id": 1, "state": st})
        assert isinstance(ans["blind_nil"], bool)
        kept: list[str] = []
        for i, card in enumerate(["AS", "2C", "KH", "3D"]):
            ans, t = bot.ask({"type": "keep", "id": 10 + i, "card": card, "state": {**st, "phase": "keep", "hand": kept}})
            assert isinstance(ans["keep"], bool)
            assert t < 0.5
            other = ["9C", "4H", "7D", "QS"][i]
            k, d = (card, other) if ans["keep"] else (other, card)
            kept.append(k)
            bot.send({"type": "drawn", "kept": k, "discarded": d})
        # A discard request (as for a Blind Nil bidder): 0..max of its cards.
        hand = sorted(set(HAND) | set(kept))[:13]
        ans, _ = bot.ask({"type": "discard", "id": 20, "max": 3,
                          "state": {**st, "phase": "discard", "hand": hand, "bids": [None, 0], "blind": [False, True]}})
        assert len(ans["cards"]) <= 3 and set(ans["cards"]) <= set(hand)
        ans, _ = bot.ask({"type": "bid", "id": 21, "legal": list(range(1, 14)),
                          "state": {**st, "phase": "bid", "hand": hand, "bids": [None, None]}})
        assert 1 <= ans["bid"] <= 13
        ans, _ = bot.ask({"type": "play", "id": 22, "legal": [c for c in hand if not c.endswith("S")],
                          "state": {**st, "phase": "play", "hand": hand, "bids": [5, ans["bid"]],
                                    "discards": ["9C"]}})
        assert ans["card"] in hand and not ans["card"].endswith("S")
        assert bot.close() == 0  # EOF: exits cleanly
    finally:
        bot.p.kill()


def test_small_move_ms_is_honoured() -> None:
    """With move_ms 120 the bot answers a many-choice early play within it (default budget)."""
    bot = BotProc()
    try:
        bot.ask(hello("partnership", 0, move_ms=120))
        st = state(hand=HAND, bids=[3, 4, 3, 2], time={"move_ms": 120, "bank_ms": 2000})
        legal = [c for c in HAND if not c.endswith("S")]
        worst = 0.0
        for i in range(5):
            ans, t = bot.ask({"type": "play", "id": 1 + i, "legal": legal, "state": st})
            assert ans["card"] in legal
            worst = max(worst, t)
        ans, t = bot.ask({"type": "bid", "id": 9, "legal": list(range(14)),
                          "state": state(phase="bid", hand=HAND, time={"move_ms": 120, "bank_ms": 2000})})
        worst = max(worst, t)
        assert worst < 0.12, f"slowest answer {worst * 1000:.0f} ms with move_ms 120"
    finally:
        bot.close()
        bot.p.kill()


def test_budget_parsing() -> None:
    assert Budget.parse("200ms") == Budget(ms=200.0, samples=None)
    assert Budget.parse("0.5s") == Budget(ms=500.0, samples=None)
    assert Budget.parse("64samples") == Budget(ms=None, samples=64)
    for bad in ("fast", "0ms", "1.5samples", "-3ms"):
        with pytest.raises(ValueError, match="bad budget"):
            Budget.parse(bad)


def test_a_sample_budget_sets_the_endgame_and_the_bids_apart() -> None:
    split = Budget.parse("128samples, exact=32,bid=64")
    assert split == Budget(ms=None, samples=128, exact_samples=32, bid_samples=64)
    assert split.describe() == "128 samples, 32 exact, 64 for bids"
    assert Budget.parse("48samples,bid=200") == Budget(ms=None, samples=48, bid_samples=200)
    for bad, why in (("300ms,exact=32", "not a time budget"), ("64samples,exact=0", "got: 'exact=0'"),
                     ("64samples,depth=3", "got: 'depth=3'"), ("64samples,exact=8,exact=9", "given twice"),
                     ("64samples,bid", "got: 'bid'")):
        with pytest.raises(ValueError, match=why):
            Budget.parse(bad)


def test_the_split_budget_reaches_each_kind_of_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play early in a hand takes the main count, an endgame play (5 cards or fewer
    in partnership, searched exactly) the exact count, a bid the bid count."""
    seen: list[tuple[str, int, int | None]] = []
    real_play, real_bid = strong_bot_module.decide_play, strong_bot_module.decide_bid

    def spy_play(view: Any, rules: Any, legal: Any, cfg: Any, rng: Any, log: Any = None) -> Any:
        seen.append(("play", view.hand.bit_count(), cfg.samples))
        return real_play(view, rules, legal, cfg, rng, log)

    def spy_bid(view: Any, rules: Any, legal: Any, cfg: Any, rng: Any, log: Any = None) -> Any:
        seen.append(("bid", view.hand.bit_count(), cfg.samples))
        return real_bid(view, rules, legal, cfg, rng, log)

    monkeypatch.setattr(strong_bot_module, "decide_play", spy_play)
    monkeypatch.setattr(strong_bot_module, "decide_bid", spy_bid)
    bot = StrongBot(Budget.parse("20samples,exact=3,bid=7"), seed=5, log=lambda _t: None)
    players = [bot if s == 0 else PolicyBot(seed=s) for s in range(4)]
    Arena(players, rules=RuleSet(target=250, max_hands=1, blind_nil=False), seed=3).play_match()
    plays = [(cards, samples) for kind, cards, samples in seen if kind == "play"]
    assert ("bid", 13, 7) in seen
    assert any(cards > 5 for cards, _ in plays) and any(cards <= 5 for cards, _ in plays)
    assert all(samples == (3 if cards <= 5 else 20) for cards, samples in plays), plays


@pytest.mark.parametrize("n", [4, 2])
def test_whole_matches_in_process_are_legal(n: int) -> None:
    """Strong bots against the policy bot: the arena rejects any illegal answer, and a
    decision that raised would be logged, which must not happen."""
    logs: list[str] = []
    players = []
    for s in range(n):
        side = s % 2 if n == 4 else s
        players.append(StrongBot(Budget(ms=None, samples=3), seed=s, log=logs.append)
                       if side == 0 else PolicyBot(seed=s))
    res = Arena(players, rules=RuleSet(target=250, max_hands=6), seed=11 + n).play_match()
    assert res.hands
    assert not [x for x in logs if "decision failed" in x], logs


def test_budget_env_and_seed_are_reproducible() -> None:
    """With a sample budget and a seed two runs answer identically."""
    answers = []
    for _ in range(2):
        env = dict(os.environ, STRONG_BUDGET="6samples", STRONG_SEED="42")
        p = subprocess.run([sys.executable, str(BOT)], input="\n".join(json.dumps(m) for m in [
            hello("partnership", 0),
            {"type": "bid", "id": 1, "legal": list(range(14)), "state": state(phase="bid", hand=HAND)},
            {"type": "play", "id": 2, "legal": [c for c in HAND if not c.endswith("S")],
             "state": state(hand=HAND, bids=[3, 4, 3, 2])},
        ]) + "\n", capture_output=True, text=True, env=env, timeout=30)
        assert p.returncode == 0
        answers.append(p.stdout)
    assert answers[0] == answers[1]
    assert len(answers[0].splitlines()) == 3
