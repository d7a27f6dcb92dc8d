"""`spades match` end to end: snapshot of its output, the record on disk, mixed languages."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import BOTS, PY
from referee.cli.main import bot_name, cli, unique_names
from referee.game.rules import Rules, Variant
from referee.game.scoring import score_hand

SNAPSHOTS = Path(__file__).parent / "snapshots"
HEUR = f"{PY} {BOTS / 'heuristic_bot.py'}"


def run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("SPADES_UPDATE_SNAPSHOTS"):
        path.write_text(text)
    assert text == path.read_text(), f"output differs from {path}; SPADES_UPDATE_SNAPSHOTS=1 rewrites it"


@pytest.mark.parametrize("variant", ["partnership", "two-player"])
def test_match_output_snapshot(variant):
    # (An explicit id: the default one is random, see test_default_seed_and_id_are_fresh_and_unrelated.)
    out = run(["match", "--variant", variant, "--seed", "3", "--match-id", f"snapshot-{variant}",
               "--bot", HEUR, "--bot", HEUR,
               "--name", "north-south" if variant == "partnership" else "alpha",
               "--name", "east-west" if variant == "partnership" else "beta"])
    check_snapshot(f"match-{variant}-seed3.txt", out)


def test_match_record_and_transcript_on_disk(tmp_path):
    out = run(["match", "--variant", "partnership", "--seed", "11", "--bot", HEUR,
               "--bot", f"node {BOTS / 'js' / 'random_bot.js'}", "--output", str(tmp_path), "--match-id", "mixed"])
    assert "Result:" in out
    record = json.loads((tmp_path / "matches.jsonl").read_text())
    for key in ("match", "variant", "seed", "bots", "hands", "score", "winner", "reason", "faults", "seconds"):
        assert key in record
    assert record["bots"] == ["heuristic_bot", "random_bot", "heuristic_bot", "random_bot"]
    assert record["faults"] == [] and record["reason"] in ("target", "max_hands")
    # Every hand's points are the scoring function's, and scores add up.
    score, bags = [0, 0], [0, 0]
    for hand in record["hands"]:
        s = score_hand(Variant.PARTNERSHIP, Rules(), hand["bids"], hand["blind"], hand["tricks"], bags)
        assert list(s.points) == hand["points"]
        score = [a + b for a, b in zip(score, s.points)]
        bags = list(s.bags)
        assert hand["score"] == score and hand["bags"] == bags
    assert record["score"] == score
    if record["reason"] == "target":
        assert max(score) >= 500 and record["winner"] == (0 if score[0] > score[1] else 1)
    transcript = (tmp_path / "logs" / "mixed.jsonl").read_text().splitlines()
    kinds = {json.loads(l).get("msg", {}).get("type") for l in transcript}
    assert {"hello", "hand_start", "bid", "play", "played", "trick", "hand_end", "match_end"} <= kinds
    assert all((tmp_path / "logs" / f"mixed.{s}.stderr").exists() for s in range(4))


def test_default_seed_and_id_are_fresh_and_unrelated(tmp_path):
    """Without --seed each match deals from a fresh seed, which the output shows and the id does not carry."""
    records = []
    for n in range(2):
        run(["match", "--variant", "two-player", "--rule", "max_hands=1", "--bot", HEUR, "--bot", HEUR,
             "--output", str(tmp_path), "--quiet"])
    records = [json.loads(line) for line in (tmp_path / "matches.jsonl").read_text().splitlines()]
    (a, b) = records
    assert a["seed"] != b["seed"] and a["match"] != b["match"]
    for r in records:
        assert r["match"].startswith("two-player-") and str(r["seed"]) not in r["match"] and r["deals"] == "seed"
    # The seed replays the match: same deals, so the same hand with these deterministic bots.
    again = json.loads(run(["match", "--variant", "two-player", "--rule", "max_hands=1", "--bot", HEUR,
                            "--bot", HEUR, "--seed", str(a["seed"]), "--json"]))
    assert again["hands"] == a["hands"] and again["seed"] == a["seed"]


def test_usage_errors_are_clear():
    runner = CliRunner()
    r = runner.invoke(cli, ["match", "--variant", "two-player", "--bot", HEUR])
    assert r.exit_code == 2 and "two-player needs exactly 2 --bot options, got 1" in r.output
    r = runner.invoke(cli, ["match", "--bot", HEUR, "--bot", HEUR, "--rule", "targte=300"])
    assert r.exit_code == 2 and "did you mean 'target'" in r.output
    r = runner.invoke(cli, ["match", "--bot", HEUR, "--bot", HEUR, "--bot", HEUR])
    assert r.exit_code == 2 and "2 --bot options (one per side) or 4" in r.output


def test_bot_names():
    assert bot_name("python3 bots/heuristic_bot.py") == "heuristic_bot"
    assert bot_name("node bots/js/random_bot.js --fast") == "random_bot"
    assert bot_name("./mybot") == "mybot"
    assert unique_names(["a", "b", "a"]) == ["a", "b", "a#2"]
