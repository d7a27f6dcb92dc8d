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

ROOT = Path(__file__).resolve().parents[2]
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


# --------------------------------------------------------------------------- bots under test

NODE = shutil.which("node")
NO_NODE = "node is not installed: the JavaScript bots need Node.js 20 or later"
PY_BOTS = {
    "py-random": [sys.executable, str(BOTS / "random_bot.py")],
    "py-heuristic": [sys.executable, str(BOTS / "heuristic_bot.py")],
}
JS_BOTS = {
    "js-random": ["node", str(BOTS / "js" / "random_bot.js")],
    "js-heuristic": ["node", str(BOTS / "js" / "heuristic_bot.js")],
}
ALL_BOTS = [*PY_BOTS, *JS_BOTS, "c-simple"]
HEURISTICS = ["py-heuristic", "js-heuristic", "c-simple"]
RANDOMS = ["py-random", "js-random"]


@pytest.fixture(scope="session")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Build bots/c/simple_bot into a temporary folder with its Makefile."""
    make, cc = shutil.which("make"), shutil.which("cc") or shutil.which("gcc")
    if not make or not cc:
        pytest.skip("make and a C compiler are needed to build bots/c/simple_bot")
    out = tmp_path_factory.mktemp("cbot") / "simple_bot"
    proc = subprocess.run([make, "-s", "-C", str(BOTS / "c"), f"OUT={out}", f"CC={cc}"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr  # -Wall -Wextra -pedantic must stay clean
    return [str(out)]


@pytest.fixture
def argv_of(request: pytest.FixtureRequest) -> Callable[[str], list[str]]:
    def get(name: str) -> list[str]:
        if name in PY_BOTS:
            return PY_BOTS[name]
        if name in JS_BOTS:
            if NODE is None:
                pytest.skip(NO_NODE)
            return JS_BOTS[name]
        return request.getfixturevalue("c_bot")
    return get


class ForcedBlindNil(heuristic_bot.HeuristicBot):
    """In-process opponent/partner that always bids Blind Nil, to make exchanges happen."""

    def blind_nil(self, state: spadesbot.State) -> bool:
        return True


def run_hands(argv: list[str], variant: str, hands: int, seed: int, extras: bool = True,
              env: dict[str, str] | None = None) -> tuple[MiniReferee, list[SubprocessBot]]:
    """Play ``hands`` hands: the bot under test in every seat but one, which is an
    in-process Blind Nil bidder (so the tested bots face a Blind Nil draw or exchange)."""
    n = 2 if variant == "two-player" else 4
    forced = 1 if n == 2 else 2  # in partnership, seat 0 (a tested bot) must pass to it
    procs: list[SubprocessBot] = []
    bots: list[Any] = []
    for seat in range(n):
        if seat == forced:
            bots.append(InProcessBot(ForcedBlindNil()))
        else:
            procs.append(SubprocessBot(argv, env))
            bots.append(procs[-1])
    ref = MiniReferee(variant, bots, seed=seed, extras=extras)
    try:
        ref.hello()
        for _ in range(hands):
            ref.play_hand()
        ref.end()
        for p in procs:
            assert p.finish(close_stdin=False) == 0, p.stderr_text()  # exits after match_end by itself
    finally:
        for p in procs:
            p.kill()
    return ref, procs


# --------------------------------------------------------------------------- whole hands


@pytest.mark.parametrize("variant", ["partnership", "two-player"])
@pytest.mark.parametrize("name", ALL_BOTS)
def test_whole_hands_every_answer_legal(name: str, variant: str, argv_of: Callable[[str], list[str]]) -> None:
    ref, procs = run_hands(argv_of(name), variant, hands=2, seed=ALL_BOTS.index(name) * 7 + len(variant),
                           env={"BOT_SEED": "5"})
    expected = {"hello", "blind_nil", "play"} | ({"pass"} if variant == "partnership" else {"keep"})
    assert expected <= ref.kinds_asked
    # A bot that bids Blind Nil every time is never asked for a bid, but then discards.
    assert "bid" in ref.kinds_asked or "discard" in ref.kinds_asked
    assert sum(ref.tricks) == 13 and ref.hand_no == 2
    times = sorted(t for p in procs for t in p.times)
    # The bots think for well under a millisecond; 100 ms leaves room for a loaded machine.
    assert times[len(times) // 2] < 0.1, f"median answer time {times[len(times) // 2]:.3f} s"


@pytest.mark.parametrize("name", ["py-heuristic", "js-heuristic", "py-random"])
def test_whole_hands_without_optional_state_fields(name: str, argv_of: Callable[[str], list[str]]) -> None:
    """variant/rules/discards in ``state`` are extras: the bots must not need them."""
    for variant in ("partnership", "two-player"):
        ref, _ = run_hands(argv_of(name), variant, hands=1, seed=11, extras=False)
        assert sum(ref.tricks) == 13


# --------------------------------------------------------------------------- session end


def hello_msg(seat: int = 0, variant: str = "partnership") -> dict:
    return {"type": "hello", "id": 0, "protocol": 1, "match": "m1", "variant": variant, "seat": seat,
            "names": ["a", "b", "c", "d"][: 2 if variant == "two-player" else 4],
            "rules": DEFAULT_RULES, "time": TIME}


@pytest.mark.parametrize("name", ALL_BOTS)
def test_exits_on_end_of_input(name: str, argv_of: Callable[[str], list[str]]) -> None:
    bot = SubprocessBot(argv_of(name))
    try:
        answer = bot.request(hello_msg())
        assert set(answer) <= {"id", "name"}
        bot.event({"type": "hand_start", "hand": 1, "dealer": 0, "score": [0, 0], "bags": [0, 0]})
        assert bot.finish(close_stdin=True) == 0, bot.stderr_text()
    finally:
        bot.kill()


@pytest.mark.parametrize("name", ALL_BOTS)
def test_exits_after_match_end_and_ignores_the_unknown(name: str, argv_of: Callable[[str], list[str]]) -> None:
    bot = SubprocessBot(argv_of(name))
    try:
        bot.request(hello_msg(seat=1))
        bot.event({"type": "some_future_event", "payload": [1, 2, 3]})  # unknown events are ignored
        answer = bot.request({"type": "bid", "id": 5, "legal": [2, 3], "future_field": {"x": 1},
                              "state": {**blank_state(1, "partnership"), "hand": DECK[:13], "new_thing": 7}})
        assert answer["bid"] in (2, 3)
        bot.event({"type": "match_end", "score": [10, 0], "winner": 0, "reason": "target"})
        # The referee closes stdin later; a bot that stops reading at match_end may exit now.
        assert bot.finish(close_stdin=False) == 0, bot.stderr_text()
    finally:
        bot.kill()


# --------------------------------------------------------------------------- scripted requests


def blank_state(seat: int, variant: str) -> dict[str, Any]:
    n = 2 if variant == "two-player" else 4
    st: dict[str, Any] = {
        "hand_no": 1, "seat": seat, "phase": "play", "hand": [], "bids": [None] * n, "blind": [False] * n,
        "tricks": [0] * n, "trick": [], "leader": 0, "spades_broken": False, "played": [],
        "score": [0, 0], "bags": [0, 0], "time": TIME,
    }
    st["first" if n == 2 else "dealer"] = n - 1
    return st


def random_play_situation(variant: str, rng: random.Random, seat: int) -> tuple[dict, list[str]]:
    """A legal mid-hand position (random earlier play) where ``seat`` is to move, and its legal cards."""
    while True:
        st, legal = _random_position(variant, rng)
        if st["seat"] == seat:
            return st, legal


def _random_position(variant: str, rng: random.Random) -> tuple[dict, list[str]]:
    n = 2 if variant == "two-player" else 4
    deck = DECK[:]
    rng.shuffle(deck)
    hands = [deck[i * 13:(i + 1) * 13] for i in range(n)]
    bids = [rng.randint(0, 6) for _ in range(n)]
    tricks = [0] * n
    played: list[tuple[int, str]] = []
    broken = False
    leader = rng.randrange(n)
    stop = rng.randrange(13 * n)
    trick: list[tuple[int, str]] = []
    for step in range(stop):
        seat = (leader + len(trick)) % n
        card = rng.choice(legal_plays(hands[seat], trick, broken))
        if card[1] == "S" and (not trick or trick[0][1][1] != "S"):
            broken = True
        hands[seat].remove(card)
        trick.append((seat, card))
        played.append((seat, card))
        if len(trick) == n:
            leader = winner_of(trick)
            tricks[leader] += 1
            trick = []
    seat = (leader + len(trick)) % n
    st = blank_state(seat, variant)
    st.update(hand=srt(hands[seat]), bids=bids, tricks=tricks, trick=[[s, c] for s, c in trick], leader=leader,
              spades_broken=broken, played=[[s, c] for s, c in played],
              score=[rng.randrange(-200, 500, 10) for _ in range(2)], bags=[rng.randrange(10) for _ in range(2)])
    return st, legal_plays(hands[seat], trick, broken)


def check_cards(answer: dict, hand: list[str], lo: int, hi: int) -> None:
    cards = answer["cards"]
    assert isinstance(cards, list) and lo <= len(cards) <= hi, answer
    assert len(set(cards)) == len(cards) and all(c in hand for c in cards), (answer, hand)


@pytest.mark.parametrize("variant", ["partnership", "two-player"])
@pytest.mark.parametrize("name", ALL_BOTS)
def test_every_request_type_answered_legally(name: str, variant: str, argv_of: Callable[[str], list[str]]) -> None:
    rng = random.Random(f"{name}/{variant}")
    n = 2 if variant == "two-player" else 4
    bot = SubprocessBot(argv_of(name))
    ids = iter(range(1, 10_000))
    try:
        bot.request(hello_msg(seat=0, variant=variant))
        for _ in range(8):
            deck = DECK[:]
            rng.shuffle(deck)
            hand = srt(deck[:13])
            st = blank_state(0, variant)
            # blind_nil: in partnership the bot has not seen its cards yet.
            ans = bot.request({"type": "blind_nil", "id": next(ids), "state": {**st, "phase": "blind_nil"}})
            assert isinstance(ans["blind_nil"], bool)
            # bid, with the full range, without Nil, and with a narrow legal list.
            for legal in (list(range(14)), list(range(1, 14)), sorted(rng.sample(range(14), 3))):
                ans = bot.request({"type": "bid", "id": next(ids), "legal": legal, "state": {**st, "hand": hand}})
                assert type(ans["bid"]) is int and ans["bid"] in legal, (ans, legal)
            if n == 2:
                partial = hand[: rng.randrange(13)]
                ans = bot.request({"type": "keep", "id": next(ids), "card": deck[20],
                                   "state": {**st, "phase": "draw", "hand": partial}})
                assert isinstance(ans["keep"], bool)
                for blind in (True, False):
                    st2 = {**st, "bids": [0, None], "blind": [blind, False], "hand": hand, "phase": "discard"}
                    ans = bot.request({"type": "discard", "id": next(ids), "max": 3, "state": st2})
                    check_cards(ans, hand, 0, 3)
            else:
                for nil_seat in (0, 2):  # the bot as the Blind Nil bidder, then as its partner
                    bids = [None] * 4
                    bids[nil_seat] = 0
                    blind = [s == nil_seat for s in range(4)]
                    st2 = {**st, "bids": bids, "blind": blind, "hand": hand, "phase": "exchange"}
                    ans = bot.request({"type": "pass", "id": next(ids), "count": 3, "to": 2, "state": st2})
                    check_cards(ans, hand, 3, 3)
        for _ in range(40):
            st, legal = random_play_situation(variant, rng, seat=0)
            ans = bot.request({"type": "play", "id": next(ids), "legal": legal, "state": st})
            assert ans["card"] in legal, (ans, legal, st)
        bot.event({"type": "match_end", "score": [0, 0], "winner": None, "reason": "max_hands"})
        assert bot.finish() == 0
    finally:
        bot.kill()


def test_driver_catches_a_bot_that_breaks_protocol(tmp_path: Path) -> None:
    """The checks above can fail: an illegal card and a stray stdout line are both caught."""
    bad = tmp_path / "bad_bot.py"
    bad.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m.get('type') == 'hand_start':\n"
        "        print('chatter', flush=True)\n"
        "    if 'id' in m:\n"
        "        a = {'hello': {'name': 'bad'}, 'bid': {'bid': 99}, 'blind_nil': {'blind_nil': False}}\n"
        "        print(json.dumps({'id': m['id'], **a.get(m['type'], {'card': 'XX'})}), flush=True)\n"
    )
    bot = SubprocessBot([sys.executable, str(bad)])
    try:
        bot.request(hello_msg())
        with pytest.raises(ProtocolError, match="bid 99 not in legal"):
            ref = MiniReferee("partnership", [bot] + [InProcessBot(heuristic_bot.HeuristicBot()) for _ in range(3)])
            ref.hand_no, ref.looked, ref.hands, ref.bids = 0, [True] * 4, [DECK[:13]] * 4, [None] * 4
            ref.blind, ref.tricks, ref.trick, ref.played = [False] * 4, [0] * 4, [], []
            ref.broken, ref.leader, ref.dealer, ref.phase = False, 0, 3, "bid"
            ref.bid_turn(0)
        bot.event({"type": "hand_start", "hand": 2, "dealer": 0, "score": [0, 0], "bags": [0, 0]})
        with pytest.raises(ProtocolError, match="wrote to stdout with no request outstanding"):
            bot.finish()
    finally:
        bot.kill()


# --------------------------------------------------------------------------- the helper module


def test_card_helpers() -> None:
    assert spadesbot.parse_card("TH") == (8, 2)
    assert (spadesbot.rank("AS"), spadesbot.suit("AS"), spadesbot.suit_index("2C")) == (12, "S", 0)
    assert spadesbot.sort_key("2D") < spadesbot.sort_key("AD") < spadesbot.sort_key("2H")
    assert spadesbot.sort_cards(["AS", "2C", "TH", "9H", "KD"]) == ["2C", "KD", "9H", "TH", "AS"]
    assert [spadesbot.card_name(spadesbot.card_index(c)) for c in DECK] == DECK
    assert spadesbot.card_index("AS") == 51 and spadesbot.card_index("2C") == 0
    assert spadesbot.of_suit(["KH", "2S", "3H"], "H") == ["3H", "KH"]
    assert spadesbot.by_suit(["KH", "2S", "3H"]) == {"C": [], "D": [], "H": ["3H", "KH"], "S": ["2S"]}
    for bad in ("1H", "TX", "T", "ths", 7, None, "10H"):
        with pytest.raises(spadesbot.CardError) as err:
            spadesbot.parse_card(bad)
        assert repr(bad) in str(err.value)  # the message quotes the bad value
    with pytest.raises(spadesbot.CardError, match="52"):
        spadesbot.card_name(52)


def test_trick_helpers() -> None:
    assert spadesbot.beats("2S", "AH", "H") and not spadesbot.beats("AD", "3H", "H")
    assert spadesbot.beats("4H", "3H", "H") and not spadesbot.beats("3S", "4S", "H")
    assert spadesbot.trick_winner([[0, "9H"], [1, "KH"], [2, "AD"], [3, "5H"]]) == (1, "KH")
    assert spadesbot.trick_winner([[0, "9H"], [1, "2S"], [2, "3S"], [3, "AH"]]) == (2, "3S")
    assert spadesbot.trick_winner([]) is None
    played = [[0, "9H"], [1, "2S"], [2, "3H"], [3, "4H"], [1, "2C"], [2, "3C"], [3, "AH"]]
    voids = spadesbot.shown_out(played, 4)
    assert voids == {0: set(), 1: {"H"}, 2: set(), 3: {"C"}}


def test_state_defaults_and_seats() -> None:
    st = spadesbot.State.from_message({"seat": 3, "hand": ["AS", "2C"], "trick": [[1, "5H"], [2, "9H"]]},
                                      "partnership", {"target": 300})
    assert st.hand == ["2C", "AS"] and st.partner == 1 and st.side == 1 and st.opponents == [0, 2]
    assert st.led_suit == "H" and st.winning == (2, "9H") and st.still_to_play == [0]
    assert st.rules == {"target": 300} and st.bids == [None] * 4 and st.tricks_left == 13
    two = spadesbot.State.from_message({"seat": 1, "bids": [0, 4], "variant": "two-player"})
    assert two.seats == 2 and two.partner is None and two.opponents == [0] and two.is_nil(0)


def serve(bot: spadesbot.Bot, lines: list[Any], strict: bool = False) -> list[dict]:
    inp = io.StringIO("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    out = io.StringIO()
    spadesbot.run(bot, inp, out, strict=strict)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_run_loop_answers_requests_only_and_stops_at_match_end() -> None:
    seen: list[str] = []

    class Recorder(spadesbot.Bot):
        name = "rec"

        def on_played(self, msg: dict) -> None:
            seen.append(msg["card"])

    st = {**blank_state(0, "partnership"), "hand": ["2C", "AS", "KH"]}
    answers = serve(Recorder(), [
        hello_msg(), "not json", "[1, 2]", "",
        {"type": "played", "seat": 1, "card": "5H"},
        {"type": "bid", "id": 1, "legal": list(range(14)), "state": st},
        {"type": "mystery", "id": 2},  # an unknown request: no answer
        {"type": "play", "id": 3, "legal": ["KH"], "state": st},
        {"type": "pass", "id": 4, "count": 2, "to": 2, "state": st},
        {"type": "match_end", "score": [0, 0], "winner": None, "reason": "max_hands"},
        {"type": "bid", "id": 5, "legal": [1], "state": st},  # after match_end: not read
    ])
    assert answers[0] == {"id": 0, "name": "rec"}
    assert [a["id"] for a in answers] == [0, 1, 3, 4]
    assert answers[1]["bid"] in range(1, 14) and answers[2] == {"id": 3, "card": "KH"}
    assert answers[3] == {"id": 4, "cards": ["2C", "KH"]}  # the lowest cards, spades last
    assert seen == ["5H"]


def test_run_loop_replaces_a_crashing_or_illegal_decision() -> None:
    class Buggy(spadesbot.Bot):
        def play(self, state: spadesbot.State, legal: list[str]) -> str:
            raise RuntimeError("boom")

        def bid(self, state: spadesbot.State, legal: list[int]) -> int:
            return 42

        def discard(self, state: spadesbot.State, max_cards: int) -> list[str]:
            return ["AS", "AS"]

    st = {**blank_state(0, "two-player"), "hand": ["2C", "AS", "KH"]}
    reqs = [hello_msg(variant="two-player"),
            {"type": "play", "id": 1, "legal": ["2C", "KH"], "state": st},
            {"type": "bid", "id": 2, "legal": [3, 4], "state": st},
            {"type": "discard", "id": 3, "max": 3, "state": st}]
    answers = serve(Buggy(), reqs)
    assert answers[1] == {"id": 1, "card": "2C"} and answers[2]["bid"] in (3, 4) and answers[3]["cards"] == []
    with pytest.raises(RuntimeError, match="boom"):
        serve(Buggy(), reqs, strict=True)


def test_run_loop_survives_a_malformed_state() -> None:
    answers = serve(spadesbot.Bot(), [
        {"type": "play", "id": 1, "legal": ["2C"], "state": {"hand": "not a list", "trick": 5}},
        {"type": "pass", "id": 2, "count": 2, "to": 2, "state": {"hand": ["2C", "XX", "AS"]}},
    ])
    assert answers == [{"id": 1, "card": "2C"}, {"id": 2, "cards": ["2C", "XX"]}]


def test_print_inside_a_bot_goes_to_stderr(tmp_path: Path) -> None:
    """While ``run`` serves on the real stdout, print() is redirected to stderr."""
    script = tmp_path / "chatty_bot.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(BOTS)!r})\n"
        "import spadesbot\n"
        "class Chatty(spadesbot.Bot):\n"
        "    def on_hand_start(self, msg):\n"
        "        print('thinking about hand', msg['hand'])\n"
        "    def play(self, state, legal):\n"
        "        print('playing', legal[-1])\n"
        "        return legal[-1]\n"
        "spadesbot.run(Chatty())\n"
    )
    bot = SubprocessBot([sys.executable, str(script)])
    try:
        bot.request(hello_msg())
        bot.event({"type": "hand_start", "hand": 1, "dealer": 0, "score": [0, 0], "bags": [0, 0]})
        st = {**blank_state(0, "partnership"), "hand": ["2C", "3C"]}
        assert bot.request({"type": "play", "id": 1, "legal": ["2C", "3C"], "state": st})["card"] == "3C"
        assert bot.finish() == 0
        assert "thinking about hand 1" in bot.stderr_text() and "playing 3C" in bot.stderr_text()
    finally:
        bot.kill()


# --------------------------------------------------------------------------- heuristic strategy


def situation(seat: int, variant: str = "partnership", **fields: Any) -> dict[str, Any]:
    """A ``state`` for ``seat``; ``played`` defaults to the trick in progress."""
    st = blank_state(seat, variant)
    st.update(fields)
    st["hand"] = srt(st["hand"])
    if "played" not in fields:
        st["played"] = list(st["trick"])
    return st


def legal_for(st: dict) -> list[str]:
    return legal_plays(st["hand"], [(s, c) for s, c in st["trick"]], st["spades_broken"])


class PyHeuristic:
    """The Python heuristic bot in-process, answering one request at a time."""

    def __init__(self, seat: int, variant: str = "partnership") -> None:
        self.bot = heuristic_bot.HeuristicBot()
        spadesbot.decide(self.bot, hello_msg(seat, variant), strict=True)

    def ask(self, kind: str, st: dict, **fields: Any) -> Any:
        if kind == "play" and "legal" not in fields:
            fields["legal"] = legal_for(st)
        answer = spadesbot.decide(self.bot, {"type": kind, "id": 1, "state": st, **fields}, strict=True)
        assert answer is not None
        return answer[spadesbot.ANSWER_FIELDS[kind]]


STRONG = ["AS", "KS", "QS", "JS", "9S", "AH", "KH", "AD", "KD", "AC", "3C", "4D", "5H"]
WEAK = ["2C", "3C", "4C", "6C", "2D", "3D", "5D", "2H", "4H", "6H", "7H", "2S", "3S"]
MIDDLING = ["AC", "7C", "4C", "KD", "9D", "3D", "QH", "8H", "5H", "KS", "8S", "6S", "2S"]


def test_heuristic_follows_low_when_partner_wins_with_the_boss() -> None:
    # Seat 2's partner (seat 0) leads the ace; seat 1 follows. Seat 2 must not waste its queen.
    st = situation(2, hand=["3H", "QH", "9C", "KS"], trick=[[0, "AH"], [1, "5H"]], bids=[3, 3, 3, 3])
    assert PyHeuristic(2).ask("play", st) == "3H"


def test_heuristic_wins_cheaply_when_last() -> None:
    st = situation(3, hand=["JD", "QD", "AD", "2D", "5S"], trick=[[0, "9D"], [1, "5D"], [2, "TD"]],
                   bids=[3, 3, 3, 3])
    assert PyHeuristic(3).ask("play", st) == "JD"


def test_heuristic_ruffs_with_its_lowest_spade_when_void_and_short() -> None:
    st = situation(3, hand=["3S", "9S", "KS", "2C"], trick=[[0, "9D"], [1, "5D"], [2, "AD"]],
                   bids=[3, 4, 3, 3], tricks=[1, 0, 1, 0])
    assert PyHeuristic(3).ask("play", st) == "3S"


def test_heuristic_does_not_overtake_when_it_cannot_win() -> None:
    st = situation(3, hand=["2D", "9D", "JD", "5S"], trick=[[0, "5D"], [1, "AD"], [2, "3D"]], bids=[3, 3, 3, 3])
    assert PyHeuristic(3).ask("play", st) == "2D"


def test_heuristic_leads_no_unbroken_spade_and_cashes_a_boss() -> None:
    # The ace of hearts is gone, so the king is now the boss: lead it.
    earlier = [[0, "AH"], [1, "2H"], [2, "3H"], [3, "4H"]]
    st = situation(0, hand=["KH", "5C", "AS", "KS", "QS"], trick=[], played=earlier, bids=[4, 2, 3, 2],
                   tricks=[1, 0, 0, 0], spades_broken=False)
    legal = legal_for(st)
    assert legal == ["5C", "KH"]
    assert PyHeuristic(0).ask("play", st, legal=legal) == "KH"


def test_heuristic_bids_by_strength_and_always_within_legal() -> None:
    for variant, seat in (("partnership", 0), ("two-player", 1)):
        bot = PyHeuristic(seat, variant)
        strong = bot.ask("bid", situation(seat, variant, hand=STRONG, phase="bid"), legal=list(range(14)))
        middling = bot.ask("bid", situation(seat, variant, hand=MIDDLING, phase="bid"), legal=list(range(14)))
        weak = bot.ask("bid", situation(seat, variant, hand=WEAK, phase="bid"), legal=list(range(1, 14)))
        assert strong > middling > weak >= 1, (variant, strong, middling, weak)
        assert strong >= 7 and 1 <= weak <= 3
        for legal in ([5, 6], [1], [0, 9, 13], list(range(1, 14))):
            for hand in (STRONG, WEAK, MIDDLING):
                assert bot.ask("bid", situation(seat, variant, hand=hand), legal=legal) in legal


def test_heuristic_bids_nil_with_a_hopeless_hand_but_not_over_partners_nil() -> None:
    bot = PyHeuristic(0)
    assert bot.ask("bid", situation(0, hand=WEAK), legal=list(range(14))) == 0
    assert bot.ask("bid", situation(0, hand=WEAK, bids=[None, 3, 0, 4]), legal=list(range(14))) >= 1
    assert bot.ask("bid", situation(0, hand=MIDDLING), legal=list(range(14))) >= 2


def test_heuristic_plays_its_own_nil() -> None:
    bot = PyHeuristic(0)
    # Shed the highest card that still loses.
    st = situation(0, hand=["2H", "9H", "QH", "AC"], trick=[[3, "TH"]], bids=[0, 3, 4, 3])
    assert bot.ask("play", st) == "9H"
    # Void: throw the most dangerous card, never a spade that would win.
    st = situation(0, hand=["AC", "4C", "3S"], trick=[[3, "TH"]], bids=[0, 3, 4, 3])
    assert bot.ask("play", st) == "AC"
    # Leading: the lowest side card.
    st = situation(0, hand=["AC", "4C", "3D", "9H"], bids=[0, 3, 4, 3])
    assert bot.ask("play", st) == "3D"


def test_heuristic_covers_partners_nil() -> None:
    bot = PyHeuristic(0)
    # Partner (seat 2) plays after us: put the highest heart on the trick.
    st = situation(0, hand=["2H", "7H", "AH", "5C"], trick=[[3, "5H"]], bids=[4, 3, 0, 3])
    assert bot.ask("play", st) == "AH"
    # Partner already played and is winning: overtake with the lowest card that does.
    st = situation(0, hand=["2C", "TC", "KC"], trick=[[1, "4C"], [2, "9C"], [3, "6C"]], bids=[4, 3, 0, 3])
    assert bot.ask("play", st) == "TC"


def test_heuristic_ducks_under_an_opponents_nil() -> None:
    # Seat 1 bid nil and is winning the trick with the 8: stay under it.
    st = situation(2, hand=["5D", "9D", "KD"], trick=[[1, "8D"]], bids=[3, 0, 4, 5])
    assert PyHeuristic(2).ask("play", st) == "5D"


def test_heuristic_ducks_for_bags_once_the_contract_is_made() -> None:
    # Side 1 (seats 1, 3) bid 4 and has 6 tricks; 8 bags already. Opponents cannot be set.
    st = situation(3, hand=["4S", "QH", "AH", "2C"], trick=[[0, "KH"], [1, "3H"], [2, "5H"]],
                   bids=[2, 2, 2, 2], tricks=[2, 3, 1, 3], bags=[0, 8])
    assert PyHeuristic(3).ask("play", st) == "QH"  # the highest heart that still loses
    # Same cards while still short of the contract: win it with the ace.
    st["tricks"] = [2, 1, 1, 1]
    assert PyHeuristic(3).ask("play", st) == "AH"


def test_heuristic_blind_nil_only_when_far_behind() -> None:
    bot = PyHeuristic(1)
    assert bot.ask("blind_nil", situation(1, score=[450, 200])) is True
    assert bot.ask("blind_nil", situation(1, score=[300, 200])) is False
    assert bot.ask("blind_nil", situation(1, score=[100, 400])) is False
    assert bot.ask("blind_nil", situation(1, score=[450, 200], bids=[None, None, None, 0])) is False
    two = PyHeuristic(0, "two-player")
    assert two.ask("blind_nil", situation(0, "two-player", score=[0, 250])) is False  # not yet desperate
    assert two.ask("blind_nil", situation(0, "two-player", score=[100, 420])) is True


def test_heuristic_two_player_draw() -> None:
    bot = PyHeuristic(0, "two-player")
    st = situation(0, "two-player", hand=["AH", "3C"], phase="draw")
    assert bot.ask("keep", st, card="AS") is True
    assert bot.ask("keep", st, card="KD") is True
    assert bot.ask("keep", st, card="2C") is False
    assert bot.ask("keep", st, card="6D") is False
    # Planning a Blind Nil, it wants the opposite.
    nil = situation(0, "two-player", hand=["2H", "3C"], phase="draw", bids=[0, None], blind=[True, False])
    assert bot.ask("keep", nil, card="2D") is True
    assert bot.ask("keep", nil, card="AS") is False


def test_heuristic_counts_a_king_whose_ace_it_saw_discarded() -> None:
    bot = heuristic_bot.HeuristicBot()
    spadesbot.decide(bot, hello_msg(0, "two-player"))
    hand = ["KH", "7H", "3H", "5C", "8C", "9D", "4D", "6D", "2S", "5S", "7S", "9S", "JS"]
    st = spadesbot.State.from_message(situation(0, "two-player", hand=hand), "two-player")
    before = heuristic_bot.estimate_tricks(bot.view(st))
    bot.event({"type": "hand_start", "hand": 1, "first": 0, "score": [0, 0], "bags": [0, 0]})
    bot.event({"type": "drawn", "kept": "KH", "discarded": "AH"})
    after = heuristic_bot.estimate_tricks(bot.view(st))
    assert after > before + 0.2


def test_heuristic_blind_nil_discard_and_exchange() -> None:
    two = PyHeuristic(0, "two-player")
    hand = ["AS", "KH", "QD", "2C", "3C", "4C", "2D", "3D", "2H", "3H", "4H", "5H", "6D"]
    st = situation(0, "two-player", hand=hand, bids=[0, None], blind=[True, False], phase="discard")
    discarded = two.ask("discard", st, max=3)
    assert set(discarded) == {"AS", "KH", "QD"}
    assert two.ask("discard", st, max=1) == ["AS"]
    four = PyHeuristic(0)
    hand = ["AS", "KS", "AH", "2C", "3C", "4C", "9D", "3D", "2H", "QH", "4H", "5H", "6D"]
    as_nil = situation(0, hand=hand, bids=[0, 3, 4, 3], blind=[True, False, False, False], phase="exchange")
    assert set(four.ask("pass", as_nil, count=3, to=2)) == {"AS", "KS", "AH"}
    as_partner = situation(0, hand=hand, bids=[4, 3, 0, 3], blind=[False, False, True, False], phase="exchange")
    assert set(four.ask("pass", as_partner, count=3, to=2)) == {"2C", "2H", "3C"}


def test_heuristic_beats_random_over_whole_hands() -> None:
    """Strategy sanity over many in-process hands: the heuristic side outscores random play."""

    class RandomBot(spadesbot.Bot):
        def __init__(self, seed: int) -> None:
            super().__init__()
            self.rng = random.Random(seed)

        def keep(self, state: spadesbot.State, card: str) -> bool:
            return self.rng.random() < 0.5

        def bid(self, state: spadesbot.State, legal: list[int]) -> int:
            return self.rng.choice(legal)

        def play(self, state: spadesbot.State, legal: list[str]) -> str:
            return self.rng.choice(legal)

    for variant, n in (("partnership", 4), ("two-player", 2)):
        bots = [InProcessBot(heuristic_bot.HeuristicBot() if s % 2 == 0 else RandomBot(s)) for s in range(n)]
        ref = MiniReferee(variant, bots, seed=3)
        ref.hello()
        for _ in range(8):
            ref.play_hand()
        assert ref.score[0] > ref.score[1] + 200, (variant, ref.score)


# --------------------------------------------------------------------------- the other languages


@pytest.mark.parametrize("name", HEURISTICS)
def test_every_heuristic_follows_low_wins_cheaply_and_bids_by_strength(
    name: str, argv_of: Callable[[str], list[str]]
) -> None:
    bot = SubprocessBot(argv_of(name))
    ids = iter(range(1, 100))

    def ask(kind: str, st: dict, **fields: Any) -> Any:
        if kind == "play":
            fields.setdefault("legal", legal_for(st))
        answer = bot.request({"type": kind, "id": next(ids), "state": st, **fields})
        return answer[spadesbot.ANSWER_FIELDS[kind]]

    try:
        bot.request(hello_msg(seat=3))
        # Last to play, must win: the lowest winning diamond.
        st = situation(3, hand=["JD", "QD", "AD", "2D", "5S"], trick=[[0, "9D"], [1, "5D"], [2, "TD"]],
                       bids=[3, 3, 3, 3])
        assert ask("play", st) == "JD"
        # Cannot beat the ace: the lowest card.
        st = situation(3, hand=["2D", "9D", "JD", "5S"], trick=[[0, "5D"], [1, "AD"], [2, "3D"]], bids=[3, 3, 3, 3])
        assert ask("play", st) == "2D"
        if name != "c-simple":  # the C bot does not model partners: it always tries to win
            st = situation(3, hand=["3H", "QH", "9C", "KS"], trick=[[1, "AH"], [2, "5H"]], bids=[3, 3, 3, 3])
            assert ask("play", st) == "3H"
        strong = ask("bid", situation(3, hand=STRONG), legal=list(range(14)))
        weak = ask("bid", situation(3, hand=WEAK), legal=list(range(1, 14)))
        assert strong > weak >= 1, (strong, weak)
        assert ask("bid", situation(3, hand=STRONG), legal=[1, 2]) in (1, 2)
        assert ask("bid", situation(3, hand=WEAK), legal=[9, 10]) in (9, 10)
        bot.event({"type": "match_end", "score": [0, 0], "winner": None, "reason": "max_hands"})
        assert bot.finish(close_stdin=False) == 0
    finally:
        bot.kill()


def answers_with_seed(argv: list[str], seed: str | None) -> list[Any]:
    rng = random.Random(99)  # the same requests every time
    bot = SubprocessBot(argv, env={"BOT_SEED": seed} if seed is not None else None)
    out: list[Any] = []
    try:
        bot.request(hello_msg(seat=2))
        for i in range(1, 25):
            st, legal = random_play_situation("partnership", rng, seat=2)
            out.append(bot.request({"type": "play", "id": i, "legal": legal, "state": st})["card"])
            out.append(bot.request({"type": "bid", "id": 100 + i, "legal": list(range(14)), "state": st})["bid"])
        assert bot.finish() == 0
    finally:
        bot.kill()
    return out


@pytest.mark.parametrize("name", RANDOMS)
def test_random_bots_are_reproducible_with_bot_seed(name: str, argv_of: Callable[[str], list[str]]) -> None:
    argv = argv_of(name)
    first = answers_with_seed(argv, "7")
    assert answers_with_seed(argv, "7") == first
    assert answers_with_seed(argv, "8") != first
    assert len(set(first[1::2])) > 4  # bids really are spread over the legal range


def test_random_bot_is_short_and_self_contained() -> None:
    """The newcomers' model stays small and needs only the standard library."""
    source = (BOTS / "random_bot.py").read_text()
    assert len(source.splitlines()) < 40
    assert "import spadesbot" not in source
