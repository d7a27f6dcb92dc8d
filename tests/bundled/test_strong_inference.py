"""The strong bot reads the other seats' plays (``bots.strong.inference``): a seat whose
side needs tricks follows low when it loses, the last seat wins with its cheapest winner
and a live Nil sheds its highest loser, so the sampler deals a seat the cards its play
makes unlikely at low odds, never at none. Hand-built tricks, then the sampler's lean
measured on them."""

from __future__ import annotations

import random

import pytest

from bots.strong import inference
from bots.strong.cards import FULL_DECK, mask_of, parse_card
from bots.strong.game import RuleSet
from bots.strong.inference import CHEAP_WIN_WEIGHT, LOW_FOLLOW_WEIGHT, NIL_SHED_WEIGHT, play_evidence
from bots.strong.sampler import knowledge, sample_deals
from bots.strong.view import View


def cards(*names: str) -> int:
    return mask_of(parse_card(x) for x in names)


def unplayed(played: list[tuple[int, str]], mine: int = 0) -> int:
    return FULL_DECK & ~cards(*(c for _, c in played)) & ~mine


def evidence(played: list[tuple[int, str]], bids: list[int | None], me: int = 2) -> dict[int, tuple[int, float]]:
    plays = [(s, parse_card(c)) for s, c in played]
    found = play_evidence(plays, 4, me, bids, unplayed(played))
    return {e.seat: (e.cards, e.weight) for e in found}


def test_a_seat_that_needs_tricks_and_loses_follows_with_its_lowest_card() -> None:
    # Seat 0 leads the heart queen; seat 1 follows the 9 under it: it is unlikely to hold
    # a heart below the 9 (the 2, played by seat 2, is out of the question).
    played = [(0, "QH"), (1, "9H"), (2, "2H"), (3, "KH")]
    found = evidence(played, [3, 3, 3, 3])
    assert found[1] == (cards("3H", "4H", "5H", "6H", "7H", "8H"), LOW_FOLLOW_WEIGHT)
    # Seat 0 led (no evidence); seat 3 won from an opponent with the king, and no heart
    # lies between the queen and the king; seat 2 is the reading seat itself.
    assert set(found) == {1}


def test_the_last_seat_wins_with_its_cheapest_winner() -> None:
    # Seat 3 beats seat 2's 8 with the ace: no diamond from the 9 to the king, likely.
    played = [(0, "5D"), (1, "2D"), (2, "8D"), (3, "AD")]
    found = evidence(played, [3, 3, 3, 3], me=0)
    assert found[3] == (cards("9D", "TD", "JD", "QD", "KD"), CHEAP_WIN_WEIGHT)
    # The 8 won the trick when played (third seat): nothing read; the 2 lost and no
    # diamond lies below it.
    assert set(found) == {3}
    # A ruff by the last seat: a lower spade would have won as well.
    ruff = [(0, "5D"), (1, "2D"), (2, "8D"), (3, "9S")]
    assert evidence(ruff, [3, 3, 3, 3], me=0)[3] == (cards(*(f"{r}S" for r in "2345678")), CHEAP_WIN_WEIGHT)


def test_a_nil_under_a_winner_sheds_its_highest_loser() -> None:
    # Seat 1 is on a Nil and follows the 9 under the queen: it is unlikely to hold the
    # ten or the jack (it would have shed them), while lower hearts are no news.
    played = [(0, "QH"), (1, "9H"), (2, "2H"), (3, "KH")]
    assert evidence(played, [3, 0, 3, 4])[1] == (cards("TH", "JH"), NIL_SHED_WEIGHT)
    # Under a ruff every heart loses: any heart above the one it shed is unlikely.
    ruff_then_nil = [(0, "5H"), (1, "3S"), (2, "2H"), (3, "9H")]
    assert evidence(ruff_then_nil, [3, 3, 3, 0], me=2)[3] == (cards("TH", "JH", "QH", "KH", "AH"), NIL_SHED_WEIGHT)
    # Once the Nil has taken a trick it is no longer read as a Nil.
    lost_nil = [(1, "AC"), (2, "2C"), (3, "3C"), (0, "4C")] + played
    assert 1 not in evidence(lost_nil, [3, 0, 3, 4])


def test_nothing_is_read_where_good_play_differs() -> None:
    played = [(0, "QH"), (1, "9H"), (2, "2H"), (3, "KH")]
    assert 1 not in evidence(played, [3, 4, 3, 0])  # covering its partner's Nil
    assert evidence(played, [3, None, 3, None]) == {}  # bids not known
    # The last seat overtaking its own partner's card (an unblock) says nothing.
    over = [(0, "5D"), (1, "QD"), (2, "2D"), (3, "AD")]
    assert 3 not in evidence(over, [3, 3, 3, 3], me=0)


def test_a_side_with_its_contract_made_is_not_read() -> None:
    # Seat 1 wins the first two tricks; in the third, seat 3 follows the 9 under the queen.
    tricks = [(0, "2C"), (1, "AC"), (2, "4C"), (3, "3C"),
              (1, "KC"), (2, "5C"), (3, "6C"), (0, "7C"),
              (1, "5H"), (2, "QH"), (3, "9H"), (0, "2H")]
    # Seats 1 and 3 bid 1 each: their contract is made, and a side with bags to fear
    # may shed high on purpose.
    assert evidence(tricks, [4, 1, 4, 1], me=2) == {}
    # Bids of 3 each: still 4 tricks short, so the 9 says "no lower heart".
    assert evidence(tricks, [4, 3, 4, 3], me=2) == {3: (cards("3H", "4H", "6H", "7H", "8H"), LOW_FOLLOW_WEIGHT)}


def test_only_partnership_without_free_blind_nil_reads_the_play() -> None:
    assert inference.enabled(RuleSet(blind_nil=False), 4)
    assert inference.enabled(RuleSet(blind_nil=True, blind_nil_behind=100), 4)
    assert not inference.enabled(RuleSet(), 4)  # default rules: free Blind Nil
    assert not inference.enabled(RuleSet(blind_nil=False), 2)


def view_after(played: list[tuple[int, str]], hand: int, bids: list[int | None]) -> View:
    v = View(n=4, seat=2, hand=hand, phase="play", bids=bids, blind=[False] * 4,
             tricks=[0, 0, 0, 1], played=[(s, parse_card(c)) for s, c in played], leader=3)
    return v


def test_the_sampler_leans_toward_deals_that_agree_with_the_play() -> None:
    played = [(0, "QH"), (1, "9H"), (2, "2H"), (3, "KH")]
    hand = cards("3S", "4S", "5S", "6S", "7S", "8S", "9S", "2D", "3D", "4D", "5D", "6D")
    view = view_after(played, hand, [3, 3, 3, 3])
    low = cards("3H", "4H", "5H", "6H", "7H", "8H")
    read, blind = knowledge(view, read_play=True), knowledge(view)
    assert blind.evidence == [] and [e.seat for e in read.evidence] == [1]
    deals = sample_deals(read, 300, random.Random(5))
    without = sample_deals(blind, 300, random.Random(5))
    assert len(deals) == len(without) == 300
    # Every deal still respects the hard facts: the cards seen are nobody's, and seat 1
    # holds its 12 cards.
    for d in deals:
        assert not d[1] & (hand | cards("QH", "9H", "2H", "KH")) and d[1].bit_count() == 12
    # Uniform deals give seat 1 a heart below its 9 most of the time; read deals seldom.
    base = sum(1 for d in without if d[1] & low) / len(without)
    with_low = sum(1 for d in deals if d[1] & low) / len(deals)
    assert base > 0.85 and with_low < 0.5
    # ... but not never: the facts are soft.
    assert with_low > 0.02
    # The lean is on seat 1's low hearts alone: its other cards are dealt as before.
    high = cards("TH", "JH", "AH")
    share = sum((d[1] & high).bit_count() for d in deals) / sum((d[1] & high).bit_count() for d in without)
    assert share > 1.0


def test_odd_plays_in_a_view_never_raise() -> None:
    # Seats out of range and a trick led by one: the reading degrades, it never fails.
    plays = [(7, parse_card("QH")), (1, parse_card("9H")), (-1, parse_card("2H")), (3, parse_card("KH")),
             (9, parse_card("5D"))]
    found = play_evidence(plays, 4, 2, [3, 3, 3, 3], FULL_DECK)
    assert all(0 <= e.seat < 4 and e.seat != 2 for e in found)
    assert play_evidence([], 4, 0, [None] * 4, FULL_DECK) == []
    assert play_evidence(plays, 4, 0, [3, 3], FULL_DECK) == []  # bids of the wrong length
    # Two-player: not read (its sampler deals by keep odds), even a Nil's shed.
    assert play_evidence([(0, parse_card("QH")), (1, parse_card("9H"))], 2, 0, [3, 0], FULL_DECK) == []


def test_the_partners_facts_can_be_read_at_their_own_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    # The strong bot's own search breaks these facts far more often than the heuristic
    # bots do, so the facts about a partner have their own odds (a setting, off as shipped).
    # Seat 1 reads: its partner (seat 3) and an opponent (seat 0) both follow low under
    # the queen, each unlikely to hold a lower heart.
    played = [(2, "QH"), (3, "9H"), (0, "5H"), (1, "KH")]
    shipped = evidence(played, [3, 3, 3, 3], me=1)
    assert shipped[3] == (cards("2H", "3H", "4H", "6H", "7H", "8H"), LOW_FOLLOW_WEIGHT)
    assert shipped[0] == (cards("2H", "3H", "4H"), LOW_FOLLOW_WEIGHT)
    monkeypatch.setattr(inference, "PARTNER_FACT_WEIGHT", 0.5)
    found = evidence(played, [3, 3, 3, 3], me=1)
    assert found[3] == (shipped[3][0], 0.5)
    assert {s: e for s, e in found.items() if s != 3} == {s: e for s, e in shipped.items() if s != 3}
    monkeypatch.setattr(inference, "PARTNER_FACT_WEIGHT", 1.0)
    assert 3 not in evidence(played, [3, 3, 3, 3], me=1)  # odds of 1: not read at all


def test_the_partners_plays_read_by_the_lowest_of_a_run() -> None:
    # Seat 0 reads its partner, seat 2. Trick 1: the partner leads the heart king, so it
    # did not hold the queen (it would have led the queen from K-Q). Trick 2: it follows
    # the club 9; the 8 went in trick 1, so the card it denies is the 7. The 4 of spades
    # in the trick in progress is not denied: a card in the trick still splits runs.
    played = [(2, "KH"), (3, "8C"), (0, "2H"), (1, "3H"),
              (1, "4S"), (2, "5S")]
    plays = [(s, parse_card(c)) for s, c in played]
    found = inference.run_evidence(plays, 4, 0, unplayed(played), 0.02)
    assert [(e.seat, e.cards, e.weight) for e in found] == [(2, cards("QH"), 0.02)]
    follow = [(1, "2C"), (2, "8C"), (3, "3C"), (0, "4C"),
              (2, "9C"), (3, "TC"), (0, "5C"), (1, "6C")]
    plays = [(s, parse_card(c)) for s, c in follow]
    found = inference.run_evidence(plays, 4, 0, unplayed(follow), 0.02)
    assert [(e.seat, e.cards) for e in found] == [(2, cards("7C"))]
    # A card in the reader's own hand is not in question.
    assert inference.run_evidence(plays, 4, 0, unplayed(follow, cards("7C")), 0.02) == []
    # A partner that later plays a card it was read not to hold does not keep the rule:
    # nothing more is read from it this hand.
    broken = follow + [(1, "2D"), (2, "7C"), (3, "3D"), (0, "4D")]
    plays = [(s, parse_card(c)) for s, c in broken]
    assert inference.run_evidence(plays, 4, 0, unplayed(broken), 0.02) == []


def test_the_run_reading_is_off_as_shipped_and_joins_the_play_facts_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    played = [(2, "KH"), (3, "8C"), (0, "2H"), (1, "3H")]
    plays = [(s, parse_card(c)) for s, c in played]
    bids = [3, 3, 3, 3]
    assert inference.PARTNER_RUN_WEIGHT is None
    shipped = play_evidence(plays, 4, 0, bids, unplayed(played))
    monkeypatch.setattr(inference, "PARTNER_RUN_WEIGHT", 0.02)
    read = play_evidence(plays, 4, 0, bids, unplayed(played))
    assert [e for e in read if e not in shipped] == [inference.Evidence(2, cards("QH"), 0.02)]
