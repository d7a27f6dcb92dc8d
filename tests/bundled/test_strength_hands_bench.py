"""bench/strength_hands.py, the in-process tuning tool: every setting is measured from
the shipped bot (the knobs of an earlier setting are undone), a bad setting is refused
before any hand is played, and one tiny run plays and saves real hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_bench

hands = load_bench("strength_hands")

from bots.strong import bidding, bot, evaluate, game, inference, policy, reading, sampler, search, signals  # noqa: E402
from bots.strong.arena import Arena  # noqa: E402
from bots.strong.bot import Budget, StrongBot  # noqa: E402
from bots.strong.game import MatchContext, RuleSet  # noqa: E402


def test_each_setting_starts_from_the_shipped_bot() -> None:
    blind4 = evaluate.PARAMS["sim_optimism_opp_blind4"]
    shipped = (bot.SearchConfig, bidding.NIL_MIN_PARTNERSHIP, evaluate.PARAMS["sim_optimism"]["4"],
               StrongBot._bid_config, policy.SET_WINDOW, bidding.BID_WINDOW, bidding.FIRST_BID_WINDOW,
               MatchContext.bag_weight, game.MATCH_EQUITY, game.MATCH_EDGE, dict(game.HAND_SPREAD),
               bot.LEARN_PARTNERSHIP_BID_STYLE, inference.PLAY_INFERENCE, inference.NIL_SHED_WEIGHT,
               inference.LOW_FOLLOW_WEIGHT, inference.CHEAP_WIN_WEIGHT, sampler.OVERSAMPLE)
    try:
        budget = hands.apply("exact4=6,nil_min=0.9,sim_optimism=1.5,bid_samples=7,set_window=5,budget=5samples,"
                             "window=1,first_window=2,bag_weight=0.5,borrow=bid+pass,match_equity=0,match_edge=15,"
                             "match_spread=60,bid_style4=0,read_play=0,nil_shed=1,read_weights=0.3:0.4,oversample=7,"
                             "opp_blind_optimism=3,partner_run=0.02,see_tricks=5-13,learned=0.5,learned_seats=partner,"
                             "recursive=8,recursive_seats=pair,exact_mix=0.3,signal=1,signal_eps=2.5,signal_read=0.4,"
                             "opponent_model=blind", "32samples")
        assert budget == Budget(ms=None, samples=5)
        assert bot.SearchConfig().exact_cards4 == 6
        assert (bot.SearchConfig().recursive, bot.SearchConfig().recursive_seats) == (8, "pair")
        assert search.EXACT_PLAYOUT_MIX == 0.3
        assert (signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT) == (True, 2.5, 0.4)
        assert search.OPPONENT_MODEL == "blind"
        assert bidding.NIL_MIN_PARTNERSHIP == 0.9
        assert evaluate.PARAMS["sim_optimism"]["4"] == 1.5
        assert evaluate.PARAMS["sim_optimism_opp_blind4"] == 3.0
        assert StrongBot._bid_config is not shipped[3]
        assert policy.SET_WINDOW == 5
        assert (bidding.BID_WINDOW, bidding.FIRST_BID_WINDOW, hands.BORROWED) == (1, 2, {"bid", "pass"})
        ctx = MatchContext(RuleSet(), 4, 0)
        assert MatchContext.bag_weight(ctx) == 0.5 * shipped[7](ctx)
        assert (game.MATCH_EQUITY, game.MATCH_EDGE, game.HAND_SPREAD["other"][1]) == (False, 15.0, 60.0)
        assert bot.LEARN_PARTNERSHIP_BID_STYLE is False
        assert (inference.PLAY_INFERENCE, inference.NIL_SHED_WEIGHT, inference.LOW_FOLLOW_WEIGHT,
                inference.CHEAP_WIN_WEIGHT, sampler.OVERSAMPLE) == (False, 1.0, 0.3, 0.4, 7)
        assert (inference.PARTNER_RUN_WEIGHT, hands._SEE_TRICKS, reading.LEARNED_READING) == (0.02, [5, 13], 0.5)
        assert reading.LEARNED_SEATS == "partner"
        assert hands.apply("base", "32samples") == Budget(ms=None, samples=32)
        assert (inference.PARTNER_RUN_WEIGHT, hands._SEE_TRICKS, reading.LEARNED_READING) == (None, [1, 13], 0.0)
        assert reading.LEARNED_SEATS == "all"
        assert search.EXACT_PLAYOUT_MIX == 0.0 and bot.SearchConfig().recursive == 0
        assert (signals.SIGNAL_DISCARDS, signals.SIGNAL_EPS, signals.SIGNAL_READ_WEIGHT) == (False, 0.0, None)
        assert search.OPPONENT_MODEL == "policy"
        assert hands.apply("opponent_model=best", "32samples") and search.OPPONENT_MODEL == ""
        assert hands.apply("opponent_model=blind", "32samples") and search.OPPONENT_MODEL == "blind"
        with pytest.raises(SystemExit, match="opponent_model= takes policy, blind or best, got: 'omniscient'"):
            hands.apply("opponent_model=omniscient", "32samples")
        assert hands.apply("budget=128samples,exact=32,bid=64", "16samples") == \
            Budget(ms=None, samples=128, exact_samples=32, bid_samples=64)
        assert hands.apply("exact=8", "16samples") == Budget(ms=None, samples=16, exact_samples=8)
        assert (bot.SearchConfig, bidding.NIL_MIN_PARTNERSHIP, evaluate.PARAMS["sim_optimism"]["4"],
                StrongBot._bid_config, policy.SET_WINDOW, bidding.BID_WINDOW, bidding.FIRST_BID_WINDOW,
                MatchContext.bag_weight, game.MATCH_EQUITY, game.MATCH_EDGE, dict(game.HAND_SPREAD),
                bot.LEARN_PARTNERSHIP_BID_STYLE, inference.PLAY_INFERENCE, inference.NIL_SHED_WEIGHT,
                inference.LOW_FOLLOW_WEIGHT, inference.CHEAP_WIN_WEIGHT, sampler.OVERSAMPLE) == shipped
        assert not hands.BORROWED
        assert evaluate.PARAMS["sim_optimism_opp_blind4"] == blind4
    finally:
        hands.apply("base", "32samples")


def test_an_unknown_setting_is_refused_with_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        hands.main(["--set", "base", "--set", "exact4=6,bogus=1", "--deals", "1"])
    assert "unknown setting 'bogus'" in str(err.value) and "exact4=6,bogus=1" in str(err.value)


def test_a_tiny_run_plays_both_legs_of_every_deal_and_saves_them(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hands.jsonl"
    assert hands.main(["--deals", "1", "--budget", "2samples", "--set", "base", "--set", "bid_samples=3",
                       "--save", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["setting"], r["leg"]) for r in rows) == [("base", 0), ("base", 1),
                                                             ("bid_samples=3", 0), ("bid_samples=3", 1)]
    assert all(r["deal"] == 1 and isinstance(r["net"], (int, float)) for r in rows)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("base") and "hands    2" in printed[0]
    assert printed[1].startswith("bid_samples=3")


def test_a_two_player_run_plays_one_strong_seat_a_side_under_the_default_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert hands.rule_args_of("two-player", []) == []
    assert hands.rule_args_of("partnership", ["blind_nil_behind=100"]) == ["blind_nil=false", "blind_nil_behind=100"]
    seats = hands.table(Budget(samples=2), 3, 1, 2)
    assert [type(s).__name__ for s in seats] == ["Heuristic", "StrongBot"]
    out = tmp_path / "two.jsonl"
    assert hands.main(["--variant", "two-player", "--deals", "1", "--budget", "2samples", "--set", "base",
                       "--set", "opponent_model2=1", "--save", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["setting"], r["leg"]) for r in rows) == [("base", 0), ("base", 1),
                                                             ("opponent_model2=1", 0), ("opponent_model2=1", 1)]
    # One contract a side (no partner), the draw played first: a whole two-player hand.
    assert all(r["bid"] in (0, 1) and r["made"] <= r["bid"] for r in rows)
    assert hands.apply("opponent_model2=1", "2samples") and search.OPPONENT_MODEL_TWO_PLAYER is True
    assert hands.apply("base", "2samples") and search.OPPONENT_MODEL_TWO_PLAYER is False
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("base") and "hands    2" in printed[0]


def test_a_borrowed_bid_is_the_heuristic_bots_on_the_same_messages() -> None:
    # borrow=bid: the strong side's bids come from a heuristic bot that saw the same
    # messages, so they are what two heuristic seats bid on these cards.
    rules = RuleSet(blind_nil=False)
    try:
        hands.apply("borrow=bid", "2samples")
        mixed = [hands.strong_seat(Budget(samples=2), s) if s % 2 == 0 else hands.Heuristic() for s in range(4)]
        assert isinstance(mixed[0], hands.Hybrid)
        got = Arena(mixed, rules, seed=11).play_match(hands=1).hands[0]
    finally:
        hands.apply("base", "2samples")
    plain = Arena([hands.Heuristic() for _ in range(4)], rules, seed=11).play_match(hands=1).hands[0]
    assert [got.bids[s] for s in (0, 2)] == [plain.bids[s] for s in (0, 2)]


def test_the_bag_cost_charges_each_sides_carried_bags() -> None:
    rules = RuleSet(blind_nil=False)
    budget = Budget(samples=2)
    # The first deal that leaves the sides different bags (else the test could not fail),
    # replayed as play() builds it.
    for deal in range(1, 30):
        h = Arena([hands.strong_seat(budget, deal * 4 + s) if s % 2 == 0 else hands.Heuristic()
                   for s in range(4)], rules, seed=deal).play_match(hands=1).hands[0]
        if h.bags[0] != h.bags[1]:
            break
    assert h.bags[0] != h.bags[1], "no deal in 1-29 left the sides different bags"
    plain = hands.play(deal, 0, budget, rules)[0]
    charged = hands.play(deal, 0, budget, rules, bag_cost=10.0)[0]
    assert charged == plain - 10.0 * (h.bags[0] - h.bags[1])


def test_a_lead_starts_the_hand_ahead_and_lets_the_trailing_side_bid_blind_nil() -> None:
    # 250 points behind under blind_nil_behind: 100 the heuristic pair may bid Blind Nil,
    # and does (it bids one from 200 behind); level, it may not.
    rules = RuleSet(blind_nil_behind=100)
    budget = Budget(samples=2)
    for leg in (0, 1):
        ahead = hands.play(5, leg, budget, rules, score=(250, 0))
        level = hands.play(5, leg, budget, rules)
        assert ahead[4] == 1 and ahead[3] in (0, 1), ahead
        assert level[3:] == (0, 0, 0), level
    behind = Arena([hands.Heuristic() for _ in range(4)], rules, seed=5).play_match(hands=1, score=(0, 250))
    assert behind.hands[0].score == [behind.hands[0].points[0], 250 + behind.hands[0].points[1]]


def test_a_hand_from_a_set_score_says_whether_it_ended_the_match() -> None:
    # 499 to 0 without Blind Nil: a made contract ends the match won; 0 to 0 nothing ends.
    rules = RuleSet(blind_nil=False)
    budget = Budget(samples=2)
    results = [hands.play(deal, leg, budget, rules, score=(499, 0)) for deal in (1, 2) for leg in (0, 1)]
    assert any(r[1] for r in results)
    for r in results:
        if r[1]:  # its contract made: past 500 (no Nil failed beside one in these deals)
            assert r[5] == 1, r
    assert all(hands.play(1, leg, budget, rules)[5] == 0 for leg in (0, 1))


def test_lead_and_score_are_exclusive_and_a_bad_score_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in ((["--lead", "100", "--score", "1:2"], "not allowed with"), (["--score", "4x"], "got: '4x'")):
        with pytest.raises(SystemExit):
            hands.main(argv)
        assert said in capsys.readouterr().err


Sample = tuple[sampler.Knowledge, list[list[int]], list[int]]


def _play_decisions_under(setting: str, samples: int) -> list[Sample]:
    """One hand with ``setting`` applied (the strong pair in seats 0 and 2): per play
    search of the strong side, its knowledge, the deals it was handed and the deal as it
    lay; the shipped bot is put back afterwards."""
    from bots.strong import search
    arena: Arena | None = None
    seen: list[Sample] = []
    try:
        hands.apply(setting, f"{samples}samples")
        handed = search.sample_deals

        def spy(k: sampler.Knowledge, count: int, rng: object) -> list[list[int]]:
            out = handed(k, count, rng)
            assert arena is not None
            seen.append((k, out, list(arena.hands)))
            return out

        search.sample_deals = spy  # type: ignore[assignment]
        seats = [hands.strong_seat(Budget(samples=samples), s) if s % 2 == 0 else hands.Heuristic()
                 for s in range(4)]
        arena = Arena(seats, RuleSet(blind_nil=False), seed=5)
        arena.play_match(hands=1)
    finally:
        hands.apply("base", "2samples")
    assert len(seen) >= 10
    return seen


def test_see_play_hands_the_strong_sides_play_search_the_deal_as_it_lies() -> None:
    # see=play: every play decision of the strong side searches the true deal (not a
    # guess), its bids still sample; base puts the real sampler and arena back.
    from bots.strong import search
    original_ask = Arena._ask
    try:
        hands.apply("see=play", "2samples")
        assert bidding.sample_deals is sampler.sample_deals
        assert search.sample_deals is not sampler.sample_deals
    finally:
        hands.apply("base", "2samples")
    seen = _play_decisions_under("see=play", 2)
    assert all(out == [lying] * len(out) and k.hand == lying[k.me] for k, out, lying in seen)
    assert search.sample_deals is sampler.sample_deals and bidding.sample_deals is sampler.sample_deals
    assert Arena._ask is original_ask


def test_see_refuses_a_kind_it_does_not_know() -> None:
    with pytest.raises(SystemExit) as err:
        hands.apply("see=bids", "2samples")
    assert "got: 'bids'" in str(err.value)
    hands.apply("base", "2samples")


def test_see_partner_fixes_the_partners_hand_and_still_samples_the_opponents() -> None:
    seen = _play_decisions_under("see_partner=play", 4)
    partner_right = [all(d[(k.me + 2) % 4] == lying[(k.me + 2) % 4] and d[k.me] == k.hand for d in out)
                     for k, out, lying in seen]
    opponents_guessed = [any(d[s] != lying[s] for d in out for s in ((k.me + 1) % 4, (k.me + 3) % 4))
                         for k, out, lying in seen]
    assert all(partner_right)
    assert sum(opponents_guessed) >= len(seen) // 2


def test_see_suits_shows_only_the_partners_cards_of_the_suits_named() -> None:
    # see_suits=S: every sampled deal gives the partner exactly its true spades; its
    # other suits are still guessed (some deal gets them wrong).
    from bots.strong.cards import SUIT_MASKS
    seen = _play_decisions_under("see_partner=play,see_suits=S", 4)
    spades = SUIT_MASKS[3]
    right = [all(d[(k.me + 2) % 4] & spades == lying[(k.me + 2) % 4] & spades for d in out)
             for k, out, lying in seen]
    whole = [all(d[(k.me + 2) % 4] == lying[(k.me + 2) % 4] for d in out) for k, out, lying in seen]
    assert all(right)
    assert sum(whole) < len(seen) // 2
    assert hands._SEE_SUITS_BOX == [0b1111]
    with pytest.raises(SystemExit) as err:
        hands.apply("see_partner=play,see_suits=SX", "2samples")
    assert "got: 'SX'" in str(err.value)
    hands.apply("base", "2samples")


def test_see_feature_keeps_only_deals_that_agree_with_the_partners_feature() -> None:
    # see_feature=spade_count: every sampled deal gives the partner as many spades as
    # it holds, but not always the same ones; spade_top: its queen-king-ace of spades.
    from bots.strong.cards import SUIT_MASKS
    spades = SUIT_MASKS[3]
    top = spades & ~((1 << 49) - 1)
    seen = _play_decisions_under("see_feature=spade_count", 4)
    p = [(k.me + 2) % 4 for k, _, _ in seen]
    assert all((d[q] & spades).bit_count() == (lying[q] & spades).bit_count()
               for q, (k, out, lying) in zip(p, seen) for d in out)
    assert any(d[q] & spades != lying[q] & spades for q, (k, out, lying) in zip(p, seen) for d in out)
    seen = _play_decisions_under("see_feature=spade_top", 4)
    p = [(k.me + 2) % 4 for k, _, _ in seen]
    assert all(d[q] & top == lying[q] & top for q, (k, out, lying) in zip(p, seen) for d in out)
    assert hands._SEE_FEATURE_BOX == [""]
    with pytest.raises(SystemExit) as err:
        hands.apply("see_feature=hearts", "2samples")
    assert "got: 'hearts'" in str(err.value)
    hands.apply("base", "2samples")


def test_see_tricks_shows_the_cards_only_in_the_tricks_named() -> None:
    # see_partner in tricks 5-13 only: the first four tricks' decisions guess the
    # partner's hand, the later ones are handed it; base shows every trick again.
    seen = _play_decisions_under("see_partner=play,see_tricks=5-13", 4)
    later = [14 - k.hand.bit_count() >= 5 for k, _, _ in seen]
    partner_right = [all(d[(k.me + 2) % 4] == lying[(k.me + 2) % 4] for d in out) for k, out, lying in seen]
    assert any(later) and not all(later)
    assert all(right for right, late in zip(partner_right, later) if late)
    assert not all(right for right, late in zip(partner_right, later) if not late)
    assert hands._SEE_TRICKS == [1, 13]
    for bad in ("0-4", "5-3", "x"):
        with pytest.raises(SystemExit) as err:
            hands.apply(f"see_tricks={bad}", "2samples")
        assert f"got: '{bad}'" in str(err.value)
    hands.apply("base", "2samples")
