"""Screens of the human adapter (referee.human.render): pure text, no terminal needed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game.rules import Rules, Variant
from referee.game.scoring import score_hand
from referee.human.render import (
    Seating, Style, View, WIDTH, contract_line, draw_block, explain_hand, hand_lines, hand_summary, help_text,
    match_summary, status_block, trick_summary, visible_len, welcome,
)

FANCY = Style(symbols=True, color=True)
SYMBOLS = Style(symbols=True, color=False)
PLAIN = Style.plain()
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RULES = Rules(target=300).to_dict()
FOUR = Seating(Variant.PARTNERSHIP, 1, ("ann", "you", "cy", "di"))
TWO = Seating(Variant.TWO_PLAYER, 0, ("you", "bot"))


def strip(lines: list[str]) -> str:
    return ANSI.sub("", "\n".join(lines))


def test_cards_are_drawn_with_symbols_colours_or_letters() -> None:
    assert FANCY.card("QH") == "\x1b[31mQ\u2665\x1b[0m"  # hearts are red
    assert FANCY.card("QS") == "Q\u2660"  # spades keep the terminal's colour
    assert FANCY.card("TD") == "\x1b[31m10\u2666\x1b[0m"  # tens read as 10
    assert FANCY.card("QS", dim=True) == "\x1b[2mQ\u2660\x1b[0m"
    assert SYMBOLS.card("QH") == "Q\u2665"
    assert PLAIN.card("TH") == "10H" and PLAIN.card("2C") == "2C"
    assert PLAIN.cards(["AS", "TD"]) == "AS 10D"


def test_seat_labels_are_relative_to_the_person() -> None:
    assert [FOUR.label(s) for s in range(4)] == ["Right", "You", "Left", "Partner"]
    assert FOUR.order() == [1, 2, 3, 0]
    assert FOUR.my_side == 1 and FOUR.side_label(1) == "Us" and FOUR.side_label(0) == "Them"
    assert [TWO.label(s) for s in range(2)] == ["You", "Opponent"]
    assert TWO.side_label(1) == "Opponent"


def test_hand_is_sorted_by_suit_and_numbered() -> None:
    lines = hand_lines(["AS", "2C", "TD", "KS", "4C"], PLAIN)
    assert lines == [
        "  C  1:2C   2:4C",
        "  D  3:10D",
        "  H   (none)",
        "  S  4:KS   5:AS",
    ]


def test_unplayable_cards_are_dimmed_in_colour() -> None:
    lines = hand_lines(["2C", "4H"], FANCY, playable=["4H"])
    assert "\x1b[2m2\u2663\x1b[0m" in lines[0]
    assert "\x1b[31m4\u2665\x1b[0m" in lines[2]


def test_a_long_suit_wraps_inside_80_columns() -> None:
    spades = [r + "S" for r in "23456789TJQKA"]
    lines = hand_lines(spades, FANCY)
    assert len(lines) == 5  # clubs, diamonds, hearts void; spades on two lines
    assert all(visible_len(line) <= WIDTH for line in lines)
    assert "13:" in lines[-1]


def view(**fields: object) -> View:
    state = {
        "hand_no": 3, "seat": 1, "hand": ["2C", "4H", "JH", "AS"], "dealer": 0,
        "bids": [4, 2, 0, 3], "blind": [False, False, True, False], "tricks": [2, 1, 0, 1],
        "trick": [[3, "9H"], [0, "KH"]], "leader": 3, "spades_broken": False,
        "score": [120, 87], "bags": [3, 1], "time": {"move_ms": None, "bank_ms": 0},
    }
    state.update(fields)
    return View.from_state(state, 4)


def test_play_block_shows_table_trick_score_and_hand() -> None:
    lines = status_block(view(), FOUR, FANCY, 300, "play", playable=["4H", "JH"])
    text = strip(lines)
    assert text.splitlines()[0].startswith("\u2500\u2500\u2500 Hand 3 \u00b7 dealer Right \u00b7 trick 5 of 13 \u00b7 spades not broken ")
    rows = text.splitlines()
    assert re.fullmatch(r"  You +you +2 +1 +\?", rows[2])
    assert re.fullmatch(r"  Left +cy +blind nil +0", rows[3])
    assert re.fullmatch(r"  Partner +di +3 +1 +9\u2665 led", rows[4])
    assert re.fullmatch(r"  Right +ann +4 +2 +K\u2665", rows[5])
    assert "Us 87 (1 bag) \u00b7 Them 120 (3 bags) \u00b7 playing to 300" in text
    # Left's blind nil trick count never counts toward Them's contract of 4.
    assert "Tricks toward the bids: Us 2 of 5 \u00b7 Them 2 of 4" in text
    assert all(visible_len(line) <= WIDTH for line in lines)


def test_contract_line_with_a_side_of_nil_bidders() -> None:
    v = view(bids=[0, 2, 0, 3], tricks=[1, 1, 0, 1])
    assert contract_line(v, FOUR, PLAIN) == "Tricks toward the bids: Us 2 of 5 | Them bid nil only"


def test_bid_block_marks_the_persons_turn_and_hides_tricks() -> None:
    text = strip(status_block(view(bids=[4, None, None, None], tricks=[0, 0, 0, 0], trick=[]), FOUR, PLAIN, 300, "bid"))
    assert re.search(r"  You +you +\?\n", text)
    assert re.search(r"  Left +cy +-\n", text)
    assert "won" not in text and "trick" not in text.splitlines()[0]


def test_blind_nil_block_shows_no_cards() -> None:
    text = strip(status_block(view(hand=[], bids=[4, None, None, None]), FOUR, PLAIN, 300, "blind"))
    assert "Bids so far: Right 4" in text
    assert "1:" not in text  # the person has not seen their cards


def test_draw_block_shows_the_kept_cards_and_the_drawn_one() -> None:
    v = View.from_state({"hand_no": 2, "seat": 0, "hand": ["KS", "2C"], "first": 1, "bids": [None, 0],
                         "blind": [False, True], "tricks": [0, 0], "trick": [], "score": [40, 55],
                         "bags": [2, 0]}, 2)
    assert draw_block(v, TWO, PLAIN, 500, "7H") == [
        "--- Hand 2 | the draw, card 3 of 13 " + "-" * 43,  # rules span 79 columns
        "  You 40 (2 bags) | Opponent 55 (0 bags) | playing to 500",
        "  Opponent bid blind nil",
        "  You hold  2C KS",
        "  You drew  7H",
    ]


def test_clock_is_shown_when_the_seat_has_one() -> None:
    text = strip(status_block(view(time={"move_ms": 60000, "bank_ms": 30000}), FOUR, PLAIN, 300, "play"))
    assert "clock: 60 s per decision + 30 s in reserve" in text


def test_long_names_keep_the_table_aligned() -> None:
    seating = Seating(Variant.PARTNERSHIP, 0, ("a-very-long-bot-name-indeed", "x" * 40, "y", "z"))
    lines = status_block(view(seat=0), seating, FANCY, 500, "play")
    assert all(visible_len(line) <= WIDTH for line in lines)
    rows = strip(lines).splitlines()[2:6]
    # Names are cut to fit, so every seat's bid ends in the same column.
    bid_ends = {m.end() for m in (re.match(r" +\S+ +\S+ +(?:blind nil|\S+)", row) for row in rows) if m}
    assert len(bid_ends) == 1, rows


def test_trick_summary_names_the_winner_and_notes_broken_spades() -> None:
    lines = trick_summary([[2, "4H"], [3, "KH"], [0, "3S"], [1, "AH"]], 0, FOUR, PLAIN, 6, broke_spades=True)
    assert lines[0] == "  Trick 6: Left 4H  Partner KH  Right 3S  You AH  -> Right wins with a spade"
    assert lines[1] == "    Spades are broken now: they may be led."
    mine = trick_summary([[1, "AH"], [2, "2H"]], 1, FOUR, PLAIN, 1, broke_spades=False)
    assert mine == ["  Trick 1: You AH  Left 2H  -> You win"]


# -- scoring explanations, checked against the worked cases of the rules -----


def itemised(variant: Variant, side: int, bids: list[int], tricks: list[int], bags_before: int = 0,
             blind: list[bool] | None = None) -> tuple[list[tuple[str, int]], int, int]:
    labels = ["You", "Left", "Partner", "Right"] if variant is Variant.PARTNERSHIP else ["You", "Opponent"]
    score = explain_hand(variant, RULES, side, bids, blind or [False] * len(bids), tricks, bags_before, labels)
    return list(score.parts), score.total, score.bags_after


def test_two_player_seed_cases() -> None:
    assert itemised(Variant.TWO_PLAYER, 0, [7, 5], [8, 5]) == ([("bid 7 made", 70), ("1 bag", 1)], 71, 1)
    # Three hands: 4/7, 3/6, 4/9 -> 43, 33, then 45 - 100 with one bag left.
    assert itemised(Variant.TWO_PLAYER, 0, [4, 3], [7, 6])[1:] == (43, 3)
    assert itemised(Variant.TWO_PLAYER, 0, [3, 3], [6, 7], bags_before=3)[1:] == (33, 6)
    parts, total, bags = itemised(Variant.TWO_PLAYER, 0, [4, 3], [9, 4], bags_before=6)
    assert parts == [("bid 4 made", 40), ("5 bags", 5), ("10 bags penalty", -100)] and (total, bags) == (-55, 1)


def test_partnership_seed_cases() -> None:
    assert itemised(Variant.PARTNERSHIP, 0, [3, 4, 2, 4], [4, 3, 3, 3])[1:] == (52, 2)
    # Alex (You) bids 4, partner Charlie nil; Charlie takes 1, Alex 4.
    parts, total, bags = itemised(Variant.PARTNERSHIP, 0, [4, 3, 0, 3], [4, 4, 1, 4])
    assert parts == [("bid 4 made", 40), ("Partner's nil failed", -100), ("1 bag", 1)] and (total, bags) == (-59, 1)
    assert itemised(Variant.PARTNERSHIP, 0, [4, 3, 0, 3], [3, 4, 2, 4])[1:] == (-138, 2)
    assert itemised(Variant.PARTNERSHIP, 0, [0, 3, 0, 3], [0, 6, 2, 5])[1:] == (2, 2)
    parts, total, _ = itemised(Variant.PARTNERSHIP, 0, [0, 6, 0, 7], [0, 6, 0, 7], blind=[True, False, True, False])
    assert parts == [("your blind nil made", 200), ("Partner's blind nil made", 200)] and total == 400


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Variant)),
    st.data(),
)
def test_explanation_matches_the_referees_scoring(variant: Variant, data: st.DataObject) -> None:
    """Whatever the bids and tricks, the items add up to what scoring.py computes."""
    n = variant.seats
    bids = data.draw(st.lists(st.integers(0, 13), min_size=n, max_size=n))
    blind = [b == 0 and data.draw(st.booleans()) for b in bids]
    cuts = sorted(data.draw(st.lists(st.integers(0, 13), min_size=n - 1, max_size=n - 1)))
    tricks = [b - a for a, b in zip([0] + cuts, cuts + [13])]
    bags_before = data.draw(st.lists(st.integers(0, 9), min_size=2, max_size=2))
    rules = Rules(bag_limit=data.draw(st.integers(1, 12)), bag_penalty=data.draw(st.integers(0, 150)))
    official = score_hand(variant, rules, bids, blind, tricks, bags_before)
    labels = [f"seat{i}" for i in range(n)]
    for side in range(2):
        mine = explain_hand(variant, rules.to_dict(), side, bids, blind, tricks, bags_before[side], labels)
        assert mine.total == official.sides[side].points
        assert mine.bags_after == official.sides[side].bags_after


def hand_end(points: list[int], bags: list[int]) -> dict[str, object]:
    return {"type": "hand_end", "hand": 2, "bids": [3, 4, 0, 5], "blind": [False, False, False, False],
            "tricks": [4, 3, 1, 5], "points": points, "score": [200, 150], "bags": bags}


def test_hand_summary_itemises_each_side() -> None:
    seating = Seating(Variant.PARTNERSHIP, 0, ("you", "b", "c", "d"))
    # Us: bid 3, took 4, and a failed nil (1 trick): 30 + 2 bags - 100 = -68. Them: 9 bid, 8 taken.
    lines = hand_summary(seating, RULES, hand_end([-68, -90], [2, 3]), [0, 3], PLAIN)
    text = "\n".join(lines)
    assert lines[0].startswith("--- Hand 2 scored ---")
    assert "  Us:       You bid 3, took 4; Partner bid nil, took 1" in text
    assert "            bid 3 made +30, Partner's nil failed -100, 2 bags +2 -> -68" in text
    assert "  Them:     Left bid 4, took 3; Right bid 5, took 5" in text
    assert "            bid 9 set (8 taken) -90 -> -90" in text
    assert "Score: Us 200 (2 bags) | Them 150 (3 bags) | playing to 300" in text
    assert all(len(line) <= WIDTH for line in lines)


def test_hand_summary_falls_back_to_the_referees_points_if_they_differ() -> None:
    """A rule the explanation does not model must never produce a wrong breakdown."""
    seating = Seating(Variant.PARTNERSHIP, 0, ("you", "b", "c", "d"))
    odd = "\n".join(hand_summary(seating, RULES, hand_end([-50, -90], [2, 3]), [0, 3], PLAIN))
    assert "-50 this hand" in odd and "made +30" not in odd


def test_match_summary_from_the_persons_side() -> None:
    win = match_summary(FOUR, {"score": [120, 512], "winner": 1, "reason": "target"}, PLAIN)
    assert "Match over: your side wins 512 to 120 (the target was reached)" in win[0]
    lose = match_summary(TWO, {"score": [80, 300], "winner": 1, "reason": "forfeit"}, PLAIN)
    assert "you lose 80 to 300 (by forfeit)" in lose[0]
    draw = match_summary(TWO, {"score": [90, 90], "winner": None, "reason": "max_hands"}, PLAIN)
    assert "a draw, 90 to 90" in draw[0]


def test_welcome_names_the_table_and_the_clock() -> None:
    text = strip(welcome(FOUR, RULES, {"move_ms": None, "bank_ms": 0}, PLAIN))
    assert "playing to 300" in text
    assert "You sit in seat 1; play goes clockwise: You, Left, Partner, Right." in text
    assert "Left: cy | Partner: di | Right: ann" in text
    assert "No clock" in text
    timed = strip(welcome(TWO, RULES, {"move_ms": 45000, "bank_ms": 60000}, PLAIN))
    assert "Clock: 45 s per decision, plus a 60 s reserve." in timed


@pytest.mark.parametrize("kind", ["play", "bid", "blind_nil", "keep", "discard", "pass"])
def test_help_exists_for_every_question_and_lists_the_commands(kind: str) -> None:
    text = "\n".join(help_text(kind))
    assert "hand" in text and "score" in text and "quit" in text
    assert len(help_text(kind)) > 2
    assert all(len(line) <= WIDTH for line in help_text(kind))


def test_plain_style_is_pure_ascii() -> None:
    lines = status_block(view(), FOUR, PLAIN, 300, "play", playable=["4H"])
    lines += hand_summary(FOUR, RULES, hand_end([10, 20], [0, 0]), [0, 0], PLAIN)
    lines += welcome(FOUR, RULES, None, PLAIN) + match_summary(FOUR, {"score": [1, 2], "winner": 0, "reason": "target"}, PLAIN)
    for line in lines:
        assert line.isascii(), line
