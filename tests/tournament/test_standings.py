"""Standings math on small hand-computed result sets, and the rendered tables."""

from __future__ import annotations

import csv
import io
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from referee.tournament.ratings import Z95, Kind, Pairing, Pool, wilson
from referee.tournament.standings import StandingsBuilder, render

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
K = math.log(10) / 400


def rec(match: str, bots: list[str], score: list[int], winner: int | None, *, seed: int = 1,
        hands: list[dict[str, Any]] | None = None, faults: list[dict[str, Any]] | None = None,
        stats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    variant = "two-player" if len(bots) == 2 else "partnership"
    return {"match": match, "variant": variant, "seed": seed, "bots": bots, "hands": hands or [],
            "score": score, "winner": winner, "reason": "target" if winner is not None else "max_hands",
            "faults": faults or [], "seconds": 1.0, "stats": stats or []}


def five_matches() -> list[dict[str, Any]]:
    """A vs B: A wins 3, loses 1, draws 1 (seats alternate)."""
    return [
        rec("m1", ["A", "B"], [500, 300], 0, seed=11),
        rec("m2", ["B", "A"], [200, 510], 1, seed=12),
        rec("m3", ["A", "B"], [520, 100], 0, seed=13),
        rec("m4", ["B", "A"], [505, 400], 0, seed=14),
        rec("m5", ["A", "B"], [450, 450], None, seed=15),
    ]


def build(records: list[dict[str, Any]], names: tuple[str, ...] = ("A", "B"), **kw: Any) -> StandingsBuilder:
    b = StandingsBuilder(names, **kw)
    for r in records:
        assert b.add(r), b.warnings
    return b


def row(report: Any, name: str) -> dict[str, Any]:
    return next(r for r in report.bots if r["bot"] == name)


def test_wins_losses_draws_points_and_wilson_interval() -> None:
    report = build(five_matches()).report()
    a, b = row(report, "A"), row(report, "B")
    assert (a["matches"], a["wins"], a["losses"], a["draws"]) == (5, 3, 1, 1)
    assert (b["wins"], b["losses"], b["draws"]) == (1, 3, 1)
    assert a["win_pct"] == 70.0  # (3 + 1/2) / 5
    # Wilson, by hand: p = .7, n = 5, z = 1.96: centre .61310, half-width .31432
    assert a["win_ci95"] == [pytest.approx(29.878, abs=2e-3), pytest.approx(92.742, abs=2e-3)]
    assert (a["points_for"], a["points_against"]) == (476.0, 311.0)  # 2380/5, 1555/5
    assert [r["bot"] for r in report.bots] == ["A", "B"] and a["rank"] == 1


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7225, abs=1e-4)  # n / (n + z^2) for p = 1
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)


def test_elo_of_two_players_matches_the_closed_form() -> None:
    # Without a prior, the MLE of the difference is 400 log10(s / (n - s)),
    # split +-d/2 by the mean-zero anchor; its variance is 1 / (n p q K^2).
    report = build(five_matches()).report()  # no prior by default
    diff = 400 * math.log10(3.5 / 1.5)
    assert row(report, "A")["elo"]["value"] == pytest.approx(diff / 2, abs=1e-6)
    assert row(report, "B")["elo"]["value"] == pytest.approx(-diff / 2, abs=1e-6)
    # The LOS of A over B is Phi(d / sd), sd from the Fisher information 1 / (n p q K^2).
    p = 0.7
    sd = math.sqrt(1 / (5 * p * (1 - p) * K * K))
    assert row(report, "A")["los_next"] == pytest.approx(0.5 * math.erfc(-diff / sd / math.sqrt(2)), abs=1e-6)
    assert Z95 == pytest.approx(1.959964, abs=1e-6)
    # A prior of one virtual draw per pairing: (3.5 + .5) / (5 + 1) = 2/3.
    report = build(five_matches(), prior=1.0).report()
    assert row(report, "A")["elo"]["value"] == pytest.approx(400 * math.log10(2) / 2, abs=1e-6)


def test_elo_three_players_is_consistent_and_anchored() -> None:
    pool = Pool(3, [Pairing(0, 1, 10, 7), Pairing(1, 2, 10, 7), Pairing(0, 2, 10, 8.5)])
    values = [pool.rating(i).value or 0.0 for i in range(3)]
    assert sum(values) == pytest.approx(0, abs=1e-9)
    assert values[0] > values[1] > values[2]
    # The fit is a maximum: the expected scores match the observed totals.
    exp = lambda d: 1 / (1 + 10 ** (-d / 400))  # noqa: E731
    total0 = 10 * exp(values[0] - values[1]) + 10 * exp(values[0] - values[2])
    assert total0 == pytest.approx(7 + 8.5, abs=1e-6)
    # A perfect score is a bound, not a number; a prior of virtual draws makes it finite;
    # no games: nothing to say.
    lone = Pool(3, [Pairing(0, 1, 4, 4)])
    assert lone.rating(0).kind is Kind.LOWER_BOUND and lone.rating(2).kind is Kind.NONE
    with_prior = Pool(3, [Pairing(0, 1, 4, 4)], prior=1.0)
    assert (with_prior.rating(0).value or 0.0) > 0 > (with_prior.rating(1).value or 0.0)


def test_crosstable_and_ranking() -> None:
    records = five_matches() + [
        rec("c1", ["C", "A"], [500, 100], 0, seed=21),
        rec("c2", ["A", "C"], [100, 500], 1, seed=22),
        rec("c3", ["B", "C"], [300, 500], 1, seed=23),
    ]
    report = build(records, ("A", "B", "C")).report()
    assert report.crosstable["A"]["B"] == [3, 1, 1] and report.crosstable["B"]["A"] == [1, 3, 1]
    assert report.crosstable["C"]["A"] == [2, 0, 0] and report.crosstable["A"]["C"] == [0, 2, 0]
    assert report.crosstable["B"]["C"] == [0, 1, 0]
    assert [r["bot"] for r in report.bots] == ["C", "A", "B"]  # by rating
    assert [r["rank"] for r in report.bots] == [1, 2, 3]


def partnership_hands() -> list[dict[str, Any]]:
    return [
        # Side 0 (A): 4 + nil; took 5 + 0: made, nil made, 1 bag. Side 1 (B): 6, took 8: made, 2 bags.
        {"hand": 1, "dealer": 0, "bids": [4, 3, 0, 3], "blind": [False] * 4, "tricks": [5, 4, 0, 4],
         "points": [141, 62], "score": [141, 62], "bags": [1, 2]},
        # A bids 9, takes 5: set. B: blind nil fails (1 trick, a bag), partner bids 2 takes 7: 5 bags.
        {"hand": 2, "dealer": 1, "bids": [5, 0, 4, 2], "blind": [False, True, False, False],
         "tricks": [3, 1, 2, 7], "points": [-90, -174], "score": [51, -112], "bags": [1, 8]},
        # A: 6, took 7: 1 bag. B: 4, took 6: 2 bags, 8 + 2 = 10 -> one penalty, 0 left.
        {"hand": 3, "dealer": 2, "bids": [3, 2, 3, 2], "blind": [False] * 4, "tricks": [4, 3, 3, 3],
         "points": [61, -58], "score": [112, -170], "bags": [2, 0]},
        # A hand cut short by a forfeit: not scored.
        {"hand": 4, "dealer": 3, "bids": [3, 3, 3, 3], "blind": [False] * 4, "tricks": [1, 0, 0, 0],
         "points": [0, 0], "score": [112, -170], "bags": [2, 0]},
    ]


def test_bid_nil_bag_fault_and_time_statistics() -> None:
    faults = [{"seat": 3, "kind": "timeout", "detail": "", "hand": 1},
              {"seat": 1, "kind": "timeout", "detail": "", "hand": 2},
              {"seat": 0, "kind": "illegal", "detail": "", "hand": 3}]
    stats = [{"decisions": 10, "mean_ms": 2.0, "max_ms": 5.0}, {"decisions": 20, "mean_ms": 1.0, "max_ms": 3.0},
             {"decisions": 30, "mean_ms": 4.0, "max_ms": 9.0}, {"decisions": None, "mean_ms": None, "max_ms": None}]
    report = build([rec("p1", ["A", "B", "A", "B"], [112, -170], 0, hands=partnership_hands(), faults=faults,
                        stats=stats)]).report()
    a, b = row(report, "A"), row(report, "B")
    assert (a["hands"], a["contracts"], a["contracts_made"], a["sets_suffered"], a["sets_inflicted"]) == (3, 3, 2, 1, 0)
    assert (b["hands"], b["contracts"], b["contracts_made"], b["sets_suffered"], b["sets_inflicted"]) == (3, 3, 3, 0, 1)
    assert a["bids_made_pct"] == pytest.approx(200 / 3) and b["bids_made_pct"] == 100.0
    assert a["nil"] == {"tried": 1, "made": 1} and a["blind_nil"] == {"tried": 0, "made": 0}
    assert b["nil"] == {"tried": 0, "made": 0} and b["blind_nil"] == {"tried": 1, "made": 0}
    assert (a["bags"], a["bags_per_hand"], a["bag_penalties"]) == (2, pytest.approx(2 / 3), 0)
    assert (b["bags"], b["bags_per_hand"], b["bag_penalties"]) == (10, pytest.approx(10 / 3), 1)
    assert a["faults"] == {"illegal": 1} and b["faults"] == {"timeout": 2}
    assert (a["decisions"], a["decision_ms_mean"], a["decision_ms_max"]) == (40, 3.5, 9.0)  # (20 + 120) / 40
    assert (b["decisions"], b["decision_ms_mean"], b["decision_ms_max"]) == (20, 1.0, 3.0)  # seat 3 had no clock


def test_twin_pairs() -> None:
    records = [
        # Seed 7: A wins the first leg, B the second (same cards, seats swapped): a split.
        rec("t1a", ["A", "B"], [500, 300], 0, seed=7), rec("t1b", ["B", "A"], [510, 480], 0, seed=7),
        # Seed 8: A wins both legs: A wins the pair.
        rec("t2b", ["B", "A"], [200, 505], 1, seed=8), rec("t2a", ["A", "B"], [520, 100], 0, seed=8),
        # Same seed, same seats: not a twin pair.
        rec("x1", ["A", "B"], [500, 0], 0, seed=9), rec("x2", ["A", "B"], [500, 0], 0, seed=9),
    ]
    report = build(records).report()
    a, b = row(report, "A"), row(report, "B")
    # No hands in these records: no hand both legs played, so no margin per hand.
    assert a["twin_pairs"] == {"won": 1, "lost": 0, "split": 1, "pentanomial": [0, 0, 1, 0, 1], "hands": 0,
                               "margin_per_hand": None}
    assert b["twin_pairs"] == {"won": 0, "lost": 1, "split": 1, "pentanomial": [1, 0, 1, 0, 0], "hands": 0,
                               "margin_per_hand": None}
    [twin] = report.twins
    assert {k: twin[k] for k in ("a", "b", "pairs", "a_won", "b_won", "split", "pentanomial", "a_score")} == {
        "a": "A", "b": "B", "pairs": 2, "a_won": 1, "b_won": 0, "split": 1, "pentanomial": [0, 0, 1, 0, 1],
        "a_score": 0.75}


def test_twin_table_is_oriented_by_bot_order_whatever_the_record_order() -> None:
    # One two-player hand each: bids 4 and 4; tricks 7-6 (43 and 42 points), then 5-8 (41 and 44).
    hand = lambda tricks: [{"hand": 1, "first": 0, "bids": [4, 4], "blind": [False, False],  # noqa: E731
                            "tricks": tricks, "points": [0, 0], "score": [0, 0], "bags": [0, 0]}]
    records = [rec("1b", ["B", "A"], [500, 100], 0, seed=3, hands=hand([7, 6])),
               rec("1a", ["A", "B"], [500, 300], 0, seed=3, hands=hand([5, 8]))]
    report = build(records).report()
    # A: leg "1b" 42 - 43 = -1, leg "1a" 41 - 44 = -3: -4 over the one hand both legs played.
    assert report.twins[0]["a"] == "A" and report.twins[0]["a_margin_per_hand"] == -4.0
    assert report.twins[0]["pentanomial"] == [0, 0, 1, 0, 0]


def test_a_bad_record_is_skipped_without_changing_counters() -> None:
    b = StandingsBuilder(("A", "B"))
    assert not b.add({"match": "bad", "variant": "partnership", "bots": ["A", "B"], "score": [1, 2], "winner": 0})
    broken_hand = rec("h", ["A", "B"], [500, 0], 0, hands=[{"bids": [1], "blind": [False], "tricks": [13]}])
    assert not b.add(broken_hand)
    assert not b.add(rec("self", ["A", "A"], [500, 0], 0))
    assert b.matches == 0 and all(s.matches == 0 for s in b.bots.values())
    assert len(b.warnings) == 3 and "'bad'" in b.warnings[0]


def test_render_formats() -> None:
    report = build(five_matches(), title="t: demo").report()
    table = render(report, "table")
    assert table.splitlines()[0] == "t: demo: 5 matches"
    assert "Spades statistics" in table and "Head to head" in table
    md = render(report, "markdown")
    assert md.startswith("# t: demo") and "| Bot " in md
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert [r["bot"] for r in rows] == ["A", "B"] and rows[0]["wins"] == "3" and rows[0]["win_pct"] == "70.0"
    assert rows[0]["elo"] == f"{row(report, 'A')['elo']['value']:.1f}" and rows[0]["tied"] == "0"
    data = json.loads(render(report, "json"))
    assert data["bots"][0]["bot"] == "A" and data["crosstable"]["A"]["B"] == [3, 1, 1]
    with pytest.raises(ValueError, match="unknown format"):
        render(report, "html")


def snapshot_report() -> Any:
    records = five_matches() + [
        rec("p1", ["A", "C", "A", "C"], [112, -170], 0, hands=partnership_hands(), seed=30,
            faults=[{"seat": 1, "kind": "crash", "detail": "exited with code 1", "hand": 3}],
            stats=[{"decisions": 10, "mean_ms": 2.0, "max_ms": 5.0}] * 4),
        rec("p2", ["C", "A", "C", "A"], [505, 200], 0, seed=30),
    ]
    return build(records, ("A", "B", "C"), title="snapshot: mixed", expected=8).report()


@pytest.mark.parametrize("fmt,name", [("table", "standings_table.txt"), ("markdown", "standings_markdown.md")])
def test_rendered_tables_match_the_snapshots(fmt: str, name: str) -> None:
    """The exact layout users see; regenerate with SPADES_UPDATE_SNAPSHOTS=1 after a deliberate change."""
    text = render(snapshot_report(), fmt)
    path = SNAPSHOTS / name
    if os.environ.get("SPADES_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()
