"""Bad command-line values of `spades match` and `spades check-bot` are refused with exit 2,
naming the option and quoting the value, before any match starts (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

BOTS = ["--variant", "two-player", "--bot", "builtin:random", "--bot", "builtin:random", "-q"]
HUGE = str(10 ** 30)

CASES = [
    (["--match-id", "../../escaped"], "--match-id", "'../../escaped'"),
    (["--match-id", "sub/dir/x"], "--match-id", "'sub/dir/x'"),
    (["--match-id", "a" * 300], "--match-id", "'aaaa"),
    (["--match-id", "a\0b"], "--match-id", "'a\\x00b'"),
    (["--move-ms", HUGE], "--move-ms", HUGE),
    (["--bank-ms", HUGE], "--bank-ms", HUGE),
    (["--move-ms", "-1"], "--move-ms", "-1"),
    (["--max-faults", "-1"], "--max-faults", "-1"),
    (["--rule", "target={"], "--rule", "'{'"),
    (["--rule", "target=" + "[" * 5000], "--rule", "(5000 characters)"),
    (["--target", "0"], "--target", "got: 0"),
    (["--output", "/proc/spades-cannot-be-here"], "--output", "'/proc/spades-cannot-be-here'"),
]


@pytest.mark.parametrize("extra,option,shown", CASES, ids=[c[0][0] + ":" + c[0][1][:12] for c in CASES])
def test_match_option_refused(extra: list[str], option: str, shown: str, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["match", *BOTS, *extra])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"Invalid value for {option}:" in result.output and shown in result.output
    assert list(tmp_path.iterdir()) == []  # nothing written: not inside, not outside


@pytest.mark.parametrize("bot,shown", [("", "empty bot command, got: ''"),
                                       ("python3 nosuch_bot.py", "script 'nosuch_bot.py' not found"),
                                       ("python3 'x", "does not parse as shell words"),
                                       ("no-such-program-xyz", "program 'no-such-program-xyz' not found")])
def test_a_bot_that_cannot_start_is_refused_before_the_match(bot: str, shown: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["match", "--variant", "two-player", "--bot", bot, "--bot", "builtin:random"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for --bot:" in result.output and shown in result.output
    assert "Match " not in result.output  # no match was played


@pytest.mark.parametrize("value", ["0", "-5", HUGE])
def test_check_bot_move_ms_out_of_bounds(value: str) -> None:
    result = CliRunner().invoke(cli, ["check-bot", "--move-ms", value, "builtin:random"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for --move-ms:" in result.output and f"got: {value}" in result.output
    assert "Checking" not in result.output


def test_a_missing_command_is_exit_2() -> None:
    assert CliRunner().invoke(cli, ["match"]).exit_code == 2
    assert CliRunner().invoke(cli, ["no-such-command"]).exit_code == 2
