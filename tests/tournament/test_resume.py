"""Stopping and resuming: Ctrl-C, SIGKILL, torn lines, locks. No bot may outlive its referee."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from referee.tournament import integrity
from referee.tournament.config import load_config
from referee.tournament.formats import format_for
from referee.tournament.results import ReadReport, ResultsError, ResultsFolder

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable

# A bot that plays the first legal answer after a short pause, so matches last
# long enough to be caught running; it exits at end of input like any bot.
SLOW_BOT = """
import json, sys, time

def answer(msg):
    kind, hand = msg["type"], msg.get("state", {}).get("hand", [])
    if kind == "hello":
        return {}
    if kind in ("blind_nil", "keep"):
        return {kind: kind == "keep"}
    if kind in ("discard", "pass"):
        return {"cards": hand[:msg.get("count", 0)]}
    if kind == "bid":
        return {"bid": msg["legal"][min(3, len(msg["legal"]) - 1)]}
    return {"card": msg["legal"][0]}

for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        time.sleep(0.01)
        print(json.dumps({"id": msg["id"], **answer(msg)}), flush=True)
"""


def describe(pids: list[int]) -> list[str]:
    """Each pid with its state, cgroups and command line, to tell what survived and why."""
    out = []
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            state = next((line for line in status.splitlines() if line.startswith("State:")), "State: ?")
            groups = Path(f"/proc/{pid}/cgroup").read_text().replace("\n", " ")
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            out.append(f"{pid} {state} [{groups}] {cmd}")
        except OSError:
            out.append(f"{pid} (gone)")
    return out


def marked_processes(marker: str) -> list[int]:
    """Pids of live processes whose command line holds ``marker`` (a /proc scan)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry))
    return found


def wait_until(predicate, timeout: float, step: float = 0.05) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def line_count(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.fixture
def slow_tournament(tmp_path: Path) -> tuple[Path, str]:
    marker = f"spades-test-marker-{uuid.uuid4().hex}"
    (tmp_path / "slow_bot.py").write_text(SLOW_BOT)
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"""
variant: partnership
matches_per_pairing: 4
concurrency: 2
rules: {{target: 150, max_hands: 2}}
output: out
bots:
  - {{name: one, command: [{PY}, slow_bot.py, {marker}]}}
  - {{name: two, command: [{PY}, slow_bot.py, {marker}]}}
""")
    return cfg, marker


def start(cfg: Path, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(tmp_path / "stdout.txt", "wb") as out, open(tmp_path / "stderr.txt", "wb") as err:
        return subprocess.Popen([PY, "-m", "referee.cli", "run", str(cfg)], cwd=tmp_path, env=env, stdout=out,
                                stderr=err)


def interrupt(cfg: Path, tmp_path: Path, marker: str, sig: signal.Signals, wait_s: float) -> int:
    """Start ``spades run``, send ``sig`` once a match is done and another is running; its exit code."""
    proc = start(cfg, tmp_path)
    matches = tmp_path / "out" / "matches.jsonl"
    try:
        # The next match's bots may still be starting (in their sandbox) just as a
        # record lands, so wait for both together.
        assert wait_until(lambda: line_count(matches) >= 1 and bool(marked_processes(marker)), 30), \
            "expected a match finished and matches running at the signal"
        proc.send_signal(sig)
        return proc.wait(timeout=wait_s)
    finally:
        if proc.poll() is None:
            proc.kill()


def finish_and_check(cfg: Path, tmp_path: Path) -> str:
    """Run again to the end; every scheduled match exactly once."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([PY, "-m", "referee.cli", "run", str(cfg)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["match"] for line in (tmp_path / "out" / "matches.jsonl").read_text().splitlines()]
    assert sorted(ids) == sorted(m.match_id for m in format_for(load_config(cfg)).next_matches({}))  # none missing, none twice
    return done.stderr


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(slow_tournament: tuple[Path, str],
                                                           tmp_path: Path) -> None:
    cfg, marker = slow_tournament
    matches = tmp_path / "out" / "matches.jsonl"
    code = interrupt(cfg, tmp_path, marker, signal.SIGINT, 20)
    err = (tmp_path / "stderr.txt").read_text()
    assert code == 130, err
    assert "Interrupted:" in err
    assert f"Run `spades run {cfg}` to play the other" in err and "every bot process has been ended" in err
    assert marked_processes(marker) == []  # immediately: the referee waited for its bots
    finished = line_count(matches)
    assert 1 <= finished < 4
    assert all(json.loads(line)["reason"] != "forfeit" for line in matches.read_text().splitlines())
    finish_and_check(cfg, tmp_path)


def test_after_sigkill_bots_exit_and_a_torn_line_is_repaired(slow_tournament: tuple[Path, str],
                                                              tmp_path: Path) -> None:
    cfg, marker = slow_tournament
    matches = tmp_path / "out" / "matches.jsonl"
    interrupt(cfg, tmp_path, marker, signal.SIGKILL, 10)
    # Orphaned bots read end-of-file on stdin and exit by themselves (a frozen one is thawed
    # and killed by the referee's reaper).
    # 30 s: under a loaded CI a frozen seat is thawed and killed by the reaper, which must be scheduled.
    assert wait_until(lambda: not marked_processes(marker), 30), describe(marked_processes(marker))
    # Simulate the worst case of a kill in the middle of appending a record.
    with open(matches, "ab") as fh:
        fh.write(b'{"match": "001-one-two-2b", "variant": "partn')
    before = line_count(matches)
    err = finish_and_check(cfg, tmp_path)
    assert "Repaired" in err and "torn last line" in err
    assert (tmp_path / "out" / "matches.jsonl.torn").read_bytes().startswith(b'{"match": "001-one-two-2b"')
    assert line_count(matches) == 4 and before < 4


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_reading_skips_torn_bad_and_repeated_lines(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path)
    secret = folder.secret(create=True)
    assert secret is not None

    def signed(record: dict) -> bytes:
        return (json.dumps(integrity.sign(secret, record)) + "\n").encode()

    good = signed({"match": "m1", "x": 1})
    write(folder.matches_path, good + b"not json\n" + signed({"match": "m2"}) + signed({"match": "m1", "x": 2})
          + b"[1, 2]\n" + b'{"match": "m3", "trunc')
    report = ReadReport()
    warnings: list[str] = []
    got = list(folder.iter_records(report, warn=warnings.append))
    assert [r["match"] for r in got] == ["m1", "m2"] and got[0]["x"] == 1  # the first of a repeated id counts
    assert report.bad_lines == [2, 5] and report.duplicates == ["m1"]
    assert report.torn_bytes == len(b'{"match": "m3", "trunc')
    assert len(warnings) == 4 and "torn last line" in warnings[-1]


def test_repair_cuts_only_the_torn_tail_and_keeps_it(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path)
    body = b"".join(b'{"match": "m%d"}\n' % i for i in range(3000))  # bigger than one backwards block
    write(folder.matches_path, body + b'{"match": "to')
    assert folder.repair() == len(b'{"match": "to')
    assert folder.matches_path.read_bytes() == body
    assert (tmp_path / "matches.jsonl.torn").read_bytes() == b'{"match": "to\n'
    assert folder.repair() == 0  # idempotent
    write(folder.matches_path, b'{"match": "only-torn')
    assert folder.repair() == len(b'{"match": "only-torn') and folder.matches_path.read_bytes() == b""


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    first, second = ResultsFolder(tmp_path), ResultsFolder(tmp_path)
    first.lock()
    try:
        with pytest.raises(ResultsError, match=rf"another `spades run` \(pid {os.getpid()}\) is using"):
            second.lock()
    finally:
        first.unlock()
    second.lock()  # free again
    second.unlock()


def test_a_foreign_folder_is_never_adopted_or_moved(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine\n")
    (tmp_path / "bot.py").write_text("")
    cfg = tmp_path / "t.yaml"
    cfg.write_text("variant: two-player\noutput: out\nbots:\n  - {name: a, command: python3 bot.py}\n"
                   "  - {name: b, command: python3 bot.py}\n")
    for fresh in (False, True):
        with pytest.raises(ResultsError, match="is not empty and holds no tournament results"):
            ResultsFolder(tmp_path / "out").prepare(load_config(cfg), fresh=fresh)
    assert (tmp_path / "out" / "notes.txt").read_text() == "mine\n"
