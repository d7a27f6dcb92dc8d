"""Growing a tournament: a config that only adds matches to those already played.

A results folder is resumed only with the config it was run with
(:meth:`referee.tournament.results.ResultsFolder.prepare`). One kind of change is
allowed as well: a *growth*, which keeps every match already scheduled exactly
as it was (same id, same deals, same seats) and adds new ones. For the formats
with a fixed schedule (round-robin, gauntlet) that is

* raising ``matches_per_pairing``: each pairing plays more twin pairs, and
* adding bots at the end of ``bots``: their pairings are appended.

Anything else (another seed, other rules, a bot removed, renamed, reordered or
with another command, a lower ``matches_per_pairing``) would change or drop
matches already played, and is refused with the reason. The check does not
trust the rules above alone: it builds both schedules and requires the old one
to be part of the new one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from referee.tournament.config import TournamentConfig
from referee.tournament.formats import format_for
from referee.tournament.formats.fixed import FixedFormat

__all__ = ["Growth", "growth"]

_GROWABLE = ("matches_per_pairing", "bots")


@dataclasses.dataclass(frozen=True)
class Growth:
    """A change that only adds matches: what it adds, in words and in number."""

    what: str  # "matches_per_pairing 2 -> 4, bots added: c, d"
    new_matches: int


def _without(identity: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in identity.items() if k not in keys}


def growth(old: TournamentConfig, new: TournamentConfig) -> Growth | str:
    """The growth from ``old`` to ``new``, or why the change is not one (one sentence)."""
    old_id, new_id = old.identity(), new.identity()
    if _without(old_id, _GROWABLE) != _without(new_id, _GROWABLE):
        return ("only raising matches_per_pairing or adding bots at the end of the list can grow a tournament; "
                "this changes more than that")
    old_fmt, new_fmt = format_for(old), format_for(new)
    if not isinstance(old_fmt, FixedFormat) or not isinstance(new_fmt, FixedFormat):
        return f"format {new.format!r} decides its matches as it goes: it cannot grow"
    if new.matches_per_pairing < old.matches_per_pairing:
        return (f"lowering matches_per_pairing ({old.matches_per_pairing} -> {new.matches_per_pairing}) would drop "
                "matches already played")
    old_bots, new_bots = old_id["bots"], new_id["bots"]
    if new_bots[:len(old_bots)] != old_bots:
        return ("bots may only be added at the end of the list, each already there unchanged (same name, "
                "command, folder, environment and time)")
    new_schedule = set(new_fmt.schedule)
    if not all(match in new_schedule for match in old_fmt.schedule):
        return "the matches already scheduled would get other ids, deals or seats in the grown schedule"
    parts = []
    if new.matches_per_pairing != old.matches_per_pairing:
        parts.append(f"matches_per_pairing {old.matches_per_pairing} -> {new.matches_per_pairing}")
    if len(new_bots) > len(old_bots):
        parts.append("bots added: " + ", ".join(b["name"] for b in new_bots[len(old_bots):]))
    return Growth(", ".join(parts), len(new_fmt.schedule) - len(old_fmt.schedule))
