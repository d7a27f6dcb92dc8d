"""``format: round-robin``: every pair of bots meets."""

from __future__ import annotations

from typing import Any, Mapping

from referee.tournament.formats.base import FormatOption, Played
from referee.tournament.formats.fixed import FixedFormat
from referee.tournament.formats.partners import partner_sections, rotation_schedule
from referee.tournament.schedule import ScheduledMatch
from referee.tournament.sections import ReportSection

__all__ = ["RoundRobin"]


class RoundRobin(FixedFormat):
    """Every pair of bots, each new bot against those before it: ``(0,1), (0,2), (1,2), (0,3), (1,3), (2,3), ...``.

    In this order a bot added at the end of the list only appends pairings, so
    every pairing keeps its number (and its matches their ids and seats): that
    is what lets a finished round-robin grow (:mod:`referee.tournament.growth`).
    """

    name = "round-robin"
    summary = "every pair of bots meets (with partners: rotate, every seating of four bots in mixed teams)"
    options = (FormatOption("partners", str, None, "rotate: mixed partnerships, every bot partnering every other "
                            "(partnership variant only)", choices=("rotate",), nullable=True),)

    @classmethod
    def setup_problems(cls, n_bots: int, duplicate: bool, options: Mapping[str, Any],
                       variant: str) -> list[tuple[str, str]]:
        if options["partners"] != "rotate":
            return []
        out = []
        if variant != "partnership":
            out.append(("partners", f"partners: rotate mixes partnership teams: it needs variant: partnership, "
                                    f"got: {variant!r}"))
        if n_bots < 4:
            out.append(("partners", f"partners: rotate seats four different bots a match: give at least 4 bots, "
                                    f"got {n_bots}"))
        if not duplicate:
            out.append(("duplicate", "partners: rotate replays each deal with the sides swapped: duplicate must be "
                                     "true, got: False"))
        return out

    @property
    def rotating(self) -> bool:
        return self.config.format_options.get("partners") == "rotate"

    def build(self) -> list[ScheduledMatch]:
        if self.rotating:
            return rotation_schedule([b.name for b in self.config.bots], self.config.matches_per_pairing,
                                     self.config.seed)
        return super().build()

    def mixed_teams(self) -> bool:
        return self.rotating

    def standings_sections(self, done: Mapping[str, Played]) -> list[ReportSection]:
        if not self.rotating:
            return []
        return partner_sections([b.name for b in self.config.bots], self.schedule, done)

    @staticmethod
    def pairs(n_bots: int) -> list[tuple[int, int]]:
        return [(i, j) for j in range(1, n_bots) for i in range(j)]
