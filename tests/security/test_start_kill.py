"""A referee SIGKILLed while a seat is still starting leaves nothing behind.

The window: the bot's process exists, but the referee has not yet finished its set-up
(:meth:`Confinement.attach`: bwrap's report, the rlimits, the go-ahead). A launch that
joined its seat's cgroup only in ``attach`` was outside every seat group in that window,
so the reaper, which kills what is in the seat groups of a dead referee, never saw it.
The launch now joins its group before it execs anything.
"""

from __future__ import annotations

import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from referee.seat.sandbox import BWRAP_ENV, detect
from conftest import PY, ROOT, processes_with_marker

pytestmark = pytest.mark.skipif(detect().cgroups is None, reason=f"needs seat cgroups: {detect().cgroup_problem}")

# A "referee" that starts one seat and is killed before it attaches it: the bot is a
# sleeper that would outlive it if it were outside the seat's cgroup.
_REFEREE = textwrap.dedent("""
    import os, select, signal, subprocess, sys
    from referee.seat.sandbox import Confinement, SandboxSpec
    conf = Confinement(SandboxSpec())
    assert conf.cgroup is None
    argv, fds = conf.command([sys.executable, "-c", "import time; time.sleep(600)"], None, os.environ)
    assert conf.cgroup is not None, "no seat cgroup was made"
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=fds)
    if conf.namespaces:
        # Wait until bwrap has built the sandbox and waits for the go-ahead.
        select.select([conf._info_r], [], [], 20)
    print(proc.pid, flush=True)
    signal.pause()
""")


@pytest.mark.parametrize("namespaces", [True, False], ids=["bwrap", "no-bwrap"])
def test_a_referee_killed_while_a_seat_starts_leaves_no_process(marker: str, namespaces: bool) -> None:
    """Without bwrap nothing but the reaper can end the orphaned bot, so that case fails
    if the launch is outside its seat group; with bwrap it is the same guarantee with the
    sandbox's own processes in between."""
    if namespaces and detect().bwrap is None:
        pytest.skip(f"needs bubblewrap: {detect().bwrap_problem}")
    env = {**os.environ, "PYTHONPATH": str(ROOT), marker: "1", **({} if namespaces else {BWRAP_ENV: ""})}
    referee = subprocess.Popen([PY, "-c", _REFEREE], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert referee.stdout is not None
        line = referee.stdout.readline()
        assert line.strip().isdigit(), f"the referee did not start its seat: {line!r}"
        seat_pid = int(line)
        # Without bwrap nothing waits for the referee: the shell joins and execs at once.
        deadline = time.monotonic() + 10
        cgroups = Path(f"/proc/{seat_pid}/cgroup").read_text()
        while "seat-" not in cgroups and time.monotonic() < deadline:
            time.sleep(0.05)
            cgroups = Path(f"/proc/{seat_pid}/cgroup").read_text()
        assert "seat-" in cgroups, f"the starting seat is outside its seat cgroup: {cgroups}"
        referee.send_signal(signal.SIGKILL)
        referee.wait(timeout=10)
    finally:
        if referee.poll() is None:
            referee.kill()
            referee.wait()
    deadline = time.monotonic() + 15
    while processes_with_marker(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    # (the marker fixture fails the test if any process survived)
