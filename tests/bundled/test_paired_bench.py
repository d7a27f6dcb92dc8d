"""bench/paired.py: the strength tournament it writes for another strong-bot program
and another seed, and the paired difference of two result folders on the same deals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, load_bench

paired = load_bench("paired")
strength = paired.strength


def test_the_config_runs_the_given_program_under_the_rows_rules_and_seed(tmp_path: Path) -> None:
    other = tmp_path / "snapshot" / "strong_bot.py"
    other.parent.mkdir()
    other.write_text("# a snapshot of an earlier strong bot\n")
    row = strength.Row("partnership", (("blind_nil", False),), "heuristic")
    path, cfg = paired.write_config(row, 5, 4242, other, tmp_path / "out")
    on_disk = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert on_disk == cfg
    assert cfg["seed"] == 4242 and cfg["rules"]["blind_nil"] is False and cfg["matches_per_pairing"] == 6
    strong, opponent = cfg["bots"]
    # The program argument, resolved from the folder the bot runs in, is the snapshot.
    program = [a for a in strong["command"] if str(a).endswith(".py")]
    assert len(program) == 1
    run_dir = (path.parent / strong["cwd"]).resolve()
    assert (run_dir / program[0]).resolve() == other.resolve()
    assert "--budget" in strong["command"] and opponent["name"] == "heuristic"
    # Without --strong the template's own program stays.
    _, plain = paired.write_config(row, 5, 4242, None, tmp_path / "plain")
    plain_program = [a for a in plain["bots"][0]["command"] if str(a).endswith(".py")][0]
    assert (ROOT / "bench" / plain_program).resolve() == (ROOT / "bots" / "strong_bot.py").resolve()


def _record(match: str, strong_seat: int, winner: int | None, strong_score: int, other_score: int) -> dict:
    bots = ["strong", "heuristic"] if strong_seat == 0 else ["heuristic", "strong"]
    score = [0, 0]
    score[strong_seat], score[1 - strong_seat] = strong_score, other_score
    return {"match": match, "bots": bots, "winner": winner, "score": score}


def test_compare_pairs_twins_by_match_name() -> None:
    a = [_record("m1a", 0, 0, 500, 300), _record("m1b", 1, 0, 200, 510),
         _record("m2a", 0, 0, 500, 100), _record("m2b", 1, 1, 505, 400)]
    # B wins the first twin's second match and loses the second twin's second match.
    b = [_record("m1a", 0, 0, 500, 300), _record("m1b", 1, 1, 520, 480),
         _record("m2a", 0, 0, 500, 100), _record("m2b", 1, 0, 450, 500)]
    d = paired.paired_difference(a, b)
    assert d["pairs"] == 2
    # Per twin: (0 + 1) / 2 = +0.5 and (0 - 1) / 2 = -0.5 in win rate.
    assert d["win"] == pytest.approx(0.0)
    # Margins: twin 1 (0 + (40 - -310)) / 2 = +175; twin 2 (0 + (-50 - 105)) / 2 = -77.5.
    assert d["margin"] == pytest.approx((175 - 77.5) / 2)
    assert d["win_low"] < 0 < d["win_high"]
    # A twin with only one match in common is not a unit.
    assert paired.paired_difference(a, b[:3]) == {"pairs": 1}


def test_run_refuses_a_missing_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        paired.main(["run", "--opponent", "heuristic", "--matches", "2", "--strong",
                     str(tmp_path / "nope.py"), "--output", str(tmp_path)])
    assert "nope.py" in capsys.readouterr().err and not os.listdir(tmp_path)


def test_deals_from_copies_the_secret_and_compare_refuses_folders_dealt_otherwise(tmp_path: Path) -> None:
    row = strength.Row("two-player", (), "heuristic")
    base = tmp_path / "base" / "row"
    base.mkdir(parents=True)
    (base / strength.SECRET_FILE).write_text("ab" * 32 + "\n")
    _, cfg = paired.write_config(row, 2, 7, None, tmp_path / "new", deals_from=base)
    new = tmp_path / "new" / cfg["output"]
    assert (new / strength.SECRET_FILE).read_bytes() == (base / strength.SECRET_FILE).read_bytes()
    assert paired.same_deals(base, new)
    # Asking again is fine; a folder dealt from another secret is refused, not overwritten.
    paired.write_config(row, 2, 7, None, tmp_path / "new", deals_from=base)
    (base / strength.SECRET_FILE).write_text("cd" * 32 + "\n")
    with pytest.raises(SystemExit, match="already dealt from another secret"):
        paired.write_config(row, 2, 7, None, tmp_path / "new", deals_from=base)
    assert (new / strength.SECRET_FILE).read_text() == "ab" * 32 + "\n"
    # compare: different secrets (or none) are not the same deals.
    with pytest.raises(SystemExit, match="not dealt the same cards"):
        paired.main(["compare", str(base), str(new)])
    with pytest.raises(SystemExit, match="no secret file there"):
        paired.write_config(row, 2, 7, None, tmp_path / "other", deals_from=tmp_path / "base")
