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
* **Secret deals.** Each match's deals come from its seed and the results
  folder's secret (:mod:`referee.tournament.integrity`); each record is signed
  with it. A twin's transcript and stderr go to the private ``.staging/``
  folder and move into ``logs/`` only once both legs are recorded, so the
  first leg's cards are out of reach while the second is played.
* **Bad disks.** A record or log that cannot be written (ENOSPC, EIO) stops
  the run cleanly with the reason; nothing half-written counts, and running
  the same command again, once there is room, plays the rest.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TextIO

from referee.match import MatchSpec, stderr_name, transcript_name
from referee.seat.faults import FaultKind
from referee.seat.spec import SeatSpec
from referee.tournament.config import TournamentConfig, check_command, shown_path, standings_title
from referee.tournament.executors import EXECUTORS, Executor, MatchDone, MatchFailed, Outcome
from referee.tournament.formats import Played, TournamentFormat, format_for
from referee.tournament.integrity import deal_key
from referee.tournament.progress import Progress
from referee.tournament.results import ReadReport, ResultsError, ResultsFolder, standings_from_folder
from referee.tournament.schedule import ScheduledMatch
from referee.tournament.standings import StandingsBuilder, StandingsReport, render

__all__ = ["Tournament", "RunOutcome", "match_spec", "executor_for", "bot_seats"]

Say = Callable[[str], None]
# How often the runner wakes while matches run: to notice a stop, redraw the clock.
_TICK_S = 0.25


def match_spec(config: TournamentConfig, match: ScheduledMatch, logs: Path | None,
               secret: bytes | None = None) -> MatchSpec:
    """The :class:`MatchSpec` of a scheduled match, with its logs under ``logs``.

    With ``secret`` (the results folder's), the deals come from the match seed
    and the secret; without, from the seed alone.
    """
    every = bot_seats(config)
    seats = [every[index] for index in match.seats(config.variant)]
    return MatchSpec(variant=config.variant, seats=seats, rules=config.rules, seed=match.seed,
                     match_id=match.match_id, time=config.time, faults=config.faults,
                     max_faults=config.max_faults, logs=str(logs) if logs is not None else None,
                     deal_key=deal_key(secret, match.seed) if secret is not None else None)


def bot_seats(config: TournamentConfig) -> list[SeatSpec]:
    """Every bot of ``config`` as a seat spec (how to start it), in config order."""
    return [SeatSpec(b.name, list(b.command), cwd=str(b.cwd), env=dict(b.env) or None, time=config.bot_time(b),
                     sandbox=config.bot_sandbox(b))
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
    total_known: bool = True  # False: the format decides as it goes, ``total`` is what was played

    @property
    def still_to_play(self) -> str:
        """What a resumed run would play, in words: "the other 12", or "the rest"."""
        return f"the other {self.total - self.already - self.played}" if self.total_known else "the rest"

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
        self._told: set[str] = set()  # refusals already said (the resume read and the final read see the same lines)
        self._staged: dict[str, ScheduledMatch] = {}  # twin legs whose logs wait in .staging/

    # ------------------------------------------------------------ messages

    def _message_once(self, text: str) -> None:
        if text not in self._told:
            self._told.add(text)
            self._message(text)

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
        if self.folder.grown is not None:
            self._message(f"Growing {shown_path(self.folder.path)}: {self.folder.grown.what} "
                          f"({self.folder.grown.new_matches} new matches; those played are kept).")
        torn = self.folder.repair()
        if torn:
            self._message(f"Repaired {shown_path(self.folder.matches_path)}: cut off a torn last line ({torn} bytes, "
                          "from an interrupted run; kept in matches.jsonl.torn). Its match is played again.")
        total = self.format.expected_total()
        builder = StandingsBuilder([b.name for b in self.config.bots], title=standings_title(self.config),
                                   expected=total, mixed=self.format.mixed_teams())
        done: dict[str, Played] = {}
        # A refused record (forged, changed, not scheduled) is said here and
        # its match played again; the final read says it no second time.
        for record in self.folder.iter_records(ReadReport(), warn=self._refusal, owns=self.format.owns):
            done[record["match"]] = Played.from_record(record)
            builder.add(record)
        self._publish_finished(done, self.format.next_matches({}))
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
        report = standings_from_folder(self.folder, warn=self._message_once)
        text = render(report, self.fmt)
        try:
            self.folder.write_standings(text)
        except OSError as exc:  # a full disk: the records are safe, the tables are printed anyway
            self._message(f"warning: cannot write {shown_path(self.folder.standings_path)}: {exc.strerror or exc}")
        return RunOutcome(self.folder.path, total if total is not None else already + played, already, played,
                          report, text, self._signal, error, moved, time.monotonic() - t0, total is not None)

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
                    self._publish_finished(done)
                    self._warn_faults(outcome.record)
                    played += 1
                    self._update_progress(builder, already + played, done)
                elif isinstance(outcome, MatchFailed):
                    if error is None:
                        error = f"{outcome.error} (while playing match {outcome.match_id})"
                    self.stop()

        restore = self._install_signals()
        try:
            executor.start()
            self._update_progress(builder, already, done)
            while True:
                if not self._stop.is_set():
                    free = executor.capacity - len(self._running)
                    if free > 0:
                        # (A format never offers a finished match; the check keeps a
                        # faulty one from recording a match twice.)
                        for match in [m for m in self.format.next_matches(done)
                                      if m.match_id not in self._running and m.match_id not in done][:free]:
                            executor.submit(match_spec(self.config, match, self._logs_for(match),
                                                       self.folder.secret()))
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
        staged = outcome.match_id in self._staged
        self.folder.store_logs(outcome.logs, into=self.folder.staging if staged else None)
        self.folder.append_record(outcome.record)

    def _refusal(self, text: str) -> None:
        if ": refused: " in text:
            self._message_once(text)

    def _logs_for(self, match: ScheduledMatch) -> Path:
        """Where a match writes its logs: a twin leg's go to the private staging folder."""
        if not match.twin_ids:
            return self.folder.logs
        self._staged[match.match_id] = match
        self.folder.staging.mkdir(mode=0o700, exist_ok=True)
        os.chmod(self.folder.staging, 0o700)  # whatever the umask or an older folder made it
        return self.folder.staging

    def _publish_finished(self, done: dict[str, Played], more: Sequence[ScheduledMatch] = ()) -> None:
        """Move the staged logs of every twin pair whose legs are all recorded into ``logs/``.

        At the start of a run ``more`` lists the scheduled matches, so that a
        run stopped between a record and the move leaves nothing behind.
        """
        staging = self.folder.staging
        if not staging.is_dir():
            return
        nseats = self.config.variant.seats
        for match in [*more, *self._staged.values()]:
            if not match.twin_ids or not all(i in done for i in match.twin_ids):
                continue
            for leg in match.twin_ids:
                for name in [transcript_name(leg)] + [stderr_name(leg, s) for s in range(nseats)]:
                    try:
                        os.replace(staging / name, self.folder.logs / name)
                    except FileNotFoundError:
                        pass
                    except OSError as exc:  # kept private; the next run moves it
                        self._message(f"warning: cannot move {name} from {shown_path(staging)} into logs/: "
                                      f"{exc.strerror or exc}")
                self._staged.pop(leg, None)

    def _update_progress(self, builder: StandingsBuilder, done: int, finished: Mapping[str, Played]) -> None:
        if self._progress is None:
            return
        lead = builder.leader()
        text = ""
        if lead is not None:
            name, b = lead
            text = f"{name} {100 * b.score / b.matches:.0f}% ({b.wins}-{b.losses}-{b.draws})"
        extra = self.format.progress_text(finished)  # e.g. an SPRT's LLR and bounds
        self._progress.update(done, f"{text}  {extra}" if text and extra else text or extra)

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
            if record["match"] in self._staged:  # a twin leg's log stays private until its twin is played
                log = self.folder.staging / log.name
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
