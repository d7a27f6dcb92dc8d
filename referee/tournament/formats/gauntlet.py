"""``format: gauntlet``: the first bot meets each of the others."""

from __future__ import annotations

from referee.tournament.formats.fixed import FixedFormat

__all__ = ["Gauntlet"]


class Gauntlet(FixedFormat):
    """The first bot of the config against each of the others, in config order."""

    name = "gauntlet"
    summary = "the first bot meets each of the others"

    @staticmethod
    def pairs(n_bots: int) -> list[tuple[int, int]]:
        return [(0, j) for j in range(1, n_bots)]
