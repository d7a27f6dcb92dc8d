"""Tournament formats: which matches to play (the format seam, see :mod:`.base`).

``FORMATS`` maps each config ``format:`` name to its class; adding a format
is a new module here plus its line in that table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.tournament.formats.base import FormatOption, Played, TournamentFormat
from referee.tournament.formats.gauntlet import Gauntlet
from referee.tournament.formats.knockout import Knockout
from referee.tournament.formats.round_robin import RoundRobin
from referee.tournament.formats.sprt import SprtFormat
from referee.tournament.formats.swiss import Swiss

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig

__all__ = ["FORMATS", "FormatOption", "Played", "TournamentFormat", "format_for"]

FORMATS: dict[str, type[TournamentFormat]] = {cls.name: cls for cls in (RoundRobin, Gauntlet, SprtFormat, Swiss, Knockout)}


def format_for(config: TournamentConfig) -> TournamentFormat:
    """The format object of a config (its ``format`` is one of ``FORMATS``, checked when loaded)."""
    return FORMATS[config.format](config)
