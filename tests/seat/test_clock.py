"""Clock: move time, bank and start-up allowance, with exact numbers."""

from __future__ import annotations

import pytest

from referee.seat.clock import Clock, ClockStats
from referee.seat.faults import BotFault, FaultKind


def test_allowances_include_the_whole_bank() -> None:
    clock = Clock(move_ms=1000, bank_ms=500, startup_ms=3000)
    assert clock.allowance_s() == 1.5
    assert clock.startup_allowance_s() == 3.0
    assert clock.bank_ms_left == 500
    assert (clock.move_ms, clock.startup_ms) == (1000, 3000)


def test_time_within_the_move_leaves_the_bank_alone() -> None:
    clock = Clock(1000, 500, 3000)
    clock.charge(0.999)
    clock.charge(1.0)  # exactly the move time is not an overrun
    assert clock.bank_ms_left == 500
    assert clock.allowance_s() == 1.5


def test_overrun_is_drawn_from_the_bank_exactly() -> None:
    clock = Clock(1000, 500, 3000)
    clock.charge(1.2)
    assert clock.bank_ms_left == 300
    assert clock.bank_us_left == 300_000
    assert clock.allowance_s() == 1.3
    clock.charge(1.3)  # uses the bank to the last microsecond: still in time
    assert clock.bank_ms_left == 0
    assert clock.allowance_s() == 1.0


def test_overrun_beyond_the_bank_is_a_timeout_with_a_precise_message() -> None:
    clock = Clock(1000, 0, 3000)
    with pytest.raises(BotFault) as info:
        clock.charge(1.2)
    assert info.value.kind is FaultKind.TIMEOUT
    assert str(info.value) == "took 1200 ms > 1000 ms move time and the 0 ms bank"

    clock = Clock(100, 250, 3000)
    clock.charge(0.2)  # bank 250 -> 150
    with pytest.raises(BotFault) as info:
        clock.charge(0.2501)
    assert str(info.value) == "took 251 ms > 100 ms move time and the 150 ms bank"
    assert clock.bank_ms_left == 150  # a failed charge does not drain the bank


def test_message_rounds_up_so_it_never_claims_equal_times() -> None:
    clock = Clock(1000, 0, 3000)
    with pytest.raises(BotFault) as info:
        clock.charge(1.0003)
    assert str(info.value) == "took 1001 ms > 1000 ms move time and the 0 ms bank"


def test_bank_is_kept_in_microseconds_without_drift() -> None:
    clock = Clock(100, 1000, 3000)
    for _ in range(1000):
        clock.charge(0.1001)  # 100 us over each time
    assert clock.bank_us_left == 900_000
    assert clock.bank_ms_left == 900
    clock.charge(0.1005)
    assert clock.bank_us_left == 899_500
    assert clock.bank_ms_left == 899  # bots are told the floor


def test_stats_count_total_and_max() -> None:
    clock = Clock(1000, 0, 3000)
    assert clock.stats == ClockStats(0, 0.0, 0.0)
    assert clock.stats.mean_ms == 0.0
    clock.charge(0.010)
    clock.charge(0.030)
    clock.charge(0.002)
    stats = clock.stats
    assert (stats.count, stats.total_ms, stats.max_ms) == (3, 42.0, 30.0)
    assert stats.mean_ms == 14.0
    with pytest.raises(BotFault):
        clock.charge(2.0)
    assert clock.stats == ClockStats(4, 2042.0, 2000.0)  # the fatal decision counts too


def test_startup_is_separate_from_decisions() -> None:
    clock = Clock(1000, 500, 3000)
    assert clock.startup_used_ms is None
    clock.charge_startup(2.5)
    assert clock.startup_used_ms == 2500.0
    assert clock.stats.count == 0
    assert clock.bank_ms_left == 500
    with pytest.raises(BotFault) as info:
        clock.charge_startup(3.0004)
    assert info.value.kind is FaultKind.STARTUP
    assert str(info.value) == "took 3001 ms to start and answer hello > 3000 ms start-up allowance"


@pytest.mark.parametrize(
    "args, message",
    [
        ((-1, 0, 100), "move_ms must be an integer >= 0, got: -1"),
        ((100, 1.5, 100), "bank_ms must be an integer >= 0, got: 1.5"),
        ((100, 0, True), "startup_ms must be an integer >= 0, got: True"),
        ((0, 0, 100), "move_ms and bank_ms cannot both be 0"),
    ],
)
def test_bad_settings_are_rejected(args: tuple[object, object, object], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Clock(*args)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_negative_elapsed_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="got: -0.1"):
        Clock(100, 0, 100).charge(-0.1)
