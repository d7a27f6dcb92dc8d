"""Bidding, Nil and Blind Nil, and the partnership Blind Nil pass, by simulation.

**Bid** (:func:`decide_bid`): sample deals of the unseen cards consistent with what this
seat knows (weighted by the bids already made), give every seat that has not bid yet the
bid the fitted hand model predicts for its sampled hand, then for each candidate bid
(the model's estimate -2..+2, and Nil when allowed) play every sampled deal to the end
with the play policy and score the result with the score-aware objective. The same deals
serve every candidate (common random numbers), so the comparison is sharp even with few
samples. The candidate with the best mean objective is bid. In partnership the first of
a pair to bid bids its hand's estimate (:data:`FIRST_BID_WINDOW`) and the second searches
the pair's total, its partner's bid known. The objective knows the
match: near the target a safe make is worth more than a bag-free overbid, bags near the
limit cost a penalty, and a failed contract that loses the match costs the match.

**Blind Nil** (:func:`decide_blind_nil`): in partnership, by simulation: the same
sampled deals are played out once with a normal bid and once with Blind Nil (exchange
included), both scored with the objective, the nil's simulated success scaled to the
fitted real-play rate. With the default rules (no ``blind_nil_behind``, bonus 200, three
cards exchanged) a covered Blind Nil is worth far more than a normal bid on average, so
the bot takes it often, except where the match situation makes the risk too costly. In
two-player (no partner, no exchange) the fitted success rate is far too low, so it is
only a last resort for a side that is losing anyway.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Callable, Sequence

from .bidstyle import rounded_bid
from .cards import cards_of, mask_of
from .evaluate import PARAMS, blind_nil_probability, expected_tricks, nil_probability
from .game import MatchContext, Objective, RuleSet, free_blind_nil, side_of
from .playout import playout
from .sampler import knowledge, sample_deals
from .timing import Deadline, expired
from .view import View


# Smallest modelled nil success rate for which Nil is even simulated (see decide_bid).
NIL_MIN_PROBABILITY = 0.72
# ... in partnership where Blind Nil is not free (:func:`nil_threshold`): there the
# simulation, with a partner to cover, judges the closer Nils well enough. From 0.72 to
# 0.65: +2.6 +- 0.8 points a hand over 1,600 paired single hands against the heuristic
# bot (bench/strength_hands.py ``nil_min``, bags charged 10 points; 0.55 and 0.45 gained
# +1.0 +- 1.2 and +1.3 +- 1.4 over 1,600 others, 0.35 nothing; on 800 fresh hands after,
# 0.65 over 0.72 +2.9 +- 1.0, over 0.55 +0.8 +- 1.2).
NIL_MIN_PARTNERSHIP = 0.65


def nil_threshold(rules: RuleSet, n: int) -> float:
    """The smallest modelled Nil success rate for which Nil is simulated at all.

    Two-player and the default rules keep the older, stricter :data:`NIL_MIN_PROBABILITY`
    (their rows were met with it; with free Blind Nil a Nil is rarely the question)."""
    return NIL_MIN_PARTNERSHIP if n == 4 and not free_blind_nil(rules) else NIL_MIN_PROBABILITY


# Candidate bids lie within this many tricks of the model's estimate.
BID_WINDOW = 2
# Partnership, the first of a pair to bid: the window then (None: BID_WINDOW). 0 bids
# the hand's own estimate. The simulation cannot see that its partner will answer its
# bid, so with the full window it shaded the bid onto the partner (0.7-0.8 tricks under
# the heuristic bot's bid on the same cards), which the partner then made up, reading
# the low bid as a weak hand in its sampler. Bidding the hand and letting the second
# bidder search the pair's total was +5.6 +- 1.9 points a hand over 1,200 paired single
# hands against the heuristic bot (bench/strength_hands.py, bags charged 10 points).
FIRST_BID_WINDOW: int | None = 0


@dataclasses.dataclass
class BidConfig:
    """Work limits of one bidding decision."""

    deadline: Deadline | float | None = None
    samples: int | None = None
    max_samples: int = 300


def first_leader(view: View) -> int:
    """Who leads the first trick: dealer's left (partnership) or the second player."""
    if view.n == 4:
        return ((view.dealer if view.dealer is not None else 0) + 1) % 4
    first = view.first if view.first is not None else 0
    return 1 - first


def predicted_bid(hand: int, n: int, nil_allowed: bool) -> int:
    """The bid the fitted hand model expects a player holding ``hand`` to make."""
    if nil_allowed and nil_probability(hand, n) > 0.6 and expected_tricks(hand, n) < 2.0:
        return 0
    return max(1, min(13, int(expected_tricks(hand, n) + 0.5)))


def bid_optimism(view: View, rules: RuleSet) -> float:
    """Tricks the bid simulation moves from the bidder to an opponent (see
    :func:`decide_bid`): fitted per table size, with its own figure against a two-player
    opponent's Nil and against a partnership opponent's Blind Nil where Blind Nil is not
    free. There the Blind Nil's partner holds the three cards it was passed and covers,
    and this side spends tricks trying to set the nil: at the table's 0.25 the bot made
    64% of its contracts against the heuristic bot's Blind Nils (259 hands of the
    ``blind_nil_behind: 100`` row), and 1.75 gained 8.6 +- 2.4 points a hand over 1,800
    paired single hands played 250 points ahead (bench/strength_hands.py ``--lead 250``,
    the heuristic bot bidding Blind Nil in every hand; 2.5 gained +2.2 +- 1.9 more on 600
    of them, not resolved)."""
    n, me = view.n, view.seat
    if n == 2:
        return float(PARAMS["sim_optimism_opp_nil2"] if view.bids[1 - me] == 0 else PARAMS["sim_optimism"]["2"])
    if not free_blind_nil(rules) and any(view.bids[s] == 0 and view.blind[s] for s in ((me + 1) % 4, (me + 3) % 4)):
        return float(PARAMS["sim_optimism_opp_blind4"])
    return float(PARAMS["sim_optimism"]["4"])


def shift_taker(bids: Sequence[int | None], me: int, rules: RuleSet) -> int:
    """The opponent that takes the tricks :func:`bid_optimism` moves from the bidder.

    The next seat, except in partnership where Blind Nil is not free when that seat bid
    Nil and its partner did not: a trick moved onto a nil would set it in the simulation,
    a swing of 200 or more the correction never meant. (The default rules keep the next
    seat: their rows were met with it.)"""
    n = len(bids)
    taker = (me + 1) % n
    if n == 4 and not free_blind_nil(rules) and bids[taker] == 0 and bids[(me + 3) % 4] != 0:
        taker = (me + 3) % 4
    return taker


def decide_bid(view: View, rules: RuleSet, legal: Sequence[int], cfg: BidConfig,
               rng: random.Random, log: Callable[[str], None] | None = None) -> int:
    """The bid from ``legal`` with the best simulated score-aware value."""
    legal = sorted(set(int(b) for b in legal))
    if not legal:
        raise ValueError("bid request with an empty legal list")
    if len(legal) == 1:
        return legal[0]
    n, me = view.n, view.seat
    est = expected_tricks(view.hand, n, view.discards & ~view.hand)
    centre = rounded_bid(est)
    window = BID_WINDOW
    if n == 4 and FIRST_BID_WINDOW is not None and view.bids[(me + 2) % 4] is None:
        window = FIRST_BID_WINDOW
    cands = [b for b in legal if b > 0 and centre - window <= b <= centre + window]
    if n == 2 and view.bids[1 - me] == 0:
        # A two-player opponent's Nil (or Blind Nil) ducks every trick it can, even once
        # broken, and a Blind Nil drawer kept low cards: this seat takes far more than
        # its hand model says (10-13 tricks in replayed matches), so every higher bid is
        # a candidate too; the simulation, which knows the nil, sorts them out.
        cands = [b for b in legal if b >= max(1, centre - 2)]
    if not cands:
        cands = [min((b for b in legal if b > 0), key=lambda b: abs(b - est), default=legal[0])]
    # Nil only when the fitted model (real, imperfect-information play) gives it a good
    # chance: perfect-information playouts are optimistic about nils, whose success hangs
    # on what nobody can see. Never two nils on one side.
    partner_nil = n == 4 and view.bids[(me + 2) % 4] == 0
    if 0 in legal and rules.nil and not partner_nil and nil_probability(view.hand, n) >= nil_threshold(rules, n):
        cands.append(0)
    if len(cands) == 1:
        return cands[0]
    k = knowledge(view, rules.blind_nil_cards)
    ctx = MatchContext(rules, n, side_of(me, n), view.score, view.bags, view.hand_no)
    leader = first_leader(view)
    # Against a two-player Nil the simulation's bias is different (bench/bid_gap.py:
    # about 0 instead of +1 trick), and so is it against a partnership Blind Nil: each has
    # its own correction (bid_optimism).
    optimism = bid_optimism(view, rules)
    sums = {b: 0.0 for b in cands}
    took = {b: 0 for b in cands}  # this seat's simulated tricks, for the log
    count = 0
    target = cfg.samples if cfg.samples is not None else cfg.max_samples
    while count < target:
        if expired(cfg.deadline):
            break
        deals = sample_deals(k, min(8, target - count), rng)
        if not deals:
            break
        for hands in deals:
            # Perfect-information playouts flatter the bidder: measured against real
            # matches its simulated tricks run ``optimism`` above what it takes. Take
            # that many tricks away (a whole trick with the fractional probability, the
            # same draw for every candidate bid so the comparison stays paired).
            shift = int(optimism) + (1 if rng.random() < optimism - int(optimism) else 0)
            # Every seat's bid: made, or predicted from its sampled hand; this seat's
            # is each candidate in turn (0 until then).
            bids = [b if b is not None else (0 if s == me else predicted_bid(hands[s], n, rules.nil))
                    for s, b in enumerate(view.bids)]
            taker = shift_taker(bids, me, rules)
            for b in cands:
                bids[me] = b
                final = playout(hands, [], leader, False, [0] * n, bids)
                if shift and b:
                    final = list(final)
                    moved = min(shift, final[me])
                    final[me] -= moved
                    final[taker] += moved
                obj = Objective(ctx, bids, view.blind)
                sums[b] += obj.value(final)
                took[b] += final[me]
            count += 1
            if expired(cfg.deadline):
                break
    if count == 0:
        return min(cands, key=lambda b: abs(b - est) if b else 99)
    means = {b: sums[b] / count for b in cands}
    best = max(cands, key=lambda b: (means[b], -abs(b - est)))
    if log:
        log("bid: " + ", ".join(f"{b}:{means[b]:.1f}" for b in sorted(cands)) +
            f" (est {est:.2f}, {count} samples) -> {best}, simulated tricks {took[best] / count:.2f}")
    return best


def decide_blind_nil(view: View, rules: RuleSet, cfg: BidConfig | None = None,
                     rng: random.Random | None = None,
                     log: Callable[[str], None] | None = None) -> bool:
    """Whether to bid Blind Nil now (before seeing any card).

    Partnership: by simulation (:func:`blind_nil_values`), Blind Nil against a normal
    bid on the same sampled deals. Two-player: by the fitted success rate, which is far
    too low there (no partner, no exchange) for anything but a side that is losing anyway.
    """
    if not rules.blind_nil:
        return False
    n, me = view.n, view.seat
    my_side = side_of(me, n)
    mine, theirs = view.score[my_side], view.score[1 - my_side]
    if n == 4:
        pb = view.bids[(me + 2) % 4] if len(view.bids) == 4 else None
        if pb == 0:
            return False  # two nils on one side: nobody left to make a contract
        if cfg is not None and rng is not None:
            blind, normal, count = blind_nil_values(view, rules, cfg, rng)
            if count:
                if log:
                    log(f"blind nil: {blind:.1f} vs normal {normal:.1f} ({count} samples)")
                return blind > normal + BLIND_NIL_MARGIN
    deficit = theirs - mine
    p = blind_nil_probability(n)
    gain = rules.blind_nil_bonus * (2 * p - 1)
    # Only a trailing side takes the gamble; the further behind and the closer the
    # opponents are to the target, the more a normal hand fails to catch up.
    near_end = theirs >= rules.target - 150
    if deficit >= 200 and near_end:
        return gain > -rules.blind_nil_bonus * 0.5
    if deficit >= 300:
        return gain > -rules.blind_nil_bonus * 0.3
    return False


# Blind Nil is taken only when its simulated value beats a normal bid by this many points:
# the simulation's nil success is a fitted average, so a near-tie is not worth the swing.
BLIND_NIL_MARGIN = 10.0


def _random_deal(rng: random.Random) -> list[int]:
    """A uniformly random partnership deal (nobody has looked at any card yet)."""
    deck = list(range(52))
    rng.shuffle(deck)
    return [mask_of(deck[s * 13:(s + 1) * 13]) for s in range(4)]


def _exchange(hands: list[int], me: int, count: int) -> list[int]:
    """The partnership Blind Nil exchange as this bot plays it (:func:`choose_pass`), on
    a known deal: the partner passes first, then the Blind Nil bidder passes back."""
    hands = list(hands)
    partner = (me + 2) % 4
    given = mask_of(cover_pass(hands[partner], count))
    hands[partner] &= ~given
    hands[me] |= given
    back = mask_of(nil_pass(hands[me], count, 4))
    hands[me] &= ~back
    hands[partner] |= back
    return hands


def blind_nil_values(view: View, rules: RuleSet, cfg: BidConfig,
                     rng: random.Random) -> tuple[float, float, int]:
    """Mean score-aware value of bidding Blind Nil and of bidding normally (partnership).

    The seat has seen no card, so deals are uniformly random. On every deal both courses
    are played out with the policy: *normal*, where this seat (and every seat yet to bid)
    bids what the fitted model predicts for its hand; *blind*, where it bids Blind Nil,
    its partner (if still to bid) bids the model's figure, the exchange is made and the
    hand played. The same deals serve both (paired comparison). Playouts see every hand,
    so nils survive there more often than in real play; the blind course's successes are
    scaled down to the fitted success rate (``params.json``, from imperfect-information
    self-play): a success counts as a failure (one trick moved from the partner to the
    nil bidder) with the probability that brings the rate down to the fitted one.
    """
    n, me = 4, view.seat
    partner = (me + 2) % 4
    ctx = MatchContext(rules, n, side_of(me, n), view.score, view.bags, view.hand_no)
    leader = first_leader(view)
    known_bids = list(view.bids) if len(view.bids) == n else [None] * n
    flags = list(view.blind) if len(view.blind) == n else [False] * n
    blind_flags = list(flags)
    blind_flags[me] = True
    target = cfg.samples if cfg.samples is not None else cfg.max_samples
    count = made = 0
    normal_sum = 0.0
    made_sum = made_as_failed_sum = failed_sum = 0.0  # blind course, by the nil's fate
    while count < target:
        if expired(cfg.deadline):
            break
        hands = _random_deal(rng)
        bids = [b if b is not None else predicted_bid(hands[s], n, rules.nil) for s, b in enumerate(known_bids)]
        final = playout(hands, [], leader, False, [0] * n, bids)
        normal_sum += Objective(ctx, bids, flags).value(final)
        bids = [b if b is not None else predicted_bid(hands[s], n, rules.nil and s != partner)
                for s, b in enumerate(known_bids)]
        bids[me] = 0
        swapped = _exchange(hands, me, rules.blind_nil_cards) if rules.blind_nil_cards else hands
        final = playout(swapped, [], leader, False, [0] * n, bids)
        obj = Objective(ctx, bids, blind_flags)
        if final[me] == 0:
            failed = list(final)
            donor = partner if failed[partner] else max(range(n), key=lambda s: failed[s])
            failed[donor] -= 1
            failed[me] += 1
            made += 1
            made_sum += obj.value(final)
            made_as_failed_sum += obj.value(failed)
        else:
            failed_sum += obj.value(final)
        count += 1
    if not count:
        return 0.0, 0.0, 0
    sim_rate = made / count
    q = max(0.0, (sim_rate - blind_nil_probability(n)) / sim_rate) if made else 0.0
    blind = (1 - q) * made_sum + q * made_as_failed_sum + failed_sum
    return blind / count, normal_sum / count, count


def nil_danger(hand: int, n: int) -> float:
    """How likely ``hand`` fails a nil (1 - modelled success), for choosing cards to shed."""
    return 1.0 - nil_probability(hand, n)


def nil_pass(hand: int, count: int, n: int) -> list[int]:
    """A Blind Nil bidder's pass: its most dangerous cards, greedy on the fitted nil model
    (each pick is the card whose removal most improves the nil's chances)."""
    picked: list[int] = []
    h = hand
    for _ in range(min(count, hand.bit_count())):
        best = max(cards_of(h), key=lambda c: (nil_probability(h & ~(1 << c), n), c % 13, c // 13))
        picked.append(best)
        h &= ~(1 << best)
    return sorted(picked)


def cover_pass(hand: int, count: int) -> list[int]:
    """The partner's pass to a Blind Nil bidder: its lowest cards, the ones that help a nil
    most and cost its own contract least (low non-spades before low spades)."""
    ranked = sorted(cards_of(hand), key=lambda c: (c % 13, c // 13 == 3))
    return sorted(ranked[:max(0, count)])


def choose_pass(view: View, count: int, to: int | None) -> list[int]:
    """Cards to pass in the partnership Blind Nil exchange (:func:`nil_pass` for the
    Blind Nil bidder, :func:`cover_pass` for its partner)."""
    i_am_blind = len(view.bids) > view.seat and view.bids[view.seat] == 0 and view.blind[view.seat]
    if i_am_blind:
        return nil_pass(view.hand, count, view.n)
    return cover_pass(view.hand, count)
