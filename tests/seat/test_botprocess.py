"""BotProcess against real child processes: framing, timing, faults, cleanup."""

from __future__ import annotations

import json
import os
import pickle
import re
import shlex
import signal
import stat
import sys
import textwrap
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from referee.seat import botprocess as botprocess_module
from referee.seat.botprocess import BotProcess
from referee.seat.faults import BotFault, FaultKind

HOSTILE = Path(__file__).resolve().parents[1] / "bots" / "hostile_bot.py"
MARKER_RE = re.compile(rb"\[spades-referee: stderr truncated after (\d+) bytes\]\n")

# Answers every line with {"echo": <line>} until stdin closes, then exits 0.
ECHO = """
import sys
for line in sys.stdin:
    sys.stdout.write('{"echo": %d}\\n' % len(line))
    sys.stdout.flush()
"""


def py(script: str, *args: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(script), *args]


def hostile(*flags: str) -> list[str]:
    return [sys.executable, str(HOSTILE), *flags]


def hello(seat: int = 0) -> str:
    return json.dumps(
        {
            "type": "hello", "id": 0, "protocol": 1, "match": "t", "variant": "two-player",
            "seat": seat, "names": ["a", "b"], "rules": {}, "time": {"move_ms": 1000, "bank_ms": 0},
        }
    )


def play(rid: int = 1, hand_no: int = 1) -> str:
    state = {"hand_no": hand_no, "seat": 0, "hand": ["2C", "AS"], "trick": [], "played": [],
             "spades_broken": False}
    return json.dumps({"type": "play", "id": rid, "legal": ["2C"], "state": state})


def alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie (zombies are dead, just unreaped)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return fields[0] not in ("Z", "X")


def wait_dead(pid: int, timeout: float = 2.0) -> bool:
    """Killed orphans are reaped by init asynchronously; give it a moment."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.01)
    return False


def poll_unexpected(bot: BotProcess, timeout: float = 5.0) -> None:
    """Call check_unexpected until it raises or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        bot.check_unexpected()
        time.sleep(0.005)


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def my_children() -> set[int]:
    out: set[int] = set()
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/children") as fh:
            out.update(int(x) for x in fh.read().split())
    return out


# --------------------------------------------------------------------- round trip


def test_request_round_trip_and_elapsed() -> None:
    with BotProcess(py(ECHO), name="echo") as bot:
        assert bot.pid is None
        bot.start()
        assert bot.pid is not None and alive(bot.pid)
        assert bot.returncode is None
        for n in range(1, 6):
            line, elapsed = bot.request("x" * n, 5.0)
            assert line == '{"echo": %d}' % (n + 1)
            assert 0 < elapsed < 5.0
        bot.send("event without answer")
        line, _ = bot.request("y", 5.0)
        # The event was read by the bot first and answered too: that answer is
        # what comes back now, and the answer to "y" is left over, unexpected.
        assert line == '{"echo": 21}'
        with pytest.raises(BotFault) as info:
            poll_unexpected(bot)
        assert info.value.kind is FaultKind.UNEXPECTED
        assert "'{\"echo\": 2}\\n'" in str(info.value)
    assert bot.returncode == 0


def test_crlf_and_pieces_are_reassembled() -> None:
    script = """
    import sys, time
    sys.stdin.readline()
    sys.stdout.write('{"a": '); sys.stdout.flush(); time.sleep(0.05)
    sys.stdout.write('1}\\r\\n'); sys.stdout.flush()
    sys.stdin.readline()
    """
    with BotProcess(py(script), name="pieces") as bot:
        bot.start()
        line, elapsed = bot.request("q", 5.0)
        assert line == '{"a": 1}'
        assert elapsed >= 0.05


def test_line_at_exactly_max_line_is_accepted() -> None:
    script = """
    import sys
    sys.stdin.readline(); sys.stdout.write('a' * 10 + '\\r\\n'); sys.stdout.flush()
    sys.stdin.readline(); sys.stdout.write('b' * 11 + '\\n'); sys.stdout.flush()
    sys.stdin.readline()
    """
    with BotProcess(py(script), name="limit", max_line=10) as bot:
        bot.start()
        assert bot.request("q", 5.0)[0] == "a" * 10
        with pytest.raises(BotFault) as info:
            bot.request("q", 5.0)
        assert info.value.kind is FaultKind.OVERSIZE
        assert str(info.value) == "answer line of 11 bytes is longer than the 10-byte limit"


def test_invalid_utf8_is_malformed() -> None:
    script = """
    import sys, os
    sys.stdin.readline(); os.write(1, b'{"card": "\\xff\\xfe"}\\n'); sys.stdin.readline()
    """
    with BotProcess(py(script), name="bytes") as bot:
        bot.start()
        with pytest.raises(BotFault) as info:
            bot.request("q", 5.0)
        assert info.value.kind is FaultKind.MALFORMED
        assert "not valid UTF-8 (byte 0xff at offset 10)" in str(info.value)


def test_string_command_is_split_never_run_by_a_shell(tmp_path: Path) -> None:
    script = tmp_path / "argv bot.py"
    script.write_text(
        "import json, sys\nsys.stdin.readline()\nprint(json.dumps(sys.argv[1:]), flush=True)\n"
        "sys.stdin.readline()\n"
    )
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} 'two words' ';' '$HOME' a|b"
    with BotProcess(command, name="argv") as bot:
        assert bot.argv[1] == str(script)
        bot.start()
        line, _ = bot.request("q", 5.0)
    assert json.loads(line) == ["two words", ";", "$HOME", "a|b"]


def test_cwd_and_env_are_added_to_the_inherited_environment(tmp_path: Path) -> None:
    script = """
    import json, os, sys
    sys.stdin.readline()
    print(json.dumps([os.getcwd(), os.environ.get("SPADES_T"), os.environ.get("PATH")]), flush=True)
    sys.stdin.readline()
    """
    with BotProcess(py(script), name="env", cwd=tmp_path, env={"SPADES_T": "x y"}) as bot:
        bot.start()
        line, _ = bot.request("q", 5.0)
    cwd, var, path = json.loads(line)
    assert os.path.realpath(cwd) == os.path.realpath(tmp_path)
    assert var == "x y"
    assert path == os.environ["PATH"]


# --------------------------------------------------------------------- startup


def test_startup_failure_names_command_and_os_error(tmp_path: Path) -> None:
    before = open_fds()
    bot = BotProcess("no-such-bot-xyz --x", name="missing", stderr_path=tmp_path / "e.log")
    with pytest.raises(BotFault) as info:
        bot.start()
    assert info.value.kind is FaultKind.STARTUP
    assert str(info.value) == (
        "cannot start 'no-such-bot-xyz --x': [Errno 2] No such file or directory: 'no-such-bot-xyz'"
    )
    assert bot.close() is None
    assert open_fds() == before

    not_exec = tmp_path / "bot.sh"
    not_exec.write_text("#!/bin/sh\n")
    not_exec.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with pytest.raises(BotFault) as info:
        BotProcess([str(not_exec)], name="noexec").start()
    assert info.value.kind is FaultKind.STARTUP
    assert f"cannot start {str(not_exec)!r}: [Errno 13] Permission denied" in str(info.value)

    bad_cwd = tmp_path / "nowhere"
    with pytest.raises(BotFault) as info:
        BotProcess(py(ECHO), name="cwd", cwd=bad_cwd).start()
    assert info.value.kind is FaultKind.STARTUP
    assert str(bad_cwd) in str(info.value)

    with pytest.raises(BotFault) as info:
        BotProcess("", name="empty").start()
    assert info.value.kind is FaultKind.STARTUP
    assert "empty" in str(info.value)


def test_misuse_is_a_programming_error_not_a_fault() -> None:
    bot = BotProcess(py(ECHO), name="misuse")
    with pytest.raises(RuntimeError, match="not started"):
        bot.request("q", 1.0)
    bot.start()
    try:
        with pytest.raises(RuntimeError, match="already started"):
            bot.start()
        with pytest.raises(ValueError, match="newline"):
            bot.send("two\nlines")
    finally:
        bot.close()
    with pytest.raises(RuntimeError, match="closed"):
        bot.send("q")
    with pytest.raises(ValueError, match="cannot parse bot command"):
        BotProcess("python 'unclosed", name="q")


def test_bot_fault_carries_kind_and_detail() -> None:
    fault = BotFault(FaultKind.TIMEOUT, "no answer within 5 ms")
    assert str(fault) == "no answer within 5 ms"
    assert fault.kind is FaultKind.TIMEOUT and fault.detail == "no answer within 5 ms"
    again = pickle.loads(pickle.dumps(fault))
    assert (again.kind, again.detail) == (fault.kind, fault.detail)


# --------------------------------------------------------------------- timeouts


def test_timeout_honours_the_deadline() -> None:
    silent = "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n"
    with BotProcess(py(silent), name="silent") as bot:
        bot.start()
        t0 = time.perf_counter()
        with pytest.raises(BotFault) as info:
            bot.request("q", 0.3)
        took = time.perf_counter() - t0
        assert info.value.kind is FaultKind.TIMEOUT
        assert str(info.value) == "no answer within 300 ms"
        assert 0.3 <= took < 0.36
        bot.close(grace_s=0.05, term_s=0.5)


def test_trickling_bytes_do_not_extend_the_deadline() -> None:
    trickle = """
    import os, sys, time
    sys.stdin.readline()
    while True:
        os.write(1, b"x"); time.sleep(0.02)
    """
    with BotProcess(py(trickle), name="trickle") as bot:
        bot.start()
        t0 = time.perf_counter()
        with pytest.raises(BotFault) as info:
            bot.request("q", 0.25)
        assert info.value.kind is FaultKind.TIMEOUT
        assert time.perf_counter() - t0 < 0.31
        bot.close(grace_s=0.05, term_s=0.5)


def test_send_times_out_when_the_bot_never_reads() -> None:
    with BotProcess(py("import time\ntime.sleep(60)\n"), name="deaf") as bot:
        bot.start()
        block = "e" * 8191
        with pytest.raises(BotFault) as info:
            for _ in range(100):  # far more than a pipe buffer holds
                bot.send(block, timeout_s=0.2)
        assert info.value.kind is FaultKind.TIMEOUT
        assert str(info.value) == "did not read its stdin within 200 ms (input pipe full)"
        bot.close(grace_s=0.05, term_s=0.5)


# --------------------------------------------------------------------- crashes


def test_crash_reports_the_exit_code() -> None:
    with BotProcess(py("import sys\nsys.stdin.readline()\nsys.exit(3)\n"), name="exit3") as bot:
        bot.start()
        with pytest.raises(BotFault) as info:
            bot.request("q", 5.0)
        assert info.value.kind is FaultKind.CRASH
        assert str(info.value) == "exited with code 3"
        assert bot.returncode == 3
    assert bot.close() == 3


def test_crash_reports_the_signal() -> None:
    script = "import os, signal, sys\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGKILL)\n"
    with BotProcess(py(script), name="kill9") as bot:
        bot.start()
        with pytest.raises(BotFault) as info:
            bot.request("q", 5.0)
        assert info.value.kind is FaultKind.CRASH
        assert str(info.value).startswith("killed by signal 9")
    assert bot.returncode == -9


def test_last_answer_before_exit_is_still_delivered() -> None:
    script = "import sys\nsys.stdin.readline()\nprint('{\"bye\": 1}', flush=True)\n"
    with BotProcess(py(script), name="bye") as bot:
        bot.start()
        assert bot.request("q", 5.0)[0] == '{"bye": 1}'
        bot.check_unexpected()  # end-of-file is not "unexpected output"
        with pytest.raises(BotFault) as info:
            bot.request("q", 5.0)
        assert (info.value.kind, str(info.value)) == (FaultKind.CRASH, "exited with code 0")


def test_send_to_an_exited_bot_is_a_crash() -> None:
    with BotProcess(py("import sys\nsys.exit(4)\n"), name="gone") as bot:
        bot.start()
        assert bot.pid is not None
        deadline = time.monotonic() + 5
        while bot.returncode is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(BotFault) as info:
            bot.send("event")
        assert (info.value.kind, str(info.value)) == (FaultKind.CRASH, "exited with code 4")


def _fork_child_crash(tmp_path: Path) -> None:
    log = tmp_path / "fork.log"
    bot = BotProcess(hostile("--fork-child"), name="fork", stderr_path=log)
    with bot:
        bot.start()
        bot.request(hello(), 10.0)
        t0 = time.perf_counter()
        with pytest.raises(BotFault) as info:
            bot.request(play(), 10.0)
        took = time.perf_counter() - t0
        assert info.value.kind is FaultKind.CRASH
        assert str(info.value) == "exited with code 0"
        # The forked child still holds stdout open, so end-of-file never
        # comes: only watching the process itself makes this fast.
        assert took < 1.0
        # The stderr drain thread writes the log on its own schedule: wait for the line.
        deadline = time.perf_counter() + 5.0
        match = None
        while match is None and time.perf_counter() < deadline:
            match = re.search(r"forked child pid (\d+)", log.read_text() if log.exists() else "")
            if match is None:
                time.sleep(0.02)
        assert match, log.read_text() if log.exists() else "(no stderr log)"
        child = int(match.group(1))
        assert alive(child)
        assert bot.close(grace_s=0.05, term_s=0.2) == 0
    assert wait_dead(child)


def test_crash_detected_fast_while_a_forked_child_holds_stdout(tmp_path: Path) -> None:
    _fork_child_crash(tmp_path)


def test_crash_detected_without_pidfd_support(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pidfd(pid: int, flags: int = 0) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(botprocess_module.os, "pidfd_open", no_pidfd)
    _fork_child_crash(tmp_path)


# --------------------------------------------------------------------- oversize


def test_ten_megabyte_line_is_cut_off_early(tmp_path: Path) -> None:
    with BotProcess(hostile("--huge-line", "10"), name="huge", stderr_path=tmp_path / "h.log") as bot:
        bot.start()
        bot.request(hello(), 10.0)
        tracemalloc.start()
        try:
            t0 = time.perf_counter()
            with pytest.raises(BotFault) as info:
                bot.request(play(), 10.0)
            took = time.perf_counter() - t0
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert info.value.kind is FaultKind.OVERSIZE
        assert "65536-byte limit" in str(info.value)
        assert took < 1.0
        assert peak < 1 << 20  # read a few 64 KiB chunks, not 10 MiB
        t0 = time.perf_counter()
        bot.close(grace_s=2.0, term_s=1.0)
        # stdout is drained during the grace period, so the bot finishes
        # its write, sees end-of-file and exits by itself.
        assert bot.returncode == 0
        assert time.perf_counter() - t0 < 2.0


# --------------------------------------------------------------------- unexpected output


def test_extra_line_after_an_answer_is_unexpected() -> None:
    with BotProcess(hostile("--unsolicited"), name="chatty") as bot:
        bot.start()
        line, _ = bot.request(hello(), 10.0)
        assert json.loads(line) == {"id": 0, "name": "hostile"}
        with pytest.raises(BotFault) as info:
            bot.check_unexpected()
        assert info.value.kind is FaultKind.UNEXPECTED
        assert str(info.value) == (
            "wrote to stdout with no request outstanding:"
            " '{\"note\": \"nobody asked for this line\"}\\n'"
        )
        # A request refuses to start while stale output is unread, so it can
        # never be taken for the answer.
        with pytest.raises(BotFault) as info:
            bot.request(play(), 10.0)
        assert info.value.kind is FaultKind.UNEXPECTED


def test_output_between_requests_is_unexpected_and_quoted_to_80_chars() -> None:
    script = """
    import sys
    sys.stdin.readline(); print("ok", flush=True)
    sys.stdin.readline(); print("a" * 200, flush=True)
    sys.stdin.readline()
    """
    with BotProcess(py(script), name="talker") as bot:
        bot.start()
        assert bot.request("q", 5.0)[0] == "ok"
        bot.check_unexpected()  # quiet so far
        bot.send("event")  # provokes the unsolicited line
        with pytest.raises(BotFault) as info:
            poll_unexpected(bot)
        assert info.value.kind is FaultKind.UNEXPECTED
        assert str(info.value) == f"wrote to stdout with no request outstanding: {'a' * 80!r}..."


# --------------------------------------------------------------------- stderr


def test_stderr_flood_of_100_mb_neither_blocks_nor_fills_the_disk(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "flood.log"  # parent directory is created
    cap = 4096
    with BotProcess(hostile("--flood-stderr", "100"), name="flood", stderr_path=log,
                    stderr_cap=cap) as bot:
        bot.start()
        line, elapsed = bot.request(hello(), 20.0)
        assert json.loads(line)["id"] == 0
        assert bot.request(play(), 5.0)[0] == '{"id": 1, "card": "2C"}'
    data = log.read_bytes()
    markers = MARKER_RE.findall(data)
    assert markers == [str(cap).encode()]
    assert data.endswith(b"[spades-referee: stderr truncated after 4096 bytes]\n")
    # The kept part is exactly the cap; the marker starts on its own line.
    head = data[: -len(b"[spades-referee: stderr truncated after 4096 bytes]\n")]
    assert len(head) in (cap, cap + 1) and head.endswith(b"\n")
    assert head.startswith(b"hostile_bot seat=0 hand=0: --flood-stderr: writing 100 MiB")


def test_stderr_is_drained_without_a_log_file() -> None:
    with BotProcess(hostile("--flood-stderr", "20"), name="flood") as bot:
        bot.start()
        assert json.loads(bot.request(hello(), 20.0)[0])["id"] == 0


def test_small_stderr_is_kept_whole(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    script = "import sys\nsys.stderr.write('thinking\\nstill thinking')\nsys.stdin.readline()\n"
    with BotProcess(py(script), name="notes", stderr_path=log) as bot:
        bot.start()
    assert log.read_bytes() == b"thinking\nstill thinking"


# --------------------------------------------------------------------- close


def test_close_is_graceful_for_a_bot_that_exits_on_eof() -> None:
    bot = BotProcess(py(ECHO), name="polite")
    bot.start()
    pid = bot.pid
    assert pid is not None
    t0 = time.perf_counter()
    assert bot.close() == 0
    assert time.perf_counter() - t0 < 0.9
    assert not alive(pid)
    assert bot.close() == 0  # idempotent
    assert bot.returncode == 0


def test_close_terminates_a_bot_that_ignores_eof() -> None:
    stubborn = "import sys, time\nsys.stdin.read()\ntime.sleep(60)\n"
    with BotProcess(py(stubborn), name="stubborn") as bot:
        bot.start()
        t0 = time.perf_counter()
        assert bot.close(grace_s=0.1, term_s=2.0) == -signal.SIGTERM
        assert time.perf_counter() - t0 < 1.0


def test_close_kills_a_bot_that_ignores_sigterm() -> None:
    with BotProcess(hostile("--ignore-sigterm"), name="immortal") as bot:
        bot.start()
        bot.request(hello(), 10.0)
        pid = bot.pid
        assert pid is not None
        t0 = time.perf_counter()
        assert bot.close(grace_s=0.1, term_s=0.1) == -signal.SIGKILL
        assert 0.2 <= time.perf_counter() - t0 < 1.0
        assert not alive(pid)


def test_close_kills_a_child_that_left_the_process_group() -> None:
    script = """
    import os, sys, time
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # invisible to the pipe scan: only the tree walk finds it
            os.dup2(null, fd)
        os.write(w, b"!")
        time.sleep(60)
        os._exit(0)
    os.read(r, 1)  # the child has left the group
    sys.stdin.readline()
    print(child, flush=True)
    sys.stdin.read()
    time.sleep(60)
    """
    with BotProcess(py(script), name="escapee") as bot:
        bot.start()
        child = int(bot.request("pid?", 5.0)[0])
        assert alive(child) and os.getpgid(child) != bot.pid
        bot.close(grace_s=0.05, term_s=0.1)
    assert wait_dead(child)


def test_close_kills_an_orphan_outside_the_group_that_holds_the_pipes() -> None:
    # Double fork: the grandchild starts a new session, its parent exits, so it
    # is neither in the bot's group nor under the bot. Only the /proc scan for
    # holders of the bot's pipes can find it.
    script = """
    import os, sys, time
    r, w = os.pipe()
    mid = os.fork()
    if mid == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            time.sleep(60)
            os._exit(0)
        os.write(w, b"%d" % grandchild)
        os._exit(0)
    os.waitpid(mid, 0)
    grandchild = int(os.read(r, 32))
    sys.stdin.readline()
    print(grandchild, flush=True)
    """
    with BotProcess(py(script), name="orphan") as bot:
        bot.start()
        grandchild = int(bot.request("pid?", 5.0)[0])
        assert alive(grandchild) and os.getsid(grandchild) != bot.pid
        t0 = time.perf_counter()
        assert bot.close(grace_s=0.5, term_s=0.5) == 0
        assert time.perf_counter() - t0 < 1.5
    assert wait_dead(grandchild)


def test_transcript_sees_both_directions() -> None:
    seen: list[tuple[str, str, float]] = []
    with BotProcess(py(ECHO), name="t", transcript=lambda d, l, t: seen.append((d, l, t))) as bot:
        bot.start()
        t0 = time.time()
        bot.send("abc")
        assert bot.request("de", 5.0)[0] == '{"echo": 4}'
        t1 = time.time()
    assert [(d, l) for d, l, _ in seen] == [("out", "abc"), ("out", "de"), ("in", '{"echo": 4}')]
    assert all(t0 <= t <= t1 for _, _, t in seen)


def test_many_bots_leak_no_descriptors_threads_or_processes(tmp_path: Path) -> None:
    fds, threads = open_fds(), threading.active_count()
    children = my_children()
    crash = "import sys\nsys.stdin.readline()\nsys.exit(2)\n"
    for i in range(30):
        script = crash if i % 3 == 0 else ECHO
        with BotProcess(py(script), name=f"b{i}", stderr_path=tmp_path / f"{i}.log") as bot:
            bot.start()
            try:
                bot.request("q", 5.0)
            except BotFault as fault:
                assert fault.kind is FaultKind.CRASH
            with pytest.raises(BotFault):
                BotProcess(f"missing-bot-{i}", name="x").start()
    assert open_fds() == fds
    assert threading.active_count() == threads
    assert my_children() == children


def test_late_answer_can_be_discarded_or_skipped() -> None:
    # Answers each line after a delay taken from the line itself (ms).
    script = """
    import sys, time
    for line in sys.stdin:
        time.sleep(int(line) / 1000)
        print("answer to %d" % int(line), flush=True)
    """
    with BotProcess(py(script), name="late") as bot:
        bot.start()
        with pytest.raises(BotFault) as info:
            bot.request("150", 0.05)
        assert info.value.kind is FaultKind.TIMEOUT
        # The late answer reaches the pipe 150 ms after the request (later on a loaded machine).
        discarded, deadline = 0, time.monotonic() + 10
        while discarded == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            discarded = bot.discard_pending()
        assert discarded == len("answer to 150\n")
        bot.check_unexpected()
        assert bot.request("0", 5.0)[0] == "answer to 0"

        # A late answer still on its way when the next request goes out is
        # read first; the runner recognises it (stale id) and reads again.
        with pytest.raises(BotFault):
            bot.request("100", 0.02)
        assert bot.discard_pending() == 0
        line, _ = bot.request("0", 5.0)
        assert line == "answer to 100"
        line, elapsed = bot.read_line(5.0)
        assert line == "answer to 0" and elapsed < 5.0
        with pytest.raises(BotFault) as info:
            bot.read_line(0.05)
        assert info.value.kind is FaultKind.TIMEOUT
