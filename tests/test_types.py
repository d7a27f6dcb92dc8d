"""The project's Python type-checks: mypy over ``referee/``, over the bundled bots in
``bots/`` (the strong bot, the heuristic and random bots, ``spadesbot.py`` and the
starter kits' builder) and over the benchmark scripts in ``bench/`` reports nothing.

The bench scripts import the bundled bots' own modules (``heuristic_bot``,
``spadesbot``) and a test helper (``synthetic_pool``) by the folders they put on
``sys.path``; mypy is told the same folders through ``MYPYPATH``
(``MYPYPATH=.:bots:tests/tournament mypy bench/`` by hand, from the repository's root). Checking them catches a
script that still calls a function the package no longer has.

The house style is typed code (dataclasses, enums, hints on every public function);
this keeps it so. A ``# type: ignore`` that mypy no longer needs is an error too
(``--warn-unused-ignores``): a stale one would silence the next real error on its line. The check runs mypy's own API in-process, with its cache in a
temporary folder so that the result never depends on an earlier run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


#: The folders each checked folder's modules import from by ``sys.path`` (see above).
SEARCH_PATH = {"bench": [ROOT, ROOT / "bots", ROOT / "tests" / "tournament"]}


@pytest.mark.parametrize("folder", ["referee", "bots", "bench"])
def test_mypy_finds_no_error(folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e '.[test]')")
    if folder in SEARCH_PATH:
        monkeypatch.setenv("MYPYPATH", os.pathsep.join(str(p) for p in SEARCH_PATH[folder]))
    out, err, status = api.run([str(ROOT / folder), "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary", "--show-error-codes", "--warn-unused-ignores"])
    assert status == 0, f"mypy found type errors in {folder}/:\n{out}{err}"
