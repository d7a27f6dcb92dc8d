"""A section a tournament format adds to the standings: a table, lines of text, plain data.

The standings (:mod:`referee.tournament.standings`) render these after their own
tables in every text format and put :attr:`ReportSection.data` into the JSON,
so a format shows what only it knows (an SPRT verdict, Swiss tiebreaks, a
bracket) without the standings knowing any format.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

__all__ = ["ReportSection"]


@dataclasses.dataclass(frozen=True)
class ReportSection:
    """One titled block at the end of the standings."""

    key: str  # its name in the JSON output ("sprt", "swiss", "bracket")
    title: str
    headers: Sequence[str] = ()  # a table, when given
    rows: Sequence[Sequence[str]] = ()
    lines: Sequence[str] = ()  # text under the table (a verdict, a tree), printed as is
    data: Any = None  # the same content as plain JSON data
