"""Helper module for writing Spades bots in Python (protocol v1, standard library only).

A bot is a program that reads one JSON object per line on stdin and answers every
request (a message with an ``"id"``) with one JSON line on stdout. This module does
the plumbing so a bot only has to make decisions::

    import os, sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import spadesbot

    class MyBot(spadesbot.Bot):
        name = "mybot"

        def play(self, state, legal):
            return max(legal, key=spadesbot.rank)   # always play the highest legal card

    if __name__ == "__main__":
        spadesbot.run(MyBot())

Every decision method of :class:`Bot` has a legal default, so a subclass overrides
only what it cares about. While :func:`run` is active, ``print()`` goes to stderr:
stdout carries answers only (anything else there is a protocol fault).

Cards are the protocol's two-character strings (``"TH"``: rank then suit); the card
helpers below take and return those strings.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any, Iterable, Mapping, Sequence, TextIO

PROTOCOL_VERSION = 1

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SPADES = "S"

#: Answer field of each request type (hello's ``name`` is handled separately).
ANSWER_FIELDS: dict[str, str] = {
    "blind_nil": "blind_nil",
    "keep": "keep",
    "discard": "cards",
    "pass": "cards",
    "bid": "bid",
    "play": "card",
}


# --------------------------------------------------------------------------- cards


class CardError(ValueError):
    """A string that is not a protocol card name."""


def parse_card(card: object) -> tuple[int, int]:
    """Split a card name into ``(rank index, suit index)``: ``"TH"`` -> ``(8, 2)``.

    Rank index 0 is the 2 and 12 the ace; suit index 0..3 is clubs, diamonds,
    hearts, spades. Raises :class:`CardError` quoting the bad value.
    """
    if isinstance(card, str) and len(card) == 2:
        r, s = RANKS.find(card[0]), SUITS.find(card[1])
        if r >= 0 and s >= 0:
            return r, s
    raise CardError(f"not a card: {card!r} (expected a rank of {RANKS} then a suit of {SUITS}, e.g. 'TH')")


def rank(card: str) -> int:
    """Rank index of ``card``: 0 for a 2 up to 12 for an ace."""
    return parse_card(card)[0]


def suit(card: str) -> str:
    """Suit letter of ``card``: ``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
    parse_card(card)
    return card[1]


def suit_index(card: str) -> int:
    """Suit index of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return parse_card(card)[1]


def card_index(card: str) -> int:
    """The card as an integer 0..51 (``suit * 13 + rank``, the referee's numbering)."""
    r, s = parse_card(card)
    return s * 13 + r


def card_name(index: int) -> str:
    """Inverse of :func:`card_index`: ``50`` -> ``"AS"``."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
        raise CardError(f"not a card index: {index!r} (expected 0..51)")
    return RANKS[index % 13] + SUITS[index // 13]


def sort_key(card: str) -> tuple[int, int]:
    """Protocol sort order: by suit (C, D, H, S), then by rank."""
    r, s = parse_card(card)
    return s, r


def sort_cards(cards: Iterable[str]) -> list[str]:
    """``cards`` in protocol order."""
    return sorted(cards, key=sort_key)


def of_suit(cards: Iterable[str], suit_letter: str) -> list[str]:
    """The cards of ``cards`` in suit ``suit_letter``, lowest first."""
    return sorted((c for c in cards if c[1] == suit_letter), key=rank)


def by_suit(cards: Iterable[str]) -> dict[str, list[str]]:
    """Map every suit letter to its cards in ``cards``, lowest first (empty lists included)."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in cards:
        groups[suit(c)].append(c)
    for s in SUITS:
        groups[s].sort(key=rank)
    return groups


def beats(card: str, other: str, led: str) -> bool:
    """Whether ``card`` beats ``other`` in a trick led in suit ``led``.

    A spade beats any non-spade; otherwise only a higher card of the led suit wins.
    """
    rc, sc = parse_card(card)
    ro, so = parse_card(other)
    if sc == so:
        return rc > ro
    if card[1] == SPADES:
        return True
    if other[1] == SPADES:
        return False
    return card[1] == led


def trick_winner(trick: Sequence[Sequence[Any]]) -> tuple[int, str] | None:
    """The ``(seat, card)`` currently winning ``trick`` (``[[seat, card], ...]``), or None if empty."""
    if not trick:
        return None
    led = trick[0][1][1]
    best_seat, best = int(trick[0][0]), str(trick[0][1])
    for seat, card in trick[1:]:
        if beats(card, best, led):
            best_seat, best = int(seat), str(card)
    return best_seat, best


def shown_out(played: Sequence[Sequence[Any]], seats: int) -> dict[int, set[str]]:
    """Suits each seat is known to lack, from the plays of the hand so far.

    ``played`` is the hand's plays in order (``state.played``); every ``seats``
    consecutive plays form a trick. A seat that did not follow the led suit holds
    none of it.
    """
    void: dict[int, set[str]] = {s: set() for s in range(seats)}
    for start in range(0, len(played), seats):
        trick = played[start : start + seats]
        led = trick[0][1][1]
        for seat, card in trick[1:]:
            if card[1] != led:
                void.setdefault(int(seat), set()).add(led)
    return void


def count_tricks(hand: Iterable[str]) -> int:
    """A deliberately simple trick count: aces, guarded spade kings and spades beyond three.

    Good enough as a default bid; :mod:`heuristic_bot` shows a finer estimate.
    """
    groups = by_suit(hand)
    spades = groups[SPADES]
    tricks = sum(1 for s in "CDH" for c in groups[s] if c[0] == "A")
    tricks += sum(1 for c in spades if c[0] == "A" or (c[0] == "K" and len(spades) >= 2))
    tricks += max(0, len(spades) - 3)
    return tricks


# --------------------------------------------------------------------------- state


def _side_of(seat: int, seats: int) -> int:
    return seat if seats == 2 else seat % 2


@dataclasses.dataclass
class State:
    """The ``state`` object of a request, with defaults for anything missing.

    Field names follow the protocol. ``raw`` keeps the original mapping so fields
    added by later referees stay reachable. ``variant`` and ``rules`` come from the
    state when the referee sends them, else from ``hello``.
    """

    raw: dict[str, Any]
    seat: int
    hand: list[str]
    variant: str
    rules: dict[str, Any]
    hand_no: int = 0
    phase: str | None = None
    dealer: int | None = None
    first: int | None = None
    bids: list[int | None] = dataclasses.field(default_factory=list)
    blind: list[bool] = dataclasses.field(default_factory=list)
    tricks: list[int] = dataclasses.field(default_factory=list)
    trick: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    leader: int | None = None
    spades_broken: bool = False
    played: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    score: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    bags: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    time: dict[str, Any] = dataclasses.field(default_factory=dict)
    discards: list[str] = dataclasses.field(default_factory=list)
    passed: list[str] = dataclasses.field(default_factory=list)
    received: list[str] = dataclasses.field(default_factory=list)

    @classmethod
    def from_message(
        cls, data: Mapping[str, Any] | None, variant: str | None = None, rules: Mapping[str, Any] | None = None,
        seat: int | None = None,
    ) -> "State":
        """Build from a request's ``state`` mapping; ``variant``/``rules``/``seat`` are hello's values."""
        d = dict(data or {})
        seats_guess = len(d.get("bids") or d.get("tricks") or []) or None
        var = d.get("variant") or variant or ("two-player" if seats_guess == 2 else "partnership")
        seats = 2 if var == "two-player" else 4

        def pairs(key: str) -> list[tuple[int, str]]:
            return [(int(p[0]), str(p[1])) for p in d.get(key) or []]

        return cls(
            raw=d,
            seat=int(d.get("seat", seat if seat is not None else 0)),
            hand=sort_cards(d.get("hand") or []),
            variant=var,
            rules=dict(d.get("rules") or rules or {}),
            hand_no=int(d.get("hand_no") or 0),
            phase=d.get("phase"),
            dealer=d.get("dealer"),
            first=d.get("first"),
            bids=list(d.get("bids") or [None] * seats),
            blind=[bool(b) for b in d.get("blind") or [False] * seats],
            tricks=[int(t) for t in d.get("tricks") or [0] * seats],
            trick=pairs("trick"),
            leader=d.get("leader"),
            spades_broken=bool(d.get("spades_broken", False)),
            played=pairs("played"),
            score=list(d.get("score") or [0, 0]),
            bags=list(d.get("bags") or [0, 0]),
            time=dict(d.get("time") or {}),
            discards=list(d.get("discards") or []),
            passed=list(d.get("passed") or []),
            received=list(d.get("received") or []),
        )

    # Seats and sides -------------------------------------------------------
    @property
    def seats(self) -> int:
        """Number of seats: 2 (two-player) or 4 (partnership)."""
        return 2 if self.variant == "two-player" else 4

    @property
    def partnership(self) -> bool:
        """True in the four-player partnership game."""
        return self.seats == 4

    def side_of(self, seat: int) -> int:
        """The side that ``seat`` scores for."""
        return _side_of(seat, self.seats)

    @property
    def side(self) -> int:
        """This seat's side (index into ``score`` and ``bags``)."""
        return self.side_of(self.seat)

    @property
    def partner(self) -> int | None:
        """The partner's seat, or None in the two-player game."""
        return (self.seat + 2) % 4 if self.partnership else None

    @property
    def opponents(self) -> list[int]:
        """The opposing seats."""
        return [s for s in range(self.seats) if self.side_of(s) != self.side]

    # The trick in progress ---------------------------------------------------
    @property
    def led_suit(self) -> str | None:
        """Suit letter of the trick in progress, None when this seat leads."""
        return self.trick[0][1][1] if self.trick else None

    @property
    def winning(self) -> tuple[int, str] | None:
        """``(seat, card)`` winning the trick in progress so far."""
        return trick_winner(self.trick)

    @property
    def still_to_play(self) -> list[int]:
        """Seats that play to the current trick after this seat, in order."""
        after = self.seats - len(self.trick) - 1
        return [(self.seat + i) % self.seats for i in range(1, after + 1)]

    @property
    def tricks_left(self) -> int:
        """Tricks not yet won this hand (the one in progress included)."""
        return 13 - sum(self.tricks)

    def is_nil(self, seat: int) -> bool:
        """Whether ``seat`` bid Nil or Blind Nil this hand."""
        return seat < len(self.bids) and self.bids[seat] == 0


# --------------------------------------------------------------------------- the bot


def log(*parts: object) -> None:
    """Write a log line to stderr (never stdout: stdout is for answers only)."""
    print(*parts, file=sys.stderr, flush=True)


class Bot:
    """Base class: one method per request type, one ``on_<event>`` hook per event.

    Defaults are always legal: no Blind Nil, keep every drawn card, discard nothing,
    pass the lowest cards, bid a simple trick count, play the first legal card.
    Attributes set from ``hello``: ``seat``, ``variant``, ``rules``, ``names``,
    ``time``, ``match``. ``request`` is the raw request being answered, for fields
    a later protocol may add.
    """

    name: str = "spadesbot"

    def __init__(self) -> None:
        self.seat: int | None = None
        self.variant: str | None = None
        self.rules: dict[str, Any] = {}
        self.names: list[str] = []
        self.time: dict[str, Any] = {}
        self.match: str | None = None
        self.request: dict[str, Any] = {}

    # Session -----------------------------------------------------------------
    def hello(self, msg: Mapping[str, Any]) -> str | None:
        """Record the match facts; return the name to announce (None: announce none)."""
        if msg.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            log(f"{self.name}: referee speaks protocol {msg.get('protocol')!r}, this helper speaks 1")
        self.seat = msg.get("seat")
        self.variant = msg.get("variant")
        self.rules = dict(msg.get("rules") or {})
        self.names = list(msg.get("names") or [])
        self.time = dict(msg.get("time") or {})
        self.match = msg.get("match")
        return self.name

    def event(self, msg: Mapping[str, Any]) -> None:
        """Dispatch an event to ``on_<type>``; unknown event types are ignored."""
        handler = getattr(self, f"on_{msg.get('type')}", None)
        if callable(handler):
            handler(msg)

    def on_error(self, msg: Mapping[str, Any]) -> None:
        """The referee is removing this bot: log why."""
        log(f"{self.name}: referee reports a fault: {msg.get('message')}")

    # Decisions ---------------------------------------------------------------
    def blind_nil(self, state: State) -> bool:
        """Declare Blind Nil? Default: never."""
        return False

    def keep(self, state: State, card: str) -> bool:
        """Two-player draw: keep ``card`` (True) or discard it and keep the next one."""
        return True

    def discard(self, state: State, max_cards: int) -> list[str]:
        """Two-player Blind Nil: up to ``max_cards`` cards to swap for random discards."""
        return []

    def pass_cards(self, state: State, count: int, to: int) -> list[str]:
        """Partnership Blind Nil exchange: exactly ``count`` cards to give to seat ``to``."""
        return sorted(state.hand, key=lambda c: (rank(c), c[1] == SPADES, suit_index(c)))[:count]

    def bid(self, state: State, legal: list[int]) -> int:
        """A bid from ``legal`` (0 is Nil). Default: the legal bid nearest a simple count."""
        target = max(1, count_tricks(state.hand))
        choices = [b for b in legal if b != 0] or legal
        return min(choices, key=lambda b: (abs(b - target), b))

    def play(self, state: State, legal: list[str]) -> str:
        """A card from ``legal``."""
        return legal[0]


# --------------------------------------------------------------------------- answers


def _valid_cards(value: object, hand: Sequence[str], lo: int, hi: int) -> bool:
    return (
        isinstance(value, list)
        and lo <= len(value) <= hi
        and all(isinstance(c, str) and c in hand for c in value)
        and len(set(value)) == len(value)
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_field(msg: Mapping[str, Any], key: str, default: int) -> int:
    value = msg.get(key, default)
    return value if _is_int(value) else default


def _ask(bot: Bot, cls: type[Bot], kind: str, state: State, msg: Mapping[str, Any]) -> Any:
    """Call ``cls``'s decision method for request ``kind`` (``cls`` is the bot's class or :class:`Bot`)."""
    if kind == "blind_nil":
        return cls.blind_nil(bot, state)
    if kind == "keep":
        return cls.keep(bot, state, str(msg.get("card")))
    if kind == "discard":
        return cls.discard(bot, state, _int_field(msg, "max", 0))
    if kind == "pass":
        to = _int_field(msg, "to", state.partner if state.partner is not None else 0)
        return cls.pass_cards(bot, state, _int_field(msg, "count", 0), to)
    if kind == "bid":
        return cls.bid(bot, state, list(msg.get("legal") or []))
    return cls.play(bot, state, list(msg.get("legal") or []))


def valid_answer(kind: str, value: object, state: State, msg: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a well-formed, legal answer to request ``msg`` of type ``kind``."""
    if kind in ("blind_nil", "keep"):
        return isinstance(value, bool)
    if kind == "discard":
        return _valid_cards(value, state.hand, 0, _int_field(msg, "max", 0))
    if kind == "pass":
        n = _int_field(msg, "count", 0)
        return _valid_cards(value, state.hand, n, n)
    if kind == "bid":
        return _is_int(value) and value in (msg.get("legal") or [])
    if kind == "play":
        return isinstance(value, str) and value in (msg.get("legal") or [])
    return False


def decide(bot: Bot, msg: Mapping[str, Any], strict: bool = False) -> dict[str, Any] | None:
    """The answer object (``id`` included) for request ``msg``, or None for an unknown type.

    Unless ``strict``, an exception or an invalid value from a decision method is
    logged to stderr and replaced by the base class's legal default, so that one
    bug costs one weak move rather than a forfeit.
    """
    kind = msg.get("type")
    bot.request = dict(msg)
    if kind == "hello":
        name = bot.hello(msg)
        answer: dict[str, Any] = {"id": msg["id"]}
        if name is not None:
            answer["name"] = str(name)
        return answer
    if not isinstance(kind, str) or kind not in ANSWER_FIELDS:
        # A v1 bot cannot know the answer field of a request type it has never
        # heard of, so it stays silent rather than guess.
        log(f"{bot.name}: ignoring request of unknown type {kind!r}")
        return None

    try:
        state = State.from_message(msg.get("state"), bot.variant, bot.rules, bot.seat)
    except (TypeError, ValueError, IndexError) as exc:
        if strict:
            raise
        # A malformed state (a referee bug): fall back to its raw hand, unsorted.
        log(f"{bot.name}: cannot read the request's state ({exc}); using its raw hand")
        given = msg.get("state")
        raw: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
        hand = raw.get("hand")
        state = State(raw=raw, seat=bot.seat or 0, hand=list(hand) if isinstance(hand, list) else [],
                      variant=bot.variant or "partnership", rules=dict(bot.rules))
    if strict:
        value = _ask(bot, type(bot), kind, state, msg)
    else:
        try:
            value = _ask(bot, type(bot), kind, state, msg)
        except Exception as exc:  # noqa: BLE001 - a bug must cost one weak move, not the match
            log(f"{bot.name}: {kind} raised {type(exc).__name__}: {exc}; answering the default")
            value = _default(bot, kind, state, msg)
        else:
            if not valid_answer(kind, value, state, msg):
                log(f"{bot.name}: {kind} returned an invalid answer: {value!r}; answering the default")
                value = _default(bot, kind, state, msg)
    return {"id": msg["id"], ANSWER_FIELDS[kind]: value}


def _default(bot: Bot, kind: str, state: State, msg: Mapping[str, Any]) -> Any:
    """The base class's answer; if even that fails (a malformed request), the plainest one."""
    try:
        return _ask(bot, Bot, kind, state, msg)
    except Exception as exc:  # noqa: BLE001
        log(f"{bot.name}: the default {kind} failed too ({exc}); answering the plainest choice")
    legal = list(msg.get("legal") or [None])
    plain: dict[str, Any] = {
        "blind_nil": False, "keep": True, "discard": [],
        "pass": list(state.hand)[: _int_field(msg, "count", 0)], "bid": legal[0], "play": legal[0],
    }
    return plain[kind]


def run(bot: Bot, infile: TextIO | None = None, outfile: TextIO | None = None, strict: bool = False) -> None:
    """Serve the protocol until ``match_end`` or end of input.

    Reads one JSON object per line from ``infile`` (default stdin); answers each
    request on ``outfile`` (default stdout) with one line, flushed at once; passes
    events to :meth:`Bot.event`. Lines that are not JSON objects are logged and
    skipped. While running on the real stdout, ``sys.stdout`` points at stderr so
    a stray ``print()`` cannot corrupt the answer stream.
    """
    real_stdout = sys.stdout
    inp = infile if infile is not None else sys.stdin
    out = outfile if outfile is not None else real_stdout
    if outfile is None:
        sys.stdout = sys.stderr
    try:
        while True:
            line = inp.readline()
            if not line:
                return  # end of input: the referee is done with us
            line = line.strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                log(f"{bot.name}: ignoring a line that is not JSON: {line[:200]!r}")
                continue
            if not isinstance(msg, dict):
                log(f"{bot.name}: ignoring a line that is not a JSON object: {line[:200]!r}")
                continue
            if "id" in msg:
                answer = decide(bot, msg, strict)
                if answer is not None:
                    out.write(json.dumps(answer, separators=(",", ":")) + "\n")
                    out.flush()
            else:
                try:
                    bot.event(msg)
                except Exception as exc:  # noqa: BLE001 - a bookkeeping bug must not end the match
                    if strict:
                        raise
                    log(f"{bot.name}: event {msg.get('type')!r} raised {type(exc).__name__}: {exc}")
                if msg.get("type") == "match_end":
                    return
    finally:
        sys.stdout = real_stdout
