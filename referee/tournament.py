"""Running a tournament: matches in parallel, progress, resume and clean stops.

:class:`Tournament` plays the matches of a config's schedule that its results
folder does not hold yet, ``concurrency`` at a time, and keeps the standings
as records arrive.

* **Isolation.** Each match runs in its own worker thread through
  :func:`referee.match.run_match`; the work is done by the bot processes, and
  every match has its own processes, clocks, transcript and record.
* **Durability.** ``run_match`` appends each record to ``matches.jsonl`` with
  one write and an ``fsync`` as the match finishes, so whatever happens next,
  a finished match is never played again and never half-written.
* **Stopping.** On SIGINT (Ctrl-C) or SIGTERM the running matches are
  abandoned: their bots are killed at once, and their ``run_match`` calls end
  with :class:`Cancelled` instead of a record, so an abandoned match is never
  recorded as a forfeit. Running the same command again plays it from the
  start. After a SIGKILL of the referee nothing runs any more either: bots
  read end-of-file on stdin and exit, and the next run repairs a torn last
  line of ``matches.jsonl`` (see :mod:`referee.results`).
"""

from __future__ import annotations

import dataclasses
import os
import queue
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from .botprocess import BotFault, BotProcess
from .config import TournamentConfig, shown_path
from .match import MatchRecord, MatchSpec, SeatSpec, TransportFactory, bot_process, run_match
from .outcomes import FaultKind
from .results import ReadReport, ResultsFolder
from .schedule import ScheduledMatch, schedule
from .standings import StandingsBuilder, StandingsReport, render, standings_from_folder

__all__ = ["Cancelled", "Tournament", "RunOutcome", "Progress", "match_spec", "standings_title"]

Say = Callable[[str], None]


class Cancelled(Exception):
    """Raised inside a match whose tournament is stopping: the match is abandoned."""


class _CancelToken:
    """Cancellation of one running match: kill its bots, make its calls raise."""

    def __init__(self) -> None:
        self.cancelled = False
        self._lock = threading.Lock()
        self._transports: list[_CancellableTransport] = []

    def register(self, transport: "_CancellableTransport") -> None:
        with self._lock:
            self._transports.append(transport)
            if self.cancelled:
                transport.kill()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            for transport in self._transports:
                transport.kill()


class _CancellableTransport:
    """A :class:`BotProcess` whose match can be abandoned from another thread.

    After :meth:`_CancelToken.cancel` every call raises :class:`Cancelled`;
    the bot is killed (SIGKILL to its process group) so a call blocked waiting
    for an answer returns at once. A fault raised after the cancellation is
    the kill's doing, never the bot's, so it becomes ``Cancelled`` too.
    """

    def __init__(self, inner: BotProcess, token: _CancelToken):
        self._inner, self._token = inner, token
        self._closed = False  # guarded by the token's lock: no kill once close() began
        self.spawn_s = 0.0  # seconds the spawn took (the runner deducts it from the start-up allowance)

    def kill(self) -> None:
        """SIGKILL the bot's process group (called with the token's lock held)."""
        pid = self._inner.pid
        if pid is None or self._closed:
            return
        try:
            # The leader stays unreaped until close(), so its pid, which is the
            # group id, cannot have been recycled yet.
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _check(self) -> None:
        if self._token.cancelled:
            raise Cancelled()

    def start(self) -> None:
        self._check()
        try:
            self._inner.start()
        finally:
            self._token.register(self)
        self.spawn_s = self._inner.spawn_s
        self._check()

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        """``method(*args)`` of the bot process, unless the match was cancelled; a fault
        raised once it was cancelled is the kill's doing and becomes ``Cancelled``."""
        self._check()
        try:
            return method(*args)
        except BotFault:
            self._check()
            raise

    def send(self, line: str) -> None:
        self._call(self._inner.send, line)

    def send_lines(self, lines: list[str]) -> None:
        self._call(self._inner.send_lines, lines)

    def try_send_lines(self, lines: list[str]) -> bool:
        return self._call(self._inner.try_send_lines, lines)

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        return self._call(self._inner.request, line, timeout_s)

    def request_overlapped(self, line: str, timeout_s: float,
                           meanwhile: Callable[[], None] | None) -> tuple[str, float]:
        return self._call(self._inner.request_overlapped, line, timeout_s, meanwhile)

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        return self._call(self._inner.read_line, timeout_s)

    def check_unexpected(self) -> None:
        self._call(self._inner.check_unexpected)

    def discard_pending(self) -> None:
        self._check()
        drop = getattr(self._inner, "discard_pending", None)
        if drop is not None:
            drop()

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        with self._token._lock:
            self._closed = True
        if self._token.cancelled:
            grace_s, term_s = 0.0, 0.2  # killed already; just reap and release
        return self._inner.close(grace_s, term_s)


def _factory(spec: MatchSpec, logs: Path, token: _CancelToken) -> TransportFactory:
    """Bot processes as :func:`run_match` would start them, made cancellable."""
    def make(seat: int, seat_spec: SeatSpec, transcript: Any) -> _CancellableTransport:
        return _CancellableTransport(bot_process(spec, seat, seat_spec, transcript), token)
    return make


def match_spec(config: TournamentConfig, match: ScheduledMatch, output: Path | None) -> MatchSpec:
    """The :class:`MatchSpec` of a scheduled match."""
    seats = []
    for index in match.seats(config.variant):
        bot = config.bots[index]
        seats.append(SeatSpec(bot.name, list(bot.command), cwd=bot.cwd, env=dict(bot.env) or None,
                              time=config.bot_time(bot)))
    return MatchSpec(variant=config.variant, seats=seats, rules=config.rules, seed=match.seed,
                     match_id=match.match_id, time=config.time, faults=config.faults,
                     max_faults=config.max_faults, output=output)


def standings_title(config: TournamentConfig) -> str:
    """``demo: partnership round-robin, 2 per pairing (twins), target 500``."""
    twins = " (twins)" if config.duplicate else ""
    return (f"{config.name}: {config.variant.value} {config.format.value}, {config.matches_per_pairing} per "
            f"pairing{twins}, target {config.rules.target}")


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Matches done/total, elapsed, ETA and the current leader, on stderr.

    On a terminal one line is redrawn in place; otherwise (a log file, CI) a
    plain line is written at most every ``interval_s`` seconds, and at the end.
    Messages printed meanwhile go through :meth:`message` so they never get
    mixed into the progress line.
    """

    def __init__(self, stream: TextIO, total: int, already: int, *, tty: bool | None = None,
                 interval_s: float = 10.0, width: int = 24):
        self.stream, self.total, self.already = stream, total, already
        self.tty = stream.isatty() if tty is None else tty
        self.interval_s, self.width = interval_s, width
        self.t0 = time.monotonic()
        self.done = already
        self.leader = ""
        self._last_plain = 0.0
        self._last_draw = 0.0
        self._last_text = ""
        self._drawn = False

    def _line(self) -> str:
        elapsed = time.monotonic() - self.t0
        played = self.done - self.already
        remaining = self.total - self.done
        eta = _clock(elapsed / played * remaining) if played and remaining else ("0:00" if not remaining else "?")
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        lead = f"  leader {self.leader}" if self.leader else ""
        return (f"[{bar}] {self.done}/{self.total} matches  elapsed {_clock(elapsed)}  ETA {eta}{lead}")

    def update(self, done: int, leader: str = "", *, force: bool = False) -> None:
        """Record progress and redraw (TTY) or print a line when it is due."""
        self.done, self.leader = done, leader
        now = time.monotonic()
        if self.tty:
            self._draw()
        elif force or now - self._last_plain >= self.interval_s:
            line = self._line()
            if line != self._last_text:  # e.g. the final line, when it was just printed
                self.stream.write(line + "\n")
                self.stream.flush()
            self._last_plain, self._last_text = now, line

    def tick(self) -> None:
        """Refresh the clock on a terminal (at most once a second)."""
        if self.tty and time.monotonic() - self._last_draw >= 1.0:
            self._draw()

    def _draw(self) -> None:
        # One screen line at most: a wrapped line could not be redrawn in place.
        width = shutil.get_terminal_size((100, 24)).columns - 1
        self.stream.write("\r\x1b[2K" + self._line()[:max(width, 20)])
        self.stream.flush()
        self._drawn = True
        self._last_draw = time.monotonic()

    def message(self, text: str) -> None:
        """Print a line without breaking the progress display."""
        if self.tty and self._drawn:
            self.stream.write("\r\x1b[2K")
        self.stream.write(text + "\n")
        if self.tty and self._drawn:
            self._draw()
        else:
            self.stream.flush()

    def finish(self) -> None:
        """Leave the last state on screen and end the line."""
        if self.tty:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
        else:
            self.update(self.done, self.leader, force=True)


@dataclasses.dataclass
class RunOutcome:
    """What a :meth:`Tournament.run` did."""

    folder: Path
    total: int  # matches in the schedule
    already: int  # finished before this run
    played: int  # finished during this run
    report: StandingsReport
    standings_text: str
    interrupted_by: int | None = None  # the signal that stopped the run
    error: str | None = None  # a referee-side failure that stopped it
    moved_aside: Path | None = None
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.already + self.played == self.total

    @property
    def exit_code(self) -> int:
        if self.error:
            return 1
        if self.interrupted_by is not None:
            return 128 + self.interrupted_by
        return 0


class Tournament:
    """Plays a config's remaining matches into its results folder."""

    def __init__(self, config: TournamentConfig, *, concurrency: int | None = None, fresh: bool = False,
                 progress_stream: TextIO | None = None, say: Say | None = None, fmt: str = "table",
                 progress_interval_s: float = 10.0, tty: bool | None = None):
        """``progress_stream``: where progress goes (None: nowhere). ``say``:
        where information and warnings go (None: nowhere). ``fmt``: the format
        of ``standings.txt`` and of :attr:`RunOutcome.standings_text`."""
        if concurrency is not None and concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got: {concurrency!r}")
        self.config = config
        self.concurrency = concurrency or config.concurrency
        self.fresh = fresh
        self.fmt = fmt
        self.folder = ResultsFolder(config.output)
        self.schedule = schedule(config)
        self._progress_stream = progress_stream
        self._progress_interval_s = progress_interval_s
        self._tty = tty
        self._say = say
        self._progress: Progress | None = None
        self._stop = threading.Event()
        self._signal: int | None = None
        self._running: dict[str, _CancelToken] = {}
        self._running_lock = threading.Lock()
        self._warned: set[str] = set()

    # ------------------------------------------------------------ messages

    def _message(self, text: str) -> None:
        if self._progress is not None and self._say is not None:
            self._progress.message(text)
        elif self._say is not None:
            self._say(text)

    # ------------------------------------------------------------ stopping

    def stop(self, signum: int | None = None) -> None:
        """Ask the run to stop: abandon running matches and start no new one.

        Safe to call from a signal handler or another thread.
        """
        if signum is not None and self._signal is None:
            self._signal = signum
        self._stop.set()

    def _cancel_running(self) -> None:
        with self._running_lock:
            tokens = list(self._running.values())
        for token in tokens:
            token.cancel()

    # ------------------------------------------------------------ the run

    def run(self) -> RunOutcome:
        """Play every match not yet in the results folder; return what happened.

        Raises :class:`referee.results.ResultsError` (unusable folder, changed
        config) before any match starts.
        """
        t0 = time.monotonic()
        moved = self.folder.prepare(self.config, fresh=self.fresh)
        try:
            return self._run(t0, moved)
        finally:
            self.folder.unlock()

    def _run(self, t0: float, moved: Path | None) -> RunOutcome:
        if moved is not None:
            self._message(f"Moved the previous results to {shown_path(moved)} (--fresh).")
        torn = self.folder.repair()
        if torn:
            self._message(f"Repaired {shown_path(self.folder.matches_path)}: cut off a torn last line ({torn} bytes, "
                          "from an interrupted run; kept in matches.jsonl.torn). Its match is played again.")
        builder = StandingsBuilder([b.name for b in self.config.bots], title=standings_title(self.config),
                                   expected=len(self.schedule))
        ids = {m.match_id for m in self.schedule}
        done: set[str] = set()
        # Silent here: the final read for the standings reports bad lines.
        for record in self.folder.iter_records(ReadReport()):
            if record["match"] in ids:
                done.add(record["match"])
                builder.add(record)
        pending = [m for m in self.schedule if m.match_id not in done]
        already = len(done)
        total = len(self.schedule)
        if self._say is not None:
            if already:
                self._say(f"Resuming {shown_path(self.folder.path)}: {already} of {total} matches already played, "
                          f"{len(pending)} to go.")
            else:
                self._say(f"Playing {total} matches into {shown_path(self.folder.path)} "
                          f"({min(self.concurrency, max(1, total))} at a time).")
        if self._progress_stream is not None and pending:
            self._progress = Progress(self._progress_stream, total, already, tty=self._tty,
                                      interval_s=self._progress_interval_s)
        played, error = self._play(pending, builder, already) if pending else (0, None)
        if self._progress is not None:
            self._progress.finish()
            self._progress = None
        # The final tables come from the file, not from the live counters,
        # so they are exactly what `spades standings` prints later.
        report = standings_from_folder(self.folder, warn=self._message)
        text = render(report, self.fmt)
        self.folder.write_standings(text)
        return RunOutcome(self.folder.path, total, already, played, report, text, self._signal, error, moved,
                          time.monotonic() - t0)

    def _play(self, pending: list[ScheduledMatch], builder: StandingsBuilder, already: int) -> tuple[int, str | None]:
        """Run the pending matches on worker threads; return (played, error)."""
        work: Iterator[ScheduledMatch] = iter(pending)
        work_lock = threading.Lock()
        finished: queue.Queue[tuple[str, Any]] = queue.Queue()

        def next_match() -> ScheduledMatch | None:
            with work_lock:
                if self._stop.is_set():
                    return None
                return next(work, None)

        def worker() -> None:
            while True:
                match = next_match()
                if match is None:
                    return
                token = _CancelToken()
                with self._running_lock:
                    self._running[match.match_id] = token
                try:
                    spec = match_spec(self.config, match, self.folder.path)
                    record = run_match(spec, transport_factory=_factory(spec, self.folder.logs, token))
                except Cancelled:
                    return
                except BaseException as exc:  # a referee-side failure: stop, keep what is saved
                    finished.put(("error", (match, exc)))
                    return
                finally:
                    with self._running_lock:
                        self._running.pop(match.match_id, None)
                finished.put(("record", record))

        n_workers = min(self.concurrency, len(pending))
        threads = [threading.Thread(target=worker, name=f"match-worker-{i}", daemon=True) for i in range(n_workers)]
        restore = self._install_signals()
        played = 0
        error: str | None = None
        try:
            for t in threads:
                t.start()
            self._update_progress(builder, already)
            while any(t.is_alive() for t in threads) or not finished.empty():
                try:
                    kind, item = finished.get(timeout=0.25)
                except queue.Empty:
                    if self._stop.is_set():
                        self._cancel_running()
                    if self._progress is not None:
                        self._progress.tick()
                    continue
                if kind == "error":
                    match, exc = item
                    if error is None:
                        error = f"{type(exc).__name__}: {exc} (while playing match {match.match_id})"
                    self.stop()
                    self._cancel_running()
                    continue
                record: MatchRecord = item
                played += 1
                data = record.to_dict()
                builder.add(data)
                self._warn_faults(data)
                self._update_progress(builder, already + played)
                if self._stop.is_set():
                    self._cancel_running()
        finally:
            # Whatever ends the loop (a signal, an error, even an exception
            # here): no match may keep running, no bot may outlive the run.
            self._stop.set()
            self._cancel_running()
            for t in threads:
                t.join(timeout=30)
            restore()
        while not finished.empty():  # records that finished while stopping
            kind, item = finished.get()
            if kind == "record":
                played += 1
                builder.add(item.to_dict())
        return played, error

    def _update_progress(self, builder: StandingsBuilder, done: int) -> None:
        if self._progress is None:
            return
        lead = builder.leader()
        text = ""
        if lead is not None:
            name, b = lead
            text = f"{name} {100 * b.score / b.matches:.0f}% ({b.wins}-{b.losses}-{b.draws})"
        self._progress.update(done, text)

    def _warn_faults(self, record: dict[str, Any]) -> None:
        """Say once per bot when it fails to start or crashes, with where to look."""
        for fault in record.get("faults", []):
            kind = fault.get("kind")
            if kind not in (FaultKind.STARTUP.value, FaultKind.CRASH.value):
                continue
            seat = fault["seat"]
            name = record["bots"][seat]
            if name in self._warned:
                continue
            self._warned.add(name)
            log = self.folder.logs / f"{record['match']}.{seat}.stderr"
            self._message(f"warning: bot {name!r} {FaultKind(kind).summary} in match {record['match']}: "
                          f"{fault.get('detail')} (its stderr: {shown_path(log)}); the match is recorded as a forfeit")

    def _install_signals(self) -> Callable[[], None]:
        """SIGINT/SIGTERM stop the run cleanly; a second one is not needed (nor caught)."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous: dict[int, Any] = {}

        def handler(signum: int, frame: Any) -> None:
            first = self._signal is None
            self.stop(signum)
            if first:
                self._message(f"Stopping ({signal.Signals(signum).name}): abandoning "
                              f"{len(self._running)} running match(es) and ending their bots...")
            # Further signals fall through to the defaults: a user who
            # insists gets the ordinary behaviour (bots still see EOF).
            for sig, old in previous.items():
                signal.signal(sig, old)

        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.getsignal(sig)
            signal.signal(sig, handler)

        def restore() -> None:
            for sig, old in previous.items():
                signal.signal(sig, old)
        return restore
