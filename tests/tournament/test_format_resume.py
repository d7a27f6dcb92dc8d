"""Adaptive formats (SPRT, Swiss, knockout, mixed partnerships) stopped by SIGINT or SIGKILL resume with real
processes and play nothing twice."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from test_resume import SLOW_BOT, describe, line_count, marked_processes, slow_tournament, wait_until  # noqa: F401 (a fixture)

from referee.tournament.config import load_config
from referee.tournament.formats import Played, format_for
from referee.tournament.formats.sprt import SprtFormat

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


@pytest.fixture
def sprt_tournament(slow_tournament: tuple[Path, str]) -> tuple[Path, str]:
    """The slow bots of test_resume, two copies of one bot, in an SPRT: it must accept H0
    (B is not 200 nElo stronger)."""
    cfg, marker = slow_tournament
    text = cfg.read_text().replace("variant: partnership", "variant: two-player").replace(
        "matches_per_pairing: 4", "format: sprt\nelo0: 0\nelo1: 200\nalpha: 0.2\nbeta: 0.2\nmax_matches: 40")
    assert "format: sprt" in text and "two-player" in text
    cfg.write_text(text)
    return cfg, marker


def run(cfg: Path, tmp_path: Path, *, wait: bool) -> subprocess.Popen[bytes] | subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [PY, "-m", "referee.cli", "run", str(cfg)]
    if wait:
        return subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    with open(tmp_path / "stderr.txt", "wb") as err:
        return subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=err)


def interrupt(cfg: Path, tmp_path: Path, sig: int, after: int) -> int:
    """Start the run, send ``sig`` once ``after`` matches are stored; the exit status."""
    proc = run(cfg, tmp_path, wait=False)
    assert isinstance(proc, subprocess.Popen)
    matches = tmp_path / "out" / "matches.jsonl"
    try:
        assert wait_until(lambda: line_count(matches) >= after, 60), "no match finished"
        proc.send_signal(sig)
        return proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()


def check_finished(cfg: Path, tmp_path: Path) -> str:
    """Resume to the end: a verdict, every match once, none left without its twin."""
    done = run(cfg, tmp_path, wait=True)
    assert isinstance(done, subprocess.CompletedProcess) and done.returncode == 0, done.stderr
    assert "Resuming" in done.stderr
    records = [json.loads(line) for line in (tmp_path / "out" / "matches.jsonl").read_text().splitlines()]
    ids = [r["match"] for r in records]
    assert len(ids) == len(set(ids)) and len(ids) % 2 == 0
    fmt = format_for(load_config(cfg))
    assert isinstance(fmt, SprtFormat) and all(fmt.owns(i) for i in ids)
    finished = {r["match"]: Played.from_record(r) for r in records}
    state = fmt.progress(finished)
    assert state.verdict.decided and fmt.next_matches(finished) == []
    assert "H0 accepted: two is not stronger than one by 200 or more" in done.stdout
    return done.stdout


def test_an_sprt_stopped_by_ctrl_c_resumes_to_its_verdict(sprt_tournament: tuple[Path, str], tmp_path: Path) -> None:
    cfg, marker = sprt_tournament
    code = interrupt(cfg, tmp_path, signal.SIGINT, after=1)
    err = (tmp_path / "stderr.txt").read_text()
    assert code == 130, err
    assert "to play the rest (finished matches are kept)" in err and " of " not in err.split("Interrupted:")[1][:12]
    assert marked_processes(marker) == []
    check_finished(cfg, tmp_path)


def test_an_sprt_killed_by_sigkill_resumes_to_the_same_verdict(sprt_tournament: tuple[Path, str],
                                                               tmp_path: Path) -> None:
    cfg, marker = sprt_tournament
    interrupt(cfg, tmp_path, signal.SIGKILL, after=3)
    # 30 s: under a loaded CI a frozen seat is thawed and killed by the reaper, which must be scheduled.
    assert wait_until(lambda: not marked_processes(marker), 30), describe(marked_processes(marker))
    stdout = check_finished(cfg, tmp_path)
    # The same verdict after the same pairs as a run never interrupted (the bots are deterministic).
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "slow_bot.py").write_text(SLOW_BOT)
    (clean / "t.yaml").write_text(cfg.read_text())
    again = run(clean / "t.yaml", clean, wait=True)
    assert isinstance(again, subprocess.CompletedProcess) and again.returncode == 0, again.stderr
    decided = [line for line in stdout.splitlines() if line.startswith("decided after")]
    assert decided and decided == [line for line in again.stdout.splitlines() if line.startswith("decided after")]


# ---------------------------------------------------------------- Swiss, knockout, mixed partnerships

#: Each round-by-round format (and partners: rotate): variant, bots, its config lines.
ADAPTIVE = {
    "swiss": ("two-player", 5, "format: swiss\nrounds: 2\n"),  # 8 matches, a bye each round
    "knockout": ("two-player", 4, "format: knockout\n"),  # two semi-finals and a final
    "rotate": ("partnership", 4, "partners: rotate\nmatches_per_pairing: 2\n"),  # 3 seatings, 6 matches
}


def adaptive_tournament(folder: Path, marker: str, kind: str) -> Path:
    variant, n, lines = ADAPTIVE[kind]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "slow_bot.py").write_text(SLOW_BOT)
    bots = "".join(f"  - {{name: b{i}, command: [{PY}, slow_bot.py, {marker}]}}\n" for i in range(n))
    cfg = folder / "t.yaml"
    cfg.write_text(f"variant: {variant}\n{lines}concurrency: 2\nrules: {{target: 150, max_hands: 2}}\noutput: out\n"
                   f"bots:\n{bots}")
    return cfg


def outcomes(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Each stored match: its seats, score and winner (what the next pairings depend on)."""
    out = {}
    for line in (folder / "out" / "matches.jsonl").read_text().splitlines():
        rec = json.loads(line)
        assert rec["match"] not in out, f"{rec['match']} stored twice"
        out[rec["match"]] = (tuple(rec["bots"]), tuple(rec["score"]), rec["winner"])
    return out


@pytest.mark.parametrize("kind", sorted(ADAPTIVE))
def test_a_round_by_round_format_stopped_by_ctrl_c_then_killed_resumes_to_the_uninterrupted_result(
        kind: str, tmp_path: Path) -> None:
    """Ctrl-C, then SIGKILL of the resumed run, then a last resume: the same matches with the same results
    as one run never interrupted (the bots are deterministic; both folders share a secret, so the deals)."""
    marker = f"spades-test-marker-{uuid.uuid4().hex}"
    cfg = adaptive_tournament(tmp_path, marker, kind)
    assert interrupt(cfg, tmp_path, signal.SIGINT, after=1) == 130, (tmp_path / "stderr.txt").read_text()
    assert marked_processes(marker) == []
    interrupt(cfg, tmp_path, signal.SIGKILL, after=line_count(tmp_path / "out" / "matches.jsonl") + 1)
    assert wait_until(lambda: not marked_processes(marker), 30), describe(marked_processes(marker))
    done = run(cfg, tmp_path, wait=True)
    assert isinstance(done, subprocess.CompletedProcess) and done.returncode == 0, done.stderr
    assert "Resuming" in done.stderr
    got = outcomes(tmp_path)
    fmt = format_for(load_config(cfg))
    finished = {match_id: Played(match_id, bots, score, winner) for match_id, (bots, score, winner) in got.items()}
    assert fmt.next_matches(finished) == [] and all(fmt.owns(m) for m in got)
    clean = tmp_path / "clean"
    again_cfg = adaptive_tournament(clean, marker, kind)
    (clean / "out").mkdir()
    shutil.copy(tmp_path / "out" / "secret", clean / "out" / "secret")
    again = run(again_cfg, clean, wait=True)
    assert isinstance(again, subprocess.CompletedProcess) and again.returncode == 0, again.stderr
    assert outcomes(clean) == got
    heading = {"swiss": "Swiss standings", "knockout": "Knockout bracket", "rotate": "Best partner"}[kind]
    assert heading in done.stdout
