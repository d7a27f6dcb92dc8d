"""check-bot's report for the classic mistakes: one precise fault, its likely cause, no noise.

Each case runs a small bot from ``tests/bots/mistakes_bot.py`` through the
real check-bot and compares the faults part of the report with a snapshot
(``SPADES_UPDATE_SNAPSHOTS=1`` rewrites them).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import PY, ROOT
from referee.cli.main import cli

MISTAKES = Path(__file__).resolve().parent.parent / "bots" / "mistakes_bot.py"
SNAPSHOTS = Path(__file__).parent / "snapshots"


def check_bot(*args: str, move_ms: int = 1000) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check-bot", "--quick", "--move-ms", str(move_ms), "--slow-ms", "100000",
                                      "--startup-ms", "2000", "--", PY, str(MISTAKES), *args],
                                catch_exceptions=False)
    return result.exit_code, result.output


def faults_part(output: str) -> str:
    """From the faults header to the end, with this machine's paths and the stderr lines taken out."""
    start = re.search(r"^\d+ FAULTS?\b", output, re.M)
    assert start, output
    text = output[start.start():].replace(str(ROOT), "<repo>").replace(PY, "<python>")
    # The traceback itself differs between Python versions: other tests check it.
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith(("    | ", "    last ")))


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("SPADES_UPDATE_SNAPSHOTS"):
        path.write_text(text)
    assert text == path.read_text(), f"output differs from {path}; SPADES_UPDATE_SNAPSHOTS=1 rewrites it"


@pytest.mark.parametrize("mode", ["debug-line", "lowercase", "ten", "no-flush", "traceback"])
def test_report_snapshot(mode):
    code, out = check_bot(mode)
    assert code == 1
    check_snapshot(f"checkbot-{mode}.txt", faults_part(out))
    # Never a crash that did not happen, and never the referee's stand-ins reported as faults.
    assert ("crash:" in out) == (mode == "traceback")
    assert "no longer running; the referee decides for it" not in out


def test_a_debug_line_is_one_fault_with_its_cause_and_what_the_referee_did():
    code, out = check_bot("debug-line")
    part = faults_part(out)
    assert part.startswith("1 FAULT ")
    assert "malformed: answer is not JSON" in part and "got 'DEBUG playing" in part
    assert "hint: log to stderr; stdout is for answers" in part
    assert "the referee stopped reading this bot after the malformed answer" in part
    assert "unexpected:" not in part and "Stopped after" not in out


def test_repeated_faults_are_grouped():
    code, out = check_bot("lowercase")
    part = faults_part(out)
    assert part.count('got "') == 1  # the first in full, once
    match = re.search(r"and (\d+) more like it \(requests (.*)\)", part)
    assert match and int(match.group(1)) > 50
    assert 'hint: cards are rank then suit in upper case, e.g. "7C"' in part


def test_ten_written_as_10_gets_its_hint():
    _, out = check_bot("ten")
    assert 'got "10' in out and 'hint: ten is T' in out


def test_no_hello_answer_is_at_start_up_with_the_allowance_as_given():
    _, out = check_bot("no-flush")
    assert "startup: hello: no answer within the 2000 ms start-up allowance" in out
    assert "in hand" not in out
    assert "hint: did the bot flush stdout after writing? Many languages buffer a pipe" in out
    assert re.search(r"^  hello +0$", out, re.M), "a bot that never answered hello answered nothing"
    assert "NOT COMPLIANT: see the faults above." in out


def test_a_crash_shows_the_end_of_the_bots_stderr():
    _, out = check_bot("traceback")
    lines = [line[6:] for line in out.splitlines() if line.startswith("    | ")]
    assert 0 < len(lines) <= 20
    assert lines[0].startswith("Traceback") and lines[-1] == "KeyError: 'no_such_field'"
    assert "crash: exited with code 1" in out


def test_a_late_answer_is_a_timeout_and_check_bot_goes_on():
    """The third play answered late (once crashed check-bot's recorder: no read_line).

    The issue's case is 350 ms late at a 200 ms move time; the margins are
    wider here so that a loaded machine does not time out other answers.
    """
    code, out = check_bot("late", "3", "1500", move_ms=600)
    assert code == 1
    part = faults_part(out)
    assert part.startswith("1 FAULT ") and "timeout: no answer within 600 ms" in part
    assert "Traceback" not in out and "Error" not in out
    # The late answer was dropped and the bot went on answering in step: no other fault.
    assert "malformed" not in part and "unexpected" not in part
    assert "[9] two-player: near the bag limit" in out  # every scenario was played
