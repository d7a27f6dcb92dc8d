"""Config values that used to pass validation and then crash are refused by `spades run`
with exit 2, naming the key path and quoting the value (issue 17)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

BASE = ("name: t\nvariant: two-player\nseed: 1\nrules: {{target: 100}}\n{top}"
        "bots:\n  - {{name: a, command: builtin:random{bot}}}\n  - {{name: b, command: builtin:random}}\n")


def run(tmp_path: Path, text: str | bytes, name: str = "t.yaml") -> tuple[int, str]:
    cfg = tmp_path / name
    cfg.write_bytes(text.encode() if isinstance(text, str) else text)
    result = CliRunner().invoke(cli, ["run", str(cfg), "--quiet"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def config(top: str = "", bot: str = "") -> str:
    return BASE.format(top=top, bot=bot)


LONG = "x" * 300
CASES = [
    ("move_ms-huge", config(top=f"time: {{move_ms: {10 ** 30}}}\n"), "time.move_ms: must be at most", str(10 ** 30)),
    ("bank_ms-huge", config(top=f"time: {{bank_ms: {10 ** 30}}}\n"), "time.bank_ms: must be at most", "got: 1000"),
    ("per-pairing-huge", config(top="matches_per_pairing: 1000000000\n"), "matches_per_pairing: must be at most",
     "1000000000"),
    ("output-nul", config(top='output: "a\\0b"\n'), "output: must be a folder path without a NUL", "'a\\x00b'"),
    ("output-long", config(top=f"output: {LONG}\n"), "output: has a name longer than", "'xxxx"),
    ("cwd-nul", config(bot=', cwd: "a\\0b"'), "bots[0].cwd: must be a folder path without a NUL", "'a\\x00b'"),
    ("cwd-long", config(bot=f", cwd: {LONG}"), "bots[0].cwd: has a name longer than", "'xxxx"),
    ("script-long", config().replace("builtin:random}", f"[python3, {LONG}.py]}}", 1),
     "bots[0].command: cannot look up the command", "xxxx"),
    ("name-long", config().replace("name: a,", f"name: {'a' * 300},"), "bots[0].name: must be a name",
     "(300 characters)"),
    ("tournament-name-long", config().replace("name: t\n", f"name: {'t' * 300}\n"), "name: must be a name",
     "(300 characters)"),
    ("env-equals", config(bot=", env: {'A=B': x}"), "bots[0].env.A=B: must be an environment variable name", "'A=B'"),
    ("env-empty", config(bot=", env: {'': x}"), "must be an environment variable name", "got: ''"),
    ("env-nul-value", config(bot=', env: {A: "x\\0y"}'), "bots[0].env.A: must be a string without a NUL",
     "'x\\x00y'"),
    ("seed-long-string", config().replace("seed: 1\n", f"seed: '{'9' * 200_000}'\n"), "seed: must be an integer",
     "(200000 characters)"),
    ("deep", config(top="extra: " + "[" * 10_000 + "]" * 10_000 + "\n"), "nests", "deep"),
    ("deep-within-recursion", config(top="rules: " + "[" * 200 + "]" * 200 + "\n"), "nests more than 64", ""),
]


@pytest.mark.parametrize("text,where,shown", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_config_value_refused(text: str, where: str, shown: str, tmp_path: Path) -> None:
    code, output = run(tmp_path, text)
    assert code == 2, output
    assert where in output and shown in output, output
    assert len(output) < 2000  # a huge value is never quoted back whole
    assert not (tmp_path / "results").exists()


def test_symlink_loops_are_refused(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")
    code, output = run(tmp_path, config(top="output: loop/out\n", bot=", cwd: loop"))
    assert code == 2
    assert "output: cannot resolve 'loop/out': it runs into a symlink loop" in output
    assert "bots[0].cwd: cannot resolve 'loop': it runs into a symlink loop" in output


def test_a_cwd_that_is_a_file_is_called_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    code, output = run(tmp_path, config(bot=", cwd: f"))
    assert code == 2 and "bots[0].cwd: folder 'f' is a file, not a folder" in output


def test_a_billion_laughs_is_refused_at_once(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9))
    started = time.process_time()
    code, output = run(tmp_path, bomb + config())
    assert time.process_time() - started < 5  # not expanded (it would take minutes and gigabytes)
    assert code == 2 and "expands to more than 100,000 values" in output and "alias bomb" in output


def test_a_config_that_is_too_big_or_endless_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["run", "/dev/zero", "--quiet"])
    assert result.exit_code == 2 and "/dev/zero: is larger than 1,048,576 bytes" in result.output


def test_non_utf8_is_reported_with_its_line(tmp_path: Path) -> None:
    code, output = run(tmp_path, b"name: t\nvariant: two-player\nseed: \xff\n")
    assert code == 2 and "is not UTF-8 text (byte 35, line 3" in output


def test_a_key_yaml_reads_as_a_value_is_shown_as_written(tmp_path: Path) -> None:
    code, output = run(tmp_path, config() + "~: 1\n")
    assert code == 2 and ":8:1: ~: unknown key '~' (YAML reads it as the value None, not a name)" in output


def test_an_empty_config_path_is_refused_as_a_path() -> None:
    result = CliRunner().invoke(cli, ["run", ""])
    assert result.exit_code == 2 and "must be a path, got: ''" in result.output


def test_a_folder_the_user_cannot_enter_is_a_message_not_a_traceback(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root here, for whom every folder can be entered: make the lookups fail as they do for a user.
    real_exists = Path.exists

    def denied(self: Path, *args: object, **kwargs: object) -> bool:
        if "locked" in self.parts:
            raise PermissionError(13, "Permission denied", os.fspath(self))
        return real_exists(self)
    monkeypatch.setattr(Path, "exists", denied)
    monkeypatch.setattr(Path, "is_file", denied)
    (tmp_path / "locked").mkdir()
    code, output = run(tmp_path, config(bot=", cwd: locked"))
    assert code == 2 and "bots[0].cwd: folder 'locked' cannot be looked at: Permission denied" in output
    code, output = run(tmp_path, config().replace("builtin:random}", "[python3, locked/bot.py]}", 1))
    assert code == 2 and "bots[0].command: cannot look up the command 'python3 locked/bot.py': Permission denied" \
        in output
