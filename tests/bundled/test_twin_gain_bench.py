"""bench/twin_gain.py: the duplicate comparison pairs each side's cards across the twin
matches (the strong bot's result against the opponent's with the same cards) and sorts
them by what became of the contracts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_bench

twin = load_bench("twin_gain")


def hand(number: int, bids: list[int], tricks: list[int], points: list[int]) -> dict:
    return {"hand": number, "bids": bids, "tricks": tricks, "points": points}


def record(name: str, bots: list[str], hands: list[dict]) -> dict:
    return {"match": name, "variant": "partnership", "bots": bots, "hands": hands}


S, H = "strong", "heuristic"
RECORDS = [
    # Twin a: strong holds side 0's cards (seats 0, 2) and makes 5; heuristic's side 1 is set.
    record("001-x-1a", [S, H, S, H], [hand(1, [3, 4, 2, 4], [3, 3, 3, 4], [51, -80]),
                                       hand(2, [0, 3, 4, 3], [0, 5, 4, 4], [140, -60])]),
    # Twin b: the same cards, seats swapped: heuristic on side 0 is set, strong on side 1 makes 8.
    # Hand 2 was not reached in this twin, so only hand 1 is compared.
    record("001-x-1b", [H, S, H, S], [hand(1, [4, 4, 3, 4], [2, 4, 2, 5], [-70, 81])]),
]


def test_each_side_of_a_shared_hand_is_compared_with_the_same_cards_in_the_twin() -> None:
    pairs = list(twin.twin_side_hands(RECORDS, S))
    assert len(pairs) == 2  # hand 1, both sides; hand 2 exists in one twin only
    (mine0, theirs0), (mine1, theirs1) = pairs
    assert (mine0.points, theirs0.points) == (51, -70)  # side 0: strong in a, heuristic in b
    assert (mine0.outcome, theirs0.outcome) == ("made", "set")
    assert (mine1.points, theirs1.points) == (81, -80)  # side 1: strong in b, heuristic in a
    text = twin.report(pairs, S)
    assert "side-hands on the same cards: 2" in text and "+141.0 points per side-hand" in text
    assert "made / set" in text


def test_a_nil_outcome_is_named_and_a_nil_bid_is_left_out_of_the_contract() -> None:
    nil = twin.side_hand(hand(2, [0, 3, 4, 3], [1, 5, 4, 3], [-50, 60]), 0)
    assert nil.bid == 4 and nil.took == 4 and nil.nils == (False,)
    assert nil.outcome == "nil failed, made"


def test_a_folder_without_records_or_with_a_broken_line_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no matches.jsonl"):
        twin.read_records(tmp_path)
    (tmp_path / "matches.jsonl").write_text(json.dumps(RECORDS[0]) + "\n{oops\n")
    with pytest.raises(SystemExit, match=r"matches.jsonl:2 is not JSON"):
        twin.read_records(tmp_path)


def test_blind_nil_chances_count_only_the_hands_a_side_started_trailing_by_enough() -> None:
    rules = {"blind_nil": True, "blind_nil_behind": 100}

    def h(number: int, bids: list[int], blind: list[bool], tricks: list[int], score: list[int]) -> dict:
        return {"hand": number, "bids": bids, "blind": blind, "tricks": tricks, "score": score}

    rec = record("001-x-1a", [S, H, S, H], [
        h(1, [4, 3, 3, 3], [False] * 4, [5, 3, 3, 2], [71, -30]),  # from 0-0: nobody may
        h(2, [4, 0, 3, 3], [False, True, False, False], [4, 0, 4, 5], [142, 200]),  # H trails 101: BN made
        h(3, [4, 3, 3, 0], [False, False, False, True], [4, 3, 4, 2], [212, 30]),  # nobody trails by 100
        h(4, [4, 3, 3, 3], [False] * 4, [4, 3, 3, 3], [282, 90]),  # H trails 182, bids normally
    ])
    rec["rules"] = rules
    chances = twin.blind_nil_chances([rec, {**rec, "rules": {"blind_nil_behind": None}}])
    assert chances == {H: twin.BlindNilChances(eligible=2, bid=1, made=1)}
    assert "heuristic" in twin.blind_nil_report(chances) and "1 (100%)" in twin.blind_nil_report(chances)
