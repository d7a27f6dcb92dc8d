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
    from referee.tournament.sections import ReportSection

__all__ = ["FormatOption", "TournamentFormat", "Played"]


@dataclasses.dataclass(frozen=True)
class FormatOption:
    """A config key that belongs to one format (``rounds`` for Swiss, ``alpha`` for SPRT).

    The config checks its type and range like any other key and refuses it
    under another format; :attr:`TournamentConfig.format_options` holds its
    value (the default when the key is left out).
    """

    key: str
    kind: type  # int, float or str
    default: Any
    help: str
    low: float | None = None  # smallest allowed value (numbers)
    high: float | None = None  # largest allowed value (numbers)
    exclusive: bool = False  # low and high themselves are not allowed
    choices: tuple[str, ...] = ()  # the allowed values (strings); empty: any
    nullable: bool = False  # null is allowed (and means "none")
    is_path: bool = False  # a path (str kind): relative to the config file's folder, kept absolute


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
    #: The config keys of this format alone.
    options: ClassVar[tuple[FormatOption, ...]] = ()
    #: Whether ``matches_per_pairing`` means something here (a format that
    #: decides how many matches a pairing plays refuses the key).
    uses_matches_per_pairing: ClassVar[bool] = True

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

    @classmethod
    def setup_problems(cls, n_bots: int, duplicate: bool, options: Mapping[str, Any],
                       variant: str) -> list[tuple[str, str]]:
        """What makes a config unusable with this format, as ``(key, message)``;
        called once every key is valid on its own (two keys that contradict
        each other, a bot count the format cannot serve)."""
        return []

    def mixed_teams(self) -> bool:
        """Whether a side's two seats hold two different bots, each to be rated on its own
        from its teams' results (mixed partnerships); the standings then rate individuals."""
        return False

    def progress_text(self, done: Mapping[str, Played]) -> str:
        """A few words the progress line adds ("LLR 1.2 (-2.94, 2.94)"); empty: none."""
        return ""

    def standings_sections(self, done: Mapping[str, Played]) -> list[ReportSection]:
        """Tables this format adds at the end of the standings (an SPRT's verdict,
        Swiss tiebreaks, a bracket), from the records it owns."""
        return []
