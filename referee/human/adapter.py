"""The human adapter: a protocol-v1 bot whose decisions come from a person.

The referee starts it like any bot and talks JSON lines on stdin/stdout; the
adapter shows the game to a person on a terminal (or a pair of files) and asks
them every decision. Three promises hold whatever the person types:

* stdout carries protocol answers and nothing else (file descriptor 1 is
  pointed at stderr at start-up, so even a stray ``print`` cannot corrupt the
  protocol stream);
* an answer is sent only once it is legal: cards are checked against the
  request's ``legal`` list and the hand, bids against ``legal``, exchanges
  against the hand and the count, so a person's slip never faults the seat;
* leaving (Ctrl-C, end of input, ``quit``) ends the process cleanly with a
  goodbye; the referee then records the seat's exit, which is the honest
  outcome of a person walking away.

Ctrl-C needs care because under ``spades play`` the adapter usually runs in
its own session (the referee puts each bot in its own process group), so the
terminal would deliver SIGINT to the referee, not to the adapter. While a
question is open the adapter therefore turns the terminal's ISIG off and makes
Ctrl-C an end-of-line character (``VEOL``): the keystroke reaches the adapter
as input, and canonical line editing (backspace, Ctrl-U) keeps working. The
terminal settings are restored after every answer and on any exit.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import os
import select
import signal
import subprocess
import sys
import termios
from typing import Any, Callable, Iterator, Mapping, Sequence, TextIO, TypeVar

from referee.game.cards import SUIT_NAMES, SUITS
from referee.game.rules import Variant
from referee.human.parse import (
    Command, InputError, describe_bids, parse_bid, parse_card, parse_cards, parse_command, parse_yes_no,
)
from referee.human.render import (
    Seating, Style, View, draw_block, hand_lines, hand_summary, help_text, match_summary, sorted_hand, status_block,
    trick_summary, welcome,
)
from referee.seat.spec import bot_name

__all__ = [
    "Adapter",
    "PersonGone",
    "PersonIO",
    "ProtocolIO",
    "RefereeGone",
    "SetupError",
    "open_person",
    "play_refusal",
    "program_name",
    "relay",
    "run_adapter",
]

T = TypeVar("T")


class PersonGone(Exception):
    """The person left: ``how`` is ``"eof"``, ``"interrupt"`` or ``"quit"``."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


class RefereeGone(Exception):
    """The referee closed our stdin or removed the seat while a question was open."""


class SetupError(Exception):
    """The adapter cannot start (no terminal, unreadable file); the message says why."""


def _log(text: str) -> None:
    """Diagnostics for the bot author go to stderr, which the referee saves."""
    print(f"human adapter: {text}", file=sys.stderr, flush=True)


class _LineBuffer:
    """Unbuffered line reading from a file descriptor, so ``select`` stays truthful.

    Python's buffered readers may hold lines that ``select`` cannot see; reading
    the descriptor with ``os.read`` into our own buffer avoids that.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.eof = False

    def fill(self) -> None:
        """Read what is available (blocking if nothing is); mark end of input."""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            # EIO: the terminal went away (pty closed, window shut) - same as EOF.
            chunk = b""
        if chunk:
            self.buffer.extend(chunk)
        else:
            self.eof = True

    def take(self, terminators: bytes = b"\n") -> bytes | None:
        """Remove and return the first complete line (terminator included), or None.

        Each byte of ``terminators`` ends a line (the person's side adds Ctrl-C).
        """
        ends = [i for i in (self.buffer.find(t) for t in terminators) if i >= 0]
        if not ends:
            return None
        end = min(ends) + 1
        line = bytes(self.buffer[:end])
        del self.buffer[:end]
        return line


class ProtocolIO:
    """The referee's side: JSON lines in on a descriptor, answers out on another."""

    def __init__(self, in_fd: int, out: Any) -> None:
        self._in = _LineBuffer(in_fd)
        self._out = out
        self.stash: collections.deque[dict[str, Any]] = collections.deque()

    @property
    def fd(self) -> int:
        return self._in.fd

    @property
    def eof(self) -> bool:
        return self._in.eof and not self._in.buffer

    def _parse_buffered(self) -> None:
        while (raw := self._in.take()) is not None:
            self._decode(raw)
        if self._in.eof and self._in.buffer:  # a last line without "\n"
            raw = bytes(self._in.buffer)
            self._in.buffer.clear()
            self._decode(raw)

    def _decode(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").strip()
        if not text:
            return
        try:
            message = json.loads(text)
        except json.JSONDecodeError as exc:
            _log(f"ignoring a line from the referee that is not JSON ({exc}): {text[:200]!r}")
            return
        if not isinstance(message, dict):
            _log(f"ignoring a line from the referee that is not a JSON object: {text[:200]!r}")
            return
        self.stash.append(message)

    def poll(self) -> None:
        """Read what the referee has sent (call when ``select`` says readable)."""
        self._in.fill()
        self._parse_buffered()

    def backlog(self) -> bytes:
        """Everything read but not yet handled, as protocol bytes (for :func:`relay`)."""
        lines = b"".join(json.dumps(m).encode() + b"\n" for m in self.stash)
        self.stash.clear()
        rest = bytes(self._in.buffer)
        self._in.buffer.clear()
        return lines + rest

    def next_message(self) -> dict[str, Any] | None:
        """The next message from the referee, waiting for it; None at end of input."""
        while not self.stash:
            if self._in.eof:
                return None
            self.poll()
        return self.stash.popleft()

    def send(self, answer: Mapping[str, Any]) -> None:
        """Write one answer line; a closed pipe means the referee is gone."""
        try:
            self._out.write(json.dumps(answer, separators=(",", ":")).encode() + b"\n")
            self._out.flush()
        except (BrokenPipeError, OSError) as exc:
            raise RefereeGone(f"cannot write to the referee: {exc}") from None


class PersonIO:
    """The person's side: text out, lines in, with Ctrl-C and EOF made explicit."""

    def __init__(self, in_fd: int, out: TextIO, interactive: bool) -> None:
        self._in = _LineBuffer(in_fd)
        self.out = out
        self.interactive = interactive

    def show(self, lines: Sequence[str] | str) -> None:
        """Print lines for the person (a string is one line)."""
        if isinstance(lines, str):
            lines = [lines]
        try:
            self.out.write("".join(line + "\n" for line in lines))
            self.out.flush()
        except OSError:
            raise PersonGone("eof") from None

    @contextlib.contextmanager
    def _question_mode(self) -> Iterator[None]:
        """Terminal settings for one question: Ctrl-C arrives as input (see module doc)."""
        fd = self._in.fd
        if not self.interactive:
            yield
            return
        try:
            saved = termios.tcgetattr(fd)
        except termios.error:
            yield
            return
        mode = termios.tcgetattr(fd)
        mode[0] |= termios.ICRNL
        mode[3] = (mode[3] | termios.ICANON | termios.ECHO) & ~termios.ISIG
        mode[6][termios.VEOL] = b"\x03"
        try:
            # Discard keys typed while the screen was not asking anything, so
            # an extra Enter or a repeated "3" cannot play a card unseen.
            termios.tcsetattr(fd, termios.TCSAFLUSH, mode)
            yield
        finally:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(fd, termios.TCSANOW, saved)

    def ask(self, prompt: str, proto: ProtocolIO | None) -> str:
        """Show ``prompt`` and return the line typed (without its newline).

        While waiting, the referee's stream is watched too: if it closes or
        sends ``error`` (say the seat's clock ran out), :class:`RefereeGone` is
        raised instead of waiting for a person whose answer no longer matters.
        Raises :class:`PersonGone` on Ctrl-C or end of input.
        """
        with self._question_mode():
            try:
                self.out.write(prompt)
                self.out.flush()
            except OSError:
                raise PersonGone("eof") from None
            while True:
                line = self._in.take(b"\n\x03")
                if line is not None:
                    if line.endswith(b"\x03"):
                        raise PersonGone("interrupt")
                    if not self.interactive:
                        # Echo scripted answers so an output file reads like a session.
                        self.show(line.decode("utf-8", errors="replace").rstrip("\r\n"))
                    return line.decode("utf-8", errors="replace").rstrip("\r\n")
                if self._in.eof:
                    if self._in.buffer:  # a last answer without a newline
                        rest = bytes(self._in.buffer)
                        self._in.buffer.clear()
                        return rest.decode("utf-8", errors="replace").strip()
                    raise PersonGone("eof")
                watch = [self._in.fd]
                # Only watch the referee while nothing of theirs is waiting: a
                # message already read will be handled after this answer.
                if proto is not None and not proto.stash and not proto.eof:
                    watch.append(proto.fd)
                ready, _, _ = select.select(watch, [], [])
                if proto is not None and proto.fd in ready:
                    proto.poll()
                    if proto.stash and proto.stash[0].get("type") == "error":
                        raise RefereeGone(str(proto.stash[0].get("message", "")))
                    if proto.eof and not proto.stash:
                        raise RefereeGone("")
                if self._in.fd in ready:
                    self._in.fill()


class _UnanswerableRequest(Exception):
    """A request the adapter cannot answer legally (never guessed at)."""


@dataclasses.dataclass
class _Question:
    """One open request: its type, the view to redraw and the screen's card list."""

    kind: str
    view: View
    phase: str
    shown: list[str]
    playable: list[str] | None = None


class Adapter:
    """Turns protocol requests into questions and the person's answers into legal replies."""

    def __init__(
        self,
        proto: ProtocolIO,
        person: PersonIO,
        style: Style,
        name: str = "human",
        partner_name: str | None = None,
    ) -> None:
        self.proto = proto
        self.partner_name = partner_name
        self.person = person
        self.style = style
        self.name = name
        self.seating: Seating | None = None
        self.rules: dict[str, Any] = {}
        self.time: dict[str, Any] | None = None
        self.bags_before: list[int] = [0, 0]
        self.trick_no = 0
        self.spades_broken = False

    # -- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Serve the referee until the match ends or someone leaves; the exit status."""
        try:
            while True:
                message = self.proto.next_message()
                if message is None:
                    return 0
                if "id" in message:
                    answer = self.answer(message)
                    self.proto.send({"id": message["id"], **answer})
                else:
                    self.narrate(message)
        except PersonGone as gone:
            with contextlib.suppress(PersonGone):
                self.person.show(["", self.style.warn("  Goodbye! You left the match; the referee records your seat as gone.")])
            return 130 if gone.how == "interrupt" else 0
        except RefereeGone as gone:
            why = str(gone)
            with contextlib.suppress(PersonGone):
                self.person.show(["", self.style.warn("  The referee ended the match" + (f": {why}" if why else "."))])
            return 1
        except _UnanswerableRequest as exc:
            _log(str(exc))
            with contextlib.suppress(PersonGone):
                self.person.show(self.style.warn(f"  Cannot continue: {exc}"))
            return 1

    # -- events -------------------------------------------------------------

    def narrate(self, event: Mapping[str, Any]) -> None:
        """Tell the person what an event means (events need no answer).

        Events only inform: one the adapter cannot read is logged and skipped
        rather than costing the person their seat.
        """
        try:
            self._narrate(event)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            _log(f"could not show event {dict(event)!r}: {exc!r}")

    def _narrate(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        seating = self.seating
        if kind == "hand_start":
            self.bags_before = list(event.get("bags") or [0, 0])
            self.trick_no = 0
            self.spades_broken = False
        elif kind == "drawn" and seating:
            self.person.show(
                f"  You kept {self.style.card(str(event['kept']))} and discarded {self.style.card(str(event['discarded']))}."
            )
        elif kind == "bid_made" and seating:
            seat = int(event["seat"])
            if event.get("blind") and seat != seating.seat:
                self.person.show(self.style.bold(f"  {seating.label(seat)} bids blind nil!"))
        elif kind == "received" and seating:
            source = event.get("from")
            who = f"{seating.label(source)} passed you" if isinstance(source, int) else "From the discards you got"
            self.person.show(f"  {who}: {self.style.cards(sorted_hand(event.get('cards') or []))}")
        elif kind == "trick" and seating:
            self.trick_no += 1
            cards = [(int(s), str(c)) for s, c in event["cards"]]
            broke = not self.spades_broken and any(c[1] == "S" for _, c in cards)
            self.spades_broken = self.spades_broken or broke
            self.person.show(trick_summary(cards, int(event["winner"]), seating, self.style, self.trick_no, broke))
        elif kind == "hand_end" and seating:
            self.person.show(hand_summary(seating, self.rules, event, self.bags_before, self.style))
        elif kind == "match_end" and seating:
            self.person.show(match_summary(seating, event, self.style))
        elif kind == "error":
            self.person.show(self.style.warn(f"  The referee removed your seat: {event.get('message', '')}"))

    # -- requests -----------------------------------------------------------

    def answer(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The answer fields for a request, asked of the person and checked for legality."""
        kind = str(request.get("type"))
        if kind == "hello":
            return self._hello(request)
        if self.seating is None:
            raise _UnanswerableRequest(f"request {kind!r} arrived before hello")
        view = View.from_state(request.get("state") or {}, self.seating.seats)
        handler = {
            "blind_nil": self._blind_nil,
            "keep": self._keep,
            "discard": self._discard,
            "pass": self._pass,
            "bid": self._bid,
            "play": self._play,
        }.get(kind)
        if handler is None:
            raise _UnanswerableRequest(f"unknown request type {kind!r}; this adapter speaks protocol 1")
        return handler(request, view)

    def _hello(self, request: Mapping[str, Any]) -> dict[str, Any]:
        try:
            variant = Variant.parse(request.get("variant"))
        except ValueError as exc:
            raise _UnanswerableRequest(f"hello: {exc}") from None
        names = [str(n) for n in (request.get("names") or [f"seat {i}" for i in range(variant.seats)])]
        seat = int(request.get("seat", 0))
        partner = (seat + 2) % variant.seats
        if self.partner_name and variant is Variant.PARTNERSHIP and partner < len(names):
            # The referee names both seats after our tournament entry; the
            # partner seat is really played by the --partner-bot program.
            names[partner] = self.partner_name
        self.seating = Seating(variant, seat, tuple(names))
        self.rules = dict(request.get("rules") or {})
        self.time = request.get("time")
        self.person.show(welcome(self.seating, self.rules, self.time, self.style))
        return {"name": self.name}

    def _block(self, q: _Question) -> list[str]:
        assert self.seating is not None
        return status_block(q.view, self.seating, self.style, self.rules.get("target"), q.phase, q.playable)

    def _ask(self, q: _Question, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask until ``parse`` accepts an answer; commands and errors re-ask."""
        while True:
            text = self.person.ask(self.style.bold(prompt) + " " + self.style.prompt, self.proto)
            command = parse_command(text)
            if command is Command.QUIT:
                raise PersonGone("quit")
            if command is Command.HELP:
                self.person.show(help_text(q.kind))
                continue
            if command is Command.HAND:
                if q.phase == "blind":
                    self.person.show("  You have not looked at your cards yet: that is what makes it blind.")
                else:
                    self.person.show(hand_lines(q.view.hand, self.style, q.playable))
                continue
            if command is Command.SCORE:
                self.person.show(self._block(q))
                continue
            try:
                return parse(text)
            except InputError as exc:
                self.person.show(self.style.warn(f"  {exc}"))

    def _blind_nil(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        q = _Question("blind_nil", view, "blind", [])
        self.person.show(self._block(q))
        bonus = self.rules.get("blind_nil_bonus", 200)
        choice = self._ask(q, f"Bid blind nil before seeing your cards (+/-{bonus})? y/n", parse_yes_no)
        return {"blind_nil": choice}

    def _keep(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        assert self.seating is not None
        card = str(request.get("card"))
        q = _Question("keep", view, "draw", sorted_hand(view.hand))
        self.person.show(draw_block(view, self.seating, self.style, self.rules.get("target"), card))
        s = self.style
        keep = self._ask(
            q,
            f"Keep {s.card(card)}? y: keep it, n: discard it and take the next card",
            lambda t: parse_yes_no(t, yes_words=("keep", "k"), no_words=("discard", "d")),
        )
        return {"keep": keep}

    def _held_cards(self, text: str, q: _Question) -> list[str]:
        cards = parse_cards(text, q.shown, self.style.card)
        missing = [c for c in cards if c not in q.view.hand]
        if missing:
            raise InputError(f"you don't hold {self.style.cards(missing)}")
        return cards

    def _discard(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        limit = int(request.get("max", 0))
        q = _Question("discard", view, "exchange", sorted_hand(view.hand))
        self.person.show(self._block(q))

        def parse(text: str) -> list[str]:
            cards = self._held_cards(text, q)
            if len(cards) > limit:
                raise InputError(f"at most {limit} cards, got {len(cards)}: {self.style.cards(cards)}")
            return cards

        cards = self._ask(q, f"Blind nil: discard up to {limit} cards to replace (Enter for none)", parse)
        return {"cards": sorted_hand(cards)}

    def _pass(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        assert self.seating is not None
        count = int(request.get("count", 0))
        to = request.get("to")
        q = _Question("pass", view, "exchange", sorted_hand(view.hand))
        self.person.show(self._block(q))

        def parse(text: str) -> list[str]:
            cards = self._held_cards(text, q)
            if len(cards) != count:
                got = f": {self.style.cards(cards)}" if cards else ""
                raise InputError(f"pass exactly {count} cards, got {len(cards)}{got}")
            return cards

        whom = self.seating.label(int(to)) if isinstance(to, int) else "your partner"
        cards = self._ask(q, f"Pass {count} cards to {whom}", parse)
        return {"cards": sorted_hand(cards)}

    def _bid(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        legal = [int(b) for b in request.get("legal") or []]
        if not legal:
            raise _UnanswerableRequest("a bid request with no legal bids")
        q = _Question("bid", view, "bid", sorted_hand(view.hand))
        self.person.show(self._block(q))
        bid = self._ask(q, f"Your bid ({describe_bids(legal)})", lambda t: parse_bid(t, legal))
        return {"bid": bid}

    def _play(self, request: Mapping[str, Any], view: View) -> dict[str, Any]:
        legal = [str(c) for c in request.get("legal") or []]
        if not legal:
            raise _UnanswerableRequest("a play request with no legal cards")
        q = _Question("play", view, "play", sorted_hand(view.hand), legal)
        self.person.show(self._block(q))

        def parse(text: str) -> str:
            card = parse_card(text, q.shown, self.style.card)
            refusal = play_refusal(card, view, legal, self.style)
            if refusal:
                raise InputError(refusal)
            return card

        card = self._ask(q, _play_prompt(view), parse)
        return {"card": card}


def _play_prompt(view: View) -> str:
    """The play question, naming the constraint that applies (follow suit, unbroken spades)."""
    if view.trick:
        led = view.trick[0][1][1]
        if any(c[1] == led for c in view.hand):
            return f"Your play: follow {SUIT_NAMES[SUITS.index(led)]}"
        return f"Your play: no {SUIT_NAMES[SUITS.index(led)]}, play any card"
    if not view.spades_broken and any(c[1] != "S" for c in view.hand):
        return "Your lead (spades not broken yet)"
    return "Your lead"


def play_refusal(card: str, view: View, legal: Sequence[str], style: Style) -> str | None:
    """Why ``card`` cannot be played now, in the person's terms; None if it can.

    The request's ``legal`` list is the authority; the hand and trick only
    serve to explain a refusal ("you must follow hearts: 4♥ J♥").
    """
    if card in legal:
        return None
    if card not in view.hand:
        return f"you don't hold {style.card(card)}"
    if view.trick:
        led = view.trick[0][1][1]
        same = sorted_hand(c for c in view.hand if c[1] == led)
        if same:
            return f"you must follow {SUIT_NAMES[SUITS.index(led)]}: {style.cards(same)}"
    elif card[1] == "S" and not view.spades_broken:
        return "leading a spade: spades are not broken yet"
    return f"{style.card(card)} cannot be played now; you may play {style.cards(sorted_hand(legal))}"


# -- setting up the streams -------------------------------------------------


def open_person(
    tty: str | None = None,
    input_path: str | None = None,
    output_path: str | None = None,
) -> PersonIO:
    """Open the person's side: ``input_path``/``output_path``, else ``tty``, else ``/dev/tty``.

    Terminals are opened with ``O_NOCTTY``: the adapter may run in a session of
    its own (the referee's process groups) and must not steal the terminal as
    its controlling terminal.
    """
    if input_path is not None or output_path is not None:
        if input_path is None or output_path is None:
            raise SetupError("--input and --output go together (scripted play needs both)")
        try:
            in_fd = os.open(input_path, os.O_RDONLY | os.O_NOCTTY)
            out = open(output_path, "w", encoding="utf-8", errors="replace")
        except OSError as exc:
            raise SetupError(f"cannot open {exc.filename!r}: {exc.strerror}") from None
        return PersonIO(in_fd, out, interactive=os.isatty(in_fd))
    path = tty or "/dev/tty"
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    except OSError as exc:
        hint = (
            "there is no controlling terminal; name one with --tty (run `tty` in a terminal window) "
            "or use --input FILE --output FILE"
            if tty is None
            else exc.strerror
        )
        raise SetupError(f"cannot open the terminal {path!r}: {hint}") from None
    out = open(os.dup(fd), "w", encoding="utf-8", errors="replace", closefd=True)
    return PersonIO(fd, out, interactive=os.isatty(fd))


def choose_style(person: PersonIO, ascii_only: bool, color: bool | None) -> Style:
    """Symbols and colour on a terminal; plain letters with ``--ascii`` or off a terminal."""
    out_is_tty = False
    with contextlib.suppress(OSError, ValueError, AttributeError):
        out_is_tty = os.isatty(person.out.fileno())
    if ascii_only or not out_is_tty:
        return Style.plain()
    if color is None:
        color = "NO_COLOR" not in os.environ and os.environ.get("TERM", "") != "dumb"
    return Style(symbols=True, color=color)


def program_name(argv: Sequence[str]) -> str:
    """A short display name from a bot command: ``python3 bots/random_bot.py`` -> ``random``.

    :func:`referee.seat.spec.bot_name`, less a ``_bot`` suffix (every seat
    here is a bot), cut so names fit the table's 15 columns.
    """
    stem = bot_name(argv)
    if stem.endswith("_bot") and len(stem) > 4:
        stem = stem[:-4]
    return stem[:15]


def relay(argv: Sequence[str], proto: ProtocolIO, hello: Mapping[str, Any], out_fd: int) -> int:
    """Hand this seat to the bot ``argv``: it answers the referee directly.

    The bot's stdout is the protocol stream itself; the hello already read
    (and anything read after it) is written to the bot's stdin first, then
    stdin is copied through until the referee closes it. Returns the bot's
    exit status.
    """
    try:
        child = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=out_fd)
    except OSError as exc:
        _log(f"cannot start the partner bot {list(argv)!r}: {exc.strerror}")
        return 2
    assert child.stdin is not None
    try:
        child.stdin.write(json.dumps(hello).encode() + b"\n" + proto.backlog())
        child.stdin.flush()
        while chunk := os.read(proto.fd, 65536):
            child.stdin.write(chunk)
            child.stdin.flush()
    except (BrokenPipeError, OSError):
        pass  # the bot exited; the referee sees that on the protocol stream
    finally:
        with contextlib.suppress(OSError):
            child.stdin.close()
    return child.wait()


def run_adapter(
    tty: str | None = None,
    input_path: str | None = None,
    output_path: str | None = None,
    ascii_only: bool = False,
    color: bool | None = None,
    name: str = "human",
    partner_bot: Sequence[str] | None = None,
) -> int:
    """Run the adapter on this process's stdin/stdout; returns the exit status.

    Before anything else, stdout's descriptor is kept privately for answers
    and descriptor 1 is pointed at stderr, so nothing else can ever write to
    the referee. With ``partner_bot``, a partnership seat 2 or 3 is handed to
    that bot command (see :func:`relay`): a tournament entry fills both seats
    of a side, and this lets the person play seat 0 or 1 with a bot partner.
    """
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    proto = ProtocolIO(0, proto_out)
    # A closed pipe to the referee is handled as RefereeGone, not a signal death.
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    if partner_bot:
        hello = proto.next_message()
        if hello is None:
            return 0
        if hello.get("variant") == Variant.PARTNERSHIP.value and int(hello.get("seat", 0)) >= 2:
            return relay(partner_bot, proto, hello, proto_out.fileno())
        proto.stash.appendleft(hello)
    try:
        person = open_person(tty, input_path, output_path)
    except SetupError as exc:
        _log(str(exc))
        return 2

    def _terminate(signum: int, _frame: object) -> None:
        # SystemExit unwinds through the question's finally, restoring the terminal.
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)
    style = choose_style(person, ascii_only, color)
    adapter = Adapter(proto, person, style, name, program_name(partner_bot) if partner_bot else None)
    try:
        return adapter.run()
    except KeyboardInterrupt:
        # Ctrl-C outside a question while the adapter owns the terminal's foreground.
        with contextlib.suppress(Exception):
            person.show(["", style.warn("  Goodbye! You left the match; the referee records your seat as gone.")])
        return 130
