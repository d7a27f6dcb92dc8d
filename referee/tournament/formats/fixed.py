"""Formats whose matches are all known in advance: a fixed list from the config.

Round-robin and gauntlet differ only in their pairings; the rest (twins,
seats, seeds, ids, play order) is :func:`referee.tournament.schedule.build_schedule`.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Mapping, Sequence

from referee.tournament.formats.base import Played, TournamentFormat
from referee.tournament.schedule import ScheduledMatch, build_schedule

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig

__all__ = ["FixedFormat"]


class FixedFormat(TournamentFormat):
    """A format that plays a fixed list of matches, whatever the results."""

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__(config)
        self.schedule: list[ScheduledMatch] = self.build()
        self._ids = frozenset(m.match_id for m in self.schedule)

    def build(self) -> list[ScheduledMatch]:
        """The whole schedule (by default: :meth:`pairs` through ``build_schedule``)."""
        config = self.config
        names = [b.name for b in config.bots]
        return build_schedule(names, self.pairs(len(names)), config.matches_per_pairing, config.duplicate,
                              config.seed)

    @staticmethod
    @abc.abstractmethod
    def pairs(n_bots: int) -> list[tuple[int, int]]:
        """The pairings, as bot indices into the config's list, in schedule order."""

    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        return [m for m in self.schedule if m.match_id not in done]

    def owns(self, match_id: str) -> bool:
        return match_id in self._ids

    def expected_total(self) -> int:
        return len(self.schedule)
