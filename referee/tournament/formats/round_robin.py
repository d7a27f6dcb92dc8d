"""``format: round-robin``: every pair of bots meets."""

from __future__ import annotations

from referee.tournament.formats.fixed import FixedFormat

__all__ = ["RoundRobin"]


class RoundRobin(FixedFormat):
    """Every pair of bots, in config order: ``(0,1), (0,2), ..., (1,2), ...``."""

    name = "round-robin"
    summary = "every pair of bots meets"

    @staticmethod
    def pairs(n_bots: int) -> list[tuple[int, int]]:
        return [(i, j) for i in range(n_bots) for j in range(i + 1, n_bots)]
