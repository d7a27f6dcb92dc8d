"""The human adapter started as a background process group of a terminal's session.

Bots share the referee's session (each in a process group of its own). A
human adapter that a tournament config starts without ``--tty`` must then say
that it needs one, as it does with no terminal at all, instead of opening the
referee's terminal and being stopped (SIGTTIN) by its first read.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Becomes a session leader with the pty as controlling terminal (and its group
# in the foreground), then runs the adapter in a background process group the
# way BotProcess starts bots; prints the adapter's exit code and stderr.
LAUNCHER = textwrap.dedent("""
    import os, subprocess, sys
    assert os.getsid(0) == os.getpid()  # started with start_new_session: a session leader
    tty = os.open(sys.argv[1], os.O_RDWR)  # a session leader's first terminal becomes its controlling one
    assert os.tcgetpgrp(tty) == os.getpgrp()
    try:
        done = subprocess.run([sys.executable, "-m", "referee.human", *sys.argv[2:]], input=b"",
                              capture_output=True, process_group=0, timeout=20)
    except subprocess.TimeoutExpired:
        print("TIMEOUT")
    else:
        print(done.returncode)
        sys.stdout.write(done.stderr.decode())
""")


def run_in_background_of_a_terminal(*args: str) -> str:
    master, slave = os.openpty()
    try:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, os.ttyname(slave), *args], capture_output=True,
                              cwd=ROOT, timeout=60, start_new_session=True)
    finally:
        os.close(master)
        os.close(slave)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def test_background_adapter_without_tty_asks_for_one() -> None:
    out = run_in_background_of_a_terminal()
    code, _, err = out.partition("\n")
    assert code == "2", out
    assert "no controlling terminal" in err and "--tty" in err


def test_background_adapter_may_still_use_a_named_terminal(tmp_path: Path) -> None:
    # With --tty (here a second pty) it starts and, at end of input, ends normally.
    master, slave = os.openpty()
    try:
        out = run_in_background_of_a_terminal("--tty", os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert out.split("\n", 1)[0] == "0", out
