"""Matches from pairings: who sits where, on which cards, under which id.

Everything here is a pure function of its arguments, so the same pairings
always give the same list of matches with the same ids and seeds; that is what
lets a stopped tournament resume by skipping the ids already in
``matches.jsonl``. Which pairings a tournament has is its format's choice
(:mod:`referee.tournament.formats`).

* **Twins** (``duplicate: true``). Matches of a pairing come two by two on the
  same seed, hence the same deal for every hand number, with the two bots
  trading places: A at side 0 (seats 0 and 2 in a partnership) and B at
  side 1, then B at side 0 and A at side 1. Each deal's cards therefore go once
  to each bot, and card luck cancels out of the pair.
* **Seat alternation.** Side 0 holds seat 0, which deals the first hand
  (partnership) or is the first player (two-player). Which bot starts at
  side 0 alternates from pairing to pairing and from twin to twin (or from
  match to match without twins), so no bot keeps a seat advantage.
* **Seeds** derive from the master seed by SHA-256 over a fixed text, so they
  are stable across Python versions and platforms (Python's own ``hash`` is
  randomised per process). The text names the pairing by its two bot names,
  sorted, so a pairing keeps its deals if the bots are listed in another order.
  A seed is public (anyone with the config can compute it); the deals follow
  from it only together with the results folder's secret
  (:func:`referee.tournament.integrity.deal_key`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import Sequence

from referee.game.rules import Variant

__all__ = ["Pairing", "ScheduledMatch", "build_schedule", "match_seed", "seat_names"]


@dataclasses.dataclass(frozen=True)
class Pairing:
    """Two bots (indices into the config's bot list) that meet."""

    index: int  # 0-based position in the schedule
    a: int
    b: int


@dataclasses.dataclass(frozen=True)
class ScheduledMatch:
    """One match of the schedule."""

    match_id: str
    pairing: Pairing
    number: int  # 0-based index of the match within its pairing
    twin: int | None  # 0-based twin-pair index within the pairing (duplicate only)
    seed: int
    sides: tuple[int, int]  # bot index at side 0 and at side 1
    #: With twins: the ids of both legs of this match's twin pair. Their
    #: transcripts stay private until every leg is recorded (the runner
    #: stages them); empty: no twin whose deals this match's logs could give away.
    twin_ids: tuple[str, ...] = ()
    #: Bot index by seat when a side's two seats hold different bots (mixed partnerships).
    seating: tuple[int, ...] | None = None

    def seats(self, variant: Variant) -> tuple[int, ...]:
        """Bot index by seat: ``(x, y)`` two-player, ``(x, y, x, y)`` partnership (or the mixed seating)."""
        if self.seating is not None:
            return self.seating
        return self.sides if variant is Variant.TWO_PLAYER else self.sides * 2


def match_seed(master: int, a: str, b: str, group: int) -> int:
    """The seed of match group ``group`` (a twin pair, or a single match) of
    the pairing of bots named ``a`` and ``b``.

    48 bits: exact in every JSON reader, including JavaScript's doubles.
    """
    lo, hi = sorted((a, b))
    text = f"spades-referee/match-seed/v1\x00{master}\x00{lo}\x00{hi}\x00{group}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:6], "big")


_SLUG_RE = re.compile(r"[^A-Za-z0-9._+-]+")


def _slug(name: str) -> str:
    return _SLUG_RE.sub("_", name) or "bot"


def build_schedule(names: Sequence[str], pairs: Sequence[tuple[int, int]], per_pairing: int, duplicate: bool,
                   master_seed: int) -> list[ScheduledMatch]:
    """Every match of the pairings ``pairs`` (indices into ``names``), in the
    order they are started (round by round across the pairings).

    Match ids read ``<pairing>-<a>-<b>-<n>``: ``003-random-heuristic-2``, or
    with twins ``003-random-heuristic-1a`` / ``-1b`` (twin pair 1, first and
    second leg). The pairing number keeps ids unique whatever the names.
    """
    if duplicate and per_pairing % 2:
        raise ValueError(f"with duplicate matches come in twins: matches per pairing must be even, "
                         f"got: {per_pairing}")
    out: list[ScheduledMatch] = []
    width = max(3, len(str(max(1, len(names) * (len(names) - 1) // 2))))
    for index, (a, b) in enumerate(pairs):
        pairing = Pairing(index, a, b)
        name_a, name_b = names[a], names[b]
        stem = f"{pairing.index + 1:0{width}d}-{_slug(name_a)}-{_slug(name_b)}"
        for k in range(per_pairing):
            if duplicate:
                twin, leg = divmod(k, 2)
                group = twin
                # Both orders occur within every twin pair; the order of
                # the legs alternates with the twin and the pairing.
                a_first = (twin + pairing.index) % 2 == 0
                a_side0 = a_first if leg == 0 else not a_first
                match_id = f"{stem}-{twin + 1}{'ab'[leg]}"
                twin_ids: tuple[str, ...] = (f"{stem}-{twin + 1}a", f"{stem}-{twin + 1}b")
            else:
                twin, group, twin_ids = None, k, ()
                a_side0 = (k + pairing.index) % 2 == 0
                match_id = f"{stem}-{k + 1}"
            sides = (a, b) if a_side0 else (b, a)
            out.append(ScheduledMatch(match_id, pairing, k, twin, match_seed(master_seed, name_a, name_b, group),
                                      sides, twin_ids))
    # Play order: round by round across pairings (every pairing's first twin
    # pair, then every second one, ...), the two legs of a twin together. Every
    # bot is then playing from the start, so the leader shown while running and
    # the standings of an interrupted run cover all pairings, and long and
    # short pairings mix instead of leaving one slow pairing for the end.
    per_group = 2 if duplicate else 1
    out.sort(key=lambda m: (m.number // per_group, m.pairing.index, m.number))
    return out


def seat_names(match: ScheduledMatch, names: Sequence[str], variant: Variant) -> list[str]:
    """Bot names by seat, as they appear in the match record's ``bots``."""
    return [names[i] for i in match.seats(variant)]
