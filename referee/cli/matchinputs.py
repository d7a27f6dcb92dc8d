"""The command-line boundary of ``spades match``: every option value checked before the match starts.

A value that passes here is within the bounds of :mod:`referee.tournament.limits`;
one that does not is refused as a usage error (exit 2) naming the option and
quoting the value, instead of surfacing mid-match as an ``OverflowError``
(``--move-ms 10^30``), a ``ValueError`` (an unclosed quote in ``--bot``), a
log written outside ``--output`` (``--match-id ../x``) or a 0-0 forfeit of
a bot that could never start.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Any

import click
import yaml

from referee.game.rules import RuleError, Rules
from referee.seat.builtin import builtin_name
from referee.tournament.config import check_command
from referee.tournament.limits import MAX_MATCH_ID_CHARS, ms_problem, name_problem, quoted

__all__ = ["check_match_inputs", "check_ms", "rule_value"]


def rule_value(key: str, text: str) -> Any:
    """The YAML scalar of one ``--rule key=value``, or a usage error saying why it does not parse."""
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError as exc:
        reason = str(getattr(exc, "problem", None) or exc).splitlines()[0]
        raise click.BadParameter(f"rule {key!r}: the value does not parse ({reason}), got: {quoted(text)}",
                                 param_hint="--rule") from None
    except RecursionError:
        raise click.BadParameter(f"rule {key!r}: the value nests too deeply, got: {quoted(text)}",
                                 param_hint="--rule") from None


def _check_bot(command: str) -> None:
    if not command.strip():
        raise click.BadParameter(f"empty bot command, got: {command!r}; give the program to run, e.g. "
                                 "--bot 'python3 bots/random_bot.py' or --bot builtin:random", param_hint="--bot")
    if builtin_name(command) is not None:
        return  # the caller resolves bundled bots and names the known ones
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise click.BadParameter(f"the command does not parse as shell words ({exc}), got: {quoted(command)}",
                                 param_hint="--bot") from None
    problem = check_command(argv, Path.cwd()) if argv else "empty bot command"
    if problem is not None:
        raise click.BadParameter(f"{problem}, in: {quoted(command)}", param_hint="--bot")


def _check_output(output: Path) -> None:
    try:
        output.mkdir(parents=True, exist_ok=True)
        tempfile.NamedTemporaryFile(dir=output, prefix=".write-test-", delete=True).close()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise click.BadParameter(f"cannot write to the folder {quoted(str(output))}: {reason}",
                                 param_hint="--output") from None


def check_ms(option: str, value: int, low: int) -> None:
    """Refuse a time option outside ``low`` .. one day (a clock deadline of 10^30 ms overflows)."""
    problem = ms_problem(value, low)
    if problem is not None:
        raise click.BadParameter(problem, param_hint=option)


def check_match_inputs(*, bots: tuple[str, ...], match_id: str | None, target: int | None,
                       times: dict[str, int], max_faults: int, output: Path | None) -> None:
    """Refuse, as a :class:`click.BadParameter`, the first option value the match cannot use."""
    for command in bots:
        _check_bot(command)
    if match_id is not None:
        problem = name_problem(match_id, "match id", longest=MAX_MATCH_ID_CHARS)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="--match-id")
    if target is not None:
        try:
            Rules.from_mapping({"target": target}, where="--target")
        except RuleError as exc:
            raise click.BadParameter(str(exc), param_hint="--target") from None
    for option, value in times.items():
        check_ms(option, value, 0)
    if max_faults < 1:
        raise click.BadParameter(f"must be at least 1, got: {max_faults}", param_hint="--max-faults")
    if output is not None:
        _check_output(output)
