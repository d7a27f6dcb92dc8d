"""Time control of the strong bot: how long each decision may think, and when it stops.

Two clocks matter and they are not the same:

* the **referee's clock** is wall time, from writing a request to reading the answer:
  ``move_ms`` per request, and a ``bank_ms`` reserve per match that pays for overruns;
  running out of it loses the match;
* the **thinking budget** (``--budget 150ms``) is *CPU time* of this process. On a loaded
  machine the wall clock also counts the time other processes hold the core; measuring
  the budget in CPU time gives a decision the same amount of search whatever the load,
  so more budget always means more search, and a loaded machine does not silently
  weaken the bot.

:func:`plan` turns a budget, the clock and the kind of decision into a :class:`Deadline`
with both limits: the CPU budget and a wall-clock limit that always leaves a margin for
the answer and the pipe (``move_ms - margin``, plus a share of the bank above a
reserve), so a decision never costs the match on time, however loaded the machine is.
Bids (and the Blind Nil decision) get twice a play's budget: they decide most of a
hand's score and come once per hand.

:class:`SolveCosts` remembers what an exact solve costs at each number of cards, so that
a decision only starts exact search when its budget affords enough solved samples (and
a long budget solves one card earlier than the configured threshold); otherwise it values
cards by playouts, which cost a fraction of a millisecond.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import time

# Part of move_ms, and a fixed part, kept free of thinking: the last sample in flight,
# building and writing the answer, the pipe, and the scheduler's delays when the machine
# is loaded (measured: under a load of 2 per core a line can wait 10-30 ms to be read).
MARGIN_FRACTION = 0.15
MARGIN_MS = 25.0
# The bank is a safety net first: half of it (as it was at the start of the match) is
# never planned into a decision. The rest is spread over the decisions still to come.
BANK_RESERVE = 0.5
# Decisions the bank share assumes are still to come besides this hand's cards: about
# two more hands. Each decision takes at most this fraction of what is left, so the
# planned drain of the bank is geometric and never reaches the reserve.
DECISIONS_AHEAD = 28
BID_FACTOR = 2.0  # a bid's (and a Blind Nil decision's) budget, in plays' budgets
# Exact search is used up to the configured threshold when the budget affords this many
# solved samples. Measured at 7-8 cards in two-player (40 positions from self-play; mean
# regret in points against a 160-sample exact search; CPU per decision): 200 playouts
# 4.62 (55 ms), 400 playouts 3.98 (108 ms); 4 solves 5.55 (16 ms), 8 solves 4.63 (32 ms),
# 16 solves 3.70 (65 ms). At equal CPU time solves do at least as well as playouts.
MIN_EXACT_SAMPLES = 4
# One card past the threshold, exact search needs this many (untested ground: more).
MIN_EXTRA_EXACT_SAMPLES = 16


class Decision(enum.Enum):
    """The kinds of decision that get a share of the clock."""

    PLAY = "play"
    BID = "bid"  # the bid and the partnership Blind Nil decision

    @property
    def weight(self) -> float:
        return BID_FACTOR if self is Decision.BID else 1.0


@dataclasses.dataclass(frozen=True)
class Budget:
    """Work per decision: CPU time (``ms``) or a fixed number of sampled deals.

    A sample budget may set the endgame and the bids apart: ``exact_samples`` solved
    deals for a play decision searched exactly to the end of the hand (default: the
    same as ``samples``), and ``bid_samples`` for a bid or a Blind Nil decision
    (default: ``samples`` times the bid factor). Early play decisions, valued by
    playouts, are where more samples pay most (docs/strong-bot.md, *Time*), and the
    endgame's exact solves and the bids cost far more per sample."""

    ms: float | None = 300.0
    samples: int | None = None
    exact_samples: int | None = None
    bid_samples: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """Parse ``'200ms'``, ``'0.5s'``, ``'64samples'`` (or a bare number of ms); a
        sample budget may add ``,exact=N`` and ``,bid=N`` (``'128samples,exact=32,bid=64'``)."""
        head, *extras = [part.strip() for part in text.strip().lower().split(",")]
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ms|s|samples?)?", head)
        if not m:
            raise ValueError(f"bad budget {text!r}: expected e.g. '200ms', '0.5s', '64samples' "
                             f"or '128samples,exact=32,bid=64'")
        value, unit = float(m.group(1)), m.group(2) or "ms"
        if unit.startswith("sample"):
            if value < 1 or value != int(value):
                raise ValueError(f"bad budget {text!r}: a sample count must be a whole number >= 1")
            counts: dict[str, int] = {}
            for extra in extras:
                key, eq, count = extra.partition("=")
                key = key.strip()
                if key not in ("exact", "bid") or not eq or not count.strip().isdigit() or int(count) < 1:
                    raise ValueError(f"bad budget {text!r}: after the sample count only exact=N and bid=N "
                                     f"(whole numbers >= 1) may follow, got: {extra!r}")
                if key in counts:
                    raise ValueError(f"bad budget {text!r}: {key}= given twice")
                counts[key] = int(count)
            return cls(ms=None, samples=int(value), exact_samples=counts.get("exact"),
                       bid_samples=counts.get("bid"))
        if extras:
            raise ValueError(f"bad budget {text!r}: exact= and bid= go with a sample budget "
                             f"('128samples,exact=32'), not a time budget")
        ms = value * 1000 if unit == "s" else value
        if ms <= 0:
            raise ValueError(f"bad budget {text!r}: must be positive")
        return cls(ms=ms, samples=None)

    def describe(self) -> str:
        if self.samples is None:
            return f"{self.ms:g} ms"
        text = f"{self.samples} samples"
        if self.exact_samples is not None:
            text += f", {self.exact_samples} exact"
        if self.bid_samples is not None:
            text += f", {self.bid_samples} for bids"
        return text


@dataclasses.dataclass(frozen=True)
class Deadline:
    """When a decision must stop starting work: a wall-clock limit (``time.perf_counter``)
    and, for time budgets, a CPU-time limit (``time.process_time``)."""

    wall: float
    cpu: float | None = None

    def passed(self) -> bool:
        if time.perf_counter() >= self.wall:
            return True
        return self.cpu is not None and time.process_time() >= self.cpu

    def cpu_left(self) -> float:
        """CPU seconds left before the CPU limit (infinite without one)."""
        return float("inf") if self.cpu is None else self.cpu - time.process_time()

    def sooner(self, cpu_seconds: float) -> "Deadline":
        """The same deadline, with the CPU limit at most ``cpu_seconds`` from now."""
        cap = time.process_time() + cpu_seconds
        return Deadline(self.wall, cap if self.cpu is None else min(self.cpu, cap))


def expired(deadline: "Deadline | float | None") -> bool:
    """True once ``deadline`` has passed (a bare float is a ``time.perf_counter`` value)."""
    if deadline is None:
        return False
    if isinstance(deadline, Deadline):
        return deadline.passed()
    return time.perf_counter() >= deadline


@dataclasses.dataclass(frozen=True)
class ClockState:
    """The referee's clock as a request reports it (``state.time``), in ms.

    ``move_ms`` None means no move clock at all (then only the budget limits a decision);
    0 means every request is paid from the bank."""

    move_ms: float | None
    bank_ms: float
    bank_start_ms: float
    latency_ms: float = 0.0  # time the referee charges beyond what the bot measures

    def margin_ms(self) -> float:
        return MARGIN_MS + MARGIN_FRACTION * (self.move_ms or 0.0) + self.latency_ms

    def bank_share_ms(self, cards_left: int) -> float:
        """The bank this decision may plan to use: the part above the reserve, spread
        over this hand's remaining decisions and :data:`DECISIONS_AHEAD` more."""
        usable = self.bank_ms - BANK_RESERVE * self.bank_start_ms
        return max(0.0, usable) / (max(0, cards_left) + DECISIONS_AHEAD)

    def wall_ms(self, cards_left: int) -> float | None:
        """The longest a decision may take on the wall clock, None without a clock."""
        if self.move_ms is None:
            return None
        move_part = max(0.0, self.move_ms - self.margin_ms())
        return move_part + self.bank_share_ms(cards_left)


class LatencyMeter:
    """Time the referee charges that the bot's own clock does not see.

    The referee's clock runs from writing a request to reading the answer; the bot's from
    reading the request to answering. On a loaded machine the difference (a frozen bot
    being thawed and scheduled, the referee scheduled to read) reached 50-100 ms, and
    once a second. The bank tells: when it shrinks by more than the bot's own overrun
    of ``move_ms``, the rest is latency. The estimate jumps up to what was seen and
    decays slowly, and it widens the margin of every plan."""

    DECAY = 0.9  # per request: a spike is remembered for a few dozen requests

    def __init__(self) -> None:
        self.ms = 0.0
        self._bank: float | None = None
        self._over = 0.0

    def observe(self, bank_ms: float) -> None:
        """A request's ``bank_ms``: compare with the bank before the last answer."""
        if self._bank is not None and bank_ms < self._bank:
            seen = max(0.0, (self._bank - bank_ms) - self._over)
            self.ms = max(seen, self.ms)
        else:
            self.ms *= self.DECAY
        self._bank = bank_ms
        self._over = 0.0

    def answered(self, elapsed_ms: float, move_ms: float | None) -> None:
        """The bot's own measure of the answer it just gave."""
        self._over = max(0.0, elapsed_ms - move_ms) if move_ms is not None else 0.0


@dataclasses.dataclass(frozen=True)
class Plan:
    """The limits of one decision: a deadline, and a sample count for sample budgets."""

    deadline: Deadline
    samples: int | None
    think_ms: float  # CPU ms planned (for sample budgets: the wall limit)
    wall_ms: float

    def describe(self) -> str:
        what = f"{self.samples} samples" if self.samples is not None else f"{self.think_ms:.0f} ms CPU"
        return f"{what} within {self.wall_ms:.0f} ms"


# Without a move clock a decision still ends: a sample budget stops after this long.
NO_CLOCK_WALL_MS = 60_000.0


def plan(budget: Budget, kind: Decision, clock: ClockState, cards_left: int,
         t0: float, c0: float) -> Plan:
    """The limits of a decision that began at wall time ``t0`` and CPU time ``c0``.

    A time budget becomes a CPU limit of ``budget.ms`` times the decision's weight (bids
    2x), cut to the wall limit; a sample budget keeps its count (reproducible work)
    under the same wall limit. The wall limit is ``move_ms`` minus the margin plus the
    bank share, so the plan never exceeds ``move_ms - margin`` when the bank is at or
    below its reserve."""
    wall = clock.wall_ms(cards_left)
    wall_ms = NO_CLOCK_WALL_MS if wall is None else wall
    if budget.samples is not None:
        if kind is Decision.BID and budget.bid_samples is not None:
            samples = budget.bid_samples
        else:
            samples = int(round(budget.samples * kind.weight))
        return Plan(Deadline(t0 + wall_ms / 1000.0), samples, wall_ms, wall_ms)
    think = min((budget.ms or 0.0) * kind.weight, wall_ms)
    return Plan(Deadline(t0 + wall_ms / 1000.0, c0 + think / 1000.0), None, think, wall_ms)


# CPU ms per sampled deal of an exact decision with k cards in every hand (one solve
# valuing every candidate card; bench/solver_speed.py on the development machine, real
# positions cost about the same). The running figures replace these as the bot solves.
PRIOR_SOLVE_MS = {
    2: {1: 0.05, 2: 0.1, 3: 0.2, 4: 0.3, 5: 0.6, 6: 1.1, 7: 3.0, 8: 6.0, 9: 16.0, 10: 28.0},
    4: {1: 0.1, 2: 0.15, 3: 0.3, 4: 1.3, 5: 10.0, 6: 50.0},
}
COST_SMOOTHING = 0.3  # weight of the newest decision in the running figures
# Exact search may start at up to this many cards more than the configured threshold
# when the budget affords MIN_EXACT_SAMPLES solves there (a long think solves deeper).
EXTRA_EXACT_CARDS = 1


class LoadMeter:
    """The share of a core this process gets while it thinks (CPU time / wall time),
    as a running figure: on a machine loaded by other processes a wall-clock limit
    buys less CPU, and the plan's choice of exact search must know it."""

    def __init__(self) -> None:
        self.share = 1.0

    def record(self, wall_s: float, cpu_s: float) -> None:
        if wall_s < 0.005:  # too short to say anything
            return
        ratio = min(1.0, max(0.05, cpu_s / wall_s))
        self.share = (1 - COST_SMOOTHING) * self.share + COST_SMOOTHING * ratio

    def expected_cpu_ms(self, p: "Plan") -> float:
        """The CPU time a decision under plan ``p`` can expect to get."""
        return min(p.think_ms, p.wall_ms * self.share)


def samples_needed(cards: int, default: int) -> int:
    """Solved samples a decision must afford to search exactly with ``cards`` in hand."""
    return MIN_EXACT_SAMPLES if cards <= default else MIN_EXTRA_EXACT_SAMPLES


class SolveCosts:
    """Running estimate of an exact sample's CPU cost by variant and cards in hand."""

    def __init__(self) -> None:
        self._ms = {n: dict(t) for n, t in PRIOR_SOLVE_MS.items()}

    def ms(self, n: int, cards: int) -> float:
        table = self._ms.get(n, {})
        if cards in table:
            return table[cards]
        return float("inf")

    def record(self, n: int, cards: int, cpu_ms: float, samples: int) -> None:
        """Fold in a finished exact decision: ``cpu_ms`` spent for ``samples`` solved
        (a decision cut short mid-solve counts the unfinished sample too)."""
        if cards not in self._ms.get(n, {}):
            return
        per = cpu_ms / max(1, samples)
        old = self._ms[n][cards]
        self._ms[n][cards] = (1 - COST_SMOOTHING) * old + COST_SMOOTHING * per

    def relax(self) -> None:
        """Move every figure halfway back to its prior (at each hand's start): a figure
        that grew too large to allow exact search is no longer measured, and one hand's
        hard positions should not rule exact search out for the rest of the match."""
        for n, table in self._ms.items():
            for k, v in table.items():
                table[k] = 0.5 * (v + PRIOR_SOLVE_MS[n][k])

    def exact_limit(self, n: int, default: int, think_ms: float) -> int:
        """The most cards in hand (at most ``default`` + :data:`EXTRA_EXACT_CARDS`) at
        which ``think_ms`` of CPU affords the solved samples exact search needs there
        (:func:`samples_needed`); 0 when not even one card does."""
        limit = 0
        for k in range(1, default + EXTRA_EXACT_CARDS + 1):
            if self.ms(n, k) * samples_needed(k, default) <= think_ms:
                limit = k
            else:
                break
        return limit
