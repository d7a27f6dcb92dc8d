"""Running a tournament: the format chooses matches, the executor plays them, results are kept.

:class:`Tournament` asks the config's format (:mod:`referee.tournament.formats`)
which matches to play, given those its results folder already holds; hands
them to an executor (:mod:`referee.tournament.executors`), at most as many as
it plays at once; and stores every record that comes back, keeping the
standings as records arrive.

* **One writer.** The runner is the only writer of ``matches.jsonl``: each
  record is appended with one write and an ``fsync`` as it comes back (see
  :meth:`referee.tournament.results.ResultsFolder.append_record`), so whatever
  happens next, a finished match is never played again and never half-written.
* **Stopping.** On SIGINT (Ctrl-C) or SIGTERM the running matches are
  abandoned: the executor ends their bots at once and reports them as
  cancelled, so an abandoned match is never recorded as a forfeit; a match
  that finished meanwhile is still stored. Running the same command again
  plays the abandoned ones from the start. After a SIGKILL of the referee
  nothing runs any more either: bots read end-of-file on stdin and exit, and
  the next run repairs a torn last line of ``matches.jsonl``.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from referee.match import MatchSpec
from referee.seat.faults import FaultKind
from referee.seat.spec import SeatSpec
from referee.tournament.config import TournamentConfig, check_command, shown_path, standings_title
from referee.tournament.executors import EXECUTORS, Executor, MatchDone, MatchFailed, Outcome
from referee.tournament.formats import Played, TournamentFormat, format_for
from referee.tournament.progress import Progress
from referee.tournament.results import ReadReport, ResultsError, ResultsFolder, standings_from_folder
from referee.tournament.schedule import ScheduledMatch
from referee.tournament.standings import StandingsBuilder, StandingsReport, render

__all__ = ["Tournament", "RunOutcome", "match_spec", "executor_for", "bot_seats"]

Say = Callable[[str], None]
# How often the runner wakes while matches run: to notice a stop, redraw the clock.
_TICK_S = 0.25


def match_spec(config: TournamentConfig, match: ScheduledMatch, logs: Path | None) -> MatchSpec:
    """The :class:`MatchSpec` of a scheduled match, with its logs under ``logs``."""
    every = bot_seats(config)
    seats = [every[index] for index in match.seats(config.variant)]
    return MatchSpec(variant=config.variant, seats=seats, rules=config.rules, seed=match.seed,
                     match_id=match.match_id, time=config.time, faults=config.faults,
                     max_faults=config.max_faults, logs=str(logs) if logs is not None else None)


def bot_seats(config: TournamentConfig) -> list[SeatSpec]:
    """Every bot of ``config`` as a seat spec (how to start it), in config order."""
    return [SeatSpec(b.name, list(b.command), cwd=str(b.cwd), env=dict(b.env) or None, time=config.bot_time(b))
            for b in config.bots]


def executor_for(config: TournamentConfig, concurrency: int | None = None, say: Say | None = None) -> Executor:
    """The executor of the config's ``executor:`` (``concurrency``, when given, overrides the config's)."""
    settings = config.executor
    return EXECUTORS[settings.kind].from_settings(settings.options, concurrency=concurrency or config.concurrency,
                                                  bots=bot_seats(config), check=check_command, say=say,
                                                  results=config.output)


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
                 progress_interval_s: float = 10.0, tty: bool | None = None, executor: Executor | None = None):
        """``progress_stream``: where progress goes (None: nowhere). ``say``:
        where information and warnings go (None: nowhere). ``fmt``: the format
        of ``standings.txt`` and of :attr:`RunOutcome.standings_text`.
        ``executor``: where matches are played (default: the config's
        ``executor``, see :func:`executor_for`; ``local`` plays ``concurrency``
        matches at once, else the config's ``concurrency``)."""
        if concurrency is not None and concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got: {concurrency!r}")
        self.config = config
        self.executor = executor or executor_for(config, concurrency, say)
        self.fresh = fresh
        self.fmt = fmt
        self.folder = ResultsFolder(config.output)
        self.format: TournamentFormat = format_for(config)
        self._progress_stream = progress_stream
        self._progress_interval_s = progress_interval_s
        self._tty = tty
        self._say = say
        self._progress: Progress | None = None
        self._stop = threading.Event()
        self._signal: int | None = None
        self._running: set[str] = set()
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

    # ------------------------------------------------------------ the run

    def run(self) -> RunOutcome:
        """Play every match not yet in the results folder; return what happened.

        Raises :class:`referee.tournament.results.ResultsError` (unusable
        folder, changed config) before any match starts.
        """
        t0 = time.monotonic()
        moved = self.folder.prepare(self.config, fresh=self.fresh)
        try:
            return self._run(t0, moved)
        finally:
            self.executor.close()  # idempotent; _run may have started it
            self.folder.unlock()

    def _run(self, t0: float, moved: Path | None) -> RunOutcome:
        if moved is not None:
            self._message(f"Moved the previous results to {shown_path(moved)} (--fresh).")
        torn = self.folder.repair()
        if torn:
            self._message(f"Repaired {shown_path(self.folder.matches_path)}: cut off a torn last line ({torn} bytes, "
                          "from an interrupted run; kept in matches.jsonl.torn). Its match is played again.")
        total = self.format.expected_total()
        builder = StandingsBuilder([b.name for b in self.config.bots], title=standings_title(self.config),
                                   expected=total)
        done: dict[str, Played] = {}
        # Silent here: the final read for the standings reports bad lines.
        for record in self.folder.iter_records(ReadReport()):
            if self.format.owns(record["match"]):
                done[record["match"]] = Played.from_record(record)
                builder.add(record)
        already = len(done)
        first = self.format.next_matches(done)
        if first:
            # Started before the first message, which says how many play at once
            # (a cluster's capacity is known once it is reached).
            self.executor.start()
        if self._say is not None:
            if already:
                to_go = f"{len(first)} to go" if total is not None else "more to come"
                of_total = f" of {total}" if total is not None else ""
                self._say(f"Resuming {shown_path(self.folder.path)}: {already}{of_total} matches already played, "
                          f"{to_go}.")
            else:
                count = f"{total} matches" if total is not None else "a tournament"
                self._say(f"Playing {count} into {shown_path(self.folder.path)} "
                          f"({min(self.executor.at_once, max(1, len(first)))} at a time).")
        if self._progress_stream is not None and first:
            self._progress = Progress(self._progress_stream, total, already, tty=self._tty,
                                      interval_s=self._progress_interval_s)
        played, error = self._play(done, builder, already) if first else (0, None)
        if self._progress is not None:
            self._progress.finish()
            self._progress = None
        # The final tables come from the file, not from the live counters,
        # so they are exactly what `spades standings` prints later.
        report = standings_from_folder(self.folder, warn=self._message)
        text = render(report, self.fmt)
        self.folder.write_standings(text)
        return RunOutcome(self.folder.path, total if total is not None else already + played, already, played,
                          report, text, self._signal, error, moved, time.monotonic() - t0)

    def _play(self, done: dict[str, Played], builder: StandingsBuilder, already: int) -> tuple[int, str | None]:
        """Play what the format asks for until it asks for nothing more; return (played, error)."""
        executor = self.executor
        played = 0
        error: str | None = None

        def take(outcomes: Sequence[Outcome]) -> None:
            # MatchCancelled needs nothing more: the match is no longer running, and nothing is kept.
            nonlocal played, error
            for outcome in outcomes:
                self._running.discard(outcome.match_id)
                if isinstance(outcome, MatchDone):
                    try:
                        self._store(outcome)
                    except (OSError, ResultsError) as exc:  # a full disk, a vanished folder: stop, say why
                        if error is None:
                            error = f"cannot store the record of match {outcome.match_id}: {exc}"
                        self.stop()
                        continue
                    done[outcome.match_id] = Played.from_record(outcome.record)
                    builder.add(outcome.record)
                    self._warn_faults(outcome.record)
                    played += 1
                    self._update_progress(builder, already + played)
                elif isinstance(outcome, MatchFailed):
                    if error is None:
                        error = f"{outcome.error} (while playing match {outcome.match_id})"
                    self.stop()

        restore = self._install_signals()
        try:
            executor.start()
            self._update_progress(builder, already)
            while True:
                if not self._stop.is_set():
                    free = executor.capacity - len(self._running)
                    if free > 0:
                        # (A format never offers a finished match; the check keeps a
                        # faulty one from recording a match twice.)
                        for match in [m for m in self.format.next_matches(done)
                                      if m.match_id not in self._running and m.match_id not in done][:free]:
                            executor.submit(match_spec(self.config, match, self.folder.logs))
                            self._running.add(match.match_id)
                if not self._running:
                    break
                if self._stop.is_set():
                    executor.cancel()
                outcomes = executor.wait(_TICK_S)
                if outcomes:
                    take(outcomes)
                elif self._progress is not None:
                    self._progress.tick()
        finally:
            # Whatever ends the loop (a signal, an error, even an exception
            # here): no match may keep running, no bot may outlive the run,
            # and a match that finished meanwhile is still stored.
            self._stop.set()
            executor.cancel()
            try:
                while self._running:
                    take(executor.wait(_TICK_S))
            finally:
                executor.close()
                restore()
        return played, error

    def _store(self, outcome: MatchDone) -> None:
        """Keep a finished match: its log files (if they came as data), then its record."""
        self.folder.store_logs(outcome.logs)
        self.folder.append_record(outcome.record)

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
            log = self.folder.stderr_log(record["match"], seat)
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
