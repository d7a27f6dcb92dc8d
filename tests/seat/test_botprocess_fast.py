"""BotProcess's fast paths: batched writes, non-waiting writes, overlapped requests, sessions."""

from __future__ import annotations

import json
import os
import select
import sys
import textwrap
import time

import pytest

from referee.seat.botprocess import BotProcess
from referee.seat.faults import BotFault, FaultKind

# Reports what each read of stdin returned: {"reads": [n_lines, ...]} per request line "?".
COUNTER = """
import os, sys
chunks = []
buf = b""
while True:
    data = os.read(0, 1 << 16)
    if not data:
        break
    buf += data
    chunks.append(data.count(b"\\n"))
    if buf.endswith(b"?\\n"):
        sys.stdout.write('{"reads": %s}\\n' % chunks)
        sys.stdout.flush()
        chunks = []
        buf = b""
"""

# Reads nothing until told (by a file appearing), then echoes line lengths.
STALLED = """
import os, sys, time
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
for line in sys.stdin:
    sys.stdout.write('{"len": %d}\\n' % len(line))
    sys.stdout.flush()
"""

# Prints its session id and process group id, then waits for EOF.
IDS = """
import os, sys
print(os.getsid(0), os.getpgid(0), flush=True)
sys.stdin.read()
"""


def py(script: str, *args: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(script), *args]


def test_send_lines_is_one_write_and_each_line_is_transcribed(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str]] = []
    with BotProcess(py(COUNTER), name="c", transcript=lambda d, line, t: seen.append((d, line))) as bot:
        bot.start()
        writes: list[bytes] = []
        real_write = os.write

        def counting(fd: int, data: bytes) -> int:
            writes.append(bytes(data))
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", counting)
        bot.send_lines(["a", "b", "c"])
        monkeypatch.setattr(os, "write", real_write)
        assert writes == [b"a\nb\nc\n"]
        answer, _ = bot.request("?", 5.0)
        # The bot got the three lines together (the request may or may not share the read).
        reads = json.loads(answer)["reads"]
        assert reads[0] >= 3 and sum(reads) == 4
    assert seen[:3] == [("out", "a"), ("out", "b"), ("out", "c")]


def test_send_lines_refuses_a_line_with_a_newline() -> None:
    with BotProcess(py(COUNTER), name="c") as bot:
        bot.start()
        with pytest.raises(ValueError, match="newline"):
            bot.send_lines(["ok", "bad\nline"])
        with pytest.raises(ValueError, match="newline"):
            bot.try_send_lines(["bad\n"])


def test_try_send_lines_writes_all_or_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    go = tmp_path / "go"
    seen: list[str] = []
    with BotProcess(py(STALLED, str(go)), name="s", transcript=lambda d, line, t: seen.append(line)) as bot:
        bot.start()
        # Too big for one atomic pipe write: refused without writing anything.
        assert bot.try_send_lines(["x" * select.PIPE_BUF]) is False
        assert seen == []
        # Fill the pipe (the bot is not reading yet) until a batch no longer fits.
        batch = ["y" * 999] * 2  # 2000 bytes with the newlines
        sent = 0
        while bot.try_send_lines(batch):
            sent += 1
            assert sent < 10_000, "the pipe never filled up"
        assert sent >= 1 and len(seen) == 2 * sent  # a refused batch is not in the transcript
        go.touch()
        # Every accepted batch arrives whole, and nothing of the refused one does.
        for _ in range(2 * sent):
            assert bot.read_line(5.0)[0] == '{"len": 1000}'
        assert bot.request("z", 5.0)[0] == '{"len": 2}'


def test_try_send_lines_to_a_dead_bot_is_a_crash() -> None:
    with BotProcess(py("import sys\nsys.exit(3)\n"), name="d") as bot:
        bot.start()
        deadline = time.monotonic() + 5
        while bot.returncode is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(BotFault) as info:
            bot.try_send_lines(["a"])
        assert info.value.kind is FaultKind.CRASH
        assert str(info.value) == "exited with code 3"


def test_request_overlapped_runs_meanwhile_between_write_and_read() -> None:
    order: list[str] = []
    with BotProcess(py(COUNTER), name="c", transcript=lambda d, line, t: order.append(f"{d}:{line}")) as bot:
        bot.start()

        def meanwhile() -> None:
            order.append("meanwhile")

        answer, elapsed = bot.request_overlapped("?", 5.0, meanwhile)
        assert answer == '{"reads": [1]}' and 0 < elapsed < 5.0
    assert order == ["out:?", "meanwhile", 'in:{"reads": [1]}']


def test_request_overlapped_lets_meanwhile_errors_through() -> None:
    class Stop(Exception):
        pass

    def meanwhile() -> None:
        raise Stop

    with BotProcess(py(COUNTER), name="c") as bot:
        bot.start()
        with pytest.raises(Stop):
            bot.request_overlapped("?", 5.0, meanwhile)
        # The answer of that request was not read: it is unexpected output now.
        deadline = time.monotonic() + 5.0
        with pytest.raises(BotFault) as info:
            while time.monotonic() < deadline:
                bot.check_unexpected()
                time.sleep(0.005)
        assert info.value.kind is FaultKind.UNEXPECTED


@pytest.mark.parametrize("new_session", [False, True])
def test_bot_leads_its_own_group_and_a_session_only_when_asked(new_session: bool) -> None:
    with BotProcess(py(IDS), name="ids", new_session=new_session) as bot:
        bot.start()
        sid, pgid = map(int, bot.read_line(5.0)[0].split())
        assert pgid == bot.pid  # always a group of its own: close() signals it whole
        if new_session:
            assert sid == bot.pid
        else:
            assert sid == os.getsid(0)  # the referee's session (one scheduler autogroup)
