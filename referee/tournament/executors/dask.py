"""``executor: dask``: matches on the workers of a Dask cluster (``dask[distributed]``).

With ``scheduler: tcp://HOST:PORT`` the executor joins a running cluster;
without one it starts a ``LocalCluster`` of ``workers`` worker processes on
this machine. Each match is one Dask task that asks for one unit of the
``match`` resource, so a worker started with ``--resources match=2`` plays at
most two matches at once and is never oversubscribed.

A task gets the match spec as plain data (:meth:`MatchSpec.to_dict`) and
plays it on the worker with :func:`run_match`, exactly as the local executor
does (the seat's sandbox included); it writes the transcript and stderr logs
into a scratch folder of the worker and sends them back as bytes with the
record. The coordinator (the runner) alone stores them: nothing is written
twice, and a match whose worker died is simply played again from scratch
(Dask reschedules the task), so its record appears once.

Bots reach the workers either through a shared filesystem (``files: shared``,
each worker checks every bot's command before the first match) or as
content-hashed bundles of their folders (``files: bundle``), unpacked once per
machine and reused.

The ``distributed`` package is imported only when the executor starts, so the
referee works without the optional dependency.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import logging
import os
import queue
import re
import shlex
import shutil
import signal
import tarfile
import tempfile
import threading
import time
import uuid
import warnings
from pathlib import Path
from typing import Any, Mapping, Sequence

from referee.match import MatchSpec, run_match
from referee.seat.spec import SeatSpec
from referee.tournament.executors.base import (CommandCheck, Executor, ExecutorError, MatchCancelled, MatchDone,
                                               MatchFailed, Outcome, Say)
from referee.tournament.executors.local import Cancelled, _CancelToken, cancellable_factory

__all__ = ["DaskExecutor", "MISSING_DEPENDENCY", "pack_folder", "dask_setup"]

MISSING_DEPENDENCY = "the dask executor needs the optional dependency: pip install 'spades-referee[dask]'"

_SCHEDULER_RE = re.compile(r"(tcp|tls|ws|wss)://[^\s/]+:[0-9]{1,5}")
_FILES = ("shared", "bundle")
_SETTINGS = ("scheduler", "workers", "matches_per_worker", "files", "retries")
# Folders a bundle never holds: version control and caches, which bots do not need.
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache"})
_BUNDLE_LIMIT = 256 << 20  # bytes; a bigger bot folder is almost surely the wrong folder
# Worker settings of the local cluster. Dask's sampling profiler would stop the
# match threads every 10 ms to read their stacks (the bots' clocks would pay for
# it); its event-loop and memory checks would wake each worker 60 times a second.
# And the environment Dask gives its workers (MALLOC_TRIM_THRESHOLD_=65536,
# OMP_NUM_THREADS=1, ...) would reach the bots, which must run as they do locally.
_QUIET_WORKERS = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "500ms",
                  "distributed.admin.system-monitor.interval": "2s",
                  "distributed.worker.memory.monitor-interval": "1s", "distributed.nanny.pre-spawn-environ": {}}
# How long a run may have matches waiting while no worker offers a match slot.
_NO_WORKER_S = 60.0


def _distributed() -> Any:
    """The ``distributed`` module, or a clear error naming the extra to install."""
    try:
        import distributed
    except ImportError:
        raise ExecutorError(MISSING_DEPENDENCY) from None
    return distributed


# ================================================================== worker side
#
# These run in the worker processes (Dask pickles them by reference, so a
# worker needs the same spades-referee installed).

_worker_lock = threading.Lock()
_cancelled_runs: set[str] = set()
_running: dict[tuple[str, str], _CancelToken] = {}


def dask_setup(worker: Any) -> None:
    """Worker preload of the local cluster: ignore the terminal's Ctrl-C.

    The worker processes share the coordinator's terminal; a Ctrl-C would
    kill them mid-match. The coordinator catches it and cancels the matches
    itself, on every worker, ending their bots.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


async def _cancel_run(run_id: str) -> int:
    """On a worker: abandon every match of run ``run_id`` (and any that starts later).

    A coroutine, so the coordinator can send it without waiting for the
    answers (``Client.run(..., wait=False)`` takes coroutines only); it
    runs on the worker's event loop and only sends signals."""
    with _worker_lock:
        _cancelled_runs.add(run_id)
        tokens = [token for (run, _), token in _running.items() if run == run_id]
    for token in tokens:
        token.cancel()
    return len(tokens)


_environ_restored = False


def _restore_environ() -> None:
    """Drop what a Dask nanny put into this worker's environment for numeric code
    (``MALLOC_TRIM_THRESHOLD_=65536``, ``OMP_NUM_THREADS=1``, ...), once per process.

    The bots a worker starts inherit its environment; they must run as they do
    under ``local``, and a Python bot under that malloc setting runs markedly slower.
    """
    global _environ_restored
    with _worker_lock:
        if _environ_restored:
            return
        _environ_restored = True
        try:
            import dask
            added = dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {}
        except ImportError:
            return
        for key, value in added.items():
            if os.environ.get(key) == str(value):
                del os.environ[key]


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def _scratch_root() -> Path:
    try:
        from distributed import get_worker
        return Path(get_worker().local_directory)
    except (ImportError, ValueError):
        return Path(tempfile.gettempdir())


def _unpacked(digest: str, data: bytes) -> Path:
    """The folder of bundle ``digest`` on this machine, unpacked from ``data`` the first time."""
    root = Path(tempfile.gettempdir()) / f"spades-bundles-{os.getuid()}"
    final = root / digest
    if final.is_dir():
        return final
    raw = gzip.decompress(data)
    if hashlib.sha256(raw).hexdigest() != digest:
        raise ExecutorError(f"bot bundle {digest[:12]} arrived damaged (its content hash differs)")
    root.mkdir(parents=True, exist_ok=True)
    part = Path(tempfile.mkdtemp(prefix=f".{digest[:12]}-", dir=root))
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(part, filter="data")  # no absolute paths, no escaping links
        else:  # Python 3.11 before 3.11.4: refuse by hand what the data filter refuses
            for member in tar.getmembers():
                target = os.path.join(part, member.name)
                if member.islnk() or member.isdev() or not _inside(target, os.fspath(part)) or (
                        member.issym() and not _inside(os.path.join(os.path.dirname(target), member.linkname),
                                                       os.fspath(part))):
                    raise ExecutorError(f"bot bundle {digest[:12]} holds an unsafe entry: {member.name!r}")
            tar.extractall(part)
    try:
        os.rename(part, final)
    except OSError:  # another worker of this machine unpacked it first: use theirs
        shutil.rmtree(part, ignore_errors=True)
    return final


def _relocated(seat: SeatSpec, old: str, new: Path) -> SeatSpec:
    """``seat`` with its folder ``old`` moved to ``new`` (its cwd, and absolute arguments inside it)."""
    argv = seat.command if isinstance(seat.command, str) else [
        os.fspath(new / os.path.relpath(a, old)) if os.path.isabs(a) and _inside(a, old) else a
        for a in seat.command]
    return dataclasses.replace(seat, cwd=os.fspath(new), command=argv)


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.abspath(path), os.path.abspath(folder)]) == os.path.abspath(folder)


def _start_problems(seats: Sequence[SeatSpec], check: CommandCheck) -> list[str]:
    """Why each bot cannot start here: ``bot 'x': program 'y' not found (looked for /z)``."""
    problems = []
    for seat in seats:
        try:
            argv = shlex.split(seat.command) if isinstance(seat.command, str) else list(seat.command)
        except ValueError:
            continue  # an unparsable command fails in run_match, the same on every executor
        problem = check(argv, Path(seat.cwd or os.getcwd()), dict(seat.env or {}))
        if problem is not None:
            problems.append(f"bot {seat.name!r}: {problem}")
    return problems


def _check_bots(bots: Sequence[dict[str, Any]], check: CommandCheck) -> list[str]:
    """On a worker, before the first match (shared files): the bots it cannot start."""
    return _start_problems([SeatSpec.from_dict(b) for b in bots], check)


def _play(spec_data: dict[str, Any], run_id: str, roots: Mapping[str, str], bundles: Mapping[str, bytes],
          check: CommandCheck) -> dict[str, Any]:
    """On a worker: play one match; return its record and logs, or why it was not played.

    Returns ``{"status": "done" | "cancelled" | "cannot-start" | "failed", "worker": address, ...}``.
    A failure is returned rather than raised, so the coordinator tells a
    referee-side failure (retried, then reported with the worker) from a
    worker that died (Dask reschedules the task).
    """
    where = _worker_address()
    _restore_environ()
    key = (run_id, str(spec_data["match_id"]))
    token = _CancelToken()
    with _worker_lock:
        if run_id in _cancelled_runs:
            return {"status": "cancelled", "worker": where}
        _running[key] = token
    scratch: Path | None = None
    try:
        spec = MatchSpec.from_dict(spec_data)
        seats = list(spec.seats)
        for i, seat in enumerate(seats):
            if seat.cwd is None:
                continue
            digest = roots.get(os.fspath(seat.cwd))
            if digest is not None:
                seats[i] = _relocated(seat, os.fspath(seat.cwd), _unpacked(digest, bundles[digest]))
        problems = _start_problems(seats, check)
        if problems:
            return {"status": "cannot-start", "worker": where,
                    "error": f"worker {where} cannot start " + "; ".join(problems)}
        if spec.logs is not None:
            scratch = Path(tempfile.mkdtemp(prefix=f"spades-{spec.match_id}-", dir=_scratch_root()))
        spec = dataclasses.replace(spec, seats=seats, logs=os.fspath(scratch) if scratch is not None else None)
        record = run_match(spec, transport_factory=cancellable_factory(spec, token))
        logs = {p.name: p.read_bytes() for p in sorted(scratch.iterdir())} if scratch is not None else {}
        return {"status": "done", "worker": where, "record": record.to_dict(), "logs": logs}
    except Cancelled:
        return {"status": "cancelled", "worker": where}
    except Exception as exc:  # a referee-side failure on this worker: reported with its name
        return {"status": "failed", "worker": where, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        with _worker_lock:
            _running.pop(key, None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


# ================================================================== bundles


def pack_folder(folder: Path, skip: Sequence[Path] = ()) -> tuple[str, bytes]:
    """A bot folder as ``(sha256 of its tar, gzipped tar)``: the same files give the same hash.

    Entries are sorted and carry no times or owners, so the hash depends on
    names, modes and contents alone. Version-control folders, caches and
    ``skip`` (the results folder, when it lies inside) are left out.
    """
    folder = folder.resolve()
    skipped = {p.resolve() for p in skip}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:", format=tarfile.PAX_FORMAT) as tar:
        for dirpath, dirnames, filenames in os.walk(folder):
            here = Path(dirpath)
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and (here / d).resolve() not in skipped)
            for name in sorted(dirnames) + sorted(f for f in filenames if not f.endswith(".pyc")):
                path = here / name
                info = tar.gettarinfo(os.fspath(path), arcname=os.fspath(path.relative_to(folder)))
                info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                if info.isfile():
                    with open(path, "rb") as fh:
                        tar.addfile(info, fh)
                elif info.isdir() or info.issym():
                    tar.addfile(info)
            if buf.tell() > _BUNDLE_LIMIT:
                raise ExecutorError(f"bot folder {folder} is over {_BUNDLE_LIMIT >> 20} MB; bundle mode ships a "
                                    "bot's 'cwd' folder: give each bot its own folder as 'cwd'")
    raw = buf.getvalue()
    return hashlib.sha256(raw).hexdigest(), gzip.compress(raw, compresslevel=6, mtime=0)


def _outside_arguments(bot: SeatSpec) -> list[str]:
    """Arguments of ``bot`` naming an existing path outside its folder by a relative path
    (``../bots/x.py``): a bundle of the folder would not hold them."""
    if bot.cwd is None or isinstance(bot.command, str):
        return []
    cwd = os.fspath(bot.cwd)
    return [a for a in bot.command if not os.path.isabs(a) and os.path.exists(os.path.join(cwd, a))
            and not _inside(os.path.join(cwd, a), cwd)]


# ================================================================== coordinator side


@dataclasses.dataclass
class _Attempt:
    spec: MatchSpec
    tries: int = 1
    failures: list[str] = dataclasses.field(default_factory=list)  # "worker: error", one per failed try


class DaskExecutor(Executor):
    """Plays matches as tasks of a Dask cluster; see the module docstring."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None, matches_per_worker: int | None = None,
                 files: str = "shared", retries: int = 2, *, bots: Sequence[SeatSpec] = (),
                 check: CommandCheck | None = None, say: Say | None = None, skip: Sequence[Path] = (),
                 no_worker_s: float = _NO_WORKER_S):
        """``scheduler``: join that cluster; else start a local one of ``workers``
        processes of ``matches_per_worker`` matches each. ``files``: how bots
        reach the workers (``shared`` or ``bundle``). ``retries``: how many
        times a match that failed for a referee-side reason is played again
        before the run stops with the error. ``bots``: the tournament's bots
        (checked on every worker at the start; bundled in bundle mode, less
        ``skip``). ``check``: tells why a command cannot start in a folder."""
        issues = self.check_settings({"scheduler": scheduler, "workers": workers,
                                      "matches_per_worker": matches_per_worker, "files": files, "retries": retries})
        if issues:
            raise ValueError("; ".join(f"{key}: {message}" for key, message in issues))
        self.scheduler, self.workers, self.matches_per_worker = scheduler, workers or 1, matches_per_worker or 1
        self.files, self.retries = files, retries
        self.bots, self.skip, self.no_worker_s = list(bots), list(skip), no_worker_s
        self.check: CommandCheck = check or (lambda argv, cwd, env: None)
        self._say = say
        self.run_id = uuid.uuid4().hex
        self._client: Any = None
        self._cluster: Any = None
        self._bundles: dict[str, Any] = {}  # digest -> the scattered bundle's future
        self._roots: dict[str, str] = {}  # a bot's folder -> its bundle's digest
        self._futures: dict[str, tuple[Any, _Attempt]] = {}  # task key -> (future, attempt)
        self._done: queue.Queue[Any] = queue.Queue()
        self._cancelling = False
        self._slots_at = 0.0
        self._slots = 0
        self._starved_since: float | None = None

    # ------------------------------------------------------------ settings

    @classmethod
    def check_settings(cls, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        issues: list[tuple[str, str]] = []
        for key, value in options.items():
            if key not in _SETTINGS:
                issues.append((key, f"not a setting of the 'dask' executor (its settings: {', '.join(_SETTINGS)})"))
            elif value is None:
                continue
            elif key == "scheduler" and not (isinstance(value, str) and _SCHEDULER_RE.fullmatch(value)):
                issues.append((key, f"must be a scheduler address like 'tcp://10.0.0.5:8786', got: {value!r}"))
            elif key in ("workers", "matches_per_worker", "retries") and (
                    isinstance(value, bool) or not isinstance(value, int) or value < (0 if key == "retries" else 1)):
                issues.append((key, f"must be an integer of at least {0 if key == 'retries' else 1}, got: {value!r}"))
            elif key == "files" and value not in _FILES:
                issues.append((key, f"must be 'shared' (bots on a filesystem every worker sees) or 'bundle' "
                                    f"(ship each bot's folder), got: {value!r}"))
        if options.get("scheduler") is not None:
            for key in ("workers", "matches_per_worker"):
                if options.get(key) is not None:
                    issues.append((key, f"only for a local cluster, not with 'scheduler' (workers of a running "
                                        f"cluster declare their slots: dask worker ... --resources match=2), got: "
                                        f"{options[key]!r}"))
        return issues

    @classmethod
    def from_settings(cls, options: Mapping[str, Any], *, concurrency: int, bots: Sequence[SeatSpec],
                      check: CommandCheck, say: Say | None, results: Path | None = None) -> DaskExecutor:
        """Without ``workers`` a local cluster has one worker per match of the tournament's concurrency."""
        known = {k: v for k, v in options.items() if k in _SETTINGS}
        if known.get("scheduler") is None and known.get("workers") is None:
            known["workers"] = concurrency
        return cls(**known, bots=bots, check=check, say=say, skip=[results] if results is not None else [])

    # ------------------------------------------------------------ starting

    def start(self) -> None:
        if self._client is not None:
            return
        distributed = _distributed()
        try:
            if self.scheduler is not None:
                self._client = self._connect(distributed)
            else:
                import dask
                with dask.config.set(_QUIET_WORKERS), warnings.catch_warnings():
                    # The scheduler's HTTP port (no dashboard is served) moves aside when
                    # 8787 is taken: nothing the user needs to hear about.
                    warnings.filterwarnings("ignore", message="Port .* is already in use")
                    self._cluster = distributed.LocalCluster(
                        n_workers=self.workers, threads_per_worker=self.matches_per_worker, processes=True,
                        resources={"match": self.matches_per_worker}, dashboard_address=None,
                        silence_logs=logging.ERROR, preload=[__name__])
                self._client = distributed.Client(self._cluster)
            self._wait_for_slots()
            if self.files == "bundle":
                self._ship_bundles()
            else:
                self._check_workers()
        except BaseException:
            self.close()
            raise
        if self._say is not None:
            where = f"the Dask scheduler at {self.scheduler}" if self.scheduler else "a local Dask cluster"
            self._say(f"Playing on {where}: {len(self._worker_slots())} worker(s), {self._free_slots()} match "
                      f"slot(s); bots {'shipped as bundles' if self.files == 'bundle' else 'on shared files'}.")

    def _connect(self, distributed: Any) -> Any:
        try:
            return distributed.Client(self.scheduler, timeout=15, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"cannot reach the Dask scheduler at {self.scheduler} ({exc}); start it with "
                                "`dask scheduler` on that machine and open its port to this one") from None

    def _worker_slots(self) -> dict[str, int]:
        """Each worker's match slots: its ``match`` resource, at most its threads."""
        info = self._client.scheduler_info(n_workers=-1)
        return {address: min(int(w.get("resources", {}).get("match", 0)), int(w.get("nthreads", 0)))
                for address, w in info.get("workers", {}).items()}

    def _free_slots(self) -> int:
        return sum(self._worker_slots().values())

    def _wait_for_slots(self) -> None:
        deadline = time.monotonic() + self.no_worker_s
        while self._free_slots() < 1:
            if time.monotonic() > deadline:
                workers = self._worker_slots()
                found = (f"its {len(workers)} worker(s) offer no 'match' slot" if workers else "it has no worker")
                raise ExecutorError(f"the Dask scheduler at {self.scheduler}: {found} after {self.no_worker_s:.0f} "
                                    f"s; start workers with `dask worker {self.scheduler} --nthreads 2 "
                                    "--resources match=2`")
            time.sleep(0.2)

    def _check_workers(self) -> None:
        """Shared files: every worker must see every bot's program and script."""
        if not self.bots:
            return
        found = self._client.run(_check_bots, [b.to_dict() for b in self.bots], self.check)
        lines = [f"worker {address} cannot start {problem}" for address, problems in sorted(found.items())
                 for problem in problems]
        if lines:
            raise ExecutorError("the bots are not on every worker (files: shared needs the bot folders at the same "
                                "paths on every machine, or use files: bundle):\n  " + "\n  ".join(lines))

    def _ship_bundles(self) -> None:
        """Bundle mode: one content-hashed bundle per bot folder, sent to workers as they need it."""
        packed: dict[str, tuple[str, bytes]] = {}
        for bot in self.bots:
            if bot.cwd is None:
                continue
            folder = os.fspath(bot.cwd)
            outside = _outside_arguments(bot)
            if outside:
                raise ExecutorError(f"bot {bot.name!r}: files: bundle ships the bot's folder {folder}, but its "
                                    f"command names {outside[0]!r} outside it; set its 'cwd' to the folder that "
                                    "holds the bot and name the script from there")
            if folder not in packed:
                packed[folder] = pack_folder(Path(folder), self.skip)
        for folder, (digest, data) in packed.items():
            self._roots[folder] = digest
            if digest not in self._bundles:
                self._bundles[digest] = self._client.scatter(data, hash=False)

    # ------------------------------------------------------------ playing

    @property
    def at_once(self) -> int:
        """The cluster's match slots (never 0: with no worker for now, matches wait, see wait())."""
        if self._client is None:
            return self.workers * self.matches_per_worker if self.scheduler is None else 1
        now = time.monotonic()
        if now - self._slots_at > 1.0:
            self._slots_at, self._slots = now, self._free_slots()
        return max(1, self._slots)

    @property
    def capacity(self) -> int:
        """Twice the slots: each slot has its next match waiting on its worker, which starts it
        the moment the last one ends instead of waiting for a round trip to the coordinator.
        The ``match`` resource still lets a worker play no more than its slots at once."""
        return 2 * self.at_once

    def submit(self, spec: MatchSpec) -> None:
        self.start()
        if any(a.spec.match_id == spec.match_id for _, a in self._futures.values()):
            raise ValueError(f"match {spec.match_id!r} is already running")
        self._submit(_Attempt(spec))

    def _submit(self, attempt: _Attempt) -> None:
        spec = attempt.spec
        needed = {self._roots[os.fspath(s.cwd)] for s in spec.seats
                  if s.cwd is not None and os.fspath(s.cwd) in self._roots}
        key = f"spades-{spec.match_id}-{self.run_id[:8]}-{attempt.tries}"
        future = self._client.submit(_play, spec.to_dict(), self.run_id, self._roots,
                                     {d: self._bundles[d] for d in needed}, self.check,
                                     key=key, resources={"match": 1}, pure=False)
        self._futures[key] = (future, attempt)
        future.add_done_callback(self._done.put)

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        out: list[Outcome] = []
        try:
            first = self._done.get(timeout=timeout_s)
        except queue.Empty:
            return self._starved()
        for future in [first, *self._drain()]:
            outcome = self._settle(future)
            if outcome is not None:
                out.append(outcome)
        return out

    def _drain(self) -> list[Any]:
        more = []
        while True:
            try:
                more.append(self._done.get_nowait())
            except queue.Empty:
                return more

    def _settle(self, future: Any) -> Outcome | None:
        """What a finished task means; None when the match goes on (played again)."""
        entry = self._futures.pop(future.key, None)
        if entry is None:
            return None
        _, attempt = entry
        match_id = attempt.spec.match_id
        if future.status == "cancelled":
            if self._cancelling:
                return MatchCancelled(match_id)
            return MatchFailed(match_id, f"lost the Dask scheduler{' at ' + self.scheduler if self.scheduler else ''}"
                                         " while the match was playing; finished matches are saved: once the "
                                         "scheduler and its workers are back, run the same command to resume")
        try:
            result = future.result()
        except Exception as exc:  # the task itself failed: a worker that died again and again, a broken install
            name = type(exc).__name__
            if name == "KilledWorker":
                return MatchFailed(match_id, f"every worker that played this match died during it ({exc}); the "
                                             "match itself may kill its worker (memory?): see the workers' logs")
            return self._failed(attempt, "unknown worker", f"{name}: {exc}")
        finally:
            future.release()
        status = result["status"]
        if status == "done":
            return MatchDone(match_id, result["record"], result["logs"])
        if status == "cancelled":
            return MatchCancelled(match_id)
        if status == "cannot-start":
            return MatchFailed(match_id, result["error"])
        return self._failed(attempt, result["worker"], result["error"])

    def _failed(self, attempt: _Attempt, worker: str, error: str) -> Outcome | None:
        """A referee-side failure: play the match again, or report it once it failed too often."""
        attempt.failures.append(f"on worker {worker}: {error}")
        if len(attempt.failures) <= self.retries and not self._cancelling:
            attempt.tries += 1
            self._submit(attempt)
            return None
        return MatchFailed(attempt.spec.match_id, f"the referee failed {len(attempt.failures)} time(s) playing this "
                                                  "match (never a bot's fault): " + "; ".join(attempt.failures))

    def _starved(self) -> list[Outcome]:
        """Matches waiting while no worker offers a slot: fail them after a while, with the reason."""
        if not self._futures or self._free_slots() > 0:
            self._starved_since = None
            return []
        now = time.monotonic()
        if self._starved_since is None:
            self._starved_since = now
            return []
        if now - self._starved_since < self.no_worker_s:
            return []
        out: list[Outcome] = []
        for key, (future, attempt) in list(self._futures.items()):
            del self._futures[key]
            future.cancel()
            out.append(MatchFailed(attempt.spec.match_id, f"no Dask worker offered a match slot for "
                                                          f"{self.no_worker_s:.0f} s (every worker gone?); start "
                                                          "workers with --resources match=N, then run again"))
        return out

    # ------------------------------------------------------------ stopping

    def cancel(self) -> None:
        if self._client is None or not self._futures:
            return
        self._cancelling = True
        try:
            # Every worker ends the bots of this run's matches, and plays no
            # match of it that reaches it later.
            self._client.run(_cancel_run, self.run_id, wait=False)
            # Matches no worker has taken yet are dropped at the scheduler.
            taken = {key for keys in self._client.processing().values() for key in keys}
            for key, (future, _) in list(self._futures.items()):
                if key not in taken:
                    future.cancel()
        except Exception:  # the scheduler is gone: its futures come back as cancelled
            pass

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        if client is not None:
            try:
                if self._futures:
                    self._cancelling = True
                    client.run(_cancel_run, self.run_id, wait=False)
                    client.cancel([f for f, _ in self._futures.values()])
                client.close()
            except Exception:
                pass
        if cluster is not None:
            cluster.close()
