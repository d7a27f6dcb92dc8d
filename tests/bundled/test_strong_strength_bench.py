"""bench/strength.py's bookkeeping: the rows of issue 16, the configs it derives (the nil
reference keeps the seat names that fix the schedule's seeds), and the figures it reads
back from match records."""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from conftest import load_bench

strength = load_bench("strength")


def args(**kw) -> argparse.Namespace:
    base = {"variant": "both", "opponent": [], "ruleset": []}
    return argparse.Namespace(**{**base, **kw})


def test_default_rows_are_the_issue_rows() -> None:
    rows = strength.select_rows(args(), {})
    got = [(r.variant, r.rules_text(), r.opponent) for r in rows]
    assert got == [
        ("two-player", "default", "heuristic"), ("two-player", "default", "heuristic-js"),
        ("partnership", "blind_nil=False", "heuristic"), ("partnership", "blind_nil=False", "heuristic-js"),
        ("partnership", "blind_nil_behind=100", "heuristic"), ("partnership", "blind_nil_behind=100", "heuristic-js"),
        ("partnership", "default", "heuristic"), ("partnership", "default", "heuristic-js"),
    ]
    only = strength.select_rows(args(variant="partnership", ruleset=["no-blind-nil"], opponent=["strong"]), {})
    assert [(r.rules_text(), r.opponent) for r in only] == [("blind_nil=False", "strong")]


def test_reference_config_plays_the_opponent_in_both_chairs_under_the_strong_seat_name(tmp_path: Path) -> None:
    row = strength.Row("partnership", (("blind_nil", False),), "heuristic")
    main_path, main = strength.row_config(row, 7, None, tmp_path, 99)
    ref_path, ref = strength.row_config(row, 7, None, tmp_path, 99, reference=True)
    assert main["matches_per_pairing"] == ref["matches_per_pairing"] == 8  # twins come in pairs
    assert main["seed"] == ref["seed"] == 99 and main["rules"]["blind_nil"] is False
    assert [b["name"] for b in main["bots"]] == [b["name"] for b in ref["bots"]] == ["strong", "heuristic"]
    assert "strong_bot.py" in " ".join(main["bots"][0]["command"])
    assert ref["bots"][0]["command"] == ref["bots"][1]["command"] == main["bots"][1]["command"]
    assert main["output"] != ref["output"]
    for path, cfg in ((main_path, main), (ref_path, ref)):
        assert yaml.safe_load(path.read_text(encoding="utf-8")) == cfg
        assert len(cfg["name"]) <= 48  # the referee's limit on tournament names


def test_self_play_opponent_is_a_copy_with_its_own_seed(tmp_path: Path) -> None:
    _, cfg = strength.row_config(strength.Row("partnership", (), "strong"), 2, "16samples", tmp_path, None)
    a, b = cfg["bots"]
    assert (a["name"], b["name"]) == ("strong", "strong-copy")
    assert a["command"][a["command"].index("--budget") + 1] == b["command"][b["command"].index("--budget") + 1] \
        == "16samples"
    assert a["command"][a["command"].index("--seed") + 1] != b["command"][b["command"].index("--seed") + 1]


def hand(no: int, bids: list[int], tricks: list[int], points: list[int], blind: list[bool] | None = None) -> dict:
    return {"hand": no, "bids": bids, "tricks": tricks, "points": points, "blind": blind or [False] * 4}


def record(seed: int, bots: list[str], hands: list[dict], winner: int) -> dict:
    score = [sum(h["points"][0] for h in hands), sum(h["points"][1] for h in hands)]
    return {"variant": "partnership", "seed": seed, "bots": bots, "hands": hands, "score": score,
            "winner": winner, "faults": [], "stats": None}


def test_breakdown_and_nil_pairs_count_what_the_records_say() -> None:
    leg_a = ["strong", "heuristic", "strong", "heuristic"]
    leg_b = ["heuristic", "strong", "heuristic", "strong"]
    main = [
        # Seat 1 (heuristic) bid Nil and was set; the strong side made 4 of its 5.
        record(1, leg_a, [hand(1, [2, 0, 3, 4], [3, 1, 3, 6], [-50, -27]),
                          hand(2, [3, 3, 3, 3], [4, 3, 3, 3], [61, 60])], 0),
        # Seat 0 (heuristic) bid Nil and made it.
        record(1, leg_b, [hand(1, [0, 3, 4, 5], [0, 4, 6, 3], [152, -50])], 0),
    ]
    b = strength.breakdown(main)
    assert b["opponent"]["nil"] == 2 and b["opponent"]["nil_made"] == 1
    assert b["strong"]["contracts"] == 3 and b["strong"]["made"] == 2
    ref = [  # the same Nils defended by the heuristic bot: the first made, the second set
        record(1, leg_a, [hand(1, [2, 0, 3, 4], [4, 0, 3, 6], [-50, 140])], 1),
        record(1, leg_b, [hand(1, [0, 3, 4, 5], [1, 4, 5, 3], [-48, -50])], 0),
        record(2, leg_a, [hand(1, [2, 0, 3, 4], [4, 0, 3, 6], [-50, 140])], 1),  # not in the main run
    ]
    assert strength.nil_pairs(main, ref) == {"matched": 2, "strong_set": 1, "reference_set": 1, "both_set": 0}
    s = strength.summarize(main)
    assert (s["wins"], s["losses"], s["matches"]) == (1, 1, 2)
