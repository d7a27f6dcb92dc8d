"""`spades run` writes the tournament report and prints its path, unless `--no-report`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tournament import spades, tiny


@pytest.mark.parametrize("no_report", [False, True])
def test_run_writes_the_report_unless_told_not_to(tmp_path: Path, no_report: bool) -> None:
    cfg = tiny(tmp_path)
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
