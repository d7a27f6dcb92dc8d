"""The project's Python type-checks: mypy over ``referee/`` and over the bundled bots in
``bots/`` (the strong bot, the heuristic and random bots, ``spadesbot.py`` and the
starter kits' builder) reports nothing.

The house style is typed code (dataclasses, enums, hints on every public function);
this keeps it so. The check runs mypy's own API in-process, with its cache in a
temporary folder so that the result never depends on an earlier run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("folder", ["referee", "bots"])
def test_mypy_finds_no_error(folder: str, tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e '.[test]')")
    out, err, status = api.run([str(ROOT / folder), "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary", "--show-error-codes"])
    assert status == 0, f"mypy found type errors in {folder}/:\n{out}{err}"
