"""Fuzz the input boundary: config documents and command lines (issue 17).

For every input: no traceback (no exception but a clean exit escapes the
command), a refusal exits 2 with a message that names the key path or the
option, and an existing results folder is left exactly as it was. Inputs the
boundary accepts stop where a match or tournament would start (the runner is
replaced by a sentinel), so the suite plays no games and stays fast.

CI runs ``SPADES_FUZZ_EXAMPLES`` (default 60) examples per property, within
about 30 s; set it higher for a longer local run, e.g.
``SPADES_FUZZ_EXAMPLES=600 pytest tests/fuzz``.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_cases import NASTY_CONFIGS, NASTY_MATCH_ARGS, NASTY_VALUES
from referee.cli import main as cli_main
from referee.cli import tournament as cli_tournament
from referee.cli.main import cli
from referee.tournament import integrity
from referee.tournament.results import ResultsFolder

EXAMPLES = int(os.environ.get("SPADES_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("SPADES_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

BASE: dict[str, Any] = {
    "name": "fz", "variant": "two-player", "seed": 1, "format": "round-robin", "matches_per_pairing": 2,
    "duplicate": True, "concurrency": 1, "rules": {"target": 100}, "time": {"move_ms": 1000, "bank_ms": 5000},
    "faults": "forfeit", "max_faults": 3, "output": "res",
    "bots": [{"name": "a", "command": "builtin:random", "cwd": ".", "env": {"K": "v"}},
             {"name": "b", "command": ["builtin:random"]}],
}
MATCH_BASE = ["match", "--variant", "two-player", "--bot", "builtin:random", "--bot", "builtin:random", "-q"]
MATCH_OPTIONS = ["--variant", "--bot", "--name", "--seed", "--target", "--rule", "--move-ms", "--bank-ms",
                 "--startup-ms", "--faults", "--max-faults", "--output", "--match-id", "--start-hand",
                 "--start-score", "--clock", "--sandbox"]


class Reached(Exception):
    """The input got past the boundary: a match or a tournament would start here."""


class _FakeTournament:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def run(self) -> None:
        raise Reached()


@pytest.fixture
def world(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder with an existing results folder ``res`` (a frozen config and a signed record); matches stubbed."""
    root = tmp_path_factory.mktemp("fuzz")
    folder = ResultsFolder(root / "res")
    secret = folder.secret(create=True)
    assert secret is not None
    (root / "res" / "config.yaml").write_text(yaml.safe_dump(BASE))
    folder.matches_path.write_text(__import__("json").dumps(integrity.sign(secret, {"match": "m1"})) + "\n")
    monkeypatch.setattr(cli_tournament, "Tournament", _FakeTournament)

    def reached(*args: Any, **kwargs: Any) -> None:
        raise Reached()
    monkeypatch.setattr(cli_main, "run_match", reached)
    monkeypatch.chdir(root)
    yield root


def snapshot(folder: Path) -> dict[str, str]:
    return {os.fspath(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


def check(result: Result, names: list[str]) -> None:
    """The invariants: no traceback; accepted, or refused with exit 2 naming one of ``names``."""
    if isinstance(result.exception, Reached):
        return
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{type(result.exception).__name__}: {result.exception}\n{result.output}"
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    assert any(name in result.output for name in names), result.output
    assert len(result.output) < 20_000  # values are quoted back cut short


# ------------------------------------------------------------ configs

KEY_PATHS: list[tuple[Any, ...]] = []


def _paths(value: Any, path: tuple[Any, ...] = ()) -> None:
    KEY_PATHS.append(path)
    if isinstance(value, dict):
        for k, v in value.items():
            _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _paths(v, path + (i,))


_paths(BASE)
KEY_PATHS.remove(())

leaf = st.one_of(st.sampled_from(NASTY_VALUES), st.integers(), st.text(max_size=40), st.booleans(), st.none(),
                 st.floats(allow_nan=False))
values = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                    st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)


def shown_key(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def mutate(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    target = out
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return out


def run_config(world: Path, text: str) -> Result:
    (world / "cfg.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    return CliRunner().invoke(cli, ["run", "cfg.yaml", "--quiet"])


@FUZZ
@given(path=st.sampled_from(KEY_PATHS), value=values)
def test_fuzz_one_config_value(world: Path, path: tuple[Any, ...], value: Any) -> None:
    before = snapshot(world / "res")
    try:
        text = yaml.safe_dump(mutate(BASE, path, value), allow_unicode=True)
    except yaml.YAMLError:
        return  # not a document YAML can write
    result = run_config(world, text)
    # The message names the changed key, or one above it (a list of the wrong type), or the file.
    names = [shown_key(path[:i]) + ":" for i in range(1, len(path) + 1)] + ["cfg.yaml:"]
    check(result, names)
    assert snapshot(world / "res") == before


@FUZZ
@given(key=st.text(min_size=1, max_size=20), value=values)
def test_fuzz_an_added_key(world: Path, key: str, value: Any) -> None:
    before = snapshot(world / "res")
    try:
        text = yaml.safe_dump({**BASE, key: value}, allow_unicode=True)
    except yaml.YAMLError:
        return
    result = run_config(world, text)
    check(result, [":"])
    if key not in BASE:
        assert not isinstance(result.exception, Reached), f"unknown key {key!r} was accepted"
    assert snapshot(world / "res") == before


@FUZZ
@given(data=st.data())
def test_fuzz_config_text(world: Path, data: st.DataObject) -> None:
    """Raw text damage: a slice of the base document replaced by random characters."""
    text = yaml.safe_dump(BASE)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 20)))
    text = text[:start] + data.draw(st.text(max_size=20)) + text[end:]
    before = snapshot(world / "res")
    check(run_config(world, text), ["cfg.yaml:"])
    assert snapshot(world / "res") == before


@pytest.mark.parametrize("name", sorted(NASTY_CONFIGS))
def test_nasty_config(world: Path, name: str) -> None:
    before = snapshot(world / "res")
    result = run_config(world, NASTY_CONFIGS[name])
    check(result, ["cfg.yaml:"])
    assert not isinstance(result.exception, Reached)
    assert snapshot(world / "res") == before


# ------------------------------------------------------------ command lines

option_values = st.one_of(st.sampled_from([str(v) for v in NASTY_VALUES if not isinstance(v, (list, dict))]),
                          st.integers().map(str), st.text(max_size=30))


@FUZZ
@given(option=st.sampled_from(MATCH_OPTIONS), value=option_values)
def test_fuzz_match_option(world: Path, option: str, value: str) -> None:
    before = snapshot(world / "res")
    argv = MATCH_BASE + [option, value]
    if option in ("--bot", "--name"):
        argv = [a for a in MATCH_BASE if a not in ("--bot", "builtin:random")] + [option, value, "--bot",
                                                                                 "builtin:random"]
    result = CliRunner().invoke(cli, argv)
    check(result, [option, "--bot", "--name", "--rule"])  # a --bot/--name count error names them
    assert snapshot(world / "res") == before


@pytest.mark.parametrize("name", sorted(NASTY_MATCH_ARGS))
def test_nasty_match_args(world: Path, name: str) -> None:
    before = snapshot(world / "res")
    args = NASTY_MATCH_ARGS[name]
    result = CliRunner().invoke(cli, MATCH_BASE + args)
    assert not isinstance(result.exception, Reached), f"{args} reached the match"
    check(result, [args[0]])
    assert snapshot(world / "res") == before
    assert not (world.parent / "escaped").exists()


@FUZZ
@given(value=option_values)
def test_fuzz_check_bot_move_ms(world: Path, value: str) -> None:
    result = CliRunner().invoke(cli, ["check-bot", "--move-ms", value, "--quick", "no-such-program-xyz"])
    if result.exit_code == 2:
        assert "--move-ms" in result.output
    else:  # accepted: the check ran against a program that cannot start, and said so
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert re.search(r"not found|cannot|No such file", result.output), result.output
