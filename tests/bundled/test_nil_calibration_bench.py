"""bench/nil_calibration.py: every Nil of a results folder is matched with the hand its
bidder was asked to bid on (from the match's log), rated by the strong bot's nil model
and counted as made or set, per bot and band."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_bench

from bots.strong.cards import mask_of, parse_card
from bots.strong.evaluate import nil_probability

cal = load_bench("nil_calibration")

# A hand the model rates a near-certain Nil, and one it rates hopeless.
SAFE = ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H", "2S"]
STRONG = ["AC", "KC", "QC", "AD", "KD", "QD", "AH", "KH", "QH", "AS", "KS", "QS", "JS"]


def bid_request(seat: int, hand_no: int, cards: list[str]) -> str:
    return json.dumps({"t": 0.0, "seat": seat, "dir": "out",
                       "msg": {"type": "bid", "id": 3, "legal": list(range(14)),
                               "state": {"hand_no": hand_no, "seat": seat, "hand": cards}}})


def write_folder(tmp: Path, with_log: bool = True) -> Path:
    hands = [
        # Hand 1: strong (seat 0) bids Nil on SAFE and makes it; heuristic (seat 1) bids
        # Nil on STRONG and is set; seat 3's Blind Nil is not a Nil this script rates.
        {"hand": 1, "bids": [0, 0, 4, 0], "blind": [False, False, False, True], "tricks": [0, 2, 9, 2]},
        # Hand 2: strong's Nil on SAFE is set.
        {"hand": 2, "bids": [0, 3, 5, 3], "blind": [False] * 4, "tricks": [1, 3, 6, 3]},
    ]
    record = {"match": "001-strong-heuristic-1a", "variant": "partnership",
              "bots": ["strong", "heuristic", "strong", "heuristic"], "hands": hands}
    (tmp / "matches.jsonl").write_text(json.dumps(record) + "\n")
    if with_log:
        (tmp / "logs").mkdir()
        lines = [bid_request(0, 1, SAFE), bid_request(1, 1, STRONG), bid_request(3, 1, SAFE),
                 '{"cut off mid-li', '5', bid_request(0, 2, SAFE)]
        (tmp / "logs" / "001-strong-heuristic-1a.jsonl").write_text("\n".join(lines) + "\n")
    return tmp


def test_each_nil_is_rated_on_the_hand_it_was_bid_on_and_counted_made_or_set(tmp_path: Path) -> None:
    bands, missing = cal.calibrate(write_folder(tmp_path))
    assert missing == 0
    safe_p = nil_probability(mask_of([parse_card(c) for c in SAFE]), 4)
    strong_p = nil_probability(mask_of([parse_card(c) for c in STRONG]), 4)
    assert safe_p > 0.85 > 0.5 > strong_p
    mine = bands["strong"][cal.band_of(safe_p)]
    assert mine.count == 2 and mine.made == 1  # hand 1 made, hand 2 set; the Blind Nil left out
    theirs = bands["heuristic"][cal.band_of(strong_p)]
    assert theirs.count == 1 and theirs.made == 0
    assert sum(b.count for b in bands["heuristic"]) == 1
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in cal.report(bands, missing).splitlines()[1:]}
    assert rows[("strong", "all")][0] == "2" and rows[("strong", "all")][2] == "50%"
    assert rows[("heuristic", "all")][2] == "0%"


def test_a_match_without_its_log_is_left_out_and_said(tmp_path: Path) -> None:
    bands, missing = cal.calibrate(write_folder(tmp_path, with_log=False))
    assert missing == 1 and not bands
    assert cal.report(bands, missing) == "no Nil bid in these matches (1 matches without a log)"


def test_bands_cover_zero_to_one() -> None:
    assert cal.band_of(0.0) == 0
    assert cal.band_of(0.7) == 2
    assert cal.band_of(1.0) == len(cal.BANDS) - 1


def test_simulated_nils_are_rated_hands_of_at_least_the_threshold_played_out() -> None:
    bands = cal.simulate(40, seed=3)["simulation"]
    assert sum(b.count for b in bands) == 40
    assert all(p >= cal.NIL_MIN_PARTNERSHIP for b in bands for p in b.model)
    assert 0 < sum(b.made for b in bands) <= 40
    assert bands == cal.simulate(40, seed=3)["simulation"]  # seeded: the same deals again


def test_the_command_needs_folders_or_a_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cal.main([])
    assert "give results folders, --simulate N, or both" in capsys.readouterr().err
