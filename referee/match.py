"""One match between bots: the seats and the rules engine together.

:func:`run_match` starts one transport per seat (normally a
:class:`~referee.seat.botprocess.BotProcess`), says hello, then loops: deliver
the events of the last step to the seats they are for, ask the seat to act,
charge its clock, parse and check its answer, and step the engine. Whatever a
bot does ends in a :class:`~referee.seat.faults.Fault` with a closed kind,
attributed to its seat; the referee itself always finishes with a
:class:`MatchRecord` and ends every process it started.

A match is given as a :class:`MatchSpec` and answers with a
:class:`MatchRecord`: both are plain data that round-trip through JSON, so a
match can be played in another process or on another machine. A match writes
its transcript and its bots' stderr under ``spec.logs``; it never writes the
results file (``matches.jsonl``): whoever asked for the match stores the record.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from referee.game.deals import Deal, keyed_deals
from referee.game.engine import ALL, State, fallback_action, forfeit, new_match, step
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.game.start import MatchStart
from referee.seat import builtin, protocol
from referee.seat.botprocess import BotProcess
from referee.seat.clock import TimeControl
from referee.seat.faults import Fault, FaultKind, FaultPolicy, ProtocolFault, SeatFault
from referee.seat.protocol import dumps
from referee.seat.sandbox import SandboxSpec
from referee.seat.spec import SeatSpec
from referee.seat.strictjson import StrictJSONError, decode
from referee.seat.transcript import LogWriteError, Transcript
from referee.seat.transport import Transport

__all__ = ["MatchSpec", "MatchRecord", "TransportFactory", "run_match", "bot_process", "Console",
           "transcript_name", "stderr_name", "LogWriteError"]

Console = Callable[[str], None]


def transcript_name(match_id: str) -> str:
    """The file name of a match's transcript in its logs folder."""
    return f"{match_id}.jsonl"


def stderr_name(match_id: str, seat: int) -> str:
    """The file name of a seat's stderr log in its match's logs folder."""
    return f"{match_id}.{seat}.stderr"


@dataclasses.dataclass
class MatchSpec:
    """Everything that defines one match; plain data (:meth:`to_dict`, :meth:`from_dict`)."""

    variant: Variant
    seats: Sequence[SeatSpec]
    rules: Rules = dataclasses.field(default_factory=Rules)
    seed: int = 0
    match_id: str = "match"
    time: TimeControl = dataclasses.field(default_factory=TimeControl)
    faults: FaultPolicy = FaultPolicy.FORFEIT
    max_faults: int = 3
    logs: str | os.PathLike[str] | None = None  # folder for the transcript and stderr logs; None: keep none
    deals: Sequence[Deal] | None = None  # injected deals (tests, check-bot scenarios)
    grace_s: float = 1.0
    max_line: int = 65536
    stderr_cap: int = 1 << 20
    #: Where the deals come from when not injected: None, the seed alone
    #: (``spades match --seed``); else this secret key, which a tournament
    #: derives from the seed and its results folder's secret, so that the
    #: seed (public, from the config) tells a bot nothing about the cards.
    deal_key: str | None = None
    start: MatchStart | None = None  # a later first hand, with its scores and bags (replaying a hand)
    sandbox: SandboxSpec = dataclasses.field(default_factory=SandboxSpec)  # a seat's own overrides it

    def __post_init__(self) -> None:
        if len(self.seats) != self.variant.seats:
            raise ValueError(f"{self.variant.value} needs {self.variant.seats} seats, got {len(self.seats)}")
        if self.max_faults < 1:
            raise ValueError(f"max_faults must be at least 1, got: {self.max_faults!r}")

    @property
    def transcript_path(self) -> Path | None:
        """Where the match's transcript goes (``<logs>/<match>.jsonl``), if anywhere."""
        return Path(self.logs) / transcript_name(self.match_id) if self.logs is not None else None

    def stderr_path(self, seat: int) -> Path | None:
        """Where seat ``seat``'s stderr goes (``<logs>/<match>.<seat>.stderr``), if anywhere."""
        return Path(self.logs) / stderr_name(self.match_id, seat) if self.logs is not None else None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        return {"variant": self.variant.value, "seats": [s.to_dict() for s in self.seats],
                "rules": self.rules.to_dict(), "seed": self.seed, "match_id": self.match_id,
                "time": self.time.to_dict(), "faults": self.faults.value, "max_faults": self.max_faults,
                "logs": os.fspath(self.logs) if self.logs is not None else None,
                "deals": [{"cards": list(d.cards), "salt": d.salt} for d in self.deals]
                if self.deals is not None else None,
                "grace_s": self.grace_s, "max_line": self.max_line, "stderr_cap": self.stderr_cap,
                "deal_key": self.deal_key,
                "start": self.start.to_dict() if self.start is not None else None,
                "sandbox": self.sandbox.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchSpec:
        """The inverse of :meth:`to_dict`."""
        deals = data.get("deals")
        return cls(variant=Variant(data["variant"]), seats=[SeatSpec.from_dict(s) for s in data["seats"]],
                   rules=Rules.from_mapping(data["rules"], where="match spec rules"), seed=int(data["seed"]),
                   match_id=str(data["match_id"]), time=TimeControl.from_dict(data["time"]),
                   faults=FaultPolicy(data["faults"]), max_faults=int(data["max_faults"]), logs=data.get("logs"),
                   deals=[Deal.from_cards(d["cards"], d["salt"]) for d in deals] if deals is not None else None,
                   grace_s=float(data["grace_s"]), max_line=int(data["max_line"]),
                   stderr_cap=int(data["stderr_cap"]), deal_key=data.get("deal_key"),
                   start=MatchStart.from_dict(data["start"]) if data.get("start") is not None else None,
                   sandbox=SandboxSpec.from_dict(data["sandbox"]) if data.get("sandbox") else SandboxSpec())


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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchRecord:
        """The inverse of :meth:`to_dict` (keys it does not know go to :attr:`extra`)."""
        known = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        return cls(match=data["match"], variant=Variant(data["variant"]), seed=data["seed"], bots=list(data["bots"]),
                   hands=list(data["hands"]), score=list(data["score"]), winner=data["winner"],
                   reason=EndReason(data["reason"]), faults=[Fault.from_dict(f) for f in data["faults"]],
                   seconds=data["seconds"], rules=Rules.from_mapping(data["rules"], where="match record rules"),
                   stats=list(data["stats"]), extra={k: v for k, v in data.items() if k not in known})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def describe(self) -> str:
        """One sentence: who won, how, and the score."""
        return self.reason.describe(self.winner, self.score)


#: Makes the transport of seat ``seat`` (the runner passes the match's transcript).
TransportFactory = Callable[[int, SeatSpec, Transcript], Transport]

# How much of the offending request a fault record quotes (the transcript has it all).
_REQUEST_QUOTE = 4000
# A seat with no move clock still needs a finite read deadline for select();
# a day is "forever" for a person at the table.
_NO_CLOCK_S = 86400.0


class _Seat:
    """Runner-side bookkeeping of one seat."""

    __slots__ = ("index", "spec", "transport", "clock", "time", "faults", "dead", "gone", "resync", "stale", "name",
                 "ended_by")

    def __init__(self, index: int, spec: SeatSpec, transport: Transport, time_control: TimeControl):
        self.index, self.spec, self.transport, self.time = index, spec, transport, time_control
        self.name = spec.name
        self.clock = time_control.clock()
        self.faults = 0
        self.dead = False  # no further answers can be trusted (crash, oversize, ...)
        self.ended_by: FaultKind | None = None  # the kind of the fault that made it dead
        self.gone = False  # nothing can be sent to it any more (its input is closed)
        self.resync = False  # a late answer may still be in the pipe (substitute after timeout)
        self.stale: set[int] = set()  # ids of requests that timed out: their answers are dropped

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


def _answers_stale(line: str, stale: set[int]) -> bool:
    """Whether an answer line carries the id of a request that already timed out."""
    try:
        obj = decode(line)
    except StrictJSONError:
        return False
    return isinstance(obj, dict) and obj.get("id") in stale and not isinstance(obj.get("id"), bool)


def bot_process(spec: MatchSpec, seat: int, seat_spec: SeatSpec, transcript: Transcript) -> BotProcess:
    """The bot process of a seat exactly as :func:`run_match` starts it.

    Transport factories that wrap processes (tournament cancellation,
    check-bot's recorder) build on this so they never drift from the runner.
    A ``builtin:NAME`` command runs the bundled bot (:mod:`referee.seat.builtin`).
    """
    command = _command(seat_spec.command)
    return BotProcess(command, name=f"seat {seat} ({seat_spec.name})", cwd=seat_spec.cwd,
                      env=seat_spec.env, stderr_path=spec.stderr_path(seat), stderr_cap=spec.stderr_cap,
                      max_line=spec.max_line, transcript=transcript.for_seat(seat),
                      new_session=seat_spec.new_session, sandbox=seat_spec.sandbox or spec.sandbox)


def _command(command: str | Sequence[str]) -> str | Sequence[str]:
    """The command to start: a built-in bot's real one; an unknown built-in as given, so that it
    fails to start with its name in the fault (configs and the command line check names first)."""
    try:
        return builtin.resolve(command)
    except builtin.BuiltinError:
        return command


def run_match(spec: MatchSpec, console: Console | None = None,
              transport_factory: TransportFactory | None = None) -> MatchRecord:
    """Play one match to its end and return its record.

    Writes the transcript and stderr logs under ``spec.logs`` when set, and
    nothing else: storing the record is the caller's business.
    Never raises because of a bot: every misbehaviour becomes a recorded fault.
    Raises :class:`LogWriteError` when the transcript cannot be written (a full
    disk): the match is abandoned at once, its bots ended, and no record made.
    """
    t_start = time.perf_counter()
    if spec.logs is not None:
        Path(spec.logs).mkdir(parents=True, exist_ok=True)
    transcript = Transcript(spec.transcript_path)
    names = [s.name for s in spec.seats]
    seats: list[_Seat] = []
    try:
        for i, seat_spec in enumerate(spec.seats):
            transport = transport_factory(i, seat_spec, transcript) if transport_factory is not None \
                else bot_process(spec, i, seat_spec, transcript)
            seats.append(_Seat(i, seat_spec, transport, seat_spec.time or spec.time))
        runner = _Runner(spec, seats, names, transcript, console)
        runner.play()
    finally:
        _close_all(seats, spec.grace_s)
        transcript.close()
    if transcript.error is not None:
        raise transcript.error
    st = runner.state
    record = MatchRecord(
        match=spec.match_id, variant=spec.variant, seed=spec.seed, bots=names,
        hands=[h.to_record(spec.variant) for h in st.history], score=list(st.score), winner=st.winner,
        reason=st.reason or EndReason.FORFEIT, faults=runner.faults, seconds=time.perf_counter() - t_start,
        rules=spec.rules, stats=[s.stats() for s in seats],
        extra={"deals": "injected" if spec.deals is not None else "secret" if spec.deal_key is not None else "seed"},
    )
    # What confined each seat (None: an in-process seat), so a record says what it can be trusted for.
    record.extra["sandbox"] = runner.sandbox
    if console:
        console(f"Result: {record.describe()}")
        for f in record.faults:
            console(f"Fault: {f.describe(names)}")
    return record


def _close_all(seats: Sequence[_Seat], grace_s: float) -> None:
    """End every bot at once, so the grace periods overlap instead of adding up."""
    if not seats:
        return
    if len(seats) == 1:
        seats[0].transport.close(grace_s)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(seats)) as pool:
        for fut in [pool.submit(s.transport.close, grace_s) for s in seats]:
            try:
                fut.result()
            except Exception:  # a close must never lose the record
                pass


def _judge(handle: Callable[[], Any], line: str) -> Any:
    """``handle()``, the referee's reading of one bot answer ``line``.

    A ``SeatFault`` is the verdict. Any other exception is a case the parser
    did not foresee, caused by this answer and nothing else: it becomes a
    ``malformed`` fault of this seat naming the error, so one bot's answer can
    never stop the match, let alone the tournament.
    """
    try:
        return handle()
    except SeatFault:
        raise
    except Exception as exc:
        quoted = repr(line if len(line) <= 80 else line[:80] + "...")
        raise ProtocolFault(FaultKind.MALFORMED, f"the referee could not read this answer "
                                                 f"({type(exc).__name__}: {str(exc)[:200]}): got {quoted}") from None


class _MatchEnded(Exception):
    """Raised by the runner into a pending request when another seat's fault ended the match."""


class _Runner:
    def __init__(self, spec: MatchSpec, seats: list[_Seat], names: list[str], transcript: Transcript,
                 console: Console | None):
        self.spec, self.seats, self.names = spec, seats, names
        self.transcript, self.console = transcript, console
        self.faults: list[Fault] = []
        deals = spec.deals if spec.deals is not None or spec.deal_key is None else keyed_deals(spec.deal_key)
        self.state: State = new_match(spec.variant, spec.rules, spec.seed, deals, spec.start)
        self.request_id = 0
        self._last_id: int | None = None
        self.encoder = protocol.Encoder()
        self._end_delivered = False
        self.sandbox: list[dict[str, Any] | None] = [None] * len(seats)

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
        if kind.ends_seat:
            seat.dead = True
            seat.ended_by = seat.ended_by or kind
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
        except SeatFault as exc:
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
            if self.transcript.error is not None:
                raise self.transcript.error  # a full disk: the match cannot be recorded faithfully
            st = self.state
            if st.over:
                if not self._end_delivered:
                    self._deliver(st)
                self._check_after_end()
                return
            seat = self.seats[st.turn]
            if not (seat.dead or seat.gone or seat.resync):
                self._decide(st, self._batches(st))
                continue
            self._deliver(st)
            if self.state.over:
                return  # a fault while delivering ended the match (its end is delivered)
            self._decide(self.state, None)

    def _check_after_end(self) -> None:
        """A line a bot wrote after its last answer is ``unexpected`` (docs/protocol.md).

        The match is over, so the result stands; the fault goes on the record
        against that seat. Only what is already readable is judged: a bot is
        never waited for here.
        """
        for seat in self.seats:
            if seat.dead or seat.gone:
                continue
            try:
                seat.transport.check_unexpected()
            except SeatFault as exc:
                fault = Fault(seat.index, exc.kind, f"{exc.detail} (after its last answer; the result stands)",
                              self.state.hand_no, None)
                self.faults.append(fault)
                self.transcript.note(fault.describe(self.names))
                seat.dead = True

    def _start(self) -> None:
        spec = self.spec
        failed = []
        for seat in self.seats:
            try:
                seat.transport.start()
            except SeatFault as exc:
                failed.append(seat)
                seat.gone = True  # never started: nothing to tell it
                self._fault(seat, FaultKind.STARTUP, exc.detail, force_end=True)
        for seat in self.seats:
            if seat in failed:
                continue
            hello = protocol.hello(spec.match_id, spec.variant, seat.index, self.names, spec.rules,
                                   seat.time.move_ms, seat.time.bank_ms)
            allowance = seat.time.startup_ms / 1000 - seat.transport.spawn_s
            hello_line = dumps(hello)
            try:
                line, elapsed = seat.transport.request(hello_line, max(allowance, 0.001))
                _judge(lambda: protocol.parse_answer(line, 0, None), line)
                if seat.clock is not None:
                    seat.clock.charge_startup(seat.transport.spawn_s + elapsed)
            except SeatFault as exc:
                failed.append(seat)
                kind = FaultKind.STARTUP if exc.kind in (FaultKind.TIMEOUT, FaultKind.CRASH) else exc.kind
                detail = exc.detail
                if exc.kind is FaultKind.TIMEOUT:
                    # The allowance as configured: the read deadline had the spawn time taken off.
                    detail = f"no answer within the {seat.time.startup_ms} ms start-up allowance"
                # A bot that cannot even start cannot be substituted for a whole match.
                self._fault(seat, kind, f"hello: {detail}" if kind is not exc.kind else detail, hello_line,
                            force_end=True)
        self.sandbox = [seat.transport.sandbox_in_force() for seat in self.seats]
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

    def _lost(self, seat: _Seat, exc: SeatFault) -> None:
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
            if len(lines) == 1:
                seat.transport.send(lines[0])
            else:
                seat.transport.send_lines(lines)
        except SeatFault as exc:
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
            # Substitute policy: a bot that can no longer answer faults at each turn,
            # with the kind that ended it (a bot that wrote out of turn did not crash).
            ended = seat.ended_by or FaultKind.CRASH
            if self._fault(seat, ended, ended.stand_in):
                self.state = forfeit(st, [seat.index])
            else:
                self.state = step(st, fallback_action(st))
            return
        self.request_id += 1
        rid = self._last_id = self.request_id
        sent = None
        try:
            transport = seat.transport
            if seat.resync:
                self._resync(seat)
            transport.check_unexpected()
            sent = self.encoder.request(st, rid, seat.time_field())
            if others is not None:
                line, elapsed = transport.request_overlapped(sent, seat.allowance(), others)
            else:
                line, elapsed = transport.request(sent, seat.allowance())
            while seat.stale and _answers_stale(line, seat.stale):
                # The late answer to a request that already timed out: drop it
                # and keep reading for this request's answer, on the same clock.
                line, more = transport.read_line(max(seat.allowance() - elapsed, 0.001))
                elapsed += more
            if seat.clock is not None:
                seat.clock.charge(elapsed)
            memo = self.transcript.last_in
            action = _judge(lambda: self._action(st, line, rid, memo[1] if memo is not None and memo[0] is line
                                                 else None), line)
        except _MatchEnded:
            return  # another seat's fault ended the match while this one thought; the end is delivered
        except SeatFault as exc:
            # The others get this step's events before anything else: those
            # never sent (the request could not be written) and those deferred.
            if pending and batches is not None and not self._send_batches(st, batches, skip=seat.index):
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

    @staticmethod
    def _action(st: State, line: str, rid: int, parsed: dict[str, Any] | None) -> Any:
        action, _ = protocol.parse_answer(line, rid, st.phase, parsed)
        protocol.check_legal(st, action)
        return action

    def _try_batches(self, st: State, batches: list[list[str]], skip: int,
                     later: list[tuple[_Seat, list[str]]]) -> bool:
        """Send the batches that can go without waiting; queue the others on ``later``.

        False if a fault ended the match (its end is then delivered).
        """
        for seat, lines in zip(self.seats, batches):
            if not lines or seat.index == skip or seat.gone:
                continue
            try:
                if not seat.transport.try_send_lines(lines):
                    later.append((seat, lines))
            except SeatFault as exc:
                self._lost(seat, exc)
                if self._ended(st):
                    return False
        return True

    def _resync(self, seat: _Seat) -> None:
        """After a timeout under ``substitute``: drop a late answer that already came."""
        seat.resync = False
        seat.transport.discard_pending()

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
