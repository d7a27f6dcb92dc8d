"""The discard convention (``bots.strong.signals``): among discards the search values
alike a seat sheds from its weakest plain suit, and a seat reading its partner's discards
leans the partner away from that suit's high cards. Hand-built hands and tricks, then the
two halves switched on through the search and the sampler."""

from __future__ import annotations

import random
from typing import Iterator

import pytest

from bots.strong import inference, search, signals
from bots.strong.cards import FULL_DECK, mask_of, parse_card
from bots.strong.game import RuleSet
from bots.strong.inference import play_evidence
from bots.strong.search import SearchConfig, decide_play
from bots.strong.view import View


def cards(*names: str) -> int:
    return mask_of(parse_card(x) for x in names)


def plays(*pairs: tuple[int, str]) -> list[tuple[int, int]]:
    return [(s, parse_card(c)) for s, c in pairs]


@pytest.fixture
def signalling() -> Iterator[None]:
    saved = signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT
    yield
    signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT = saved


def test_the_discard_comes_from_the_suit_whose_top_card_is_lowest() -> None:
    hand = cards("3C", "9C", "4D", "AD", "7H", "QH", "2S")
    tied = [parse_card(c) for c in ("3C", "4D", "7H")]
    # Clubs are 9-high, hearts queen-high, diamonds ace-high: a club says "no strength".
    assert signals.choose_discard(tied, hand) == parse_card("3C")


def test_on_equal_tops_the_shorter_suit_is_shed() -> None:
    hand = cards("3C", "5C", "KC", "4D", "KD", "2S")
    assert signals.choose_discard([parse_card("3C"), parse_card("4D")], hand) == parse_card("4D")


@pytest.mark.parametrize("tied", [("3C", "5C"), ("3C", "2S"), ("2S",)])
def test_nothing_to_say_with_fewer_than_two_plain_suits(tied: tuple[str, ...]) -> None:
    hand = cards("3C", "5C", "9C", "2S", "AS")
    assert signals.choose_discard([parse_card(c) for c in tied], hand) is None


def test_a_partner_discard_denies_the_high_cards_above_it() -> None:
    # Seat 0 leads hearts; seat 2 (the reader's partner) is void and sheds the 4 of clubs.
    played = plays((0, "5H"), (1, "9H"), (2, "4C"), (3, "KH"))
    unplayed = FULL_DECK & ~mask_of(c for _, c in played) & ~cards("AC")  # the ace is the reader's
    facts = signals.discard_evidence(played, 4, 2, unplayed)
    assert facts == [(2, cards("JC", "QC", "KC"))]


def test_a_high_discard_denies_only_what_lies_above_it() -> None:
    played = plays((1, "5H"), (2, "QC"), (3, "KH"), (0, "2H"))
    assert signals.discard_evidence(played, 4, 2, FULL_DECK) == [(2, cards("KC", "AC"))]


def test_ruffs_follows_other_seats_and_second_discards_are_not_read() -> None:
    played = plays((0, "5H"), (1, "9H"), (2, "3S"), (3, "KH"),   # partner ruffs
                   (2, "2D"), (3, "4D"), (0, "7C"), (1, "8D"),   # partner leads; seat 0 discards
                   (1, "6D"), (2, "9D"), (3, "TD"), (0, "2C"),   # partner follows
                   (3, "TH"), (0, "JH"), (1, "QH"), (2, "5C"),   # partner's first discard: read
                   (1, "AH"), (2, "6C"), (3, "3H"), (0, "4H"))   # a second club: not read again
    assert signals.discard_evidence(played, 4, 2, FULL_DECK) == [(2, cards("JC", "QC", "KC", "AC"))]


def test_play_evidence_carries_the_reading_only_when_set(signalling: None) -> None:
    played = plays((0, "5H"), (1, "9H"), (2, "4C"), (3, "KH"))
    unplayed = FULL_DECK & ~mask_of(c for _, c in played)
    signals.SIGNAL_READ_WEIGHT = None
    assert all(e.seat != 2 for e in play_evidence(played, 4, 0, [3, 3, 3, 3], unplayed))
    signals.SIGNAL_READ_WEIGHT = 0.25
    found = [e for e in play_evidence(played, 4, 0, [3, 3, 3, 3], unplayed) if e.seat == 2]
    assert [(e.cards, e.weight) for e in found] == [(cards("JC", "QC", "KC", "AC"), 0.25)]


def _void_in_clubs() -> View:
    """Seat 0 to play third to a club trick with no club left: diamonds (8-high) and
    hearts (queen-high) to shed, and spades to ruff with."""
    hand = cards("3D", "8D", "4H", "6H", "7H", "9H", "QH", "2S", "KS", "AS")
    return View(n=4, seat=0, hand=hand, phase="play", bids=[3, 3, 3, 3], blind=[False] * 4,
                tricks=[2, 0, 1, 0], trick=plays((2, "TC"), (3, "5C")), leader=2, broken=False,
                played=plays((1, "2C"), (2, "3C"), (3, "4C"), (0, "7C"),
                             (0, "AC"), (1, "6C"), (2, "8C"), (3, "9C"),
                             (0, "QC"), (1, "2H"), (2, "KC"), (3, "JC"),
                             (2, "TC"), (3, "5C")),
                score=(0, 0), bags=(0, 0), dealer=3)


def test_the_search_signals_only_among_cards_valued_alike(signalling: None) -> None:
    view = _void_in_clubs()
    rules = RuleSet(blind_nil=False)
    legal = search.legal_now(view)
    assert legal == view.hand
    signals.SIGNAL_EPS = 1e9  # every discard counts as alike: the convention decides
    signals.SIGNAL_DISCARDS = False
    plain = decide_play(view, rules, legal, SearchConfig(samples=8), random.Random(3))
    signals.SIGNAL_DISCARDS = True
    signalled = decide_play(view, rules, legal, SearchConfig(samples=8), random.Random(3))
    # The search alone sheds the diamond 8; by the convention the diamonds are the weak
    # suit (8-high against the hearts' queen) and their lowest card goes.
    assert plain.card == parse_card("8D")
    assert signalled.card == parse_card("3D")
    assert signalled.values == plain.values  # the valuation is the search's own
    # With exact ties only, the convention keeps the card the search valued best.
    signals.SIGNAL_EPS = 0.0
    tight = decide_play(view, rules, legal, SearchConfig(samples=8), random.Random(3))
    assert tight.card == parse_card("8D")


def test_no_signal_where_blind_nil_is_free(signalling: None) -> None:
    # Under the default rules the bot plays as measured there: no convention.
    assert not inference.enabled(RuleSet(), 4)
    signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS = True, 1e9
    view = _void_in_clubs()
    on = decide_play(view, RuleSet(), view.hand, SearchConfig(samples=8), random.Random(3))
    signals.SIGNAL_DISCARDS = False
    off = decide_play(view, RuleSet(), view.hand, SearchConfig(samples=8), random.Random(3))
    assert on.card == off.card != parse_card("3D")


@pytest.fixture
def echoing() -> Iterator[None]:
    saved = signals.SPADE_ECHO, signals.ECHO_READ_WEIGHT
    yield
    signals.SPADE_ECHO, signals.ECHO_READ_WEIGHT = saved


def test_a_long_spade_hand_plays_the_top_of_an_equivalent_run() -> None:
    hand = cards("5H", "7H", "9H", "2S", "3S", "4S", "5S")
    gone_6h = cards("6H")  # played: 5H and 7H are equivalent, the 8H (live) cuts the run
    live = FULL_DECK & ~hand & ~gone_6h
    assert signals.echo_card(parse_card("5H"), hand, live, 4) == parse_card("7H")
    assert signals.echo_card(parse_card("5H"), hand, live | gone_6h, 4) == parse_card("5H")
    assert signals.echo_card(parse_card("5H"), hand, live, 3) == parse_card("5H")  # short: lowest
    assert signals.echo_card(parse_card("2S"), hand, live, 4) == parse_card("2S")  # spades say nothing


def test_an_echo_reads_high_low_as_long_spades_and_low_high_as_short() -> None:
    first = plays((0, "2C"), (1, "6H"), (2, "3C"), (3, "4C"))  # the 6H goes in the first trick
    unplayed = FULL_DECK & ~cards("2C", "6H", "3C", "4C", "8H", "7H", "9H", "TH", "5H", "JH", "QH", "KH")
    spades = signals.SUIT_MASKS[3]
    high_low = first + plays((3, "8H"), (0, "9H"), (1, "TH"), (2, "7H"),
                             (0, "JH"), (1, "QH"), (2, "5H"), (3, "KH"))
    assert signals.echo_evidence(high_low, 4, 2, unplayed) == [(2, unplayed & ~spades)]
    low_high = first + plays((3, "8H"), (0, "9H"), (1, "TH"), (2, "5H"),
                             (0, "JH"), (1, "QH"), (2, "7H"), (3, "KH"))
    assert signals.echo_evidence(low_high, 4, 2, unplayed) == [(2, unplayed & spades)]
    # The 6H still out when the partner played its first heart: no choice, nothing read.
    late_6h = plays((0, "2C"), (1, "AC"), (2, "3C"), (3, "4C")) + plays(
        (1, "8H"), (2, "7H"), (3, "9H"), (0, "6H"), (0, "JH"), (1, "QH"), (2, "5H"), (3, "KH"))
    assert signals.echo_evidence(late_6h, 4, 2, unplayed) == []
    # Other seats' orders say nothing.
    assert signals.echo_evidence(high_low, 4, 1, unplayed) == []


def _run_to_play(spades: tuple[str, ...]) -> View:
    """Seat 0 follows a heart lead with the 5H and 7H left (the 6H gone): one run."""
    hand = cards("5H", "7H", "3D", "8D", *spades)
    return View(n=4, seat=0, hand=hand, phase="play", bids=[3, 3, 3, 3], blind=[False] * 4,
                tricks=[0, 0, 0, 1], trick=plays((3, "KH")), leader=3, broken=False,
                played=plays((1, "6H"), (2, "2H"), (3, "QH"), (0, "4H"), (3, "KH")),
                score=(0, 0), bags=(0, 0), dealer=3)


def test_the_search_echoes_only_when_set_and_where_the_play_is_read(echoing: None) -> None:
    rules = RuleSet(blind_nil=False)
    long_view = _run_to_play(("2S", "3S", "4S", "5S"))
    short_view = _run_to_play(("2S", "3S", "4S"))
    cfg = SearchConfig(samples=4)
    signals.SPADE_ECHO = False
    assert decide_play(long_view, rules, search.legal_now(long_view), cfg, random.Random(1)).card == parse_card("5H")
    signals.SPADE_ECHO = True
    assert decide_play(long_view, rules, search.legal_now(long_view), cfg, random.Random(1)).card == parse_card("7H")
    assert decide_play(short_view, rules, search.legal_now(short_view), cfg, random.Random(1)).card == parse_card("5H")
    # Under the default rules (Blind Nil free) the play is not read and nothing is said.
    assert decide_play(long_view, RuleSet(), search.legal_now(long_view), cfg, random.Random(1)).card \
        == parse_card("5H")


def test_play_evidence_carries_the_echo_only_when_set(echoing: None) -> None:
    played = plays((0, "2C"), (1, "6H"), (2, "3C"), (3, "4C"), (3, "8H"), (0, "9H"), (1, "TH"), (2, "7H"),
                   (0, "JH"), (1, "QH"), (2, "5H"), (3, "KH"))
    unplayed = FULL_DECK & ~mask_of(c for _, c in played)
    signals.ECHO_READ_WEIGHT = None
    without = play_evidence(played, 4, 0, [3, 3, 3, 3], unplayed)
    signals.ECHO_READ_WEIGHT = 0.2
    found = play_evidence(played, 4, 0, [3, 3, 3, 3], unplayed)
    added = [(e.seat, e.cards, e.weight) for e in found if e not in without]
    assert found[:len(without)] == without
    assert added == [(2, unplayed & ~signals.SUIT_MASKS[3], 0.2)]
