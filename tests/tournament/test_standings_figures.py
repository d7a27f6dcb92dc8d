"""Every new standings figure recomputed from the records by code written here, not the module's.

Draws, forfeits, perfect and null scores, twin pairs and tied bots; the interval methods
are re-derived from their definitions (a profile likelihood found by bisection, the
pentanomial pair variance, the one-sided bound of a perfect score).
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.tournament import standings_command
from referee.tournament.standings import StandingsBuilder, render

Z = 1.959963984540054  # two-sided 95%
Z1 = 1.6448536269514722  # one-sided 95%
K = math.log(10) / 400


def expected(d: float) -> float:
    return 1 / (1 + 10 ** (-d / 400))


def loglik(n: float, s: float, d: float) -> float:
    p = expected(d)
    return s * math.log(p) + (n - s) * math.log(1 - p)


def root(f: Any, a: float, b: float) -> float:
    """Bisection: f(a) < 0 <= f(b)."""
    for _ in range(200):
        mid = (a + b) / 2
        if f(mid) < 0:
            a = mid
        else:
            b = mid
    return (a + b) / 2


def profile_two(n: float, s: float, scale: float = 1.0) -> tuple[float, float, float]:
    """MLE and 95% likelihood interval of the difference of two bots (n games, s points)."""
    d = 400 * math.log10(s / (n - s))
    best = loglik(n, s, d)
    g = lambda t: scale * 2 * (best - loglik(n, s, t)) - Z * Z  # noqa: E731
    return d, root(lambda t: -g(t), d - 3000, d), root(g, d, d + 3000)


def record(match: str, bots: list[str], winner: int | None, *, seed: int | None = None,
           hands: list[dict[str, Any]] | None = None, reason: str | None = None,
           stats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    score = [500, 100] if winner == 0 else [100, 500] if winner == 1 else [300, 300]
    out = {"match": match, "variant": "two-player", "bots": bots, "hands": hands or [], "score": score,
           "winner": winner, "reason": reason or ("target" if winner is not None else "max_hands"),
           "faults": [], "seconds": 1.0, "stats": stats or []}
    if seed is not None:
        out["seed"] = seed
    return out


def report_of(records: list[dict[str, Any]], names: tuple[str, ...]) -> Any:
    builder = StandingsBuilder(names)
    for r in records:
        assert builder.add(r), builder.warnings
    return builder.report()


def row(report: Any, name: str) -> dict[str, Any]:
    return next(r for r in report.bots if r["bot"] == name)


def series(a: str, b: str, results: str, start: int = 0) -> list[dict[str, Any]]:
    """Matches of a against b, seats alternating: 'w' a won, 'l' a lost, 'd' drawn, 'f' a won by forfeit."""
    out = []
    for k, ch in enumerate(results):
        seats = [a, b] if k % 2 == 0 else [b, a]
        a_side = seats.index(a)
        winner = None if ch == "d" else (a_side if ch in "wf" else 1 - a_side)
        out.append(record(f"{a}{b}{start + k}", seats, winner, reason="forfeit" if ch == "f" else None))
    return out


def test_interval_is_the_profile_likelihood_with_draws() -> None:
    # A: 3 wins, 1 loss, 1 draw against B, no prior: the likelihood in the difference alone.
    report = report_of(series("A", "B", "wlwdw"), ("A", "B"))
    d, lo, hi = profile_two(5, 3.5)
    diff = report.compare("A", "B")["difference"]
    assert diff["kind"] == "estimate"
    assert (diff["value"], diff["low"], diff["high"]) == (pytest.approx(d), pytest.approx(lo, abs=1e-4),
                                                          pytest.approx(hi, abs=1e-4))
    assert hi - d > d - lo  # asymmetric, as the likelihood is
    a = row(report, "A")["elo"]  # against the mean of two: half the difference
    assert (a["value"], a["low"], a["high"]) == (pytest.approx(d / 2), pytest.approx(lo / 2, abs=1e-4),
                                                 pytest.approx(hi / 2, abs=1e-4))
    # LOS from the Fisher information of the difference: sd^2 = 1 / (K^2 n p q).
    sd = 1 / math.sqrt(K * K * 5 * 0.7 * 0.3)
    assert report.compare("A", "B")["los"] == pytest.approx(statistics.NormalDist().cdf(d / sd), abs=1e-9)


def test_perfect_and_null_scores_are_one_sided_bounds_including_forfeits() -> None:
    # A wins all 4 against B (two by forfeit), so no number can be put on A - B.
    report = report_of(series("A", "B", "wfwf"), ("A", "B"))
    p = math.exp(-Z1 * Z1 / 2 / 4)  # the lowest p with p^4 within the one-sided 95% likelihood drop
    bound = 400 * math.log10(p / (1 - p))
    a = row(report, "A")["elo"]
    assert a["kind"] == "lower bound" and a["value"] is None and a["low"] == pytest.approx(bound, abs=1e-6)
    assert row(report, "B")["elo"]["value"] == 0.0  # the one bot the fit can place is the anchor
    table = render(report, "table")
    assert f"> {bound:+.0f}" in table  # "> +158"
    diff = report.compare("B", "A")["difference"]
    assert diff["kind"] == "upper bound" and diff["high"] == pytest.approx(-bound, abs=1e-6)

    # Three placed bots and one that beat them all, one that lost to them all.
    records = (series("B", "C", "wwl") + series("C", "E", "wld") + series("B", "E", "dw")
               + series("A", "B", "ww", 10) + series("A", "C", "www", 20)
               + series("D", "B", "ll", 30) + series("D", "E", "lll", 40))
    report = report_of(records, ("A", "B", "C", "D", "E"))
    core = {n: row(report, n)["elo"]["value"] for n in "BCE"}
    assert sum(core.values()) == pytest.approx(0, abs=1e-6)
    # The core's fit, checked by its score equations: expected points equal the points scored.
    for name, games in (("B", [("C", 3, 2), ("E", 2, 1.5)]), ("C", [("B", 3, 1), ("E", 3, 1.5)])):
        got = sum(n * expected(core[name] - core[o]) for o, n, _ in games)
        assert got == pytest.approx(sum(s for *_, s in games), abs=1e-6)
    # The bound: where the log-likelihood of the perfect record, the others held at their
    # ratings, has fallen by Z1^2 / 2 from its supremum (0, at infinity).
    a_bound = root(lambda t: 2 * math.log(expected(t - core["B"])) + 3 * math.log(expected(t - core["C"]))
                   + Z1 * Z1 / 2, -3000, 3000)
    d_bound = root(lambda t: -(2 * math.log(expected(core["B"] - t)) + 3 * math.log(expected(core["E"] - t))
                               + Z1 * Z1 / 2), -3000, 3000)
    assert row(report, "A")["elo"]["kind"] == "lower bound" and row(report, "A")["elo"]["low"] == pytest.approx(
        a_bound, abs=1e-6)
    assert row(report, "D")["elo"]["kind"] == "upper bound" and row(report, "D")["elo"]["high"] == pytest.approx(
        d_bound, abs=1e-6)
    assert [r["bot"] for r in report.bots][0] == "A" and report.bots[-1]["bot"] == "D"


def twin_records(legs: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """Twin pairs of A and B: A's points in leg 1 (A in seat 0) and in leg 2 (seats swapped)."""
    out = []
    for k, (first, second) in enumerate(legs):
        w1 = None if first == 0.5 else (0 if first == 1 else 1)
        w2 = None if second == 0.5 else (1 if second == 1 else 0)
        out += [record(f"t{k}a", ["A", "B"], w1, seed=100 + k), record(f"t{k}b", ["B", "A"], w2, seed=100 + k)]
    return out


def test_twin_pairs_score_interval_and_elo_from_the_pair_variance() -> None:
    legs = [(1, 0), (1, 0), (1, 0), (1, 1), (1, 1), (0.5, 0), (0, 0), (1, 0.5), (0.5, 0.5), (0, 1)]
    report = report_of(twin_records(legs), ("A", "B"))
    pair_scores = [(x + y) / 2 for x, y in legs]
    n = len(pair_scores)
    mean, var = statistics.fmean(pair_scores), statistics.pvariance(pair_scores)
    half = Z * math.sqrt(var / n)
    a = row(report, "A")
    assert a["win_ci_method"] == "twin pairs"
    # Wilson's interval at the effective number of matches mean (1 - mean) / (var / n).
    m = mean * (1 - mean) / (var / n)
    centre = (mean + Z * Z / (2 * m)) / (1 + Z * Z / m)
    w = Z * math.sqrt(mean * (1 - mean) / m + Z * Z / (4 * m * m)) / (1 + Z * Z / m)
    assert a["win_ci95"] == [pytest.approx(100 * (centre - w)), pytest.approx(100 * (centre + w))]
    [twin] = report.twins
    assert twin["a_score"] == pytest.approx(mean) and twin["a_score_ci95"] == [pytest.approx(mean - half),
                                                                                 pytest.approx(mean + half)]
    to_elo = lambda s: 400 * math.log10(s / (1 - s))  # noqa: E731
    assert (twin["a_elo"]["value"], twin["a_elo"]["low"], twin["a_elo"]["high"]) == (
        pytest.approx(to_elo(mean)), pytest.approx(to_elo(mean - half)), pytest.approx(to_elo(mean + half)))
    assert twin["pentanomial"] == [1, 1, 5, 1, 2]  # lost both, drew+lost, level, won+drew, won both
    # The pool's difference: the profile likelihood of the 2n matches, its ratio scaled by
    # model variance / pair variance = N p q / sum (2 s - 2 p)^2 (N matches, p the score),
    # the pair variance with the small-sample factor n / (n - 1) (n pairs, 1 free parameter).
    matches, points = 2 * n, sum(x + y for x, y in legs)
    p = points / matches
    scale = matches * p * (1 - p) / (sum((2 * s - 2 * p) ** 2 for s in pair_scores) * n / (n - 1))
    d, lo, hi = profile_two(matches, points, scale)
    diff = report.compare("A", "B")["difference"]
    assert (diff["value"], diff["low"], diff["high"]) == (pytest.approx(d), pytest.approx(lo, abs=1e-4),
                                                          pytest.approx(hi, abs=1e-4))
    # Without twins (no seeds) the same results give the per-match interval.
    plain = [dict(r, seed=None) for r in twin_records(legs)]
    for r in plain:
        del r["seed"]
    single = report_of(plain, ("A", "B")).compare("A", "B")["difference"]
    _, lo1, hi1 = profile_two(matches, points)
    assert (single["low"], single["high"]) == (pytest.approx(lo1, abs=1e-4), pytest.approx(hi1, abs=1e-4))


def test_a_pairing_that_won_every_twin_pair_is_a_bound() -> None:
    report = report_of(twin_records([(1, 1)] * 3 + [(1, 0.5)]), ("A", "B"))
    [twin] = report.twins
    # 3.5 of 4 pairs is not perfect: an estimate. All 4 pairs won: a bound, each pair one game.
    assert twin["a_elo"]["kind"] == "estimate"
    report = report_of(twin_records([(1, 1)] * 4), ("A", "B"))
    [twin] = report.twins
    p = math.exp(-Z1 * Z1 / 2 / 4)
    assert twin["a_elo"]["kind"] == "lower bound"
    assert twin["a_elo"]["low"] == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)


def test_bounds_rank_by_their_bound_and_tie_only_with_an_equal_one() -> None:
    # S beats everyone, H everyone but S, J only the two randoms, who split: three bounds
    # above the one pair the results can place. They are not tied: S beat H, H beat J.
    records = (series("S", "H", "ww") + series("S", "J", "ww", 10) + series("S", "R", "ww", 20)
               + series("S", "Q", "ww", 30) + series("H", "J", "ww", 40) + series("H", "R", "ww", 50)
               + series("H", "Q", "ww", 60) + series("J", "R", "ww", 70) + series("J", "Q", "ww", 80)
               + series("R", "Q", "wl", 90))
    report = report_of(records, ("S", "H", "J", "R", "Q"))
    assert [(r["bot"], r["rank"], r["tied"]) for r in report.bots] == [
        ("S", 1, False), ("H", 2, False), ("J", 3, False), ("R", 4, True), ("Q", 4, True)]
    assert [r["elo"]["kind"] for r in report.bots[:3]] == ["lower bound"] * 3


def test_tied_bots_share_a_rank() -> None:
    records = series("A", "B", "wwwl") + series("A", "C", "wlww", 10) + series("B", "C", "wlwl", 20)
    # B and C: the same results against A and level with each other, so the same rating.
    report = report_of(records, ("A", "B", "C"))
    assert [(r["bot"], r["rank"], r["tied"]) for r in report.bots] == [("A", 1, False), ("B", 2, True),
                                                                         ("C", 2, True)]
    lines = render(report, "table").splitlines()
    assert sum(line.startswith("2=") for line in lines) == 2 and not any(line.startswith("3 ") for line in lines)
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert [(r["rank"], r["tied"]) for r in rows] == [("1", "0"), ("2", "1"), ("2", "1")]
    assert row(report, "B")["los_next"] == pytest.approx(0.5)


def hand(number: int, bids: list[int], tricks: list[int]) -> dict[str, Any]:
    return {"hand": number, "first": 0, "bids": bids, "blind": [False, False], "tricks": tricks,
            "points": [0, 0], "score": [0, 0], "bags": [0, 0]}


def points(bid: int, took: int) -> int:
    """Two-player hand points by the rules (no nil, bags far from the limit)."""
    return 10 * bid + (took - bid) if took >= bid else -10 * bid


def test_twin_margin_over_common_hands_and_points_per_hand() -> None:
    # Leg 1 (A in seat 0) lasted 3 hands, leg 2 (seats swapped) 2; the third is left out.
    leg1 = [([4, 4], [7, 6]), ([3, 5], [2, 11]), ([2, 2], [9, 4])]
    leg2 = [([5, 3], [6, 7]), ([4, 4], [4, 9])]  # seat 0 is B here
    records = [record("x1", ["A", "B"], 0, seed=5, hands=[hand(k + 1, b, t) for k, (b, t) in enumerate(leg1)]),
               record("x2", ["B", "A"], 0, seed=5, hands=[hand(k + 1, b, t) for k, (b, t) in enumerate(leg2)])]
    report = report_of(records, ("A", "B"))
    a_margin = [points(b[0], t[0]) - points(b[1], t[1]) for b, t in leg1[:2]]  # A is seat 0
    a_margin += [points(b[1], t[1]) - points(b[0], t[0]) for b, t in leg2]  # A is seat 1
    [twin] = report.twins
    assert twin["hands"] == 2 and twin["a_margin_per_hand"] == pytest.approx(sum(a_margin) / 2)
    assert row(report, "A")["twin_pairs"]["margin_per_hand"] == pytest.approx(sum(a_margin) / 2)
    a_points = [points(b[0], t[0]) for b, t in leg1] + [points(b[1], t[1]) for b, t in leg2]
    per_hand = row(report, "A")["points_per_hand"]
    assert per_hand == {"mean": pytest.approx(statistics.fmean(a_points)), "median": statistics.median(a_points)}


def test_values_are_rounded_once_from_full_precision() -> None:
    # A 26.153 ms mean rounded twice (26.15, then 26.1) reads 26.1; once, it is 26.2.
    stats = [{"decisions": 1000, "mean_ms": 26.153, "max_ms": 40.0}] * 2
    records = [dict(r, stats=stats) for r in series("A", "B", "wwlwdwl")]
    report = report_of(records, ("A", "B"))
    data = json.loads(render(report, "json"))
    a = next(r for r in data["bots"] if r["bot"] == "A")
    assert a["win_pct"] == 100 * 4.5 / 7 and a["decision_ms_mean"] == pytest.approx(26.153)  # full precision
    table = render(report, "table")
    assert "26.2" in table and "26.1 " not in table
    rows = {r["bot"]: r for r in csv.DictReader(io.StringIO(render(report, "csv")))}
    for bot in data["bots"]:
        line = next(line for line in table.splitlines() if f" {bot['bot']} " in f" {line} " and "-" in line)
        assert f"{bot['win_pct']:.1f}" in line and f"{bot['elo']['value']:+.0f}" in line
        assert rows[bot["bot"]]["elo"] == f"{bot['elo']['value']:.1f}"
        assert rows[bot["bot"]]["win_pct"] == f"{bot['win_pct']:.1f}"


def test_compare_command(tmp_path: Path) -> None:
    records = series("A", "B", "wlwdw") + series("B", "C", "wwlw", 10)
    (tmp_path / "matches.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(standings_command, [str(tmp_path), "--compare", "A", "C"])
    assert result.exit_code == 0, result.output
    report = report_of(records, ())
    diff = report.compare("A", "C")["difference"]
    assert f"{diff['value']:+.0f}" in result.output and f"[{diff['low']:+.0f}, {diff['high']:+.0f}]" in result.output
    assert f"{100 * report.compare('A', 'C')['los']:.1f}%" in result.output and "never met" in result.output
    # stdout alone: the warning that these hand-made records carry no integrity check goes to stderr.
    data = json.loads(CliRunner().invoke(standings_command, [str(tmp_path), "--compare", "A", "B", "--format",
                                                             "json"]).stdout)
    assert data["head_to_head"] == [3, 1, 1]
    bad = CliRunner().invoke(standings_command, [str(tmp_path), "--compare", "A", "Z"])
    assert bad.exit_code == 2 and "'Z'" in bad.output and "A, B, C" in bad.output or "B, A, C" in bad.output


def worked_example() -> Any:
    records = (series("strong", "heuristic", "wwww") + series("strong", "sparring", "wwww", 10)
               + series("strong", "random", "wwww", 20) + series("heuristic", "sparring", "wlwl", 30)
               + series("heuristic", "random", "wwdl", 40) + series("sparring", "random", "wwdl", 50))
    return report_of(records, ("random", "sparring", "heuristic", "strong"))


def test_the_worked_example_of_the_docs() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "standings.md").read_text()
    block = doc.split("<!-- worked-example -->\n```\n", 1)[1].split("```", 1)[0]
    report = worked_example()
    table = render(report, "table")
    printed = table.split("\nStandings\n", 1)[1].split("\n\n", 1)[0] + "\n"
    assert block == printed
    # Recomputed by hand: heuristic = sparring by symmetry; 4 p(0) + 4 p(d) = 4.5 against random.
    d = 400 * math.log10(2.5 / 1.5)
    h, r = row(report, "heuristic")["elo"]["value"], row(report, "random")["elo"]["value"]
    assert (h, row(report, "sparring")["elo"]["value"], r) == (pytest.approx(d / 3), pytest.approx(d / 3),
                                                               pytest.approx(-2 * d / 3))
    bound = root(lambda t: 8 * math.log(expected(t - d / 3)) + 4 * math.log(expected(t + 2 * d / 3))
                 + Z1 * Z1 / 2, -3000, 3000)
    assert row(report, "strong")["elo"]["low"] == pytest.approx(bound, abs=1e-6)
    # LOS of sparring over random: Fisher information with random's rating held (a difference
    # does not depend on the anchor): [[a + b, -a], [-a, a + b]] for (heuristic, sparring).
    a, b = K * K * 4 * 0.25, K * K * 4 * 0.625 * 0.375
    sd = math.sqrt((a + b) / ((a + b) ** 2 - a * a))
    los = statistics.NormalDist().cdf(d / sd)
    assert row(report, "sparring")["los_next"] == pytest.approx(los, abs=1e-9)
    for text in (f"{d:.1f}", f"{d / 3:+.1f}", f"{-2 * d / 3:.1f}".replace("-", "−"), f"L = {bound:+.0f}",
                 f"{sd:.1f}", f"{100 * los:.1f}%"):
        assert text in doc, text
    cmp = report.compare("heuristic", "random")["difference"]
    assert f"`{cmp['value']:+.0f} [{cmp['low']:+.0f}, {cmp['high']:+.0f}]`" in doc


def test_a_perfect_score_in_twin_pairs_has_a_one_sided_score_bound() -> None:
    report = report_of(twin_records([(1, 1)] * 5) + series("A", "B", "w", 50), ("A", "B"))
    a = row(report, "A")  # 11 of 11: 5 pairs and one single match, 6 units
    assert a["win_ci_method"] == "one-sided, twin pairs as units"
    assert a["win_ci95"] == [pytest.approx(100 * 0.05 ** (1 / 6)), 100.0]
    assert row(report, "B")["win_ci95"] == [0.0, pytest.approx(100 * (1 - 0.05 ** (1 / 6)))]


def test_pairs_that_ended_as_expected_narrow_the_interval_by_at_most_a_factor_2_in_variance() -> None:
    # Two split pairs at an expected score of 1/2: the pair residuals are 0, so the pair
    # variance alone would claim certainty; the floor keeps half the per-match variance,
    # i.e. the likelihood ratio scaled by 2.
    report = report_of(twin_records([(1, 0), (0, 1)]), ("A", "B"))
    d, lo, hi = profile_two(4, 2, 2.0)
    diff = report.compare("A", "B")["difference"]
    assert (diff["value"], diff["low"], diff["high"]) == (pytest.approx(d, abs=1e-6), pytest.approx(lo, abs=1e-4),
                                                          pytest.approx(hi, abs=1e-4))
    # The score: Wilson at twice the matches (half the binomial variance of the mean).
    m = 8
    w = Z * math.sqrt(0.25 / m + Z * Z / (4 * m * m)) / (1 + Z * Z / m)
    assert row(report, "A")["win_ci95"] == [pytest.approx(100 * (0.5 - w)), pytest.approx(100 * (0.5 + w))]


def test_a_total_order_ranks_in_order_with_rising_bounds() -> None:
    # Every bot beat every bot below it and nobody scored upward: the fit can place only the
    # last bot (the core), and every other one is a bound. Each bound is found from the bots
    # it beat, so a bot that beat another is ranked above it with a higher bound, whatever
    # the order the bots are listed in (the demo tournament's table once put a bot that won
    # 2 of 8 above one that won 4 and beat it).
    order = ["S", "H", "J", "R", "Q"]
    records: list[dict[str, Any]] = []
    for a in range(5):
        for b in range(a + 1, 5):
            records += series(order[a], order[b], "ww", 10 * len(records))
    for names in (("S", "H", "R", "J", "Q"), ("Q", "R", "J", "H", "S"), ("J", "S", "Q", "H", "R")):
        report = report_of(records, names)
        assert [r["bot"] for r in report.bots] == order
        assert [r["rank"] for r in report.bots] == [1, 2, 3, 4, 5]
        lows = [r["elo"]["low"] for r in report.bots[:4]]
        assert all(r["elo"]["kind"] == "lower bound" for r in report.bots[:4])
        assert lows == sorted(lows, reverse=True) and len(set(lows)) == 4
