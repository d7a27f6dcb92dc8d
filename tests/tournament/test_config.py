"""Tournament config validation: every error names file, line, key path and a fix."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from referee.game.rules import Variant
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultPolicy
from referee.tournament.config import (
    _BOT_KEYS, _RULE_KEYS, _TIME_KEYS, _TOP_KEYS, ConfigError, check_command, load_config,
)
from referee.tournament.results import ResultsError, ResultsFolder

ROOT = Path(__file__).resolve().parents[2]
PY = Path(sys.executable).name if Path(sys.executable).name.startswith("python") else "python3"


def write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def bot_script(tmp_path: Path, name: str = "bot.py") -> Path:
    script = tmp_path / name
    script.write_text("import sys\nfor line in sys.stdin: pass\n")
    return script


def errors_of(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return str(info.value)


@pytest.fixture
def two_bots(tmp_path: Path) -> str:
    bot_script(tmp_path)
    return textwrap.dedent("""\
        bots:
          - name: a
            command: [python3, bot.py]
          - name: b
            command: python3 bot.py
        """)


def test_minimal_config_gets_every_default(tmp_path: Path, two_bots: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cfg = load_config(write(tmp_path, "variant: two-player\n" + two_bots, "mini.yaml"))
    assert cfg.name == "mini"  # the file's stem
    assert cfg.variant is Variant.TWO_PLAYER
    assert (cfg.seed, cfg.format, cfg.matches_per_pairing, cfg.duplicate, cfg.concurrency) == \
        (0, "round-robin", 2, True, 1)
    assert cfg.rules.target == 500 and cfg.time == TimeControl() and cfg.faults is FaultPolicy.FORFEIT
    assert cfg.output == (tmp_path / "results" / "mini").resolve()
    assert [b.name for b in cfg.bots] == ["a", "b"]
    assert cfg.bots[1].command == ("python3", "bot.py")  # a string is split like a shell would
    assert all(b.cwd == tmp_path.resolve() for b in cfg.bots)  # default cwd: the config's folder


def test_relative_paths_start_at_the_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sub = tmp_path / "cfg"
    (sub / "bots").mkdir(parents=True)
    bot_script(sub / "bots", "x.py")
    monkeypatch.chdir(ROOT)  # anywhere else
    cfg = load_config(write(sub, """
        variant: partnership
        output: out/here
        bots:
          - {name: a, command: [python3, x.py], cwd: bots}
          - {name: b, command: [python3, bots/x.py]}
        """))
    assert cfg.output == (sub / "out" / "here").resolve()
    assert cfg.bots[0].cwd == (sub / "bots").resolve()


def test_typo_in_bot_key_names_path_line_and_nearest_key(tmp_path: Path, two_bots: str) -> None:
    path = write(tmp_path, "variant: partnership\n" + two_bots + "  - name: c\n    comand: [python3, bot.py]\n")
    text = errors_of(path)
    # line 8 is "    comand: ...", column 5 is where the key starts
    assert f"{path}:8:5: bots[2].comand: unknown key 'comand'; did you mean 'command'?" in text
    assert "bots[2].command: missing required key 'command'" in text


def test_typo_in_top_level_and_rules_keys(tmp_path: Path, two_bots: str) -> None:
    text = errors_of(write(tmp_path, "variant: partnership\nconcurency: 2\nrules: {targt: 300}\n" + two_bots))
    assert ":2:1: concurency: unknown key 'concurency'; did you mean 'concurrency'?" in text
    assert "rules.targt: unknown key 'targt'; did you mean 'target'?" in text


def test_malformed_yaml_reports_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "variant: partnership\nbots:\n  - name: a\n    command: [python3, bot.py\n  - name: b\n")
    text = errors_of(path)
    # PyYAML notices at the ':' of line 5 that the '[' of line 4 was never closed.
    assert text == (f"{path}:5:9: malformed YAML: expected ',' or ']', but got ':' "
                    "(while parsing a flow sequence at line 4)"), text


def test_negative_concurrency_and_bad_values_quote_the_value(tmp_path: Path, two_bots: str) -> None:
    text = errors_of(write(tmp_path, "variant: partnership\nconcurrency: -2\nduplicate: yes please\n"
                                     "rules: {target: 0}\ntime: {move_ms: fast}\n" + two_bots))
    assert ":2:14: concurrency: must be at least 1, got: -2" in text
    assert "duplicate: must be true or false, got: 'yes please'" in text
    assert "rules.target: must be at least 1, got: 0" in text
    assert "time.move_ms: must be an integer or null, got: 'fast'" in text


def test_unknown_variant_and_format_suggest_the_nearest(tmp_path: Path, two_bots: str) -> None:
    text = errors_of(write(tmp_path, "variant: twoplayer\nformat: roundrobin\nfaults: forfiet\n" + two_bots))
    assert "variant: unknown value 'twoplayer'; did you mean 'two-player'?" in text
    assert "format: unknown value 'roundrobin'; did you mean 'round-robin'?" in text
    assert "faults: unknown value 'forfiet'; did you mean 'forfeit'?" in text


def test_duplicate_bot_names_are_refused(tmp_path: Path) -> None:
    bot_script(tmp_path)
    text = errors_of(write(tmp_path, """
        variant: partnership
        bots:
          - {name: same, command: python3 bot.py}
          - {name: same, command: python3 bot.py}
        """))
    assert "bots[1].name: duplicate bot name 'same' (also bots[0].name)" in text


def test_duplicate_yaml_key_is_refused(tmp_path: Path, two_bots: str) -> None:
    text = errors_of(write(tmp_path, "variant: partnership\nseed: 1\nseed: 2\n" + two_bots))
    assert ":3:1: seed: duplicate key 'seed' (first given at line 2)" in text


def test_missing_program_and_script_are_reported_before_anything_runs(tmp_path: Path) -> None:
    bot_script(tmp_path, "random_bot.py")
    text = errors_of(write(tmp_path, """
        variant: partnership
        bots:
          - {name: a, command: [pyhton3, random_bot.py]}
          - {name: b, command: [python3, randm_bot.py]}
          - {name: c, command: [./nothere]}
        """))
    assert "bots[0].command: program 'pyhton3' not found on PATH; did you mean 'python3'?" in text
    assert "bots[1].command: script 'randm_bot.py' not found" in text
    assert "did you mean 'random_bot.py' in that folder?" in text
    assert "bots[2].command: program './nothere' not found" in text


def test_check_command_understands_interpreter_options(tmp_path: Path) -> None:
    bot_script(tmp_path, "b.py")
    assert check_command(["python3", "-u", "b.py"], tmp_path) is None
    assert check_command(["python3", "-m", "referee.human"], tmp_path) is None  # a module: no script file
    assert check_command(["python3", "-X", "dev", "b.py"], tmp_path) is None
    assert "script 'c.py' not found" in (check_command(["python3", "-u", "c.py"], tmp_path) or "")
    exe = tmp_path / "run.sh"
    exe.write_text("#!/bin/sh\n")
    assert "is not executable" in (check_command(["./run.sh"], tmp_path) or "")
    exe.chmod(0o755)
    assert check_command(["./run.sh"], tmp_path) is None


def test_odd_matches_with_duplicate_is_refused_with_alternatives(tmp_path: Path, two_bots: str) -> None:
    text = errors_of(write(tmp_path, "variant: partnership\nmatches_per_pairing: 3\n" + two_bots))
    assert "matches_per_pairing: must be even when 'duplicate' is true" in text and "use 2 or 4" in text
    cfg = load_config(write(tmp_path, "variant: partnership\nmatches_per_pairing: 3\nduplicate: false\n" + two_bots,
                            "ok.yaml"))
    assert cfg.matches_per_pairing == 3


def test_per_bot_time_overrides_only_the_keys_given(tmp_path: Path) -> None:
    bot_script(tmp_path)
    cfg = load_config(write(tmp_path, """
        variant: partnership
        time: {move_ms: 500, bank_ms: 2000}
        bots:
          - {name: person, command: python3 bot.py, time: {move_ms: null}}
          - {name: b, command: python3 bot.py, env: {SEED: 3, NAME: x}}
        """))
    person, other = cfg.bots
    assert cfg.bot_time(person) == TimeControl(None, 2000, 10000)
    assert cfg.bot_time(other) == TimeControl(500, 2000, 10000)
    assert other.env == {"SEED": "3", "NAME": "x"}


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, """
        variant: partnership
        seed: many
        bots:
          - {name: a, command: [python3, missing.py], env: {FLAG: true}}
        """)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    keys = [i.key for i in info.value.issues]
    assert keys == ["seed", "bots"], keys  # a list of one bot fails as a whole
    assert "a tournament needs at least 2 bots, got 1" in str(info.value)


def test_empty_file_missing_file_and_non_mapping(tmp_path: Path) -> None:
    assert "the file is empty" in errors_of(write(tmp_path, "\n"))
    assert "no such config file" in errors_of(tmp_path / "absent.yaml")
    listed = errors_of(write(tmp_path, "[a, b]\n", "l.yaml"))
    assert "must be a mapping of tournament settings, got: ['a', 'b']" in listed
    text = errors_of(write(tmp_path, "seed: 3\n", "m.yaml"))
    assert "variant: missing required key 'variant'" in text and "bots: missing required key 'bots'" in text


def test_unwritable_output_folder_is_refused_before_any_match(tmp_path: Path, two_bots: str) -> None:
    (tmp_path / "plainfile").write_text("not a folder\n")
    cfg = load_config(write(tmp_path, "variant: partnership\noutput: plainfile/sub\n" + two_bots))
    with pytest.raises(ResultsError, match="cannot write to the output folder"):
        ResultsFolder(cfg.output).prepare(cfg)
    if os.geteuid() != 0:  # root writes anywhere: the permission case needs a normal user
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o555)
        cfg2 = load_config(write(tmp_path, "variant: partnership\noutput: ro/x\n" + two_bots, "ro.yaml"))
        with pytest.raises(ResultsError, match="cannot write"):
            ResultsFolder(cfg2.output).prepare(cfg2)


@pytest.mark.parametrize("name", ["demo.yaml", "two-player.yaml", "example-full.yaml"])
def test_bundled_configs_are_valid(name: str) -> None:
    cfg = load_config(ROOT / "configs" / name)
    assert len(cfg.bots) >= 2


def test_example_full_shows_every_key() -> None:
    data = yaml.safe_load((ROOT / "configs" / "example-full.yaml").read_text())
    assert set(data) == set(_TOP_KEYS)
    assert set(data["rules"]) == set(_RULE_KEYS)
    assert set(data["time"]) == set(_TIME_KEYS)
    assert set().union(*(set(b) for b in data["bots"])) == set(_BOT_KEYS)
