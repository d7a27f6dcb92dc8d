"""The referee's chess-style clock for one bot in one match.

Each request gets ``move_ms``; time beyond it is drawn from a per-match
``bank_ms`` reserve; a bot that needs more than the bank still holds has
timed out. The hello answer has its own ``startup_ms`` allowance and is not a
decision: it neither touches the bank nor enters the decision statistics.

Time is kept in integer microseconds so that charging thousands of decisions
never accumulates floating-point drift and tests can assert exact values.
Elapsed times come from the caller (:meth:`referee.seat.botprocess.BotProcess.request`
measures them with :func:`time.perf_counter`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from referee.seat.faults import BotFault, FaultKind

__all__ = ["Clock", "ClockStats", "TimeControl"]


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """Time limits of one seat. ``move_ms=None`` means no move clock (a human seat).

    The defaults are the referee's defaults everywhere (``spades match``,
    tournament configs): stated here once.
    """

    move_ms: int | None = 1000
    bank_ms: int = 10000
    startup_ms: int = 10000

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        """The inverse of :meth:`to_dict`."""
        return cls(**data)

    def clock(self) -> Clock | None:
        """A fresh clock for one match, or None when there is no move clock."""
        return Clock(self.move_ms, self.bank_ms, self.startup_ms) if self.move_ms is not None else None


def _us(seconds: float) -> int:
    """Seconds to whole microseconds (rounded to nearest)."""
    return round(seconds * 1_000_000)


def _ms_up(us: int) -> int:
    """Microseconds to whole milliseconds, rounded up, for messages.

    Rounding up keeps a message truthful: 1000.3 ms over a 1000 ms allowance
    reads "took 1001 ms > 1000 ms", never "took 1000 ms > 1000 ms".
    """
    return -(-us // 1000)


@dataclasses.dataclass(frozen=True)
class ClockStats:
    """Decision-time statistics of one bot (hello excluded)."""

    count: int
    total_ms: float
    max_ms: float

    @property
    def mean_ms(self) -> float:
        """Average decision time, 0.0 when no decision was charged."""
        return self.total_ms / self.count if self.count else 0.0


class Clock:
    """Move time, bank and start-up allowance of one bot for one match."""

    def __init__(self, move_ms: int, bank_ms: int, startup_ms: int) -> None:
        for label, value in (("move_ms", move_ms), ("bank_ms", bank_ms), ("startup_ms", startup_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{label} must be an integer >= 0, got: {value!r}")
        if move_ms == 0 and bank_ms == 0:
            raise ValueError("move_ms and bank_ms cannot both be 0: no request could be answered")
        self._move_us = move_ms * 1000
        self._bank_us = bank_ms * 1000
        self._startup_us = startup_ms * 1000
        self._move_ms = move_ms
        self._startup_ms = startup_ms
        self._count = 0
        self._total_us = 0
        self._max_us = 0
        self._startup_used_us: int | None = None

    @property
    def move_ms(self) -> int:
        """Allowance per request, in milliseconds."""
        return self._move_ms

    @property
    def startup_ms(self) -> int:
        """Allowance for the hello answer, in milliseconds."""
        return self._startup_ms

    @property
    def bank_ms_left(self) -> int:
        """Bank remaining, whole milliseconds rounded down (what the bot is told)."""
        return self._bank_us // 1000

    @property
    def bank_us_left(self) -> int:
        """Bank remaining, exact, in microseconds."""
        return self._bank_us

    @property
    def startup_used_ms(self) -> float | None:
        """Time the hello answer took, once :meth:`charge_startup` has run."""
        return None if self._startup_used_us is None else self._startup_used_us / 1000

    def allowance_s(self) -> float:
        """Deadline for the next request in seconds: move time plus the whole bank."""
        return (self._move_us + self._bank_us) / 1_000_000

    def startup_allowance_s(self) -> float:
        """Deadline for the hello answer in seconds."""
        return self._startup_us / 1_000_000

    def charge(self, elapsed_s: float) -> None:
        """Account one decision that took ``elapsed_s`` seconds.

        Time over ``move_ms`` is drawn from the bank. If the overrun is larger
        than the bank held, the bank is left untouched and
        ``BotFault(TIMEOUT)`` is raised; the decision still enters the stats
        (the standings show how long a bot really took).
        """
        used = _us(elapsed_s)
        if used < 0:
            raise ValueError(f"elapsed time must be >= 0, got: {elapsed_s!r}")
        self._count += 1
        self._total_us += used
        if used > self._max_us:
            self._max_us = used
        over = used - self._move_us
        if over <= 0:
            return
        if over > self._bank_us:
            raise BotFault(
                FaultKind.TIMEOUT,
                f"took {_ms_up(used)} ms > {self._move_ms} ms move time"
                f" and the {self._bank_us // 1000} ms bank",
            )
        self._bank_us -= over

    def charge_startup(self, elapsed_s: float) -> None:
        """Account the hello answer; ``BotFault(STARTUP)`` if it was too slow.

        ``elapsed_s`` should include the process start
        (:attr:`BotProcess.spawn_s` plus the hello round trip).
        """
        used = _us(elapsed_s)
        if used < 0:
            raise ValueError(f"elapsed time must be >= 0, got: {elapsed_s!r}")
        self._startup_used_us = used
        if used > self._startup_us:
            raise BotFault(
                FaultKind.STARTUP,
                f"took {_ms_up(used)} ms to start and answer hello > {self._startup_ms} ms"
                " start-up allowance",
            )

    @property
    def stats(self) -> ClockStats:
        """Count, total and maximum decision time so far."""
        return ClockStats(self._count, self._total_us / 1000, self._max_us / 1000)

    def __repr__(self) -> str:
        return (
            f"Clock(move_ms={self._move_ms}, bank_ms_left={self.bank_ms_left},"
            f" startup_ms={self._startup_ms})"
        )

