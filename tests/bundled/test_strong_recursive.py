"""Endgame valuations other than the plain exact solve (settings, off as shipped).

The one that makes the next turns from a seat's own view (``bots/strong/recursive.py``)
reduces to the exact solve when those turns are made perfectly, never exceeds it when
they are not, and the search uses it only when set; a playout mix
(``search.EXACT_PLAYOUT_MIX``) blends the solve and the playout by its weight."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bots.strong.cards import mask_of
from bots.strong.game import RuleSet, side_of
from bots.strong.recursive import advance, recursive_values
from bots.strong.search import SearchConfig, decide_play
from bots.strong.solver import Position, solve
from bots.strong.view import View

from tests.bundled.test_strong_solver import random_objective

C, D, H, S = 0, 13, 26, 39


def _deal(rng: random.Random, k: int) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [mask_of(deck[i * k:(i + 1) * k]) for i in range(4)]


def _view(hands: list[int], seat: int, leader: int, k: int, bids: list[int]) -> View:
    """Seat ``seat``'s view of a fresh trick led by ``leader`` with ``k`` cards each, the
    earlier tricks' cards out of play (not in any hand)."""
    tricks = [0, 0, 0, 0]
    for t in range(13 - k):
        tricks[t % 4] += 1
    return View(n=4, seat=seat, hand=hands[seat], bids=list(bids), blind=[False] * 4, tricks=tricks,
                trick=[], leader=leader, broken=True, played=[], score=(0, 0), bags=(0, 0))


def _omniscient(deal: list[int], value, my_side: int):
    """An inner decision that sees ``deal`` (the hands at the root): the solver's best card
    for the mover's side, the lowest of equal ones."""
    def inner(v: View, legal: int) -> int:
        gone = 0
        for _, c in v.played:
            gone |= 1 << c
        hands = [h & ~gone for h in deal]
        vals = solve(Position(hands, list(v.trick), v.leader, v.broken, list(v.tricks)), value, my_side)
        mine = side_of(v.seat, 4) == my_side
        best = max(vals.values()) if mine else min(vals.values())
        card = min(c for c, x in vals.items() if x == best)
        assert legal >> card & 1
        return card
    return inner


def _lowest(v: View, legal: int) -> int:
    return (legal & -legal).bit_length() - 1


def test_advance_closes_the_trick() -> None:
    hands = [mask_of([H + 5, C + 1]), mask_of([H + 9, C + 2]), mask_of([S + 0, C + 3]), mask_of([H + 2, C + 4])]
    v = _view(hands, 0, 0, 2, [3, 3, 3, 3])
    v.broken = False
    v = advance(advance(v, 0, H + 5), 1, H + 9)
    assert v.hand == mask_of([C + 1]) and v.trick == [(0, H + 5), (1, H + 9)] and not v.broken
    v = advance(advance(v, 2, S + 0), 3, H + 2)
    assert v.trick == [] and v.leader == 2 and v.broken
    assert v.tricks[2] == 1 + 3 and len(v.played) == 4


@pytest.mark.parametrize("seats", ["self", "pair", "all"])
def test_perfect_next_turns_give_the_exact_values(seats: str) -> None:
    rng = random.Random(17)
    for _ in range(25):
        k = rng.randint(2, 4)
        deal = _deal(rng, k)
        obj = random_objective(rng, 4)
        my_side = obj.ctx.my_side
        seat, leader = my_side + 2 * rng.randrange(2), rng.randrange(4)
        v = _view(deal, seat, leader, k, obj.bids)
        # Play the trick up to this seat by the solver, so the root is mid-trick too.
        hands = list(deal)
        while v.to_move != seat:
            mover = v.to_move
            pos = Position(list(hands), list(v.trick), v.leader, v.broken, list(v.tricks))
            card = min(solve(pos, obj.value, my_side))
            hands[mover] ^= 1 << card
            v = advance(v, mover, card)
        legal = v.legal_from(hands[seat])
        cands = [c for c in range(52) if legal >> c & 1]
        pos = Position(list(hands), list(v.trick), v.leader, v.broken, list(v.tricks))
        exact = solve(pos, obj.value, my_side, slots=obj.slots())
        got = recursive_values(v, hands, cands, obj.value, obj.slots(),
                               _omniscient(deal, obj.value, my_side), seats)
        assert got == pytest.approx(exact)
        if seats != "all":
            # Worse turns of this seat's own side can only lose value against the solve.
            worse = recursive_values(v, hands, cands, obj.value, obj.slots(), _lowest, seats)
            assert all(worse[c] <= exact[c] + 1e-9 for c in cands)
    with pytest.raises(ValueError, match="got: 'both'"):
        recursive_values(v, hands, cands, obj.value, obj.slots(), _lowest, "both")


@pytest.mark.parametrize("seats", ["self", "pair", "all"])
def test_with_an_opponent_model_perfect_turns_give_the_modelled_solve(seats: str) -> None:
    # The opponents play the model's card at every turn (before ``seats``: "all" is
    # "pair" here); this side's perfect turns against that model reproduce the solve
    # that models them, and a plain best reply for the opponents would differ.
    from bots.strong.opponent import policy_reply
    rng = random.Random(23)
    differs = 0
    for _ in range(25):
        k = rng.randint(2, 4)
        deal = _deal(rng, k)
        obj = random_objective(rng, 4)
        my_side = obj.ctx.my_side
        seat = my_side + 2 * rng.randrange(2)
        v = _view(deal, seat, seat, k, obj.bids)
        reply = policy_reply(obj.bids, 4)

        def inner(iv: View, legal: int) -> int:
            gone = 0
            for _, c in iv.played:
                gone |= 1 << c
            hs = [h & ~gone for h in deal]
            assert side_of(iv.seat, 4) == my_side  # the model makes the opponents' turns
            vals = solve(Position(hs, list(iv.trick), iv.leader, iv.broken, list(iv.tricks)), obj.value,
                         my_side, reply=reply)
            best = max(vals.values())
            return min(c for c, x in vals.items() if x == best)

        legal = v.legal_from(deal[seat])
        cands = [c for c in range(52) if legal >> c & 1]
        pos = Position(list(deal), [], v.leader, v.broken, list(v.tricks))
        modelled = solve(pos, obj.value, my_side, slots=obj.slots(), reply=reply)
        got = recursive_values(v, deal, cands, obj.value, obj.slots(), inner, seats, reply=reply)
        assert got == pytest.approx(modelled)
        differs += solve(pos, obj.value, my_side, slots=obj.slots()) != pytest.approx(modelled)
    assert differs >= 3


def test_a_wrong_next_turn_costs_what_the_solver_hides() -> None:
    # Seat 0 leads the ace of clubs, then must choose its next lead: a diamond to its
    # partner's king and queen (three tricks for the pair) or a heart into the
    # opponents' ace (two). The exact solve assumes it will choose well; an inner turn
    # that always leads hearts gets the pair one trick less.
    hands = [mask_of([C + 12, H + 3, D + 3]), mask_of([C + 0, H + 12, D + 0]),
             mask_of([C + 1, D + 11, D + 10]), mask_of([C + 2, H + 11, D + 1])]
    v = _view(hands, 0, 0, 3, [3, 3, 3, 3])

    def pair_tricks(t: tuple[int, ...]) -> float:
        return float(t[0] + t[2] - v.tricks[0] - v.tricks[2])

    def lead_hearts(view: View, legal: int) -> int:
        return _lowest(view, legal & mask_of(range(H, H + 13)) or legal)

    slots = [0, 1, 2, 3]
    exact = solve(Position(list(hands), [], 0, True, list(v.tricks)), pair_tricks, 0, slots=slots)
    assert exact[C + 12] == 3.0
    got = recursive_values(v, hands, [C + 12], pair_tricks, slots, lead_hearts)
    assert got == {C + 12: 2.0}
    diamonds = recursive_values(v, hands, [C + 12], pair_tricks, slots, _lowest)
    assert diamonds == {C + 12: 3.0}  # its lowest card is the 5 of diamonds


def _played_view(seed: int, k: int) -> tuple[View, list[int]]:
    """Seat 0's view after 13 - k tricks of random legal play, and the hands then."""
    rng = random.Random(seed)
    hands = _deal(rng, 13)
    v = View(n=4, seat=0, hand=hands[0], bids=[3, 3, 3, 3], blind=[False] * 4, tricks=[0] * 4,
             trick=[], leader=0, broken=False, played=[], score=(0, 0), bags=(0, 0))
    while len(v.played) < 4 * (13 - k):
        mover = v.to_move
        legal = v.legal_from(hands[mover])
        card = rng.choice([c for c in range(52) if legal >> c & 1])
        hands[mover] ^= 1 << card
        v = advance(v, mover, card)
    return v, hands


def _mover_view(seed: int, k: int) -> tuple[View, int]:
    """The view of the seat to move in :func:`_played_view`'s position, and its legal cards."""
    v, hands = _played_view(seed, k)
    me = v.to_move
    v = dataclasses.replace(v, seat=me, hand=hands[me])
    return v, v.legal_from(hands[me])


def test_search_uses_it_only_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from bots.strong import search
    calls: list[str] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[-1])
        return recursive_values(*args, **kwargs)
    monkeypatch.setattr(search, "recursive_values", spy)
    v, legal = _mover_view(5, 4)
    rules = RuleSet()
    plain = decide_play(v, rules, legal, SearchConfig(samples=6), random.Random(1))
    rec = decide_play(v, rules, legal, SearchConfig(samples=6, recursive=4, recursive_seats="all"),
                      random.Random(1))
    again = decide_play(v, rules, legal, SearchConfig(samples=6, recursive=4, recursive_seats="all"),
                        random.Random(1))
    assert plain.exact and rec.exact and rec.samples == 6 and not rec.fallback
    assert calls == ["all"] * 12  # once per sampled deal of the two set searches, never for the plain one
    assert legal >> rec.card & 1 and rec.card == again.card and rec.values == again.values
    assert SearchConfig().recursive == 0


def test_a_playout_mix_blends_the_two_values(monkeypatch: pytest.MonkeyPatch) -> None:
    from bots.strong import search
    v, legal = _mover_view(11, 5)
    rules = RuleSet()
    exact = decide_play(v, rules, legal, SearchConfig(samples=4), random.Random(2))
    rolled = decide_play(v, rules, legal, SearchConfig(samples=4, exact_cards4=0), random.Random(2))
    assert exact.exact and not rolled.exact and len(exact.values) > 1
    monkeypatch.setattr(search, "EXACT_PLAYOUT_MIX", 0.25)
    mixed = decide_play(v, rules, legal, SearchConfig(samples=4), random.Random(2))
    assert mixed.values == pytest.approx({c: 0.75 * exact.values[c] + 0.25 * rolled.values[c]
                                          for c in exact.values})
