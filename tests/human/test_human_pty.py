"""The human adapter driven through a pseudo-terminal, as a person and a referee would.

Each test starts ``python -m referee.human --tty <pty>`` in a session of its own
(as the match runner starts bots), plays the referee's part on the adapter's
stdin/stdout with a small scripted referee (other seats are played by a
lowest-legal-card policy), and types on the pty master as a person would. The
assertions cover the answers the referee receives (always legal, stdout holding
nothing but answers) and the text on the person's screen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import re
import select
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TIMEOUT = 10.0


def order(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])


def srt(cards: list[str]) -> list[str]:
    return sorted(cards, key=order)


class Screen:
    """Everything the adapter wrote on the pty, collected by a thread, ANSI stripped."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.raw = bytearray()
        self.lock = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _pump(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                return
            with self.lock:
                self.raw.extend(chunk)

    def text(self) -> str:
        with self.lock:
            data = bytes(self.raw)
        return ANSI.sub("", data.decode("utf-8", errors="replace")).replace("\r", "")

    def mark(self) -> int:
        return len(self.text())

    def wait_for(self, needle: str, since: int = 0, timeout: float = TIMEOUT) -> str:
        """Wait until ``needle`` shows after position ``since``; return the text from there."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tail = self.text()[since:]
            if needle in tail:
                return tail
            time.sleep(0.01)
        raise AssertionError(f"screen never showed {needle!r}; it ends with:\n{self.text()[-2500:]}")


class Adapter:
    """A running adapter: protocol pipes plus the person's pty."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.master, self.slave = os.openpty()
        full_env = dict(os.environ, TERM="xterm-256color")
        full_env.pop("NO_COLOR", None)
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee.human", "--tty", os.ttyname(self.slave), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=full_env,
            start_new_session=True,  # like the match runner: no controlling terminal, own group
        )
        self.screen = Screen(self.master)
        self.out = bytearray()
        self.answers: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def read_answer(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next stdout line, which must be a JSON object (stdout holds answers only)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.out:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError(f"no answer on stdout; screen ends with:\n{self.screen.text()[-2000:]}")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"adapter closed stdout; stderr: {self.stderr()}")
            self.out.extend(chunk)
        line, _, rest = bytes(self.out).partition(b"\n")
        self.out = bytearray(rest)
        answer = json.loads(line)
        assert isinstance(answer, dict), line
        self.answers.append(answer)
        return answer

    def no_answer_pending(self) -> bool:
        assert self.proc.stdout is not None
        return not self.out and not select.select([self.proc.stdout.fileno()], [], [], 0.05)[0]

    def type(self, text: str) -> None:
        os.write(self.master, text.encode() + b"\r")  # Enter sends CR; the tty maps it to NL

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stderr.read().decode(errors="replace")

    def close(self) -> int:
        """Close the adapter's stdin (as the referee does) and return its exit status."""
        if self.proc.stdin and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            self.release()

    def release(self) -> None:
        """Kill the process if it is still running (a failed test) and free the pty."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def rest_of_stdout(self) -> bytes:
        assert self.proc.stdout is not None and self.proc.poll() is not None
        return bytes(self.out) + self.proc.stdout.read()


@pytest.fixture
def spawn() -> Any:
    """Start adapters; at teardown kill any left running and close their ptys."""
    started: list[Adapter] = []

    def start(*args: str) -> Adapter:
        adapter = Adapter(*args)
        started.append(adapter)
        return adapter

    yield start
    for adapter in started:
        adapter.release()
        for fd in (adapter.slave, adapter.master):
            with contextlib.suppress(OSError):
                os.close(fd)


# -- a small scripted referee --------------------------------------------------


def legal_plays(hand: list[str], trick: list[tuple[int, str]], broken: bool) -> list[str]:
    if trick:
        led = trick[0][1][1]
        same = [c for c in hand if c[1] == led]
        return srt(same or hand)
    if broken or all(c[1] == "S" for c in hand):
        return srt(hand)
    return srt([c for c in hand if c[1] != "S"])


def trick_winner(trick: list[tuple[int, str]]) -> int:
    led = trick[0][1][1]
    spades = [(s, c) for s, c in trick if c[1] == "S"]
    pool = spades or [(s, c) for s, c in trick if c[1] == led]
    return max(pool, key=lambda sc: RANKS.index(sc[1][0]))[0]


def side_points(members: list[int], bids: list[int], blind: list[bool], tricks: list[int]) -> tuple[int, int]:
    """(points, bags) for a side, per the project rules (no earlier bags)."""
    points = bags = 0
    contract = sum(bids[s] for s in members if bids[s] > 0)
    taken = sum(tricks[s] for s in members if bids[s] > 0)
    if contract:
        if taken >= contract:
            points += 10 * contract + (taken - contract)
            bags += taken - contract
        else:
            points -= 10 * contract
    for s in members:
        if bids[s] == 0:
            bonus = 200 if blind[s] else 100
            if tricks[s]:
                points += tricks[s] - bonus
                bags += tricks[s]
            else:
                points += bonus
    if bags >= 10:
        points -= 100
        bags -= 10
    return points, bags


Person = Callable[["Referee", dict[str, Any]], None]


@dataclasses.dataclass
class Referee:
    """Plays one hand with the adapter in ``human`` seat, then ends the match."""

    adapter: Adapter
    variant: str
    human: int
    person: Person
    seed: int = 3

    def __post_init__(self) -> None:
        self.n = 4 if self.variant == "partnership" else 2
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        self.bids: list[int | None] = [None] * self.n
        self.blind = [False] * self.n
        self.tricks = [0] * self.n
        self.trick: list[tuple[int, str]] = []
        self.played: list[tuple[int, str]] = []
        self.broken = False
        self.leader = 0
        self.next_id = 0
        self.rng = random.Random(self.seed)
        self.requests: list[dict[str, Any]] = []

    # messages
    def event(self, message: dict[str, Any], to: int | None = None) -> None:
        if to is None or to == self.human:
            self.adapter.send(message)

    def state(self, phase: str) -> dict[str, Any]:
        roles = {"dealer": 3} if self.n == 4 else {"first": 0}
        return {
            "hand_no": 1, "seat": self.human, "phase": phase, "hand": srt(self.hands[self.human]), **roles,
            "bids": list(self.bids), "blind": list(self.blind), "tricks": list(self.tricks),
            "trick": [list(t) for t in self.trick], "leader": self.leader, "spades_broken": self.broken,
            "played": [list(p) for p in self.played], "score": [0, 0], "bags": [0, 0],
            "time": {"move_ms": None, "bank_ms": 0},
        }

    def request(self, kind: str, phase: str, **fields: Any) -> dict[str, Any]:
        self.next_id += 1
        message = {"type": kind, "id": self.next_id, **fields, "state": self.state(phase)}
        if kind == "blind_nil" and self.n == 4:
            message["state"]["hand"] = []
        self.requests.append(message)
        mark = self.adapter.screen.mark()
        self.adapter.send(message)
        message["_mark"] = mark
        self.person(self, message)
        answer = self.adapter.read_answer()
        assert answer["id"] == self.next_id, answer
        return answer

    # the game
    def hello(self) -> None:
        names = ["ann", "bob", "cy", "di"][: self.n]
        names[self.human] = "human"
        self.next_id = 0
        self.adapter.send({
            "type": "hello", "id": 0, "protocol": 1, "match": "t-1", "variant": self.variant, "seat": self.human,
            "names": names, "rules": {"target": 300, "nil": True, "nil_bonus": 100, "blind_nil": True,
                                      "blind_nil_bonus": 200, "blind_nil_cards": 3, "blind_nil_behind": None,
                                      "bag_limit": 10, "bag_penalty": 100, "mercy": None, "max_hands": 100},
            "time": {"move_ms": None, "bank_ms": 0},
        })
        assert self.adapter.read_answer() == {"id": 0, "name": "human"}

    def bot_bid(self, seat: int) -> int:
        hand = self.hands[seat]
        return max(1, sum(c[0] in "AK" for c in hand) + sum(c[1] == "S" and c[0] in "QJT" for c in hand))

    def bid(self, seat: int, bid: int, blind: bool = False) -> None:
        self.bids[seat], self.blind[seat] = bid, blind
        self.event({"type": "bid_made", "seat": seat, "bid": bid, "blind": blind})

    def play_hand(self, first_leader: int) -> None:
        self.leader = first_leader
        for _ in range(13):
            self.trick = []
            for k in range(self.n):
                seat = (self.leader + k) % self.n
                legal = legal_plays(self.hands[seat], self.trick, self.broken)
                if seat == self.human:
                    card = self.request("play", "play", legal=legal)["card"]
                    assert card in legal, (card, legal)
                else:
                    card = legal[0] if not self.trick else min(legal, key=lambda c: RANKS.index(c[0]))
                self.hands[seat].remove(card)
                # Legal play means a spade can only appear once broken, or break them now.
                self.broken = self.broken or card[1] == "S"
                self.trick.append((seat, card))
                self.played.append((seat, card))
                self.event({"type": "played", "seat": seat, "card": card})
            winner = trick_winner(self.trick)
            self.tricks[winner] += 1
            self.event({"type": "trick", "cards": [list(t) for t in self.trick], "winner": winner})
            self.leader = winner
        self.trick = []

    def finish(self) -> list[int]:
        bids = [int(b) for b in self.bids]  # type: ignore[arg-type]
        sides = [[s for s in range(self.n) if s % 2 == side] if self.n == 4 else [side] for side in (0, 1)]
        results = [side_points(m, bids, self.blind, self.tricks) for m in sides]
        points = [p for p, _ in results]
        self.event({"type": "hand_end", "hand": 1, "bids": bids, "blind": self.blind, "tricks": self.tricks,
                    "points": points, "score": points, "bags": [b for _, b in results]})
        winner = 0 if points[0] > points[1] else 1 if points[1] > points[0] else None
        self.event({"type": "match_end", "score": points, "winner": winner, "reason": "max_hands"})
        return points

    def run_partnership(self) -> list[int]:
        """Dealer 3: the human (seat 0) bids first and leads; Partner (seat 2) bids blind nil."""
        deck = DECK[:]
        self.rng.shuffle(deck)
        for i, card in enumerate(deck):
            self.hands[i % 4].append(card)
        self.hello()
        self.event({"type": "hand_start", "hand": 1, "dealer": 3, "score": [0, 0], "bags": [0, 0]})
        for seat in range(4):
            if seat == self.human:
                assert self.request("blind_nil", "bid")["blind_nil"] is False
                self.event({"type": "hand", "cards": srt(self.hands[seat])}, to=seat)
                self.bid(seat, self.request("bid", "bid", legal=list(range(14)))["bid"])
            elif seat == 2:
                self.bid(seat, 0, blind=True)
            else:
                self.bid(seat, self.bot_bid(seat))
        # Exchange: the blind nil bidder's partner (the human) passes first, then gets three back.
        given = self.request("pass", "exchange", count=3, to=2)["cards"]
        assert len(given) == 3 and len(set(given)) == 3 and set(given) <= set(self.hands[0])
        for c in given:
            self.hands[0].remove(c)
            self.hands[2].append(c)
        back = srt(self.hands[2])[-3:]
        for c in back:
            self.hands[2].remove(c)
            self.hands[0].append(c)
        self.event({"type": "received", "cards": srt(back), "from": 2}, to=0)
        self.event({"type": "hand", "cards": srt(self.hands[0])}, to=0)
        self.play_hand(first_leader=0)
        return self.finish()

    def run_two_player(self) -> list[int]:
        """Human is seat 0, the first player: blind nil, the draw, the discard, then play."""
        stock = DECK[:]
        self.rng.shuffle(stock)
        discards: list[str] = []
        self.hello()
        self.event({"type": "hand_start", "hand": 1, "first": 0, "score": [0, 0], "bags": [0, 0]})
        assert self.request("blind_nil", "blind_nil")["blind_nil"] is True
        self.bid(0, 0, blind=True)
        for turn in range(26):
            seat = turn % 2
            top, nxt = stock.pop(0), stock.pop(0)
            if seat == self.human:
                keep = self.request("keep", "draw", card=top)["keep"]
                assert isinstance(keep, bool)
            else:
                keep = RANKS.index(top[0]) >= 6
            kept, dropped = (top, nxt) if keep else (nxt, top)
            self.hands[seat].append(kept)
            discards.append(dropped)
            if seat == self.human:
                self.event({"type": "drawn", "kept": kept, "discarded": dropped}, to=seat)
        self.event({"type": "hand", "cards": srt(self.hands[0])}, to=0)
        out = self.request("discard", "exchange", max=3)["cards"]
        assert len(out) <= 3 and set(out) <= set(self.hands[0])
        pool = discards[:]
        self.rng.shuffle(pool)
        got = pool[: len(out)]
        for c in out:
            self.hands[0].remove(c)
        self.hands[0].extend(got)
        self.event({"type": "received", "cards": srt(got), "from": "discards"}, to=0)
        self.event({"type": "hand", "cards": srt(self.hands[0])}, to=0)
        self.bid(1, self.bot_bid(1))
        self.play_hand(first_leader=1)
        return self.finish()


# -- the person ---------------------------------------------------------------

SYMBOL = dict(zip(SUITS, "\u2663\u2666\u2665\u2660"))


def spelled(card: str, style: int) -> str:
    """Type a card in one of the forgiving spellings, rotating through them."""
    rank = "10" if card[0] == "T" else card[0]
    return [card.lower(), card, rank.lower() + card[1].lower(), rank + SYMBOL[card[1]]][style % 4]


@dataclasses.dataclass
class Typist:
    """Answers every request by typing, trying illegal entries first where it can."""

    keep_pattern: list[bool] = dataclasses.field(default_factory=lambda: [True, False])
    rejected: list[str] = dataclasses.field(default_factory=list)
    plays: int = 0
    commands_done: bool = False

    def __call__(self, ref: Referee, message: dict[str, Any]) -> None:
        adapter, screen, mark = ref.adapter, ref.adapter.screen, message["_mark"]
        kind = message["type"]
        hand = srt(message["state"]["hand"])
        prompt = screen.wait_for("\u203a ", mark)

        def reject(text: str, expected: str) -> None:
            m = screen.mark()
            adapter.type(text)
            screen.wait_for(expected, m)
            screen.wait_for("\u203a ", m)  # asked again
            assert adapter.no_answer_pending(), f"{text!r} must not be answered"
            self.rejected.append(expected)

        if kind == "blind_nil":
            assert "blind nil" in prompt
            reject("maybe", "please answer y/n")
            adapter.type("n" if ref.variant == "partnership" else "yes")
        elif kind == "bid":
            assert "Your bid (nil or 1-13)" in prompt
            reject("14", "you cannot bid 14: there are only 13 tricks")
            reject("lots", "not a bid: 'lots'")
            if not self.commands_done:
                self.commands_done = True
                # Each command waits for the prompt to come back before the next
                # line is typed: the adapter discards keys typed while it was not
                # asking (TCSAFLUSH), so typing ahead would lose them.
                m = screen.mark()
                adapter.type("help")
                screen.wait_for("nil (or 0)", m)
                screen.wait_for("\u203a ", m)
                m = screen.mark()
                adapter.type("score")
                screen.wait_for("playing to 300", m)
                screen.wait_for("\u203a ", m)
            adapter.type("3")
        elif kind == "pass":
            assert "Pass 3 cards to Partner" in prompt
            reject(spelled(hand[0], 0), "pass exactly 3 cards, got 1")
            missing = next(c for c in srt(DECK) if c not in hand)
            reject(f"1 2 {missing.lower()}", "you don't hold")
            adapter.type("1 2 3")
        elif kind == "keep":
            assert f"You drew  {spelled(message['card'], 3)}" in prompt
            if message["state"]["hand"] == []:
                reject("perhaps", "please answer y/n/k/keep/d/discard")
            drawn = len(message["state"]["hand"])
            keep = self.keep_pattern[drawn % len(self.keep_pattern)]
            adapter.type((["y", "keep"] if keep else ["n", "discard"])[drawn // 2 % 2])
        elif kind == "discard":
            assert "discard up to 3 cards" in prompt
            reject("1 2 3 4", "at most 3 cards, got 4")
            adapter.type(f"{spelled(hand[-1], 2)}, {len(hand) - 1}")
        elif kind == "play":
            legal = message["legal"]
            trick = message["state"]["trick"]
            if trick:
                led = trick[0][1][1]
                off = [c for c in hand if c[1] != led]
                if any(c[1] == led for c in hand) and off:
                    reject(spelled(off[0], self.plays), f"you must follow {dict(zip(SUITS, ['clubs', 'diamonds', 'hearts', 'spades']))[led]}:")
            elif not message["state"]["spades_broken"] and any(c[1] == "S" for c in hand) and any(c[1] != "S" for c in hand):
                spade = next(c for c in hand if c[1] == "S")
                reject(spelled(spade, self.plays), "leading a spade: spades are not broken yet")
            if self.plays == 2:
                missing = next(c for c in srt(DECK) if c not in hand)
                reject(spelled(missing, 1), f"you don't hold {spelled(missing, 3)}")
            choice = min(legal, key=lambda c: RANKS.index(c[0]))  # low cards give the lead away
            # Alternate between typing the card's number in the list and spelling it.
            adapter.type(str(hand.index(choice) + 1) if self.plays % 2 else spelled(choice, self.plays // 2))
            self.plays += 1


# -- the tests ----------------------------------------------------------------


def test_partnership_full_hand_through_a_pty(spawn: Any) -> None:
    adapter = spawn()
    typist = Typist()
    ref = Referee(adapter, "partnership", human=0, person=typist, seed=11)
    try:
        points = ref.run_partnership()
        screen = adapter.screen.wait_for("Match over")
    finally:
        code = adapter.close()
    text = adapter.screen.text()
    assert code == 0, adapter.stderr()
    # Every request got exactly one answer, in order, and nothing else reached stdout.
    assert [a["id"] for a in adapter.answers] == list(range(0, ref.next_id + 1))
    assert adapter.out == bytearray()
    # The answers are the decisions typed after the rejected ones.
    plays = [a["card"] for a in adapter.answers if "card" in a]
    assert len(plays) == 13
    bid = next(a["bid"] for a in adapter.answers if "bid" in a)
    assert bid == 3
    # Rejections were explained and re-asked (checked in Typist), including a follow-suit one.
    assert any(r.startswith("you must follow") for r in typist.rejected), typist.rejected
    assert any(r.startswith("you don't hold") for r in typist.rejected)
    # The screen: welcome, the table with names and bids, the hand by suit, narration.
    assert "You sit in seat 0; play goes clockwise" in text and "Partner: cy" in text
    assert re.search(r"Partner\s+cy\s+blind nil", text)
    assert "Partner bids blind nil!" in text
    assert "Partner passed you:" in text
    assert re.search(r"\n  \u2663 +1:4\u2663", text), "the hand shows clubs first, numbered from 1"
    assert "Trick 13:" in text and "Hand 1 scored" in text
    assert "Partner's blind nil" in text
    assert "Us:" in text and f"{'+' if points[0] >= 0 else ''}{points[0]}" in screen
    assert "Match over:" in text
    # Colours were on (a terminal without NO_COLOR): hearts are drawn red.
    assert "\x1b[31m" in adapter.screen.raw.decode("utf-8", errors="replace")


def test_two_player_full_hand_through_a_pty(spawn: Any) -> None:
    adapter = spawn()
    typist = Typist()
    ref = Referee(adapter, "two-player", human=0, person=typist, seed=5)
    try:
        points = ref.run_two_player()
        adapter.screen.wait_for("Match over")
    finally:
        code = adapter.close()
    text = adapter.screen.text()
    assert code == 0, adapter.stderr()
    kinds = [m["type"] for m in ref.requests]
    assert kinds[0] == "blind_nil" and kinds.count("keep") == 13 and kinds.count("discard") == 1
    assert kinds.count("play") == 13
    keeps = [a["keep"] for a in adapter.answers if "keep" in a]
    assert keeps == [True, False] * 6 + [True]
    discarded = next(a["cards"] for a in adapter.answers if "cards" in a)
    assert len(discarded) == 2
    assert "You kept" in text and "From the discards you got:" in text
    assert "Opponent" in text and "you draw first" in text
    assert "your blind nil" in text
    assert any(r.startswith("you must follow") or r.startswith("leading a spade") for r in typist.rejected)
    assert f"{points[0]:+d}" in text


def test_ctrl_c_at_a_prompt_leaves_cleanly(spawn: Any) -> None:
    adapter = spawn()
    ref = Referee(adapter, "partnership", human=1, person=lambda r, m: None)
    ref.hello()
    mark = adapter.screen.mark()
    adapter.send({"type": "blind_nil", "id": 1, "state": ref.state("bid")})
    adapter.screen.wait_for("\u203a ", mark)
    os.write(adapter.master, b"ye\x03")  # Ctrl-C mid-line, no Enter
    adapter.screen.wait_for("Goodbye", mark)
    code = adapter.close()
    assert code == 130
    assert adapter.answers == [{"id": 0, "name": "human"}]
    assert adapter.rest_of_stdout() == b"", "no answer may be sent for an abandoned question"


def test_end_of_input_leaves_cleanly_and_the_terminal_is_restored(spawn: Any) -> None:
    adapter = spawn()
    before = termios.tcgetattr(adapter.slave)
    ref = Referee(adapter, "two-player", human=1, person=lambda r, m: None)
    ref.hello()
    mark = adapter.screen.mark()
    adapter.send({"type": "keep", "id": 1, "card": "AS", "state": ref.state("draw")})
    adapter.screen.wait_for("Keep A\u2660?", mark)
    during = termios.tcgetattr(adapter.slave)
    assert not during[3] & termios.ISIG, "Ctrl-C must reach the adapter as input while it asks"
    os.write(adapter.master, b"\x04")  # Ctrl-D on an empty line
    adapter.screen.wait_for("Goodbye", mark)
    assert adapter.close() == 0
    assert termios.tcgetattr(adapter.slave) == before


def test_referee_error_while_asking_ends_the_adapter(spawn: Any) -> None:
    adapter = spawn()
    ref = Referee(adapter, "two-player", human=1, person=lambda r, m: None)
    ref.hello()
    mark = adapter.screen.mark()
    adapter.send({"type": "bid", "id": 1, "legal": list(range(14)), "state": ref.state("bid")})
    adapter.screen.wait_for("Your bid", mark)
    adapter.send({"type": "error", "message": "timeout: no answer within 60000 ms"})
    adapter.screen.wait_for("The referee ended the match: timeout: no answer within 60000 ms", mark)
    assert adapter.close() == 1


def test_scripted_play_with_input_and_output_files(tmp_path: Path) -> None:
    """--input/--output: answers from a file, the screen in a file, plain letters."""
    answers = tmp_path / "answers.txt"
    screen = tmp_path / "screen.txt"
    answers.write_text("hand\n2c\nKS\n")
    hello = {"type": "hello", "id": 0, "protocol": 1, "match": "m", "variant": "two-player", "seat": 0,
             "names": ["me", "bot"], "rules": {"target": 200}, "time": {"move_ms": 30000, "bank_ms": 0}}
    state = {"hand_no": 1, "seat": 0, "hand": ["2C", "4D", "5S", "KS"], "first": 0, "bids": [None, 2],
             "blind": [False, False], "tricks": [3, 5], "trick": [[1, "9S"]], "leader": 1, "spades_broken": True,
             "score": [10, 20], "bags": [1, 2], "time": {"move_ms": 30000, "bank_ms": 0}}
    play = {"type": "play", "id": 7, "legal": ["5S", "KS"], "state": state}
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee.human", "--input", str(answers), "--output", str(screen)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        lines = []
        for message in (hello, play):
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            lines.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()  # the referee closes stdin at the end of the match
        assert proc.wait(timeout=TIMEOUT) == 0
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert lines == [{"id": 0, "name": "human"}, {"id": 7, "card": "KS"}]
    text = screen.read_text()
    assert "\x1b[" not in text and "\u2660" not in text  # a file gets plain ASCII
    assert "Clock: 30 s per decision." in text
    assert "9S led" in text and "Your play: follow spades" in text
    assert "you must follow spades: 5S KS" in text
    assert "  S  3:5S   4:KS" in text


def test_no_terminal_is_a_clear_setup_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee.human"], input=b"", capture_output=True, cwd=ROOT, timeout=TIMEOUT,
        start_new_session=True,
    )
    assert done.returncode == 2
    assert b"no controlling terminal" in done.stderr and b"--tty" in done.stderr
    assert done.stdout == b""


# -- through the real match runner --------------------------------------------


def test_real_match_with_a_scripted_person_and_a_partner_bot(tmp_path: Path) -> None:
    """The referee's own runner seats the adapter like any bot.

    Seat 0 is the person (answers from a file that tries entries in a fixed
    cycle until one is accepted, so many are rejected); seat 2 runs the same
    command with --partner-bot, which hands that seat to the heuristic bot, as
    a tournament entry filling both seats of a side would. The match must end
    without a single fault: the adapter never sent an illegal answer.
    """
    from referee.match import MatchSpec, run_match
    from referee.seat.spec import SeatSpec
    from referee.seat.clock import TimeControl
    from referee.seat.sandbox import SandboxSpec
    from referee.game.rules import Rules, Variant

    answers = tmp_path / "answers.txt"
    cycle = ["n", "1 2 3"] + [str(i) for i in range(1, 14)]
    answers.write_text("\n".join(cycle * 600) + "\n")
    heuristic = [sys.executable, str(ROOT / "bots" / "heuristic_bot.py")]
    partner = " ".join(heuristic)

    screens = tmp_path / "screens"  # the sandbox lets the adapter write here, and only here
    screens.mkdir()
    writable = SandboxSpec(rw_paths=(str(screens),))

    def human(screen: str) -> list[str]:
        return [sys.executable, "-m", "referee.human", "--input", str(answers), "--output", str(screens / screen),
                "--partner-bot", partner]

    untimed = TimeControl(move_ms=None, bank_ms=0, startup_ms=10000)
    spec = MatchSpec(
        variant=Variant.PARTNERSHIP, rules=Rules(target=100, max_hands=4), seed=4, match_id="human-1",
        seats=[SeatSpec("person", human("seat0.txt"), cwd=str(ROOT), time=untimed, sandbox=writable),
               SeatSpec("h1", heuristic),
               SeatSpec("person", human("seat2.txt"), cwd=str(ROOT), time=untimed, sandbox=writable),
               SeatSpec("h3", heuristic)],
        time=TimeControl(move_ms=5000, bank_ms=10000, startup_ms=10000),
    )
    record = run_match(spec, console=None)
    assert record.faults == [], [f.describe(record.bots) for f in record.faults]
    assert record.hands, "at least one hand was played"
    screen = (screens / "seat0.txt").read_text()
    assert not (screens / "seat2.txt").exists(), "the partner seat never talks to the person"
    # The referee calls seat 2 "person" (the entry's name); the screen names the real player.
    assert "Partner: heuristic" in screen and re.search(r"\n  Partner +heuristic +\d", screen)
    assert screen.count("Trick 13:") == len(record.hands)
    assert "Hand 1 scored" in screen and "Match over:" in screen
    for hand in record.hands:
        assert f"Hand {hand['hand']} scored" in screen
    final = record.score[0]
    assert f"Score: Us {final} " in screen
    assert "you must follow" in screen or "there is no card number" in screen  # rejections happened
