"""``format: swiss``: ``rounds`` rounds, each pairing bots of equal score; one twin pair per pairing.

A round is paired once every match of the round before has finished:

1. **Order.** Bots are ranked by points, then by their place in the config.
   A pairing's points are the pair score of its twin pair: 1 for winning both
   legs, 1/2 for a split (or two draws), 0 for losing both (3/4 and 1/4 with a draw).
2. **Pairs and bye**, chosen together as one maximum-weight matching
   (:mod:`.swiss_pairing`), by these preferences, each absolute over the next:
   no repeat pairing while avoidable (then as few as possible), and no second
   bye; with an odd number of bots, the bye (a score of 1, a won pair, adding
   nothing to Buchholz) to the lowest-ranked bot that can take it; the smallest
   sum of squared score differences; then rank order: the highest-ranked bot
   meets the highest-ranked partner left to it, and so on down the list.

The standings add the Swiss table: points, **Buchholz** (the sum of the final
points of every opponent met), **Buchholz cut-1** (the same without the lowest
of them, a bye counting as the lowest, 0) and the **twin margin** (own score
minus the opponent's over every leg), in that order of tiebreaks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.tournament.formats.base import FormatOption, Played, TournamentFormat
from referee.tournament.formats.rounds import PairResult, pair_result, possible_ids, round_matches
from referee.tournament.formats.swiss_pairing import pair_round
from referee.tournament.schedule import ScheduledMatch
from referee.tournament.sections import ReportSection

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig

__all__ = ["Swiss", "SwissRound", "pair_round"]

class SwissRound:
    """One round as paired: its matches by pairing, and the bye."""

    def __init__(self, number: int, pairs: list[tuple[int, int]], bye: int | None, matches: list[ScheduledMatch]):
        self.number, self.pairs, self.bye = number, pairs, bye
        self.by_pairing: list[list[ScheduledMatch]] = [[m for m in matches if m.pairing.index == i]
                                                       for i in range(len(pairs))]
        self.matches = matches


class Swiss(TournamentFormat):
    """Rounds of pairings between bots of equal score (see the module docstring)."""

    name = "swiss"
    summary = "rounds of pairings between bots of equal score, one twin pair each"
    uses_matches_per_pairing = False
    options = (FormatOption("rounds", int, None, "how many rounds (default: ceil(log2(bots)), at least 1)", 1,
                            nullable=True),)

    @classmethod
    def setup_problems(cls, n_bots: int, duplicate: bool, options: Mapping[str, Any],
                       variant: str) -> list[tuple[str, str]]:
        if not duplicate:
            return [("duplicate", "format 'swiss' plays one twin pair per pairing: duplicate must be true, "
                                  "got: False")]
        return []

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__(config)
        self.names = [b.name for b in config.bots]
        chosen = config.format_options.get("rounds")
        self.rounds: int = chosen if chosen is not None else max(1, math.ceil(math.log2(len(self.names))))
        self._ids = frozenset(possible_ids(self.names, self.rounds, 1))
        self._paired: list[SwissRound] = []

    # ------------------------------------------------------------ rounds

    def _results(self, rounds: Sequence[SwissRound], done: Mapping[str, Played]) -> list[PairResult]:
        out = []
        for rnd in rounds:
            for matches in rnd.by_pairing:
                result = pair_result(matches, done)
                if result is not None:
                    out.append(result)
        return out

    def _table(self, rounds: Sequence[SwissRound], done: Mapping[str, Played]) -> dict[str, list[Any]]:
        """Per bot (by index): points, opponents with their pair points, margin."""
        n = len(self.names)
        points = [0.0] * n
        margin = [0] * n
        opponents: list[list[int | None]] = [[] for _ in range(n)]
        for r in self._results(rounds, done):
            points[r.a] += r.points_a
            points[r.b] += 1 - r.points_a
            margin[r.a] += r.margin_a
            margin[r.b] -= r.margin_a
            opponents[r.a].append(r.b)
            opponents[r.b].append(r.a)
        for rnd in rounds:
            if rnd.bye is not None:
                points[rnd.bye] += 1.0
                opponents[rnd.bye].append(None)
        return {"points": points, "margin": margin, "opponents": opponents}

    def paired_rounds(self, done: Mapping[str, Played]) -> list[SwissRound]:
        """The rounds paired so far: each once the one before it has finished."""
        while len(self._paired) < self.rounds:
            if self._paired and any(m.match_id not in done for m in self._paired[-1].matches):
                break
            number = len(self._paired) + 1
            table = self._table(self._paired, done)
            order = sorted(range(len(self.names)), key=lambda i: (-table["points"][i], i))
            met = {i: {o for o in table["opponents"][i] if o is not None} for i in range(len(self.names))}
            byes = {rnd.bye for rnd in self._paired if rnd.bye is not None}
            pairs, bye = pair_round(order, met, byes, dict(enumerate(table["points"])))
            # Each pairing in config order, so the match id does not depend on who ranked higher.
            pairs = [(min(p), max(p)) for p in pairs]
            self._paired.append(SwissRound(number, pairs, bye,
                                           round_matches(self.names, number, pairs, 1, self.config.seed)))
        return self._paired

    # ------------------------------------------------------------ the seam

    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        for rnd in self.paired_rounds(done):
            left = [m for m in rnd.matches if m.match_id not in done]
            if left:
                return left
        return []

    def owns(self, match_id: str) -> bool:
        return match_id in self._ids

    def expected_total(self) -> int:
        return self.rounds * (len(self.names) // 2) * 2

    def progress_text(self, done: Mapping[str, Played]) -> str:
        rounds = self.paired_rounds(done)
        return f"round {len(rounds)}/{self.rounds}" if rounds else ""

    def standings(self, done: Mapping[str, Played]) -> list[dict[str, Any]]:
        """The Swiss table, ranked by points, Buchholz, Buchholz cut-1, twin margin, then config order."""
        rounds = self.paired_rounds(done)
        table = self._table(rounds, done)
        points = table["points"]
        rows = []
        for i, name in enumerate(self.names):
            opp = [points[o] if o is not None else 0.0 for o in table["opponents"][i]]
            buchholz = sum(opp)
            cut1 = buchholz - min(opp) if opp else 0.0
            rows.append({"bot": name, "points": points[i], "buchholz": buchholz, "buchholz_cut1": cut1,
                         "twin_margin": table["margin"][i], "byes": table["opponents"][i].count(None),
                         "index": i})
        rows.sort(key=lambda r: (-r["points"], -r["buchholz"], -r["buchholz_cut1"], -r["twin_margin"], r["index"]))
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
            del row["index"]
        return rows

    def standings_sections(self, done: Mapping[str, Played]) -> list[ReportSection]:
        rows = self.standings(done)
        rounds = self.paired_rounds(done)
        finished = sum(1 for rnd in rounds if all(m.match_id in done for m in rnd.matches))
        lines = [f"{finished} of {self.rounds} rounds finished. Points: pair score of each round's twin pair "
                 "(1 both won, 1/2 split), a bye 1. Ties broken by Buchholz (opponents' points), Buchholz cut-1 "
                 "(without the lowest), then twin margin (own score minus opponent's)."]
        for rnd in rounds:
            pairs = ", ".join(f"{self.names[a]}-{self.names[b]}" for a, b in rnd.pairs)
            bye = f"; bye {self.names[rnd.bye]}" if rnd.bye is not None else ""
            lines.append(f"round {rnd.number}: {pairs}{bye}")
        table = [[str(r["rank"]), r["bot"], f"{r['points']:g}", f"{r['buchholz']:g}", f"{r['buchholz_cut1']:g}",
                  f"{r['twin_margin']:+d}"] for r in rows]
        data = {"rounds": self.rounds, "finished_rounds": finished, "table": rows,
                "pairings": [{"round": rnd.number, "pairs": [[self.names[a], self.names[b]] for a, b in rnd.pairs],
                              "bye": None if rnd.bye is None else self.names[rnd.bye]} for rnd in rounds]}
        return [ReportSection("swiss", "Swiss standings", ("Rank", "Bot", "Points", "Buchholz", "Buchholz cut-1",
                                                          "Twin margin"), table, lines, data)]
