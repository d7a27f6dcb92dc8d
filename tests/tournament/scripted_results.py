"""An executor for format tests: every match answered at once, in-process, from bot strengths.

A format only decides which matches come next, so its tests need results, not
games: :class:`StrengthExecutor` answers each submitted match with a record
whose winner is drawn from the two sides' strengths (``P(side 0 wins) =
s0 / (s0 + s1)``), by a generator seeded from the match's id and seed, so the
same match always gets the same result (a resumed run replays nothing
differently). Scores are drawn too, so margins differ from match to match.
"""

from __future__ import annotations

import random
from typing import ClassVar, Mapping, Sequence

from referee.game.outcomes import EndReason
from referee.match import MatchRecord, MatchSpec
from referee.tournament.executors import Executor, MatchDone, Outcome

__all__ = ["StrengthExecutor"]


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
        sides = bots[:2]
        rng = random.Random(f"{self.salt}/{spec.match_id}/{spec.seed}")
        s0, s1 = (self.strength[name] for name in sides)
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
