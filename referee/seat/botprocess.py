"""One bot child process: start it, frame its lines, time its answers, end it.

:class:`BotProcess` is the only place in the referee that touches a bot's
operating-system resources (process, process group, pipes, stderr log).
Everything above it speaks in lines of text and :class:`BotFault` exceptions.

Design points, and why:

* **No shell, own process group.** The command is an argv list (a string is
  split with :func:`shlex.split`, never given to ``/bin/sh``), and the bot
  leads a new process group so the referee can signal the bot and every
  helper process it spawned in one call, and so a Ctrl-C at the terminal
  (which goes to the foreground group only) does not reach bots behind the
  referee's back. A bot that uses the terminal itself gets a new session
  instead (``new_session``; the human adapter).
* **Deadline on the read itself.** :meth:`BotProcess.request` writes the
  request with one ``os.write`` and then runs a ``poll``/``os.read`` loop on
  the raw stdout descriptor until a full line arrives or the deadline passes.
  There is no reader thread on the request path: handing each line across
  threads costs more than the whole rest of a decision.
* **Death is an event, not a timeout.** A ``pidfd`` (Linux >= 5.3) is
  registered in the same poller as stdout, so a bot that dies is noticed at
  once even when a forked child still holds its stdout open (stdout then never
  reaches end-of-file). Without pidfd support the loop polls the exit status
  every 10 ms instead.
* **stderr never blocks the bot.** A daemon thread drains stderr continuously
  into a capped log file; past the cap it keeps reading and discarding, so a
  bot that floods stderr cannot wedge itself on a full pipe.
* **Sandboxed by default** (``sandbox``, :mod:`referee.seat.sandbox`): the
  command runs inside bubblewrap, its cgroup, limits and its own uid; the seat
  is frozen between its requests (the fair clock), and a crash or timeout
  caused by a limit becomes a ``limit`` fault naming it.
* **Nothing survives close().** :meth:`BotProcess.close` escalates from EOF
  on stdin to SIGTERM to SIGKILL on the whole process group, also kills
  descendants that moved to another group (found through
  ``/proc/<pid>/task/*/children`` before anything is killed), and as a last
  resort kills any process still holding the bot's end of one of its pipes.
"""

from __future__ import annotations

import errno
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any, Mapping, Sequence

from referee.seat.faults import BotFault, FaultKind
from referee.seat.sandbox import Confinement, SandboxSpec
from referee.seat.transcript import LineRecorder
from referee.seat.transport import Meanwhile, Transport

__all__ = ["BotProcess", "SEND_TIMEOUT_S", "says_exited"]

#: How long :meth:`BotProcess.send` waits for a bot whose input pipe is full
#: (it stopped reading stdin) before faulting it with ``timeout``.
SEND_TIMEOUT_S = 10.0

_READ_CHUNK = 1 << 16
# Exit-status polling period when pidfd_open is unavailable.
_DEATH_POLL_S = 0.010
# After EOF on stdout, how long to wait for the exit status so the fault can
# say "exited with code N" rather than just "closed its stdout".
_EXIT_AFTER_EOF_S = 0.100
# After SIGKILL, how long to wait for the kernel to reap the leader.
_REAP_TIMEOUT_S = 5.0
# How long the pipes may stay held after the group is killed before the
# /proc scan for escaped holders runs.
_PIPE_RELEASE_S = 0.050
_STDERR_JOIN_S = 1.0
_STDERR_POLL_MS = 100
_STDERR_TAIL = 4096  # bytes of stderr kept to judge a crash (a limit named in the last words)
_STDERR_TAIL_WAIT_S = 0.2  # how long a crashed bot's last stderr bytes are waited for
_POLLIN = select.POLLIN
# Writes of at most this many bytes to a pipe are atomic: all or nothing.
_PIPE_BUF = select.PIPE_BUF
_QUOTE_CHARS = 80
# The answer wait is cut into slices of at most this long; a slice that
# returns more than _PAUSE_SLACK_S late means the referee itself was stopped
# (SIGSTOP, a suspended laptop) or starved: that time is not the bot's.
_SLICE_S = 0.050
_PAUSE_SLACK_S = 0.200


def _cpu_backstop(timeout_s: float) -> float:
    """The wall-clock limit of a request under the CPU clock: a bot that waits instead of
    computing (sleeps, blocks) is still timed out. Generous, because the CPU clock is
    for loaded machines, where a bot may wait long for a core."""
    return 10 * timeout_s + 5.0


_STATUS_WORDS = re.compile(r"\b(?:exited with code -?\d+|killed by signal \d+)\b")


def says_exited(detail: str) -> bool:
    """Whether a fault's detail (written by this module) says the bot's process had ended."""
    return _STATUS_WORDS.search(detail) is not None


def _describe_status(returncode: int) -> str:
    """``exited with code 3`` / ``killed by signal 9 (SIGKILL)``."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    signum = -returncode
    try:
        return f"killed by signal {signum} ({signal.Signals(signum).name})"
    except ValueError:
        return f"killed by signal {signum}"


def _quote(data: bytes | bytearray, limit: int = _QUOTE_CHARS) -> str:
    """First ``limit`` characters of bot output, as a Python-quoted string."""
    text = bytes(data[: limit * 4]).decode("utf-8", errors="replace")
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


class BotProcess(Transport):
    """A bot child process speaking one line of text per message.

    Typical use::

        with BotProcess("python3 mybot.py", name="alpha", stderr_path=log) as bot:
            bot.start()
            answer, elapsed = bot.request('{"type":"hello","id":0,...}', 2.0)
            bot.send('{"type":"hand_start",...}')
            bot.check_unexpected()

    Every method that talks to the bot raises :class:`BotFault` when the bot
    misbehaves. After any fault the bot must be closed: its stream position
    is no longer trustworthy. Methods are not thread-safe; one match thread
    owns a bot.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        stderr_path: Path | None = None,
        stderr_cap: int = 1 << 20,
        max_line: int = 65536,
        transcript: LineRecorder | None = None,
        new_session: bool = False,
        sandbox: SandboxSpec | None = None,
    ) -> None:
        """Describe the bot; nothing is started until :meth:`start`.

        ``command`` is an argv list, or a string split like a shell would
        (quotes honoured) but never run by a shell. ``env`` entries are added
        to the referee's own environment. ``transcript(direction, line, t)``
        sees every line sent (``"out"``) and received (``"in"``) with its
        wall-clock time.

        The bot always leads a process group of its own, so that
        :meth:`close` can signal it and its helpers at once. ``new_session``
        also puts it in a session of its own, detached from the referee's
        terminal: needed for a program that uses the terminal itself (the
        human adapter), which as a background group of the referee's session
        would be stopped (``SIGTTIN``) when reading it. Other bots stay in the
        referee's session, because with scheduler autogroups
        (``kernel.sched_autogroup_enabled``) every session is scheduled as a
        unit: four bots in four sessions each get a share equal to the
        referee's, and the referee, which every message passes through,
        is pre-empted by each bot it wakes.

        ``sandbox`` confines the bot (:mod:`referee.seat.sandbox`): its
        namespaces, filesystem, cgroup, limits and the fair clock (frozen
        between its requests). None runs it as a plain child process.
        """
        if isinstance(command, str):
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise ValueError(f"cannot parse bot command {command!r}: {exc}") from None
        else:
            argv = [os.fspath(a) for a in command]
        if stderr_cap < 0:
            raise ValueError(f"stderr_cap must be >= 0, got: {stderr_cap!r}")
        if max_line < 1:
            raise ValueError(f"max_line must be >= 1, got: {max_line!r}")
        self._argv: tuple[str, ...] = tuple(argv)
        self._name = name
        self._cwd = cwd
        self._env = dict(env) if env else None
        self._stderr_path = Path(stderr_path) if stderr_path is not None else None
        self._stderr_cap = stderr_cap
        self._max_line = max_line
        self._transcript = transcript
        self._new_session = new_session
        self._conf = Confinement(sandbox) if sandbox is not None else None
        self._paused_s = 0.0  # referee pauses seen during the current request
        self._cpu_limit: float | None = None  # under the CPU clock: the seat's CPU seconds allowed

        self._proc: subprocess.Popen[bytes] | None = None
        self._returncode: int | None = None
        self._exited = False  # the leader is known to have exited (maybe unreaped)
        self._eof = False  # stdout reached end-of-file
        self._closed = False
        self._buf = bytearray()
        self._stdin_fd = -1
        self._stdout_fd = -1
        self._pidfd: int | None = None
        self._poller = select.poll()  # stdout + pidfd: the request loop
        self._out_poller = select.poll()  # stdout alone: non-blocking checks
        self._pipe_inodes: dict[str, int] = {}
        self._stderr_thread: threading.Thread | None = None
        self._stderr_stop = threading.Event()
        self._stderr_tail = bytearray()  # the last bytes of stderr (written by the drain thread)
        self.spawn_s: float = 0.0
        """Seconds :meth:`start` took to create the process (for the start-up allowance)."""

    # ------------------------------------------------------------------ properties

    @property
    def name(self) -> str:
        """The display name given at construction (used in log and fault text)."""
        return self._name

    @property
    def argv(self) -> tuple[str, ...]:
        """The command as the argv list actually executed."""
        return self._argv

    @property
    def pid(self) -> int | None:
        """Process id of the bot (also its process-group id), or None before start."""
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> int | None:
        """Exit code once the bot has exited (negative: killed by that signal)."""
        if self._returncode is None and self._proc is not None and not self._closed:
            self._peek_exit()
        return self._returncode

    def __repr__(self) -> str:
        return f"<BotProcess {self._name!r} pid={self.pid} argv={shlex.join(self._argv)!r}>"

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        """Spawn the bot. Raises ``BotFault(STARTUP)`` if it cannot be executed.

        An unwritable ``stderr_path`` is the referee's problem, not the
        bot's: that ``OSError`` propagates unchanged.
        """
        if self._proc is not None or self._closed:
            raise RuntimeError(f"bot {self._name!r} was already started")
        shown = shlex.join(self._argv)
        if not self._argv:
            raise BotFault(FaultKind.STARTUP, "cannot start '': the command is empty")
        log = None
        if self._stderr_path is not None:
            self._stderr_path.parent.mkdir(parents=True, exist_ok=True)
            log = open(self._stderr_path, "wb", buffering=0)
        env = None
        if self._env:
            env = dict(os.environ)
            env.update(self._env)
        t0 = time.perf_counter()
        argv: Sequence[str] = self._argv
        pass_fds: tuple[int, ...] = ()
        conf = self._conf
        if conf is not None:
            if conf.enabled:
                # In the sandbox (or behind the shell that joins the seat's cgroup) a
                # missing program or folder would surface as an exit of bwrap or the
                # shell; say it the way a plain start says it.
                self._check_startable(log)
            argv, pass_fds = conf.command(self._argv, os.fspath(self._cwd) if self._cwd is not None else None,
                                          env if env is not None else os.environ)
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=self._cwd,
                env=env,
                close_fds=True,
                pass_fds=pass_fds,
                # A new session (see __init__), or a new process group in ours.
                start_new_session=self._new_session,
                process_group=None if self._new_session else 0,
            )
        except (OSError, ValueError) as exc:
            if log is not None:
                log.close()
            if conf is not None:
                conf.end()
            raise BotFault(FaultKind.STARTUP, f"cannot start {shown!r}: {exc}") from None
        self._proc = proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._stdin_fd = proc.stdin.fileno()
        self._stdout_fd = proc.stdout.fileno()
        # Our end of stdin is non-blocking so a bot that stops reading can be
        # timed out instead of wedging the referee on a full pipe.
        os.set_blocking(self._stdin_fd, False)
        self._pipe_inodes = {
            "stdin": os.fstat(self._stdin_fd).st_ino,
            "stdout": os.fstat(self._stdout_fd).st_ino,
            "stderr": os.fstat(proc.stderr.fileno()).st_ino,
        }
        self._poller.register(self._stdout_fd, _POLLIN)
        self._out_poller.register(self._stdout_fd, _POLLIN)
        try:
            self._pidfd = os.pidfd_open(proc.pid)
        except (AttributeError, OSError):
            self._pidfd = None  # old kernel: fall back to polling the exit status
        else:
            self._poller.register(self._pidfd, _POLLIN)
        self._stderr_thread = threading.Thread(
            target=_drain_stderr,
            args=(proc.stderr, log, self._stderr_cap, self._stderr_stop, self._stderr_tail),
            name=f"stderr-{self._name}",
            daemon=True,
        )
        self._stderr_thread.start()
        if conf is not None:
            conf.attach(proc.pid)  # a BotFault here: the caller closes the seat as for any start fault
        self.spawn_s = time.perf_counter() - t0

    def _check_startable(self, log: IO[bytes] | None) -> None:
        """Raise the ``STARTUP`` fault a plain start would give for a missing program or folder."""
        shown = shlex.join(self._argv)
        program = self._argv[0]
        cwd = os.fspath(self._cwd) if self._cwd is not None else None
        problem: str | None = None
        if cwd is not None and not os.path.isdir(cwd):
            problem = f"[Errno 2] No such file or directory: {cwd!r}"
        elif "/" in program:
            path = os.path.join(cwd or "", program)
            if not os.path.exists(path):
                problem = f"[Errno 2] No such file or directory: {program!r}"
            elif not os.access(path, os.X_OK) or os.path.isdir(path):
                problem = f"[Errno 13] Permission denied: {program!r}"
        else:
            search = (self._env or {}).get("PATH", os.environ.get("PATH", os.defpath))
            if shutil.which(program, path=search) is None:
                problem = f"[Errno 2] No such file or directory: {program!r}"
        if problem is not None:
            if log is not None:
                log.close()
            raise BotFault(FaultKind.STARTUP, f"cannot start {shown!r}: {problem}")

    def sandbox_in_force(self) -> dict[str, Any] | None:
        """What confined the bot (see :meth:`Confinement.in_force`); None for a plain process."""
        return self._conf.in_force() if self._conf is not None else None

    # ------------------------------------------------------------------ talking

    def send(self, line: str, timeout_s: float = SEND_TIMEOUT_S) -> None:
        """Write one event line (``"\\n"`` is appended).

        Raises ``BotFault(CRASH)`` if the bot closed its stdin or exited, and
        ``BotFault(TIMEOUT)`` if its input pipe stays full for ``timeout_s``.
        """
        if self._stdin_fd < 0 or self._closed or "\n" in line:
            self._check_line(line)
        if self._transcript is not None:
            self._transcript("out", line, time.time())
        self._write(line.encode() + b"\n", time.perf_counter() + timeout_s, timeout_s)

    def send_lines(self, lines: Sequence[str], timeout_s: float = SEND_TIMEOUT_S) -> None:
        """Write several event lines with one write (each gets its ``"\\n"``).

        The bot sees exactly what :meth:`send` of each line in turn would give
        it, but is woken once. Raises like :meth:`send`; on a fault, none or
        only part of the lines may have been delivered.
        """
        data = self._lines_data(lines)
        transcript = self._transcript
        if transcript is not None:
            for line in lines:
                transcript("out", line, time.time())
        self._write(data, time.perf_counter() + timeout_s, timeout_s)

    def try_send_lines(self, lines: Sequence[str]) -> bool:
        """Write event lines at once if the input pipe takes them whole; else write nothing.

        Returns False, having written nothing, when the pipe has no room for
        all of them right now (or they exceed ``PIPE_BUF``, the most a pipe
        takes in one piece). For a caller that must not wait, such as a
        runner timing another bot meanwhile. Raises like :meth:`send` when
        the bot closed its stdin or exited.
        """
        data = self._lines_data(lines)
        if len(data) > _PIPE_BUF:
            return False
        t = time.time()
        try:
            written = os.write(self._stdin_fd, data)
        except BlockingIOError:
            return False
        except OSError as exc:
            raise self._write_fault(exc) from None
        if written < len(data):  # cannot happen on a pipe (atomic up to PIPE_BUF); finish it anyway
            self._write(data[written:], time.perf_counter() + SEND_TIMEOUT_S, SEND_TIMEOUT_S)
        transcript = self._transcript
        if transcript is not None:
            for line in lines:
                transcript("out", line, t)
        return True

    def _lines_data(self, lines: Sequence[str]) -> bytes:
        """The bytes of ``lines``, each with its ``"\n"``, once the pipe is known to be
        open and no line holds a newline (else :meth:`_check_line` raises)."""
        if self._stdin_fd < 0 or self._closed:
            self._check_line("")
        for line in lines:
            if "\n" in line:
                self._check_line(line)
        return ("\n".join(lines) + "\n").encode()

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        """Write a request line and read the bot's one-line answer.

        Same as :meth:`request_overlapped` with nothing to do in between.
        """
        return self.request_overlapped(line, timeout_s, None)

    def request_overlapped(self, line: str, timeout_s: float, meanwhile: Meanwhile | None) -> tuple[str, float]:
        """Write a request line, call ``meanwhile()``, and read the bot's one-line answer.

        ``meanwhile`` (may be None) is the caller's work to overlap with the
        bot's thinking; it runs once the request is written, and its
        exceptions propagate (nothing is read then). Its time counts in
        ``elapsed_s`` only if the answer is already there when it returns, so
        it must be short and never wait (the match runner only writes what
        pipes take at once).

        Returns ``(answer, elapsed_s)``: the answer without ``"\\n"`` (and a
        trailing ``"\\r"``), and the seconds from just before the write to the
        moment the complete line was read. Raises :class:`BotFault`:
        ``TIMEOUT`` when no full line arrives within ``timeout_s``, ``CRASH``
        when the bot exits or closes stdout, ``OVERSIZE`` as soon as more than
        ``max_line`` bytes arrive without a newline, ``MALFORMED`` for a line
        that is not UTF-8, and ``UNEXPECTED`` if output the bot wrote before
        this request is still unread (see :meth:`check_unexpected`).
        """
        if self._buf or self._stdin_fd < 0 or "\n" in line:
            self._refuse(line)
        transcript = self._transcript
        if transcript is not None:
            transcript("out", line, time.time())
        data = line.encode() + b"\n"
        conf = self._conf
        if conf is not None and conf.frozen:
            conf.thaw()
        cpu0 = self._start_cpu_clock(timeout_s)
        t0 = time.perf_counter()
        deadline = t0 + (timeout_s if cpu0 is None else _cpu_backstop(timeout_s))
        self._paused_s = 0.0
        try:
            self._write(data, deadline, timeout_s)
            if meanwhile is not None:
                meanwhile()
                spent = time.perf_counter() - t0
                if spent > _PAUSE_SLACK_S:
                    # Writing what pipes take at once is never that slow: the referee was stopped.
                    self._paused_s = spent
                    deadline += spent
            answer = self._read_line(t0, deadline, timeout_s)
            return answer if cpu0 is None else (answer[0], self._cpu_used(cpu0))
        finally:
            self._cpu_limit = None
            if conf is not None:
                conf.answered()  # the fair clock: no thinking while others are asked

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        """Read one more line without writing anything, within ``timeout_s``.

        For a runner that finds a late answer to an earlier, timed-out request
        (its id is stale) where it expected the current one: it can skip that
        line and read again. Returns and raises like :meth:`request`, but
        lines already buffered are returned rather than refused, and the
        elapsed time is measured from this call.
        """
        if self._stdin_fd < 0:
            self._check_line("")
        conf = self._conf
        if conf is not None and conf.frozen:
            conf.thaw()
        cpu0 = self._start_cpu_clock(timeout_s)
        t0 = time.perf_counter()
        self._paused_s = 0.0
        try:
            answer = self._read_line(t0, t0 + (timeout_s if cpu0 is None else _cpu_backstop(timeout_s)), timeout_s)
            return answer if cpu0 is None else (answer[0], self._cpu_used(cpu0))
        finally:
            self._cpu_limit = None
            if conf is not None:
                conf.answered()

    def _start_cpu_clock(self, timeout_s: float) -> float | None:
        """Under the CPU clock: the seat's CPU seconds now (and the limit is armed); else None."""
        conf = self._conf
        if conf is None or not conf.cpu_clock:
            return None
        cpu0 = conf.cpu_seconds()
        self._cpu_limit = cpu0 + timeout_s
        return cpu0

    def _cpu_used(self, cpu0: float) -> float:
        assert self._conf is not None
        return max(0.0, self._conf.cpu_seconds() - cpu0)

    def discard_pending(self) -> int:
        """Drop buffered output and whatever stdout holds right now; return the byte count.

        Non-blocking. Used after a timeout when the bot keeps playing (the
        ``substitute`` policy): a late answer to the abandoned request must
        not be read as the answer to the next one. An answer still on its way
        cannot be told apart here; skip it by its id with :meth:`read_line`.
        """
        dropped = len(self._buf)
        self._buf.clear()
        if self._stdout_fd < 0 or self._eof:
            return dropped
        for _ in range(64):  # bounded: a bot writing nonstop cannot hold us here
            if not self._out_poller.poll(0):
                break
            chunk = os.read(self._stdout_fd, _READ_CHUNK)
            if not chunk:
                self._eof = True
                break
            dropped += len(chunk)
        return dropped

    def _read_line(self, t0: float, deadline: float, timeout_s: float) -> tuple[str, float]:
        """The read half of :meth:`request`: one line before ``deadline``."""
        perf = time.perf_counter
        transcript = self._transcript
        fd = self._stdout_fd
        poll = self._poller.poll
        buf = self._buf
        read = os.read
        scanned = 0
        # A line may already be complete in the buffer (read_line after an
        # answer that arrived with company).
        if buf:
            nl = buf.find(b"\n")
            if nl >= 0:
                raw = bytes(buf[: nl + 1])
                del buf[: nl + 1]
                return self._answer(raw, nl, perf() - t0 - self._paused_s)
            scanned = len(buf)
        while True:
            if self._exited:
                # The leader is dead: take only what is already in the pipe.
                # A forked child may hold stdout open, so never wait on it.
                events = self._out_poller.poll(0)
                if not events:
                    raise self._crash_fault()
            else:
                before = perf()
                remaining = deadline - before
                if remaining <= 0:
                    raise self._timeout_fault(timeout_s)
                if remaining > _SLICE_S:
                    remaining = _SLICE_S
                if self._pidfd is None and remaining > _DEATH_POLL_S:
                    remaining = _DEATH_POLL_S
                events = poll(remaining * 1000.0)
                late = perf() - before - remaining
                if self._cpu_limit is not None and self._conf is not None \
                        and self._conf.cpu_seconds() > self._cpu_limit:
                    raise self._limit_fault() or BotFault(
                        FaultKind.TIMEOUT, f"used more than {round(timeout_s * 1000)} ms of CPU time"
                                           " without answering")
                if late > _PAUSE_SLACK_S:
                    # The referee was stopped meanwhile: nobody's clock ran.
                    self._paused_s += late
                    deadline += late
                if not events:
                    if self._pidfd is None and self._peek_exit():
                        self._exited = True
                    continue
            for efd, _ in events:
                if efd != fd:
                    # pidfd readable: the leader exited. Drain stdout first on
                    # the next pass: its last words may be a complete answer.
                    self._poller.unregister(efd)
                    self._exited = True
                    continue
                chunk = read(fd, _READ_CHUNK)
                if not chunk:
                    self._eof = True
                    raise self._crash_fault()
                if not buf and chunk.find(b"\n") == len(chunk) - 1:
                    # Fast path (nearly every answer): the whole line, alone,
                    # in one read. Inlined: this is the referee's hottest loop.
                    t1 = perf() - self._paused_s
                    end = len(chunk) - 1
                    if end and chunk[end - 1] == 13:  # "\r\n"
                        end -= 1
                    if end <= self._max_line:
                        try:
                            text = chunk[:end].decode()
                        except UnicodeDecodeError:
                            pass  # _answer below raises the precise fault
                        else:
                            if transcript is not None:
                                transcript("in", text, time.time())
                            return text, t1 - t0
                    return self._answer(chunk, len(chunk) - 1, t1 - t0)
                buf += chunk
                nl = buf.find(b"\n", scanned)
                if nl >= 0:
                    t1 = perf() - self._paused_s
                    raw = bytes(buf[: nl + 1])
                    del buf[: nl + 1]
                    return self._answer(raw, nl, t1 - t0)
                if len(buf) > self._max_line + 1:
                    raise self._oversize_fault(len(buf), complete=False)
                scanned = len(buf)

    def check_unexpected(self) -> None:
        """Raise ``BotFault(UNEXPECTED)`` if the bot wrote to stdout unasked.

        Non-blocking. Call it whenever no request is outstanding (before a
        request, after events): it reports bytes left over after the last
        answer line and anything readable on stdout right now. End-of-file
        is not reported here; the next request reports it as a crash.
        """
        if not self._buf and not self._eof and self._stdout_fd >= 0:
            if self._out_poller.poll(0):
                chunk = os.read(self._stdout_fd, _READ_CHUNK)
                if chunk:
                    self._buf += chunk
                else:
                    self._eof = True
        if self._buf:
            raise self._unexpected_fault()

    # ------------------------------------------------------------------ ending

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        """End the bot and everything it started; return its exit code.

        Idempotent. Closes stdin and waits ``grace_s`` for a clean exit, then
        SIGTERMs the process group and waits ``term_s``, then SIGKILLs the
        group and every descendant seen under the bot (even those that left
        the group), reaps the bot, makes sure nothing still holds its pipes,
        and releases every descriptor and the stderr thread. The return value
        is negative when the bot was killed by a signal, None if the bot was
        never started (or could not be reaped).
        """
        if self._closed:
            return self._returncode
        self._closed = True
        proc = self._proc
        if proc is None:
            return None
        pid = proc.pid
        tree = _Descendants()
        if self._conf is not None:
            self._conf.thaw()  # a frozen bot could not even see its stdin close
        try:
            # Before anything dies: a child whose parent exits is reparented
            # and can no longer be found under the bot.
            tree.collect(pid)
            self._close_stdin()
            if not self._wait_exit(grace_s, drain=True):
                tree.collect(pid)
                _killpg(pid, signal.SIGTERM)
                self._wait_exit(term_s, drain=True)
            tree.collect(pid)
            # Leftover group members (helpers of a bot that exited cleanly)
            # are killed too: the bot's lifetime is over. The leader is not
            # reaped yet, so its pid (the group id) cannot have been reused.
            _killpg(pid, signal.SIGKILL)
            tree.kill()
            self._wait_exit(_REAP_TIMEOUT_S)
            # Reap. None only for a process stuck in the kernel (D state);
            # the subprocess module reaps it later.
            proc.poll()
            if proc.returncode is not None and self._returncode is None:
                self._returncode = self._own_code(proc.returncode)
            if self._conf is not None:
                self._conf.end()  # whatever is still in the seat's cgroup
            self._release_pipes()
        finally:
            tree.close()
            if self._conf is not None:
                self._conf.end()
            self._close_fds()
        return self._returncode

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _refuse(self, line: str) -> None:
        """Raise the reason :meth:`request` cannot go ahead."""
        if self._buf:
            raise self._unexpected_fault()
        self._check_line(line)

    def _check_line(self, line: str) -> None:
        if self._proc is None or self._closed:
            state = "closed" if self._closed else "not started"
            raise RuntimeError(f"bot {self._name!r} is {state}")
        if "\n" in line:
            raise ValueError(f"a protocol line must not contain a newline, got: {line[:80]!r}")

    def _answer(self, raw: bytes, nl: int, elapsed: float) -> tuple[str, float]:
        end = nl - 1 if nl and raw[nl - 1] == 13 else nl  # 13 = "\r"
        if end > self._max_line:
            raise self._oversize_fault(end, complete=True)
        try:
            line = raw[:end].decode()
        except UnicodeDecodeError as exc:
            raise BotFault(
                FaultKind.MALFORMED,
                f"answer is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}):"
                f" {_quote(raw[:end])}",
            ) from None
        if self._transcript is not None:
            self._transcript("in", line, time.time())
        return line, elapsed

    def _write(self, data: bytes, deadline: float, timeout_s: float) -> None:
        """Write all of ``data`` to the non-blocking stdin before ``deadline``.

        Nearly always the pipe takes it in the first write; only a partial
        write pays for a memoryview and the poll loop.
        """
        view: bytes | memoryview = data
        out_poller: select.poll | None = None
        while True:
            try:
                n = os.write(self._stdin_fd, view)
            except BlockingIOError:
                n = 0
            except OSError as exc:
                raise self._write_fault(exc) from None
            if n == len(view):
                return
            view = memoryview(view)[n:]
            if self._conf is not None and self._conf.frozen:
                self._conf.thaw()  # a frozen bot cannot empty its input pipe
            if out_poller is None:
                out_poller = select.poll()
                out_poller.register(self._stdin_fd, select.POLLOUT)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise BotFault(
                    FaultKind.TIMEOUT,
                    f"did not read its stdin within {round(timeout_s * 1000)} ms (input pipe full)",
                )
            out_poller.poll(min(remaining, 0.1) * 1000.0)
            if self._peek_exit():
                raise self._crash_fault()

    def _peek_exit(self) -> bool:
        """Record the exit status if the bot has exited, without reaping it.

        The bot stays a zombie until :meth:`close`, so its pid, which is also
        its process-group id, cannot be recycled before the group is killed.
        """
        if self._returncode is not None:
            return True
        proc = self._proc
        if proc is None:
            return False
        if proc.returncode is not None:
            self._returncode = self._own_code(proc.returncode)
            return True
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        if info is None or info.si_pid == 0:
            return False
        if info.si_code == os.CLD_EXITED:
            self._returncode = self._own_code(info.si_status)
        else:  # CLD_KILLED / CLD_DUMPED
            self._returncode = -info.si_status
        return True

    def _own_code(self, code: int) -> int:
        """The bot's exit status, seen through the sandbox's launcher."""
        return self._conf.returncode(code) if self._conf is not None else code

    def _wait_exit(self, timeout_s: float, *, drain: bool = False) -> bool:
        """Wait up to ``timeout_s`` for the bot to exit; True if it has.

        With ``drain``, stdout is read and discarded meanwhile: a bot blocked
        writing to a full stdout pipe (a huge line, chatter after match_end)
        could otherwise never get to notice that its stdin closed.
        """
        if self._peek_exit():
            return True
        if timeout_s <= 0:
            return False
        deadline = time.perf_counter() + timeout_s
        watch = [self._pidfd] if self._pidfd is not None else []
        while True:
            drain_fd = self._stdout_fd if drain and not self._eof and self._stdout_fd >= 0 else -1
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return self._peek_exit()
            if self._pidfd is None:
                remaining = min(remaining, _DEATH_POLL_S)
            fds = watch + [drain_fd] if drain_fd >= 0 else watch
            if fds:
                ready, _, _ = select.select(fds, [], [], remaining)
            else:
                time.sleep(remaining)
                ready = []
            if drain_fd >= 0 and drain_fd in ready:
                if not os.read(drain_fd, _READ_CHUNK):
                    self._eof = True
            if self._peek_exit():
                return True

    def _crash_fault(self, pipe: str = "stdout") -> BotFault:
        """The fault of a bot whose ``pipe`` closed: a limit it hit, its exit, or the closed pipe."""
        if self._returncode is None:
            self._wait_exit(_EXIT_AFTER_EOF_S)
        limit = self._limit_fault()
        if limit is not None:
            return limit
        if self._returncode is not None:
            self._exited = True
            return BotFault(FaultKind.CRASH, _describe_status(self._returncode))
        return BotFault(FaultKind.CRASH, f"closed its {pipe} (the process is still running)")

    def _limit_fault(self) -> BotFault | None:
        """A ``limit`` fault when the sandbox says the bot ran into one of its limits."""
        if self._conf is None:
            return None
        thread = self._stderr_thread
        if self._returncode is not None and thread is not None:
            # The bot is gone: let the drain thread take its last words (bounded: a child
            # may still hold the pipe open).
            thread.join(_STDERR_TAIL_WAIT_S)
        fault = self._conf.limit_fault(self._returncode, bytes(self._stderr_tail))
        if fault is not None and self._returncode is not None:
            self._exited = True
        return fault

    def _write_fault(self, exc: OSError) -> BotFault:
        if exc.errno == errno.EPIPE or isinstance(exc, BrokenPipeError):
            return self._crash_fault("stdin")
        return BotFault(FaultKind.CRASH, f"cannot write to its stdin: {exc}")

    def _timeout_fault(self, timeout_s: float) -> BotFault:
        limit = self._limit_fault()
        if limit is not None:
            return limit
        if self._cpu_limit is not None:
            return BotFault(FaultKind.TIMEOUT, f"no answer within {round(_cpu_backstop(timeout_s) * 1000)} ms of wall"
                                               " time (the CPU clock's backstop)")
        return BotFault.timeout(timeout_s)

    def _oversize_fault(self, size: int, *, complete: bool) -> BotFault:
        if complete:
            detail = f"answer line of {size} bytes is longer than the {self._max_line}-byte limit"
        else:
            detail = (
                f"answer line longer than the {self._max_line}-byte limit"
                f" ({size} bytes read without a newline)"
            )
        return BotFault(FaultKind.OVERSIZE, detail)

    def _unexpected_fault(self) -> BotFault:
        return BotFault.unexpected(_quote(self._buf))

    def _close_stdin(self) -> None:
        proc = self._proc
        if proc is not None and proc.stdin is not None and not proc.stdin.closed:
            try:
                proc.stdin.close()
            except OSError:
                pass  # EPIPE on close of a pipe nobody reads: nothing to do
        self._stdin_fd = -1

    def _release_pipes(self) -> None:
        """Make sure no process still holds the bot's end of its pipes.

        Killing the group and the walked tree is normally enough; a holder can
        remain only if it left the group *and* was orphaned before close(). It
        is then found by scanning ``/proc/*/fd`` for this bot's pipe inodes.
        """
        if self._stdout_released(_PIPE_RELEASE_S) and self._stderr_done(_PIPE_RELEASE_S):
            return
        _kill_pipe_holders(self._pipe_inodes)
        self._stdout_released(0.5)
        if not self._stderr_done(_STDERR_JOIN_S):
            self._stderr_stop.set()
            self._stderr_done(_STDERR_JOIN_S)

    def _stdout_released(self, timeout_s: float) -> bool:
        """Wait until stdout hangs up (no writer left), discarding late output."""
        if self._stdout_fd < 0:
            return True
        deadline = time.perf_counter() + timeout_s
        discarded = 0
        while True:
            events = self._out_poller.poll(max(0.0, deadline - time.perf_counter()) * 1000.0)
            if not events:
                return False
            revents = events[0][1]
            if revents & (select.POLLHUP | select.POLLERR) and not revents & _POLLIN:
                return True
            chunk = os.read(self._stdout_fd, _READ_CHUNK)
            if not chunk:
                return True
            discarded += len(chunk)
            if discarded > 16 * _READ_CHUNK or time.perf_counter() >= deadline:
                return False

    def _stderr_done(self, timeout_s: float) -> bool:
        thread = self._stderr_thread
        if thread is None:
            return True
        thread.join(timeout_s)
        return not thread.is_alive()

    def _close_fds(self) -> None:
        proc = self._proc
        self._close_stdin()
        if proc is not None and proc.stdout is not None and not proc.stdout.closed:
            try:
                self._poller.unregister(self._stdout_fd)
            except KeyError:
                pass
            proc.stdout.close()
        self._stdout_fd = -1
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        # The stderr descriptor belongs to the drain thread, which closes it
        # on exit; closing it here could let a recycled descriptor number be
        # read by a still-running thread.
        self._stderr_stop.set()


# ---------------------------------------------------------------------- helpers

def _killpg(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # group already empty, or a member changed identity


class _Descendants:
    """Descendants of a process, pinned by pidfd so a recycled pid is never signalled."""

    def __init__(self) -> None:
        self._fds: dict[int, int] = {}  # pid -> pidfd (or -1 without pidfd support)

    def collect(self, root: int) -> None:
        """Add every current descendant of ``root`` (walking /proc children lists)."""
        stack = [root]
        seen = {root}
        while stack:
            pid = stack.pop()
            for child in _children(pid):
                if child in seen:
                    continue
                seen.add(child)
                stack.append(child)
                if child not in self._fds:
                    try:
                        self._fds[child] = os.pidfd_open(child)
                    except ProcessLookupError:
                        continue
                    except (AttributeError, OSError):
                        self._fds[child] = -1
        return None

    def kill(self) -> None:
        for pid, pidfd in self._fds.items():
            try:
                if pidfd >= 0:
                    signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                else:
                    os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        for pidfd in self._fds.values():
            if pidfd >= 0:
                os.close(pidfd)
        self._fds.clear()


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` from ``/proc/<pid>/task/*/children``."""
    task_dir = f"/proc/{pid}/task"
    try:
        tids = os.listdir(task_dir)
    except OSError:
        return []
    out: list[int] = []
    for tid in tids:
        try:
            with open(f"{task_dir}/{tid}/children", "rb") as fh:
                out.extend(int(x) for x in fh.read().split())
        except OSError:
            continue
    return out


def _kill_pipe_holders(inodes: Mapping[str, int]) -> list[int]:
    """SIGKILL every process holding the bot's end of one of its pipes.

    The bot's ends are the write ends of stdout and stderr and the read end
    of stdin. The referee holds only the opposite ends (and so would a copy
    of the referee made by fork), so this never hits the referee's side.
    Returns the pids signalled.
    """
    wanted: dict[str, int] = {}
    for stream, ino in inodes.items():
        wanted[f"pipe:[{ino}]"] = os.O_RDONLY if stream == "stdin" else os.O_WRONLY
    me = os.getpid()
    killed: list[int] = []
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return killed
    for pid in pids:
        if pid == me:
            continue
        fd_dir = f"/proc/{pid}/fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue  # gone, or another user's process
        for fd in fds:
            try:
                target = os.readlink(f"{fd_dir}/{fd}")
            except OSError:
                continue
            mode = wanted.get(target)
            if mode is None:
                continue
            try:
                with open(f"/proc/{pid}/fdinfo/{fd}") as fh:
                    flags = next(
                        int(l.split()[1], 8) for l in fh if l.startswith("flags:")
                    )
            except (OSError, StopIteration, ValueError):
                continue
            if flags & os.O_ACCMODE == mode:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                except (ProcessLookupError, PermissionError):
                    pass
                break
    return killed


def _drain_stderr(
    stream: IO[bytes],
    log: IO[bytes] | None,
    cap: int,
    stop: threading.Event,
    tail: bytearray,
) -> None:
    """Thread body: copy the bot's stderr into ``log`` up to ``cap`` bytes.

    The last :data:`_STDERR_TAIL` bytes are also kept in ``tail``, logged or
    not: a bot's last words tell a limit it ran into (see :meth:`BotProcess._limit_fault`).

    Past the cap one marker line is written and the rest is read and thrown
    away, so the bot never blocks on a full stderr pipe. The thread owns the
    stderr descriptor and the log file and closes both when it ends: at
    end-of-file, or when ``stop`` is set (a holder of the pipe that could not
    be killed), after taking what is readable at that moment.
    """
    fd = stream.fileno()
    poller = select.poll()
    poller.register(fd, _POLLIN)
    kept = 0
    last = b"\n"  # last byte kept, to start the marker on a line of its own
    full = log is None
    sweeps = 0
    try:
        while True:
            stopping = stop.is_set()
            if stopping:
                # Final non-blocking sweep, bounded so a writer cannot keep us here.
                sweeps += 1
                if sweeps > 64:
                    return
            if not poller.poll(0 if stopping else _STDERR_POLL_MS):
                if stopping:
                    return
                continue
            chunk = os.read(fd, _READ_CHUNK)
            if not chunk:
                return
            tail += chunk
            del tail[:-_STDERR_TAIL]
            if full:
                continue
            assert log is not None
            try:
                if kept + len(chunk) <= cap:
                    log.write(chunk)
                    kept += len(chunk)
                    last = chunk[-1:]
                    continue
                head = chunk[: cap - kept]
                if head:
                    log.write(head)
                    kept += len(head)
                    last = head[-1:]
                lead = b"" if last == b"\n" else b"\n"
                log.write(lead + f"[spades-referee: stderr truncated after {cap} bytes]\n".encode())
            except OSError:
                pass  # disk full or similar: stop logging, keep draining
            full = True
    finally:
        if log is not None:
            log.close()
        stream.close()
