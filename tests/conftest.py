"""Shared test helpers: repository paths and a leftover-process detector."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
import uuid
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
HOSTILE = Path(__file__).resolve().parent / "bots" / "hostile_bot.py"
PY = sys.executable


def load_bench(name: str) -> ModuleType:
    """Import ``bench/<name>.py`` (a script, not a package module) as ``<name>_bench``.

    The module is registered in ``sys.modules`` before it runs, because dataclasses look
    their defining module up there."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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


def _describe(pid: int) -> str:
    """A pid with its state and command line, to tell what survived."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            state = next((line.strip() for line in fh if line.startswith("State:")), "State: ?")
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")[:300]
        return f"{pid} {state} {cmd}"
    except OSError:
        return f"{pid} (gone)"


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
    assert not left, f"processes left behind: {[_describe(pid) for pid in left]}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    """In CI a skipped test is a failed one.

    Skips are for users' machines that lack a tool (tmux, a compiler, Chromium,
    bubblewrap). CI installs every tool first (``.ci/system-packages``), so a skip
    there means a promised feature went untested.
    """
    outcome = yield
    _fail_skip_in_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):  # type: ignore[no-untyped-def]
    """The same for a whole module skipped at import (``pytest.importorskip``, a module-level skip)."""
    outcome = yield
    _fail_skip_in_ci(outcome.get_result())


def _fail_skip_in_ci(report) -> None:  # type: ignore[no-untyped-def]
    if report.skipped and os.environ.get("CI") == "true" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which counts as a failure: {reason}"
