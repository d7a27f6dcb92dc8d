"""Bundled bots by name: ``builtin:NAME`` resolves the same way for a match, a config and the CLI."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import BOTS
from referee.cli.main import cli
from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat.builtin import BUILTINS, BuiltinError, bots_dir, builtin_name, resolve
from referee.seat.spec import SeatSpec, bot_name
from referee.tournament.config import ConfigError, load_config


def test_names_resolve_to_the_bundled_files_with_their_options():
    assert bots_dir() == BOTS  # in a clone: the repository's own bots/
    assert resolve("builtin:heuristic") == [sys.executable, str(BOTS / "heuristic_bot.py")]
    assert resolve(["builtin:strong", "--budget", "40ms"]) == [sys.executable, str(BOTS / "strong_bot.py"),
                                                              "--budget", "40ms"]
    assert resolve("builtin:random-js") == ["node", str(BOTS / "js" / "random_bot.js")]
    assert resolve("python3 mybot.py") == "python3 mybot.py"  # other commands are left alone
    for bot in BUILTINS.values():
        assert (BOTS / bot.path).is_file(), bot


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(BuiltinError) as info:
        resolve("builtin:heuristc --x")
    assert "no bundled bot named 'heuristc', got: 'builtin:heuristc'" in str(info.value)
    assert "builtin:heuristic" in str(info.value) and "spades bots" in str(info.value)


def test_display_names():
    assert builtin_name("builtin:strong --budget 5ms") == "strong" and builtin_name("./x") is None
    assert bot_name("builtin:heuristic") == "heuristic"
    assert bot_name(["builtin:strong", "--budget", "40ms"]) == "strong"


def test_a_match_seats_builtins(tmp_path: Path):
    seats = [SeatSpec("r", "builtin:random"), SeatSpec("h", ["builtin:heuristic"])]
    record = run_match(MatchSpec(variant=Variant.TWO_PLAYER, seats=seats, rules=Rules(max_hands=1), grace_s=0.2))
    assert record.faults == [] and len(record.hands) == 1


def test_a_config_accepts_builtins_and_names_a_bad_one(tmp_path: Path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent("""\
        name: t
        variant: two-player
        bots:
          - {name: a, command: builtin:random}
          - {name: b, command: [builtin:strong, --budget, 5ms]}
    """))
    config = load_config(path)
    assert [b.command for b in config.bots] == [("builtin:random",), ("builtin:strong", "--budget", "5ms")]
    path.write_text(path.read_text().replace("builtin:random", "builtin:randon"))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "bots[0].command: no bundled bot named 'randon'" in str(info.value)


def test_spades_bots_lists_every_builtin_with_its_command():
    result = CliRunner().invoke(cli, ["bots"])
    assert result.exit_code == 0
    for bot in BUILTINS.values():
        assert f"builtin:{bot.name}" in result.output and str(BOTS / bot.path) in result.output
    bad = CliRunner().invoke(cli, ["match", "--bot", "builtin:nope", "--bot", "builtin:random"])
    assert bad.exit_code == 2 and "no bundled bot named 'nope'" in bad.output
