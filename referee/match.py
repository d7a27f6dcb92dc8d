"""One match between bots: the engine, the protocol and the bot processes together.

:func:`run_match` starts one transport per seat (normally a
:class:`~referee.botprocess.BotProcess`), says hello, then loops: deliver the
events of the last step to the seats they are for, ask the seat to act,
charge its clock, parse and check its answer, and step the engine. Whatever a
bot does ends in a :class:`Fault` with a closed kind, attributed to its seat;
the referee itself always finishes with a :class:`MatchRecord` and ends every
process it started.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from . import protocol
from .botprocess import BotFault, BotProcess
from .clock import Clock
from .deals import Deal
from .engine import ALL, State, fallback_action, forfeit, new_match, step
from .outcomes import EndReason, FaultKind, FaultPolicy
from .protocol import ProtocolFault, dumps
from .rules import Rules, Variant

Console = Callable[[str], None]


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """Time limits of one seat. ``move_ms=None`` means no move clock (a human seat)."""

    move_ms: int | None = 1000
    bank_ms: int = 10000
    startup_ms: int = 10000

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a display name and how to start the program."""

    name: str
    command: str | Sequence[str]
    cwd: str | os.PathLike[str] | None = None
    env: Mapping[str, str] | None = None
    time: TimeControl | None = None  # None: the match's default
    # Start the program in a session of its own (it leads a process group of
    # its own either way). For a program that uses the terminal, like the
    # human adapter: in the referee's session it would be a background group
    # and be stopped when reading the terminal. See BotProcess.
    new_session: bool = False


@dataclasses.dataclass
class MatchSpec:
    """Everything that defines one match."""

    variant: Variant
    seats: Sequence[SeatSpec]
    rules: Rules = dataclasses.field(default_factory=Rules)
    seed: int = 0
    match_id: str = "match"
    time: TimeControl = dataclasses.field(default_factory=TimeControl)
    faults: FaultPolicy = FaultPolicy.FORFEIT
    max_faults: int = 3
    output: Path | None = None  # folder for matches.jsonl and logs/; None: keep nothing
    deals: Sequence[Deal] | None = None  # injected deals (tests, duplicate play)
    grace_s: float = 1.0
    max_line: int = 65536
    stderr_cap: int = 1 << 20

    def __post_init__(self) -> None:
        if len(self.seats) != self.variant.seats:
            raise ValueError(f"{self.variant.value} needs {self.variant.seats} seats, got {len(self.seats)}")
        if self.max_faults < 1:
            raise ValueError(f"max_faults must be at least 1, got: {self.max_faults!r}")


@dataclasses.dataclass(frozen=True)
class Fault:
    """A recorded bot fault."""

    seat: int
    kind: FaultKind
    detail: str
    hand: int
    request: str | None = None  # the request that the faulty answer was for, if any

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value, "detail": self.detail, "hand": self.hand}
        if self.request is not None:
            out["request"] = self.request
        return out

    def describe(self, names: Sequence[str]) -> str:
        """E.g. ``seat 2 (alpha) ran out of time: took 1200 ms > 1000 ms move time ...``."""
        return f"seat {self.seat} ({names[self.seat]}) {self.kind.summary} in hand {self.hand}: {self.detail}"


@dataclasses.dataclass
class MatchRecord:
    """The result of a match: one line of ``matches.jsonl``."""

    match: str
    variant: Variant
    seed: int
    bots: list[str]
    hands: list[dict[str, Any]]
    score: list[int]
    winner: int | None
    reason: EndReason
    faults: list[Fault]
    seconds: float
    rules: Rules
    stats: list[dict[str, Any]]
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {"match": self.match, "variant": self.variant.value, "seed": self.seed, "bots": self.bots,
               "hands": self.hands, "score": self.score, "winner": self.winner, "reason": self.reason.value,
               "faults": [f.to_dict() for f in self.faults], "seconds": round(self.seconds, 3),
               "rules": self.rules.to_dict(), "stats": self.stats}
        out.update(self.extra)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def describe(self) -> str:
        """One sentence: who won, how, and the score."""
        return self.reason.describe(self.winner, self.score)


class Transport(Protocol):
    """What the runner needs from a seat's connection (a process, or a fake in tests).

    The runner also uses these methods when a transport has them (as
    :class:`~referee.botprocess.BotProcess` does), and works without them:
    ``send_lines(lines)`` (several events, one write), ``try_send_lines(lines)
    -> bool`` (write only if that need not wait) and ``request_overlapped(line,
    timeout_s, meanwhile)`` (a request that calls ``meanwhile()`` between its
    write and its read); also ``read_line`` and ``discard_pending`` for the
    ``substitute`` fault policy.
    """

    spawn_s: float

    def start(self) -> None: ...
    def send(self, line: str) -> None: ...
    def request(self, line: str, timeout_s: float) -> tuple[str, float]: ...
    def check_unexpected(self) -> None: ...
    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None: ...


TransportFactory = Callable[[int, SeatSpec, Any], Transport]

# How much of the offending request a fault record quotes (the transcript has it all).
_REQUEST_QUOTE = 4000
# A seat with no move clock still needs a finite read deadline for select();
# a day is "forever" for a person at the table.
_NO_CLOCK_S = 86400.0


class _Seat:
    """Runner-side bookkeeping of one seat."""

    __slots__ = ("index", "spec", "transport", "clock", "time", "faults", "dead", "gone", "resync", "stale", "name",
                 "send_lines", "request_overlapped", "try_send_lines")

    def __init__(self, index: int, spec: SeatSpec, transport: Transport, time_control: TimeControl):
        self.index, self.spec, self.transport, self.time = index, spec, transport, time_control
        self.name = spec.name
        self.clock = Clock(time_control.move_ms, time_control.bank_ms, time_control.startup_ms) \
            if time_control.move_ms is not None else None
        self.faults = 0
        self.dead = False  # no further answers can be trusted (crash, oversize, ...)
        self.gone = False  # nothing can be sent to it any more (its input is closed)
        self.resync = False  # a late answer may still be in the pipe (substitute after timeout)
        self.stale: set[int] = set()  # ids of requests that timed out: their answers are dropped
        # Optional transport features (fakes need not have them): several
        # lines in one write; a request that runs a callable between writing
        # the request and reading the answer; a write only if it need not wait.
        self.send_lines: Callable[[list[str]], None] | None = getattr(transport, "send_lines", None)
        self.request_overlapped: Callable[[str, float, Callable[[], None]], tuple[str, float]] | None = \
            getattr(transport, "request_overlapped", None)
        self.try_send_lines: Callable[[list[str]], bool] | None = getattr(transport, "try_send_lines", None)

    def time_field(self) -> dict[str, Any]:
        if self.clock is None:
            return {"move_ms": None, "bank_ms": self.time.bank_ms}
        return {"move_ms": self.clock.move_ms, "bank_ms": self.clock.bank_ms_left}

    def allowance(self) -> float:
        return self.clock.allowance_s() if self.clock is not None else _NO_CLOCK_S

    def stats(self) -> dict[str, Any]:
        if self.clock is None:
            return {"decisions": None, "mean_ms": None, "max_ms": None}
        s = self.clock.stats
        return {"decisions": s.count, "mean_ms": round(s.mean_ms, 3), "max_ms": round(s.max_ms, 3)}


class Transcript:
    """``logs/<match>.jsonl``: every line in both directions with its time.

    One JSON object per line: ``t`` (seconds since the match started),
    ``seat``, ``dir`` (``"out"``: referee to bot, ``"in"``: bot to referee)
    and either ``msg`` (the line itself, when it is a JSON object) or ``raw``
    (the line as a JSON string, when it is not), or a ``note`` of the referee.
    """

    def __init__(self, path: Path | None):
        self._fh = open(path, "w", encoding="utf-8", buffering=1 << 16) if path else None
        self._t0 = time.time()
        #: ``(line, parsed)`` of the last bot line recorded that is a JSON
        #: object: the runner reuses the parse instead of decoding it again.
        self.last_in: tuple[str, Any] | None = None

    def for_seat(self, seat: int) -> Callable[[str, str, float], None] | None:
        fh = self._fh
        if fh is None:
            return None
        t0 = self._t0
        write = fh.write
        loads = json.loads
        out_head = f',"seat":{seat},"dir":"out","msg":'
        in_head = f',"seat":{seat},"dir":"in","msg":'
        raw_head = f',"seat":{seat},"dir":"in","raw":'

        def record(direction: str, line: str, t: float) -> None:
            # The referee's own lines are JSON objects: embedded as they are.
            # A bot's line is embedded when it parses as an object, else it
            # is quoted as a raw string.
            if direction == "out":
                write(f'{{"t":{t - t0:.6f}{out_head}{line}}}\n')
                return
            obj = None
            if line[:1] == "{":
                try:
                    obj = loads(line)
                except (ValueError, RecursionError):  # not JSON, or nested too deeply to decode
                    pass
            if obj.__class__ is dict:
                self.last_in = (line, obj)
                write(f'{{"t":{t - t0:.6f}{in_head}{line}}}\n')
            else:
                write(f'{{"t":{t - t0:.6f}{raw_head}{json.dumps(line)}}}\n')

        return record

    def note(self, text: str) -> None:
        if self._fh is not None:
            self._fh.write(json.dumps({"t": round(time.time() - self._t0, 6), "note": text}) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()


def _answers_stale(line: str, stale: set[int]) -> bool:
    """Whether an answer line carries the id of a request that already timed out."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict) and obj.get("id") in stale and not isinstance(obj.get("id"), bool)


def bot_process(spec: MatchSpec, seat: int, seat_spec: SeatSpec, transcript: "Transcript") -> BotProcess:
    """The bot process of a seat exactly as :func:`run_match` starts it.

    Transport factories that wrap processes (tournament cancellation,
    check-bot's recorder) build on this so they never drift from the runner.
    """
    logs = Path(spec.output) / "logs" if spec.output is not None else None
    stderr_path = logs / f"{spec.match_id}.{seat}.stderr" if logs else None
    return BotProcess(seat_spec.command, name=f"seat {seat} ({seat_spec.name})", cwd=seat_spec.cwd,
                      env=seat_spec.env, stderr_path=stderr_path, stderr_cap=spec.stderr_cap,
                      max_line=spec.max_line, transcript=transcript.for_seat(seat),
                      new_session=seat_spec.new_session)


def _process_factory(spec: MatchSpec) -> TransportFactory:
    def make(seat: int, seat_spec: SeatSpec, transcript: Any) -> Transport:
        return bot_process(spec, seat, seat_spec, transcript)
    return make


def run_match(spec: MatchSpec, console: Console | None = None,
              transport_factory: TransportFactory | None = None) -> MatchRecord:
    """Play one match to its end and return its record (also appended to
    ``<output>/matches.jsonl`` when ``spec.output`` is set).

    Never raises because of a bot: every misbehaviour becomes a recorded fault.
    """
    t_start = time.perf_counter()
    logs = None
    if spec.output is not None:
        logs = Path(spec.output) / "logs"
        logs.mkdir(parents=True, exist_ok=True)
    transcript = Transcript(logs / f"{spec.match_id}.jsonl" if logs else None)
    factory = transport_factory or _process_factory(spec)
    names = [s.name for s in spec.seats]
    seats = [_Seat(i, s, factory(i, s, transcript), s.time or spec.time) for i, s in enumerate(spec.seats)]
    runner = _Runner(spec, seats, names, transcript, console)
    try:
        runner.play()
    finally:
        _close_all(seats, spec.grace_s)
        transcript.close()
    st = runner.state
    record = MatchRecord(
        match=spec.match_id, variant=spec.variant, seed=spec.seed, bots=names,
        hands=[h.to_record(spec.variant) for h in st.history], score=list(st.score), winner=st.winner,
        reason=st.reason or EndReason.FORFEIT, faults=runner.faults, seconds=time.perf_counter() - t_start,
        rules=spec.rules, stats=[s.stats() for s in seats],
    )
    if console:
        console(f"Result: {record.describe()}")
        for f in record.faults:
            console(f"Fault: {f.describe(names)}")
    if spec.output is not None:
        append_record(Path(spec.output) / "matches.jsonl", record.to_json())
    return record


def append_record(path: Path, line: str) -> None:
    """Append one JSON line and make it durable before returning.

    A single ``write`` of the whole line to a file opened in append mode, then
    ``fsync``: a crash or SIGKILL leaves either the whole record or none of it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (line + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _close_all(seats: Sequence[_Seat], grace_s: float) -> None:
    """End every bot at once, so the grace periods overlap instead of adding up."""
    if len(seats) == 1:
        seats[0].transport.close(grace_s)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(seats)) as pool:
        for fut in [pool.submit(s.transport.close, grace_s) for s in seats]:
            try:
                fut.result()
            except Exception:  # a close must never lose the record
                pass


class _MatchEnded(Exception):
    """Raised by the runner into a pending request when another seat's fault ended the match."""


class _Runner:
    def __init__(self, spec: MatchSpec, seats: list[_Seat], names: list[str], transcript: Transcript,
                 console: Console | None):
        self.spec, self.seats, self.names = spec, seats, names
        self.transcript, self.console = transcript, console
        self.faults: list[Fault] = []
        self.state: State = new_match(spec.variant, spec.rules, spec.seed, spec.deals)
        self.request_id = 0
        self._last_id: int | None = None
        self.encoder = protocol.Encoder()
        self._end_delivered = False

    # ------------------------------------------------------------ faults

    def _fault(self, seat: _Seat, kind: FaultKind, detail: str, request: str | None = None,
               force_end: bool = False) -> bool:
        """Record a fault and tell the bot; return True when the match must end by forfeit."""
        if request is not None and len(request) > _REQUEST_QUOTE:
            request = request[:_REQUEST_QUOTE] + "..."
        fault = Fault(seat.index, kind, detail, self.state.hand_no, request)
        self.faults.append(fault)
        self.transcript.note(fault.describe(self.names))
        seat.faults += 1
        ends = force_end or self.spec.faults is FaultPolicy.FORFEIT or seat.faults >= self.spec.max_faults
        if not seat.dead:
            # A bot that already died was told at its first fault; don't repeat.
            message = f"{kind.value}: {detail}; you forfeit the match" if ends else f"{kind.value}: {detail}"
            self._send(seat, dumps(protocol.error(message)), quiet=True)
        if kind in (FaultKind.CRASH, FaultKind.OVERSIZE, FaultKind.UNEXPECTED, FaultKind.STARTUP):
            seat.dead = True
        elif kind is FaultKind.TIMEOUT:
            seat.resync = True
            if self._last_id is not None:
                seat.stale.add(self._last_id)
        return ends

    def _send(self, seat: _Seat, line: str, quiet: bool = False) -> bool:
        if seat.gone:
            return False
        try:
            seat.transport.send(line)
            return True
        except BotFault as exc:
            seat.gone = True
            if not quiet and not seat.dead:
                self._handle(seat, exc.kind, exc.detail)
            return False

    def _handle(self, seat: _Seat, kind: FaultKind, detail: str) -> None:
        if self._fault(seat, kind, detail) and not self.state.over:
            self.state = forfeit(self.state, [seat.index])

    # ------------------------------------------------------------ the loop
    #
    # Each step's events go to every seat they are for, and each seat gets
    # its lines of a step in one write (one wake-up of the bot, not one per
    # event). The seat that must act next gets its events first and then its
    # request; the other seats' events are written while it thinks (see
    # _decide): the referee's remaining work overlaps the bot's, and the
    # bot's clock, started at the request's write, is not held up by writes
    # to other bots. Per seat, the order is always the engine's.

    def play(self) -> None:
        self._start()
        while True:
            st = self.state
            if st.over:
                if not self._end_delivered:
                    self._deliver(st)
                return
            seat = self.seats[st.turn]
            if seat.request_overlapped is not None and not (seat.dead or seat.gone or seat.resync):
                self._decide(st, self._batches(st))
                continue
            self._deliver(st)
            if self.state.over:
                return  # a fault while delivering ended the match (its end is delivered)
            self._decide(self.state, None)

    def _start(self) -> None:
        spec = self.spec
        failed = []
        for seat in self.seats:
            try:
                seat.transport.start()
            except BotFault as exc:
                failed.append(seat)
                seat.gone = True  # never started: nothing to tell it
                self._fault(seat, FaultKind.STARTUP, exc.detail, force_end=True)
        for seat in self.seats:
            if seat in failed:
                continue
            hello = protocol.hello(spec.match_id, spec.variant, seat.index, self.names, spec.rules,
                                   seat.time.move_ms, seat.time.bank_ms)
            allowance = seat.time.startup_ms / 1000 - seat.transport.spawn_s
            try:
                line, elapsed = seat.transport.request(dumps(hello), max(allowance, 0.001))
                protocol.parse_answer(line, 0, None)  # type: ignore[arg-type]
                if seat.clock is not None:
                    seat.clock.charge_startup(seat.transport.spawn_s + elapsed)
            except (BotFault, ProtocolFault) as exc:
                failed.append(seat)
                kind = FaultKind.STARTUP if exc.kind in (FaultKind.TIMEOUT, FaultKind.CRASH) else exc.kind
                # A bot that cannot even start cannot be substituted for a whole match.
                self._fault(seat, kind, f"hello: {exc.detail}" if kind is not exc.kind else exc.detail,
                            force_end=True)
        if failed:
            self.state = forfeit(self.state, [s.index for s in failed])
        if self.console:
            self.console(f"Match {spec.match_id}: {spec.variant.value}, seed {spec.seed}, "
                         + ", ".join(f"seat {i} {n}" for i, n in enumerate(self.names)))

    def _batches(self, st: State) -> list[list[str]]:
        """The lines of ``st``'s events for each seat, in event order."""
        events = st.events
        seats = self.seats
        if len(events) == 1 and events[0].to == ALL and events[0].kind != "match_end":
            # Nearly every step: one card played, one line for every seat.
            line = self.encoder.event(events[0])
            return [[] if seat.dead else [line] for seat in seats]
        batches: list[list[str]] = [[] for _ in seats]
        for event in events:
            line = self.encoder.event(event)
            final = event.kind == "match_end"
            for seat in seats if event.to == ALL else (seats[event.to],):
                if seat.dead and not final:
                    continue  # a faulted bot is told only that the match ended
                batches[seat.index].append(line)
        if self.console:
            for event in events:
                if event.kind == "hand_end":
                    self._summarise(st, event.data)
        return batches

    def _send_batches(self, st: State, batches: list[list[str]], skip: int = -1) -> bool:
        """Send each seat (but ``skip``) its lines; False if a fault ended the match."""
        return self._send_pairs(st, ((seat, lines) for seat, lines in zip(self.seats, batches)
                                     if lines and seat.index != skip))

    def _send_pairs(self, st: State, pairs: Iterable[tuple[_Seat, list[str]]]) -> bool:
        """Send each ``(seat, lines)`` in turn; False if a fault ended the match (whose
        end is then delivered to everybody, see :meth:`_ended`)."""
        for seat, lines in pairs:
            self._send_lines(seat, lines)
            if self._ended(st):
                return False
        return True

    def _ended(self, st: State) -> bool:
        """Whether a fault ended the match after ``st``; if so its end is delivered."""
        if self.state is not st and self.state.over:
            self._deliver_end()
            return True
        return False

    def _lost(self, seat: _Seat, exc: BotFault) -> None:
        """Writing to ``seat`` failed: nothing more goes to it, and it faults unless dead."""
        seat.gone = True
        if not seat.dead:
            self._handle(seat, exc.kind, exc.detail)

    def _deliver(self, st: State) -> None:
        """Send the events of ``st`` to the seats they are for."""
        if st.events:
            self._send_batches(st, self._batches(st))

    def _send_lines(self, seat: _Seat, lines: list[str]) -> None:
        if seat.gone:
            return
        try:
            if len(lines) == 1 or seat.send_lines is None:
                for line in lines:
                    seat.transport.send(line)
            else:
                seat.send_lines(lines)
        except BotFault as exc:
            self._lost(seat, exc)

    def _deliver_end(self) -> None:
        """Tell everybody the match ended (a fault ended it while the last step's lines went out)."""
        self._end_delivered = True
        for event in self.state.events:
            line = self.encoder.event(event)
            for seat in self.seats if event.to == ALL else (self.seats[event.to],):
                self._send(seat, line, quiet=True)

    def _decide(self, st: State, batches: list[list[str]] | None) -> None:
        """Ask the seat to act in ``st`` and step the engine with its answer (or a fault).

        With ``batches`` (the lines of ``st``'s events, not sent yet) the seat
        first gets its own lines, then its request; the other seats get theirs
        while it thinks, but only with writes that cannot wait (a pipe with
        room for the whole batch): the bot's clock runs from the request's
        write to its answer, and must never include the referee waiting on
        another bot. A batch that cannot go at once is sent after the answer
        is read, before anything else goes to that seat.
        """
        seat = self.seats[st.turn]
        others: Callable[[], None] | None = None
        pending = False  # the other seats' lines are not sent yet
        later: list[tuple[_Seat, list[str]]] = []  # batches that would have had to wait
        if batches is not None:
            if batches[seat.index]:
                self._send_lines(seat, batches[seat.index])
                if self._ended(st):
                    return
            if seat.dead:  # sending to it just failed (substitute policy): no request
                if not self._send_batches(st, batches, skip=seat.index):
                    return
            else:
                pending = True

                def send_others() -> None:
                    nonlocal pending
                    pending = False
                    if not self._try_batches(st, batches, seat.index, later):
                        raise _MatchEnded

                others = send_others
        if seat.dead:
            # Substitute policy: a bot that can no longer answer faults at each turn.
            if self._fault(seat, FaultKind.CRASH, "the bot is no longer running; the referee decides for it"):
                self.state = forfeit(st, [seat.index])
            else:
                self.state = step(st, fallback_action(st))
            return
        self.request_id += 1
        rid = self._last_id = self.request_id
        phase = st.phase
        sent = None
        try:
            transport = seat.transport
            if seat.resync:
                self._resync(seat)
            transport.check_unexpected()
            sent = self.encoder.request(st, rid, seat.time_field())
            if others is not None:
                line, elapsed = seat.request_overlapped(sent, seat.allowance(), others)  # type: ignore[misc]
            else:
                line, elapsed = transport.request(sent, seat.allowance())
            while seat.stale and _answers_stale(line, seat.stale):
                # The late answer to a request that already timed out: drop it
                # and keep reading for this request's answer, on the same clock.
                line, more = transport.read_line(max(seat.allowance() - elapsed, 0.001))  # type: ignore[attr-defined]
                elapsed += more
            if seat.clock is not None:
                seat.clock.charge(elapsed)
            memo = self.transcript.last_in
            action, _ = protocol.parse_answer(line, rid, phase, memo[1] if memo is not None and memo[0] is line else None)
            protocol.check_legal(st, action)
        except _MatchEnded:
            return  # another seat's fault ended the match while this one thought; the end is delivered
        except (BotFault, ProtocolFault) as exc:
            # The others get this step's events before anything else: those
            # never sent (the request could not be written) and those deferred.
            if pending and not self._send_batches(st, batches, skip=seat.index):  # type: ignore[arg-type]
                return
            if not self._send_pairs(st, later):
                return
            if self._fault(seat, exc.kind, exc.detail, sent):
                self.state = forfeit(st, [seat.index])
            else:
                self.state = step(st, fallback_action(st))
            return
        if self._send_pairs(st, later):
            self.state = step(st, action)

    def _try_batches(self, st: State, batches: list[list[str]], skip: int,
                     later: list[tuple[_Seat, list[str]]]) -> bool:
        """Send the batches that can go without waiting; queue the others on ``later``.

        False if a fault ended the match (its end is then delivered).
        """
        for seat, lines in zip(self.seats, batches):
            if not lines or seat.index == skip or seat.gone:
                continue
            if seat.try_send_lines is None:
                later.append((seat, lines))
                continue
            try:
                if not seat.try_send_lines(lines):
                    later.append((seat, lines))
            except BotFault as exc:
                self._lost(seat, exc)
                if self._ended(st):
                    return False
        return True

    def _resync(self, seat: _Seat) -> None:
        """After a timeout under ``substitute``: drop a late answer that already came."""
        seat.resync = False
        drop = getattr(seat.transport, "discard_pending", None)
        if drop is not None:
            drop()

    def _summarise(self, st: State, data: dict[str, Any]) -> None:
        two = st.variant is Variant.TWO_PLAYER
        bids = " ".join(("BN" if b else "N") if bid == 0 else str(bid) for bid, b in zip(data["bids"], data["blind"]))
        tricks = " ".join(str(t) for t in data["tricks"])
        points = " ".join(f"{p:+d}" for p in data["points"])
        score = " ".join(str(s) for s in data["score"])
        bags = " ".join(str(b) for b in data["bags"])
        who = f"first {st.history[-1].dealer}" if two else f"dealer {st.history[-1].dealer}"
        assert self.console is not None
        self.console(f"Hand {data['hand']:>2} ({who}): bids {bids:<12} tricks {tricks:<12} "
                     f"points {points:<10} score {score:<10} bags {bags}")
