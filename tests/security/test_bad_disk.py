"""A full disk ends a match with a clear referee error; a tournament stops cleanly and resumes once there is room.

Real ENOSPC, not a mock: each scenario runs in a private mount namespace
(``unshare -m``, as root) on a tmpfs of a few pages, so the kernel itself
refuses the writes. CI runs as root; a user's machine without root skips.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import BOTS, PY, ROOT

HEURISTIC = f"{PY} {BOTS / 'heuristic_bot.py'}"

# Runs inside the mount namespace: mounts, runs spades, reports what happened as JSON.
DRIVER = textwrap.dedent('''
    import json, os, subprocess, sys
    from pathlib import Path

    work, py, root, heuristic = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    env = dict(os.environ, PYTHONPATH=root)
    out = {}

    def mount(path, size):
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], check=True)

    def spades(*args):
        p = subprocess.run([py, "-m", "referee.cli", *args], cwd=work, env=env, capture_output=True, text=True,
                           timeout=600)
        return {"rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr}

    def config(name, output):
        path = work / f"{name}.yaml"
        path.write_text(f"""
    name: {name}
    variant: two-player
    seed: 3
    matches_per_pairing: 2
    duplicate: false
    concurrency: 1
    rules: {{target: 200}}
    output: {output}
    bots:
      - {{name: a, command: {heuristic}}}
      - {{name: b, command: {heuristic}}}
    """)
        return path

    def records(folder):
        path = folder / "matches.jsonl"
        return [json.loads(l)["match"] for l in path.read_text().splitlines()] if path.exists() else []

    # A: one match whose transcript does not fit.
    mount(work / "a", "64k")
    out["match"] = spades("match", "--seed", "3", "--bot", heuristic, "--bot", heuristic,
                          "--output", str(work / "a" / "r"))
    out["match"]["records"] = records(work / "a" / "r")

    # B: a tournament whose first transcript does not fit; then room is made.
    mount(work / "b", "64k")
    cfg = config("b", work / "b" / "out")
    out["run_full"] = spades("run", str(cfg))
    out["run_full"]["records"] = records(work / "b" / "out")
    subprocess.run(["mount", "-o", "remount,size=64m", str(work / "b")], check=True)
    out["run_room"] = spades("run", str(cfg))
    out["run_room"]["records"] = records(work / "b" / "out")

    # C: the logs have room, matches.jsonl has none (a full results disk, the logs elsewhere).
    results = work / "c" / "out"
    mount(results, "256k")
    cfg = config("c", results)
    sys.path.insert(0, root)
    from referee.tournament.config import load_config
    from referee.tournament.results import ResultsFolder
    folder = ResultsFolder(results)
    folder.prepare(load_config(cfg))  # config.yaml, the secret, the lock file, logs/
    folder.unlock()
    mount(results / "logs", "64m")
    subprocess.run(["dd", "if=/dev/zero", f"of={results / 'filler'}", "bs=4096"], capture_output=True)
    out["record_full"] = spades("run", str(cfg))
    out["record_full"]["records"] = records(results)
    (results / "filler").unlink()
    out["record_room"] = spades("run", str(cfg))
    out["record_room"]["records"] = records(results)
    print(json.dumps(out))
''')


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> dict:
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("needs root and unshare(1) to mount a small tmpfs in a private mount namespace")
    work = tmp_path_factory.mktemp("disk")
    driver = work / "driver.py"
    driver.write_text(DRIVER)
    proc = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, str(driver), str(work), PY,
                           str(ROOT), HEURISTIC], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_a_full_disk_ends_a_match_with_a_clear_referee_error(scenarios: dict) -> None:
    got = scenarios["match"]
    assert got["rc"] == 1 and "Traceback" not in got["stderr"], got["stderr"]
    assert "cannot write the match log" in got["stderr"] and "No space left on device (errno 28)" in got["stderr"]
    assert "the match was abandoned, nothing of it is recorded" in got["stderr"]
    assert got["records"] == []


def test_a_tournament_stops_cleanly_on_a_full_disk_and_resumes_once_there_is_room(scenarios: dict) -> None:
    full, room = scenarios["run_full"], scenarios["run_room"]
    assert full["rc"] == 1 and "Traceback" not in full["stderr"], full["stderr"]
    assert "Error: the tournament stopped: LogWriteError: cannot write the match log" in full["stderr"]
    assert "No space left on device" in full["stderr"] and "run `spades run" in full["stderr"]
    assert full["records"] == []
    assert room["rc"] == 0, room["stderr"]
    assert len(room["records"]) == 2 and len(set(room["records"])) == 2


def test_a_record_that_cannot_be_written_stops_the_run_and_is_played_again(scenarios: dict) -> None:
    full, room = scenarios["record_full"], scenarios["record_room"]
    assert full["rc"] == 1 and "Traceback" not in full["stderr"], full["stderr"]
    assert "Error: the tournament stopped: cannot store the record of match" in full["stderr"]
    assert "No space left on device" in full["stderr"]
    assert full["records"] == []
    assert room["rc"] == 0, room["stderr"]
    assert len(room["records"]) == 2 and len(set(room["records"])) == 2


def test_a_transcript_on_a_full_device_abandons_the_match_and_ends_every_bot(tmp_path, marker) -> None:
    """Without root: the transcript is a symlink to /dev/full, whose every write fails with ENOSPC."""
    from referee.game.rules import Rules, Variant
    from referee.match import LogWriteError, MatchSpec, run_match
    from referee.seat.spec import SeatSpec

    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "m.jsonl").symlink_to("/dev/full")
    seats = [SeatSpec(f"s{i}", HEURISTIC, env={marker: "1"}) for i in range(4)]
    with pytest.raises(LogWriteError) as info:
        run_match(MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=Rules(max_hands=3), seed=2,
                            match_id="m", logs=logs, grace_s=0.5))
    assert info.value.errno == 28
    assert "cannot write the match log" in str(info.value) and "No space left on device (errno 28)" in str(info.value)
    # (the marker fixture fails the test if any bot process survived)
