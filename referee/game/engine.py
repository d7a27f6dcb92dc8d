"""The pure rules engine: state + action -> new state.

No I/O happens here. A :class:`State` is a whole match (scores, bags, the
hand in progress); :func:`step` never mutates its input, it returns a new
state, so a rejected action leaves the caller's state exactly as it was.
All randomness comes from the deals, which are an explicit input (see
:mod:`referee.game.deals`).

Speed matters (tournaments, property tests and search bots replay thousands
of hands), so every value a state holds is immutable (ints, tuples, frozen
dataclasses) and a new state shares all it can with the old one. A state is
split in two: a dozen ``__slots__`` that a play may change (the hands, the
trick, the turn, ...) and a :class:`_Context` with everything that changes
at most a few times a hand (rules, bids, scores, history, ...). A play, 52
of the 56 steps of a partnership hand, builds a new slots object and shares
the context; a setup step or the end of a hand copies the context first.

Phases and the actions they take:

=============  ============================================  ================
phase          who acts                                      action
=============  ============================================  ================
``blind_nil``  a player offered Blind Nil                    ``bool``
``keep``       the drawer in the two-player draw             ``bool``
``discard``    a two-player Blind Nil bidder                 ``tuple`` of cards
``bid``        the bidder                                    ``int`` 0..13
``pass``       a partner in the partnership exchange         ``tuple`` of cards
``play``       the player to play                            ``int`` card
``over``       nobody: the match has ended
=============  ============================================  ================
"""

from __future__ import annotations

import enum
import itertools
import random
from operator import attrgetter, itemgetter
from typing import Any, Callable, NamedTuple, NoReturn, Sequence, TypeGuard, Union, cast

from referee.game import cards as C
from referee.game.cards import (
    _SUIT_TABLES, _T0, _T1, _T2, _T3, NON_SPADE_MASK, SUIT_MASKS, SUIT_NAMES, cards_of, names_of,
)
from referee.game.deals import Deal, DealSource, seeded_deal, seeded_deals
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.game.scoring import HandScore, match_outcome, score_hand
from referee.game.start import MatchStart

Action = Union[bool, int, tuple]
_BIT = tuple(1 << c for c in range(52))


class Phase(str, enum.Enum):
    """What the game is waiting for. The values are the protocol request types."""

    BLIND_NIL = "blind_nil"
    KEEP = "keep"
    DISCARD = "discard"
    BID = "bid"
    PASS = "pass"
    PLAY = "play"
    OVER = "over"


ALL = -1  # event audience: every seat
_tuple_new = tuple.__new__


class Event(NamedTuple):
    """Something that happened, for the seats in ``to`` (a seat, or ``ALL``).

    ``data`` holds ints for cards; the protocol layer turns them into names.
    """

    kind: str
    to: int
    data: dict


class HandResult(NamedTuple):
    """The record of one finished hand (one entry of a match record's ``hands``)."""

    hand: int
    dealer: int  # partnership: the dealer; two-player: the first player
    bids: tuple[int, ...]
    blind: tuple[bool, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    score: tuple[int, ...]
    bags: tuple[int, ...]
    detail: HandScore

    def to_record(self, variant: Variant) -> dict[str, Any]:
        """The JSON shape of config-and-results.md."""
        key = "first" if variant is Variant.TWO_PLAYER else "dealer"
        return {"hand": self.hand, key: self.dealer, "bids": list(self.bids), "blind": list(self.blind),
                "tricks": list(self.tricks), "points": list(self.points), "score": list(self.score),
                "bags": list(self.bags)}


class IllegalAction(ValueError):
    """An action the rules forbid. The state it was tried on is unchanged."""

    def __init__(self, seat: int, phase: Phase, action: object, reason: str, legal: str):
        self.seat, self.phase, self.action, self.reason, self.legal = seat, phase, action, reason, legal
        super().__init__(f"seat {seat} cannot {_VERB[phase]} {_show(action, phase)}: {reason}; legal: {legal}")


_VERB = {Phase.BLIND_NIL: "answer blind nil with", Phase.KEEP: "answer keep with",
         Phase.DISCARD: "discard", Phase.BID: "bid", Phase.PASS: "pass", Phase.PLAY: "play",
         Phase.OVER: "act with"}


def _show(action: object, phase: Phase) -> str:
    """The action as a person reads it: card names for cards, the value otherwise."""
    if isinstance(action, bool) or action is None:
        return repr(action)
    if isinstance(action, int) and 0 <= action < 52 and phase is Phase.PLAY:
        return repr(C.card_name(action))
    if isinstance(action, (tuple, list)):
        return repr([C.card_name(c) if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52 else c
                     for c in action])
    return repr(action)


class _Context:
    """The part of a :class:`State` that changes at most a few times a hand.

    Several states share one context: a play only changes the state's slots.
    Whoever changes a context field works on a fresh :meth:`copy` (see
    ``State._copy``), so a context reachable from a published state is never
    mutated. Its attributes are read through the state (``st.bids``, ...).
    """

    variant: Variant
    rules: Rules
    nseats: int
    deal_source: DealSource
    hand_no: int
    dealer: int
    deal: Deal
    looked: tuple[bool, ...]
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    queue: tuple  # pending (phase, seat, extra) decisions before play
    stock: int  # two-player: index of the next card of the stock
    pile: int  # two-player: mask of the discard pile
    discarded: tuple[int, ...]  # two-player: mask of cards each seat put on the pile (it saw them)
    passed: tuple[int, ...]  # partnership: cards each seat passed
    received: tuple[int, ...]  # cards each seat received (exchange or replacement)
    score: tuple[int, ...]
    bags: tuple[int, ...]
    history: tuple[HandResult, ...]
    winner: int | None
    reason: EndReason | None

    def copy(self) -> "_Context":
        new = _Context()
        new.__dict__ = self.__dict__.copy()
        return new


def _from_context(name: str) -> Any:
    """A read-only :class:`State` attribute that lives in its :class:`_Context`."""
    return property(attrgetter("_ctx." + name), doc=f"``{name}``, kept in the state's context.")


class State:
    """A whole match at one moment. Treat as immutable; use :func:`step`.

    Public attributes (read-only by convention):
    ``variant``, ``rules``, ``nseats``, ``hand_no`` (1-based), ``dealer``
    (partnership dealer, or two-player *first* player), ``phase``, ``turn``
    (the seat to act), ``hands`` (a mask per seat), ``bids`` (int or None per
    seat), ``blind``, ``tricks`` (per seat), ``trick`` (the trick in progress
    as ``((seat, card), ...)``), ``leader``, ``spades_broken``, ``played``,
    ``score`` and ``bags`` (per side), ``history`` (:class:`HandResult` per
    finished hand), ``over``, ``winner``, ``reason``, ``events`` (what the
    last step made happen).
    """

    # What a play may change, as slots: a play builds a new state by storing
    # each of them, which costs far less than copying a dict of every field.
    __slots__ = ("phase", "turn", "over", "hands", "trick", "led_suit", "leader", "spades_broken", "tricks",
                 "done", "_events", "_ctx")
    phase: Phase
    turn: int
    over: bool
    hands: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    led_suit: int
    leader: int
    spades_broken: bool
    tricks: tuple[int, ...]
    done: tuple[tuple[tuple[int, int], ...], ...]  # the completed tricks of this hand
    _events: tuple[Event, ...] | None  # None: the step was a play, see `events`
    _ctx: _Context

    variant: Variant = _from_context("variant")
    rules: Rules = _from_context("rules")
    nseats: int = _from_context("nseats")
    deal_source: DealSource = _from_context("deal_source")
    hand_no: int = _from_context("hand_no")
    dealer: int = _from_context("dealer")
    deal: Deal = _from_context("deal")
    looked: tuple[bool, ...] = _from_context("looked")
    bids: tuple[int | None, ...] = _from_context("bids")
    blind: tuple[bool, ...] = _from_context("blind")
    queue: tuple = _from_context("queue")
    stock: int = _from_context("stock")
    pile: int = _from_context("pile")
    discarded: tuple[int, ...] = _from_context("discarded")
    passed: tuple[int, ...] = _from_context("passed")
    received: tuple[int, ...] = _from_context("received")
    score: tuple[int, ...] = _from_context("score")
    bags: tuple[int, ...] = _from_context("bags")
    history: tuple[HandResult, ...] = _from_context("history")
    winner: int | None = _from_context("winner")
    reason: EndReason | None = _from_context("reason")

    @property
    def events(self) -> tuple[Event, ...]:
        """What the step that made this state caused, in order."""
        ev = self._events
        if ev is not None:
            return ev
        # A play that did not end the hand: rebuilt from the state on demand,
        # since recording it eagerly would slow every card of every hand.
        if self.trick:
            seat, card = self.trick[-1]
            return (Event("played", ALL, {"seat": seat, "card": card}),)
        last = self.done[-1]
        seat, card = last[-1]
        return (Event("played", ALL, {"seat": seat, "card": card}),
                Event("trick", ALL, {"cards": last, "winner": self.leader}))

    @property
    def played(self) -> tuple[tuple[int, int], ...]:
        """Every card played this hand as ``(seat, card)``, the trick in progress included."""
        return tuple(p for t in self.done for p in t) + self.trick

    def _copy(self) -> "State":
        """A copy with a context of its own, for a step that changes context fields."""
        new = State()
        new.phase, new.turn, new.over, new.hands = self.phase, self.turn, self.over, self.hands
        new.trick, new.led_suit, new.leader = self.trick, self.led_suit, self.leader
        new.spades_broken, new.tricks, new.done = self.spades_broken, self.tricks, self.done
        new._events, new._ctx = self._events, self._ctx.copy()
        return new

    def _as_dict(self) -> dict[str, Any]:
        """Every field, the context's included (tests compare snapshots)."""
        fields = {name: getattr(self, name) for name in State.__slots__ if name != "_ctx"}
        fields.update(self._ctx.__dict__)
        return fields

    def __repr__(self) -> str:
        return (f"<State {self.variant.value} hand {self.hand_no} phase {self.phase.value} "
                f"turn {self.turn} score {list(self.score)}>")

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited, or None when the match is over."""
        return None if self.over else self.turn

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat)

    @property
    def pending_card(self) -> int | None:
        """Two-player ``keep`` phase: the card the drawer is looking at."""
        if self.phase is Phase.KEEP:
            return self.deal.cards[self.stock]
        return None

    @property
    def pending_count(self) -> int:
        """``discard``: the most cards allowed; ``pass``: exactly this many."""
        if self.phase in (Phase.DISCARD, Phase.PASS):
            return self.queue[0][2]
        return 0

    @property
    def pass_to(self) -> int | None:
        """``pass`` phase: the seat that receives the cards."""
        if self.phase is Phase.PASS:
            return self.queue[0][3]
        return None


# --------------------------------------------------------------------------- setup

_PARTNERSHIP = Variant.PARTNERSHIP
# Phases as module globals: the hot paths compare with them at every step.
_PLAY, _BID = Phase.PLAY, Phase.BID
_NEXT = (1, 2, 3, 0)  # the seat after each seat, partnership


def new_match(variant: Variant | str, rules: Rules | None = None, seed: int = 0,
              deals: DealSource | Sequence[Deal | Sequence[int]] | None = None,
              start: MatchStart | None = None) -> State:
    """A new match at its first decision.

    ``deals`` may inject the deal of each hand (a sequence of :class:`Deal`
    or 52-card orders, used for hands 1, 2, ... and then falling back to the
    seed, or a callable ``hand_no -> Deal``); otherwise deals come from
    ``seed`` alone, so the same seed always gives the same match. ``start``
    begins at a later hand with the given scores and bags (for replaying it).
    """
    if variant.__class__ is not Variant:
        variant = Variant.parse(variant)
    c = _Context()
    c.variant, c.rules, c.nseats = variant, rules or Rules(), 4 if variant is _PARTNERSHIP else 2
    c.deal_source = _deal_source(seed, deals)
    c.score = c.bags = (0, 0)
    if start is not None:
        c.score, c.bags = start.score, start.bags
    c.history, c.winner, c.reason = (), None, None
    st = State()
    st._ctx, st.over = c, False
    events: list[Event] = []
    _start_hand(st, start.hand if start is not None else 1, events)
    st._events = tuple(events)
    return st


def _deal_source(seed: int, deals: Any) -> DealSource:
    if deals is None:
        return seeded_deals(seed)
    if callable(deals):
        return deals
    fixed = list(deals)
    for i, d in enumerate(fixed):
        if d.__class__ is not Deal:
            fixed[i] = Deal.from_cards(d)

    def source(hand_no: int) -> Deal:
        return fixed[hand_no - 1] if hand_no <= len(fixed) else seeded_deal(seed, hand_no)

    return source


_BID_ORDER = tuple(tuple((dealer + 1 + i) % 4 for i in range(4)) for dealer in range(4))
_BID_QUEUES = tuple(tuple(("bidturn", (dealer + 1 + i) % 4, 0, None) for i in range(4)) for dealer in range(4))


def _blind_nil_allowed(st: State, seat: int) -> bool:
    c = st._ctx
    rules = c.rules
    if not rules.blind_nil:
        return False
    if rules.blind_nil_behind is None:
        return True
    side = c.variant.side_of(seat)
    return c.score[1 - side] - c.score[side] >= rules.blind_nil_behind


# Per-hand context fields reset at every deal, by number of seats.
_FRESH_HAND = {
    n: {"bids": (None,) * n, "blind": (False,) * n, "passed": (0,) * n, "received": (0,) * n,
        "discarded": (0,) * n, "pile": 0, "stock": 0}
    for n in (2, 4)
}
_NO_TRICKS = {2: (0, 0), 4: (0, 0, 0, 0)}


def _start_hand(st: State, hand_no: int, events: list[Event]) -> None:
    """Deal hand ``hand_no`` into ``st``, whose context is private to it."""
    c = st._ctx
    n = c.nseats
    c.hand_no = hand_no
    c.deal = deal = c.deal_source(hand_no)
    c.__dict__.update(_FRESH_HAND[n])
    st.tricks, st.trick, st.done, st.led_suit, st.spades_broken = _NO_TRICKS[n], (), (), -1, False
    if n == 4:
        c.dealer = dealer = (hand_no - 1) % 4
        # Card i goes to seat dealer+1+i (mod 4): every 4th card from an offset.
        # One C-level lookup of the 52 bits, then four slices: the fastest way
        # found to turn the order into four hand masks.
        bits = itemgetter(*deal.cards)(_BIT)
        masks = (sum(bits[0::4]), sum(bits[1::4]), sum(bits[2::4]), sum(bits[3::4]))
        st.hands = masks[3 - dealer:] + masks[:3 - dealer]  # masks[0] goes to dealer + 1
        c.looked = (False, False, False, False)
        st.leader = (dealer + 1) % 4
        events.append(_tuple_new(Event, ("hand_start", ALL, {"hand": hand_no, "dealer": dealer, "score": c.score,
                                                               "bags": c.bags})))
        # Bidding starts left of the dealer; each turn is a Blind Nil offer
        # (hand unseen) or, when none is allowed, a look and a bid.
        c.queue = _BID_QUEUES[dealer]
    else:
        c.dealer = first = (hand_no - 1) % 2  # "first player": draws first
        second = 1 - first
        st.hands, c.looked = (0, 0), (True, True)
        st.leader = second
        events.append(Event("hand_start", ALL, {"hand": hand_no, "first": first, "score": c.score, "bags": c.bags}))
        queue = [("blindoffer", s, 0, None) for s in (first, second)]
        queue += [("draw", first if t % 2 == 0 else second, 0, None) for t in range(26)]
        queue += [("bnexchange", s, 0, None) for s in (first, second)]
        queue += [("bidturn", s, 0, None) for s in (second, first)]
        c.queue = tuple(queue)
    _advance(st, events)


def _advance(st: State, events: list[Event]) -> None:
    """Move to the next decision, skipping queue entries that need no decision."""
    c = st._ctx
    queue = c.queue
    while queue:
        kind, seat, _, _ = queue[0]
        if kind == "bidturn":
            if c.bids[seat] is not None:  # a two-player Blind Nil bidder is not asked again
                queue = queue[1:]
                continue
            if c.variant is _PARTNERSHIP and _blind_nil_allowed(st, seat):
                c.queue, st.phase, st.turn = queue, Phase.BLIND_NIL, seat
                return
            _look(st, seat, events)
            c.queue, st.phase, st.turn = queue, Phase.BID, seat
            return
        if kind == "blindoffer":
            if _blind_nil_allowed(st, seat):
                c.queue, st.phase, st.turn = queue, Phase.BLIND_NIL, seat
                return
            queue = queue[1:]
            continue
        if kind == "draw":
            c.queue, st.phase, st.turn = queue, Phase.KEEP, seat
            return
        if kind == "bnexchange":
            count = c.rules.blind_nil_cards
            if c.blind[seat] and count > 0:
                c.queue, st.phase, st.turn = (("discard", seat, count, None),) + queue[1:], Phase.DISCARD, seat
                return
            queue = queue[1:]
            continue
        if kind in ("discard", "pass"):
            c.queue, st.turn = queue, seat
            st.phase = Phase.DISCARD if kind == "discard" else Phase.PASS
            return
        raise AssertionError(f"unknown queue entry {kind!r}")  # pragma: no cover
    # Nothing left before the play: the leader of the first trick is to act.
    c.queue = ()
    st.phase, st.turn = Phase.PLAY, st.leader


def _look(st: State, seat: int, events: list[Event]) -> None:
    """A partnership player picks up their cards: the owner is shown them."""
    c = st._ctx
    if not c.looked[seat]:
        c.looked = _set(c.looked, seat, True)
        events.append(_tuple_new(Event, ("hand", seat, {"cards": st.hands[seat]})))


def _after_bidding_partnership(st: State, events: list[Event]) -> None:
    """All four bids are in: Blind Nil bidders look, then the exchanges are queued."""
    c = st._ctx
    order = _BID_ORDER[c.dealer]
    if c.looked != (True, True, True, True):
        for seat in order:
            _look(st, seat, events)
    queue = []
    count = c.rules.blind_nil_cards
    blind = c.blind
    if count > 0 and any(blind):
        for seat in order:
            partner = (seat + 2) % 4
            if blind[seat] and not blind[partner]:
                # The partner passes first, then the Blind Nil bidder passes back.
                queue.append(("pass", partner, count, seat))
                queue.append(("pass", seat, count, partner))
    c.queue = tuple(queue)


# --------------------------------------------------------------------------- legality


def legal_play_mask(st: State) -> int:
    """Mask of the cards the player to act may play (phase ``play``)."""
    hand = st.hands[st.turn]
    if st.trick:
        follow = hand & SUIT_MASKS[st.led_suit]
        return follow or hand
    if st.spades_broken:
        return hand
    return (hand & NON_SPADE_MASK) or hand


_BIDS = (tuple(range(1, 14)), tuple(range(0, 14)))


def legal_bids(st: State) -> tuple[int, ...]:
    """Bids the player to act may make (0 is Nil, only where Nil is allowed)."""
    return _BIDS[st._ctx.rules.nil]


def legal_actions(st: State) -> Sequence:
    """Every legal action of the current phase (combinations for discard/pass).

    The result is a list or a tuple; do not mutate it (a tuple may be shared).
    """
    phase = st.phase
    if phase is _PLAY:
        hand = st.hands[st.turn]
        if st.trick:
            suit = st.led_suit
            pattern = hand >> (13 * suit) & 0x1FFF
            if pattern:
                return _SUIT_TABLES[suit][pattern]  # an immutable tuple, shared
        elif not st.spades_broken and hand & 0x7FFFFFFFFF:  # bits 0..38: the non-spades
            # Leading before spades are broken, holding other suits: no spades.
            return [*_T0[hand & 0x1FFF], *_T1[hand >> 13 & 0x1FFF], *_T2[hand >> 26 & 0x1FFF]]
        # The whole hand (cards.cards_of, inlined: this is the hot path).
        return [*_T0[hand & 0x1FFF], *_T1[hand >> 13 & 0x1FFF], *_T2[hand >> 26 & 0x1FFF], *_T3[hand >> 39]]
    if phase is Phase.BID:
        return _BIDS[st._ctx.rules.nil]
    if phase is Phase.BLIND_NIL:
        return [False, True]
    if phase is Phase.KEEP:
        return [True, False]
    if phase is Phase.DISCARD:
        held = cards_of(st.hands[st.turn])
        return [combo for k in range(st.pending_count + 1) for combo in itertools.combinations(held, k)]
    if phase is Phase.PASS:
        return list(itertools.combinations(cards_of(st.hands[st.turn]), st.pending_count))
    return []


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def check_action(st: State, action: object) -> None:
    """Raise :class:`IllegalAction` with a precise reason unless ``action`` is legal."""
    phase, seat = st.phase, st.turn
    if st.over:
        raise IllegalAction(seat, Phase.OVER, action, "the match is over", "nothing")
    if phase is Phase.PLAY:
        mask = legal_play_mask(st)
        if _is_int(action) and 0 <= action < 52 and mask >> action & 1:
            return
        legal = str(names_of(mask))
        if not _is_int(action) or not 0 <= action < 52:
            raise IllegalAction(seat, phase, action, "that is not a card", legal)
        if not st.hands[seat] >> action & 1:
            raise IllegalAction(seat, phase, action, "you do not hold that card", legal)
        if st.trick:
            raise IllegalAction(seat, phase, action, f"you must follow {SUIT_NAMES[st.led_suit]}", legal)
        raise IllegalAction(seat, phase, action, "spades are not broken and you hold other suits", legal)
    if phase is Phase.BID:
        if action.__class__ is int and 0 <= action <= 13 and (action or st.rules.nil):
            return
        legal_list = legal_bids(st)
        reason = "Nil is not allowed" if action == 0 and _is_int(action) else "a bid is a whole number of tricks"
        if _is_int(action) and action != 0:
            reason = "a bid is from 0 (Nil) to 13" if st.rules.nil else "a bid is from 1 to 13"
        raise IllegalAction(seat, phase, action, reason, f"{legal_list[0]}..{legal_list[-1]}")
    if phase in (Phase.BLIND_NIL, Phase.KEEP):
        if isinstance(action, bool):
            return
        raise IllegalAction(seat, phase, action, "the answer is true or false", "true, false")
    if phase in (Phase.DISCARD, Phase.PASS):
        n = st.pending_count
        legal = f"{'up to' if phase is Phase.DISCARD else 'exactly'} {n} of {names_of(st.hands[seat])}"
        if not isinstance(action, (tuple, list)) or not all(_is_int(c) and 0 <= c < 52 for c in action):
            raise IllegalAction(seat, phase, action, "the answer is a list of cards", legal)
        if len(set(action)) != len(action):
            raise IllegalAction(seat, phase, action, "a card is listed twice", legal)
        if (phase is Phase.DISCARD and len(action) > n) or (phase is Phase.PASS and len(action) != n):
            raise IllegalAction(seat, phase, action, f"wrong number of cards ({len(action)})", legal)
        for c in action:
            if not st.hands[seat] >> c & 1:
                raise IllegalAction(seat, phase, action, f"you do not hold {C.card_name(c)}", legal)
        return
    raise IllegalAction(seat, phase, action, "no decision is expected", "nothing")  # pragma: no cover


def fallback_action(st: State) -> Action:
    """The decision the referee makes for a faulted bot under the ``substitute`` policy.

    Deliberately plain and predictable: the lowest legal card, a bid of one
    (or the lowest legal bid), never Blind Nil, keep every drawn card, discard
    nothing, pass the lowest cards.
    """
    phase = st.phase
    if phase is Phase.PLAY:
        mask = legal_play_mask(st)
        return (mask & -mask).bit_length() - 1
    if phase is Phase.BID:
        bids = legal_bids(st)
        return 1 if 1 in bids else bids[0]
    if phase is Phase.BLIND_NIL:
        return False
    if phase is Phase.KEEP:
        return True
    if phase is Phase.DISCARD:
        return ()
    if phase is Phase.PASS:
        return tuple(cards_of(st.hands[st.turn])[: st.pending_count])
    raise IllegalAction(st.turn, phase, None, "the match is over", "nothing")


# --------------------------------------------------------------------------- step


def _reject(st: State, action: object) -> NoReturn:
    """Raise the precise :class:`IllegalAction` for an action already known to be illegal."""
    check_action(st, action)
    raise AssertionError(f"check_action passed an action step() found illegal: {action!r}")


def step(st: State, action: Action) -> State:
    """Apply ``action`` for the seat to act and return the new state.

    Raises :class:`IllegalAction` (and leaves ``st`` untouched) when the rules
    forbid the action.
    """
    if st.phase is _PLAY:
        # Hot path (every card of every hand): legality inlined, and the
        # events are recorded compactly and only built if someone reads them.
        seat = st.turn
        hands = st.hands
        hand = hands[seat]
        trick = st.trick
        if trick:
            mask = hand & SUIT_MASKS[st.led_suit] or hand
        elif st.spades_broken:
            mask = hand
        else:
            mask = hand & 0x7FFFFFFFFF or hand  # bits 0..38: the non-spades
        # (A card above 51 is not in the mask; a negative one must not reach the shift.)
        # (``type(x) is int`` and not ``isinstance``: a bool is no card; it also
        # tells the type checker that ``action`` is a card number below.)
        if type(action) is not int or action < 0 or not mask >> action & 1:
            _reject(st, action)
        # The new state: every slot is stored below, on every path. (Calling
        # the class, which has no __init__, is cheaper than object.__new__.)
        new = State()
        new.phase, new.over = _PLAY, False
        new._events, new._ctx = None, st._ctx
        new.spades_broken = action >= 39 or st.spades_broken  # cards 39..51 are the spades
        # The hands with this seat's card removed, written out per seat: far
        # cheaper than building a list or unpacking slices.
        left = hand ^ _BIT[action]
        if len(hands) == 4:
            if seat == 0:
                new.hands = (left, hands[1], hands[2], hands[3])
            elif seat == 1:
                new.hands = (hands[0], left, hands[2], hands[3])
            elif seat == 2:
                new.hands = (hands[0], hands[1], left, hands[3])
            else:
                new.hands = (hands[0], hands[1], hands[2], left)
        else:
            new.hands = (left, hands[1]) if seat == 0 else (hands[0], left)
        if not trick:  # a lead
            new.led_suit = action // 13
            new.trick = ((seat, action),)
            new.turn = _NEXT[seat] if len(hands) == 4 else 1 - seat
            new.leader, new.tricks, new.done = st.leader, st.tricks, st.done
            return new
        new.led_suit = st.led_suit
        trick += ((seat, action),)
        if len(trick) != len(hands):  # the trick goes on
            new.trick = trick
            new.turn = _NEXT[seat]
            new.leader, new.tricks, new.done = st.leader, st.tricks, st.done
            return new
        # The trick is complete: its winner takes it and leads the next one.
        new.leader = new.turn = winner = trick_winner(trick)
        tricks = st.tricks
        if len(tricks) == 4:
            won = tricks[winner] + 1
            if winner == 0:
                new.tricks = (won, tricks[1], tricks[2], tricks[3])
            elif winner == 1:
                new.tricks = (tricks[0], won, tricks[2], tricks[3])
            elif winner == 2:
                new.tricks = (tricks[0], tricks[1], won, tricks[3])
            else:
                new.tricks = (tricks[0], tricks[1], tricks[2], won)
        else:
            new.tricks = _set(tricks, winner, tricks[winner] + 1)
        new.trick = ()
        new.done = done = st.done + (trick,)
        if len(done) == 13:
            new._ctx = st._ctx.copy()  # the hand's end changes the context
            events = [_tuple_new(Event, ("played", ALL, {"seat": seat, "card": action})),
                      _tuple_new(Event, ("trick", ALL, {"cards": trick, "winner": winner}))]
            _finish_hand(new, events)
            new._events = tuple(events)
        return new
    if st.phase is _BID and action.__class__ is int and 0 <= action <= 13 and (action or st._ctx.rules.nil):
        # Second hottest path: four bids per hand.
        new = st._copy()
        c = new._ctx
        seat = st.turn
        c.bids = _set(c.bids, seat, action)
        events = [_tuple_new(Event, ("bid_made", ALL, {"seat": seat, "bid": action, "blind": False}))]
        c.queue = rest = c.queue[1:]
        if c.variant is _PARTNERSHIP:
            if rest:
                # The next bidder: a Blind Nil offer, or a look at the cards and a bid.
                nxt = rest[0][1]
                new.turn = nxt
                if c.rules.blind_nil and _blind_nil_allowed(new, nxt):
                    new.phase = Phase.BLIND_NIL
                else:
                    _look(new, nxt, events)
                new._events = tuple(events)
                return new
            _after_bidding_partnership(new, events)
        _advance(new, events)
        new._events = tuple(events)
        return new
    check_action(st, action)
    new = st._copy()
    events = []
    _apply_setup(new, action, events)
    new._events = tuple(events)
    return new


def trick_winner(trick: Sequence[tuple[int, int]]) -> int:
    """Seat that wins a complete trick: highest spade, else highest card of the led suit."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        # Spades (39..51) are the highest cards, so a higher card takes the
        # trick if it is a spade (a trump, or a higher spade) or of the suit
        # of the best card so far; any other card never wins.
        if card > best and (card >= 39 or card // 13 == best // 13):
            best_seat, best = seat, card
    return best_seat


def _set(tup: tuple, index: int, value: Any) -> tuple:
    items = list(tup)
    items[index] = value
    return tuple(items)


def _apply_setup(st: State, action: Any, events: list[Event]) -> None:
    """Every phase but play; ``st`` is already a private copy (its context too)."""
    c = st._ctx
    phase, seat = st.phase, st.turn
    head, rest = c.queue[0], c.queue[1:]
    if phase is Phase.BLIND_NIL:
        if action:
            c.bids, c.blind = _set(c.bids, seat, 0), _set(c.blind, seat, True)
            events.append(Event("bid_made", ALL, {"seat": seat, "bid": 0, "blind": True}))
            c.queue = rest
            if c.variant is _PARTNERSHIP and rest == ():
                _after_bidding_partnership(st, events)
        elif c.variant is _PARTNERSHIP:
            # Declined: the player looks at their cards and is asked for a bid.
            _look(st, seat, events)
            st.phase = Phase.BID
            return
        else:
            c.queue = rest
    elif phase is Phase.BID:
        c.bids = _set(c.bids, seat, action)  # legality was checked by step()
        events.append(Event("bid_made", ALL, {"seat": seat, "bid": action, "blind": False}))
        c.queue = rest
        if c.variant is _PARTNERSHIP and rest == ():
            _after_bidding_partnership(st, events)
    elif phase is Phase.KEEP:
        first, second = c.deal.cards[c.stock], c.deal.cards[c.stock + 1]
        kept, gone = (first, second) if action else (second, first)
        st.hands = _set(st.hands, seat, st.hands[seat] | 1 << kept)
        c.discarded = _set(c.discarded, seat, c.discarded[seat] | 1 << gone)
        c.pile |= 1 << gone
        c.stock += 2
        events.append(Event("drawn", seat, {"kept": kept, "discarded": gone}))
        c.queue = rest
        if c.stock == 52:
            for s in (c.dealer, 1 - c.dealer):
                events.append(Event("hand", s, {"cards": st.hands[s]}))
    elif phase is Phase.DISCARD:
        gone = C.mask_of(action)
        # The replacements come from the pile as it stood before this exchange,
        # drawn with the hand's own seeded generator so a deal replays exactly.
        rng = random.Random(c.deal.salt * 4 + seat)
        fresh = rng.sample(cards_of(c.pile), len(action)) if action else []
        got = C.mask_of(fresh)
        st.hands = _set(st.hands, seat, (st.hands[seat] & ~gone) | got)
        c.pile = (c.pile & ~got) | gone
        c.discarded = _set(c.discarded, seat, c.discarded[seat] | gone)
        c.received = _set(c.received, seat, c.received[seat] | got)
        events.append(Event("received", seat, {"cards": got, "from": "discards"}))
        events.append(_tuple_new(Event, ("hand", seat, {"cards": st.hands[seat]})))
        c.queue = rest
    elif phase is Phase.PASS:
        to = head[3]
        moved = C.mask_of(action)
        hands = list(st.hands)
        hands[seat] &= ~moved
        hands[to] |= moved
        st.hands = tuple(hands)
        c.passed = _set(c.passed, seat, c.passed[seat] | moved)
        c.received = _set(c.received, to, c.received[to] | moved)
        events.append(Event("received", to, {"cards": moved, "from": seat}))
        events.append(Event("hand", seat, {"cards": hands[seat]}))
        events.append(Event("hand", to, {"cards": hands[to]}))
        c.queue = rest
    _advance(st, events)


def _finish_hand(st: State, events: list[Event]) -> None:
    """Score the hand, record it, and end the match or deal the next hand.

    ``st`` is a new state whose context is already its own.
    """
    c = st._ctx
    rules, hand_no, bids, blind, tricks = c.rules, c.hand_no, c.bids, c.blind, st.tricks
    # Every seat has bid by the end of a hand: no None is left in ``bids``.
    scored = score_hand(c.variant, rules, cast("tuple[int, ...]", bids), blind, tricks, c.bags)
    a, b = scored.sides
    points = (a.points, b.points)
    c.score = score = (c.score[0] + a.points, c.score[1] + b.points)
    c.bags = bags = (a.bags_after, b.bags_after)
    c.history += (_tuple_new(HandResult, (hand_no, c.dealer, bids, blind, tricks, points, score, bags, scored)),)
    events.append(_tuple_new(Event, ("hand_end", ALL, {"hand": hand_no, "bids": bids, "blind": blind,
                                                       "tricks": tricks, "points": points, "score": score,
                                                       "bags": bags})))
    outcome = match_outcome(rules, score, hand_no)
    if outcome.over:
        _end(st, outcome.winner, outcome.reason, events)
    else:
        _start_hand(st, hand_no + 1, events)


def _end(st: State, winner: int | None, reason: EndReason | None, events: list[Event]) -> None:
    """End the match; ``st`` is a new state whose context is already its own."""
    c = st._ctx
    c.winner, c.reason, c.queue = winner, reason, ()
    st.over, st.phase = True, Phase.OVER
    events.append(_tuple_new(Event, ("match_end", ALL, {"score": c.score, "winner": winner, "reason": reason})))


def forfeit(st: State, seats: Sequence[int]) -> State:
    """End the match because the given seats faulted: their sides lose.

    If both sides faulted (possible only when the referee collects faults from
    several bots at once), the match is a draw by forfeit.
    """
    if st.over:
        return st
    new = st._copy()
    sides = {st.variant.side_of(s) for s in seats}
    winner = None if len(sides) != 1 else 1 - sides.pop()
    events: list[Event] = []
    _end(new, winner, EndReason.FORFEIT, events)
    new._events = tuple(events)
    return new


def play_random(st: State, rng: random.Random, chooser: Callable[[State], Action] | None = None) -> State:
    """Play uniformly random legal actions to the end of the match (tests, tools)."""
    while not st.over:
        if chooser is not None:
            action = chooser(st)
        elif st.phase is Phase.DISCARD:
            hand = cards_of(st.hands[st.turn])
            action = tuple(rng.sample(hand, rng.randint(0, min(st.pending_count, len(hand)))))
        elif st.phase is Phase.PASS:
            action = tuple(rng.sample(cards_of(st.hands[st.turn]), st.pending_count))
        else:
            action = rng.choice(legal_actions(st))
        st = step(st, action)
    return st
