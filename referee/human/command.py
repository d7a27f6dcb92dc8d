"""``spades human`` (also ``python -m referee.human``): the adapter a person plays through.

It imports only what the adapter needs, so the adapter process starts fast;
``spades play``, which starts a whole match around it, is :mod:`referee.human.play`.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import sys
import termios

import click

from referee.human.adapter import run_adapter
from referee.seat import builtin

__all__ = ["human_command"]


@click.command("human")
@click.option(
    "--tty",
    metavar="PATH",
    envvar="SPADES_TTY",
    show_envvar=True,
    help="Terminal to play on, e.g. /dev/pts/3 (run `tty` in that window). Default: the controlling terminal.",
)
@click.option("--input", "input_path", metavar="FILE", help="Read the person's answers from FILE (with --output).")
@click.option("--output", "output_path", metavar="FILE", help="Write the person's screen to FILE (with --input).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain letters (QS, 10H) instead of suit symbols and colours.")
@click.option("--color/--no-color", default=None, help="Force colours on or off (default: on for a terminal, off with NO_COLOR).")
@click.option("--name", default="human", show_default=True, help="Name sent to the referee in the hello answer.")
@click.option(
    "--partner-bot",
    metavar="CMD",
    help="Partnership: play only seat 0 or 1 of your side and let CMD play seat 2 or 3 "
    "(a tournament entry fills both seats of its side).",
)
def human_command(
    tty: str | None,
    input_path: str | None,
    output_path: str | None,
    ascii_only: bool,
    color: bool | None,
    name: str,
    partner_bot: str | None,
) -> None:
    """Play a seat yourself: a protocol-v1 bot that asks a person.

    The referee talks to this command on stdin/stdout like any bot; you see
    the game and answer on a terminal. Use it as a bot command in a tournament
    config, or let `spades play` start it for you.
    """
    partner = None
    if partner_bot is not None:
        partner = shlex.split(partner_bot)
        if not partner:
            raise click.BadParameter(f"empty command, got: {partner_bot!r}", param_hint="--partner-bot")
        try:
            partner = list(builtin.resolve(partner))
        except builtin.BuiltinError as exc:
            raise click.BadParameter(str(exc), param_hint="--partner-bot") from None
    _leave_terminal_if_in_background()
    sys.exit(run_adapter(tty, input_path, output_path, ascii_only, color, name, partner))


def _leave_terminal_if_in_background() -> None:
    """Give up the controlling terminal when this process is a background job of it.

    The referee starts bots in process groups of its own session, so a
    human adapter that a tournament config starts shares the referee's
    terminal as a background group: reading it would stop the adapter
    (SIGTTIN) and the match would hang until the start-up timeout. Without
    a controlling terminal the adapter says at once that it needs ``--tty``
    (and a terminal named with ``--tty`` works, its reads are then not
    subject to job control). ``spades play`` starts its adapter in a new
    session, which has no controlling terminal to begin with; run directly
    at a shell prompt the adapter is the foreground job and keeps it.
    """
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return  # no controlling terminal
    try:
        # Never as a session leader: for it, TIOCNOTTY would hang up the terminal's jobs.
        if os.getsid(0) != os.getpid() and os.tcgetpgrp(fd) != os.getpgrp():
            fcntl.ioctl(fd, termios.TIOCNOTTY)
    except OSError:
        pass  # keep the terminal; the adapter reports whatever goes wrong with it
    finally:
        os.close(fd)
