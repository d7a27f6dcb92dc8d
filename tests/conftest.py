"""Shared test helpers: repository paths and a leftover-process detector."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
HOSTILE = Path(__file__).resolve().parent / "bots" / "hostile_bot.py"
PY = sys.executable


def processes_with_marker(marker: str) -> list[int]:
    """Pids of live processes whose environment contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if marker.encode() in fh.read():
                    with open(f"/proc/{entry}/stat", "rb") as st:
                        if st.read().split(b") ", 1)[1][:1] == b"Z":
                            continue  # a zombie waiting for a parent that is not us
                    found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.fixture
def marker():
    """A unique environment marker; the test fails if any process carrying it survives."""
    value = f"SPADES_TEST_MARK_{uuid.uuid4().hex}"
    yield value
    deadline = time.time() + 3
    left = processes_with_marker(value)
    while left and time.time() < deadline:
        time.sleep(0.05)
        left = processes_with_marker(value)
    assert not left, f"processes left behind: {left}"
