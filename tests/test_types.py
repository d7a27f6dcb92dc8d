"""The project's Python type-checks: mypy over ``referee/``, over the bundled bots in
``bots/`` (the strong bot, the heuristic and random bots, ``spadesbot.py`` and the
starter kits' builder) and over the benchmark scripts in ``bench/`` reports nothing.

The bench scripts import the bundled bots' own modules (``heuristic_bot``,
``spadesbot``) and a test helper (``synthetic_pool``) by the folders they put on
``sys.path``; mypy is told the same folders through ``MYPYPATH``
(``MYPYPATH=.:bots:tests/tournament mypy referee bench`` by hand, from the repository's root). Checking them catches a
script that still calls a function the package no longer has.

The house style is typed code (dataclasses, enums, hints on every public function);
this keeps it so. A ``# type: ignore`` that mypy no longer needs is an error too
(``--warn-unused-ignores``): a stale one would silence the next real error on its line. The check runs mypy with its cache in a
temporary folder so that the result never depends on an earlier run.

mypy runs in a child process, not through ``mypy.api`` in the test's own process: a run
over ``referee/`` leaves about 1.8 million objects alive and as many in reference cycles
in the process that ran it. In a pytest-xdist worker that made every later garbage
collection slow, and the collections pytest forces at the worker's shutdown took longer
than the 5 s xdist waits for a worker to finish, so it interrupted the worker and the run
ended with a ``KeyboardInterrupt`` traceback after its summary.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


#: The runs: the folders each checks, and the folders their modules import from by
#: ``sys.path`` (see above). ``referee/`` and ``bench/`` share a run because the bench
#: scripts import the referee: apart, mypy analysed the referee twice (43 s of CPU for the
#: three runs, 24 s so). ``bots/`` has its own: with ``bots`` on the search path for
#: bench, its modules would be found under two names (``strong.x`` and ``bots.strong.x``).
RUNS = {
    "referee+bench": (["referee", "bench"], [ROOT, ROOT / "bots", ROOT / "tests" / "tournament"]),
    "bots": (["bots"], []),
}


@pytest.mark.parametrize("run_name", sorted(RUNS))
def test_mypy_finds_no_error(run_name: str, tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    folders, search_path = RUNS[run_name]
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    if search_path:
        env["MYPYPATH"] = os.pathsep.join(str(p) for p in search_path)
    run = subprocess.run([sys.executable, "-m", "mypy", *(str(ROOT / f) for f in folders),
                          "--cache-dir", str(tmp_path / "cache"),
                          "--no-error-summary", "--show-error-codes", "--warn-unused-ignores"],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert run.returncode == 0, (f"mypy found type errors in {' and '.join(f + '/' for f in folders)} "
                                 f"(exit {run.returncode}):\n{run.stdout}{run.stderr}")
