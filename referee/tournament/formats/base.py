"""The format seam: what every tournament format implements.

A format decides which matches a tournament plays next, from the results so
far. Round-robin and gauntlet are fixed lists; Swiss, knockout and sequential
tests choose each round from the last. The runner asks
:meth:`TournamentFormat.next_matches` at the start and again whenever a match
finishes, plays what it gets (as many at once as its executor takes), and
stops when nothing is running and nothing is ready. The standings count the
records a format :meth:`owns`, without rebuilding any schedule.

To add a format: write a module in this package with a subclass of
:class:`TournamentFormat` and add the class to ``FORMATS`` in
``formats/__init__.py``; ``format: <name>`` in a config then selects it.
"""

from __future__ import annotations

import abc
import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Sequence

from referee.tournament.schedule import ScheduledMatch

if TYPE_CHECKING:  # the config names its format; the format reads the config
    from referee.tournament.config import TournamentConfig

__all__ = ["TournamentFormat", "Played"]


@dataclasses.dataclass(frozen=True)
class Played:
    """What a format is told of a finished match: few fields, so that a long
    tournament's memory does not grow with its records."""

    match_id: str
    bots: tuple[str, ...]  # by seat
    score: tuple[int, ...]  # by side
    winner: int | None  # side, None for a draw

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Played:
        return cls(str(record["match"]), tuple(record.get("bots") or ()), tuple(record.get("score") or ()),
                   record.get("winner"))


class TournamentFormat(abc.ABC):
    """Which matches a tournament plays. One instance serves one run of one config."""

    #: The config's ``format:`` value.
    name: ClassVar[str]
    #: One line for documentation and ``--help``.
    summary: ClassVar[str]

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config

    @abc.abstractmethod
    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        """The matches that may be played now, given those finished (by id).

        Never one in ``done``. The runner starts those it is not already
        playing, in the order given, and asks again each time a match
        finishes; an empty answer while nothing runs ends the tournament.
        The same ``done`` must always give the same answer (a resumed run
        plays what the first run would have played).
        """

    @abc.abstractmethod
    def owns(self, match_id: str) -> bool:
        """Whether a record of ``match_id`` can belong to this tournament.

        The standings count only such records, so a stray or foreign record
        in the results file is reported, not counted.
        """

    def expected_total(self) -> int | None:
        """How many matches the whole tournament has, when that is known before
        it is played (progress, "20 of 20 matches"); None when it depends on results."""
        return None
