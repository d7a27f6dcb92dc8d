"""The rules engine does no I/O: importing it pulls in no process, file, network or CLI module."""

from __future__ import annotations

import json
import subprocess
import sys

ENGINE_MODULES = ["referee.cards", "referee.rules", "referee.deals", "referee.engine", "referee.scoring",
                  "referee.view", "referee.outcomes"]
FORBIDDEN = ["subprocess", "socket", "select", "selectors", "threading", "asyncio", "click", "yaml", "tabulate",
             "jsonschema", "referee.botprocess", "referee.match", "referee.protocol", "referee.cli", "shutil",
             "tempfile", "pathlib"]


def test_engine_imports_nothing_that_does_io():
    code = (
        "import sys, json\n"
        f"before = set(sys.modules)\n"
        f"for m in {ENGINE_MODULES!r}: __import__(m)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True,
                         cwd=__import__("conftest").ROOT)
    loaded = set(json.loads(out.stdout))
    assert not loaded & set(FORBIDDEN), sorted(loaded & set(FORBIDDEN))
    assert "referee.engine" in loaded
