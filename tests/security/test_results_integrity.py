"""Results only the referee writes: every record is signed, and reading refuses what is not.

The forger bot (tests/bots/attacks/forger_records.py) runs without a sandbox
and appends forged records straight to ``matches.jsonl``: one for its own
match, one for the next match of its pairing, one for a match nobody
scheduled. Only the records' integrity checks stand in its way.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from conftest import BOTS, PY, ROOT
from referee.tournament import integrity
from referee.tournament.results import FORGED, ReadReport, ResultsFolder

FORGER = [PY, str(ROOT / "tests" / "bots" / "attacks" / "forger_records.py")]


def spades(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def forger_config(tmp_path: Path) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(f"""
name: forged
variant: two-player
seed: 5
matches_per_pairing: 2
concurrency: 1
rules: {{max_hands: 2}}
output: out
sandbox: none  # the forger must reach the results folder: the check alone has to stop it
bots:
  - {{name: forger, command: {json.dumps(FORGER)}, env: {{FORGE_RESULTS: "{tmp_path / 'out'}"}}}}
  - {{name: heuristic, command: [{PY}, {BOTS / 'heuristic_bot.py'}]}}
""")
    return path


def lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "matches.jsonl").read_text().splitlines()]


def test_forged_records_are_refused_by_line_and_the_real_ones_count(tmp_path: Path) -> None:
    cfg = forger_config(tmp_path)
    run = spades("run", str(cfg), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out"
    all_lines = lines(out)
    forged = [n for n, r in enumerate(all_lines, 1) if r["check"] == "hmac-sha256:" + "0" * 64]
    real = [r for r in all_lines if r["check"] != "hmac-sha256:" + "0" * 64]
    assert len(forged) == 6 and len(real) == 2  # three forgeries at each match's hello, two real records
    standings = spades("standings", str(out), "--format", "json")
    # The tables print, but the exit status tells a script that records were left out.
    assert standings.returncode == 1, standings.stderr
    assert standings.stderr.rstrip().endswith("6 record(s) refused (see above): the standings leave them out")
    for n in forged:
        assert f"matches.jsonl:{n}: refused: {FORGED}" in standings.stderr, standings.stderr
    assert "refused" not in "".join(line for line in standings.stderr.splitlines()
                                    if any(f"matches.jsonl:{n}:" in line for n in range(1, 99) if n not in forged))
    report = json.loads(standings.stdout)
    assert report["matches"] == 2
    # The real records count, whatever the forgeries said (each claimed a 500-0 win for the forger).
    wins = {row["bot"]: row["wins"] for row in report["bots"]}
    real_wins = {"forger": 0, "heuristic": 0}
    for r in real:
        if r["winner"] is not None:
            real_wins[r["bots"][r["winner"]]] += 1
    assert wins == real_wins
    # The operator's `spades deal` reads through the same checks: a forged record is never dealt.
    deal = spades("deal", str(out), "999-unscheduled-1")
    assert deal.returncode == 2 and "no good record of match '999-unscheduled-1'" in deal.stderr
    assert f"refused: {FORGED}" in deal.stderr
    assert spades("deal", str(out), real[0]["match"]).returncode == 0

    # Resume: as if the run had stopped before the last real record was written.
    kept = [line for line in (out / "matches.jsonl").read_text().splitlines(keepends=True)
            if json.loads(line) != real[-1]]
    (out / "matches.jsonl").write_text("".join(kept))
    again = spades("run", str(cfg), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "1 of 2 matches already played, 1 to go" in again.stderr, again.stderr
    refused = [line for line in again.stderr.splitlines() if ": refused: " in line]
    assert refused and all(FORGED in line for line in refused)
    assert len(refused) == len(set(refused))  # said once, not again by the final standings
    final = [r for r in lines(out) if r["check"] != "hmac-sha256:" + "0" * 64]
    assert [r["match"] for r in final] == [r["match"] for r in real]


def test_a_changed_record_fails_its_check(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path)
    folder.append_record({"match": "m1", "score": [100, 20], "winner": 0})
    folder.append_record({"match": "m2", "score": [10, 20], "winner": 1})
    assert stat.S_IMODE(folder.secret_path.stat().st_mode) == 0o600
    text = folder.matches_path.read_text().replace('"score":[100,20]', '"score":[10,200]')
    folder.matches_path.write_text(text)
    warnings: list[str] = []
    report = ReadReport()
    got = list(ResultsFolder(tmp_path).iter_records(report, warn=warnings.append))
    assert [r["match"] for r in got] == ["m2"] and report.refused == [1]
    assert warnings == [f"{folder.matches_path}:1: refused: the record's integrity check fails: it was changed or "
                        "forged after the referee wrote it"]


def test_a_record_without_a_check_in_a_signed_folder_is_refused(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path)
    folder.append_record({"match": "m1", "winner": 0})
    with open(folder.matches_path, "a") as fh:
        fh.write(json.dumps({"match": "m2", "winner": 1}) + "\n")
    warnings: list[str] = []
    assert [r["match"] for r in ResultsFolder(tmp_path).iter_records(warn=warnings.append)] == ["m1"]
    assert warnings == [f"{folder.matches_path}:2: refused: the record carries no integrity check, and every record "
                        "of this folder must: it was forged"]


def test_deleting_the_secret_verifies_nothing(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path)
    folder.append_record({"match": "m1", "winner": 0})
    folder.secret_path.unlink()
    warnings: list[str] = []
    assert list(ResultsFolder(tmp_path).iter_records(warn=warnings.append)) == []
    assert len(warnings) == 1 and "the folder's secret file is missing" in warnings[0]


def test_a_folder_from_before_checks_is_read_with_a_warning_and_not_resumed(tmp_path: Path) -> None:
    """Old results folders: `spades standings` counts their records, unverified, and says so;
    `spades run` refuses to resume them and says how to start over."""
    cfg = forger_config(tmp_path)  # any config: the folder is refused before a bot starts
    out = tmp_path / "out"
    out.mkdir()
    spades_run = spades("run", str(cfg), cwd=tmp_path)  # freezes config.yaml, makes the secret, plays
    assert spades_run.returncode == 0
    # Make it an old folder: records without checks, no secret.
    records = [{k: v for k, v in r.items() if k != "check"} for r in lines(out)
               if r["check"] != "hmac-sha256:" + "0" * 64]
    (out / "matches.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (out / "secret").unlink()
    standings = spades("standings", str(out), "--format", "json")
    assert standings.returncode == 0 and json.loads(standings.stdout)["matches"] == 2
    assert "2 record(s) carry no integrity check" in standings.stderr
    again = spades("run", str(cfg), cwd=tmp_path)
    assert again.returncode == 2 and "from before spades-referee signed its records" in again.stderr
    assert "Run with --fresh" in again.stderr and "Traceback" not in again.stderr
    assert not (out / "secret").exists()  # refused before anything changed


def test_sign_and_verify_are_exact(tmp_path: Path) -> None:
    secret = integrity.create_secret(tmp_path / "s")
    record = {"match": "m", "score": [1, 2], "seconds": 0.1}
    signed = integrity.sign(secret, record)
    assert integrity.verify(secret, json.loads(json.dumps(signed)))  # survives a round trip
    assert not integrity.verify(secret, {**signed, "score": [2, 1]})
    assert not integrity.verify(b"x" * 32, signed)
    assert integrity.create_secret(tmp_path / "s") == secret  # never replaced
