"""`spades run` writes the tournament report and prints its path, unless `--no-report`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([PY, "-m", "referee.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("no_report", [False, True])
def test_run_writes_the_report_unless_told_not_to(tmp_path: Path, no_report: bool) -> None:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"""
variant: two-player
matches_per_pairing: 2
rules: {{target: 60}}
output: out
bots:
  - {{name: h, command: [{PY}, {ROOT}/bots/heuristic_bot.py]}}
  - {{name: r, command: [{PY}, {ROOT}/bots/random_bot.py]}}
""")
    run = spades("run", str(cfg), *(["--no-report"] if no_report else []))
    assert run.returncode == 0, run.stderr
    report = tmp_path / "out" / "report.html"
    if no_report:
        assert not report.exists() and "Report:" not in run.stderr
        return
    last = run.stderr.splitlines()[-1]
    assert last.startswith("Report: ") and "report.html" in last
    text = report.read_text(encoding="utf-8")
    assert "<table" in text and "spades replay RESULTS MATCH" in text  # replays on demand
    # `spades replay` then makes the report's link work: the page links back to the report.
    match_id = json.loads((tmp_path / "out" / "matches.jsonl").read_text().splitlines()[0])["match"]
    out = spades("replay", str(tmp_path / "out"), match_id)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "out" / "replays" / f"{match_id}.html").read_text(encoding="utf-8")
    assert '"back":"../report.html"' in page
