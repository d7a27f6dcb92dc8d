"""An executor for format tests: every match answered at once, in-process, from bot strengths.

A format only decides which matches come next, so its tests need results, not
games: :class:`StrengthExecutor` answers each submitted match with a record
whose winner is drawn from the two sides' strengths (``P(side 0 wins) =
s0 / (s0 + s1)``, a side's strength the sum over its seats), by a generator seeded from the match's id and seed, so the
same match always gets the same result (a resumed run replays nothing
differently). Scores are drawn too, so margins differ from match to match.
:class:`SkillExecutor` plays real matches instead, in-process, between
synthetic bots of known skill (:func:`skill_policy`).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Mapping, Sequence

from referee.game.outcomes import EndReason
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat.scripted import Policy, ScriptedTransport, random_policy
from referee.seat.spec import SeatSpec
from referee.tournament.executors import Executor, MatchDone, Outcome

__all__ = ["SkillExecutor", "StrengthExecutor", "skill_policy"]


class StrengthExecutor(Executor):
    """Matches decided by strength, without a bot process (see the module docstring)."""

    name: ClassVar[str] = "strength"

    def __init__(self, strength: Mapping[str, float], *, capacity: int = 4, draw: float = 0.0, salt: int = 0):
        self.strength, self._capacity, self.draw, self.salt = dict(strength), capacity, draw, salt
        self.pending: list[MatchSpec] = []
        self.submitted: list[str] = []

    @property
    def capacity(self) -> int:
        return self._capacity

    def submit(self, spec: MatchSpec) -> None:
        self.pending.append(spec)
        self.submitted.append(spec.match_id)

    def record(self, spec: MatchSpec) -> dict[str, object]:
        bots = [s.name for s in spec.seats]
        rng = random.Random(f"{self.salt}/{spec.match_id}/{spec.seed}")
        # A side's strength is the sum over its seats (a mixed partnership's team: both partners count;
        # one bot in both seats has its strength doubled on both sides alike, which changes nothing).
        s0, s1 = (sum(self.strength[name] for name in bots[side::2]) for side in (0, 1))
        if rng.random() < self.draw:
            winner, score = None, [300, 300]
        else:
            winner = 0 if rng.random() < s0 / (s0 + s1) else 1
            loser = rng.randrange(-200, 400)
            score = [500 + rng.randrange(0, 100), loser] if winner == 0 else [loser, 500 + rng.randrange(0, 100)]
        return MatchRecord(match=spec.match_id, variant=spec.variant, seed=spec.seed, bots=bots, hands=[],
                           score=score, winner=winner, reason=EndReason.TARGET, faults=[], seconds=0.0,
                           rules=spec.rules, stats=[{} for _ in bots]).to_dict()

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        out: list[Outcome] = [MatchDone(spec.match_id, self.record(spec), {}) for spec in self.pending]
        self.pending = []
        return out

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


_RANKS = "23456789TJQKA"


def _beats(card: str, best: str, led: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick led in suit ``led`` (spades trump)."""
    if card[1] == best[1]:
        return _RANKS.index(card[0]) > _RANKS.index(best[0])
    return card[1] == "S" or (best[1] != "S" and card[1] == led and best[1] != led)


def skill_policy(skill: float, rng: random.Random) -> Policy:
    """A synthetic bot of known strength: with probability ``skill`` it plays sensibly (win the trick
    with the cheapest card that does, else throw the lowest; lead the highest non-spade), else at
    random, so a higher skill takes more tricks. It bids the legal bid nearest 3, never blind nil."""
    fallback = random_policy(rng)

    def low(cards: Sequence[str]) -> str:
        return min(cards, key=lambda c: (c[1] == "S", _RANKS.index(c[0])))

    def decide(req: dict[str, Any]) -> Any:
        kind = req["type"]
        if kind == "play":
            legal = req["legal"]
            if rng.random() >= skill:
                return rng.choice(legal)
            trick = [card for _, card in req["state"].get("trick", [])]
            if not trick:
                plain = [c for c in legal if c[1] != "S"] or legal
                return max(plain, key=lambda c: _RANKS.index(c[0]))
            led = trick[0][1]
            best = trick[0]
            for card in trick[1:]:
                if _beats(card, best, led):
                    best = card
            winners = [c for c in legal if _beats(c, best, led)]
            return low(winners) if winners else low(legal)
        if kind == "bid":
            return min(req["legal"], key=lambda b: abs(b - 3) if isinstance(b, int) else 99)
        if kind == "blind_nil":
            return False
        return fallback(req)

    return decide


class SkillExecutor(StrengthExecutor):
    """Real matches, in-process: every seat a :func:`skill_policy` of its bot's skill."""

    name: ClassVar[str] = "skill"

    def record(self, spec: MatchSpec) -> dict[str, object]:
        def seat(index: int, seat_spec: SeatSpec, transcript: Any) -> ScriptedTransport:
            rng = random.Random(f"{self.salt}/{spec.match_id}/{index}")
            return ScriptedTransport(skill_policy(self.strength[seat_spec.name], rng), seat_spec.name)

        return run_match(dataclasses.replace(spec, logs=None), transport_factory=seat).to_dict()
