#!/usr/bin/env python3
"""A sensible Spades bot for both variants (protocol v1), built on :mod:`spadesbot`.

It keeps no memory it could not rebuild from the request's ``state`` except the
two-player draw discards it saw (from ``drawn`` events; ``state.discards`` when the
referee sends it). Strategy, in short:

* **Bid** by estimating tricks: high cards counted by how many unseen cards outrank
  them (so a king whose ace was discarded counts as a winner), spade length, and
  short side suits with spare spades to ruff. Nil when the hand has no high spade and
  no unguarded high card; Blind Nil only when the side trails by 200 or more.
* **Two-player draw**: keep a card when it is worth more than an average unseen card
  for the hand's plan (tricks: spades and honours; Blind Nil: low cards).
* **Play**: follow low when the trick is lost or partner's card holds, win with the
  cheapest card that holds, ruff when void and the side still needs tricks, cover a
  partner's Nil, duck under an opponent's Nil, and duck for bags once the contract
  is made unless the opponents are one or two tricks from being set.

Run: ``python3 bots/heuristic_bot.py`` (from any folder).
"""

from __future__ import annotations

import os
import sys
from typing import Iterable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import spadesbot  # noqa: E402  (import after the path fix, so the bot runs from any cwd)
from spadesbot import Bot, State  # noqa: E402

SPADE = 3
QUEEN, TEN = 10, 8  # rank indexes


def ci(name: str) -> int:
    """Card name to int (``suit * 13 + rank``)."""
    return spadesbot.card_index(name)


def cn(card: int) -> str:
    """Card int to name."""
    return spadesbot.card_name(card)


def suit(card: int) -> int:
    """Suit index of a card int: 0 clubs .. 3 spades."""
    return card // 13


def rank(card: int) -> int:
    """Rank index of a card int: 0 for a 2 .. 12 for an ace."""
    return card % 13


def beats(card: int, other: int, led: int) -> bool:
    """Whether ``card`` beats ``other`` in a trick led in suit ``led``."""
    if suit(card) == suit(other):
        return rank(card) > rank(other)
    if suit(card) == SPADE:
        return True
    if suit(other) == SPADE:
        return False
    return suit(card) == led


class View:
    """What one seat knows at one request: its cards, the cards out of play, voids."""

    def __init__(self, state: State, seen_out: Iterable[int] = ()) -> None:
        self.st = state
        self.hand = sorted(ci(c) for c in state.hand)
        self.mine = set(self.hand)
        self.played = {ci(c) for _, c in state.played}
        # Cards that no other player can hold: played ones and (two-player) the
        # draw discards this seat saw. Everything else not in hand is "unseen".
        self.out = self.played | set(seen_out)
        self.void = {s: {"CDHS".index(x) for x in v} for s, v in spadesbot.shown_out(state.played, state.seats).items()}
        self.trick = [(s, ci(c)) for s, c in state.trick]
        self.led = suit(self.trick[0][1]) if self.trick else None
        self.after = state.still_to_play
        self.partner = state.partner
        self.opponents = state.opponents

    # Knowledge ------------------------------------------------------------------
    def unseen_higher(self, card: int) -> int:
        """Cards of ``card``'s suit that outrank it and may still be in another hand."""
        base = suit(card) * 13
        return sum(1 for r in range(rank(card) + 1, 13) if base + r not in self.mine and base + r not in self.out)

    def unseen_in_suit(self, s: int) -> int:
        """Cards of suit ``s`` that may still be in another hand."""
        return sum(1 for r in range(13) if s * 13 + r not in self.mine and s * 13 + r not in self.out)

    def is_boss(self, card: int) -> bool:
        """Whether no card that may still be in another hand outranks ``card`` in its suit."""
        return self.unseen_higher(card) == 0

    def may_ruff(self, seat: int, s: int) -> bool:
        """Seat is known void in suit ``s`` and may still hold a spade."""
        return s != SPADE and s in self.void.get(seat, set()) and SPADE not in self.void.get(seat, set())

    def holds(self, card: int, seats: list[int]) -> bool:
        """Whether ``card``, played now, should win against the later ``seats``.

        A card holds when no unseen card of its suit outranks it and (for a non-spade)
        no opponent still to play is known to be void and able to ruff.
        """
        if not self.is_boss(card):
            return False
        if suit(card) == SPADE:
            return True
        return not any(self.may_ruff(s, suit(card)) for s in seats if s in self.opponents)

    def winner(self) -> tuple[int, int] | None:
        """``(seat, card)`` winning the trick in progress, None before the lead."""
        if not self.trick:
            return None
        seat, best = self.trick[0]
        for s, c in self.trick[1:]:
            if beats(c, best, self.led if self.led is not None else suit(c)):
                seat, best = s, c
        return seat, best

    def suit_cards(self, s: int) -> list[int]:
        """This seat's cards of suit ``s``, lowest first."""
        return [c for c in self.hand if suit(c) == s]


# --------------------------------------------------------------------------- bidding

# Trick value of a side-suit card by how many unseen cards outrank it (0 = boss),
# for a guarded holding. Two-player hands face one opponent holding half the
# unseen cards; four-player hands face two opponents holding two thirds of them.
SIDE_VALUE = {2: (1.0, 0.75, 0.45, 0.2), 4: (0.95, 0.65, 0.3, 0.1)}
SPADE_VALUE = {2: (1.0, 0.9, 0.75, 0.5, 0.3), 4: (1.0, 0.85, 0.6, 0.3, 0.1)}


def estimate_tricks(view: View) -> float:
    """Raw trick count of the hand in ``view`` before any card is played (see :func:`expected_tricks`)."""
    seats = view.st.seats
    hand = view.hand
    n_spades = sum(1 for c in hand if suit(c) == SPADE)
    total = 0.0
    # Spades: honours by how many unseen spades outrank them (they need guards to
    # survive), then long spades win once the others have run out.
    honours = 0
    spade_values = SPADE_VALUE[seats]
    for c in hand:
        if suit(c) != SPADE:
            continue
        h = view.unseen_higher(c)
        if h < len(spade_values):
            guarded = n_spades > h  # enough spades to wait for the higher ones to fall
            total += spade_values[h] if guarded else spade_values[h] * 0.4
            honours += 1
    length_tricks = max(0, n_spades - (4 if seats == 4 else 3)) * 0.9
    total += length_tricks
    # Side suits: honours the same way; short suits are ruffing chances.
    side_values = SIDE_VALUE[seats]
    ruff = 0.0
    for s in range(3):
        cards = sorted((c for c in hand if suit(c) == s), reverse=True)
        length = len(cards)
        ruff += (1.2, 0.7, 0.25)[length] if length < 3 else 0.0
        # Long side suits get ruffed before their honours cash (more so with 4 players).
        long_cut = 1.0 if length <= (4 if seats == 4 else 6) else 0.6
        for c in cards[: len(side_values)]:
            h = view.unseen_higher(c)
            if h < len(side_values):
                guarded = length > h
                total += (side_values[h] if guarded else side_values[h] * 0.35) * long_cut
        if seats == 2 and length >= 5:
            # One opponent holding about half of the rest: a long suit runs.
            total += (length - 4) * 0.3
    # Ruffs need spades beyond those already counted as honours or length winners.
    spare = max(0, n_spades - honours - int(length_tricks))
    total += min(ruff, spare) * 0.75
    return total


# Raw estimate -> expected tricks, fitted by least squares on simulated self-play of
# this bot (thousands of hands per variant). The raw count is a sum of hand features;
# the fit absorbs what it misses, e.g. that the two-player draw makes both hands
# strong, so each side's raw count runs well above the 6.5 tricks it averages.
CALIBRATION = {2: (1.10, 0.64), 4: (0.91, 0.84)}


def expected_tricks(view: View) -> float:
    """Calibrated trick expectation of the hand in ``view``."""
    a, b = CALIBRATION[view.st.seats]
    return a + b * estimate_tricks(view)


def nil_card_danger(card: int) -> float:
    """How much ``card`` threatens a Nil (0 harmless .. 1 a near-certain trick).

    Side cards grow with the square of their rank (low cards are nearly free); every
    spade is at least half a threat, since it cannot be shed on another suit's trick
    without winning it. Simulated two-player Blind Nils did best with this shape.
    """
    r = rank(card)
    return 0.5 + r / 24 if suit(card) == SPADE else (r / 12) ** 2


def nil_danger(view: View) -> float:
    """How likely the hand is to be forced to win a trick; infinite when hopeless."""
    danger = 0.0
    spades = [c for c in view.hand if suit(c) == SPADE]
    if len(spades) >= 5:
        return float("inf")
    for c in spades:
        h = view.unseen_higher(c)
        if h <= 2:
            return float("inf")
        danger += 0.25 + max(0, 6 - h) * 0.15
    if len(spades) == 4:
        danger += 0.5
    for s in range(3):
        cards = sorted(c for c in view.hand if suit(c) == s)
        for k, c in enumerate(cards):
            # A high card is safe when enough lower cards let it be shed later.
            r = rank(c)
            if r <= 5:
                continue
            weight = ((r - 5) / 7) ** 2
            danger += weight * (1.0, 0.55, 0.3, 0.2)[min(k, 3)]
    return danger


def side_contract(state: State, side: int) -> tuple[int, int]:
    """(contract, tricks toward it) of ``side``: nil members' bids and tricks excluded."""
    contract = got = 0
    for seat in range(state.seats):
        if state.side_of(seat) != side:
            continue
        b = state.bids[seat] if seat < len(state.bids) else None
        if b:
            contract += b
            got += state.tricks[seat]
    return contract, got


# --------------------------------------------------------------------------- the bot


class HeuristicBot(Bot):
    """Counting bidder and careful card player for both variants."""

    name = "heuristic"

    #: Bid ``int(expected + ROUNDING[seats])``. Simulated matches favoured rounding
    #: down, more so in the swingy two-player game: a set costs more than a few bags.
    ROUNDING = {2: -0.5, 4: 0.0}
    #: Bid Nil only below this expected trick count and this :func:`nil_danger`, by seats.
    NIL_MAX_TRICKS = {2: 2.5, 4: 2.7}
    NIL_MAX_DANGER = {2: 0.8, 4: 1.1}
    #: Blind Nil only when trailing by at least this many points ...
    BLIND_TRAIL = 200
    #: ... and, in two-player, only once the opponent is this close to the target.
    DESPERATE_MARGIN = 150

    def __init__(self) -> None:
        super().__init__()
        self.seen_discards: set[int] = set()
        self.hand_no: int | None = None

    # Events -----------------------------------------------------------------------
    def on_hand_start(self, msg: dict) -> None:
        """A new hand: forget the last hand's discards."""
        self.seen_discards.clear()
        self.hand_no = msg.get("hand")

    def on_drawn(self, msg: dict) -> None:
        """Two-player draw turn: remember the card we discarded (nobody holds it)."""
        card = msg.get("discarded")
        if isinstance(card, str):
            self.seen_discards.add(ci(card))

    def known_discards(self, state: State) -> set[int]:
        """Two-player: the discards this seat saw (events and ``state.discards``), none held."""
        if state.hand_no != self.hand_no and state.hand_no:
            # A hand we were not told about (no hand_start seen): old discards are stale.
            self.seen_discards.clear()
            self.hand_no = state.hand_no
        if state.partnership:
            return set()
        known = set(self.seen_discards) | {ci(c) for c in state.discards}
        return known - {ci(c) for c in state.hand}

    def view(self, state: State) -> View:
        """Build the :class:`View`, with the discards this seat knows to be out of play."""
        seen = self.known_discards(state)
        if seen and state.blind[1 - state.seat] and state.rules.get("blind_nil_cards", 3):
            # A Blind Nil opponent may have drawn some of them back.
            seen = set()
        return View(state, seen)

    # Blind Nil ---------------------------------------------------------------------
    def blind_nil(self, state: State) -> bool:
        """Only when trailing by ``BLIND_TRAIL``; in two-player also only as a last resort.

        With a partner to cover it and three cards to swap, a partnership Blind Nil
        succeeded in most simulated hands. A two-player one faces an opponent who
        leads low into it all hand: it failed five times in six even with the draw
        spent on low cards, so there it waits until the opponent nears the target.
        """
        side = state.side
        trail = state.score[1 - side] - state.score[side]
        if trail < self.BLIND_TRAIL:
            return False
        if state.partnership:
            # Both partners nil leaves no contract and nobody to cover.
            return state.partner is None or state.bids[state.partner] != 0
        target = int(state.rules.get("target", 500) or 500)
        return state.score[1 - side] >= target - self.DESPERATE_MARGIN

    # Two-player draw -----------------------------------------------------------------
    def nil_plan(self, state: State) -> bool:
        """Whether this seat's draw should collect low cards (it declared Blind Nil)."""
        return state.bids[state.seat] == 0 and state.blind[state.seat]

    @staticmethod
    def keep_value(card: int, plan_nil: bool, hand: list[int]) -> float:
        """What ``card`` adds to the hand under the plan (higher is better)."""
        r, s = rank(card), suit(card)
        if plan_nil:
            return -nil_card_danger(card)
        if s == SPADE:
            return 0.55 + r / 24
        length = sum(1 for c in hand if suit(c) == s)
        value = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.05, 0.12, 0.3, 0.6, 0.95)[r]
        if length >= 5:
            value *= 0.6  # honours in a long side suit get ruffed
        return value

    def keep(self, state: State, card: str) -> bool:
        """Keep the drawn card when it beats the average unseen card (the blind alternative)."""
        v = self.view(state)
        c = ci(card)
        plan_nil = self.nil_plan(state)
        unseen = [x for x in range(52) if x not in v.mine and x not in v.out and x != c]
        if not unseen:
            return True
        mean = sum(self.keep_value(x, plan_nil, v.hand) for x in unseen) / len(unseen)
        return self.keep_value(c, plan_nil, v.hand) >= mean

    def discard(self, state: State, max_cards: int) -> list[str]:
        """Two-player Blind Nil: swap the cards more dangerous than an average replacement."""
        v = self.view(state)
        danger = nil_card_danger
        # Replacements come from the 26 discards: the ones this seat saw plus the
        # opponent's, which are as likely as any unseen card.
        seen = self.known_discards(state)
        known = list(seen)
        unknown = [c for c in range(52) if c not in v.mine and c not in seen]
        pool = len(known) + len(unknown) / 2 if unknown else len(known)
        if pool <= 0:
            return []
        expected = (sum(danger(c) for c in known) + sum(danger(c) for c in unknown) / 2) / pool
        worst = sorted(v.hand, key=danger, reverse=True)
        return [cn(c) for c in worst[:max_cards] if danger(c) > expected + 0.05]

    # Partnership Blind Nil exchange ------------------------------------------------------
    def pass_cards(self, state: State, count: int, to: int) -> list[str]:
        """Blind Nil exchange: the nil bidder wants low cards, its partner high ones."""
        v = self.view(state)
        if state.is_nil(state.seat):
            # The nil bidder gives away what could win: high spades, aces, kings.
            ranked = sorted(v.hand, key=lambda c: -self.keep_value(c, True, v.hand), reverse=True)
        else:
            # The partner keeps the strength and gives low cards the nil bidder can duck with.
            ranked = sorted(v.hand, key=lambda c: (rank(c), suit(c) == SPADE, suit(c)))
        return [cn(c) for c in ranked[:count]]

    # Bidding ------------------------------------------------------------------------------
    def bid(self, state: State, legal: list[int]) -> int:
        """Nil for a hopeless hand, else the calibrated trick count, nearest legal value."""
        v = self.view(state)
        est = expected_tricks(v)
        partner_bid = state.bids[state.partner] if state.partner is not None else None
        want_nil = (
            0 in legal
            and est < self.NIL_MAX_TRICKS[state.seats]
            and nil_danger(v) < self.NIL_MAX_DANGER[state.seats]
            and partner_bid != 0
        )
        if want_nil:
            return 0
        target = max(1, int(est + self.ROUNDING[state.seats]))
        if state.partnership:
            # If the table already claims more than 13 tricks somebody will be set;
            # shading our bid by one makes it less likely to be us.
            others = sum(b for s, b in enumerate(state.bids) if s != state.seat and b)
            if others + target > 14:
                target = max(1, target - 1)
        choices = [b for b in legal if b != 0] or list(legal)
        return min(choices, key=lambda b: (abs(b - target), b))

    # Play ---------------------------------------------------------------------------------
    def play(self, state: State, legal: list[str]) -> str:
        """Pick a card from ``legal`` (see :meth:`choose`)."""
        if len(legal) == 1:
            return legal[0]
        v = self.view(state)
        cards = [ci(c) for c in legal]
        return cn(self.choose(v, cards))

    def choose(self, v: View, legal: list[int]) -> int:
        """The card to play, by priority: own Nil, partner's Nil, opponent's Nil, then tricks or bags."""
        st = v.st
        me = st.seat
        if st.is_nil(me) and st.tricks[me] == 0:
            return self.nil_play(v, legal)
        if v.partner is not None and st.is_nil(v.partner) and st.tricks[v.partner] == 0 and not st.is_nil(me):
            card = self.cover_play(v, legal)
            if card is not None:
                return card
        card = self.set_nil_play(v, legal)
        if card is not None:
            return card
        return self.take_play(v, legal) if self.wants_tricks(st) else self.duck_play(v, legal)

    # Goals ----------------------------------------------------------------------------------
    def wants_tricks(self, st: State) -> bool:
        """Whether this seat should try to win tricks now.

        Yes while the side's contract is short. Once it is made, extra tricks are
        bags, so only fight when the opponents are within a trick or two of being set
        (fewer when the side's bags are near the limit).
        """
        side = st.side
        contract, got = side_contract(st, side)
        if st.is_nil(st.seat):
            return False
        if got < contract:
            return True
        opp_contract, opp_got = side_contract(st, 1 - side)
        opp_need = opp_contract - opp_got
        if opp_contract == 0 or opp_need <= 0:
            return False
        limit = int(st.rules.get("bag_limit", 10) or 10)
        nil_bags = sum(st.tricks[s] for s in range(st.seats) if st.side_of(s) == side and st.is_nil(s))
        bags = int(st.bags[side]) % limit + (got - contract) + nil_bags
        near_limit = bags >= limit - 3
        slack = st.tricks_left - opp_need  # tricks the opponents can still afford to lose
        return 0 <= slack <= (0 if near_limit else 1)

    # Card orderings ---------------------------------------------------------------------------
    @staticmethod
    def cheapest(v: View, cards: list[int]) -> int:
        """The card that costs least to give up: low, not a spade, not a winner, from a short suit."""

        def cost(c: int) -> tuple:
            length = sum(1 for x in v.hand if suit(x) == suit(c))
            return (suit(c) == SPADE, v.is_boss(c) and rank(c) >= TEN, rank(c), length)

        return min(cards, key=cost)

    # Leading and following ------------------------------------------------------------------------
    def take_play(self, v: View, legal: list[int]) -> int:
        """The side needs tricks: win this one as cheaply as is safe, unless partner has it."""
        if not v.trick:
            return self.lead_for_tricks(v, legal)
        w_seat, w_card = v.winner()  # type: ignore[misc]
        led = v.led
        assert led is not None
        partner_wins = v.partner is not None and w_seat == v.partner
        if partner_wins and v.holds(w_card, v.after):
            return self.cheapest(v, legal)
        winners = [c for c in legal if beats(c, w_card, led)]
        if not winners:
            return self.cheapest(v, legal)
        if not v.after:
            return min(winners, key=lambda c: (suit(c) == SPADE and led != SPADE, rank(c)))
        sure = [c for c in winners if v.holds(c, v.after)]
        if sure:
            return min(sure, key=lambda c: (suit(c) == SPADE and led != SPADE, rank(c)))
        if suit(winners[0]) == SPADE and led != SPADE:
            if partner_wins:
                return self.cheapest(v, legal)  # never ruff partner's card: it may well hold
            # Ruffing: the lowest spade that wins; an overruff costs the opponents a spade too.
            return min(winners, key=rank)
        if partner_wins or (v.partner in v.after):
            # Second hand low: partner still to play may win it more cheaply.
            return self.cheapest(v, legal)
        # Last opponent to follow: play the winner it is least likely to beat.
        return min(winners, key=lambda c: (v.unseen_higher(c), rank(c)))

    def lead_for_tricks(self, v: View, legal: list[int]) -> int:
        """Lead when the side needs tricks."""
        spades_held = [c for c in v.hand if suit(c) == SPADE]
        # 1. Cash a side-suit winner that no opponent is known to ruff, preferring the
        #    suit where the others still hold the most cards (least chance of a ruff).
        cash = [c for c in legal if suit(c) != SPADE and v.holds(c, v.opponents)]
        if cash:
            return max(cash, key=lambda c: (v.unseen_in_suit(suit(c)), rank(c)))
        # 2. Draw trumps with a boss spade when long in spades.
        boss_spades = [c for c in legal if suit(c) == SPADE and v.is_boss(c)]
        if boss_spades and len(spades_held) >= 3:
            return max(boss_spades, key=rank)
        # 3. Lead into partner's void so partner can ruff.
        if v.partner is not None:
            pv = v.void.get(v.partner, set())
            ruffable = [c for c in legal if suit(c) != SPADE and suit(c) in pv and SPADE not in pv]
            if ruffable:
                return min(ruffable, key=rank)
        # 4. Lead low from a short side suit holding no honour, to make a void to ruff
        #    with; without spades to ruff, from the longest suit instead.
        side = [c for c in legal if suit(c) != SPADE]
        if side:
            def suit_key(c: int) -> tuple:
                held = v.suit_cards(suit(c))
                honour = any(rank(x) >= QUEEN and not v.is_boss(x) for x in held)
                length = len(held)
                return (honour, length if spades_held else -length, rank(c))

            return min(side, key=suit_key)
        return min(legal, key=rank)

    def duck_play(self, v: View, legal: list[int]) -> int:
        """Avoid the trick (bags): shed the highest card that still loses."""
        if not v.trick:
            # Lead the card least able to win: low, in a suit with many higher cards out.
            return min(legal, key=lambda c: (v.is_boss(c), suit(c) == SPADE, -v.unseen_higher(c), rank(c)))
        _, w_card = v.winner()  # type: ignore[misc]
        led = v.led
        assert led is not None
        losers = [c for c in legal if not beats(c, w_card, led)]
        if losers:
            return max(losers, key=lambda c: (rank(c), -sum(1 for x in v.hand if suit(x) == suit(c))))
        if v.after:
            return min(legal, key=rank)  # someone may still overtake
        return max(legal, key=lambda c: (suit(c) == SPADE, rank(c)))  # won anyway: spend the highest

    def nil_play(self, v: View, legal: list[int]) -> int:
        """Own Nil: never win a trick if any card avoids it."""
        if not v.trick:
            return min(
                legal,
                key=lambda c: (v.is_boss(c), suit(c) == SPADE, rank(c), -v.unseen_higher(c)),
            )
        _, w_card = v.winner()  # type: ignore[misc]
        led = v.led
        assert led is not None
        losers = [c for c in legal if not beats(c, w_card, led)]
        if losers:
            # A card that loses now loses for good: shed the most dangerous such card.
            return max(losers, key=lambda c: (suit(c) == SPADE, rank(c)))
        if v.after:
            return min(legal, key=rank)  # the lowest, hoping someone overtakes
        return max(legal, key=rank)  # the trick is lost anyway: get rid of the biggest card

    def cover_play(self, v: View, legal: list[int]) -> int | None:
        """Partner bid Nil: take tricks partner might otherwise be forced to win."""
        p = v.partner
        assert p is not None
        if not v.trick:
            # Lead strength, best where partner is void (partner sheds a high card).
            pv = v.void.get(p, set())
            return max(legal, key=lambda c: (suit(c) in pv and suit(c) != SPADE, v.is_boss(c), suit(c) != SPADE, rank(c)))
        w_seat, w_card = v.winner()  # type: ignore[misc]
        led = v.led
        assert led is not None
        partner_played = any(s == p for s, _ in v.trick)
        if partner_played:
            if w_seat != p:
                return None  # partner is already beaten: play for our own goals
            overtake = [c for c in legal if beats(c, w_card, led)]
            if overtake:
                return min(overtake, key=lambda c: (suit(c) == SPADE and led != SPADE, rank(c)))
            return self.cheapest(v, legal)
        # Partner plays after us: make the trick as high as we can so partner can duck.
        winners = [c for c in legal if beats(c, w_card, led)]
        if not winners:
            return None
        in_suit = [c for c in winners if suit(c) == led]
        if in_suit:
            return max(in_suit, key=rank)
        return min(winners, key=rank)  # a low ruff already beats partner's suit cards

    def set_nil_play(self, v: View, legal: list[int]) -> int | None:
        """An opponent bid Nil and has not yet won a trick: try to make them win one."""
        st = v.st
        targets = [s for s in v.opponents if st.is_nil(s) and st.tricks[s] == 0]
        if not targets:
            return None
        if v.trick:
            w_seat, w_card = v.winner()  # type: ignore[misc]
            led = v.led
            assert led is not None
            unders = [c for c in legal if not beats(c, w_card, led)]
            if w_seat in targets:
                # The nil bidder is winning: stay under them, shedding a high card.
                return max(unders, key=lambda c: (suit(c) != SPADE, rank(c))) if unders else None
            if any(t in v.after for t in targets):
                if w_seat in v.opponents and self.wants_tricks(st):
                    return None  # ducking would hand the nil's partner a trick we need
                # The nil bidder is still to play: keep the trick low so their card may top it.
                if unders:
                    return self.cheapest(v, unders)
                return min(legal, key=lambda c: (suit(c) == SPADE and led != SPADE, rank(c)))
            return None
        # Leading: a low card in a suit the nil bidder still holds.
        target = targets[0]
        tv = v.void.get(target, set())
        options = [c for c in legal if suit(c) not in tv and not v.is_boss(c)]
        if not options:
            return None
        low = min(options, key=lambda c: (suit(c) == SPADE, rank(c)))
        return low if rank(low) <= 7 else None


if __name__ == "__main__":
    spadesbot.run(HeuristicBot())
