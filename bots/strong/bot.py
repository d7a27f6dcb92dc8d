"""The strong bot: protocol handling, memory of the hand, time control, and dispatch of
each request to its decision module.

Time: each request's budget is measured from the moment its line was read. With a time
budget (default 300 ms) a decision works until ``min(budget, 30% of move_ms)`` has passed;
with a sample budget it does a fixed amount of work (reproducible), still cut at 50% of
``move_ms`` so that it never times out. The bank is never planned into a decision.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
import time
import traceback
from typing import Any, Callable, Mapping, TextIO

from .bidding import BidConfig, choose_pass, decide_bid, decide_blind_nil
from .bidstyle import BidStyles
from .cards import CardError, mask_of, name, parse_card
from .draw import blind_nil_discards, keep_card
from .evaluate import expected_tricks
from .game import RuleSet
from .search import SearchConfig, decide_play, legal_now
from .view import View, parse_view

DEFAULT_MOVE_MS = 1000
BID_SAMPLE_FACTOR = 2  # a bid gets this many times the play decisions' sample budget


@dataclasses.dataclass(frozen=True)
class Budget:
    """Work per decision: wall time (``ms``) or a fixed number of sampled deals."""

    ms: float | None = 300.0
    samples: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """Parse ``'200ms'``, ``'0.5s'``, ``'64samples'`` (or a bare number of ms)."""
        t = text.strip().lower()
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ms|s|samples?)?", t)
        if not m:
            raise ValueError(f"bad budget {text!r}: expected e.g. '200ms', '0.5s' or '64samples'")
        value, unit = float(m.group(1)), m.group(2) or "ms"
        if unit.startswith("sample"):
            if value < 1 or value != int(value):
                raise ValueError(f"bad budget {text!r}: a sample count must be a whole number >= 1")
            return cls(ms=None, samples=int(value))
        ms = value * 1000 if unit == "s" else value
        if ms <= 0:
            raise ValueError(f"bad budget {text!r}: must be positive")
        return cls(ms=ms, samples=None)

    def describe(self) -> str:
        return f"{self.samples} samples" if self.samples is not None else f"{self.ms:g} ms"


class StrongBot:
    """Answers protocol-v1 requests; keeps what events reveal about the current hand."""

    name = "strong"

    def __init__(self, budget: Budget | None = None, seed: int | None = None,
                 log: Callable[[str], None] | None = None, verbose: bool = False):
        self.budget = budget or Budget()
        self.rng = random.Random(seed)
        self._log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.verbose = verbose
        self.n = 4
        self.seat = 0
        self.rules = RuleSet()
        self.move_ms: float = DEFAULT_MOVE_MS
        self.finished = False
        self.bid_styles = BidStyles()  # how the opponent bids, learned over the match
        self._reset_hand()

    # -- memory -----------------------------------------------------------------------
    def _reset_hand(self) -> None:
        self.kept = 0
        self.discards = 0
        self.passed = 0
        self.passed_to: int | None = None
        self.received = 0
        self.received_from: Any = None
        self.shown = [0, 0, 0, 0]  # cards each seat played this hand

    def log(self, text: str) -> None:
        if self.verbose:
            self._log(f"[strong seat {self.seat}] {text}")

    # -- dispatch ---------------------------------------------------------------------
    def handle(self, msg: Mapping[str, Any], t0: float | None = None) -> dict | None:
        """Process one message; return the answer for a request, None for an event."""
        t0 = time.perf_counter() if t0 is None else t0
        kind = msg.get("type")
        if "id" not in msg:
            self._event(kind, msg)
            return None
        rid = msg["id"]
        try:
            field, value = self._request(kind, msg, t0)
        except Exception:  # a bug must never cost the match: answer a legal default
            self._log("strong bot: decision failed, answering a default:\n" + traceback.format_exc())
            field, value = self._fallback(kind, msg)
        if field is None:
            return {"id": rid}
        return {"id": rid, field: value}

    def _event(self, kind: Any, msg: Mapping[str, Any]) -> None:
        if kind == "hand_start":
            self._reset_hand()
        elif kind == "drawn":
            self.kept |= mask_of(_safe_cards([msg.get("kept")]))
            self.discards |= mask_of(_safe_cards([msg.get("discarded")]))
        elif kind == "received":
            self.received |= mask_of(_safe_cards(msg.get("cards")))
            self.received_from = msg.get("from")
        elif kind == "played":
            seat = msg.get("seat")
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.shown):
                self.shown[seat] |= mask_of(_safe_cards([msg.get("card")]))
        elif kind == "hand_end":
            self._learn_bid_style(msg)
        elif kind == "match_end":
            self.finished = True
        elif kind == "error":
            self._log(f"strong bot: referee error: {msg.get('message')!r}")

    def _learn_bid_style(self, msg: Mapping[str, Any]) -> None:
        """Two-player: the opponent played its whole hand, so its bid can be compared
        with the hand it bid on (see bidstyle.py). Nil and Blind Nil bids are skipped."""
        bids, blind = msg.get("bids"), msg.get("blind")
        if self.n != 2 or not isinstance(bids, list) or not isinstance(blind, list) or len(bids) != 2 \
                or len(blind) != 2:
            return
        opp = 1 - self.seat
        bid = bids[opp]
        if isinstance(bid, int) and not isinstance(bid, bool) and blind[opp] is False:
            self.bid_styles.record(opp, bid, self.shown[opp], 2)

    def _deadline(self, t0: float) -> tuple[SearchConfig, BidConfig]:
        """Work limits for a play and for a bid decision that started at ``t0``.

        Bidding happens once per hand and decides most of its score, so it gets more
        work: 2x the samples, or twice the time (still within 30% of ``move_ms``).
        """
        move = self.move_ms if self.move_ms > 0 else DEFAULT_MOVE_MS
        hard = t0 + 0.5 * move / 1000.0
        if self.budget.samples is not None:
            return (SearchConfig(deadline=hard, samples=self.budget.samples),
                    BidConfig(deadline=hard, samples=BID_SAMPLE_FACTOR * self.budget.samples))
        # Stop starting new work at 85% of the allowance: the last sample in flight, the
        # answer and the pipe take the rest.
        ms = 0.85 * (self.budget.ms or 300.0)
        cap = 0.85 * 0.3 * move
        play_dl = min(hard, t0 + min(ms, cap) / 1000.0)
        bid_dl = min(hard, t0 + min(2 * ms, cap) / 1000.0)
        return SearchConfig(deadline=play_dl), BidConfig(deadline=bid_dl)

    def _view(self, msg: Mapping[str, Any]) -> View:
        state = msg.get("state")
        state = state if isinstance(state, Mapping) else {}
        v = parse_view(state, self.n, self.seat)
        v.discards |= self.discards
        if self.passed:
            v.passed |= self.passed
            v.passed_to = self.passed_to
        v.received |= self.received
        v.bid_styles = self.bid_styles.table(self.n)
        if v.move_ms:
            self.move_ms = v.move_ms
        return v

    def _request(self, kind: Any, msg: Mapping[str, Any], t0: float) -> tuple[str | None, Any]:
        if kind == "hello":
            self._hello(msg)
            return "name", self.name
        view = self._view(msg)
        if kind == "blind_nil":
            _, bid_cfg = self._deadline(t0)
            return "blind_nil", bool(decide_blind_nil(view, self.rules, bid_cfg, self.rng, self.log))
        if kind == "keep":
            card = parse_card(msg.get("card"))
            hand = view.hand | self.kept
            nil_plan = view.bids[view.seat] == 0 and view.blind[view.seat]
            return "keep", bool(keep_card(hand & ~(1 << card), view.discards, card, nil_plan))
        if kind == "discard":
            mx = msg.get("max", self.rules.blind_nil_cards)
            mx = mx if isinstance(mx, int) and not isinstance(mx, bool) else 0
            cards = blind_nil_discards(view.hand, view.discards, min(mx, view.hand.bit_count()))
            self.discards |= mask_of(cards)
            return "cards", [name(c) for c in cards]
        if kind == "pass":
            count = msg.get("count", 3)
            count = count if isinstance(count, int) and not isinstance(count, bool) else 3
            to = msg.get("to")
            cards = choose_pass(view, count, to if isinstance(to, int) else None)
            self.passed |= mask_of(cards)
            self.passed_to = to if isinstance(to, int) else None
            return "cards", [name(c) for c in cards]
        if kind == "bid":
            legal = [b for b in msg.get("legal", []) if isinstance(b, int) and not isinstance(b, bool)]
            _, bcfg = self._deadline(t0)
            return "bid", decide_bid(view, self.rules, legal, bcfg, self.rng, self.log)
        if kind == "play":
            legal = self._legal_cards(msg, view)
            scfg, _ = self._deadline(t0)
            report = decide_play(view, self.rules, legal, scfg, self.rng, self.log)
            card = report.card if legal >> report.card & 1 else (legal & -legal).bit_length() - 1
            return "card", name(card)
        self._log(f"strong bot: unknown request type {kind!r}; answering with the id only")
        return None, None

    def _hello(self, msg: Mapping[str, Any]) -> None:
        variant = msg.get("variant")
        self.n = 2 if variant == "two-player" else 4
        seat = msg.get("seat")
        self.seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else 0
        rules = msg.get("rules")
        self.rules = RuleSet.from_mapping(rules if isinstance(rules, Mapping) else None)
        t = msg.get("time")
        if isinstance(t, Mapping) and isinstance(t.get("move_ms"), (int, float)) and t["move_ms"] > 0:
            self.move_ms = float(t["move_ms"])
        self.log(f"hello: {variant} seat {self.seat}, budget {self.budget.describe()}, "
                 f"move_ms {self.move_ms:g}")

    def _legal_cards(self, msg: Mapping[str, Any], view: View) -> int:
        legal = mask_of(_safe_cards(msg.get("legal"))) & view.hand if view.hand else \
            mask_of(_safe_cards(msg.get("legal")))
        return legal or legal_now(view) or view.hand

    def _fallback(self, kind: Any, msg: Mapping[str, Any]) -> tuple[str | None, Any]:
        """A legal answer without any search (used only if a decision raised)."""
        state = msg.get("state") if isinstance(msg.get("state"), Mapping) else {}
        hand = _safe_cards(state.get("hand"))
        if kind == "hello":
            return "name", self.name
        if kind == "blind_nil":
            return "blind_nil", False
        if kind == "keep":
            return "keep", True
        if kind == "discard":
            return "cards", []
        if kind == "pass":
            count = msg.get("count", 3)
            return "cards", [name(c) for c in sorted(hand)[:count if isinstance(count, int) else 3]]
        if kind == "bid":
            legal = [b for b in msg.get("legal", []) if isinstance(b, int)] or [1]
            est = expected_tricks(mask_of(hand), self.n) if len(hand) == 13 else 3.0
            return "bid", min((b for b in legal if b > 0), key=lambda b: abs(b - est), default=legal[0])
        if kind == "play":
            legal = msg.get("legal")
            if isinstance(legal, list) and legal:
                return "card", legal[0]
            return "card", name(hand[0]) if hand else "2C"
        return None, None


def _safe_cards(x: Any) -> list[int]:
    if not isinstance(x, list):
        return []
    out = []
    for t in x:
        try:
            out.append(parse_card(t))
        except CardError:
            pass
    return out


def serve(bot: StrongBot, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the protocol loop until EOF or ``match_end``; returns the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    while True:
        line = stdin.readline()
        t0 = time.perf_counter()
        if not line:
            return 0
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            bot._log(f"strong bot: ignoring a line that is not JSON: {line[:200]!r}")
            continue
        if not isinstance(msg, dict):
            bot._log(f"strong bot: ignoring a message that is not an object: {line[:200]!r}")
            continue
        answer = bot.handle(msg, t0)
        if answer is not None:
            stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
            stdout.flush()
        if bot.finished:
            return 0

