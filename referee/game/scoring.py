"""Hand scoring and the match-end decision, as pure functions.

Kept apart from the engine (as OpenSpiel keeps ``spades_scoring``) so the
numbers can be checked against hand-worked tables without playing cards.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant


class SideScore(NamedTuple):
    """How one side's hand was scored, term by term (for summaries and tests).

    Named tuples rather than dataclasses: immutable too, and several times
    cheaper to build, which counts when search bots score millions of hands.
    """

    contract: int  # sum of the non-nil bids (0 when every member bid nil)
    contract_tricks: int  # tricks of the non-nil members
    made: bool | None  # None when the side had no contract
    contract_points: int  # 10*B + overtricks, or -10*B
    nil_points: int  # sum of nil / blind nil bonuses and penalties
    bags_gained: int  # overtricks plus tricks of failed nil bidders
    bag_points: int  # +1 per failed-nil trick (overtricks are inside contract_points)
    penalties: int  # how many times the bag limit was crossed
    points: int  # total change of the side's score this hand
    bags_after: int  # bag count carried to the next hand


class HandScore(NamedTuple):
    """The score of one hand for every side."""

    sides: tuple[SideScore, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(s.points for s in self.sides)

    @property
    def bags(self) -> tuple[int, ...]:
        return tuple(s.bags_after for s in self.sides)


def side_seats(variant: Variant, side: int) -> tuple[int, ...]:
    """The seats that score for ``side``."""
    return _SIDE_SEATS[variant is Variant.TWO_PLAYER][side]


_SIDE_SEATS = (((0, 2), (1, 3)), ((0,), (1,)))  # by "is two-player": the seats of sides 0 and 1
_tuple_new = tuple.__new__


def score_hand(
    variant: Variant,
    rules: Rules,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags_before: Sequence[int],
) -> HandScore:
    """Score one finished hand.

    ``bids``, ``blind`` and ``tricks`` are per seat, ``bags_before`` per side.
    A nil bidder's tricks never count toward the side's contract; they are
    bags worth one point each (rules.md, "Tricks won by a failed Nil").
    """
    if sum(tricks) != 13:  # a cheap guard against scoring an unfinished hand
        raise ValueError(f"a hand has 13 tricks, got tricks {list(tricks)!r}")
    bag_limit = rules.bag_limit
    sides = []
    for side, seats in enumerate(_SIDE_SEATS[variant is Variant.TWO_PLAYER]):
        contract = contract_tricks = nil_points = failed_nil_tricks = 0
        for seat in seats:
            if bids[seat] == 0:
                bonus = rules.blind_nil_bonus if blind[seat] else rules.nil_bonus
                if tricks[seat] == 0:
                    nil_points += bonus
                else:
                    nil_points -= bonus
                    failed_nil_tricks += tricks[seat]
            else:
                contract += bids[seat]
                contract_tricks += tricks[seat]
        made: bool | None
        if contract == 0:
            made, contract_points, overtricks = None, 0, 0
        elif contract_tricks >= contract:
            overtricks = contract_tricks - contract
            made, contract_points = True, 10 * contract + overtricks
        else:
            made, contract_points, overtricks = False, -10 * contract, 0
        gained = overtricks + failed_nil_tricks
        bags = bags_before[side] + gained
        penalties = 0
        while bags >= bag_limit:
            # Each crossing of the limit costs a penalty; the rest carries over.
            bags -= bag_limit
            penalties += 1
        points = contract_points + nil_points + failed_nil_tricks - penalties * rules.bag_penalty
        # tuple.__new__ skips the named tuple's Python-level __new__ (same object).
        sides.append(_tuple_new(SideScore, (contract, contract_tricks, made, contract_points, nil_points, gained,
                                            failed_nil_tricks, penalties, points, bags)))
    return _tuple_new(HandScore, (tuple(sides),))


class MatchOutcome(NamedTuple):
    """Whether the match is over after a hand, and how."""

    over: bool
    winner: int | None = None
    reason: EndReason | None = None


def match_outcome(rules: Rules, score: Sequence[int], hands_played: int) -> MatchOutcome:
    """Decide, after a hand has been scored, whether the match ends.

    Order of the checks (rules.md): the target first (a tie at or above it
    plays on), then the mercy rule, then the ``max_hands`` safety limit.
    """
    a, b = score[0], score[1]
    if (a if a > b else b) >= rules.target and a != b:
        return _tuple_new(MatchOutcome, (True, 0 if a > b else 1, EndReason.TARGET))
    if rules.mercy is not None and (a if a < b else b) <= rules.mercy:
        return _tuple_new(MatchOutcome, (True, None if a == b else 0 if a > b else 1, EndReason.MERCY))
    if hands_played >= rules.max_hands:
        return _tuple_new(MatchOutcome, (True, None if a == b else 0 if a > b else 1, EndReason.MAX_HANDS))
    return _GOES_ON


_GOES_ON = MatchOutcome(False)
