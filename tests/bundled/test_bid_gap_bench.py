"""bench/bid_gap.py on a real results folder: replaying a two-player transcript yields one
sample per normal bid of the seat named "strong" (the bid, the tricks it took and its role
as the record of the match has them, a simulated trick count in range), a partnership
transcript yields none, and the script prints one row per role whose hand counts are the
records' and whose mean gap is that of the replayed samples; a folder without transcripts
is refused by name.

The folder is made by `spades match` (a few hands, about a second) with the heuristic and
random bots, the latter seeded so that the hands include the cases the script treats
apart: the opponent's (Blind) Nil, and a Nil and a Blind Nil of the strong seat itself.
The replay only reads what the referee sent to the seat, so the program that played it
does not matter."""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import BOTS, PY, ROOT, load_bench

bid_gap = load_bench("bid_gap")

HEURISTIC = f"{PY} {BOTS / 'heuristic_bot.py'}"
RANDOM = f"{PY} {BOTS / 'random_bot.py'}"
BOT_SEED = "26"  # the random bot's choices; with deal seed 11 they give every case (see the fixture)
SAMPLES = 8  # deals per simulated bid: enough to exercise the simulation, cheap to run


def spades_match(out: Path, match_id: str, variant: str, seats: list[tuple[str, str]], hands: int) -> None:
    """Play one match of ``hands`` hands, ``seats`` as (name, command), into the results folder ``out``."""
    args = [PY, "-m", "referee.cli", "match", "--variant", variant, "--seed", "11", "--rule", f"max_hands={hands}",
            "--output", str(out), "--match-id", match_id, "-q"]
    for name, command in seats:
        args += ["--bot", command, "--name", name]
    done = subprocess.run(args, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BOT_SEED": BOT_SEED},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder: two two-player matches with "strong" in each seat, and a
    partnership match with a seat named "strong" (not two-player: to be left out)."""
    out = tmp_path_factory.mktemp("bid-gap") / "results"
    spades_match(out, "tp-strong-first", "two-player", [("strong", HEURISTIC), ("random", RANDOM)], 4)
    spades_match(out, "tp-strong-second", "two-player", [("random", RANDOM), ("strong", RANDOM)], 4)
    spades_match(out, "pp-strong", "partnership", [("strong", HEURISTIC), ("h1", HEURISTIC), ("p", HEURISTIC),
                                                   ("h2", HEURISTIC)], 1)
    # The cases the script treats apart occur (else pick another BOT_SEED).
    hands = [(rec["bots"].index("strong"), h) for rec in records(out).values() if rec["variant"] == "two-player"
             for h in rec["hands"]]
    normal = [(s, h) for s, h in hands if h["bids"][s] != 0 and not h["blind"][s]]
    assert sum(h["bids"][1 - s] == 0 for s, h in normal) >= 2, "not two hands with the opponent's Nil"
    assert any(h["bids"][s] == 0 and not h["blind"][s] for s, h in hands), "no Nil of the strong seat"
    assert any(h["blind"][s] for s, h in hands), "no Blind Nil of the strong seat"
    return out


def records(folder: Path) -> dict[str, dict[str, Any]]:
    lines = (folder / "matches.jsonl").read_text(encoding="utf-8").splitlines()
    return {rec["match"]: rec for rec in map(json.loads, lines)}


def expected(rec: dict[str, Any]) -> list[tuple[bool, int, int, bool]]:
    """(first, bid, tricks, opponent bid Nil) of every normal bid of "strong" in a record."""
    seat = rec["bots"].index("strong")
    return [(h["first"] == seat, h["bids"][seat], h["tricks"][seat], h["bids"][1 - seat] == 0)
            for h in rec["hands"] if h["bids"][seat] != 0 and not h["blind"][seat]]


def test_replay_gives_a_sample_per_normal_bid_of_the_strong_seat(results: Path) -> None:
    recs = records(results)
    roles = set()
    for match in ("tp-strong-first", "tp-strong-second"):
        rows = bid_gap.replay(results / "logs" / f"{match}.jsonl", SAMPLES, random.Random(1))
        want = expected(recs[match])
        assert want, f"{match}: no normal bid of the strong seat to check"
        assert [(r.first, r.bid, r.real, r.opp_nil) for r in rows] == want
        assert all(0.0 <= r.simulated <= 13.0 and 0.0 <= r.spread <= 6.5 for r in rows)
        roles |= {r.first for r in rows}
    assert roles == {True, False}  # both roles were replayed
    assert bid_gap.replay(results / "logs" / "pp-strong.jsonl", SAMPLES, random.Random(1)) == []


LINE = re.compile(r"^(first player|second player|both roles|opponent Nil) +(\d+) hands(?:  gap ([+-]\d+\.\d\d) .*)?$")


def test_main_prints_a_row_per_role_with_the_records_hand_counts(results: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert bid_gap.main([str(results), "--samples", str(SAMPLES), "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    got = {m.group(1): (int(m.group(2)), m.group(3)) for m in parsed if m}
    assert list(got) == ["first player", "second player", "both roles", "opponent Nil"]
    samples = [s for rec in records(results).values() if rec["variant"] == "two-player" for s in expected(rec)]
    normal = [s for s in samples if not s[3]]
    assert got["first player"][0] == sum(s[0] for s in normal)
    assert got["second player"][0] == sum(not s[0] for s in normal)
    assert got["both roles"][0] == len(normal) >= 2
    assert got["opponent Nil"][0] == len(samples) - len(normal)
    # Each row's mean gap is that of the same replay: the transcripts in name order, one generator.
    rng = random.Random(5)
    rows = [r for log in sorted((results / "logs").glob("*.jsonl")) for r in bid_gap.replay(log, SAMPLES, rng)]
    groups = {"first player": [r for r in rows if not r.opp_nil and r.first],
              "second player": [r for r in rows if not r.opp_nil and not r.first],
              "both roles": [r for r in rows if not r.opp_nil], "opponent Nil": [r for r in rows if r.opp_nil]}
    for label, group in groups.items():
        want = f"{statistics.fmean(r.simulated - r.real for r in group):+.2f}" if len(group) >= 2 else None
        assert got[label] == (len(group), want), label


def test_a_folder_without_transcripts_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no match transcripts in .*logs"):
        bid_gap.main([str(tmp_path)])
