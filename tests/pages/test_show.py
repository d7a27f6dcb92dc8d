"""`spades show`: snapshots of its plain text, and its errors.

The matches are seeded, so the text is the same on every run.
`SPADES_UPDATE_SNAPSHOTS=1 python3 -m pytest tests/pages/test_show.py` rewrites the snapshots.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from pages_support import SNAPSHOTS, results  # noqa: F401 (results: a fixture)

from referee.cli.main import cli


def run(args: list[str], code: int = 0) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("SPADES_UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"output differs from {path}; SPADES_UPDATE_SNAPSHOTS=1 rewrites it"


@pytest.mark.parametrize("name,args", [
    ("show-partnership-hand2.txt", ["p7", "--hand", "2"]),
    ("show-partnership-seat0.txt", ["p7", "--hand", "1", "--seat", "0"]),
    ("show-two-player-seat1.txt", ["t3", "--hand", "1", "--seat", "1"]),
    ("show-forfeit.txt", ["ff"]),
])
def test_show_snapshot(results: Path, name: str, args: list[str]) -> None:
    check_snapshot(name, run(["show", str(results)] + args))


def test_show_by_transcript_path_is_the_same(results: Path) -> None:
    assert run(["show", str(results / "logs" / "t3.jsonl")]) == run(["show", str(results), "t3"])


def test_show_output_is_plain_ascii_text(results: Path) -> None:
    text = run(["show", str(results), "p7"])
    assert "\x1b" not in text and all(ord(ch) < 128 or ch == "\u00b7" for ch in text)


def test_show_refuses_a_hand_or_seat_out_of_range(results: Path) -> None:
    assert "has hands 1 to 6, got: 9" in run(["show", str(results), "p7", "--hand", "9"], code=2)
    assert "seats are 0 to 1, got: 3" in run(["show", str(results), "t3", "--seat", "3"], code=2)
    assert "name one: p7, t3, ff, long" in run(["show", str(results)], code=2)
