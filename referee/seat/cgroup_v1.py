"""cgroup v1 seats: a group per seat in the memory, pids, freezer and cpuacct controllers.

A bot's whole process tree lives in one group of its own in each controller.
The kernel then enforces the memory and process limits on the tree as a
whole (a fork bomb or a child that allocates counts like the bot itself),
the freezer stops every process of the seat at once for the fair clock (a
child that left the process group is still in the cgroup), and ending the
seat kills whatever is listed in it.

Only hierarchies the referee may write (root, or a delegated subtree) are
used; :func:`v1_roots` says why there are none otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.seat.cgroup_base import (GROUP, CgroupRoots, SeatCgroup, ensure_reaper, field, kill_until_empty, read,
                                      remove_dirs, seat_name, write)
from referee.seat.limits import Limit, SeatLimits

__all__ = ["V1Roots", "V1SeatCgroup", "v1_roots"]

CONTROLLERS = ("memory", "pids", "freezer", "cpuacct")
class V1Roots(CgroupRoots):
    """Writable cgroup v1 folders, one per controller, under which seats get groups."""

    version = 1

    def __init__(self, roots: dict[str, Path]) -> None:
        self.roots = roots

    @property
    def controllers(self) -> tuple[str, ...]:
        """The controllers in use, in :data:`CONTROLLERS` order."""
        return tuple(c for c in CONTROLLERS if c in self.roots)

    def folders(self) -> list[Path]:
        """One folder per controller."""
        return list(self.roots.values())

    def not_enforced(self) -> tuple[Limit, ...]:
        """Memory or processes, when that controller is missing."""
        return tuple(limit for limit, c in ((Limit.MEMORY, "memory"), (Limit.PROCESSES, "pids"))
                     if c not in self.roots)

    def new_seat(self, limits: SeatLimits) -> V1SeatCgroup:
        """A group in every controller, with the limits set."""
        return V1SeatCgroup(self, limits)


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


def v1_roots() -> tuple[V1Roots | None, str | None]:
    """The writable per-controller folders, or None and the reason there are none."""
    mounts = _mounts()
    if not mounts:
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
        root = base / GROUP
        try:
            root.mkdir(exist_ok=True)
        except OSError as exc:
            missing.append(f"{controller} ({exc.strerror.lower() if exc.strerror else exc})")
            continue
        roots[controller] = root
    if not roots:
        return None, "no writable cgroup: " + ", ".join(missing)
    if missing:
        return V1Roots(roots), "cgroup controllers not available: " + ", ".join(missing)
    return V1Roots(roots), None


class V1SeatCgroup(SeatCgroup):
    """The cgroups of one seat, one per controller: created with its limits, joined by its first process."""

    def __init__(self, roots: V1Roots, limits: SeatLimits) -> None:
        """Create the groups and set the limits; ``OSError`` if the kernel refuses."""
        ensure_reaper(roots)
        name = seat_name()
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
                write(mem / "memory.limit_in_bytes", nbytes)
                if (mem / "memory.memsw.limit_in_bytes").exists():
                    # Swap counts too, or a bot could spill past its limit into swap.
                    write(mem / "memory.memsw.limit_in_bytes", nbytes)
            pids = self.dirs.get("pids")
            if pids is not None:
                write(pids / "pids.max", str(limits.processes))
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

    def procs_files(self) -> tuple[Path, ...]:
        return tuple(d / "cgroup.procs" for d in self.dirs.values())

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
            control = read(mem / "memory.oom_control")
            if "oom_kill " in control:
                if field(control, "oom_kill") > 0:
                    return Limit.MEMORY
            elif read(mem / "memory.failcnt").strip() not in ("", "0"):
                return Limit.MEMORY  # an old kernel without the OOM kill count
        pids = self.dirs.get("pids")
        if pids is not None and field(read(pids / "pids.events"), "max") > 0:
            return Limit.PROCESSES
        return None

    def pids(self) -> list[int]:
        """Every process in the seat's group."""
        d = self.dirs.get("pids") or self.dirs.get("freezer") or self.dirs.get("memory")
        if d is None:
            return []
        return [int(p) for p in read(d / "cgroup.procs").split()]

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
        kill_until_empty(self.pids)

    def remove(self) -> None:
        """Delete the groups (after :meth:`kill`); a group still busy is retried briefly."""
        for fd in (self._freezer_fd, self._cpu_fd):
            if fd >= 0:
                os.close(fd)
        self._freezer_fd = self._cpu_fd = -1
        remove_dirs(list(self.dirs.values()))
        self.dirs.clear()
