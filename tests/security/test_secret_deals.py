"""Secret deals: nothing a bot can read gives it a card it has not seen; the operator can recover them all.

A spy bot (tests/bots/attacks/spy_deals.py) gathers every number it can read
(match id, hello, argv, environment, the tournament config's master seed
turned into match seeds, the seeds of records) and claims the other seats'
hands from any candidate whose deal matches its own hand. The positive
control shows the spy is right as soon as it can read the seed; in a
tournament every claim must be absent or wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import BOTS, PY, ROOT
from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat.sandbox import SandboxPolicy, SandboxSpec
from referee.seat.spec import SeatSpec
from referee.tournament.config import load_config
from referee.tournament.formats import format_for
from referee.tournament.runner import Tournament

SPY = [PY, str(ROOT / "tests" / "bots" / "attacks" / "spy_deals.py")]
HEURISTIC = f"{PY} {BOTS / 'heuristic_bot.py'}"
# These tests run the spy without a sandbox, so that it reads all it can (the config, the
# records, logs/): the secret deals alone must defeat it. The sandbox tests show it would
# not even reach those files.
NO_SANDBOX = SandboxSpec(policy=SandboxPolicy.NONE)


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def dealt(transcript: Path) -> dict[tuple[int, int], list[str]]:
    """``(hand, seat) -> cards`` from the ``hand`` events of a transcript."""
    hand_no: dict[int, int] = {}  # by seat: lines to different seats interleave
    out = {}
    for line in transcript.read_text().splitlines():
        entry = json.loads(line)
        msg = entry.get("msg") or {}
        if entry.get("dir") == "out" and msg.get("type") == "hand_start":
            hand_no[entry["seat"]] = msg["hand"]
        if entry.get("dir") == "out" and msg.get("type") == "hand":
            out[(hand_no[entry["seat"]], entry["seat"])] = msg["cards"]
    return out


def claims(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return [c for c in lines if "cards" in c], [c for c in lines if "tried" in c]


def test_the_spy_is_right_when_it_can_read_the_seed(tmp_path: Path) -> None:
    """Positive control: the same spy, told the seed through its environment, claims every hand correctly."""
    out = tmp_path / "claims.jsonl"
    seats = [SeatSpec("spy", SPY, env={"SPY_OUT": str(out), "LEAKED": "seed 9021"})] + \
        [SeatSpec(f"h{i}", HEURISTIC) for i in range(1, 4)]
    run_match(MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=Rules(max_hands=2), seed=9021,
                        match_id="control", logs=tmp_path / "logs", grace_s=0.5, sandbox=NO_SANDBOX))
    real = dealt(tmp_path / "logs" / "control.jsonl")
    got, _ = claims(out)
    right = [c for c in got if real.get((c["hand"], c["seat"])) == c["cards"]]
    assert len(right) >= 3 and {c["from"] for c in right} == {"env LEAKED"}, got


def test_spades_match_gives_the_spy_nothing(tmp_path: Path) -> None:
    """`spades match` without --seed: a fresh seed that neither the id nor anything else carries."""
    out = tmp_path / "claims.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT), SPY_OUT=str(out))
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "match", "--rule", "max_hands=2",
                           "--bot", " ".join(SPY), "--bot", HEURISTIC, "--output", str(tmp_path / "r"), "-q", "--sandbox", "none"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    record = json.loads((tmp_path / "r" / "matches.jsonl").read_text())
    real = dealt(tmp_path / "r" / "logs" / f"{record['match']}.jsonl")
    got, tried = claims(out)
    assert tried and all(t["tried"] > 0 and "match id" in t["sources"] for t in tried)  # it looked
    assert not [c for c in got if real.get((c["hand"], c["seat"])) == c["cards"]], got


def spy_config(tmp_path: Path, out: Path, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"""
name: spied
variant: partnership
seed: 77
matches_per_pairing: 2
duplicate: true
concurrency: 1
rules: {{max_hands: 2, blind_nil: false}}
output: out
sandbox: none
bots:
  - {{name: spy, command: {json.dumps(SPY)}, env: {{SPY_OUT: "{out}", SPY_RESULTS: "{tmp_path / 'out'}"}}}}
  - {{name: heuristic, command: [{PY}, {BOTS / 'heuristic_bot.py'}]}}
""")
    return path


def test_a_tournament_gives_the_spy_nothing_and_the_operator_everything(tmp_path: Path) -> None:
    out = tmp_path / "claims.jsonl"
    config = load_config(spy_config(tmp_path, out))
    outcome = Tournament(config).run()
    assert outcome.exit_code == 0 and outcome.played == 2
    folder = tmp_path / "out"
    assert stat.S_IMODE((folder / "secret").stat().st_mode) == 0o600
    ids = [m.match_id for m in format_for(config).next_matches({})]
    records = {r["match"]: r for r in map(json.loads, (folder / "matches.jsonl").read_text().splitlines())}
    # No id carries its seed.
    assert all(str(records[i]["seed"]) not in i for i in ids)
    real = {i: dealt(folder / "logs" / f"{i}.jsonl") for i in ids}
    got, tried = claims(out)
    # The spy looked everywhere it could: the config's seeds (which are the records' seeds), the id.
    sources = set().union(*(t["sources"] for t in tried))
    assert {"config seed, group 0", "match id"} <= sources, sources
    assert {records[i]["seed"] for i in ids} == {format_for(config).next_matches({})[0].seed}
    wrong_or_absent = all(real[t["match"]].get((c["hand"], c["seat"])) != c["cards"] for t in tried for c in got)
    assert wrong_or_absent, got
    # Twins: the second leg's spy saw no transcript of the first leg (it was still private).
    first, second = ids
    seen_in_second = [t["logs"] for t in tried if t["match"] == second]
    assert seen_in_second and all(not any(name.startswith(first) for name in logs) for logs in seen_in_second)
    assert not list((folder / ".staging").iterdir())  # both legs recorded: published into logs/
    assert stat.S_IMODE((folder / ".staging").stat().st_mode) == 0o700
    # ... and both legs met the same cards, seats swapped.
    assert sorted(map(sorted, real[first].values())) == sorted(map(sorted, real[second].values()))
    # The operator recovers every deal of a record.
    for match_id in ids:
        proc = spades("deal", str(folder), match_id, "--json")
        assert proc.returncode == 0, proc.stderr
        deal = json.loads(proc.stdout)
        assert deal["deals"] == "secret"
        recovered = {(h["hand"], s): cards for h in deal["hands"] for s, cards in enumerate(h["seats"])}
        assert recovered == real[match_id]


def test_the_same_secret_deals_the_same_cards_and_a_new_one_others(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    cfg = spy_config(base, base / "claims.jsonl")
    assert Tournament(load_config(cfg)).run().exit_code == 0
    ids = [m.match_id for m in format_for(load_config(cfg)).next_matches({})]
    cards = {i: dealt(base / "out" / "logs" / f"{i}.jsonl") for i in ids}
    # A re-run into a folder holding the same secret: the same deals.
    same = tmp_path / "same"
    (same / "out").mkdir(parents=True)
    shutil.copy2(base / "out" / "secret", same / "out" / "secret")
    assert Tournament(load_config(spy_config(same, same / "claims.jsonl"))).run().exit_code == 0
    assert {i: dealt(same / "out" / "logs" / f"{i}.jsonl") for i in ids} == cards
    # A fresh folder makes a fresh secret: other deals from the same config seed.
    other = tmp_path / "other"
    other.mkdir()
    assert Tournament(load_config(spy_config(other, other / "claims.jsonl"))).run().exit_code == 0
    assert dealt(other / "out" / "logs" / f"{ids[0]}.jsonl") != cards[ids[0]]
