"""``spades check-bot``: a protocol-compliance check for bot authors.

The bot plays a set of short scripted matches of both variants against
in-process opponents, on deals chosen to force the situations bots get
wrong: voids, leading with spades unbroken, a hand of nothing but spades, a
partner's Blind Nil and the exchange, opponents' Blind Nil, no-Nil rules, the
two-player draw, the last trick. The referee runs with the ``substitute``
policy so that one bad answer does not hide the next: every malformed,
illegal or slow answer is reported with the request that caused it (see
:mod:`referee.cli.checkreport` for how). The exit status is 0 only for a bot
with no fault and no slow answer.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shlex
import tempfile
from typing import Callable, Sequence

import click

from referee.cli.checkreport import (REQUEST_TYPES, SITUATIONS, Exchange, FaultEntry, Report, entries_for_seat,
                                    print_report, situations_of)
from referee.game.cards import parse_cards
from referee.game.deals import Deal, deal_from_hands
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.cli.matchinputs import check_ms
from referee.cli.pathtype import UserPath
from referee.cli.sandboxing import announce_sandbox, sandbox_option
from referee.match import MatchRecord, MatchSpec, bot_process, run_match
from referee.seat.clock import TimeControl
from referee.seat.faults import Fault, FaultKind, FaultPolicy, SeatFault
from referee.seat.sandbox import SandboxPolicy, SandboxSpec
from referee.seat.scripted import ScriptedTransport, random_policy
from referee.seat.spec import SeatSpec
from referee.seat.transcript import Transcript
from referee.seat.transport import ForwardingTransport, Meanwhile, Transport

__all__ = ["REQUEST_TYPES", "SITUATIONS", "Scenario", "scenarios", "RecordingTransport", "Report", "run_checks",
           "print_report", "situations_of", "check_bot_command"]

# Faults per scenario before the referee stops substituting: enough to list a
# bot's distinct mistakes without waiting out dozens of timeouts.
MAX_FAULTS = 10
#: The start-up allowance of the bot in each scenario (as in a match by default).
CHECK_STARTUP_MS = TimeControl().startup_ms


@dataclasses.dataclass
class Scenario:
    """One scripted match: where the bot sits, the deals, the opponents' habits."""

    title: str
    variant: Variant
    bot_seats: tuple[int, ...]
    rules: Rules
    seed: int
    deals: Sequence[Deal] | None = None
    blind_nil_seats: tuple[int, ...] = ()  # scripted seats that always bid Blind Nil


def _only_spades_deal() -> Deal:
    """Seat 1 (first to lead when seat 0 deals) holds all thirteen spades."""
    rng = random.Random(7)
    others = [c for c in range(39)]
    rng.shuffle(others)
    hands = [others[0:13], list(range(39, 52)), others[13:26], others[26:39]]
    return deal_from_hands(hands, dealer=0)


def _void_deal() -> Deal:
    """Seat 1 holds no clubs; seat 0 and the others hold many, so clubs get led at seat 1."""
    c = parse_cards
    seat1 = c("2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 2S 3S".split())
    rest = [x for x in range(52) if x not in seat1]
    rng = random.Random(3)
    rng.shuffle(rest)
    hands = [rest[0:13], seat1, rest[13:26], rest[26:39]]
    return deal_from_hands(hands, dealer=0)


def scenarios(quick: bool = False) -> list[Scenario]:
    """The scripted matches, in the order they are played."""
    short = Rules(max_hands=1)
    out = [
        Scenario("partnership: ordinary deals", Variant.PARTNERSHIP, (1,), Rules(max_hands=2), 101),
        Scenario("partnership: you hold only spades", Variant.PARTNERSHIP, (1,), short, 102, [_only_spades_deal()]),
        Scenario("partnership: you are void in clubs", Variant.PARTNERSHIP, (1,), short, 103, [_void_deal()]),
        Scenario("partnership: your partner bids Blind Nil", Variant.PARTNERSHIP, (1,), short, 104,
                 blind_nil_seats=(3,)),
        Scenario("partnership: both opponents bid Blind Nil", Variant.PARTNERSHIP, (1,), short, 105,
                 blind_nil_seats=(0, 2)),
        Scenario("partnership: Nil and Blind Nil not allowed", Variant.PARTNERSHIP, (1,),
                 Rules(max_hands=1, nil=False, blind_nil=False), 106),
        Scenario("two-player: you draw first, then second", Variant.TWO_PLAYER, (0,), Rules(max_hands=2), 201),
        Scenario("two-player: your opponent bids Blind Nil", Variant.TWO_PLAYER, (0,), short, 202,
                 blind_nil_seats=(1,)),
        Scenario("two-player: near the bag limit", Variant.TWO_PLAYER, (1,), Rules(max_hands=2, bag_limit=3), 203),
    ]
    if not quick:
        out.append(Scenario("partnership: a whole match to 200", Variant.PARTNERSHIP, (0, 2),
                            Rules(target=200, max_hands=12), 107))
    return out


class RecordingTransport(ForwardingTransport):
    """Wraps the bot's process to keep every request, answer and timing.

    A stale answer that the runner skips (the late answer to a request that
    timed out) is read with :meth:`read_line`; the request's entry then gets
    the answer that counted, and its time includes the wait. Output found
    with no request outstanding is noted with the exchange it followed
    (:attr:`unexpected_after`), so the report can tell a stray line before an
    answer from a second mistake.
    """

    def __init__(self, inner: Transport, scenario: str, log: list[Exchange]):
        super().__init__(inner)
        self.scenario, self.log = scenario, log
        self.exchanges: list[Exchange] = []  # this seat's own, in order
        self.unexpected_after: Exchange | None = None
        self._last: Exchange | None = None

    def request_overlapped(self, line: str, timeout_s: float, meanwhile: Meanwhile | None) -> tuple[str, float]:
        entry = self._last = Exchange(self.scenario, json.loads(line), None, None)
        self.log.append(entry)
        self.exchanges.append(entry)
        answer, elapsed = super().request_overlapped(line, timeout_s, meanwhile)
        entry.answer, entry.elapsed_ms = answer, elapsed * 1000
        return answer, elapsed

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        answer, elapsed = super().read_line(timeout_s)
        if self._last is not None and self._last.elapsed_ms is not None:
            self._last.answer = answer
            self._last.elapsed_ms += elapsed * 1000
        return answer, elapsed

    def check_unexpected(self) -> None:
        try:
            super().check_unexpected()
        except SeatFault:
            if self.unexpected_after is None:
                self.unexpected_after = self._last
            raise


def _stopped(n: int, record: MatchRecord, seats: Sequence[int]) -> str | None:
    """Why no more scenarios are worth playing after scenario ``n``, if so.

    Only when the bot cannot take part at all any more: it did not start, or
    crashed or ran out of time so often that the scenario was forfeited.
    """
    if record.reason is not EndReason.FORFEIT:
        return None
    own = [f for f in record.faults if f.seat in seats]
    if not own or own[0].kind not in (FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.STARTUP, FaultKind.LIMIT):
        return None
    first = own[0]
    if first.kind is FaultKind.TIMEOUT and any(f.kind is not FaultKind.TIMEOUT for f in own):
        return None
    return (f"Stopped after scenario {n}: the bot {first.kind.summary} ({first.detail}); "
            "the other scenarios would only repeat it.")


def run_checks(command: str | Sequence[str], move_ms: int = 1000, slow_ms: float | None = None,
               quick: bool = False, cwd: str | None = None,
               progress: Callable[[str], None] | None = None, startup_ms: int = CHECK_STARTUP_MS,
               sandbox: SandboxSpec | None = None) -> Report:
    """Play every scenario with the bot and collect faults, slow answers and coverage.

    The bot's clock is ``move_ms`` per decision with no bank (``bank_ms`` 0), so
    any answer over the move time is a timeout; ``startup_ms`` is its allowance
    to start and answer ``hello``.
    """
    log: list[Exchange] = []
    faults: list[tuple[str, Fault]] = []
    entries: list[FaultEntry] = []
    received = False
    slow_limit = move_ms / 2 if slow_ms is None else slow_ms
    stopped = None
    with tempfile.TemporaryDirectory(prefix="spades-check-") as tmp:
        for n, sc in enumerate(scenarios(quick), start=1):
            if stopped:
                break
            if progress:
                progress(f"[{n}] {sc.title}")
            rng = random.Random(sc.seed)
            recorders: dict[int, RecordingTransport] = {}

            def factory(seat: int, seat_spec: SeatSpec, transcript: Transcript, sc: Scenario = sc) -> Transport:
                if seat in sc.bot_seats:
                    recorders[seat] = RecordingTransport(bot_process(spec, seat, seat_spec, transcript), sc.title, log)
                    return recorders[seat]
                policy = random_policy(random.Random(rng.random()), 1.0 if seat in sc.blind_nil_seats else 0.0)
                return ScriptedTransport(policy, name=f"scripted {seat}")

            seats = [SeatSpec("bot", command, cwd=cwd) if i in sc.bot_seats else SeatSpec(f"scripted-{i}", "internal")
                     for i in range(sc.variant.seats)]
            spec = MatchSpec(variant=sc.variant, seats=seats, rules=sc.rules, seed=sc.seed,
                             match_id=f"check-{n}", time=TimeControl(move_ms, bank_ms=0, startup_ms=startup_ms),
                             faults=FaultPolicy.SUBSTITUTE, max_faults=MAX_FAULTS, deals=sc.deals, grace_s=0.5,
                             logs=tmp, sandbox=sandbox or SandboxSpec())
            record = run_match(spec, transport_factory=factory)
            faults.extend((sc.title, f) for f in record.faults)
            for seat in sc.bot_seats:
                rec = recorders.get(seat)
                entries += entries_for_seat(n, sc.title, [f for f in record.faults if f.seat == seat],
                                            rec.exchanges if rec else [], rec.unexpected_after if rec else None,
                                            spec.stderr_path(seat), record.reason is EndReason.FORFEIT)
            stopped = _stopped(n, record, sc.bot_seats)
            if stopped and progress:
                progress(stopped)
            received = received or _received_exchange(spec, sc.bot_seats)
    # hello has its own start-up allowance (process start included): not a decision.
    slow = [ex for ex in log if ex.elapsed_ms is not None and ex.elapsed_ms > slow_limit
            and ex.request["type"] != "hello"]
    return Report(log, faults, slow, slow_limit, received, entries, stopped, MAX_FAULTS)


def _received_exchange(spec: MatchSpec, bot_seats: Sequence[int]) -> bool:
    """Whether the bot received cards in an exchange (an event, so it is in the transcript)."""
    transcript = spec.transcript_path
    assert transcript is not None
    for line in transcript.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        msg = entry.get("msg")
        if entry.get("dir") == "out" and entry.get("seat") in bot_seats and isinstance(msg, dict) \
                and msg.get("type") == "received":
            return True
    return False


@click.command("check-bot", context_settings={"ignore_unknown_options": True})
@click.option("--move-ms", type=int, default=1000, show_default=True, help="Time allowed per decision.")
@click.option("--slow-ms", type=float, default=None, help="Report answers slower than this (default: half the move time).")
@click.option("--startup-ms", type=int, default=CHECK_STARTUP_MS, show_default=True,
              help="Allowance to start and answer hello.")
@click.option("--quick", is_flag=True, help="Skip the long whole-match scenario.")
@click.option("--cwd", type=UserPath(file_okay=False), default=None, help="Working directory of the bot.")
@sandbox_option(SandboxPolicy.AUTO.value)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def check_bot_command(move_ms: int, slow_ms: float | None, startup_ms: int, quick: bool, cwd: str | None,
                      sandbox: str,
                      command: tuple[str, ...]) -> None:
    """Check that a bot speaks protocol v1 correctly: spades check-bot -- CMD [ARGS...]

    The bot plays scripted matches of both variants (every request type,
    voids, unbroken spades, an all-spades hand, Blind Nil offers and
    exchanges, the last trick). The Blind Nil bidder's own requests (discard,
    pass back) are met only if the bot itself bids Blind Nil. Exit status 0
    only for a compliant bot.
    """
    check_ms("--move-ms", move_ms, 1)
    check_ms("--startup-ms", startup_ms, 1)
    argv: str | list[str] = list(command) if len(command) > 1 else command[0]
    announce_sandbox(SandboxPolicy(sandbox))
    click.echo(f"Checking {shlex.join(command) if len(command) > 1 else command[0]}")
    report = run_checks(argv, move_ms=move_ms, slow_ms=slow_ms, quick=quick, cwd=cwd, progress=click.echo,
                        startup_ms=startup_ms, sandbox=SandboxSpec(policy=SandboxPolicy(sandbox)))
    print_report(report, click.echo)
    raise SystemExit(0 if report.ok else 1)
