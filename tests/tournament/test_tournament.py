"""`spades run` end to end on tiny tournaments of real bot processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.tournament.config import load_config
from referee.tournament.formats import format_for

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def spades(*args: str, cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([PY, "-m", "referee.cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def write_config(tmp_path: Path, body: str, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def tiny(tmp_path: Path, *, seed: int = 1, extra: str = "") -> Path:
    """Partnership round-robin of three fast bots (Python and JavaScript), 6 matches to 100."""
    return write_config(tmp_path, f"""
name: tiny
variant: partnership
seed: {seed}
matches_per_pairing: 2
concurrency: 2
rules: {{target: 100, max_hands: 30}}
output: out
bots:
  - {{name: random, command: [{PY}, {ROOT}/bots/random_bot.py], env: {{BOT_SEED: "5"}}}}
  - {{name: heuristic, command: [{PY}, {ROOT}/bots/heuristic_bot.py]}}
  - {{name: heuristic-js, command: [node, {ROOT}/bots/js/heuristic_bot.js]}}
{extra}""")


def records(folder: Path) -> list[dict[str, Any]]:
    with open(folder / "matches.jsonl") as fh:
        return [json.loads(line) for line in fh]


def test_run_plays_everything_and_standings_from_disk_are_identical(tmp_path: Path) -> None:
    cfg_path = tiny(tmp_path)
    out = tmp_path / "out"
    run = spades("run", str(cfg_path))
    assert run.returncode == 0, run.stderr
    recs = records(out)
    plan = format_for(load_config(cfg_path)).next_matches({})
    assert sorted(r["match"] for r in recs) == sorted(m.match_id for m in plan)

    # Results folder as designed: frozen config, transcripts and stderr per match and seat.
    assert (out / "config.yaml").is_file() and (out / "standings.txt").read_text() == run.stdout
    for r in recs:
        assert (out / "logs" / f"{r['match']}.jsonl").stat().st_size > 0
        assert all((out / "logs" / f"{r['match']}.{seat}.stderr").exists() for seat in range(4))
    # The stored standings print the same again, in every format.
    again = spades("standings", str(out))
    assert again.returncode == 0 and again.stdout == run.stdout
    data = json.loads(spades("standings", str(out), "--format", "json").stdout)
    assert sorted(b["bot"] for b in data["bots"]) == ["heuristic", "heuristic-js", "random"]
    assert sum(b["matches"] for b in data["bots"]) == 2 * len(plan)
    assert "tiny: partnership round-robin, 2 per pairing (twins), target 100: 6 of 6 matches" in run.stdout
    # Progress went to stderr as plain lines (no terminal here).
    assert "6/6 matches" in run.stderr and "leader" in run.stderr

    # Twins: same seed, sides swapped, and seat 0 is dealt the same cards in hand 1.
    by_id = {r["match"]: r for r in recs}
    for m in plan:
        if m.match_id.endswith("a"):
            a, b = by_id[m.match_id], by_id[m.match_id[:-1] + "b"]
            assert a["seed"] == b["seed"] and a["bots"] == b["bots"][1:] + b["bots"][:1]
            assert first_cards(out, a["match"]) == first_cards(out, b["match"])

    # Running it again plays nothing and keeps every record.
    rerun = spades("run", str(cfg_path), "--quiet")
    assert rerun.returncode == 0 and rerun.stderr == ""
    assert len(records(out)) == len(plan) and rerun.stdout == run.stdout


def first_cards(folder: Path, match: str) -> list[str]:
    """The cards seat 0 is first shown in a match (hand 1's deal, from the transcript)."""
    with open(folder / "logs" / f"{match}.jsonl") as fh:
        for line in fh:
            entry = json.loads(line)
            msg = entry.get("msg") or {}
            if entry.get("seat") == 0 and entry.get("dir") == "out" and msg.get("type") == "hand":
                return msg["cards"]
    raise AssertionError(f"no hand message to seat 0 in {match}")


def test_changed_config_is_refused_and_fresh_moves_the_old_folder_aside(tmp_path: Path) -> None:
    cfg_path = tiny(tmp_path, extra="")
    body = cfg_path.read_text()
    cfg_path.write_text(body.replace("matches_per_pairing: 2", "matches_per_pairing: 2\nformat: gauntlet"))
    assert spades("run", str(cfg_path), "-q").returncode == 0
    assert len(records(tmp_path / "out")) == 4

    changed = body.replace("matches_per_pairing: 2", "matches_per_pairing: 2\nformat: gauntlet").replace(
        "seed: 1", "seed: 2").replace("target: 100", "target: 120")
    cfg_path.write_text(changed)
    refused = spades("run", str(cfg_path))
    assert refused.returncode == 2
    assert "holds a tournament run with a different config" in refused.stderr
    assert "seed: was 1, now 2" in refused.stderr and "rules.target: was 100, now 120" in refused.stderr
    assert "--fresh" in refused.stderr
    assert len(records(tmp_path / "out")) == 4  # untouched

    # Concurrency is not part of a tournament's identity: changing it resumes.
    fresh = spades("run", str(cfg_path), "--fresh", "--concurrency", "1")
    assert fresh.returncode == 0, fresh.stderr
    moved = [p for p in tmp_path.iterdir() if p.name.startswith("out.old-")]
    assert len(moved) == 1 and len(records(moved[0])) == 4  # nothing deleted
    assert "Moved the previous results to" in fresh.stderr
    assert {r["seed"] for r in records(tmp_path / "out")}.isdisjoint({r["seed"] for r in records(moved[0])})


def test_a_bot_that_crashes_every_match_is_recorded_as_forfeits(tmp_path: Path) -> None:
    cfg_path = write_config(tmp_path, f"""
variant: two-player
matches_per_pairing: 2
rules: {{target: 100}}
output: out
bots:
  - {{name: steady, command: [{PY}, {ROOT}/bots/heuristic_bot.py]}}
  - {{name: crasher, command: [{PY}, -c, "import sys; sys.exit(3)"]}}
""")
    run = spades("run", str(cfg_path))
    assert run.returncode == 0, run.stderr
    recs = records(tmp_path / "out")
    assert len(recs) == 2
    for r in recs:
        assert r["reason"] == "forfeit" and r["bots"][r["winner"]] == "steady"
        assert [f["kind"] for f in r["faults"]] == ["startup"]
    assert run.stderr.count("warning: bot 'crasher'") == 1  # said once, with where to look
    assert "crasher.1.stderr" in run.stderr or ".stderr" in run.stderr
    data = json.loads(spades("standings", str(tmp_path / "out"), "--format", "json").stdout)
    crasher = next(b for b in data["bots"] if b["bot"] == "crasher")
    assert (crasher["wins"], crasher["losses"], crasher["faults"]) == (0, 2, {"startup": 2})


def test_bad_input_is_refused_before_any_match(tmp_path: Path) -> None:
    cfg_path = write_config(tmp_path, f"""
variant: partnership
output: out
bots:
  - {{name: a, command: [{PY}, {ROOT}/bots/random_bot.py]}}
  - {{name: b, command: [{PY}, {ROOT}/bots/no_such_bot.py]}}
""")
    run = spades("run", str(cfg_path))
    assert run.returncode == 2
    assert "invalid config" in run.stderr and "bots[1].command: script" in run.stderr
    assert not (tmp_path / "out").exists()  # nothing started

    bad = spades("run", str(tiny(tmp_path, extra="")), "--concurrency", "-1")
    assert bad.returncode == 2 and "must be at least 1, got: -1" in bad.stderr

    missing = spades("standings", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no such results folder" in missing.stderr
    not_results = spades("standings", str(tmp_path))
    assert not_results.returncode == 2 and "is not a results folder" in not_results.stderr


def test_gauntlet_in_process_counts_and_resumes(tmp_path: Path) -> None:
    from referee.tournament.runner import Tournament

    cfg_path = write_config(tmp_path, f"""
variant: two-player
format: gauntlet
duplicate: false
matches_per_pairing: 1
rules: {{target: 60}}
output: out
bots:
  - {{name: h, command: [{PY}, {ROOT}/bots/heuristic_bot.py]}}
  - {{name: r1, command: [{PY}, {ROOT}/bots/random_bot.py]}}
  - {{name: r2, command: [{PY}, {ROOT}/bots/random_bot.py]}}
""")
    said: list[str] = []
    outcome = Tournament(load_config(cfg_path), concurrency=2, say=said.append).run()
    assert (outcome.total, outcome.already, outcome.played, outcome.exit_code) == (2, 0, 2, 0)
    assert {tuple(sorted(set(r["bots"]))) for r in records(tmp_path / "out")} == {("h", "r1"), ("h", "r2")}
    assert outcome.report.crosstable["r1"] == {"h": outcome.report.crosstable["r1"]["h"]}  # r1 never met r2
    again = Tournament(load_config(cfg_path), say=said.append).run()
    assert (again.already, again.played) == (2, 0)
    assert any("2 of 2 matches already played" in s for s in said)


@pytest.mark.parametrize("fmt", ["markdown", "csv"])
def test_run_prints_the_requested_format(tmp_path: Path, fmt: str) -> None:
    cfg_path = write_config(tmp_path, f"""
variant: two-player
matches_per_pairing: 2
rules: {{target: 60}}
output: out
bots:
  - {{name: h, command: [{PY}, {ROOT}/bots/heuristic_bot.py]}}
  - {{name: r, command: [{PY}, {ROOT}/bots/random_bot.py]}}
""")
    run = spades("run", str(cfg_path), "-q", "--format", fmt)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == spades("standings", str(tmp_path / "out"), "--format", fmt).stdout
    assert (run.stdout.startswith("# ") if fmt == "markdown" else run.stdout.startswith("rank,bot,"))
