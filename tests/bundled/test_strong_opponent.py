"""The endgame solve against a model of the opponents (``solver.solve(reply=...)`` and
``bots.strong.opponent``): the other side plays the card the model picks instead of its
best reply. Checked against exhaustive search with the same model on random small
endgames, against the plain solve (a model can only be kinder than the worst case), and
through the search, where it is used only as set (shipped: "policy") and where the play
is read."""

from __future__ import annotations

import random
from typing import Iterator, Sequence

import pytest

from bots.strong import search
from bots.strong.cards import legal_mask, parse_card, trick_winner
from bots.strong.game import RuleSet, side_of
from bots.strong.opponent import policy_reply
from bots.strong.policy import winning
from bots.strong.solver import Position, Reply, solve

from tests.bundled.test_strong_solver import random_objective, random_position


def brute_force_with(pos: Position, value, max_side: int, reply: Reply,
                     modelled: Sequence[int] | None = None) -> dict[int, float]:
    """Every legal card's value by exhaustive search in which ``max_side`` tries every
    card and the other side (or the seats in ``modelled``) plays ``reply``'s card."""
    n = len(pos.hands)
    by_reply = [s in modelled if modelled is not None else side_of(s, n) != max_side for s in range(n)]

    def rec(hands: list[int], trick: list[tuple[int, int]], leader: int, broken: bool,
            tricks: list[int]) -> tuple[float, dict[int, float]]:
        if len(trick) == n:
            w = trick_winner(trick)
            t = list(tricks)
            t[w] += 1
            if hands[w] == 0:
                return value(tuple(t)), {}
            return rec(hands, [], w, broken, t)
        turn = (leader + len(trick)) % n
        led = trick[0][1] // 13 if trick else -1
        legal = legal_mask(hands[turn], led, broken)
        if not by_reply[turn]:
            cards = [c for c in range(52) if legal >> c & 1]
        else:
            wseat, wkey = winning(trick)
            cards = [reply(turn, hands[turn], legal, trick, wseat, wkey, hands, tricks)]
        vals = {}
        for c in cards:
            h2 = list(hands)
            h2[turn] ^= 1 << c
            vals[c] = rec(h2, trick + [(turn, c)], leader, broken or c // 13 == 3, tricks)[0]
        if by_reply[turn]:
            return vals[cards[0]], vals
        return (max if side_of(turn, n) == max_side else min)(vals.values()), vals

    return rec(list(pos.hands), list(pos.trick), pos.leader, pos.broken, list(pos.tricks))[1]


def _max_side_to_move(rng: random.Random, k: int) -> tuple[Position, int]:
    pos = random_position(rng, 4, k, spade_heavy=rng.random() < 0.25)
    return pos, side_of(pos.to_move, 4)


@pytest.mark.parametrize("sees", [True, False])
def test_the_modelled_solve_matches_exhaustive_search_with_the_same_model(sees: bool) -> None:
    rng = random.Random(77)
    differed = 0
    for _ in range(120):
        pos, my_side = _max_side_to_move(rng, rng.randint(1, 3))
        obj = random_objective(rng, 4)
        reply = policy_reply(obj.bids, 4, sees)
        want = brute_force_with(pos, obj.value, my_side, reply)
        got = solve(pos, obj.value, my_side, slots=obj.slots(), reply=reply)
        assert got == pytest.approx(want), (pos, obj.bids)
        plain = solve(pos, obj.value, my_side, slots=obj.slots())
        differed += any(abs(got[c] - plain[c]) > 1e-9 for c in got)
    assert differed > 10  # the model is not the best reply in disguise


@pytest.mark.parametrize("sees", [True, False])
def test_a_modelled_opponent_is_never_worse_for_us_than_its_best_reply(sees: bool) -> None:
    rng = random.Random(78)
    for _ in range(60):
        pos, my_side = _max_side_to_move(rng, 5)
        obj = random_objective(rng, 4)
        plain = solve(pos, obj.value, my_side, slots=obj.slots())
        modelled = solve(pos, obj.value, my_side, slots=obj.slots(), reply=policy_reply(obj.bids, 4, sees))
        assert all(modelled[c] >= plain[c] - 1e-9 for c in plain)


def test_the_model_is_asked_only_for_the_other_sides_turns_with_the_trick_so_far() -> None:
    rng = random.Random(79)
    pos, my_side = _max_side_to_move(rng, 3)
    obj = random_objective(rng, 4)
    inner = policy_reply(obj.bids, 4)
    asked: list[tuple[int, int]] = []

    def spy(seat: int, hand: int, legal: int, trick: Sequence[tuple[int, int]], wseat: int, wkey: int,
            hands: Sequence[int], tricks: Sequence[int]) -> int:
        assert side_of(seat, 4) != my_side
        assert hands[seat] == hand and legal & ~hand == 0
        assert (wseat, wkey) == winning(trick)
        assert sum(tricks) + len(trick) // 4 <= 13 and all(s != seat for s, _ in trick)
        asked.append((seat, len(trick)))
        return inner(seat, hand, legal, trick, wseat, wkey, hands, tricks)

    solve(pos, obj.value, my_side, reply=spy)
    assert asked


@pytest.mark.parametrize("sees", [True, False])
def test_a_modelled_partner_matches_exhaustive_search_and_is_never_better_than_a_searching_one(
        sees: bool) -> None:
    # ``modelled`` names the seats that play by the model; with the partner among them
    # only the seat to move searches. A partner that cannot search can only do worse.
    rng = random.Random(81)
    differed = 0
    for _ in range(120):
        pos, my_side = _max_side_to_move(rng, rng.randint(1, 3))
        me = pos.to_move
        seats = [(me + 1) % 4, (me + 2) % 4, (me + 3) % 4]
        obj = random_objective(rng, 4)
        reply = policy_reply(obj.bids, 4, sees)
        want = brute_force_with(pos, obj.value, my_side, reply, seats)
        got = solve(pos, obj.value, my_side, slots=obj.slots(), reply=reply, modelled=seats)
        assert got == pytest.approx(want), (pos, obj.bids)
        searching = solve(pos, obj.value, my_side, slots=obj.slots(), reply=reply)
        assert all(got[c] <= searching[c] + 1e-9 for c in got)
        differed += any(abs(got[c] - searching[c]) > 1e-9 for c in got)
    assert differed > 5  # the partner's model is not its search in disguise


@pytest.fixture
def modelled() -> Iterator[None]:
    saved = search.OPPONENT_MODEL, search.OPPONENT_MODEL_TWO_PLAYER, search.PARTNER_MODEL
    yield
    search.OPPONENT_MODEL, search.OPPONENT_MODEL_TWO_PLAYER, search.PARTNER_MODEL = saved


def test_the_partner_is_modelled_only_when_set_and_with_the_opponents(modelled: None) -> None:
    bids = [3, 3, 4, 3]
    rules = RuleSet(blind_nil=False)
    search.OPPONENT_MODEL, search.PARTNER_MODEL = "policy", ""
    assert search._endgame_reply(bids, 1, rules, 4)[1] is None  # default: the other side
    search.PARTNER_MODEL = "policy"
    reply, seats = search._endgame_reply(bids, 1, rules, 4)
    assert reply is not None and sorted(seats or []) == [0, 2, 3]
    # Nothing is modelled where the opponents are not (the default rules, no model).
    assert search._endgame_reply(bids, 1, RuleSet(), 4) == (None, None)
    search.OPPONENT_MODEL = ""
    assert search._endgame_reply(bids, 1, rules, 4) == (None, None)


def test_two_player_models_the_opponent_only_when_its_own_switch_is_on(modelled: None) -> None:
    # Two-player reads no play, so the partnership gate never turns the model on there;
    # its own switch does, and only while a model is chosen at all.
    for model, two, want2 in (("policy", False, False), ("policy", True, True), ("", True, False)):
        search.OPPONENT_MODEL, search.OPPONENT_MODEL_TWO_PLAYER = model, two
        assert search.models_opponents(RuleSet(), 2) is want2, (model, two)
        # Partnership is untouched by the two-player switch.
        assert search.models_opponents(RuleSet(blind_nil=False), 4) is bool(model)
        assert search.models_opponents(RuleSet(), 4) is False


def test_the_search_uses_the_model_only_when_set_and_where_the_play_is_read(
        modelled: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from bots.strong.view import View
    calls: list[bool] = []
    real = search.solve

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(kwargs.get("reply") is not None)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "solve", spy)
    names = [("AC", "5C", "9D", "4H", "KS"), ("2C", "QD", "8H", "9H", "3S"),
             ("KC", "7C", "JD", "TH", "AS"), ("3C", "4D", "AH", "5S", "2H")]
    hands = [sum(1 << parse_card(c) for c in h) for h in names]
    view = View(n=4, seat=0, hand=hands[0], phase="play", bids=[3, 3, 4, 3], blind=[False] * 4,
                tricks=[3, 2, 1, 2], trick=[], leader=0, broken=True, played=[],
                score=(0, 0), bags=(0, 0), dealer=3)
    # A sampler that deals the true hands keeps the test about the search alone.
    monkeypatch.setattr(search, "sample_deals", lambda k, count, rng: [list(hands)] * count)
    cfg = search.SearchConfig(samples=2)
    for setting, rules, want in (("", RuleSet(blind_nil=False), False), ("policy", RuleSet(blind_nil=False), True),
                                 ("blind", RuleSet(blind_nil=False), True),
                                 ("policy", RuleSet(), False)):
        search.OPPONENT_MODEL = setting
        calls.clear()
        search.decide_play(view, rules, view.hand, cfg, random.Random(1))
        assert calls and all(c == want for c in calls), (setting, rules)


def test_the_blind_model_plays_from_the_cards_out_not_from_the_hands() -> None:
    # The two models see the same positions; the blind one must sometimes play
    # otherwise (it cannot know who holds the cards still out).
    rng = random.Random(80)
    differ = 0
    for _ in range(200):
        pos = random_position(rng, 4, 4)
        seat = pos.to_move
        bids = [rng.choice([0, 2, 3, 4]) for _ in range(4)]
        led = pos.trick[0][1] // 13 if pos.trick else -1
        legal = legal_mask(pos.hands[seat], led, pos.broken)
        wseat, wkey = winning(pos.trick)
        picks = [policy_reply(bids, 4, sees)(seat, pos.hands[seat], legal, pos.trick, wseat, wkey, pos.hands,
                                             pos.tricks) for sees in (True, False)]
        assert all(legal >> c & 1 for c in picks)
        differ += picks[0] != picks[1]
    assert 0 < differ < 200
