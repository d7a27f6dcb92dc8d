"""`spades report`: what the page holds, from the same data as `spades standings`."""

from __future__ import annotations

import html

import re
import shutil
from pathlib import Path

from click.testing import CliRunner
from pages_support import record_of, results  # noqa: F401 (results: a fixture)

from referee.cli.main import cli
from referee.tournament.results import ResultsFolder, standings_from_folder
from referee.tournament.standings import tables


def run(args: list[str], code: int = 0) -> tuple[str, str]:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.stdout, result.stderr


def test_the_report_holds_every_standings_table_and_the_faults(results: Path, tmp_path: Path) -> None:
    folder = tmp_path / "r"
    shutil.copytree(results, folder)
    out, _ = run(["report", str(folder)])
    assert out.strip() == f"Report written to {folder / 'report.html'}"
    page = (folder / "report.html").read_text(encoding="utf-8")
    for i, (title, (head, rows)) in enumerate(tables(standings_from_folder(ResultsFolder(folder)))):
        assert f'id="table-{i}"' in page and f"<h2>{title}</h2>" in page
        for row in rows:
            assert "<tr>" + "".join(f"<td>{html.escape(c, quote=False)}</td>" for c in row) + "</tr>" in page
    # One dot per match in the margins chart, one fault of beta (seat 1 of ff) in the faults table.
    assert len(re.findall(r'<circle class="dot ', page)) == 4
    assert re.search(r"<tr><td>beta</td><td>1</td><td><b>1</b></td></tr>", page)
    assert "src=" not in page and "https://" not in page


def test_a_match_without_transcript_gets_no_replay_and_loses_nothing(results: Path, tmp_path: Path) -> None:
    folder = tmp_path / "r"
    shutil.copytree(results, folder)
    (folder / "logs" / "t3.jsonl").unlink()
    out, err = run(["report", str(folder), "--replays"])
    assert "3 replay page(s) written" in out
    assert "warning: no replay for t3: no transcript at" in err
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert 'href="replays/p7.html"' in page and 'href="replays/t3.html"' not in page
    assert record_of(folder, "t3").score == record_of(results, "t3").score
