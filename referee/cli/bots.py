"""``spades bots``: the bundled bots, by the name a config or ``--bot`` gives them."""

from __future__ import annotations

import shlex

import click
from tabulate import tabulate

from referee.seat.builtin import BUILTINS, PREFIX, bots_dir

__all__ = ["bots_command"]


@click.command("bots")
def bots_command() -> None:
    """List the bundled bots and the command each one runs.

    Use a bot by its name anywhere a bot command goes, from any folder:
    `--bot builtin:heuristic`, or `command: builtin:strong --budget 40ms` in a
    tournament config (words after the name are the bot's own options).
    """
    rows = []
    for bot in BUILTINS.values():
        note = "" if bot.available() else f"  (unavailable here: needs {bot.interpreter[0]})"
        rows.append([PREFIX + bot.name, bot.language, bot.summary + note, shlex.join(bot.argv())])
    click.echo(tabulate(rows, headers=["name", "language", "what it does", "runs"], tablefmt="plain"))
    click.echo(f"\nThe bots' files are in {bots_dir()}")
