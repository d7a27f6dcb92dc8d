"""The strength ladder: five graded opponents built from the strong bot's own parts.

A league wants a "boss" at each level that a student can climb past one at a time. Each
level differs from the one below in the *kind* of skill it adds, the way a player learns
the game, not only in how long it thinks:

1. legal play, sane bids: bids a trick under the fitted hand model's estimate (never
   Nil), plays a random legal card most of the time (a random keep decision in the draw
   as often), the rule policy otherwise;
2. rules of thumb: the same bids, the strong bot's rule-based play policy
   (:func:`bots.strong.search.policy_card`: win cheaply, duck when the contract is made,
   protect a partner's nil), with a slip to a random card now and then;
3. the full rule policy with bids chosen by simulation (:func:`bots.strong.bidding.decide_bid`,
   Nil included), no search of the play;
4. determinized search of the play with a small sample budget; no Blind Nil;
5. the full strong bot (search, simulated bids, Blind Nil by simulation) at the sample
   budgets the ladder was measured with: in two-player that of
   ``bench/strength-two-player.yaml``, in partnership 32 samples a decision. (The
   partnership strength rows have since given the early plays 128 samples,
   ``--budget 128samples,exact=32,bid=64``; level 5 stays where the ladder's last step
   was measured until the ladder is measured again with it.)

The parameters were tuned by paired in-process pilots (``bots.strong.arena``) for roughly
even steps under ``blind_nil_behind: 100``; the measured ladder is in docs/bots.md. Level 4
searches only 4 deals in two-player: a two-player search gets so much from its first
samples that at 30 it played as level 5 does. Two-player has slips of its own
(``slip2``): with the partnership slips its two lowest steps were about twice its two
highest, so level 2 slips a little more there and level 3, which never slips in
partnership, slips 10% of its cards (tuned by two-player round-robins, docs/bots.md).

Every level draws all its randomness from the bot's seeded generator and does a fixed
amount of work (a sample count, not a time budget), so ``--seed`` replays it exactly as
long as no decision reaches the wall-clock safety cut (``move_ms`` minus a margin, see
:mod:`strong.timing`). ``--budget`` replaces the
sample budget of a level that uses one (3, 4, 5).

The level definitions are data (:data:`LEVELS`); :class:`LevelBot` is the strong bot with
the requests a level plays differently answered here, everything else (memory, time
control, the exchanges, the Blind Nil discard) left to :class:`bots.strong.bot.StrongBot`.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import os
from typing import Any, Callable, Mapping, Sequence

from .bot import Budget, StrongBot
from .cards import cards_of, name
from .evaluate import expected_tricks
from .sampler import knowledge
from .search import policy_card


class Play(enum.Enum):
    """How a level chooses a card."""

    POLICY = "policy"  # the rule-based policy from the seat's own view (with slips)
    SEARCH = "search"  # determinized search (the strong bot's own decision)


class Bidding(enum.Enum):
    """How a level chooses a bid."""

    MODEL = "model"  # the fitted model's trick estimate, rounded; never Nil
    SIMULATED = "simulated"  # the strong bot's bid by simulation, Nil included


@dataclasses.dataclass(frozen=True)
class Level:
    """One rung of the ladder."""

    number: int
    summary: str  # one line, shown by ``spades bots`` (referee/seat/builtin.py repeats it)
    play: Play
    bidding: Bidding
    blind_nil: bool  # whether it ever bids Blind Nil (by the strong bot's simulation)
    slip: float = 0.0  # chance that a play (or a keep decision) is a uniformly random one
    slip2: float | None = None  # the same, two-player (None: as ``slip``)
    bid_shift: float = 0.0  # Bidding.MODEL: tricks taken off the model's estimate before rounding
    samples4: int | None = None  # sample budget per decision, partnership (bids get twice)
    samples2: int | None = None  # the same, two-player

    @property
    def name(self) -> str:
        return f"level-{self.number}"

    def slip_for(self, n_seats: int) -> float:
        """The chance of a random play (or keep decision) in a game of ``n_seats``."""
        return self.slip2 if n_seats == 2 and self.slip2 is not None else self.slip

    def budget(self, n_seats: int) -> Budget | None:
        """The fixed sample budget of this level in a game of ``n_seats``, if it uses one."""
        samples = self.samples4 if n_seats == 4 else self.samples2
        return Budget(ms=None, samples=samples) if samples else None


LEVELS: dict[int, Level] = {lv.number: lv for lv in (
    Level(1, "legal play and sane bids, mostly random cards",
          Play.POLICY, Bidding.MODEL, blind_nil=False, slip=0.65, bid_shift=1.0),
    Level(2, "rules of thumb: wins cheaply, ducks, covers; slips now and then",
          Play.POLICY, Bidding.MODEL, blind_nil=False, slip=0.3, slip2=0.41, bid_shift=1.0),
    Level(3, "the strong bot's rule policy with simulated bids and Nil, no search",
          Play.POLICY, Bidding.SIMULATED, blind_nil=False, samples4=8, samples2=8, slip2=0.1),
    Level(4, "searches sampled deals on a small budget; no Blind Nil",
          Play.SEARCH, Bidding.SIMULATED, blind_nil=False, samples4=20, samples2=4),
    Level(5, "the full strong bot: search, simulated bids, Blind Nil",
          Play.SEARCH, Bidding.SIMULATED, blind_nil=True, samples4=32, samples2=48),
)}


class LevelError(ValueError):
    """A ``--level`` that names no level of the ladder."""


def parse_level(text: str) -> Level:
    """The level named by ``text`` (``'3'`` or ``'level-3'``); :class:`LevelError` otherwise."""
    t = str(text).strip().lower()
    t = t[len("level-"):] if t.startswith("level-") else t
    if t.isdigit() and int(t) in LEVELS:
        return LEVELS[int(t)]
    raise LevelError(f"bad level {text!r}: expected one of {', '.join(map(str, LEVELS))} "
                     f"(1 is the weakest, {max(LEVELS)} the full strong bot)")


def budget_given(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the command line (or ``STRONG_BUDGET``) sets a budget, which then replaces
    a level's own sample budget. Parsed, not searched, so ``--budget=1s`` counts."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--budget")
    known, _ = pre.parse_known_args(list(argv))
    return known.budget is not None or bool(environ.get("STRONG_BUDGET"))


class LevelBot(StrongBot):
    """The strong bot playing at one level of the ladder."""

    def __init__(self, level: Level, budget: Budget | None = None, seed: int | None = None,
                 log: Callable[[str], None] | None = None, verbose: bool = False):
        # ``budget`` None: the level's own per-variant sample budget, set at hello.
        super().__init__(budget or level.budget(4) or Budget(ms=None, samples=1), seed, log, verbose)
        self.level = level
        self.name = level.name
        self._own_budget = budget is None

    def _hello(self, msg: Mapping[str, Any]) -> None:
        if self._own_budget:  # before the base class logs the budget
            n = 2 if msg.get("variant") == "two-player" else 4  # as StrongBot._hello reads it
            self.budget = self.level.budget(n) or self.budget
        super()._hello(msg)

    def _slip(self) -> bool:
        p = self.level.slip_for(self.n)
        return p > 0 and self.rng.random() < p

    def _request(self, kind: Any, msg: Mapping[str, Any], t0: float) -> tuple[str | None, Any]:
        lv = self.level
        if kind == "blind_nil" and not lv.blind_nil:
            self._view(msg)
            return "blind_nil", False
        if kind == "keep" and self._slip():
            return "keep", self.rng.random() < 0.5
        if kind == "bid" and lv.bidding is Bidding.MODEL:
            return "bid", self._model_bid(msg)
        if kind == "play" and lv.play is Play.POLICY:
            view = self._view(msg)
            legal = self._legal_cards(msg, view)
            slip = self._slip()
            if slip:
                card = self.rng.choice(cards_of(legal))
            else:
                card = policy_card(view, legal, knowledge(view, self.rules.blind_nil_cards))
            self.log(f"play: {lv.name} {'random slip' if slip else 'policy'} -> {name(card)}")
            return "card", name(card)
        return super()._request(kind, msg, t0)

    def _model_bid(self, msg: Mapping[str, Any]) -> int:
        """The legal bid nearest the fitted model's trick estimate (Nil only if nothing else)."""
        view = self._view(msg)
        legal = [b for b in msg.get("legal", []) if isinstance(b, int) and not isinstance(b, bool)]
        est = expected_tricks(view.hand, self.n, view.discards & ~view.hand) - self.level.bid_shift
        positive = [b for b in legal if b > 0]
        if not positive:
            return legal[0] if legal else 1
        bid = min(positive, key=lambda b: (abs(b - est), b))
        self.log(f"bid: {self.level.name} model estimate {est:.2f} -> {bid}")
        return bid
