#!/usr/bin/env python3
"""Paired single-hand comparison of strong-bot settings against the heuristic bot, in
process (a tuning tool: the strength figures come from ``bench/strength.py``, which
plays real matches through the referee).

Every deal is played as the first hand of a partnership match twice, the strong bot in
seats 0 and 2 and then in seats 1 and 3, once per setting; the same deals serve every
setting (common random numbers). ``--variant two-player`` plays two-player hands (the
draw included) the same way, the strong bot in seat 0 and then in seat 1, under the
default rules unless ``--rule`` says otherwise (partnership adds ``blind_nil=false``).
``--opponent heuristic-js`` plays the JavaScript heuristic bot instead of the Python one.
Reported per setting: the strong side's mean net points per hand (its points minus the
opponents'), contracts made, and the paired difference to the first setting with its
standard error.

    python3 bench/strength_hands.py --deals 40 --set sim_optimism=0.25 --set sim_optimism=1.0
    python3 bench/strength_hands.py --deals 60 --budget 32samples --jobs 2 \
        --set base --set budget=128samples --set bid_samples=128 --set exact4=6,nil_min=0.8
    python3 bench/strength_hands.py --deals 300 --budget 32samples --jobs 2 --bag-cost 10 \
        --set base --set borrow=bid --set borrow=play --set first_window=0 --set bag_weight=0.5
    python3 bench/strength_hands.py --deals 800 --budget 32samples,exact=16,bid=32 --jobs 2 \
        --bag-cost 10 --set read_play=0 --set read_play=1

``budget=128samples,exact=32,bid=64`` (or ``exact=``/``bid=`` after ``--budget``'s count)
plays a split sample budget (docs/strong-bot.md, *Time*).
``borrow=bid`` (or ``play``, ``bid+play``...) hands those requests of the strong side to a
heuristic bot that sees the same messages: which bot's bids or play carry the gap.
``see=bid+play`` (or ``bid``, ``play``) shows the strong side every card for those
decisions: the most a better reading of the cards could gain (no bot can do this);
``see_partner=play`` shows only the partner's hand.
``--bag-cost 10`` charges each side 10 points per bag it carries out of the hand (a single
hand's bags cost nothing otherwise, which flatters any setting that takes more tricks).

Each ``--set`` is measured from the shipped bot (earlier settings are undone first); a
comma joins several tunables into one setting. Every hand is seeded by its deal number,
so a setting's hands are the same in every run and ``--save`` files of separate runs
can be paired hand by hand. ``--save`` writes each hand as it finishes, the settings
taking turns deal by deal, so a run stopped early leaves paired hands behind.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots"))

from bots.strong import evaluate  # noqa: E402
from bots.strong.arena import Arena  # noqa: E402
from bots.strong.cards import SUIT_MASKS  # noqa: E402
from bots.strong.bot import Budget, StrongBot  # noqa: E402
from bots.strong.game import RuleSet, match_winner  # noqa: E402
from bots.strong.sampler import Knowledge  # noqa: E402

import heuristic_bot  # noqa: E402
import spadesbot  # noqa: E402


class Process:
    """A bot program (e.g. the JavaScript heuristic bot) behind the arena's ``handle``
    interface, through the referee's seat interface and sandbox
    (:class:`referee.seat.botprocess.BotProcess`): every message goes to it as a JSON line,
    a request's answer is its next line. For tuning against opponents that are not Python
    objects; the strength figures still come from ``bench/strength.py`` and the referee."""

    def __init__(self, command: list[str], cwd: Path = ROOT, timeout_s: float = 20.0) -> None:
        from referee.seat.botprocess import BotProcess
        from referee.seat.sandbox import SandboxSpec
        self.command, self.timeout_s = command, timeout_s
        self.bot = BotProcess(command, name=command[-1], cwd=cwd, sandbox=SandboxSpec())
        self.bot.start()

    def handle(self, msg: dict) -> dict | None:
        from referee.seat.faults import SeatFault
        line = json.dumps(msg, separators=(",", ":"))
        try:
            if "id" not in msg:
                self.bot.send(line)
                return None
            answer, _ = self.bot.request(line, self.timeout_s)
        except SeatFault as fault:
            self.close()
            raise RuntimeError(f"{' '.join(self.command)}: no answer to {msg.get('type')!r} within "
                               f"{self.timeout_s:.0f} s ({fault})") from None
        try:
            data = json.loads(answer)
        except ValueError:
            self.close()
            raise RuntimeError(f"{' '.join(self.command)}: answered {msg.get('type')!r} with a line that is not "
                               f"JSON, got: {answer[:80]!r}") from None
        return data if isinstance(data, dict) else None

    def close(self) -> None:
        self.bot.close()


#: ``--opponent``: the bot the strong side plays (its command, run from its own folder);
#: None: the Python heuristic bot in process.
OPPONENTS: dict[str, tuple[list[str], Path] | None] = {
    "heuristic": None, "heuristic-js": (["node", "heuristic_bot.js"], ROOT / "bots" / "js")}


def opponent(name: str) -> "Heuristic | Process":
    """A fresh opponent seat named by ``--opponent``."""
    spec = OPPONENTS[name]
    return Heuristic() if spec is None else Process(*spec)


class Heuristic:
    """The bundled heuristic bot behind the arena's ``handle`` interface."""

    def __init__(self) -> None:
        self.bot = heuristic_bot.HeuristicBot()

    def handle(self, msg: dict) -> dict | None:
        if "id" in msg:
            return spadesbot.decide(self.bot, msg, strict=True)
        self.bot.event(msg)
        return None


class Hybrid:
    """A strong bot whose requests of the kinds in ``borrowed`` are answered by a heuristic
    bot that sees the same messages: which of the two bots' decisions carry the gap."""

    def __init__(self, strong: StrongBot, borrowed: frozenset[str]) -> None:
        self.strong, self.heuristic, self.borrowed = strong, Heuristic(), borrowed

    def handle(self, msg: dict) -> dict | None:
        if "id" in msg and msg.get("type") in self.borrowed:
            self.strong.handle(msg)  # keeps its clock and memory; its answer is dropped
            return self.heuristic.handle(msg)
        if "id" not in msg:
            self.heuristic.handle(msg)  # events only: it answers nothing it was not asked
        return self.strong.handle(msg)


#: Request kinds the strong side hands to the heuristic bot (``--set borrow=bid+blind_nil``).
BORROWED: set[str] = set()


def _borrow(value: str) -> None:
    BORROWED.update(filter(None, value.split("+")))


def _first_window(value: str) -> None:
    from bots.strong import bidding
    bidding.FIRST_BID_WINDOW = int(value)


def _window(value: str) -> None:
    from bots.strong import bidding
    bidding.BID_WINDOW = int(value)


def _bag_weight(value: str) -> None:
    """Scale the objective's amortised bag cost (1.0: the shipped weight)."""
    from bots.strong.game import MatchContext
    original = _ORIGINAL["bag_weight"]
    MatchContext.bag_weight = lambda self: float(value) * original(self)  # type: ignore[method-assign]


def _search_fields(**fields: Any) -> None:
    """Build the play search's ``SearchConfig`` with these fields from now on (the bot
    builds it by name, ``bot.SearchConfig(...)``; ``_reset`` puts the class back)."""
    from bots.strong import bot
    bot.SearchConfig = functools.partial(bot.SearchConfig, **fields)  # type: ignore[misc,assignment]


def _exact4(value: str) -> None:
    """Partnership exact-search depth (cards in hand) of the play search."""
    _search_fields(exact_cards4=int(value))


def _nil_min(value: str) -> None:
    """Partnership where Blind Nil is not free: the smallest modelled Nil success rate
    for which Nil is simulated (the rows' rules; 0.72 before, 0.65 shipped)."""
    from bots.strong import bidding
    bidding.NIL_MIN_PARTNERSHIP = float(value)


def _bid_samples(value: str) -> None:
    """A separate sample count for bids (plays keep the budget's)."""
    from bots.strong.bidding import BidConfig
    original = _ORIGINAL["bid_config"]

    def bid_config(self: StrongBot, view: object, t0: float) -> BidConfig:
        cfg = original(self, view, t0)
        return BidConfig(deadline=cfg.deadline, samples=int(value), max_samples=cfg.max_samples)

    StrongBot._bid_config = bid_config  # type: ignore[method-assign]


#: The deal as it lies before the request the arena is asking (see :func:`_see`).
_TRUE_DEAL: list[int] = []
#: The tricks (first, last) in which ``see``/``see_partner`` show the cards.
_SEE_TRICKS: list[int] = [1, 13]
#: The suits (bits: clubs, diamonds, hearts, spades) of the partner's hand ``see_partner`` shows.
_SEE_SUITS_BOX: list[int] = [0b1111]


def _publish_true_deal() -> None:
    """Make the arena note the deal as it lies before each question it asks (for the
    measuring devices below, which hand the strong side some of it)."""
    ask = _ORIGINAL["ask"]

    def publish(self: Arena, seat: int, kind: str, extra: dict, field: str) -> object:
        _TRUE_DEAL[:] = self.hands
        return ask(self, seat, kind, extra, field)

    Arena._ask = publish  # type: ignore[method-assign]


def _see(value: str, partner_only: bool = False) -> None:
    """Show the strong side every card (``see=bid``, ``see=play`` or ``see=bid+play``):
    for those decisions its sampler returns the true deal instead of guessing it. No
    bot can do this; it measures how much any better reading of the cards could gain at
    most (docs/benchmarks.md, *What seeing every card is worth*). ``partner_only``
    (``see_partner=...``): only the partner's hand is shown, the opponents' are sampled
    as shipped (what the pair could learn from each other)."""
    from bots.strong import bidding, search
    kinds = set(filter(None, value.split("+")))
    if not kinds or not kinds <= {"bid", "play"}:
        name = "see_partner" if partner_only else "see"
        raise SystemExit(f"error: {name}= takes bid, play or bid+play, got: {value!r}")
    _publish_true_deal()
    deals = _partner_shown if partner_only else _true_deals
    if "bid" in kinds:
        bidding.sample_deals = deals
    if "play" in kinds:
        search.sample_deals = deals


def _see_partner(value: str) -> None:
    _see(value, partner_only=True)


def _sampler(k: Knowledge, count: int, rng: random.Random, *args: Any, **kwargs: Any) -> list[list[int]]:
    return _ORIGINAL["sample_deals"](k, count, rng, *args, **kwargs)


def _see_tricks(value: str) -> None:
    """Show the cards (``see=`` or ``see_partner=``) only in tricks ``A-B`` of the hand
    (1-13; a decision's trick is counted from the cards in its hand)."""
    first, _, last = value.partition("-")
    try:
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise SystemExit(f"error: see_tricks= takes A-B, tricks from 1 to 13, got: {value!r}") from None
    if not 1 <= lo <= hi <= 13:
        raise SystemExit(f"error: see_tricks= takes A-B with 1 <= A <= B <= 13, got: {value!r}")
    _SEE_TRICKS[:] = [lo, hi]


def _shown(k: Knowledge) -> bool:
    """Whether the published deal is the one ``k`` is about (partnership only), in a
    trick the cards are shown in."""
    trick = 14 - k.hand.bit_count()
    return (k.n == 4 and len(_TRUE_DEAL) == 4 and _TRUE_DEAL[k.me] == k.hand
            and _SEE_TRICKS[0] <= trick <= _SEE_TRICKS[1])


def _true_deals(k: Knowledge, count: int, rng: random.Random, *args: Any, **kwargs: Any) -> list[list[int]]:
    """``count`` copies of the deal as it lies (partnership; else the real sampler's)."""
    if not _shown(k):
        return _sampler(k, count, rng, *args, **kwargs)
    return [list(_TRUE_DEAL) for _ in range(count)]


def _partner_shown(k: Knowledge, count: int, rng: random.Random, *args: Any, **kwargs: Any) -> list[list[int]]:
    """The real sampler's deals with the partner's hand (or its suits ``see_suits`` names) as it lies."""
    if _shown(k):
        partner = (k.me + 2) % 4
        hand = _TRUE_DEAL[partner]
        # The partner's cards of the suits shown are dealt to it, and it gets no other
        # card of those suits (a void over what is left); with all four, its whole hand.
        shown = hand & sum(SUIT_MASKS[u] for u in range(4) if _SEE_SUITS_BOX[0] >> u & 1)
        known, voids = list(k.known), list(k.voids)
        known[partner] |= shown
        voids[partner] |= _SEE_SUITS_BOX[0]
        k = dataclasses.replace(k, known=known, voids=voids, pool=k.pool & ~shown)
    return _sampler(k, count, rng, *args, **kwargs)


def _spade_count(hand: int) -> int:
    return (hand & SUIT_MASKS[3]).bit_count()


def _spade_top(hand: int) -> int:
    return hand & SUIT_MASKS[3] & ~((1 << (3 * 13 + 10)) - 1)  # the queen, king and ace held


#: ``see_feature``'s features of the partner's hand (it is shown nothing else).
_FEATURES = {"spade_count": _spade_count, "spade_top": _spade_top}
#: The feature ``see_feature`` shows ("": none).
_SEE_FEATURE_BOX: list[str] = [""]


def _feature_shown(k: Knowledge, count: int, rng: random.Random, *args: Any, **kwargs: Any) -> list[list[int]]:
    """The real sampler's deals, kept only where the partner's hand has the feature of
    its true hand (drawn in rounds; after 50 rounds the rest are filled unfiltered)."""
    if not _shown(k):
        return _sampler(k, count, rng, *args, **kwargs)
    partner = (k.me + 2) % 4
    feature = _FEATURES[_SEE_FEATURE_BOX[0]]
    want = feature(_TRUE_DEAL[partner])
    kept: list[list[int]] = []
    for _ in range(50):
        kept += [d for d in _sampler(k, count, rng, *args, **kwargs) if feature(d[partner]) == want]
        if len(kept) >= count:
            return kept[:count]
    return kept + _sampler(k, count - len(kept), rng, *args, **kwargs)


def _see_feature(value: str) -> None:
    """Show the strong side's play decisions one feature of the partner's hand
    (spade_count: how many spades it holds; spade_top: which of the top three spades),
    by keeping only sampled deals that agree with it: what a signal of it could be worth."""
    from bots.strong import search
    if value not in _FEATURES:
        raise SystemExit(f"error: see_feature= takes {' or '.join(_FEATURES)}, got: {value!r}")
    _SEE_FEATURE_BOX[0] = value
    _publish_true_deal()
    search.sample_deals = _feature_shown


def _see_suits(value: str) -> None:
    """With ``see_partner``: show only the partner's cards of these suits (letters of
    CDHS; shipped measure: all four), to tell which part of its hand pays."""
    if not value or any(ch not in "CDHS" for ch in value.upper()):
        raise SystemExit(f"error: see_suits= takes letters of CDHS, got: {value!r}")
    _SEE_SUITS_BOX[0] = sum(1 << "CDHS".index(ch) for ch in set(value.upper()))


def _set_window(value: str) -> None:
    from bots.strong import policy
    policy.SET_WINDOW = int(value)


def _sim_optimism(value: str) -> None:
    evaluate.PARAMS["sim_optimism"]["4"] = float(value)


def _sim_optimism2(value: str) -> None:
    """The two-player bid correction: tricks moved from the bidder in each simulated hand
    (shipped: 1.75)."""
    evaluate.PARAMS["sim_optimism"]["2"] = float(value)


def _match_equity(value: str) -> None:
    """1: value partnership hands by the match equity they leave (shipped); 0: by points."""
    from bots.strong import game
    game.MATCH_EQUITY = bool(int(value))


def _match_equity2(value: str) -> None:
    """1: value two-player hands by the match equity they leave too; 0: by points (shipped)."""
    from bots.strong import game
    game.MATCH_EQUITY_TWO_PLAYER = bool(int(value))


def _match_spread2(value: str) -> None:
    """The race model's spread of a two-player hand (shipped: 70 points)."""
    from bots.strong import game
    pace, _ = game.HAND_SPREAD["two_player"]
    game.HAND_SPREAD["two_player"] = (pace, float(value))


def _match_spread(value: str) -> None:
    """The race model's spread of a hand without free Blind Nil (shipped: 85 points)."""
    from bots.strong import game
    pace, _ = game.HAND_SPREAD["other"]
    game.HAND_SPREAD["other"] = (pace, float(value))


def _bid_style4(value: str) -> None:
    """1: learn the other seats' bidding styles in partnership too (shipped); 0: do not."""
    from bots.strong import bot
    bot.LEARN_PARTNERSHIP_BID_STYLE = bool(int(value))


def _match_edge(value: str) -> None:
    """Points a hand the match equity assumes the strong side gains (shipped: 0)."""
    from bots.strong import game
    game.MATCH_EDGE = float(value)


def _read_play(value: str) -> None:
    """1: read the other seats' plays in the sampler (shipped); 0: do not."""
    from bots.strong import inference
    inference.PLAY_INFERENCE = bool(int(value))


def _read_weights(value: str) -> None:
    """``LOW:WIN``: the odds of a card contradicting a low follow / a cheapest win."""
    from bots.strong import inference
    low, win = value.split(":")
    inference.LOW_FOLLOW_WEIGHT, inference.CHEAP_WIN_WEIGHT = float(low), float(win)


def _oversample(value: str) -> None:
    """Candidate deals drawn per deal kept when the sampler weighs deals by the bids."""
    from bots.strong import sampler
    sampler.OVERSAMPLE = int(value)


def _convention(value: str) -> None:
    """1: read a first bid of a pair by the first-bid convention; 0: by the bell (shipped)."""
    from bots.strong import bot
    bot.PARTNER_CONVENTION = bool(int(value))


def _convention_miss(value: str) -> None:
    """The weight of a deal whose first bidder's hand breaks the convention (shipped 0.02)."""
    from bots.strong import sampler
    sampler.CONVENTION_MISS = float(value)


def _convention_oversample(value: str) -> None:
    """Where a bid is read by the convention, the most candidate deals drawn per deal
    asked to find ones that keep it (shipped 10)."""
    from bots.strong import sampler
    sampler.CONVENTION_OVERSAMPLE = int(value)


def _partner_fact(value: str) -> None:
    """The odds of the play reading's soft facts about the partner (shipped: as for the others)."""
    from bots.strong import inference
    inference.PARTNER_FACT_WEIGHT = float(value)


def _partner_run(value: str) -> None:
    """The odds the partner holds the card below one it played (the lowest-of-a-run
    reading; shipped: not read)."""
    from bots.strong import inference
    inference.PARTNER_RUN_WEIGHT = float(value)


def _learned(value: str) -> None:
    """How far the learned reading (``bots/strong/reading.py``) leans the sampler (0:
    not at all, shipped; 1: by the fitted odds)."""
    from bots.strong import reading
    reading.LEARNED_READING = float(value)


def _learned_seats(value: str) -> None:
    """Which other seats the learned reading leans: all (shipped), partner or opponents."""
    from bots.strong import reading
    if value not in ("all", "partner", "opponents"):
        raise SystemExit(f"error: learned_seats= takes all, partner or opponents, got: {value!r}")
    reading.LEARNED_SEATS = value


def _exact_mix(value: str) -> None:
    """Weight of a policy playout next to the exact solve in an endgame card's value."""
    from bots.strong import search
    search.EXACT_PLAYOUT_MIX = float(value)


def _recursive(value: str) -> None:
    """Endgame cards valued with this seat's next turn made by a search of this many
    samples from its own view (``search.SearchConfig.recursive``)."""
    _search_fields(recursive=int(value))


def _recursive_seats(value: str) -> None:
    """With ``recursive``: whose turns before this seat's next one are made from their
    own view too (self, pair or all)."""
    from bots.strong import recursive
    if value not in recursive.SEATS:
        raise ValueError(f"recursive_seats must be one of {', '.join(recursive.SEATS)}; got: {value!r}")
    _search_fields(recursive_seats=value)


def _signal(value: str) -> None:
    """1: choose among discards valued alike by the discard convention (signals.py); 0: not."""
    from bots.strong import signals
    signals.SIGNAL_DISCARDS = bool(int(value))


def _signal_eps(value: str) -> None:
    """Points within which a discard counts as valued alike with the best (shipped 0)."""
    from bots.strong import signals
    signals.SIGNAL_EPS = float(value)


def _signal_read(value: str) -> None:
    """The odds a partner that discarded from a suit holds a high card of it (by the
    discard convention; shipped: not read)."""
    from bots.strong import signals
    signals.SIGNAL_READ_WEIGHT = float(value)


def _spade_echo(value: str) -> None:
    """1: show spade length by the order of equivalent plain cards (signals.SPADE_ECHO); 0: not."""
    from bots.strong import signals
    signals.SPADE_ECHO = bool(int(value))


def _echo_read(value: str) -> None:
    """The odds the partner's echo gives what it says is unlikely (signals.ECHO_READ_WEIGHT)."""
    from bots.strong import signals
    signals.ECHO_READ_WEIGHT = float(value)


def _opponent_model(value: str) -> None:
    """How the endgame's exact solves play the opponents where the play is read: policy
    (the rule-based policy seeing the deal, shipped), blind (the policy knowing only which
    cards are out) or best (their best reply, as before 2026-12-05); see opponent.py."""
    from bots.strong import search
    if value not in ("policy", "blind", "best"):
        raise SystemExit(f"error: opponent_model= takes policy, blind or best, got: {value!r}")
    search.OPPONENT_MODEL = "" if value == "best" else value


def _partner_model(value: str) -> None:
    """How the endgame's exact solves play the partner where the opponents are modelled:
    search (shipped: it searches, seeing every card), policy or blind (search.PARTNER_MODEL)."""
    from bots.strong import search
    if value not in ("policy", "blind", "search"):
        raise SystemExit(f"error: partner_model= takes policy, blind or search, got: {value!r}")
    search.PARTNER_MODEL = "" if value == "search" else value


def _opponent_model2(value: str) -> None:
    """Whether two-player's exact solves play the opponent by the model too (shipped: 0)."""
    from bots.strong import search
    search.OPPONENT_MODEL_TWO_PLAYER = bool(int(value))


def _dd(value: str) -> None:
    """Value plays by DDS double-dummy solves up to this many cards in hand (dd.DD_CARDS; 0 shipped)."""
    from bots.strong import dd
    if int(value) and not dd.available():
        raise SystemExit("error: dd= needs the endplay package (pip install endplay)")
    dd.DD_CARDS = int(value)


def _dd_samples(value: str) -> None:
    """At most this many sampled deals for a decision valued by DDS (dd.DD_SAMPLES)."""
    from bots.strong import dd
    dd.DD_SAMPLES = int(value)


def _dd_ms(value: str) -> None:
    """At most this much CPU (ms) for a decision valued by DDS (dd.DD_CPU_S)."""
    from bots.strong import dd
    dd.DD_CPU_S = float(value) / 1000.0


def _nil_shed(value: str) -> None:
    """The odds a live Nil is dealt a loser above the one it shed (1: not read)."""
    from bots.strong import inference
    inference.NIL_SHED_WEIGHT = float(value)


def _opp_blind_optimism(value: str) -> None:
    """The bid simulation's optimism against a partnership opponent's Blind Nil where
    Blind Nil is not free (shipped: 1.75; the table's 0.25 before)."""
    evaluate.PARAMS["sim_optimism_opp_blind4"] = float(value)


#: The tunables ``--set`` knows (each sets a module-level knob); ``budget`` is the strong
#: bot's budget (``--budget`` by default).
SETTINGS = {"window": _window, "first_window": _first_window, "borrow": _borrow, "bag_weight": _bag_weight,
            "sim_optimism": _sim_optimism, "sim_optimism2": _sim_optimism2, "exact4": _exact4, "nil_min": _nil_min,
            "bid_samples": _bid_samples,
            "set_window": _set_window, "match_equity": _match_equity,
            "match_edge": _match_edge, "match_spread": _match_spread, "bid_style4": _bid_style4,
            "read_play": _read_play, "nil_shed": _nil_shed, "oversample": _oversample,
            "read_weights": _read_weights, "opp_blind_optimism": _opp_blind_optimism, "see": _see,
            "see_partner": _see_partner, "see_suits": _see_suits, "see_feature": _see_feature,
            "convention": _convention, "convention_miss": _convention_miss,
            "convention_oversample": _convention_oversample, "partner_fact": _partner_fact,
            "partner_run": _partner_run, "see_tricks": _see_tricks, "learned": _learned,
            "learned_seats": _learned_seats, "exact_mix": _exact_mix,
            "recursive": _recursive, "recursive_seats": _recursive_seats,
            "signal": _signal, "signal_eps": _signal_eps, "signal_read": _signal_read,
            "spade_echo": _spade_echo, "echo_read": _echo_read,
            "opponent_model": _opponent_model, "opponent_model2": _opponent_model2,
            "partner_model": _partner_model, "dd": _dd, "dd_samples": _dd_samples,
            "dd_ms": _dd_ms,
            "match_equity2": _match_equity2, "match_spread2": _match_spread2}

#: The shipped values of every knob, read once before the first setting moves any.
_ORIGINAL: dict[str, Any] = {}


def _reset() -> None:
    """Undo every earlier setting (each setting is measured from the shipped bot)."""
    from bots.strong import bidding, bot, dd, game, inference, policy, reading, sampler, search, signals
    from bots.strong.game import MatchContext
    if not _ORIGINAL:
        _ORIGINAL.update(bag_weight=MatchContext.bag_weight, SearchConfig=bot.SearchConfig,
                         nil_min=bidding.NIL_MIN_PARTNERSHIP,
                         params=json.dumps(evaluate.PARAMS), bid_config=StrongBot._bid_config,
                         set_window=policy.SET_WINDOW, first_window=bidding.FIRST_BID_WINDOW,
                         window=bidding.BID_WINDOW, match_equity=game.MATCH_EQUITY,
                         match_equity2=game.MATCH_EQUITY_TWO_PLAYER,
                         match_edge=game.MATCH_EDGE, bid_style4=bot.LEARN_PARTNERSHIP_BID_STYLE,
                         spread=dict(game.HAND_SPREAD), read_play=inference.PLAY_INFERENCE,
                         nil_shed=inference.NIL_SHED_WEIGHT, oversample=sampler.OVERSAMPLE,
                         convention=bot.PARTNER_CONVENTION, convention_miss=sampler.CONVENTION_MISS,
                         convention_oversample=sampler.CONVENTION_OVERSAMPLE,
                         partner_fact=inference.PARTNER_FACT_WEIGHT, partner_run=inference.PARTNER_RUN_WEIGHT,
                         learned=reading.LEARNED_READING, learned_seats=reading.LEARNED_SEATS,
                         exact_mix=search.EXACT_PLAYOUT_MIX, dd=(dd.DD_CARDS, dd.DD_SAMPLES, dd.DD_CPU_S),
                         opponent_model=search.OPPONENT_MODEL,
                         opponent_model2=search.OPPONENT_MODEL_TWO_PLAYER, partner_model=search.PARTNER_MODEL,
                         signal=(signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT),
                         echo=(signals.SPADE_ECHO, signals.ECHO_READ_WEIGHT),
                         read_weights=(inference.LOW_FOLLOW_WEIGHT, inference.CHEAP_WIN_WEIGHT),
                         ask=Arena._ask, sample_deals=sampler.sample_deals)
    bot.SearchConfig = _ORIGINAL["SearchConfig"]  # type: ignore[misc]
    MatchContext.bag_weight = _ORIGINAL["bag_weight"]  # type: ignore[method-assign]
    BORROWED.clear()
    StrongBot._bid_config = _ORIGINAL["bid_config"]  # type: ignore[method-assign]
    bidding.NIL_MIN_PARTNERSHIP = _ORIGINAL["nil_min"]
    policy.SET_WINDOW = _ORIGINAL["set_window"]
    bidding.FIRST_BID_WINDOW = _ORIGINAL["first_window"]
    bidding.BID_WINDOW = _ORIGINAL["window"]
    game.MATCH_EQUITY = _ORIGINAL["match_equity"]
    game.MATCH_EQUITY_TWO_PLAYER = _ORIGINAL["match_equity2"]
    game.MATCH_EDGE = _ORIGINAL["match_edge"]
    bot.LEARN_PARTNERSHIP_BID_STYLE = _ORIGINAL["bid_style4"]
    inference.PLAY_INFERENCE = _ORIGINAL["read_play"]
    inference.NIL_SHED_WEIGHT = _ORIGINAL["nil_shed"]
    sampler.OVERSAMPLE = _ORIGINAL["oversample"]
    bot.PARTNER_CONVENTION = _ORIGINAL["convention"]
    sampler.CONVENTION_MISS = _ORIGINAL["convention_miss"]
    sampler.CONVENTION_OVERSAMPLE = _ORIGINAL["convention_oversample"]
    inference.PARTNER_FACT_WEIGHT = _ORIGINAL["partner_fact"]
    inference.PARTNER_RUN_WEIGHT = _ORIGINAL["partner_run"]
    reading.LEARNED_READING = _ORIGINAL["learned"]
    reading.LEARNED_SEATS = _ORIGINAL["learned_seats"]
    search.EXACT_PLAYOUT_MIX = _ORIGINAL["exact_mix"]
    dd.DD_CARDS, dd.DD_SAMPLES, dd.DD_CPU_S = _ORIGINAL["dd"]
    search.OPPONENT_MODEL = _ORIGINAL["opponent_model"]
    search.OPPONENT_MODEL_TWO_PLAYER = _ORIGINAL["opponent_model2"]
    search.PARTNER_MODEL = _ORIGINAL["partner_model"]
    signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT = _ORIGINAL["signal"]
    signals.SPADE_ECHO, signals.ECHO_READ_WEIGHT = _ORIGINAL["echo"]
    inference.LOW_FOLLOW_WEIGHT, inference.CHEAP_WIN_WEIGHT = _ORIGINAL["read_weights"]
    Arena._ask = _ORIGINAL["ask"]  # type: ignore[method-assign]
    bidding.sample_deals = search.sample_deals = _ORIGINAL["sample_deals"]
    _SEE_TRICKS[:] = [1, 13]
    _SEE_SUITS_BOX[0] = 0b1111
    _SEE_FEATURE_BOX[0] = ""
    game.HAND_SPREAD.clear()
    game.HAND_SPREAD.update(_ORIGINAL["spread"])
    evaluate.PARAMS.clear()
    evaluate.PARAMS.update(json.loads(_ORIGINAL["params"]))


def apply(setting: str, budget: str) -> Budget:
    """Reset, then apply a comma-separated list of ``KEY=VALUE`` tunables (see
    :data:`SETTINGS`; ``base`` is the shipped bot); return the budget to play with."""
    items = [item.partition("=") for item in filter(None, setting.split(","))]
    for key, _, _ in items:
        # Refused before any knob moves: a half-applied setting would outlive the error.
        if key not in SETTINGS and key not in ("base", "budget", "exact", "bid"):
            raise SystemExit(f"error: unknown setting {key!r} (known: base, budget, {', '.join(SETTINGS)}), "
                             f"got: {setting!r}")
    _reset()
    for key, _, value in items:
        if key == "base":
            continue
        if key == "budget":
            budget = value
            continue
        if key in ("exact", "bid"):
            # Parts of a split sample budget: budget=128samples,exact=32,bid=64.
            budget = f"{budget},{key}={value}"
            continue
        SETTINGS[key](value)
    return Budget.parse(budget)


def strong_seat(budget: Budget, seed: int) -> StrongBot | Hybrid:
    bot = StrongBot(budget, seed=seed, log=lambda _t: None)
    return Hybrid(bot, frozenset(BORROWED)) if BORROWED else bot


def table(budget: Budget, deal: int, leg: int, seats: int = 4,
          against: str = "heuristic") -> list[StrongBot | Hybrid | Heuristic | Process]:
    """The ``seats`` seats (4 or 2) of deal ``deal``: the strong side on side ``leg`` (each
    seat seeded by the deal and its seat), the opponent ``against`` on the other."""
    return [strong_seat(budget, deal * 4 + s) if s % 2 == leg else opponent(against) for s in range(seats)]


def close(players: list[StrongBot | Hybrid | Heuristic | Process]) -> None:
    """End the opponents' processes, if any."""
    for p in players:
        if isinstance(p, Process):
            p.close()


def rules_of(rule_args: list[str]) -> RuleSet:
    """The rules from ``KEY=VALUE`` options (values read as YAML; a later key wins)."""
    import yaml
    return RuleSet.from_mapping({k: yaml.safe_load(v) for k, _, v in (r.partition("=") for r in rule_args)})


def play(deal: int, leg: int, budget: Budget, rules: RuleSet, bag_cost: float = 0.0,
         score: tuple[int, int] = (0, 0), seats: int = 4,
         against: str = "heuristic") -> tuple[float, int, int, int, int, int]:
    """Net points of the strong side in the first hand of deal ``deal`` (less ``bag_cost``
    for every bag it carries over, plus as much for every bag the opponents carry),
    played from ``score`` (the strong side's points, the opponents'); contracts
    made/bid; the opponents' Blind Nils made/bid; 1 if the hand ended the match won for
    the strong side, -1 lost, 0 not ended."""
    start = [0, 0]
    start[leg], start[1 - leg] = score
    players = table(budget, deal, leg, seats, against)
    try:
        h = Arena(players, rules, seed=deal).play_match(hands=1, score=start).hands[0]
    finally:
        close(players)
    side = leg
    ss = [s for s in range(seats) if s % 2 == side]
    contract = sum(h.bids[s] for s in ss if h.bids[s])
    took = sum(h.tricks[s] for s in ss if h.bids[s])
    net = h.points[side] - h.points[1 - side] - bag_cost * (h.bags[side] - h.bags[1 - side])
    blind = [s for s in range(seats) if s % 2 != side and h.blind[s] and h.bids[s] == 0]
    winner = match_winner(rules, h.score, 1)
    return (net, int(bool(contract) and took >= contract), int(bool(contract)),
            sum(h.tricks[s] == 0 for s in blind), len(blind), 0 if winner is None else (1 if winner == side else -1))


Task = tuple[str, str, list[str], int, int, float, tuple[int, int], int, str]

#: ``--variant``: the seats at the table.
SEATS = {"partnership": 4, "two-player": 2}


def rule_args_of(variant: str, given: list[str]) -> list[str]:
    """The rule options of a run: partnership hands are played without Blind Nil unless a
    ``--rule`` says otherwise (as before ``--variant`` existed); two-player under the
    default rules."""
    return (["blind_nil=false"] if SEATS[variant] == 4 else []) + given


def _job(task: Task) -> tuple[str, int, int, tuple[float, int, int, int, int, int]]:
    setting, budget, rule_args, deal, leg, bag_cost, score, seats, against = task
    return setting, deal, leg, play(deal, leg, apply(setting, budget), rules_of(rule_args), bag_cost, score,
                                    seats, against)


def _save_line(f: Any, item: tuple[str, int, int, tuple[float, int, int, int, int, int]]) -> None:
    """One finished hand as a JSON line of the ``--save`` file, flushed at once."""
    if f is None:
        return
    st, d, leg, (net, m, b, bn_made, bn_bid, ended) = item
    f.write(json.dumps({"setting": st, "deal": d, "leg": leg, "net": net, "made": m, "bid": b,
                        "opp_blind_nil_made": bn_made, "opp_blind_nil_bid": bn_bid, "ended": ended}) + "\n")
    f.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first-deal", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], dest="settings", metavar="KEY=VALUE[,...]",
                        help="one setting to measure (repeatable; the first is the reference)")
    parser.add_argument("--budget", default="16samples")
    parser.add_argument("--variant", choices=sorted(SEATS), default="partnership")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="heuristic")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option (repeatable); partnership adds blind_nil=false first")
    parser.add_argument("--bag-cost", type=float, default=0.0,
                        help="points charged per bag carried over (a single hand's bags cost nothing "
                             "otherwise; 10 = the default rules' penalty spread over its 10 bags)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--lead", type=int, default=0,
                       help="points the strong side leads by when the hand starts (negative: trails); "
                            "with blind_nil_behind, who may bid Blind Nil")
    start.add_argument("--score", metavar="MINE:THEIRS",
                       help="the sides' points when the hand starts, the strong side's first: "
                            "e.g. 460:300 for a hand that may end the match")
    parser.add_argument("--jobs", type=int, default=1, help="hands at once (processes)")
    parser.add_argument("--save", type=Path, help="write every hand's result here (JSON lines)")
    args = parser.parse_args(argv)
    settings = args.settings or ["base"]
    score = (max(args.lead, 0), max(-args.lead, 0))
    if args.score:
        try:
            mine, theirs = (int(x) for x in args.score.split(":"))
        except ValueError:
            parser.error(f"--score takes MINE:THEIRS, two whole numbers, got: {args.score!r}")
        score = (mine, theirs)
    rule_args = rule_args_of(args.variant, args.rule)
    tasks: list[Task] = [(st, args.budget, rule_args, d, leg, args.bag_cost, score, SEATS[args.variant],
                          args.opponent)
                         for d in range(args.first_deal, args.first_deal + args.deals)
                         for leg in (0, 1) for st in settings]
    for st in settings:
        apply(st, args.budget)  # a bad setting fails before any hand is played
    rows: dict[str, dict[tuple[int, int], tuple[float, int, int, int, int, int]]] = {st: {} for st in settings}
    # Each hand is saved as it finishes (a long run stopped early keeps what it played),
    # and the settings take turns deal by deal, so what is saved is paired.
    save = args.save.open("w") if args.save else None
    done = []
    try:
        if args.jobs > 1:
            import multiprocessing
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                for item in pool.imap_unordered(_job, tasks):
                    done.append(item)
                    _save_line(save, item)
        else:
            for t in tasks:
                done.append(_job(t))
                _save_line(save, done[-1])
    finally:
        if save:
            save.close()
    for st, d, leg, result in done:
        rows[st][(d, leg)] = result
    base = rows[settings[0]]
    for st in settings:
        r = rows[st]
        keys = sorted(r)
        nets = [r[k][0] for k in keys]
        diffs = [r[k][0] - base[k][0] for k in keys]
        mean = sum(diffs) / len(diffs)
        se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1) / len(diffs))
        made, bid = sum(r[k][1] for k in keys), sum(r[k][2] for k in keys)
        bn_made, bn_bid = sum(r[k][3] for k in keys), sum(r[k][4] for k in keys)
        blind = f"  opponents' Blind Nils made {bn_made}/{bn_bid}" if bn_bid else ""
        won, lost = sum(r[k][5] == 1 for k in keys), sum(r[k][5] == -1 for k in keys)
        if won or lost:
            blind += f"  matches ended won {won}, lost {lost}"
        print(f"{st:<30} hands {len(nets):>4}  net/hand {sum(nets) / len(nets):>+7.1f}  contracts made "
              f"{made}/{bid}  vs first {mean:>+6.1f} +- {se:.1f}{blind}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
