"""The bot's model of the rules it needs: rule options, hand scoring, and the
score-aware objective that card play and bidding maximise.

This deliberately re-implements the little scoring the bot needs instead of importing
the referee: a bot learns the rules from ``hello.rules`` like any foreign program.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, Sequence


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """The rule options announced in ``hello.rules`` (defaults: the standard game)."""

    target: int = 500
    nil: bool = True
    nil_bonus: int = 100
    blind_nil: bool = True
    blind_nil_bonus: int = 200
    blind_nil_cards: int = 3
    blind_nil_behind: int | None = None
    bag_limit: int = 10
    bag_penalty: int = 100
    mercy: int | None = None
    max_hands: int = 100

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> "RuleSet":
        """Take known options from ``data``, ignore unknown ones and badly typed values
        (a bot must keep playing whatever a newer referee announces)."""
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if data and f.name in data:
                value = data[f.name]
                default = f.default
                if isinstance(default, bool):
                    if isinstance(value, bool):
                        kwargs[f.name] = value
                elif value is None or (isinstance(value, int) and not isinstance(value, bool)):
                    if value is not None or default is None:
                        kwargs[f.name] = value
        rules = cls(**kwargs)
        if rules.bag_limit < 1:
            rules = dataclasses.replace(rules, bag_limit=10)
        return rules


def side_of(seat: int, n_seats: int) -> int:
    """Side that ``seat`` scores for: partners sit opposite; two-player seat = side."""
    return seat % 2 if n_seats == 4 else seat


def side_seats(side: int, n_seats: int) -> tuple[int, ...]:
    """Seats scoring for ``side``."""
    return (side, side + 2) if n_seats == 4 else (side,)


def score_hand(rules: RuleSet, n_seats: int, bids: Sequence[int], blind: Sequence[bool],
               tricks: Sequence[int], bags_before: Sequence[int]) -> tuple[list[int], list[int]]:
    """Points per side for a finished hand and the bags each side carries afterwards.

    A failed nil bidder's tricks never count toward the contract; they are bags worth one
    point each. Each time a side's bags reach the limit it loses the penalty.
    """
    points, bags_after = [0, 0], [0, 0]
    for side in (0, 1):
        contract = made_tricks = nil_points = failed = 0
        for seat in side_seats(side, n_seats):
            if bids[seat] == 0:
                bonus = rules.blind_nil_bonus if blind[seat] else rules.nil_bonus
                if tricks[seat] == 0:
                    nil_points += bonus
                else:
                    nil_points -= bonus
                    failed += tricks[seat]
            else:
                contract += bids[seat]
                made_tricks += tricks[seat]
        over = 0
        if contract == 0:
            contract_points = 0
        elif made_tricks >= contract:
            over = made_tricks - contract
            contract_points = 10 * contract + over
        else:
            contract_points = -10 * contract
        bags = bags_before[side] + over + failed
        penalties = 0
        while bags >= rules.bag_limit:
            bags -= rules.bag_limit
            penalties += 1
        points[side] = contract_points + nil_points + failed - penalties * rules.bag_penalty
        bags_after[side] = bags
    return points, bags_after


@dataclasses.dataclass(frozen=True)
class MatchContext:
    """Where the match stands when a hand is scored: what makes the objective score-aware."""

    rules: RuleSet
    n_seats: int
    my_side: int
    score: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    hand_no: int = 1

    def bag_weight(self) -> float:
        """Amortised cost of one carried bag in points.

        A bag is worth ``bag_penalty / bag_limit`` of a future penalty, but only if the
        match lasts long enough to reach it: near the target it is discounted.
        """
        base = self.rules.bag_penalty / max(1, self.rules.bag_limit)
        lead = max(self.score)
        remaining = self.rules.target - lead
        if remaining <= 120:
            factor = 0.35
        elif remaining <= 250:
            factor = 0.6
        else:
            factor = 0.85
        if self.hand_no >= self.rules.max_hands:
            factor = 0.0
        return base * factor


# Value of ending the match with a win, in points: large enough that winning the match
# outweighs any single hand's points, as a match is what a tournament counts.
MATCH_WIN_VALUE = 1000.0


class Objective:
    """Score-aware value of a hand's final trick counts for one side.

    ``value(tricks)`` = this side's points minus the other side's, plus the amortised
    value of the bag change, plus +-``MATCH_WIN_VALUE`` when the hand ends the match
    (target, mercy or the last hand). In partnership without free Blind Nil a hand that
    does not end the match is instead worth ``MATCH_WIN_VALUE * (2p - 1)``, ``p`` the
    :func:`match_equity` of the score it leaves. It is zero-sum between the sides, so
    the searches can use max/min on it.
    """

    def __init__(self, ctx: MatchContext, bids: Sequence[int], blind: Sequence[bool]):
        self.ctx = ctx
        self.bids = list(bids)
        self.blind = list(blind)
        self._lam = ctx.bag_weight()
        self._cache: dict[tuple[int, ...], float] = {}

    def slots(self) -> list[int]:
        """Seat -> counter slot for :func:`solver.solve`: the value depends only on each
        nil bidder's tricks and on the sum of each side's non-nil members' tricks, so
        non-nil partners can share one counter (base tricks are credited to the seat)."""
        n = self.ctx.n_seats
        out = list(range(n))
        if n == 4:
            for side in (0, 1):
                a, b = side, side + 2
                if self.bids[a] != 0 and self.bids[b] != 0:
                    out[b] = a
        return out

    def value(self, tricks: Sequence[int]) -> float:
        """Value for ``ctx.my_side`` of the hand ending with ``tricks`` per seat."""
        key = tuple(tricks)
        v = self._cache.get(key)
        if v is None:
            v = self._compute(key)
            self._cache[key] = v
        return v

    def _compute(self, tricks: tuple[int, ...]) -> float:
        ctx = self.ctx
        rules = ctx.rules
        points, bags_after = score_hand(rules, ctx.n_seats, self.bids, self.blind, tricks, ctx.bags)
        me, them = ctx.my_side, 1 - ctx.my_side
        v = float(points[me] - points[them])
        # Amortised bag debt: a penalty already paid this hand is in ``points``; what is
        # carried over is a debt of lam per bag (so each bag costs lam - 1 in the long run).
        v -= self._lam * ((bags_after[me] - ctx.bags[me]) - (bags_after[them] - ctx.bags[them]))
        new = (ctx.score[0] + points[0], ctx.score[1] + points[1])
        winner = match_winner(rules, new, ctx.hand_no)
        if winner is not None:
            return v + (MATCH_WIN_VALUE if winner == me else -MATCH_WIN_VALUE)
        if plays_for_the_match(rules, ctx.n_seats):
            # What the hand is worth is what it does to the chance of winning the match:
            # carried bags count as debt against the score they will one day cost.
            mine = new[me] - self._lam * bags_after[me]
            theirs = new[them] - self._lam * bags_after[them]
            return MATCH_WIN_VALUE * (2.0 * match_equity(rules, mine, theirs, ctx.hand_no, ctx.n_seats) - 1.0)
        return v


#: Value partnership hands by the match equity they leave (:func:`match_equity`) instead
#: of by their points, where Blind Nil is not free (:func:`free_blind_nil`). Two-player
#: and the default rules keep points: their rows were met without it and it was not
#: measured there.
MATCH_EQUITY = True
#: The same for two-player (off as shipped: measured on its own, docs/benchmarks.md).
MATCH_EQUITY_TWO_PLAYER = False


def plays_for_the_match(rules: RuleSet, n: int) -> bool:
    """Whether a hand that does not end the match is valued by :func:`match_equity`."""
    if n == 2:
        return MATCH_EQUITY_TWO_PLAYER
    return MATCH_EQUITY and not free_blind_nil(rules)


def free_blind_nil(rules: RuleSet) -> bool:
    """Blind Nil allowed to a side whatever the score (the default rules): the hand's
    largest swing, and in partnership the bot's main weapon."""
    return rules.blind_nil and rules.blind_nil_behind is None


#: Partnership, per hand: the mean points a side scores and the standard deviation of the
#: difference between the sides' points; with free Blind Nil (the default rules) and
#: otherwise. Measured over whole matches: heuristic pairs, 200 matches a rule set,
#: scored 46 and 81 without Blind Nil and 49 and 96 under ``blind_nil_behind: 100``
#: ("other" takes a value between); the strong bot against the heuristic bots under the
#: default rules, 120 and 200 (the objective keeps points there; the entry serves direct
#: callers). Two-player: the strong bot against heuristic-js, 2,371 hands of seed 40404,
#: 36 a side and 64 (84 against heuristic, 288 hands); 70 between.
HAND_SPREAD = {"free_blind_nil": (120.0, 200.0), "other": (48.0, 85.0), "two_player": (36.0, 70.0)}

#: Points a hand this side is assumed to gain on the other in the hands left (0: equal
#: sides; 20, about the bot's edge over the heuristic bot, won fewer matches against it).
MATCH_EDGE = 0.0


def match_equity(rules: RuleSet, mine: float, theirs: float, hands_played: int, n: int = 4) -> float:
    """Chance that the side on ``mine`` points wins the match against ``theirs`` (equal
    sides, the match going on after ``hands_played`` hands).

    A race model: each hand moves the difference by a normal step (``HAND_SPREAD``), and
    about as many hands are left as the leader needs to reach the target at the mean
    pace (at least one; at most what ``max_hands`` leaves). Ahead, a side's equity grows
    as the end nears, so near the end a safe contract is worth more than a risky one, and
    a side far behind late gains more from a swing than it loses."""
    key = "two_player" if n == 2 else "free_blind_nil" if free_blind_nil(rules) else "other"
    pace, spread = HAND_SPREAD[key]
    left = max(1.0, (rules.target - max(mine, theirs)) / pace)
    left = min(left, max(1.0, float(rules.max_hands - hands_played)))
    z = (mine - theirs + MATCH_EDGE * left) / (spread * math.sqrt(left))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def match_winner(rules: RuleSet, score: Sequence[int], hand_no: int) -> int | None:
    """Side that wins if the match ended at ``score`` after hand ``hand_no``; None if the
    match goes on or ends in a draw."""
    a, b = score[0], score[1]
    if a == b:
        return None
    if max(a, b) >= rules.target:
        return 0 if a > b else 1
    if rules.mercy is not None and min(a, b) <= rules.mercy:
        return 0 if a > b else 1
    if hand_no >= rules.max_hands:
        return 0 if a > b else 1
    return None
