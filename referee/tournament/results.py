"""The results folder of a tournament, and reading it back safely.

::

    results/<name>/
      config.yaml          the config as run, frozen (defaults filled in)
      matches.jsonl        one record per finished match, appended, never rewritten
      secret               the folder's secret (0600): deal keys and record checks
      .staging/            transcripts of twins whose other leg is not finished yet
      logs/<match>.jsonl   transcript of every message
      logs/<match>.<seat>.stderr
      standings.txt        the standings printed last
      .lock                held while a ``spades run`` uses the folder

Records are appended by :meth:`ResultsFolder.append_record`, the one writer
of ``matches.jsonl`` (a match never writes its own record), each signed
with the folder's secret (:mod:`referee.tournament.integrity`): one ``write``
then ``fsync``, so each is either whole or absent. The one exception is a
crash of the machine or a SIGKILL in the middle of that write: the file may
then end in a *torn* line without its newline. Reading skips it; before a run
appends anything, :meth:`ResultsFolder.repair` moves the fragment into
``matches.jsonl.torn`` and cuts it off, so the next record starts on a line
of its own. Nothing else is ever removed from ``matches.jsonl``.

Reading refuses, naming the file and line, a record whose integrity check
fails (changed or forged after the referee wrote it) and a record of a match
the tournament did not schedule: neither is counted, and neither hides the
real record of the same match. A folder from before integrity checks (no
``secret``, no record with a ``check``) is read with one warning, and
:meth:`ResultsFolder.prepare` refuses to resume it (its deals came from the
seed alone; new matches would not be twins of old ones).
"""

from __future__ import annotations

import dataclasses
import datetime
import errno
import fcntl
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Mapping, overload

import yaml

from referee.match import stderr_name
from referee.tournament import integrity
from referee.tournament.config import (
    ConfigError, TournamentConfig, format_path, load_config, shown_path, standings_title,
)
from referee.tournament.formats import Played, TournamentFormat, format_for
from referee.tournament.growth import Growth, growth
from referee.tournament.recordline import decode_record, unreadable_matches
from referee.tournament.standings import StandingsBuilder, StandingsReport

__all__ = ["ResultsFolder", "ResultsError", "ConfigChanged", "ReadReport", "describe_changes", "standings_from_folder",
           "FORGED", "UNSCHEDULED"]

Warn = Callable[[str], None]


class ResultsError(Exception):
    """The results folder cannot be used (unwritable, not a results folder, busy)."""


class ConfigChanged(ResultsError):
    """The folder holds a tournament run with a different config."""

    def __init__(self, folder: Path, changes: list[str], why: str | None = None):
        self.folder, self.changes = folder, changes
        shown = "\n".join(f"  {c}" for c in changes)
        because = f"It cannot be resumed with this config: {why}.\n" if why else ""
        super().__init__(
            f"{shown_path(folder)} holds a tournament run with a different config:\n{shown}\n{because}"
            "Run again with --fresh to start over (the old folder is moved aside, nothing is deleted), "
            "or set another 'output' folder.")


@dataclasses.dataclass
class ReadReport:
    """What reading ``matches.jsonl`` found besides good records."""

    records: int = 0
    torn_bytes: int = 0  # size of a torn last line (0: none)
    bad_lines: list[int] = dataclasses.field(default_factory=list)  # 1-based line numbers
    duplicates: list[str] = dataclasses.field(default_factory=list)  # repeated match ids
    refused: list[int] = dataclasses.field(default_factory=list)  # 1-based lines: failed check, not scheduled
    unchecked: int = 0  # records of a folder from before integrity checks, counted unverified


#: Why a record is refused (the line's ``path:number: `` goes in front).
FORGED = "the record's integrity check fails: it was changed or forged after the referee wrote it"
UNCHECKED = "the record carries no integrity check, and every record of this folder must: it was forged"
NO_SECRET = ("the record carries an integrity check but the folder's secret file is missing, so it cannot be "
             "verified (was the secret deleted or the record copied from another folder?)")
UNSCHEDULED = "a record of match {match!r}, which this tournament did not schedule"


_FROZEN_HEADER = (
    "# The config of this tournament as it was run, frozen by `spades run` (defaults filled in).\n"
    "# Paths are relative to this folder, and `output: .` is this folder: running this file\n"
    "# with `spades run` resumes the tournament in place.\n"
)


class ResultsFolder:
    """One tournament's results folder."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._lock_fd: int | None = None
        self._secret: bytes | None = None
        #: Set by :meth:`prepare` when the config grew the tournament (:mod:`referee.tournament.growth`).
        self.grown: Growth | None = None

    # ------------------------------------------------------------ paths

    @property
    def config_path(self) -> Path:
        return self.path / "config.yaml"

    @property
    def matches_path(self) -> Path:
        return self.path / "matches.jsonl"

    @property
    def logs(self) -> Path:
        return self.path / "logs"

    @property
    def secret_path(self) -> Path:
        return self.path / integrity.SECRET_FILE

    @property
    def staging(self) -> Path:
        """Private logs of twin legs whose other leg is not finished yet."""
        return self.path / ".staging"

    @overload
    def secret(self, *, create: Literal[True]) -> bytes: ...

    @overload
    def secret(self, *, create: bool = False) -> bytes | None: ...

    def secret(self, *, create: bool = False) -> bytes | None:
        """The folder's secret; None when it has none and ``create`` is false.

        Creating one refuses a folder that already holds unchecked records
        (a folder from before integrity checks): signing new records beside
        them would turn the old ones into refused forgeries.
        Raises :class:`ResultsError` when the secret cannot be read or made.
        """
        if self._secret is not None:
            return self._secret
        try:
            self._secret = integrity.load_secret(self.secret_path)
            return self._secret
        except FileNotFoundError:
            pass
        except integrity.SecretError as exc:
            raise ResultsError(f"{exc}. Without it, this folder's records cannot be verified.") from None
        except OSError as exc:
            raise ResultsError(f"cannot read {shown_path(self.secret_path)}: {exc.strerror or exc}") from None
        if not create:
            return None
        if self._has_records():
            raise ResultsError(_legacy_message(self.path))
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._secret = integrity.create_secret(self.secret_path)
            return self._secret
        except OSError as exc:
            raise ResultsError(f"cannot write {shown_path(self.secret_path)}: {exc.strerror or exc}") from None

    def _has_records(self) -> bool:
        try:
            return self.matches_path.stat().st_size > 0
        except FileNotFoundError:
            return False

    @property
    def standings_path(self) -> Path:
        return self.path / "standings.txt"

    def stderr_log(self, match_id: str, seat: int) -> Path:
        """Where the stderr of seat ``seat`` in match ``match_id`` is kept."""
        return self.logs / stderr_name(match_id, seat)

    def is_results_folder(self) -> bool:
        """True when the folder holds a frozen config or match records."""
        return self.config_path.exists() or self.matches_path.exists()

    # ------------------------------------------------------------ preparing a run

    def prepare(self, config: TournamentConfig, *, fresh: bool = False) -> Path | None:
        """Make the folder ready for ``config`` and lock it.

        Creates the folder, checks it is writable, refuses a folder made by a
        different config (:class:`ConfigChanged`) and freezes the config on a
        first run. With ``fresh`` an existing results folder is renamed to
        ``<folder>.old-<timestamp>`` first; that path is returned.
        Raises :class:`ResultsError` when the folder cannot be used.
        """
        moved = None
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError(f"output {shown_path(self.path)} exists and is not a folder")
        if self.path.is_dir():
            try:
                # A lone secret is a folder made ready to deal the cards of another (copied secret).
                entries = [p.name for p in self.path.iterdir() if p.name not in (".lock", integrity.SECRET_FILE)]
            except OSError as exc:
                raise ResultsError(f"cannot read the output folder {shown_path(self.path)}: {exc.strerror}") from None
            if entries and not self.is_results_folder():
                raise ResultsError(f"output folder {shown_path(self.path)} is not empty and holds no tournament "
                                   "results (no config.yaml or matches.jsonl); choose another 'output' folder")
            if entries:
                # Lock before looking closer: a running tournament's folder
                # must be neither judged half-written nor pulled away.
                self.lock()
                if fresh:
                    try:
                        moved = self._move_aside()
                    finally:
                        self.unlock()  # the lock file moved with the old folder
                else:
                    try:
                        self._check_same(config)
                    except ResultsError:
                        self.unlock()
                        raise
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.logs.mkdir(exist_ok=True)
            probe = tempfile.NamedTemporaryFile(dir=self.path, prefix=".write-test-", delete=True)
            probe.close()
        except OSError as exc:
            self.unlock()
            raise ResultsError(f"cannot write to the output folder {shown_path(self.path)}: "
                               f"{exc.strerror or exc}") from None
        self.lock()
        try:
            self.secret(create=True)
        except ResultsError:
            self.unlock()
            raise
        if not self.config_path.exists():
            try:
                self._freeze(config)
            except OSError as exc:
                self.unlock()
                raise ResultsError(f"cannot write {shown_path(self.config_path)}: {exc.strerror or exc}") from None
        return moved

    def _move_aside(self) -> Path:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.old-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.old-{stamp}-{n}")
        try:
            self.path.rename(target)
        except OSError as exc:
            raise ResultsError(f"cannot move {shown_path(self.path)} aside to {shown_path(target)}: "
                               f"{exc.strerror or exc}") from None
        return target

    def _check_same(self, config: TournamentConfig) -> None:
        if not self.config_path.exists():
            # Records without a frozen config: a folder from an older or
            # foreign run. Adopting them could mix two tournaments.
            raise ResultsError(f"{shown_path(self.path)} holds matches.jsonl but no config.yaml, so it cannot be "
                               "checked against this config; run with --fresh to start over (the folder is moved "
                               "aside)")
        try:
            old = self.load_config()
        except ConfigError as exc:
            raise ResultsError(f"the frozen config of {shown_path(self.path)} cannot be read:\n{exc}\n"
                               "Run with --fresh to start over (the folder is moved aside).") from None
        changes = describe_changes(old.identity(), config.identity())
        if changes:
            grown = growth(old, config)
            if isinstance(grown, str):
                raise ConfigChanged(self.path, changes, grown)
            # Only new matches: the folder now belongs to the grown config.
            self.grown = grown
            self._freeze(config)

    def _freeze(self, config: TournamentConfig) -> None:
        body = yaml.safe_dump(config.frozen(self.path), sort_keys=False, default_flow_style=None, width=100)
        header = _FROZEN_HEADER
        write_atomic(self.config_path, header + body)

    def load_config(self) -> TournamentConfig:
        """The frozen config (bot programs are not checked: they may be gone)."""
        return load_config(self.config_path, check_commands=False)

    # ------------------------------------------------------------ lock

    def lock(self) -> None:
        """Take the folder's lock, or raise :class:`ResultsError` if another run holds it.

        ``flock`` is released by the kernel when the holder dies, even by
        SIGKILL, so a crashed run never leaves a stale lock.
        """
        if self._lock_fd is not None:
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ResultsError(f"cannot write to the output folder {shown_path(self.path)}: "
                               f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
            finally:
                os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise ResultsError(f"another `spades run`{who} is using {shown_path(self.path)}; wait for it to finish "
                               "or stop it first") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:  # a full disk: the pid is only shown to a second run; the lock itself holds
            pass
        self._lock_fd = fd

    def unlock(self) -> None:
        """Release the lock (closing the descriptor releases the ``flock``)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ------------------------------------------------------------ records

    def repair(self) -> int:
        """Cut a torn last line off ``matches.jsonl``; return its size in bytes (0: none).

        A last line that parses as a record is not torn: it gets its newline
        back and stays. Raises :class:`ResultsError` when ``matches.jsonl``
        is not a file.

        The fragment is appended to ``matches.jsonl.torn`` first, so even a
        damaged record is never silently destroyed. Call only while holding
        the lock: nobody else may be appending.
        """
        path = self.matches_path
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return 0
        if not path.is_file():
            raise ResultsError(unreadable_matches(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))))
        if size == 0:
            return 0
        with open(path, "rb") as fh:
            # Find the last newline by reading backwards in blocks.
            end = size
            block = 1 << 16
            keep = 0
            while end > 0:
                start = max(0, end - block)
                fh.seek(start)
                chunk = fh.read(end - start)
                nl = chunk.rfind(b"\n")
                if nl >= 0:
                    keep = start + nl + 1
                    break
                end = start
            if keep == size:
                return 0
            fh.seek(keep)
            fragment = fh.read()
        if decode_record(fragment)[0] is not None:
            # A whole record that lost only its newline (an editor, a copy):
            # it is a record, not a torn line. Give it back its newline.
            with open(path, "ab") as out:
                out.write(b"\n")
                out.flush()
                os.fsync(out.fileno())
            return 0
        with open(self.path / "matches.jsonl.torn", "ab") as out:
            out.write(fragment + b"\n")
            out.flush()
            os.fsync(out.fileno())
        os.truncate(path, keep)
        return size - keep

    def iter_records(self, report: ReadReport | None = None, warn: Warn | None = None,
                     owns: Callable[[str], bool] | None = None) -> Iterator[dict[str, Any]]:
        """Stream the records of ``matches.jsonl``, one dict at a time.

        Never raises for bad content: a torn last line (one that does not
        parse: a whole record without its newline counts), a line that is not a
        JSON object with a ``match`` id (too deep, a number out of range), a record whose integrity check fails,
        a record of a match ``owns`` does not recognise, or a repeated id
        (only the first good one counts) is skipped, counted in ``report`` and
        told to ``warn`` with the file and line. Raises :class:`ResultsError`
        when ``matches.jsonl`` cannot be opened (a folder, unreadable).
        """
        report = report if report is not None else ReadReport()
        seen: set[str] = set()
        shown = shown_path(self.matches_path)
        try:
            fh = open(self.matches_path, "rb")
        except FileNotFoundError:
            return
        except OSError as exc:  # a folder, or unreadable: a clear refusal, never a traceback
            raise ResultsError(unreadable_matches(self.matches_path, exc)) from None
        try:
            secret = self.secret()
        except ResultsError as exc:
            # A damaged secret verifies nothing: every record is refused below.
            if warn:
                warn(f"{shown}: {exc}")
            secret = b""
        with fh:
            for number, raw in enumerate(fh, 1):
                if not raw.strip():
                    continue
                record, wrong = decode_record(raw)
                if record is None and not raw.endswith(b"\n"):
                    # Only a line that does not parse is torn; a whole record
                    # that lost just its newline is still a record.
                    report.torn_bytes = len(raw)
                    if warn:
                        warn(f"{shown}:{number}: ignoring a torn last line ({len(raw)} bytes, from an "
                             f"interrupted write: {wrong}); its match will be played again")
                    break
                if record is None:
                    report.bad_lines.append(number)
                    if warn:
                        warn(f"{shown}:{number}: ignoring a line that is not a match record: {wrong}")
                    continue
                match_id = record["match"]
                why = None
                if secret is None:  # a folder from before integrity checks, or a deleted secret
                    if integrity.CHECK_FIELD in record:
                        why = NO_SECRET
                    else:
                        report.unchecked += 1
                elif not integrity.verify(secret, record):
                    why = FORGED if integrity.CHECK_FIELD in record else UNCHECKED
                if why is None and owns is not None and not owns(match_id):
                    why = UNSCHEDULED.format(match=match_id)
                if why is not None:
                    report.refused.append(number)
                    if warn:
                        warn(f"{shown}:{number}: refused: {why}")
                    continue
                if match_id in seen:
                    report.duplicates.append(match_id)
                    if warn:
                        warn(f"{shown_path(self.matches_path)}:{number}: ignoring a second record of match "
                             f"{match_id!r}")
                    continue
                seen.add(match_id)
                report.records += 1
                yield record
        if report.unchecked and warn:
            warn(f"{shown}: warning: {report.unchecked} record(s) carry no integrity check (written before "
                 "spades-referee signed its records); they are counted but cannot be verified")

    def append_record(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """Sign one finished match's record, add it to ``matches.jsonl`` and make it
        durable before returning; return the record as stored (with its ``check``).

        A single ``write`` of the whole line to a file opened in append mode, then
        ``fsync``: a crash or SIGKILL leaves either the whole record or none of it.
        A short write (a full disk) raises ``OSError(ENOSPC)`` and leaves a torn
        line that the next run repairs. Raises :class:`ResultsError` when the
        folder's secret cannot be read or made.
        """
        signed = integrity.sign(self.secret(create=True), record)
        data = (json.dumps(signed, separators=(",", ":")) + "\n").encode("utf-8")
        fd = os.open(self.matches_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} (wrote {written} of {len(data)} bytes)")
            os.fsync(fd)
        finally:
            os.close(fd)
        return signed

    def store_logs(self, files: Mapping[str, bytes], into: Path | None = None) -> None:
        """Write log files a match produced elsewhere (``name -> content``) into ``logs/``
        (or ``into``: the private staging folder of twin legs).

        Names are plain file names; anything with a path in it is refused, so
        a record from another machine cannot write outside ``logs/``.
        """
        if not files:
            return
        folder = into if into is not None else self.logs
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            if not name or name in (".", "..") or "/" in name or "\0" in name:
                raise ResultsError(f"refusing a log file name with a path in it: got {name!r}")
            (folder / name).write_bytes(data)

    def write_standings(self, text: str) -> None:
        """Replace ``standings.txt`` atomically (never a half-written file)."""
        write_atomic(self.standings_path, text if text.endswith("\n") else text + "\n")


def standings_from_folder(folder: ResultsFolder, *, title: str | None = None,
                          warn: Warn | None = None) -> StandingsReport:
    """The standings of a results folder, streamed from its ``matches.jsonl``.

    Bot order, title, which records count (those the config's format owns)
    and the expected number of matches come from the frozen ``config.yaml``
    when it can be read; otherwise from the records alone. This is the one
    path both ``spades run`` (at its end) and ``spades standings`` take, so
    the two print the same tables.
    """
    names: list[str] = []
    expected = None
    owns: Callable[[str], bool] | None = None
    fmt: TournamentFormat | None = None
    done: dict[str, Played] = {}  # what the format is told, for its own sections
    try:
        config = folder.load_config()
    except Exception as exc:  # a missing or unreadable frozen config still leaves the records
        if folder.config_path.exists() and warn is not None:
            warn(f"cannot read {folder.config_path} ({str(exc).splitlines()[0]}); standings from the records alone")
        config = None
    if config is not None:
        names = [b.name for b in config.bots]
        fmt = format_for(config)
        expected = fmt.expected_total()
        owns = fmt.owns
        title = title or standings_title(config)
    builder = StandingsBuilder(names, title=title or folder.path.name, expected=expected,
                               mixed=fmt is not None and fmt.mixed_teams())
    read = ReadReport()
    for record in folder.iter_records(read, warn=warn, owns=owns):
        if builder.add(record) and fmt is not None:
            done[record["match"]] = Played.from_record(record)
    if warn is not None:
        for warning in builder.warnings:
            warn(f"warning: {warning}")
    report = builder.report()
    report.refused = len(read.refused)
    if fmt is not None:
        report.sections = fmt.standings_sections(done)
    return report


def _legacy_message(path: Path) -> str:
    return (f"{shown_path(path)} holds match records from before spades-referee signed its records and kept "
            "its deals secret (it has matches.jsonl but no secret file). Resuming it would deal new matches "
            "differently from the old ones and leave the old records unverifiable. Run with --fresh to start "
            "over (the folder is moved aside, nothing is deleted); `spades standings` still reads the old folder.")


def write_atomic(path: Path, text: str) -> None:
    """Write a whole file through a temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def describe_changes(old: Any, new: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    """Differences between two identity mappings, one readable line each."""
    where = format_path(path) or "config"
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in old:
            if key not in new:
                out.append(f"{format_path(path + (key,))}: removed (was {old[key]!r})")
            else:
                out.extend(describe_changes(old[key], new[key], path + (key,)))
        for key in new:
            if key not in old:
                out.append(f"{format_path(path + (key,))}: added ({new[key]!r})")
        return out
    if isinstance(old, list) and isinstance(new, list) and path and path[-1] == "bots":
        out = []
        if [b.get("name") for b in old] != [b.get("name") for b in new]:
            return [f"bots: was {[b.get('name') for b in old]}, now {[b.get('name') for b in new]}"]
        for i, (a, b) in enumerate(zip(old, new)):
            out.extend(describe_changes(a, b, path + (i,)))
        return out
    if old != new:
        return [f"{where}: was {old!r}, now {new!r}"]
    return []
