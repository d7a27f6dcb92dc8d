"""What a seat's control group offers, whichever cgroup version gives it; and the reaper.

:class:`CgroupRoots` is the folder (v2) or folders (v1, one per controller)
under which this referee makes a group per seat; :class:`SeatCgroup` is one
seat's group. The sandbox (:mod:`referee.seat.sandbox`) uses only this
interface; :mod:`referee.seat.cgroup_v1` and :mod:`referee.seat.cgroup_v2`
implement it, and :func:`referee.seat.cgroups.cgroup_roots` picks one.
"""

from __future__ import annotations

import abc
import itertools
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, Iterable

from referee.seat.limits import Limit, SeatLimits

__all__ = ["CgroupRoots", "SeatCgroup", "GROUP", "seat_name", "write", "read", "field", "ensure_reaper",
           "kill_until_empty", "remove_dirs"]

#: The folder of this program's groups under the referee's own cgroup.
GROUP = "spades-referee"
_counter = itertools.count(1)
_counter_lock = threading.Lock()

# The reaper: a tiny shell that outlives this process. When the referee dies
# without ending its seats (SIGKILL, a crash), a frozen seat could not even
# die under v1 (a frozen task holds its SIGKILL), so the reaper, seeing
# end-of-file on its stdin, thaws and kills every seat group of this referee
# (``cgroup.kill`` where the kernel has it, v2) and removes it.
_REAPER = r"""
trap '' INT TERM HUP QUIT
read _ignored
pid=$1; shift
for root in "$@"; do
  for g in "$root"/seat-$pid-*; do
    [ -d "$g" ] || continue
    [ -f "$g/freezer.state" ] && echo THAWED > "$g/freezer.state"
    [ -f "$g/cgroup.freeze" ] && echo 0 > "$g/cgroup.freeze"
    [ -f "$g/cgroup.kill" ] && echo 1 > "$g/cgroup.kill"
  done
done
# Several rounds: under v1 a process that was forking when it was listed has a
# child the first round did not see.
for round in 1 2 3 4 5; do
  for root in "$@"; do
    for g in "$root"/seat-$pid-*; do
      [ -f "$g/cgroup.procs" ] || continue
      for p in $(cat "$g/cgroup.procs"); do kill -9 "$p" 2>/dev/null; done
    done
  done
  sleep 0.2
done
for root in "$@"; do rmdir "$root"/seat-$pid-* 2>/dev/null; done
exit 0
"""
# One reaper per referee process (a forked worker needs its own) and set of folders
# (a process may use both backends, as the tests do).
_reapers: dict[tuple[int, tuple[str, ...]], subprocess.Popen[bytes]] = {}


def ensure_reaper(roots: CgroupRoots) -> None:
    """Start this process's reaper for ``roots`` once (see ``_REAPER``)."""
    key = (os.getpid(), tuple(map(str, roots.folders())))
    with _counter_lock:
        reaper = _reapers.get(key)
        if reaper is not None and reaper.poll() is None:
            return
        _reapers[key] = subprocess.Popen(
            ["/bin/sh", "-c", _REAPER, "spades-reaper", str(key[0]), *key[1]],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
            start_new_session=True, env={"PATH": "/usr/bin:/bin"})


def seat_name() -> str:
    """A fresh group name for one seat of this process (the reaper finds it by the pid)."""
    with _counter_lock:
        n = next(_counter)
    return f"seat-{os.getpid()}-{n}"


def write(path: Path, value: str) -> None:
    """Write one control file."""
    with open(path, "w") as fh:
        fh.write(value)


def read(path: Path) -> str:
    """A control file's text, or "" when it cannot be read (a missing file says nothing)."""
    try:
        return path.read_text()
    except OSError:
        return ""


def field(text: str, key: str) -> int:
    """The number after ``key`` in a ``key value`` per line file (0 if absent)."""
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            try:
                return int(parts[1])
            except ValueError:
                return 0
    return 0


class CgroupRoots(abc.ABC):
    """Where this referee makes its seats' groups, in one cgroup version."""

    #: 1 or 2.
    version: int

    @property
    @abc.abstractmethod
    def controllers(self) -> tuple[str, ...]:
        """What each seat's group gives, by the names the record uses."""

    @abc.abstractmethod
    def folders(self) -> list[Path]:
        """The folders holding the seat groups (the reaper walks them)."""

    @abc.abstractmethod
    def not_enforced(self) -> tuple[Limit, ...]:
        """The cgroup limits (memory, processes) this hierarchy cannot enforce."""

    @abc.abstractmethod
    def new_seat(self, limits: SeatLimits) -> SeatCgroup:
        """Create one seat's group with its limits; ``OSError`` if the kernel refuses."""


class SeatCgroup(abc.ABC):
    """The cgroup(s) of one seat: created with its limits, joined by its first process."""

    frozen: bool

    @property
    @abc.abstractmethod
    def controllers(self) -> tuple[str, ...]:
        """What this seat's group gives (see :attr:`CgroupRoots.controllers`)."""

    @property
    @abc.abstractmethod
    def can_freeze(self) -> bool:
        """Whether the seat can be frozen."""

    @property
    @abc.abstractmethod
    def can_count_cpu(self) -> bool:
        """Whether the seat's CPU time can be read."""

    @abc.abstractmethod
    def cpu_seconds(self) -> float:
        """CPU time used by every process that was ever in the group, in seconds."""

    @abc.abstractmethod
    def procs_files(self) -> tuple[Path, ...]:
        """The ``cgroup.procs`` file of each of the seat's groups: a process that writes
        its pid into all of them has joined the seat."""

    def add(self, pid: int) -> None:
        """Move process ``pid`` (and the children it forks from now on) into the seat's group."""
        for path in self.procs_files():
            write(path, str(pid))

    @abc.abstractmethod
    def freeze(self) -> None:
        """Stop every process of the seat (they keep their state; nothing is charged)."""

    @abc.abstractmethod
    def thaw(self) -> None:
        """Let the seat's processes run again."""

    @abc.abstractmethod
    def limit_hit(self) -> Limit | None:
        """The cgroup limit the seat ran into, if any (memory: an OOM kill; processes: a refused fork)."""

    @abc.abstractmethod
    def pids(self) -> list[int]:
        """Every process in the seat's group."""

    @abc.abstractmethod
    def kill(self) -> None:
        """SIGKILL every process in the group until it is empty (thawing it first where needed)."""

    @abc.abstractmethod
    def remove(self) -> None:
        """Delete the group(s) (after :meth:`kill`); a group still busy is retried briefly."""


_REMOVE_S = 2.0


def kill_until_empty(listed: Callable[[], list[int]]) -> None:
    """SIGKILL every pid ``listed()`` gives until it gives none (for at most two seconds)."""
    deadline = time.monotonic() + _REMOVE_S
    while True:
        left = listed()
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if time.monotonic() > deadline:
            return
        time.sleep(0.001)


def remove_dirs(dirs: Iterable[Path]) -> None:
    """rmdir each group folder, retrying briefly while one is still busy."""
    deadline = time.monotonic() + _REMOVE_S
    for d in dirs:
        while True:
            try:
                d.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    break  # a zombie not yet reaped; the empty group is harmless
                time.sleep(0.001)
