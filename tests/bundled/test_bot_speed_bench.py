"""bench/bot_speed.py: both bots play the same hands, the CPU is reported with a ratio,
and a bot that plays differently is called out instead of being timed as a speed-up.

The bench runs on a copy of ``bots/`` and ``bench/`` made into a git repository of its
own, so the test knows exactly what the reference commit holds."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-C", str(repo),
                    *args], check=True, capture_output=True)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A repository whose one commit holds this tree's bots/ and bench/."""
    for part in ("bots", "bench"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "bots", "bench")
    git(tmp_path, "commit", "-q", "-m", "reference")
    return tmp_path


def bench(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(repo / "bench" / "bot_speed.py"), "--deals", "1",
                           "--budget", "2samples", "--runs", "1", *args],
                          capture_output=True, text=True, cwd=repo)


def test_the_same_bot_plays_the_same_hands_and_gets_a_ratio(repo: Path) -> None:
    proc = bench(repo, "--ref", "HEAD")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "same play: yes" in out
    assert len(re.findall(r"^run 1 .* s CPU$", out, re.M)) == 2
    last = out.strip().splitlines()[-1]
    m = re.fullmatch(r"ratio (\d+\.\d+)", last)
    assert m, last
    assert 0.2 < float(m.group(1)) < 5.0


def test_a_bot_that_plays_differently_is_not_called_the_same(repo: Path) -> None:
    policy = repo / "bots" / "strong" / "policy.py"
    text = policy.read_text()
    assert "SET_WINDOW = 2" in text
    # Take tricks to set the opponents whenever possible: other cards in the playouts.
    policy.write_text(text.replace("SET_WINDOW = 2", "SET_WINDOW = 13"))
    bids = repo / "bots" / "strong" / "bidding.py"
    bids.write_text(bids.read_text().replace("FIRST_BID_WINDOW: int | None = 0", "FIRST_BID_WINDOW: int | None = 2"))
    proc = bench(repo, "--ref", "HEAD", "--deals", "2")
    assert proc.returncode == 0, proc.stderr
    assert "same play: no" in proc.stdout


def test_an_unknown_commit_is_refused_by_name(repo: Path) -> None:
    proc = bench(repo, "--ref", "no-such-commit")
    assert proc.returncode != 0
    assert "'no-such-commit'" in proc.stderr and "cannot read commit" in proc.stderr
