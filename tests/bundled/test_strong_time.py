"""The strong bot's time control (bots/strong/timing.py): plans on hand-built clocks, the
CPU-time budget, exact search only where the budget affords it, and real processes under
short clocks that never time out."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.strong.bot import StrongBot
from bots.strong.cards import legal_mask, parse_card
from bots.strong.game import RuleSet
from bots.strong.search import SearchConfig, decide_play
from bots.strong.timing import (BANK_RESERVE, Budget, ClockState, Deadline,
                                Decision, LatencyMeter, LoadMeter, SolveCosts, expired, plan)
from bots.strong.view import parse_view
from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
STRONG = ROOT / "bots" / "strong_bot.py"


def clock(move_ms: float | None, bank_ms: float, start_ms: float | None = None) -> ClockState:
    return ClockState(move_ms, bank_ms, bank_ms if start_ms is None else start_ms)


def test_a_bid_gets_more_than_a_mid_hand_play() -> None:
    c = clock(1000, 10000)
    bid = plan(Budget(ms=200), Decision.BID, c, 13, 0.0, 0.0)
    play = plan(Budget(ms=200), Decision.PLAY, c, 7, 0.0, 0.0)
    assert bid.think_ms == 400 and play.think_ms == 200
    samples_bid = plan(Budget(samples=24), Decision.BID, c, 13, 0.0, 0.0)
    assert samples_bid.samples == 48
    # A bid count of its own replaces the factor; plays keep the main count.
    split = Budget.parse("24samples,bid=10")
    assert plan(split, Decision.BID, c, 13, 0.0, 0.0).samples == 10
    assert plan(split, Decision.PLAY, c, 13, 0.0, 0.0).samples == 24


@pytest.mark.parametrize("move_ms", [60, 120, 150, 300, 1000, 5000])
@pytest.mark.parametrize("budget", [Budget(ms=50), Budget(ms=300), Budget(ms=5000), Budget(samples=500)])
def test_the_plan_never_exceeds_move_ms_minus_the_margin_without_a_bank(move_ms: int, budget: Budget) -> None:
    """With the bank at or below its reserve (here: tiny, or half used), nothing is
    planned beyond ``move_ms`` minus the margin, for plays and bids alike."""
    for bank, start in ((0, 0), (5, 10), (400, 1000), (5000, 10000)):
        c = clock(move_ms, bank, start)
        limit = move_ms - c.margin_ms()
        for kind in Decision:
            for cards in (13, 7, 2):
                p = plan(budget, kind, c, cards, t0=100.0, c0=50.0)
                assert p.wall_ms <= limit + 1e-9
                assert p.deadline.wall - 100.0 <= limit / 1000.0 + 1e-9
                if p.deadline.cpu is not None:
                    assert p.think_ms <= p.wall_ms and p.deadline.cpu - 50.0 <= limit / 1000.0 + 1e-9


def test_the_bank_above_its_reserve_pays_for_longer_thinking_and_is_never_drained() -> None:
    """A 300 ms clock with a 10 s bank: decisions plan beyond the move time, and a match
    whose every decision uses its whole plan leaves the bank above its reserve."""
    move, bank, start = 300.0, 10000.0, 10000.0
    first = plan(Budget(ms=1000), Decision.PLAY, clock(move, bank, start), 12, 0.0, 0.0)
    assert first.wall_ms > move
    for _hand in range(20):
        for cards in range(13, 0, -1):
            p = plan(Budget(ms=1000), Decision.PLAY, clock(move, bank, start), cards, 0.0, 0.0)
            bank -= max(0.0, p.wall_ms - move)  # the referee charges overruns to the bank
            assert bank >= BANK_RESERVE * start
    late = plan(Budget(ms=1000), Decision.PLAY, clock(move, bank, start), 12, 0.0, 0.0)
    assert late.wall_ms < first.wall_ms


def test_more_budget_never_plans_less() -> None:
    c = clock(1000, 10000)
    costs = SolveCosts()
    thinks = [plan(Budget(ms=ms), Decision.PLAY, c, 9, 0.0, 0.0).think_ms for ms in (10, 50, 150, 500, 1000, 3000)]
    assert thinks == sorted(thinks)
    for n, default in ((2, 8), (4, 5)):
        limits = [costs.exact_limit(n, default, t) for t in (10, 50, 150, 500, 1000, 3000)]
        assert limits == sorted(limits)


def test_the_exact_threshold_follows_the_budget() -> None:
    """Exact search down to the configured threshold unless the budget cannot afford even
    a few solves there; a long budget solves one card earlier."""
    costs = SolveCosts()
    assert costs.exact_limit(2, 8, 10) < 8
    assert costs.exact_limit(2, 8, 50) == costs.exact_limit(2, 8, 150) == 8
    assert costs.exact_limit(2, 8, 1000) == 9
    assert costs.exact_limit(4, 5, 20) < 5
    assert costs.exact_limit(4, 5, 300) == 5
    assert costs.exact_limit(4, 5, 1000) == 6
    # Solves turn out ten times dearer than the prior at 8 cards: 150 ms no longer affords them.
    dear = 10 * costs.ms(2, 8)
    for _ in range(10):
        costs.record(2, 8, cpu_ms=dear * 20, samples=20)
    assert costs.exact_limit(2, 8, 150) < 8
    for _ in range(10):
        costs.relax()  # hand by hand, back toward the prior
    assert costs.exact_limit(2, 8, 150) == 8


def test_a_loaded_machine_lowers_the_expected_cpu() -> None:
    meter = LoadMeter()
    p = plan(Budget(ms=300), Decision.PLAY, clock(300, 0), 9, 0.0, 0.0)
    assert meter.expected_cpu_ms(p) == p.think_ms
    for _ in range(20):
        meter.record(wall_s=0.2, cpu_s=0.05)  # a quarter of a core
    assert meter.expected_cpu_ms(p) == pytest.approx(0.25 * p.wall_ms, rel=0.05)


def test_latency_the_bot_cannot_see_widens_the_margin() -> None:
    """The bank shrank by 150 ms after an answer the bot measured at 320 ms on a 300 ms
    clock: 130 ms were spent outside the bot (scheduling, pipes). Later plans leave that
    much more room, and the estimate fades when the bank stops shrinking."""
    meter = LatencyMeter()
    meter.observe(10000)
    meter.answered(320, 300)
    meter.observe(9850)
    assert meter.ms == pytest.approx(130)
    calm = plan(Budget(ms=5000), Decision.PLAY, ClockState(300, 0, 0), 9, 0.0, 0.0)
    wary = plan(Budget(ms=5000), Decision.PLAY, ClockState(300, 0, 0, meter.ms), 9, 0.0, 0.0)
    assert wary.wall_ms == pytest.approx(calm.wall_ms - 130)
    for _ in range(40):
        meter.answered(100, 300)
        meter.observe(9850)
    assert meter.ms < 5


def test_a_bot_process_learns_latency_from_the_bank() -> None:
    bot = two_player_bot("300ms", 300, 10000)
    hand = ["5C", "3D", "8D", "AD", "4H", "TH", "QH", "6S", "JS", "AS", "2D", "9H", "KS"]
    bot.handle(play_request(hand, ["5C"], [[1, "KC"]], 300, 10000))
    bot.handle(play_request(hand, ["5C"], [[1, "KC"]], 300, 9700))  # 300 ms gone unseen
    assert bot.clock.latency_ms == pytest.approx(300)
    assert bot.clock.wall_ms(13) == pytest.approx(bot.clock.bank_share_ms(13))  # no move time left


def test_the_budget_is_cpu_time_waiting_does_not_use_it() -> None:
    """A decision's CPU budget is not spent while the process does not run (another
    process holding the core); the wall limit still ends it."""
    d = Deadline(wall=time.perf_counter() + 60.0, cpu=time.process_time() + 0.05)
    time.sleep(0.15)
    assert not d.passed() and not expired(d)
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    assert d.passed()
    assert Deadline(wall=time.perf_counter() - 1.0, cpu=time.process_time() + 60).passed()
    assert expired(time.perf_counter() - 1.0) and not expired(None)


def play_request(hand: list[str], legal: list[str], trick: list, move_ms: int, bank_ms: int, **kw) -> dict:
    state = {"hand_no": 1, "seat": 0, "phase": "play", "hand": hand, "first": 1, "bids": [4, 4],
             "blind": [False, False], "tricks": [0, 0], "trick": trick, "leader": 1,
             "spades_broken": False, "played": list(trick), "score": [0, 0], "bags": [0, 0],
             "time": {"move_ms": move_ms, "bank_ms": bank_ms}}
    state.update(kw)
    return {"type": "play", "id": 5, "legal": legal, "state": state}


def two_player_bot(budget: str, move_ms: int, bank_ms: int) -> StrongBot:
    bot = StrongBot(Budget.parse(budget), seed=1)
    bot.handle({"type": "hello", "id": 0, "protocol": 1, "variant": "two-player", "seat": 0,
                "rules": {}, "time": {"move_ms": move_ms, "bank_ms": bank_ms}})
    return bot


def test_a_forced_move_is_answered_at_once() -> None:
    """One legal card (here: the only club, following a club lead) with a 20 s budget."""
    bot = two_player_bot("20s", 60000, 0)
    hand = ["5C", "3D", "8D", "AD", "4H", "TH", "QH", "6S", "JS", "AS", "2D", "9H", "KS"]
    t0 = time.perf_counter()
    ans = bot.handle(play_request(hand, ["5C"], [[1, "KC"]], 60000, 0))
    assert ans == {"id": 5, "card": "5C"}
    assert time.perf_counter() - t0 < 2.0  # the budget would take 20 s


def last_tricks_where_nothing_matters() -> dict:
    """Two-player, 11 tricks played (each seat followed suit, seat 1 won them all); seat 1
    leads the ace of spades; seat 0, void in spades, holds 2C and 2D: whichever it plays,
    it loses this trick and the last one."""
    mine, led = ["2C", "2D"], "AS"
    rest = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in mine + [led]]
    thrown, rest = rest[::4][:13], [c for c in rest if c not in rest[::4][:13]]
    played: list[list] = []
    by_suit = {s: [c for c in rest if c[1] == s] for s in "CDHS"}
    for s in "CDHS":
        cards = by_suit[s]
        while len(cards) >= 2 and len(played) < 22:
            low, high = cards.pop(0), cards.pop()
            played += [[1, high], [0, low]]
    assert len(played) == 22
    return {"hand_no": 1, "seat": 0, "phase": "play", "hand": mine, "first": 0, "bids": [1, 5],
            "blind": [False, False], "tricks": [0, 11], "trick": [[1, led]], "leader": 1,
            "spades_broken": True, "played": played + [[1, led]], "discards": thrown,
            "score": [0, 0], "bags": [0, 0], "time": {"move_ms": 60000, "bank_ms": 0}}


def test_cards_equal_in_every_sample_stop_the_search_early() -> None:
    """2C and 2D are not equivalent cards, but worth the same in every deal: a 20 s
    time budget stops after a few samples."""
    bot = two_player_bot("20s", 60000, 0)
    logs: list[str] = []
    bot._log, bot.verbose = logs.append, True
    t0 = time.perf_counter()
    ans = bot.handle({"type": "play", "id": 5, "legal": ["2C", "2D"], "state": last_tricks_where_nothing_matters()})
    assert ans["card"] in ("2C", "2D")
    assert time.perf_counter() - t0 < 5.0
    assert any("play: 12 samples" in line for line in logs), logs


def hard_two_player_position(seed: int) -> tuple:
    """Two-player, four tricks played (every seat followed suit), 9 random cards each."""
    card = lambda c: "23456789TJQKA"[c % 13] + "CDHS"[c // 13]  # noqa: E731
    played = [[0, "2C"], [1, "3C"], [1, "4D"], [0, "5D"], [0, "2H"], [1, "3H"], [1, "6D"], [0, "7D"]]
    gone = {parse_card(c) for _, c in played}
    deck = [c for c in range(52) if c not in gone]
    random.Random(seed).shuffle(deck)
    mine, thrown = deck[:9], deck[9:22]  # its hand, and the 13 cards it discarded in the draw
    state = {"hand_no": 1, "seat": 0, "phase": "play", "hand": [card(c) for c in mine], "first": 0,
             "bids": [4, 5], "blind": [False, False], "tricks": [2, 2], "trick": [], "leader": 0,
             "spades_broken": False, "played": played, "discards": [card(c) for c in thrown],
             "score": [0, 0], "bags": [0, 0]}
    view = parse_view(state, 2, 0)
    return view, legal_mask(view.hand, -1, False)


def test_an_exact_search_too_slow_for_the_budget_switches_to_playouts() -> None:
    """The first solve is a probe: when it alone outlasts its share, the decision values
    its cards by playouts (many samples) instead of a handful of solves."""
    view, legal = hard_two_player_position(3)
    rules = RuleSet()
    deadline = Deadline(wall=time.perf_counter() + 30.0, cpu=time.process_time() + 0.3)
    cfg = SearchConfig(deadline=deadline, exact_cards2=9, exact_probe_s=0.0, max_samples=64)
    report = decide_play(view, rules, legal, cfg, random.Random(1))
    assert not report.exact and report.samples == 64 and not report.fallback
    # The same position with an affordable probe is solved exactly.
    deadline = Deadline(wall=time.perf_counter() + 30.0, cpu=time.process_time() + 30.0)
    cfg = SearchConfig(deadline=deadline, exact_cards2=9, exact_probe_s=10.0, samples=4)
    report = decide_play(view, rules, legal, cfg, random.Random(1))
    assert report.exact and report.samples == 4


@pytest.mark.parametrize("variant,target", [("two-player", 150), ("partnership", 100)])
def test_a_real_process_under_move_ms_150_never_times_out(tmp_path: Path, variant: str, target: int) -> None:
    """Whole matches through the referee, the strong bot at its default budget, with a
    150 ms move clock and a bank of only 1 s: no fault, every answer on time."""
    bots = [f"{sys.executable} {STRONG}", "builtin:heuristic"]
    if variant == "partnership":
        bots = bots * 2
    args = ["match", "--variant", variant, "--seed", "5", "--target", str(target), "--move-ms", "150",
            "--bank-ms", "1000", "--rule", "max_hands=3", "--sandbox", "none", "--json", "-q"]
    for b in bots:
        args += ["--bot", b]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    record = json.loads(result.output[result.output.index("{"):])
    assert record["faults"] == [], record["faults"]
    assert record["hands"], "no hand was played"
