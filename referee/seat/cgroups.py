"""A control group per seat: memory and process limits, the freezer, and a sure kill.

A bot's whole process tree lives in one cgroup of its own in the ``memory``,
``pids``, ``freezer`` and ``cpuacct`` controllers. The kernel then enforces the memory
and process limits on the tree as a whole (a fork bomb or a child that
allocates counts like the bot itself), the freezer stops every process of
the seat at once for the fair clock (a child that left the process group is
still in the cgroup), and ending the seat kills whatever is listed in it.

Only cgroup v1 hierarchies the referee may write (root, or a delegated
subtree) are used. On cgroup v2, or without write access, :func:`cgroup_roots`
says why there are none, and the sandbox records that these limits and the
freezer were not in force (see :mod:`referee.seat.sandbox`).
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from referee.seat.limits import Limit, SeatLimits

__all__ = ["CgroupRoots", "SeatCgroup", "cgroup_roots"]

CONTROLLERS = ("memory", "pids", "freezer", "cpuacct")
_GROUP = "spades-referee"
_counter = itertools.count(1)
_counter_lock = threading.Lock()
_REMOVE_S = 2.0

# The reaper: a tiny shell that outlives this process. When the referee dies
# without ending its seats (SIGKILL, a crash), a frozen seat could not even
# die (a frozen task holds its SIGKILL), so the reaper, seeing end-of-file on
# its stdin, thaws and kills every seat group of this referee and removes it.
_REAPER = r"""
trap '' INT TERM HUP QUIT
read _ignored
pid=$1; shift
for root in "$@"; do
  for g in "$root"/seat-$pid-*; do
    [ -d "$g" ] || continue
    [ -f "$g/freezer.state" ] && echo THAWED > "$g/freezer.state"
    for p in $(cat "$g/cgroup.procs"); do kill -9 "$p" 2>/dev/null; done
  done
done
sleep 1
for root in "$@"; do rmdir "$root"/seat-$pid-* 2>/dev/null; done
exit 0
"""
_reaper: subprocess.Popen[bytes] | None = None
_reaper_pid = -1  # the referee process the reaper watches (a forked worker needs its own)


def _ensure_reaper(roots: CgroupRoots) -> None:
    """Start this process's reaper once (see ``_REAPER``)."""
    global _reaper, _reaper_pid
    with _counter_lock:
        if _reaper is not None and _reaper_pid == os.getpid() and _reaper.poll() is None:
            return
        _reaper = subprocess.Popen(
            ["/bin/sh", "-c", _REAPER, "spades-reaper", str(os.getpid()), *map(str, roots.roots.values())],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
            start_new_session=True, env={"PATH": "/usr/bin:/bin"})
        _reaper_pid = os.getpid()


class CgroupRoots:
    """Writable cgroup v1 folders, one per controller, under which seats get groups."""

    def __init__(self, roots: dict[str, Path]) -> None:
        self.roots = roots

    @property
    def controllers(self) -> tuple[str, ...]:
        """The controllers in use, in :data:`CONTROLLERS` order."""
        return tuple(c for c in CONTROLLERS if c in self.roots)


def _own_paths() -> dict[str, str]:
    """Controller -> this process's cgroup path, from ``/proc/self/cgroup`` (v1 lines)."""
    out: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1]:
            for controller in parts[1].split(","):
                out[controller] = parts[2]
    return out


def _mounts() -> dict[str, Path]:
    """Controller -> mount point of its v1 hierarchy, from ``/proc/self/mountinfo``."""
    out: dict[str, Path] = {}
    try:
        text = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        pre, _, post = line.partition(" - ")
        fields = post.split()
        if len(fields) >= 3 and fields[0] == "cgroup":
            for opt in fields[2].split(","):
                if opt in CONTROLLERS:
                    out[opt] = Path(pre.split()[4])
    return out


def cgroup_roots() -> tuple[CgroupRoots | None, str | None]:
    """The writable per-controller folders, or None and the reason there are none."""
    mounts = _mounts()
    if not mounts:
        if Path("/sys/fs/cgroup/cgroup.controllers").exists():
            return None, ("cgroup v2 only: the referee uses cgroup v1 controllers (memory, pids, freezer), "
                          "so memory and process limits and the freezer are not in force")
        return None, "no cgroup v1 controllers are mounted"
    own = _own_paths()
    roots: dict[str, Path] = {}
    missing = []
    for controller in CONTROLLERS:
        mount = mounts.get(controller)
        if mount is None:
            missing.append(f"{controller} (not mounted)")
            continue
        base = mount / own.get(controller, "/").lstrip("/")
        root = base / _GROUP
        try:
            root.mkdir(exist_ok=True)
        except OSError as exc:
            missing.append(f"{controller} ({exc.strerror.lower() if exc.strerror else exc})")
            continue
        roots[controller] = root
    if not roots:
        return None, "no writable cgroup: " + ", ".join(missing)
    if missing:
        return CgroupRoots(roots), "cgroup controllers not available: " + ", ".join(missing)
    return CgroupRoots(roots), None


def _write(path: Path, value: str) -> None:
    with open(path, "w") as fh:
        fh.write(value)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _field(text: str, key: str) -> int:
    """The number after ``key`` in a ``key value`` per line file (0 if absent)."""
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            try:
                return int(parts[1])
            except ValueError:
                return 0
    return 0


class SeatCgroup:
    """The cgroups of one seat: created with its limits, joined by its first process."""

    def __init__(self, roots: CgroupRoots, limits: SeatLimits) -> None:
        """Create the groups and set the limits; ``OSError`` if the kernel refuses."""
        _ensure_reaper(roots)
        with _counter_lock:
            n = next(_counter)
        name = f"seat-{os.getpid()}-{n}"
        self.dirs: dict[str, Path] = {}
        self.limits = limits
        self._freezer_fd = -1
        self._cpu_fd = -1
        self.frozen = False
        try:
            for controller, root in roots.roots.items():
                d = root / name
                d.mkdir()
                self.dirs[controller] = d
            mem = self.dirs.get("memory")
            if mem is not None:
                nbytes = str(limits.memory_mb << 20)
                _write(mem / "memory.limit_in_bytes", nbytes)
                if (mem / "memory.memsw.limit_in_bytes").exists():
                    # Swap counts too, or a bot could spill past its limit into swap.
                    _write(mem / "memory.memsw.limit_in_bytes", nbytes)
            pids = self.dirs.get("pids")
            if pids is not None:
                _write(pids / "pids.max", str(limits.processes))
            freezer = self.dirs.get("freezer")
            if freezer is not None:
                # Kept open: freezing and thawing happen at every decision.
                self._freezer_fd = os.open(freezer / "freezer.state", os.O_WRONLY)
            cpu = self.dirs.get("cpuacct")
            if cpu is not None:
                self._cpu_fd = os.open(cpu / "cpuacct.usage", os.O_RDONLY)
        except OSError:
            self.remove()
            raise

    @property
    def controllers(self) -> tuple[str, ...]:
        """The controllers this seat is in."""
        return tuple(self.dirs)

    @property
    def can_freeze(self) -> bool:
        """Whether the freezer controller is in use."""
        return self._freezer_fd >= 0

    @property
    def can_count_cpu(self) -> bool:
        """Whether the cpuacct controller is in use."""
        return self._cpu_fd >= 0

    def cpu_seconds(self) -> float:
        """CPU time used by every process that was ever in the group, in seconds."""
        return int(os.pread(self._cpu_fd, 32, 0)) / 1e9

    def add(self, pid: int) -> None:
        """Move process ``pid`` (and the children it forks from now on) into the seat's groups."""
        for d in self.dirs.values():
            _write(d / "cgroup.procs", str(pid))

    def freeze(self) -> None:
        """Stop every process of the seat (they keep their state; nothing is charged)."""
        if self._freezer_fd >= 0 and not self.frozen:
            os.pwrite(self._freezer_fd, b"FROZEN", 0)
            self.frozen = True

    def thaw(self) -> None:
        """Let the seat's processes run again."""
        if self._freezer_fd >= 0 and self.frozen:
            os.pwrite(self._freezer_fd, b"THAWED", 0)
            self.frozen = False

    def limit_hit(self) -> Limit | None:
        """The cgroup limit the seat ran into, if any (memory: an OOM kill; processes: a refused fork)."""
        mem = self.dirs.get("memory")
        if mem is not None:
            control = _read(mem / "memory.oom_control")
            if "oom_kill " in control:
                if _field(control, "oom_kill") > 0:
                    return Limit.MEMORY
            elif _read(mem / "memory.failcnt").strip() not in ("", "0"):
                return Limit.MEMORY  # an old kernel without the OOM kill count
        pids = self.dirs.get("pids")
        if pids is not None and _field(_read(pids / "pids.events"), "max") > 0:
            return Limit.PROCESSES
        return None

    def pids(self) -> list[int]:
        """Every process in the seat's group."""
        d = self.dirs.get("pids") or self.dirs.get("freezer") or self.dirs.get("memory")
        if d is None:
            return []
        return [int(p) for p in _read(d / "cgroup.procs").split()]

    def kill(self) -> None:
        """SIGKILL every process in the group until it is empty (thawing it first)."""
        if not self.dirs:
            return
        if self._freezer_fd >= 0:
            # A frozen task cannot die; thaw unconditionally (the state may be stale).
            try:
                os.pwrite(self._freezer_fd, b"THAWED", 0)
            except OSError:
                pass
            self.frozen = False
        deadline = time.monotonic() + _REMOVE_S
        while True:
            left = self.pids()
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

    def remove(self) -> None:
        """Delete the groups (after :meth:`kill`); a group still busy is retried briefly."""
        for fd in (self._freezer_fd, self._cpu_fd):
            if fd >= 0:
                os.close(fd)
        self._freezer_fd = self._cpu_fd = -1
        deadline = time.monotonic() + _REMOVE_S
        for d in list(self.dirs.values()):
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
        self.dirs.clear()
