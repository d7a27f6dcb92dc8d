"""Tests of the bundled bots (``bots/``) and of the Python helper module ``bots/spadesbot.py``.

Every bot is driven as a real subprocess by a small in-test referee (``MiniReferee``)
that speaks protocol v1: it deals or draws, asks every kind of request, checks each
answer against the rules (legal card, held cards, counts, types, same ``id``) and
fails on any stray stdout line. Focused checks then feed hand-made situations to
the heuristic bots to pin down their strategy.
"""

from __future__ import annotations

import io
import json
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
sys.path.insert(0, str(BOTS))

import heuristic_bot  # noqa: E402
import spadesbot  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
DEFAULT_RULES: dict[str, Any] = {
    "target": 500, "nil": True, "nil_bonus": 100, "blind_nil": True, "blind_nil_bonus": 200,
    "blind_nil_cards": 3, "blind_nil_behind": None, "bag_limit": 10, "bag_penalty": 100,
    "mercy": None, "max_hands": 100,
}
TIME = {"move_ms": 1000, "bank_ms": 10000}
ANSWER_TIMEOUT = 30.0  # generous for a loaded CI machine; the bots answer in milliseconds


def key(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])


def srt(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=key)


# --------------------------------------------------------------------------- channels


class ProtocolError(AssertionError):
    """A bot broke protocol v1 (the message says how)."""


class SubprocessBot:
    """One bot process: writes messages to its stdin, reads answer lines from its stdout."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            cwd=tempfile.gettempdir(),  # bots must run from any folder
            env={**os.environ, **(env or {})},
        )
        self.buf = b""
        self.times: list[float] = []

    def _send(self, msg: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def _line(self, timeout: float) -> bytes | None:
        """The next stdout line, or None at end of output."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError(f"{self.argv}: no answer within {timeout} s; stderr: {self.stderr_text()}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if self.buf:
                        raise ProtocolError(f"unterminated output line: {self.buf!r}")
                    return None
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def event(self, msg: dict) -> None:
        self._send(msg)

    def request(self, msg: dict) -> dict:
        start = time.perf_counter()
        self._send(msg)
        line = self._line(ANSWER_TIMEOUT)
        self.times.append(time.perf_counter() - start)
        if line is None:
            raise ProtocolError(f"{self.argv} closed stdout instead of answering {msg['type']}; "
                                f"stderr: {self.stderr_text()}")
        try:
            answer = json.loads(line)
        except ValueError:
            raise ProtocolError(f"answer to {msg['type']} is not JSON: {line!r}") from None
        if not isinstance(answer, dict) or answer.get("id") != msg["id"]:
            raise ProtocolError(f"answer to {msg['type']} id {msg['id']} has the wrong id: {line!r}")
        return answer

    def finish(self, close_stdin: bool = True, timeout: float = 5.0) -> int:
        """Close stdin, wait for the exit; fail on any output left on stdout."""
        if close_stdin and self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise ProtocolError(f"{self.argv} did not exit within {timeout} s")
        rest = self.buf + (self.proc.stdout.read() if self.proc.stdout else b"")
        if rest:
            raise ProtocolError(f"{self.argv} wrote to stdout with no request outstanding: {rest[:300]!r}")
        return code

    def stderr_text(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-2000:]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class InProcessBot:
    """A Python bot object behind the same interface, for fast strategy checks."""

    def __init__(self, bot: spadesbot.Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def event(self, msg: dict) -> None:
        self.bot.event(json.loads(json.dumps(msg)))

    def request(self, msg: dict) -> dict:
        answer = spadesbot.decide(self.bot, json.loads(json.dumps(msg)), strict=True)
        assert answer is not None
        return answer

    def finish(self, close_stdin: bool = True, timeout: float = 5.0) -> int:
        return 0

    def kill(self) -> None:
        pass


# --------------------------------------------------------------------------- mini referee


def legal_plays(hand: Sequence[str], trick: Sequence[tuple[int, str]], broken: bool) -> list[str]:
    if not trick:
        side = [c for c in hand if c[1] != "S"]
        return srt(hand) if broken or not side else srt(side)
    follow = [c for c in hand if c[1] == trick[0][1][1]]
    return srt(follow or hand)


def winner_of(trick: Sequence[tuple[int, str]]) -> int:
    led = trick[0][1][1]
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card[1] == best[1] and key(card)[1] > key(best)[1]) or (card[1] == "S" and best[1] != "S"):
            best_seat, best = seat, card
    assert best[1] in (led, "S")
    return best_seat


class MiniReferee:
    """Plays whole hands of either variant with real protocol messages, checking every answer."""

    def __init__(self, variant: str, bots: list[Any], rules: dict | None = None, seed: int = 0,
                 extras: bool = True) -> None:
        self.variant = variant
        self.n = 2 if variant == "two-player" else 4
        assert len(bots) == self.n
        self.bots = bots
        self.rules = {**DEFAULT_RULES, **(rules or {})}
        self.rng = random.Random(seed)
        self.extras = extras  # send the optional state fields (variant, rules, discards, ...)
        self.next_id = 0
        self.hand_no = 0
        self.score = [0, 0]
        self.bags = [0, 0]
        self.kinds_asked: set[str] = set()
        self.bid_log: list[tuple[int, list[str], int]] = []

    # plumbing ---------------------------------------------------------------------
    def side(self, seat: int) -> int:
        return seat if self.n == 2 else seat % 2

    def all_event(self, msg: dict) -> None:
        for b in self.bots:
            b.event(msg)

    def ask(self, to_seat: int, kind: str, **fields: Any) -> dict:
        self.next_id += 1
        msg = {"type": kind, "id": self.next_id, **fields}
        if kind != "hello":
            msg["state"] = self.state(to_seat)
        self.kinds_asked.add(kind)
        return self.bots[to_seat].request(msg)

    def state(self, seat: int) -> dict:
        st: dict[str, Any] = {
            "hand_no": self.hand_no, "seat": seat, "phase": self.phase,
            "hand": srt(self.hands[seat]) if self.looked[seat] else [],
            "bids": list(self.bids), "blind": list(self.blind), "tricks": list(self.tricks),
            "trick": [[s, c] for s, c in self.trick], "leader": self.leader,
            "spades_broken": self.broken, "played": [[s, c] for s, c in self.played],
            "score": list(self.score), "bags": list(self.bags), "time": dict(TIME),
        }
        st["first" if self.n == 2 else "dealer"] = self.dealer
        if self.extras:
            st.update(variant=self.variant, rules=dict(self.rules), passed=[], received=[])
            if self.n == 2:
                st["discards"] = srt(self.seen_discards[seat])
        return st

    # the session --------------------------------------------------------------------
    def hello(self) -> None:
        for seat in range(self.n):
            answer = self.ask(seat, "hello", protocol=1, match="mini", variant=self.variant, seat=seat,
                              names=[f"bot{i}" for i in range(self.n)], rules=self.rules, time=TIME)
            if "name" in answer:
                assert isinstance(answer["name"], str), answer

    def end(self) -> None:
        winner = 0 if self.score[0] > self.score[1] else 1 if self.score[1] > self.score[0] else None
        self.all_event({"type": "match_end", "score": self.score, "winner": winner, "reason": "max_hands"})

    def blind_allowed(self, seat: int) -> bool:
        if not self.rules["blind_nil"]:
            return False
        behind = self.rules["blind_nil_behind"]
        side = self.side(seat)
        return behind is None or self.score[1 - side] - self.score[side] >= behind

    def play_hand(self) -> None:
        self.hand_no += 1
        n = self.n
        self.dealer = (self.hand_no - 1) % n  # partnership dealer / two-player first player
        self.bids: list[int | None] = [None] * n
        self.blind = [False] * n
        self.tricks = [0] * n
        self.trick: list[tuple[int, str]] = []
        self.played: list[tuple[int, str]] = []
        self.broken = False
        self.leader = (self.dealer + 1) % n
        self.looked = [False] * n
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.seen_discards: list[list[str]] = [[] for _ in range(n)]
        self.phase = "bid"
        start = {"type": "hand_start", "hand": self.hand_no, "score": self.score, "bags": self.bags}
        start["first" if n == 2 else "dealer"] = self.dealer
        self.all_event(start)
        if n == 4:
            self.deal_and_bid()
        else:
            self.draw_and_bid()
        self.play_tricks()
        self.score_hand()

    def bid_turn(self, seat: int) -> None:
        legal = list(range(0 if self.rules["nil"] else 1, 14))
        answer = self.ask(seat, "bid", legal=legal)
        bid = answer.get("bid")
        if isinstance(bid, bool) or bid not in legal:
            raise ProtocolError(f"seat {seat}: bid {bid!r} not in legal {legal}")
        self.bids[seat] = bid
        self.bid_log.append((seat, srt(self.hands[seat]), bid))
        self.all_event({"type": "bid_made", "seat": seat, "bid": bid, "blind": False})

    def ask_blind(self, seat: int) -> bool:
        if not self.blind_allowed(seat):
            return False
        self.phase = "blind_nil"
        answer = self.ask(seat, "blind_nil")
        if not isinstance(answer.get("blind_nil"), bool):
            raise ProtocolError(f"blind_nil answer is not a bool: {answer}")
        if answer["blind_nil"]:
            self.bids[seat], self.blind[seat] = 0, True
            self.all_event({"type": "bid_made", "seat": seat, "bid": 0, "blind": True})
        return answer["blind_nil"]

    def show(self, seat: int) -> None:
        self.looked[seat] = True
        self.bots[seat].event({"type": "hand", "cards": srt(self.hands[seat])})

    def deal_and_bid(self) -> None:
        deck = DECK[:]
        self.rng.shuffle(deck)
        for i, card in enumerate(deck):
            self.hands[(self.dealer + 1 + i) % 4].append(card)
        for i in range(4):
            seat = (self.dealer + 1 + i) % 4
            if self.ask_blind(seat):
                continue
            self.show(seat)
            self.phase = "bid"
            self.bid_turn(seat)
        for seat in range(4):
            if not self.looked[seat]:
                self.show(seat)
        k = self.rules["blind_nil_cards"]
        for side in (0, 1):
            nils = [s for s in (side, side + 2) if self.blind[s]]
            if len(nils) != 1 or k == 0:
                continue
            nil = nils[0]
            partner = (nil + 2) % 4
            self.phase = "exchange"
            self.exchange(partner, nil, k)
            self.exchange(nil, partner, k)

    def exchange(self, giver: int, taker: int, k: int) -> None:
        answer = self.ask(giver, "pass", count=k, to=taker)
        cards = answer.get("cards")
        hand = self.hands[giver]
        if not (isinstance(cards, list) and len(cards) == k and len(set(cards)) == k and all(c in hand for c in cards)):
            raise ProtocolError(f"seat {giver}: pass of {k} cards from {srt(hand)} got: {cards!r}")
        for c in cards:
            hand.remove(c)
            self.hands[taker].append(c)
        self.bots[taker].event({"type": "received", "cards": srt(cards), "from": giver})
        self.show(giver)
        self.show(taker)

    def draw_and_bid(self) -> None:
        first, second = self.dealer, 1 - self.dealer
        for seat in (first, second):
            self.ask_blind(seat)
        deck = DECK[:]
        self.rng.shuffle(deck)
        pile: list[str] = []
        self.phase = "draw"
        for turn in range(26):
            seat = first if turn % 2 == 0 else second
            self.looked[seat] = True
            top = deck.pop()
            answer = self.ask(seat, "keep", card=top)
            if not isinstance(answer.get("keep"), bool):
                raise ProtocolError(f"keep answer is not a bool: {answer}")
            if answer["keep"]:
                kept, discarded = top, deck.pop()
            else:
                discarded, kept = top, deck.pop()
            self.hands[seat].append(kept)
            pile.append(discarded)
            self.seen_discards[seat].append(discarded)
            self.bots[seat].event({"type": "drawn", "kept": kept, "discarded": discarded})
        assert not deck and all(len(h) == 13 for h in self.hands)
        for seat in (0, 1):
            self.show(seat)
        k = self.rules["blind_nil_cards"]
        for seat in (first, second):
            if not self.blind[seat]:
                continue
            self.phase = "discard"
            answer = self.ask(seat, "discard", max=k)
            cards = answer.get("cards")
            hand = self.hands[seat]
            if not (isinstance(cards, list) and len(cards) <= k and len(set(cards)) == len(cards)
                    and all(c in hand for c in cards)):
                raise ProtocolError(f"seat {seat}: discard of up to {k} from {srt(hand)} got: {cards!r}")
            new = self.rng.sample(pile, len(cards))
            for c in new:
                pile.remove(c)
            for c in cards:
                hand.remove(c)
                pile.append(c)
            hand.extend(new)
            self.bots[seat].event({"type": "received", "cards": srt(new), "from": "discards"})
            self.show(seat)
        self.phase = "bid"
        for seat in (second, first):
            if self.bids[seat] is None:
                self.bid_turn(seat)
        self.leader = second

    def play_tricks(self) -> None:
        self.phase = "play"
        for _ in range(13):
            self.trick = []
            for i in range(self.n):
                seat = (self.leader + i) % self.n
                legal = legal_plays(self.hands[seat], self.trick, self.broken)
                answer = self.ask(seat, "play", legal=legal)
                card = answer.get("card")
                if card not in legal:
                    raise ProtocolError(f"seat {seat}: card {card!r} not in legal {legal}; "
                                        f"hand {srt(self.hands[seat])}, trick {self.trick}")
                if card[1] == "S" and (self.trick and self.trick[0][1][1] != "S" or not self.trick):
                    self.broken = True
                self.hands[seat].remove(card)
                self.trick.append((seat, card))
                self.played.append((seat, card))
                self.all_event({"type": "played", "seat": seat, "card": card})
            win = winner_of(self.trick)
            self.tricks[win] += 1
            self.all_event({"type": "trick", "cards": [[s, c] for s, c in self.trick], "winner": win})
            self.leader = win
        self.trick = []

    def score_hand(self) -> None:
        points = [0, 0]
        for side in (0, 1):
            members = [s for s in range(self.n) if self.side(s) == side]
            contract = sum(self.bids[s] or 0 for s in members)
            took = sum(self.tricks[s] for s in members if self.bids[s])
            new_bags = 0
            for s in members:
                if self.bids[s] == 0:
                    bonus = self.rules["blind_nil_bonus"] if self.blind[s] else self.rules["nil_bonus"]
                    points[side] += bonus if self.tricks[s] == 0 else -bonus + self.tricks[s]
                    new_bags += self.tricks[s]
            if contract:
                if took >= contract:
                    points[side] += 10 * contract + took - contract
                    new_bags += took - contract
                else:
                    points[side] -= 10 * contract
            self.bags[side] += new_bags
            while self.bags[side] >= self.rules["bag_limit"]:
                self.bags[side] -= self.rules["bag_limit"]
                points[side] -= self.rules["bag_penalty"]
            self.score[side] += points[side]
        self.all_event({"type": "hand_end", "hand": self.hand_no, "bids": self.bids, "blind": self.blind,
                        "tricks": self.tricks, "points": points, "score": self.score, "bags": self.bags})
