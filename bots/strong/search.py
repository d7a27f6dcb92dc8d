"""Card play by determinized search (Perfect Information Monte Carlo).

At each play decision the bot samples complete deals consistent with what it knows
(:mod:`bots.strong.sampler`), values every candidate card in every sample, and plays the
card with the best average value. The value is the score-aware objective of
:class:`bots.strong.game.Objective` (contract, nils, bags, match end), not raw tricks.

How a card is valued in one sample depends on how many cards are left:

* **endgame** (at most ``exact_cards`` cards in hand: 5 in partnership, 8 in two-player
  by default): exact search of the rest of the hand (:func:`bots.strong.solver.solve`);
* **earlier**: one playout of the rule-based policy (:mod:`bots.strong.policy`) per
  candidate card, everyone playing the policy to the end of the hand (or, with the
  bench setting :data:`bots.strong.dd.DD_CARDS`, a double-dummy solve by DDS where
  nobody bid Nil).

A solve that overruns the decision's deadline is abandoned and the decision ends with the
samples already valued, so it always ends on time. With a time budget the first solve is
a probe (``exact_probe_s``): if it alone takes more than the budget's share of one of the
samples exact search needs, the decision values its cards by playouts instead.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable

from . import dd, inference, signals
from .cards import FULL_DECK, SUIT_MASKS
from .game import MatchContext, Objective, RuleSet, side_of
from .opponent import policy_reply
from .playout import playout
from .recursive import InnerDecision, recursive_values
from .policy import choose
from .sampler import Knowledge, knowledge, sample_deals
from .solver import Position, Reply, SearchTimeout, SolveStats, solve
from .timing import Deadline, expired
from .view import View

#: Weight of a policy playout in an endgame card's value, next to its exact solve (a
#: setting, 0 as shipped): the exact solve plays every seat as if it saw every card, a
#: playout plays the rule-based policy; a blend hedges the solve's omniscience.
EXACT_PLAYOUT_MIX = 0.0
#: How the endgame's exact solves play the opponents: "" by their best reply; "policy"
#: (shipped) by the rule-based policy seeing the sampled deal; "blind" by the policy
#: knowing only which cards are out (opponent.py). Used where the play is read
#: (inference.enabled: partnership without a free Blind Nil); +2.1 +- 0.7 points a hand
#: there over the best reply, 3,600 side-hands (docs/benchmarks.md).
OPPONENT_MODEL = "policy"
#: Whether two-player's exact solves use :data:`OPPONENT_MODEL` too (two-player reads no
#: play, so the gate above leaves it out; measured on its own, docs/benchmarks.md).
OPPONENT_MODEL_TWO_PLAYER = False
#: How the endgame's exact solves play this seat's partner (a setting, "" as shipped: it
#: searches like this seat, seeing every card): "policy" or "blind" as for the
#: opponents. Only where the opponents are modelled too.
PARTNER_MODEL = ""


def models_opponents(rules: RuleSet, n: int) -> bool:
    """Whether this table's exact solves play the opponents by :data:`OPPONENT_MODEL`."""
    if not OPPONENT_MODEL:
        return False
    return OPPONENT_MODEL_TWO_PLAYER if n == 2 else inference.enabled(rules, n)


@dataclasses.dataclass
class SearchConfig:
    """Work limits of one play decision: a deadline and/or a fixed number of samples."""

    deadline: Deadline | float | None = None  # a float is a time.perf_counter() value
    samples: int | None = None  # fixed number of deals (reproducible strength tests)
    max_samples: int = 400
    exact_cards4: int = 5
    exact_cards2: int = 8
    exact_probe_s: float | None = None  # CPU seconds the first exact solve may take
    tie_stop: int | None = None  # stop after this many samples that valued every card alike
    # Endgame: > 0 values each card by playing on to this seat's next turn and making it
    # by a search of this many samples from its own view (recursive.py; a setting, 0
    # as shipped); ``recursive_seats``: whose turns before it are made so too
    # ("self": none, "pair": the partner's, "all": every seat's).
    recursive: int = 0
    recursive_seats: str = "self"


@dataclasses.dataclass
class PlayReport:
    """What a decision did (for logs and tests)."""

    card: int
    samples: int = 0
    exact: bool = False
    values: dict[int, float] = dataclasses.field(default_factory=dict)
    nodes: int = 0
    fallback: bool = False


def _live(view: View) -> int:
    """Cards another seat could still hold, and the cards of the trick in progress."""
    live = FULL_DECK & ~view.played_mask() & ~view.hand & ~view.discards
    for _, c in view.trick:
        live |= 1 << c
    return live


def _echoed(view: View, rules: RuleSet, card: int) -> int:
    """``card``, or the card of its run the spade echo plays (signals.py; off as shipped)."""
    if not signals.SPADE_ECHO or not inference.enabled(rules, view.n):
        return card
    dealt = (view.hand & SUIT_MASKS[3]).bit_count() + sum(
        1 for s, c in view.played if s == view.seat and c // 13 == 3)
    return signals.echo_card(card, view.hand, _live(view), dealt)


def root_candidates(view: View, legal: int) -> list[int]:
    """One card per run of cards that are equivalent from this seat's view: same suit,
    with nothing between them that another seat could still hold (or that lies in the
    trick in progress). Returns the lowest card of each run."""
    live = _live(view)
    reps = []
    prev = -2
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if prev >= 0 and c // 13 == prev // 13 and not (live & (low - 1) & ~((2 << prev) - 1)):
            prev = c
            continue
        reps.append(c)
        prev = c
    return reps


def legal_now(view: View) -> int:
    """Legal cards of the seat to move according to the rules and ``view``."""
    return view.legal_from(view.hand)


def policy_card(view: View, legal: int, k: Knowledge | None = None) -> int:
    """The rule-based policy's card from this seat's own view (no sampling)."""
    if k is None:
        k = knowledge(view)
    n = view.n
    out = k.pool
    for s in range(n):
        if s != view.seat:
            out |= k.known[s]
    after_seats = [(view.seat + i) % n for i in range(1, n - len(view.trick))]
    after = []
    for s in after_seats:
        possible = (k.pool | k.known[s])
        for suit in range(4):
            if k.voids[s] >> suit & 1:
                possible &= ~SUIT_MASKS[suit]
        after.append(possible)
    bids = [b if b is not None else 1 for b in view.bids]
    return choose(view.seat, view.hand, legal, view.trick, out, after, after_seats, bids,
                  view.tricks, n, exact=False)


def _playout_values(view: View, hands: list[int] | tuple[int, ...], cands: list[int],
                    bids: list[int], obj: Objective) -> dict[int, float]:
    """Each candidate's value in one sampled deal by one policy playout to the hand's end."""
    vals = {}
    for c in cands:
        hs = list(hands)
        hs[view.seat] ^= 1 << c
        final = playout(hs, view.trick + [(view.seat, c)], view.leader,
                        view.broken or c // 13 == 3, view.tricks, bids)
        vals[c] = obj.value(final)
    return vals


def _inner_decision(rules: RuleSet, cfg: SearchConfig, rng: random.Random) -> InnerDecision:
    """A later decision inside :func:`recursive_values`: a plain search of
    ``cfg.recursive`` samples (not itself recursive) under the same deadline."""
    inner_cfg = SearchConfig(deadline=cfg.deadline, samples=cfg.recursive,
                             exact_cards4=cfg.exact_cards4, exact_cards2=cfg.exact_cards2)
    return lambda v, legal: decide_play(v, rules, legal, inner_cfg, rng).card


def _endgame_reply(bids: list[int], seat: int, rules: RuleSet, n: int) -> tuple[Reply | None, list[int] | None]:
    """The model the exact solves play other seats by, and which seats play by it."""
    if not models_opponents(rules, n):
        return None, None
    opp = policy_reply(bids, n, OPPONENT_MODEL == "policy")
    if not PARTNER_MODEL or n != 4:
        return opp, None
    partner = (seat + 2) % 4
    pm = policy_reply(bids, n, PARTNER_MODEL == "policy")

    def reply(s: int, *rest: Any) -> int:
        return (pm if s == partner else opp)(s, *rest)

    return reply, [partner, (seat + 1) % 4, (seat + 3) % 4]


def decide_play(view: View, rules: RuleSet, legal: int, cfg: SearchConfig,
                rng: random.Random, log: Callable[[str], None] | None = None) -> PlayReport:
    """Choose a card from ``legal`` (a mask) for ``view.seat`` by determinized search."""
    if legal & (legal - 1) == 0:
        return PlayReport(card=legal.bit_length() - 1)
    k = knowledge(view, rules.blind_nil_cards, read_play=inference.enabled(rules, view.n))
    default = policy_card(view, legal, k)
    cands = root_candidates(view, legal)
    if len(cands) == 1:
        return PlayReport(card=_echoed(view, rules, cands[0]))
    n = view.n
    my_side = side_of(view.seat, n)
    bids = [b if b is not None else 1 for b in view.bids]
    ctx = MatchContext(rules, n, my_side, view.score, view.bags, view.hand_no)
    obj = Objective(ctx, bids, view.blind)
    exact_limit = cfg.exact_cards4 if n == 4 else cfg.exact_cards2
    exact = view.hand.bit_count() <= exact_limit
    slots = obj.slots()
    sums = {c: 0.0 for c in cands}
    count = 0
    stats = SolveStats()
    target = cfg.samples if cfg.samples is not None else cfg.max_samples
    batch = 4 if exact else 8
    deadline = cfg.deadline
    stop = False
    differed = False  # some sample valued the candidates differently
    inner = _inner_decision(rules, cfg, rng) if exact and cfg.recursive else None
    reply, modelled = _endgame_reply(bids, view.seat, rules, n)
    use_dd = not exact and dd.applies(view, bids)
    if use_dd:
        target, deadline = dd.limits(target, deadline)
    while count < target and not stop:
        if expired(deadline):
            break
        deals = sample_deals(k, min(batch, target - count), rng)
        if not deals:
            break
        for hands in deals:
            vals = None
            if exact and inner is not None:
                vals = recursive_values(view, hands, cands, obj.value, slots, inner, cfg.recursive_seats,
                                        reply=reply, modelled=modelled)
            elif exact:
                pos = Position(list(hands), list(view.trick), view.leader, view.broken, list(view.tricks))
                probe = False
                dl = deadline
                if count == 0 and cfg.exact_probe_s is not None and isinstance(deadline, Deadline):
                    probe, dl = True, deadline.sooner(cfg.exact_probe_s)
                try:
                    vals = solve(pos, obj.value, my_side, stats, moves=cands, deadline=dl,
                                 slots=slots, reply=reply, modelled=modelled)
                except SearchTimeout:
                    if probe and not expired(deadline):
                        # Too slow for enough solved samples in this budget: playouts.
                        exact = False
                    else:
                        # Out of time mid-solve: this sample is dropped and the decision
                        # ends (with the policy's card if no sample finished).
                        stop = True
                        break
            if vals is None and use_dd:
                vals = dd.dd_values(view, hands, cands, obj)
            if vals is None:
                vals = _playout_values(view, hands, cands, bids, obj)
            elif EXACT_PLAYOUT_MIX:
                rolled = _playout_values(view, hands, cands, bids, obj)
                vals = {c: (1.0 - EXACT_PLAYOUT_MIX) * v + EXACT_PLAYOUT_MIX * rolled[c]
                        for c, v in vals.items()}
            for c in cands:
                sums[c] += vals[c]
            count += 1
            differed = differed or max(vals.values()) - min(vals.values()) > 1e-9
            if expired(deadline) or (cfg.tie_stop is not None and count >= cfg.tie_stop and not differed):
                stop = True
                break
    if count == 0:
        return PlayReport(card=default, fallback=True)
    means = {c: s / count for c, s in sums.items()}
    best = max(means.values())
    # Ties (common: many cards are equally good in most deals): prefer the policy's card
    # if it is among the best, else the lowest of the best.
    eps = 1e-9
    tied = [c for c in cands if means[c] >= best - eps]
    default_rep = default
    for c in sorted(cands, reverse=True):
        if c <= default and c // 13 == default // 13:
            default_rep = c
            break
    card = default_rep if default_rep in tied else tied[0]
    if signals.SIGNAL_DISCARDS and view.trick and inference.enabled(rules, n) \
            and not view.hand & SUIT_MASKS[view.trick[0][1] // 13]:
        # Void in the led suit: a discard the search values alike with another tells the
        # partner where this seat is weak (signals.py).
        near = [c for c in cands if means[c] >= best - max(eps, signals.SIGNAL_EPS)]
        signal = signals.choose_discard(near, view.hand)
        card = card if signal is None else signal
    card = _echoed(view, rules, card)
    if log:
        log(f"play: {count} samples ({'exact' if exact else 'playouts'}), nodes {stats.nodes}, "
            f"best {best:.1f}")
    return PlayReport(card=card, samples=count, exact=exact, values=means, nodes=stats.nodes)
