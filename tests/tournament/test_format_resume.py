"""Adaptive formats stopped by SIGINT or SIGKILL resume with real processes and play nothing twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

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
