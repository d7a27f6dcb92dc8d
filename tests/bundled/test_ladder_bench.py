"""bench/ladder.py: the derived config takes the run's overrides, and the evenness verdict
says which steps could not be the mean step."""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from conftest import load_bench

ladder = load_bench("ladder")


def args(tmp_path: Path, **over: object) -> argparse.Namespace:
    base = dict(matches=None, variant=None, rule=[], output=str(tmp_path / "lad"), concurrency=None,
                seed=None, fresh=False, report_only=False)
    base.update(over)
    return argparse.Namespace(**base)


def test_seed_matches_and_rules_override_the_template(tmp_path: Path) -> None:
    path, out, cfg = ladder.derived_config(args(tmp_path, matches=5, seed=5151, rule=["target=200"]))
    written = yaml.safe_load(path.read_text())
    assert written == cfg and out == tmp_path / "lad" and path.parent == tmp_path
    assert cfg["seed"] == 5151 and cfg["matches_per_pairing"] == 6  # twins: rounded up to even
    assert cfg["rules"]["target"] == 200 and cfg["rules"]["blind_nil_behind"] == 100
    _, _, plain = ladder.derived_config(args(tmp_path))
    template = yaml.safe_load(ladder.TEMPLATE.read_text())
    assert plain["seed"] == template["seed"] and plain["matches_per_pairing"] == template["matches_per_pairing"]


def step(level: int, value: float, low: float | None, high: float | None) -> dict:
    return {"level": f"level-{level}", "kind": "estimate", "value": value, "low": low, "high": high}


def test_evenness_names_only_the_steps_whose_interval_leaves_out_the_mean_step() -> None:
    even = [step(2, 100, 10, 190), step(3, 160, 70, 250), step(4, 140, 50, 230)]
    assert ladder.evenness_line(even) == "mean step +133 Elo; every step's interval contains it"
    uneven = [step(2, 10, -80, 100), step(3, 250, 160, 340), step(4, 140, 50, None)]
    line = ladder.evenness_line(uneven)
    assert line.startswith("mean step +133 Elo; outside it: ")
    assert "level-2 +10 [-80, +100]" in line and "level-3 +250 [+160, +340]" in line
    assert "level-4" not in line  # an open upper end still contains the mean
