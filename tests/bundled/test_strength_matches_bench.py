"""bench/strength_matches.py, the in-process whole-match tuning tool: it plays every seed
in both seatings per setting, to the end of the match, and pairs the settings' results
seed by seed and seating by seating."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import load_bench

matches = load_bench("strength_matches")


def test_the_paired_difference_is_over_the_same_seeds_and_seatings() -> None:
    rows = [{"setting": "a", "seed": s, "leg": leg, "win": w, "margin": 10 * w, "cpu": 1.0}
            for (s, leg), w in {(1, 0): 1, (1, 1): 0, (2, 0): 1, (2, 1): 1}.items()]
    rows += [{"setting": "b", "seed": s, "leg": leg, "win": w, "margin": 20, "cpu": 2.0}
             for (s, leg), w in {(1, 0): 1, (1, 1): 1, (2, 0): 0, (2, 1): 1, (3, 0): 1}.items()]
    first, second = matches.paired(rows, ["a", "b"])
    # Seed 3 was played by "b" only: it is left out of both lines.
    assert "matches    4" in first and "won    3 ( 75.0%)" in first and "vs first  +0.0" in first
    assert "matches    4" in second and "won    3 ( 75.0%)" in second
    # Pairs: (1,1) +1, (2,0) -1, others 0: mean 0, standard error sqrt(2/3/4).
    assert "vs first  +0.0 +- 40.8" in second and "cpu 8 s" in second


def test_a_tiny_run_plays_whole_matches_for_every_setting_and_seating(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.jsonl"
    assert matches.main(["--seeds", "1", "--first-seed", "5", "--budget", "2samples", "--rule", "blind_nil=false",
                         "--rule", "target=150", "--set", "match_equity=0", "--set", "base", "--save", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["setting"], r["leg"]) for r in rows) == [("base", 0), ("base", 1),
                                                             ("match_equity=0", 0), ("match_equity=0", 1)]
    for r in rows:
        # A whole match: it ran until a side won (to 150 here), not one hand.
        assert r["seed"] == 5 and r["win"] in (0, 1) and r["hands"] >= 2 and r["cpu"] > 0
        assert (r["margin"] > 0) == bool(r["win"]) or r["margin"] == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("match_equity=0") and printed[1].startswith("base")


def test_an_unknown_setting_is_refused_before_any_match(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as err:
        matches.main(["--seeds", "1", "--set", "base", "--set", "match_edge=5,nonsense=2"])
    assert "unknown setting 'nonsense'" in str(err.value)


def _process_tree(root: int) -> dict[int, bytes]:
    """``root`` and every process under it, by pid, with its command line (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text() if entry.isdigit() else ""
        except OSError:  # ended since the listing
            continue
        if stat:
            parents[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])  # "pid (comm) state ppid"
    tree, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        tree += frontier
    return {pid: _command_of(pid) for pid in tree}


def _command_of(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_two_player_whole_matches_against_the_javascript_bot_leave_no_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import time
    from referee.seat.botprocess import BotProcess
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the JavaScript heuristic bot needs Node.js 20 or later")
    # The processes of the bots this run starts, taken just before each is closed: the
    # bot's own process and all under it (the sandbox's and node's). Only these are looked
    # for afterwards, not every heuristic_bot.js on the machine: other test workers start
    # their own at the same time.
    seen: dict[int, bytes] = {}
    leaders: set[int] = set()
    close = BotProcess.close

    def recording_close(self: BotProcess, *args: float, **kwargs: float) -> int | None:
        if self.pid is not None:
            leaders.add(self.pid)
            seen.update(_process_tree(self.pid))
        return close(self, *args, **kwargs)

    monkeypatch.setattr(BotProcess, "close", recording_close)
    out = tmp_path / "js.jsonl"
    assert matches.main(["--variant", "two-player", "--opponent", "heuristic-js", "--seeds", "1",
                         "--first-seed", "3", "--budget", "2samples", "--rule", "target=150",
                         "--set", "base", "--save", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["leg"] for r in rows) == [0, 1]
    assert all(r["hands"] >= 2 and r["win"] in (0, 1) for r in rows)
    # The check below is not empty: node ran the bot, once per match at least.
    assert sum(b"heuristic_bot.js" in cmd for cmd in seen.values()) >= len(rows)
    # Every one of those processes was ended and reaped: no bot's own process is left, not
    # even as a zombie, and nothing under it (the sandbox's own init reaps those, which may
    # take a moment; a pid given out again since runs another command, so only the same
    # command line counts).
    def left() -> list[int]:
        return [pid for pid, cmd in seen.items()
                if Path(f"/proc/{pid}").exists() and (pid in leaders or _command_of(pid) == cmd)]
    deadline = time.monotonic() + 3
    while left() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left() == []
    assert capsys.readouterr().out.startswith("base")


def test_an_opponent_that_stops_answering_is_named() -> None:
    import sys
    hands = matches.hands
    quiet = hands.Process([sys.executable, "-c", "import time; time.sleep(30)"], timeout_s=0.5)
    with pytest.raises(RuntimeError, match=r"-c import time.*no answer to 'hello' within 0 s"):
        quiet.handle({"type": "hello", "id": 0})
    assert quiet.bot.returncode is not None  # killed and reaped, not left running
