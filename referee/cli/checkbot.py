"""``spades check-bot``: a protocol-compliance check for bot authors.

The bot plays a set of short scripted matches of both variants against
in-process opponents, on deals chosen to force the situations bots get
wrong: voids, leading with spades unbroken, a hand of nothing but spades, a
partner's Blind Nil and the exchange, opponents' Blind Nil, no-Nil rules, the
two-player draw, the last trick. The referee runs with the ``substitute``
policy so that one bad answer does not hide the next: every malformed,
illegal or slow answer is reported with the request that caused it. The
exit status is 0 only for a bot with no fault and no slow answer.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shlex
import tempfile
from typing import Any, Callable, Sequence

import click

from referee.game.cards import parse_cards
from referee.game.deals import Deal
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.cli.sandboxing import announce_sandbox, sandbox_option
from referee.match import MatchSpec, bot_process, run_match
from referee.seat.clock import TimeControl
from referee.seat.faults import Fault, FaultKind, FaultPolicy
from referee.seat.sandbox import SandboxPolicy, SandboxSpec
from referee.seat.scripted import ScriptedTransport, random_policy
from referee.seat.spec import SeatSpec
from referee.seat.transcript import Transcript
from referee.seat.transport import ForwardingTransport, Meanwhile, Transport

# Faults per scenario before the referee stops substituting: enough to list a
# bot's distinct mistakes without waiting out dozens of timeouts.
MAX_FAULTS = 10
REQUEST_TYPES = ("hello", "blind_nil", "keep", "discard", "pass", "bid", "play")
SITUATIONS = (
    "play while void in the led suit",
    "lead with spades unbroken",
    "lead holding only spades",
    "last trick",
    "pass cards to a Blind Nil partner",
    "receive an exchange",
    "bid with Nil forbidden",
)


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
    order = [hands[(0 + 1 + k) % 4][i] for i in range(13) for k in range(4)]
    return Deal(tuple(order))


def _void_deal() -> Deal:
    """Seat 1 holds no clubs; seat 0 and the others hold many, so clubs get led at seat 1."""
    c = parse_cards
    seat1 = c("2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 2S 3S".split())
    rest = [x for x in range(52) if x not in seat1]
    rng = random.Random(3)
    rng.shuffle(rest)
    hands = [rest[0:13], seat1, rest[13:26], rest[26:39]]
    order = [hands[(1 + k) % 4][i] for i in range(13) for k in range(4)]
    return Deal(tuple(order))


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


@dataclasses.dataclass
class Exchange:
    """One request to the bot and what came back."""

    scenario: str
    request: dict[str, Any]
    elapsed_ms: float | None
    answer: str | None


class RecordingTransport(ForwardingTransport):
    """Wraps the bot's process to keep every request, answer and timing.

    A stale answer that the runner skips (the late answer to a request that
    timed out) is read with :meth:`read_line`; the request's entry then gets
    the answer that counted, and its time includes the wait.
    """

    def __init__(self, inner: Transport, scenario: str, log: list[Exchange]):
        super().__init__(inner)
        self.scenario, self.log = scenario, log
        self._last: Exchange | None = None

    def request_overlapped(self, line: str, timeout_s: float, meanwhile: Meanwhile | None) -> tuple[str, float]:
        entry = self._last = Exchange(self.scenario, json.loads(line), None, None)
        self.log.append(entry)
        answer, elapsed = super().request_overlapped(line, timeout_s, meanwhile)
        entry.answer, entry.elapsed_ms = answer, elapsed * 1000
        return answer, elapsed

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        answer, elapsed = super().read_line(timeout_s)
        if self._last is not None and self._last.elapsed_ms is not None:
            self._last.answer = answer
            self._last.elapsed_ms += elapsed * 1000
        return answer, elapsed


def situations_of(req: dict[str, Any]) -> list[str]:
    """Which of :data:`SITUATIONS` a request puts the bot in."""
    out = []
    st = req.get("state", {})
    hand = st.get("hand", [])
    if req["type"] == "play":
        trick = st.get("trick", [])
        if trick:
            led = trick[0][1][1]
            if not any(c[1] == led for c in hand):
                out.append(SITUATIONS[0])
        else:
            suits = {c[1] for c in hand}
            if suits == {"S"}:
                out.append(SITUATIONS[2])
            elif "S" in suits and not st.get("spades_broken"):
                out.append(SITUATIONS[1])
        if len(hand) == 1:
            out.append(SITUATIONS[3])
    elif req["type"] == "pass":
        blind = st.get("blind", [])
        to = req.get("to")
        if isinstance(to, int) and to < len(blind) and blind[to]:
            out.append(SITUATIONS[4])
    elif req["type"] == "bid" and 0 not in req.get("legal", [0]):
        out.append(SITUATIONS[6])
    return out


@dataclasses.dataclass
class Report:
    """Everything check-bot found."""

    exchanges: list[Exchange]
    faults: list[tuple[str, Fault]]
    slow: list[Exchange]
    slow_ms: float
    received_exchange: bool

    @property
    def ok(self) -> bool:
        return not self.faults and not self.slow

    def coverage(self) -> dict[str, int]:
        counts = {t: 0 for t in REQUEST_TYPES}
        for ex in self.exchanges:
            counts[ex.request["type"]] = counts.get(ex.request["type"], 0) + 1
        return counts

    def situations(self) -> dict[str, int]:
        counts = {s: 0 for s in SITUATIONS}
        for ex in self.exchanges:
            for s in situations_of(ex.request):
                counts[s] += 1
        if self.received_exchange:
            counts[SITUATIONS[5]] += 1
        return counts


def run_checks(command: str | Sequence[str], move_ms: int = 1000, slow_ms: float | None = None,
               quick: bool = False, cwd: str | None = None,
               progress: Callable[[str], None] | None = None,
               sandbox: SandboxSpec | None = None) -> Report:
    """Play every scenario with the bot and collect faults, slow answers and coverage."""
    log: list[Exchange] = []
    faults: list[tuple[str, Fault]] = []
    received = False
    slow_limit = move_ms / 2 if slow_ms is None else slow_ms
    stopped = None
    with tempfile.TemporaryDirectory(prefix="spades-check-") as tmp:
        for n, sc in enumerate(scenarios(quick)):
            if stopped:
                break
            if progress:
                progress(f"[{n + 1}] {sc.title}")
            rng = random.Random(sc.seed)
            scripted: dict[int, ScriptedTransport] = {}

            def factory(seat: int, seat_spec: SeatSpec, transcript: Transcript, sc: Scenario = sc) -> Transport:
                if seat in sc.bot_seats:
                    return RecordingTransport(bot_process(spec, seat, seat_spec, transcript), sc.title, log)
                policy = random_policy(random.Random(rng.random()), 1.0 if seat in sc.blind_nil_seats else 0.0)
                scripted[seat] = ScriptedTransport(policy, name=f"scripted {seat}")
                return scripted[seat]

            seats = [SeatSpec("bot", command, cwd=cwd) if i in sc.bot_seats else SeatSpec(f"scripted-{i}", "internal")
                     for i in range(sc.variant.seats)]
            spec = MatchSpec(variant=sc.variant, seats=seats, rules=sc.rules, seed=sc.seed,
                             match_id=f"check-{n + 1}", time=TimeControl(move_ms, bank_ms=0),
                             faults=FaultPolicy.SUBSTITUTE, max_faults=MAX_FAULTS, deals=sc.deals, grace_s=0.5,
                             logs=tmp, sandbox=sandbox or SandboxSpec())
            record = run_match(spec, transport_factory=factory)
            faults.extend((sc.title, f) for f in record.faults)
            if record.faults and record.faults[-1].kind in (FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.STARTUP,
                                                                     FaultKind.LIMIT) \
                    and record.reason is EndReason.FORFEIT:
                # The bot stopped answering: more scenarios would only repeat the same verdict slowly.
                stopped = f"stopped after scenario {n + 1}: the bot no longer answers"
                if progress:
                    progress(stopped)
            # Did the bot receive cards in an exchange? (An event, so it is in the transcript.)
            transcript = spec.transcript_path
            assert transcript is not None
            for line in transcript.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                msg = entry.get("msg")
                if entry.get("dir") == "out" and entry.get("seat") in sc.bot_seats and isinstance(msg, dict) \
                        and msg.get("type") == "received":
                    received = True
    # hello has its own start-up allowance (process start included): not a decision.
    slow = [ex for ex in log if ex.elapsed_ms is not None and ex.elapsed_ms > slow_limit
            and ex.request["type"] != "hello"]
    return Report(log, faults, slow, slow_limit, received)


def _short(req: dict[str, Any]) -> str:
    text = json.dumps(req, separators=(",", ":"))
    return text if len(text) <= 600 else text[:600] + "..."


def print_report(report: Report, echo: Callable[[str], None]) -> None:
    echo("")
    echo("Requests answered:")
    for kind, count in report.coverage().items():
        echo(f"  {kind:<10} {count:>5}" + ("   (not exercised: the bot never bid Blind Nil)" if count == 0 and kind == "discard" else ""))
    echo("Situations met:")
    for name, count in report.situations().items():
        echo(f"  {name:<36} {count:>5}")
    times = [ex.elapsed_ms for ex in report.exchanges if ex.elapsed_ms is not None]
    if times:
        times.sort()
        echo(f"Answer time: median {times[len(times) // 2]:.1f} ms, max {times[-1]:.1f} ms "
             f"(slow above {report.slow_ms:.0f} ms)")
    if report.faults:
        echo(f"\n{len(report.faults)} FAULT(S):")
        for title, f in report.faults:
            echo(f"- [{title}] {f.kind.value}: {f.detail}")
            if f.request:
                echo(f"    in answer to: {f.request[:600]}")
    if report.slow:
        echo(f"\n{len(report.slow)} SLOW ANSWER(S) (over {report.slow_ms:.0f} ms):")
        for ex in report.slow[:20]:
            echo(f"- [{ex.scenario}] {ex.elapsed_ms:.0f} ms for: {_short(ex.request)}")
    echo("")
    echo("COMPLIANT: every answer was well-formed, legal and in time." if report.ok
         else "NOT COMPLIANT: see the faults and slow answers above.")


@click.command("check-bot", context_settings={"ignore_unknown_options": True})
@click.option("--move-ms", type=int, default=1000, show_default=True, help="Time allowed per decision.")
@click.option("--slow-ms", type=float, default=None, help="Report answers slower than this (default: half the move time).")
@click.option("--quick", is_flag=True, help="Skip the long whole-match scenario.")
@click.option("--cwd", type=click.Path(file_okay=False), default=None, help="Working directory of the bot.")
@sandbox_option(SandboxPolicy.AUTO.value)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def check_bot_command(move_ms: int, slow_ms: float | None, quick: bool, cwd: str | None, sandbox: str,
                      command: tuple[str, ...]) -> None:
    """Check that a bot speaks protocol v1 correctly: spades check-bot -- CMD [ARGS...]

    The bot plays scripted matches of both variants (every request type,
    voids, unbroken spades, an all-spades hand, Blind Nil offers and
    exchanges, the last trick). Exit status 0 only for a compliant bot.
    """
    argv: str | list[str] = list(command) if len(command) > 1 else command[0]
    announce_sandbox(SandboxPolicy(sandbox))
    click.echo(f"Checking {shlex.join(command) if len(command) > 1 else command[0]}")
    report = run_checks(argv, move_ms=move_ms, slow_ms=slow_ms, quick=quick, cwd=cwd, progress=click.echo,
                        sandbox=SandboxSpec(policy=SandboxPolicy(sandbox)))
    print_report(report, click.echo)
    raise SystemExit(0 if report.ok else 1)
