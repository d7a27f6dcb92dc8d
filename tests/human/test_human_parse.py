"""Forgiving input parsing of the human adapter (referee.human.parse)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.game.cards import CARD_NAMES
from referee.human.parse import (
    Command, InputError, describe_bids, parse_bid, parse_card, parse_cards, parse_command, parse_yes_no,
)

SHOWN = ["2C", "7C", "JC", "3D", "TD", "4H", "JH", "AH", "5S", "9S", "QS", "KS", "AS"]


@pytest.mark.parametrize(
    "text, card",
    [
        ("qs", "QS"),
        ("QS", "QS"),
        (" Qs ", "QS"),
        ("q s", "QS"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("Th", "TH"),
        ("t h", "TH"),
        ("Q\u2660", "QS"),
        ("q\u2660", "QS"),
        ("\u2660Q", "QS"),
        ("\u2664q", "QS"),  # the white spade some keyboards produce
        ("Q\u2660\ufe0f", "QS"),  # emoji variation selector from a paste
        ("10\u2665", "TH"),
        ("sq", "QS"),
        ("hA", "AH"),
        ("queen of spades", "QS"),
        ("ten of hearts", "TH"),
        ("2 clubs", "2C"),
        ("as", "AS"),  # the ace of spades, not the word "as"
        ("ad", "AD"),
        ("da", "AD"),
    ],
)
def test_card_spellings(text: str, card: str) -> None:
    assert parse_card(text, SHOWN) == card


@pytest.mark.parametrize("number, card", [("1", "2C"), ("5", "TD"), ("13", "AS"), ("#11", "QS"), ("10", "9S")])
def test_a_bare_number_picks_from_the_shown_list(number: str, card: str) -> None:
    # "10" alone is the tenth card, never the rank ten: a rank needs a suit.
    assert parse_card(number, SHOWN) == card


def test_held_or_not_is_not_the_parsers_business() -> None:
    assert parse_card("2h", SHOWN) == "2H"


@pytest.mark.parametrize(
    "text, message",
    [
        ("x", "not a card: 'x'"),
        ("qx", "not a card: 'qx'"),
        ("qsx", "not a card: 'qsx'"),
        ("1s0", "not a card: '1s0'"),
        ("14", "there is no card number 14: the numbers go from 1 to 13"),
        ("0", "there is no card number 0"),
        ("", "type a card"),
        ("qs kh", "one card please, got 2: QS KH"),
    ],
)
def test_bad_cards_are_explained(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_card(text, SHOWN)
    assert message in str(err.value)


def test_number_out_of_a_one_card_list() -> None:
    with pytest.raises(InputError, match="you have one card, number 1"):
        parse_card("2", ["AS"])


def test_number_without_a_list() -> None:
    with pytest.raises(InputError, match="no numbered list"):
        parse_card("3", [])


def test_several_cards_any_separator_in_order() -> None:
    assert parse_cards("qs 10h, 1;2", SHOWN) == ["QS", "TH", "2C", "7C"]
    assert parse_cards("qs10h2c", SHOWN) == ["QS", "TH", "2C"]
    assert parse_cards("   ", SHOWN) == []


def test_duplicates_are_refused_with_the_screen_label() -> None:
    with pytest.raises(InputError, match=r"you named <QS> twice"):
        parse_cards("qs 11", SHOWN, label=lambda c: f"<{c}>")


def test_error_examples_use_the_screen_label() -> None:
    with pytest.raises(InputError) as err:
        parse_card("zz", SHOWN, label=lambda c: "Q\u2660" if c == "QS" else c)
    assert "e.g. qs, 10h, Q\u2660" in str(err.value)


@given(st.sampled_from(CARD_NAMES), st.sampled_from(["lower", "upper", "ten", "symbol", "suit-first"]))
def test_every_card_round_trips_in_every_spelling(name: str, how: str) -> None:
    rank, suit = name[0], name[1]
    symbol = dict(zip("CDHS", "\u2663\u2666\u2665\u2660"))[suit]
    text = {
        "lower": name.lower(),
        "upper": name,
        "ten": ("10" if rank == "T" else rank) + suit.lower(),
        "symbol": ("10" if rank == "T" else rank) + symbol,
        "suit-first": symbol + rank.lower(),
    }[how]
    assert parse_card(text, SHOWN) == name


@pytest.mark.parametrize("text, bid", [("nil", 0), ("NIL", 0), ("0", 0), ("zero", 0), ("3", 3), (" 13 ", 13)])
def test_bids(text: str, bid: int) -> None:
    assert parse_bid(text, list(range(14))) == bid


@pytest.mark.parametrize(
    "text, legal, message",
    [
        ("14", range(14), "you cannot bid 14: there are only 13 tricks; bid nil or 1-13"),
        ("nil", range(1, 14), "nil is not allowed in this match; bid 1-13"),
        ("0", range(1, 14), "nil is not allowed in this match"),
        ("3", [0, 1, 2], "you cannot bid 3 here; bid nil or 1-2"),
        ("three-ish", range(14), "not a bid: 'three-ish'"),
        ("", range(14), "type your bid: a number of tricks, or nil"),
        ("-1", range(14), "not a bid: '-1'"),
    ],
)
def test_bad_bids_are_explained(text: str, legal: range | list[int], message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_bid(text, list(legal))
    assert message in str(err.value)


def test_describe_bids() -> None:
    assert describe_bids(range(14)) == "nil or 1-13"
    assert describe_bids(range(1, 14)) == "1-13"
    assert describe_bids([0, 2, 3, 5]) == "nil, 2-3 or 5"
    assert describe_bids([4]) == "4"


@pytest.mark.parametrize("text, value", [("y", True), ("YES", True), (" n ", False), ("no", False), ("Nope", False)])
def test_yes_no(text: str, value: bool) -> None:
    assert parse_yes_no(text) is value


def test_yes_no_question_words() -> None:
    assert parse_yes_no("keep", yes_words=["keep"], no_words=["discard"]) is True
    assert parse_yes_no("Discard", yes_words=["keep"], no_words=["discard"]) is False
    with pytest.raises(InputError, match="please answer y/n/keep/discard, got: 'maybe'"):
        parse_yes_no("maybe", yes_words=["keep"], no_words=["discard"])
    with pytest.raises(InputError, match="please answer y/n$"):
        parse_yes_no("  ")


@pytest.mark.parametrize(
    "text, command",
    [("help", Command.HELP), ("?", Command.HELP), (" HAND ", Command.HAND), ("score", Command.SCORE),
     ("quit", Command.QUIT), ("exit", Command.QUIT), ("qs", None), ("3", None), ("", None)],
)
def test_commands(text: str, command: Command | None) -> None:
    assert parse_command(text) is command
