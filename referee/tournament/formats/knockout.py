"""``format: knockout``: a seeded single-elimination bracket; each tie is one or more twin pairs.

* **Seeds** come from the config's order (``seeding: config``, the default) or
  from the Elo ratings of a previous tournament (``seeding: ratings`` with
  ``from: <its results folder>``): best rated first, bots it did not have after
  them in config order. The order is computed once and kept in the results folder
  (``seeding.json``), so a resumed knockout keeps its bracket even if the previous
  tournament has grown since (a ``--fresh`` run reads the ratings again).
* **Bracket.** The field is padded to a power of two with byes, placed so that
  seed 1 meets the lowest seed, and seeds 1 and 2 can meet only in the final
  (the usual 1-8, 4-5, 2-7, 3-6 order). A bye sends its bot through unplayed.
* **A tie** is ``matches_per_pairing`` matches (twin pairs: same deals, seats
  swapped). It is won by the bot with more match points (a draw is half); when
  they are level, by the larger total score margin over the tie's matches; when
  that is level too, by the higher seed. A tie starts as soon as both of its
  bots are known, so later rounds overlap earlier ones' stragglers.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.tournament.formats.base import FormatOption, Played, TournamentFormat
from referee.tournament.formats.rounds import PairResult, pair_result, possible_ids, round_matches
from referee.tournament.ratings import Estimate, Kind
from referee.tournament.schedule import ScheduledMatch
from referee.tournament.sections import ReportSection
from referee.tournament.standings import StandingsBuilder

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig

__all__ = ["Knockout", "Tie", "bracket_order"]

SEEDING_FILE = "seeding.json"


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) by bracket slot for a power-of-two ``size``: 8 -> 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    return order


class Tie:
    """One tie of the bracket: its two entrants (bot indices, None for a bye) and, once played, its result."""

    def __init__(self, round_no: int, index: int, a: int | None, b: int | None):
        self.round_no, self.index, self.a, self.b = round_no, index, a, b
        self.matches: list[ScheduledMatch] = []
        self.result: PairResult | None = None
        self.winner: int | None = None
        self.how = ""  # why the winner won: "points", "margin", "seed", "bye"


def _ratings_order(folder: Path, names: Sequence[str]) -> list[str]:
    """``names`` best rated first by the Elo of the records in ``folder/matches.jsonl``; unrated ones last."""
    records = []
    with open(folder / "matches.jsonl", "rb") as fh:
        for raw in fh:
            try:
                record = json.loads(raw)
            except ValueError:  # a torn or foreign line: the ratings come from the others
                continue
            if isinstance(record, dict) and isinstance(record.get("match"), str):
                records.append(record)
    # Records of mixed partnerships (two different bots on a side) rate each bot from its teams' results.
    mixed = any(isinstance(r.get("bots"), list) and len(r["bots"]) == 4
                and (r["bots"][0] != r["bots"][2] or r["bots"][1] != r["bots"][3]) for r in records)
    builder = StandingsBuilder(list(names), mixed=mixed)
    for record in records:
        builder.add(record)
    # A bot that won (or lost) every game has a bound, not a value: it ranks beyond every estimate.
    rating = {row["bot"]: Estimate(Kind(row["elo"]["kind"]), row["elo"]["value"], row["elo"]["low"],
                                   row["elo"]["high"]).sort_value()
              for row in builder.report().bots if row["matches"] and row["elo"]["kind"] != Kind.NONE.value}
    rated = sorted((n for n in names if rating.get(n) is not None), key=lambda n: -rating[n])
    return rated + [n for n in names if rating.get(n) is None]


class Knockout(TournamentFormat):
    """Single elimination over a seeded bracket (see the module docstring)."""

    name = "knockout"
    summary = "a seeded single-elimination bracket; each tie is one or more twin pairs"
    options = (
        FormatOption("seeding", str, "config", "where the seeds come from: the config's order, or ratings",
                     choices=("config", "ratings")),
        FormatOption("from", str, None, "with seeding: ratings, the results folder whose Elo ratings seed the bracket",
                     nullable=True, is_path=True),
    )

    @classmethod
    def setup_problems(cls, n_bots: int, duplicate: bool, options: Mapping[str, Any],
                       variant: str) -> list[tuple[str, str]]:
        out = []
        if not duplicate:
            out.append(("duplicate", "format 'knockout' plays each tie as twin pairs: duplicate must be true, "
                                     "got: False"))
        if options["seeding"] == "ratings":
            if options["from"] is None:
                out.append(("from", "seeding: ratings needs 'from', the results folder of a previous tournament "
                                    "whose ratings seed the bracket (e.g. from: results/league)"))
            elif not (Path(options["from"]) / "matches.jsonl").is_file():
                out.append(("from", f"no matches.jsonl in {options['from']!r}: give the results folder of a "
                                    "previous tournament"))
        elif options["from"] is not None:
            out.append(("from", "has no meaning with seeding: config; remove it, or set seeding: ratings"))
        return out

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__(config)
        self.names = [b.name for b in config.bots]
        self.size = 1
        while self.size < len(self.names):
            self.size *= 2
        self.n_rounds = self.size.bit_length() - 1
        self.twin_pairs = config.matches_per_pairing // 2  # duplicate is true (setup_problems)
        self._ids = frozenset(possible_ids(self.names, self.n_rounds, self.twin_pairs))
        self._seeds: list[int] | None = None

    # ------------------------------------------------------------ seeds

    def seeds(self) -> list[int]:
        """Bot indices, seed 1 first: the config's order, or the ratings order kept in the results folder
        (computed from ``from`` while none is kept)."""
        if self._seeds is None:
            if self.config.format_options.get("seeding") == "ratings":
                self._seeds = [self.names.index(n) for n in self._kept_order() or self._ratings()]
            else:
                self._seeds = list(range(len(self.names)))
        return self._seeds

    def _ratings(self) -> list[str]:
        return _ratings_order(Path(self.config.format_options["from"]), self.names)

    def _kept_order(self) -> list[str] | None:
        try:
            order = json.loads((self.config.output / SEEDING_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(order, list) and sorted(map(str, order)) == sorted(self.names):
            return [str(n) for n in order]
        return None

    def _keep_seeds(self) -> None:
        """Write the ratings order into the results folder once a run uses it (the runner has prepared the folder)."""
        if self.config.format_options.get("seeding") != "ratings" or self._kept_order() is not None:
            return
        if not (self.config.output / "config.yaml").is_file():  # not in a prepared results folder: keep nothing
            return
        kept = self.config.output / SEEDING_FILE
        fd, tmp = tempfile.mkstemp(dir=kept.parent, prefix=f".{kept.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump([self.names[i] for i in self.seeds()], fh)
        os.replace(tmp, kept)

    # ------------------------------------------------------------ the bracket

    def bracket(self, done: Mapping[str, Played]) -> list[list[Tie]]:
        """Every round's ties as far as the results in ``done`` decide them."""
        seeds = self.seeds()
        seed_no = {bot: i + 1 for i, bot in enumerate(seeds)}
        slots: list[int | None] = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(self.size)]
        rounds: list[list[Tie]] = []
        # ``-1`` marks an entrant not known yet (its tie is unfinished).
        entrants: list[int | None] = slots
        for round_no in range(1, self.n_rounds + 1):
            ties = [Tie(round_no, k, entrants[2 * k], entrants[2 * k + 1]) for k in range(len(entrants) // 2)]
            for tie in ties:
                self._decide(tie, done, seed_no)
            rounds.append(ties)
            entrants = [t.winner if t.winner is not None else (None if t.how == "empty" else -1) for t in ties]
        return rounds

    def _decide(self, tie: Tie, done: Mapping[str, Played], seed_no: Mapping[int, int]) -> None:
        a, b = tie.a, tie.b
        if a == -1 or b == -1:
            tie.how = "waiting"
            return
        if a is None or b is None:
            tie.winner, tie.how = (a if b is None else b), ("bye" if (a, b) != (None, None) else "empty")
            return
        lo, hi = sorted((a, b))
        tie.matches = round_matches(self.names, tie.round_no, [(lo, hi)], self.twin_pairs, self.config.seed)
        tie.result = pair_result(tie.matches, done)
        if tie.result is None:
            tie.how = "playing"
            return
        r = tie.result
        if r.points_a != 0.5:
            tie.winner, tie.how = (r.a if r.points_a > 0.5 else r.b), "points"
        elif r.margin_a != 0:
            tie.winner, tie.how = (r.a if r.margin_a > 0 else r.b), "margin"
        else:
            tie.winner, tie.how = min((r.a, r.b), key=lambda x: seed_no[x]), "seed"

    # ------------------------------------------------------------ the seam

    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        self._keep_seeds()
        return [m for ties in self.bracket(done) for tie in ties if tie.how == "playing"
                for m in tie.matches if m.match_id not in done]

    def owns(self, match_id: str) -> bool:
        return match_id in self._ids

    def expected_total(self) -> int:
        # Every tie but the byes is played in full: one bot goes out per tie.
        return (len(self.names) - 1) * self.twin_pairs * 2

    def progress_text(self, done: Mapping[str, Played]) -> str:
        rounds = self.bracket(done)
        current = next((i + 1 for i, ties in enumerate(rounds) if any(t.how in ("playing", "waiting") for t in ties)),
                       None)
        return f"round {current}/{self.n_rounds}" if current else ""

    @staticmethod
    def round_name(round_no: int, n_rounds: int) -> str:
        left = n_rounds - round_no
        return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round {round_no}")

    def standings_sections(self, done: Mapping[str, Played]) -> list[ReportSection]:
        rounds = self.bracket(done)
        seed_no = {bot: i + 1 for i, bot in enumerate(self.seeds())}
        final = rounds[-1][0]

        def who(bot: int | None) -> str:
            if bot is None:
                return "(bye)"
            if bot == -1:
                return "(to be decided)"
            return f"{self.names[bot]} ({seed_no[bot]})"

        def label(tie: Tie) -> str:
            head = f"{self.round_name(tie.round_no, self.n_rounds)}: "
            if tie.how in ("waiting", "playing"):
                return head + f"{who(tie.a)} v {who(tie.b)}, " + ("playing" if tie.how == "playing" else "waiting")
            if tie.how == "bye":
                return head + f"{who(tie.winner)} through on a bye"
            assert tie.result is not None and tie.winner is not None
            r = tie.result
            loser = r.b if tie.winner == r.a else r.a
            pts = r.points_a * 2 * r.pairs if tie.winner == r.a else (1 - r.points_a) * 2 * r.pairs
            margin = r.margin_a if tie.winner == r.a else -r.margin_a
            why = {"points": "", "margin": ", level on points: by margin", "seed": ", level: by seed"}[tie.how]
            return (head + f"{who(tie.winner)} beat {who(loser)} {pts:g}-{2 * r.pairs - pts:g} "
                           f"(margin {margin:+d}{why})")

        lines: list[str] = []

        def walk(round_index: int, k: int, prefix: str, last: bool, top: bool) -> None:
            tie = rounds[round_index][k]
            if tie.how == "empty":
                return
            branch = "" if top else ("└── " if last else "├── ")
            lines.append(prefix + branch + label(tie))
            if round_index == 0 or tie.how == "bye" and tie.round_no == 1:
                return
            inner = prefix + ("" if top else ("    " if last else "│   "))
            children = [c for c in (2 * k, 2 * k + 1) if rounds[round_index - 1][c].how not in ("empty",)]
            for j, c in enumerate(children):
                walk(round_index - 1, c, inner, j == len(children) - 1, False)

        champion = final.winner if final.how in ("points", "margin", "seed", "bye") else None
        lines.append(f"champion: {who(champion)}" if champion is not None else "champion: to be decided")
        walk(len(rounds) - 1, 0, "", True, True)
        lines.append("A tie is won on match points, then on total score margin, then by the higher seed.")
        data = {"seeds": [self.names[b] for b in self.seeds()],
                "champion": None if champion is None else self.names[champion],
                "ties": [{"round": t.round_no, "a": None if t.a in (None, -1) else self.names[t.a],
                          "b": None if t.b in (None, -1) else self.names[t.b],
                          "winner": None if t.winner is None else self.names[t.winner], "decided_by": t.how}
                         for ties in rounds for t in ties if t.how != "empty"]}
        return [ReportSection("bracket", "Knockout bracket", lines=lines, data=data)]
