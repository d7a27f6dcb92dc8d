"""cgroup v2 seats: one group per seat in the unified hierarchy.

The core files every v2 group has, with no controller enabled, give the
fair clock and the sure kill:

* ``cgroup.freeze`` (write 1 or 0; ``cgroup.events`` says ``frozen 1``
  once every process stopped, which the referee does not wait for): the freezer;
* ``cgroup.kill`` (kernel 5.14+): SIGKILL to the whole group at once, frozen
  processes included;
* ``cpu.stat`` ``usage_usec``: the CPU time of the group (the CPU clock).

Memory and process limits need the ``memory`` and ``pids`` controllers: when
the referee's own group lists them in ``cgroup.controllers`` and they can be
enabled down to the seats (``cgroup.subtree_control``), each seat gets
``memory.max`` (and ``memory.swap.max`` 0), ``pids.max``, and its limit
faults are read from ``memory.events`` (``oom_kill``) and ``pids.events``
(``max``). Otherwise these limits are not in force, and the record says so.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.seat.cgroup_base import (GROUP, CgroupRoots, SeatCgroup, ensure_reaper, field, kill_until_empty, read,
                                      remove_dirs, seat_name, write)
from referee.seat.limits import Limit, SeatLimits

__all__ = ["V2Roots", "V2SeatCgroup", "v2_roots"]

#: The v2 controllers used for limits, and the limit each enforces.
LIMIT_CONTROLLERS = (("memory", Limit.MEMORY), ("pids", Limit.PROCESSES))


def _mount() -> Path | None:
    """The mount point of the cgroup2 hierarchy, from ``/proc/self/mountinfo``."""
    try:
        text = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        pre, _, post = line.partition(" - ")
        if post.split()[:1] == ["cgroup2"]:
            return Path(pre.split()[4])
    return None


def _own_path() -> str:
    """This process's v2 group (the ``0::`` line of ``/proc/self/cgroup``)."""
    for line in read(Path("/proc/self/cgroup")).splitlines():
        if line.startswith("0::"):
            return line[3:]
    return "/"


class V2Roots(CgroupRoots):
    """The writable v2 folder under which seats get groups, and the limit controllers enabled there."""

    version = 2

    def __init__(self, root: Path, limit_controllers: tuple[str, ...]) -> None:
        self.root = root
        self.limit_controllers = limit_controllers

    @property
    def controllers(self) -> tuple[str, ...]:
        """``freeze``, ``kill`` (when the kernel has ``cgroup.kill``), ``cpu``, then ``memory``/``pids``."""
        core = ("freeze", "kill", "cpu") if self.has_kill else ("freeze", "cpu")
        return core + self.limit_controllers

    @property
    def has_kill(self) -> bool:
        """Whether groups have ``cgroup.kill`` (kernel 5.14+); seen on the root's own folder."""
        return (self.root / "cgroup.kill").exists()

    def folders(self) -> list[Path]:
        """The one folder of the seat groups."""
        return [self.root]

    def not_enforced(self) -> tuple[Limit, ...]:
        """Memory and processes, unless their controllers are enabled for the seats."""
        return tuple(limit for c, limit in LIMIT_CONTROLLERS if c not in self.limit_controllers)

    def new_seat(self, limits: SeatLimits) -> V2SeatCgroup:
        """A group with the limits its controllers allow."""
        return V2SeatCgroup(self, limits)


def v2_roots() -> tuple[V2Roots | None, str | None]:
    """The writable v2 folder, or None and the reason there is none; the second value also says
    what is missing (the limit controllers) when there is one."""
    mount = _mount()
    if mount is None:
        return None, "no cgroup v2 hierarchy is mounted"
    base = mount / _own_path().lstrip("/")
    root = base / GROUP
    try:
        root.mkdir(exist_ok=True)
        probe = root / f"probe-{os.getpid()}"
        probe.mkdir(exist_ok=True)
        has_freeze = (probe / "cgroup.freeze").exists()
        probe.rmdir()
    except OSError as exc:
        return None, f"cgroup v2 at {mount} is not writable ({exc.strerror.lower() if exc.strerror else exc})"
    if not has_freeze:
        return None, f"cgroup v2 at {mount} has no cgroup.freeze (kernel older than 5.2)"
    available = read(base / "cgroup.controllers").split()
    enabled: list[str] = []
    missing: list[str] = []
    for controller, limit in LIMIT_CONTROLLERS:
        if controller not in available:
            missing.append(f"{limit.value} ({controller} controller not available in {base})")
            continue
        try:
            # The referee's group passes it on to its own folder, which passes it to the seats.
            if controller not in read(base / "cgroup.subtree_control").split():
                write(base / "cgroup.subtree_control", f"+{controller}")
            write(root / "cgroup.subtree_control", f"+{controller}")
        except OSError as exc:
            missing.append(f"{limit.value} (cannot enable the {controller} controller: "
                           f"{exc.strerror.lower() if exc.strerror else exc})")
            continue
        enabled.append(controller)
    roots = V2Roots(root, tuple(enabled))
    if missing:
        return roots, (f"cgroup v2 ({mount}): limits not enforced: " + ", ".join(missing)
                       + "; the freezer, the sure kill and the CPU clock are in force")
    return roots, None


class V2SeatCgroup(SeatCgroup):
    """The v2 group of one seat: created with its limits, joined by its first process."""

    def __init__(self, roots: V2Roots, limits: SeatLimits) -> None:
        """Create the group and set the limits; ``OSError`` if the kernel refuses."""
        ensure_reaper(roots)
        self.dir = roots.root / seat_name()
        self.limits = limits
        self.frozen = False
        self._limit_controllers = roots.limit_controllers
        self._controllers = roots.controllers
        self._has_kill = roots.has_kill
        self._freeze_fd = self._cpu_fd = -1
        self.dir.mkdir()
        try:
            if "memory" in self._limit_controllers:
                write(self.dir / "memory.max", str(limits.memory_mb << 20))
                if (self.dir / "memory.swap.max").exists():
                    # v2 counts swap apart: none at all, or a bot could spill past its limit into swap.
                    write(self.dir / "memory.swap.max", "0")
            if "pids" in self._limit_controllers:
                write(self.dir / "pids.max", str(limits.processes))
            # Kept open: freezing, thawing and the CPU clock happen at every decision.
            self._freeze_fd = os.open(self.dir / "cgroup.freeze", os.O_WRONLY)
            self._cpu_fd = os.open(self.dir / "cpu.stat", os.O_RDONLY)
        except OSError:
            self.remove()
            raise

    @property
    def controllers(self) -> tuple[str, ...]:
        """See :attr:`V2Roots.controllers`."""
        return self._controllers

    @property
    def can_freeze(self) -> bool:
        """Always (``cgroup.freeze`` is a core file)."""
        return self._freeze_fd >= 0

    @property
    def can_count_cpu(self) -> bool:
        """Always (``cpu.stat`` is a core file)."""
        return self._cpu_fd >= 0

    def cpu_seconds(self) -> float:
        """``usage_usec`` of ``cpu.stat``, in seconds."""
        return field(os.pread(self._cpu_fd, 512, 0).decode(), "usage_usec") / 1e6

    def procs_files(self) -> tuple[Path, ...]:
        return (self.dir / "cgroup.procs",)

    def _set_frozen(self, value: bool) -> None:
        """Write ``cgroup.freeze``. Not waiting for ``cgroup.events`` to say ``frozen``: each
        task stops when it next runs, which on a loaded machine is milliseconds later, and
        waiting for that at every decision tripled the referee's CPU and wall time per
        decision (bench/sandbox.py); the v1 freezer does not wait either."""
        os.pwrite(self._freeze_fd, b"1" if value else b"0", 0)
        self.frozen = value

    def freeze(self) -> None:
        """Freeze the group (every process in it stops as soon as it runs)."""
        if self._freeze_fd >= 0 and not self.frozen:
            self._set_frozen(True)

    def thaw(self) -> None:
        """Thaw the group."""
        if self._freeze_fd >= 0 and self.frozen:
            self._set_frozen(False)

    def limit_hit(self) -> Limit | None:
        """An OOM kill (``memory.events``) or a refused fork (``pids.events``), where those controllers are on."""
        if "memory" in self._limit_controllers and field(read(self.dir / "memory.events"), "oom_kill") > 0:
            return Limit.MEMORY
        if "pids" in self._limit_controllers and field(read(self.dir / "pids.events"), "max") > 0:
            return Limit.PROCESSES
        return None

    def pids(self) -> list[int]:
        """Every process in the group."""
        return [int(p) for p in read(self.dir / "cgroup.procs").split()]

    def kill(self) -> None:
        """``cgroup.kill`` (frozen processes die too), then SIGKILL whatever is still listed."""
        if self._freeze_fd < 0 and not self.dir.exists():
            return
        if self._has_kill:
            try:
                write(self.dir / "cgroup.kill", "1")
            except OSError:
                pass
        if self.frozen:
            try:
                self._set_frozen(False)  # without cgroup.kill, a SIGKILL still needs the task to run
            except OSError:
                pass
        kill_until_empty(self.pids)

    def remove(self) -> None:
        """Close the control files and delete the group."""
        for fd in (self._freeze_fd, self._cpu_fd):
            if fd >= 0:
                os.close(fd)
        self._freeze_fd = self._cpu_fd = -1
        remove_dirs([self.dir])
