"""``format: round-robin``: every pair of bots meets."""

from __future__ import annotations

from referee.tournament.formats.fixed import FixedFormat

__all__ = ["RoundRobin"]


class RoundRobin(FixedFormat):
    """Every pair of bots, each new bot against those before it: ``(0,1), (0,2), (1,2), (0,3), (1,3), (2,3), ...``.

    In this order a bot added at the end of the list only appends pairings, so
    every pairing keeps its number (and its matches their ids and seats): that
    is what lets a finished round-robin grow (:mod:`referee.tournament.growth`).
    """

    name = "round-robin"
    summary = "every pair of bots meets"

    @staticmethod
    def pairs(n_bots: int) -> list[tuple[int, int]]:
        return [(i, j) for j in range(1, n_bots) for i in range(j)]
