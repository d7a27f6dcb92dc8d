"""``format: sprt``: is the second bot stronger than the first? Twin pairs until the evidence says.

Two bots, A (first in the config) and B, play twin pairs (same deals, sides
swapped) of one long schedule, as :func:`~referee.tournament.schedule.build_schedule`
makes it for their pairing with ``max_matches`` matches. After each finished
pair the GSPRT (:mod:`referee.tournament.sprt`) is updated with B's pair score;
once its log-likelihood ratio leaves the bounds no new match is started.

The decision is taken on the *prefix* of finished pairs in schedule order: pair
``k`` counts once pairs ``0..k`` have both legs. With several matches at once,
pairs finish out of order; counting prefixes makes the verdict the same
whatever the order (and after a resume). Pairs already running when the test
stops still finish (as in fastchess), and the counts printed include them; the
verdict stays the one reached at the decision.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.tournament.formats.base import FormatOption, Played, TournamentFormat
from referee.tournament.pentanomial import Pentanomial
from referee.tournament.schedule import ScheduledMatch, build_schedule
from referee.tournament.sections import ReportSection
from referee.tournament.sprt import Sprt, Verdict, normalised_elo

if TYPE_CHECKING:
    from referee.tournament.config import TournamentConfig

__all__ = ["SprtFormat", "SprtProgress"]

_Z95 = 1.959963984540054
_PENTA_NAMES = ("LL", "LD", "WL/DD", "WD", "WW")


@dataclasses.dataclass(frozen=True)
class SprtProgress:
    """The test over the finished pairs of a ``done`` mapping."""

    prefix: Pentanomial  # the pairs the decision is taken on
    llr: float  # over ``prefix``
    verdict: Verdict
    decided_at: int | None  # pairs in the prefix when the test stopped (None: not stopped)
    every: Pentanomial  # every finished pair, in or after the prefix


class SprtFormat(TournamentFormat):
    """A sequential test of B (the second bot) against A (the first)."""

    name = "sprt"
    summary = "two bots play twin pairs until a sequential test (SPRT) decides which hypothesis holds"
    uses_matches_per_pairing = False
    options = (
        # Beyond 500 nElo (a t-value of 2 per pair) the likelihood ratio cannot always be
        # computed; tests of close strengths use a few nElo (fishtest: 0 and 2 to 5).
        FormatOption("elo0", float, 0.0, "H0: B is stronger by elo0 normalised Elo (at most)", -500.0, 500.0),
        FormatOption("elo1", float, 5.0, "H1: B is stronger by elo1 normalised Elo (at least)", -500.0, 500.0),
        FormatOption("alpha", float, 0.05, "the chance of accepting H1 when H0 holds", 0.0, 1.0, exclusive=True),
        FormatOption("beta", float, 0.05, "the chance of accepting H0 when H1 holds", 0.0, 1.0, exclusive=True),
        FormatOption("max_matches", int, 1000, "stop undecided after this many matches", 2),
    )

    @classmethod
    def setup_problems(cls, n_bots: int, duplicate: bool, options: Mapping[str, Any],
                       variant: str) -> list[tuple[str, str]]:
        out = []
        if n_bots != 2:
            out.append(("bots", f"format 'sprt' tests one bot against another: give exactly 2 bots, got {n_bots}"))
        if not duplicate:
            out.append(("duplicate", "format 'sprt' counts twin pairs (same deals, seats swapped): "
                                     "duplicate must be true, got: False"))
        if options["elo0"] >= options["elo1"]:
            out.append(("elo1", f"must be more than elo0 (H1 claims more than H0), got: elo0={options['elo0']:g}, "
                                f"elo1={options['elo1']:g}"))
        if options["alpha"] + options["beta"] >= 1:
            out.append(("beta", f"alpha + beta must be less than 1, got: alpha={options['alpha']:g}, "
                                f"beta={options['beta']:g}"))
        if options["max_matches"] % 2:
            out.append(("max_matches", f"must be even (matches come in twin pairs), got: {options['max_matches']}"))
        return out

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__(config)
        opts = config.format_options
        self.test = Sprt(opts["elo0"], opts["elo1"], opts["alpha"], opts["beta"])
        self.names = [b.name for b in config.bots]
        schedule = build_schedule(self.names, [(0, 1)], opts["max_matches"], True, config.seed)
        by_twin: dict[int, list[ScheduledMatch]] = {}
        for match in schedule:
            assert match.twin is not None
            by_twin.setdefault(match.twin, []).append(match)
        self.pairs: list[tuple[ScheduledMatch, ScheduledMatch]] = [
            (legs[0], legs[1]) for _, legs in sorted(by_twin.items())]
        self._ids = frozenset(m.match_id for m in schedule)
        # The walk over finished prefixes, kept between calls: ``done`` only grows in a run.
        self._walked = 0
        self._walk_counts = Pentanomial()
        self._walk_llr = 0.0
        self._walk_decided: int | None = None

    # ------------------------------------------------------------ scoring

    def _b_points(self, match: ScheduledMatch, played: Played) -> float:
        """B's match points (1, 1/2, 0) in one leg."""
        if played.winner is None:
            return 0.5
        return 1.0 if match.sides[played.winner] == 1 else 0.0

    def _pair_points(self, k: int, done: Mapping[str, Played]) -> tuple[float, float] | None:
        first, second = self.pairs[k]
        a, b = done.get(first.match_id), done.get(second.match_id)
        if a is None or b is None:
            return None
        return self._b_points(first, a), self._b_points(second, b)

    def progress(self, done: Mapping[str, Played]) -> SprtProgress:
        """Where the test stands given the finished matches ``done``."""
        if self._walked and self._pair_points(self._walked - 1, done) is None:  # another ``done``: start over
            self._walked, self._walk_counts, self._walk_llr, self._walk_decided = 0, Pentanomial(), 0.0, None
        while self._walk_decided is None and self._walked < len(self.pairs):
            points = self._pair_points(self._walked, done)
            if points is None:
                break
            self._walk_counts = self._walk_counts.add(*points)
            self._walked += 1
            self._walk_llr = self.test.llr(self._walk_counts)
            if self.test.judge(self._walk_llr).decided:
                self._walk_decided = self._walked
        every = self._walk_counts
        for k in range(self._walked, len(self.pairs)):
            points = self._pair_points(k, done)
            if points is not None:
                every = every.add(*points)
        verdict = self.test.judge(self._walk_llr)
        if not verdict.decided and self._walked == len(self.pairs):
            verdict = Verdict.UNDECIDED
        return SprtProgress(self._walk_counts, self._walk_llr, verdict, self._walk_decided, every)

    # ------------------------------------------------------------ the seam

    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        state = self.progress(done)
        if state.decided_at is not None:
            # Stopped: only the second legs of pairs already begun, so no match is left without its twin.
            return [m for pair in self.pairs if any(leg.match_id in done for leg in pair)
                    for m in pair if m.match_id not in done]
        return [m for pair in self.pairs for m in pair if m.match_id not in done]

    def owns(self, match_id: str) -> bool:
        return match_id in self._ids

    def progress_text(self, done: Mapping[str, Played]) -> str:
        state = self.progress(done)
        word = {Verdict.H1: "  H1 accepted", Verdict.H0: "  H0 accepted"}.get(state.verdict, "")
        return f"LLR {state.llr:+.2f} ({self.test.lower:+.2f}, {self.test.upper:+.2f}){word}"

    def standings_sections(self, done: Mapping[str, Played]) -> list[ReportSection]:
        state = self.progress(done)
        a, b = self.names
        t = self.test
        lines = [f"H0: {b} - {a} = {t.elo0:g} nElo; H1: {b} - {a} = {t.elo1:g} nElo; alpha {t.alpha:g}, "
                 f"beta {t.beta:g}; LLR bounds ({t.lower:.2f}, {t.upper:.2f})"]
        lines.append(state.verdict.value.format(a=a, b=b, elo0=t.elo0, elo1=t.elo1, llr=state.llr, lower=t.lower,
                                                upper=t.upper, matches=2 * state.prefix.pairs))
        if state.decided_at is not None:
            lines.append(f"decided after {state.decided_at} twin pairs ({2 * state.decided_at} matches), "
                         f"LLR {state.llr:.2f}")
        every = state.every
        counts = ", ".join(f"{name} {n}" for name, n in zip(_PENTA_NAMES, every.counts))
        lines.append(f"pentanomial counts ({b}'s side, {every.pairs} twin pairs): {counts}")
        data: dict[str, Any] = {
            "elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta, "lower": t.lower, "upper": t.upper,
            "llr": state.llr, "verdict": state.verdict.name, "decided_after_pairs": state.decided_at,
            "pentanomial": list(every.counts), "elo": None, "elo_ci95": None, "nelo": None,
        }
        elo, interval, nelo = every.elo(), every.elo_interval(_Z95), normalised_elo(every)
        if elo is not None and abs(elo) == float("inf"):
            lines.append(f"Elo estimate ({b} - {a}): {'+' if elo > 0 else '-'}inf ({b} "
                         f"{'won' if elo > 0 else 'lost'} every pair: no finite estimate)")
            data.update(elo=_finite(elo))
        elif elo is not None and interval is not None:
            lines.append(f"Elo estimate ({b} - {a}): {elo:+.1f}, 95% interval [{interval[0]:+.1f}, "
                         f"{interval[1]:+.1f}]" + (f"; normalised Elo {nelo:+.1f}" if nelo is not None else ""))
            data.update(elo=_finite(elo), elo_ci95=[_finite(interval[0]), _finite(interval[1])],
                        nelo=None if nelo is None else round(nelo, 2))
        return [ReportSection("sprt", "Sequential test (SPRT on twin pairs)", lines=lines, data=data)]


def _finite(x: float) -> float | str:
    """A number for JSON: +-inf (a perfect score) as text, since JSON has no infinity."""
    return round(x, 2) if abs(x) != float("inf") else ("+inf" if x > 0 else "-inf")
