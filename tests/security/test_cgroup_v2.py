"""The cgroup v2 backend, for real: the freezer, the sure kill, the CPU clock, the reaper, the record.

The v2 backend is forced with ``$SPADES_CGROUP=v2`` (the default here may be
v1 on a hybrid machine, which has both). These tests need a writable v2
hierarchy with ``cgroup.freeze`` (root, or a delegated subtree); they skip
elsewhere. Memory and process limits need the v2 ``memory``/``pids``
controllers, which a hybrid machine keeps in v1: where they are missing the
record must say that those limits were not enforced.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import time
from pathlib import Path

import pytest

from referee.game.rules import Rules
from referee.seat.cgroup_v2 import V2Roots, v2_roots
from referee.seat.cgroups import CGROUP_ENV
from referee.seat.clock import TimeControl
from referee.seat.limits import SeatLimits
from referee.seat.sandbox import BWRAP_ENV, SandboxSpec, detect
from conftest import BOTS, PY, ROOT, processes_with_marker

from test_attacks import ATTACKS, assert_clean, play

_ROOTS, _PROBLEM = v2_roots()
pytestmark = pytest.mark.skipif(_ROOTS is None or detect().bwrap is None,
                                reason=f"needs a writable cgroup v2 hierarchy and bubblewrap: {_PROBLEM}")


@pytest.fixture
def v2(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The v2 backend, for this test only (``detect`` is cached per process)."""
    monkeypatch.setenv(CGROUP_ENV, "v2")
    detect.cache_clear()
    assert detect().cgroups is not None and detect().cgroups.version == 2
    yield detect().cgroups
    monkeypatch.delenv(CGROUP_ENV)
    detect.cache_clear()


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_a_v2_seat_freezes_counts_cpu_and_kills_everything(v2: V2Roots, marker: str) -> None:
    """A spinning process in a v2 seat group: its CPU shows in cpu.stat; frozen, it gets no CPU
    (and cgroup.events says frozen); thawed it runs again; kill leaves nothing, frozen or not."""
    seat = v2.new_seat(SeatLimits())
    procs = []
    try:
        for _ in range(2):
            proc = subprocess.Popen([PY, "-c", "while True: pass"], env={**os.environ, marker: "1"})
            seat.add(proc.pid)
            procs.append(proc)
        assert sorted(seat.pids()) == sorted(p.pid for p in procs)
        time.sleep(0.5)
        assert seat.cpu_seconds() > 0.05
        seat.freeze()
        deadline = time.monotonic() + 5
        while "frozen 1" not in (seat.dir / "cgroup.events").read_text() and time.monotonic() < deadline:
            time.sleep(0.01)  # each task stops when it next runs
        assert "frozen 1" in (seat.dir / "cgroup.events").read_text()
        before = [_cpu_ticks(p.pid) for p in procs]
        cpu_before = seat.cpu_seconds()
        time.sleep(0.5)
        assert [_cpu_ticks(p.pid) for p in procs] == before
        assert seat.cpu_seconds() == pytest.approx(cpu_before, abs=0.01)
        seat.thaw()
        assert "frozen 0" in (seat.dir / "cgroup.events").read_text()
        time.sleep(0.3)
        assert seat.cpu_seconds() > cpu_before + 0.05
        seat.freeze()  # killed while frozen: cgroup.kill needs no thaw
        seat.kill()
        for proc in procs:
            assert proc.wait(timeout=5) == -signal.SIGKILL
        assert seat.pids() == []
    finally:
        for proc in procs:
            proc.kill()
        seat.kill()
        seat.remove()
    assert not seat.dir.exists()


def _gaps(stderr: str) -> list[int]:
    """How far the bot's child counted between one answer and the next request."""
    counts = [tuple(map(int, line.split()[1:])) for line in stderr.splitlines() if line.startswith("COUNT ")]
    assert len(counts) > 10, stderr[-2000:]
    # On turn the child counts (a loaded machine may not run it within every 20 ms, so: mostly).
    assert sum(end > start for start, end in counts) > len(counts) / 2, counts
    return [counts[i + 1][0] - counts[i][1] for i in range(len(counts) - 1)]


def test_under_v2_a_seat_not_on_turn_makes_no_progress(tmp_path: Path, marker: str, v2: V2Roots) -> None:
    """The counting child stands still between an answer and the next request; with ``ponder``
    (the control, so the test can fail) it counts on while the opponent (150 ms of CPU a move) thinks.

    Frozen, the child still runs in the instants between the bot's answer and the freeze, and
    between the thaw and the bot's read of the count: on a loaded machine a few milliseconds of
    scheduling, whatever the opponent's thinking time. Pondering, it counts through all of it."""
    opponent = [PY, str(ATTACKS / "fair.py")]
    rules = Rules(target=100, max_hands=1)
    clock = TimeControl(3000, 10000, 10000)
    record, stderr = play(tmp_path / "freeze", marker, "counter", opponent=opponent, rules=rules, time=clock)
    assert_clean(record, stderr)
    assert record.to_dict()["sandbox"][0]["fair_clock"] == "freeze"
    frozen = _gaps(stderr)
    record, stderr = play(tmp_path / "ponder", marker, "counter", opponent=opponent, rules=rules, time=clock,
                          sandbox=SandboxSpec(ponder=True))
    assert_clean(record, stderr)
    pondering = _gaps(stderr)
    assert statistics.median(frozen) * 5 < statistics.median(pondering), (frozen, pondering)


def test_under_v2_the_cpu_clock_and_freezer_beat_spinning_children(tmp_path: Path, marker: str,
                                                                   v2: V2Roots) -> None:
    """The spinning-children attack under v2: the fair bot (150 ms CPU of 300 ms) never loses on
    time, and it is charged its CPU time (cpu.stat), not wall time."""
    fair = [PY, str(ATTACKS / "fair.py")]
    record, stderr = play(tmp_path, marker, "spinner", opponent=fair, time=TimeControl(300, 0, 10000),
                          sandbox=SandboxSpec(cpu_clock=True), rules=Rules(target=100, max_hands=1))
    assert_clean(record, stderr)
    assert record.stats[1]["decisions"] > 10 and 150 <= record.stats[1]["mean_ms"] < 300
    seat = record.to_dict()["sandbox"][1]
    assert seat["fair_clock"] == "freeze+cpu" and seat["cgroup_version"] == 2


def test_the_v2_record_says_what_was_not_enforced(tmp_path: Path, marker: str, v2: V2Roots) -> None:
    """Without the v2 memory/pids controllers (a hybrid machine keeps them in v1) the record names
    the limits not enforced and the warning; the freezer, kill and CPU clock are in force."""
    record, _ = play(tmp_path, marker, "escapee")
    seat = record.to_dict()["sandbox"][0]
    assert seat["cgroup_version"] == 2 and seat["fair_clock"] == "freeze"
    assert seat["cgroup"] == list(v2.controllers) and {"freeze", "cpu"} <= set(seat["cgroup"])
    assert ("kill" in seat["cgroup"]) == (v2.root / "cgroup.kill").exists()
    missing = [c for c in ("memory", "pids") if c not in v2.limit_controllers]
    assert seat["not_enforced"] == [k for c, k in (("memory", "memory_mb"), ("pids", "processes")) if c in missing]
    if missing:
        assert any("limits not enforced" in w and "freezer, the sure kill and the CPU clock are in force" in w
                   for w in seat["warnings"]), seat["warnings"]
    else:
        assert seat["warnings"] == []


@pytest.mark.parametrize("namespaces", [True, False])
def test_after_sigkill_the_reaper_kills_frozen_v2_seats(tmp_path: Path, marker: str, namespaces: bool) -> None:
    """``spades match`` under v2 is SIGKILLed mid-match while a seat is frozen. A frozen bot cannot
    see its stdin close; without bwrap (forced off) only the reaper (cgroup.kill) ends it; with bwrap
    the kernel's kill of bwrap (--die-with-parent) also does, as v2 lets a frozen task die. Either
    way nothing survives, and the reaper removes the seat groups (which fails without it)."""
    bot = f"{PY} {ATTACKS / 'sleepy.py'}"
    proc = subprocess.Popen(
        [PY, "-m", "referee.cli", "match", "--variant", "two-player", "--bot", bot, "--bot", bot,
         "--target", "500", "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), marker: "1", CGROUP_ENV: "v2",
             **({} if namespaces else {BWRAP_ENV: ""})})
    assert _ROOTS is not None
    try:
        deadline = time.monotonic() + 30
        groups: list[Path] = []
        while time.monotonic() < deadline and len(groups) < 2:
            time.sleep(0.2)
            groups = list(_ROOTS.root.glob(f"seat-{proc.pid}-*"))
        assert len(groups) == 2, "the match did not start its two seats in v2 groups"
        # Poll rather than look once: a freeze takes effect when each task next runs, and on a
        # loaded machine (CI runs this beside other tests) one look can fall between two decisions.
        deadline = time.monotonic() + 20
        frozen = False
        while time.monotonic() < deadline and not frozen:
            time.sleep(0.05)
            frozen = any("frozen 1" in (g / "cgroup.events").read_text() for g in groups)
        assert frozen, "no seat was frozen within 20 s"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and (processes_with_marker(marker)
                                           or list(_ROOTS.root.glob(f"seat-{proc.pid}-*"))):
        time.sleep(0.1)
    assert list(_ROOTS.root.glob(f"seat-{proc.pid}-*")) == []
    # (the marker fixture fails the test if any bot process survived)


def test_spades_cgroup_none_and_a_bad_value_are_recorded_and_warned() -> None:
    """``$SPADES_CGROUP=none`` (and a misspelt value) run without cgroups, loudly, and the record says so."""
    bot = f"{PY} {BOTS / 'random_bot.py'}"
    for value, words in (("none", "no cgroups ($SPADES_CGROUP=none)"), ("v3", "got: 'v3'")):
        done = subprocess.run([PY, "-m", "referee.cli", "match", "--variant", "two-player", "--bot", bot, "--bot", bot,
                               "--target", "50", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT), CGROUP_ENV: value})
        assert done.returncode == 0, done.stderr
        assert f"WARNING: sandbox: " in done.stderr and words in done.stderr, done.stderr
        seat = json.loads(done.stdout)["sandbox"][0]
        assert seat["cgroup"] == [] and seat["cgroup_version"] is None and seat["fair_clock"] == "none"
        assert seat["not_enforced"] == ["memory_mb", "processes"]
