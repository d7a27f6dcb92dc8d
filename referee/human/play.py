"""``spades play``: sit down at a table with bots, in this terminal.

It starts the adapter (:mod:`referee.human.command`) in a seat of its own and
the bots in the others, plays the match, and says how it went.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shlex
import signal
import sys
import termios
from pathlib import Path
from typing import Any, Iterator

import click

from referee.game.rules import RuleError, Rules, Variant
from referee.human.adapter import program_name
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat import builtin
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultPolicy
from referee.seat.sandbox import SandboxSpec
from referee.seat.spec import SeatSpec
from referee.tournament.results import ResultsFolder

__all__ = ["play_command"]

# The folder from where ``-m referee.human`` imports this very package (a clone's root, or site-packages).
_ROOT = Path(__file__).resolve().parent.parent.parent
_DEFAULT_BOT = "builtin:heuristic"  # the bundled bot, found wherever the package is (referee.seat.builtin)


def _controlling_terminal() -> str | None:
    """Path of the terminal this command runs in (stdin, stdout or stderr), if any."""
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            if os.isatty(fd):
                return os.ttyname(fd)
    return None


@contextlib.contextmanager
def _terminal_restored(path: str) -> Iterator[None]:
    """Put the terminal's settings back however the match ends (the adapter changes them per question)."""
    fd = None
    saved = None
    with contextlib.suppress(OSError, termios.error):
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        saved = termios.tcgetattr(fd)
    try:
        yield
    finally:
        if fd is not None:
            if saved is not None:
                with contextlib.suppress(termios.error):
                    termios.tcsetattr(fd, termios.TCSANOW, saved)
            os.close(fd)


def _take_ctrl_c() -> None:
    """Make Ctrl-C end the match, however this process was started.

    Ctrl-C is how a player leaves. A process inherits the disposition of SIGINT
    across exec: started by a program that ignores it (a background job of a
    script, some IDEs and test runners), Python keeps ignoring it and the player
    could not leave. Only the main thread can set a handler, as here."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _other_seats(bots: tuple[str, ...], count: int) -> list[list[str]]:
    """One command per other seat, clockwise from your left.

    No ``--bot``: the bundled heuristic bot everywhere; one ``--bot``: that
    command in every other seat; otherwise exactly one per other seat.
    """
    if not bots:
        bots = (_DEFAULT_BOT,)
    commands = [shlex.split(b) for b in bots]
    for text, argv in zip(bots, commands):
        if not argv:
            raise click.BadParameter(f"empty bot command, got: {text!r}", param_hint="--bot")
        try:
            builtin.resolve(argv)
        except builtin.BuiltinError as exc:
            raise click.BadParameter(str(exc), param_hint="--bot") from None
    if len(commands) == 1:
        return commands * count
    if len(commands) != count:
        raise click.BadParameter(
            f"give one --bot for all other seats or exactly {count} (one per seat, clockwise from your left), "
            f"got {len(commands)}",
            param_hint="--bot",
        )
    return commands


@click.command("play")
@click.option(
    "--variant",
    type=click.Choice([v.value for v in Variant]),
    default=Variant.PARTNERSHIP.value,
    show_default=True,
    help="Partnership (four seats, your partner opposite) or the two-player game.",
)
@click.option("--bot", "bots", multiple=True, metavar="CMD", help="Command for the other seats (repeat once per seat, clockwise from your left). Default: the bundled heuristic bot.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0-3, or 0-1 in two-player).")
@click.option("--seed", type=int, default=None, help="Seed for the deals (default: random; shown at the end so you can replay).")
@click.option("--target", type=int, default=None, help="Score that ends the match (default: the rules' 500).")
@click.option("--clock", type=float, default=None, metavar="SECONDS", help="Give yourself a move clock (default: none).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain letters (QS, 10H) instead of suit symbols and colours.")
@click.option("--name", default="you", show_default=True, help="Your name in the match record.")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR", help="Save the match record and logs in DIR.")
def play_command(
    variant: str,
    bots: tuple[str, ...],
    seat: int,
    seed: int | None,
    target: int | None,
    clock: float | None,
    ascii_only: bool,
    name: str,
    output: Path | None,
) -> None:
    """Play a match yourself against bots, in this terminal.

    You take one seat through the human adapter; the other seats run the
    heuristic bot unless you name others with --bot.
    """
    game = Variant.parse(variant)
    if not 0 <= seat < game.seats:
        raise click.BadParameter(f"must be 0-{game.seats - 1} in the {game.value} game, got: {seat}", param_hint="--seat")
    try:
        rules = Rules() if target is None else Rules(target=target)
    except RuleError as exc:
        raise click.BadParameter(str(exc), param_hint="--target") from None
    if clock is not None and clock <= 0:
        raise click.BadParameter(f"must be positive, got: {clock}", param_hint="--clock")
    others = _other_seats(bots, game.seats - 1)
    tty = _controlling_terminal()
    if tty is None:
        raise click.UsageError(
            "spades play needs a terminal to show the game; "
            "for scripted play run `spades human --input FILE --output FILE` as a bot"
        )
    seed = random.randrange(2**31) if seed is None else seed
    _take_ctrl_c()

    adapter = [sys.executable, "-m", "referee.human", "--tty", tty, "--name", name]
    if ascii_only:
        adapter.append("--ascii")
    human_time = TimeControl(move_ms=None if clock is None else int(clock * 1000), bank_ms=0)
    seats: list[Any] = [None] * game.seats
    # cwd is the repository root so `-m referee.human` imports this very package.
    # new_session: the adapter reads this terminal; in the referee's session it
    # would be a background process group, stopped by SIGTTIN on its first read.
    # ponder: the adapter keeps drawing the table while the bots play (never frozen); it is sandboxed all the same.
    seats[seat] = SeatSpec(name=name, command=adapter, cwd=str(_ROOT), env=None, time=human_time, new_session=True,
                           sandbox=SandboxSpec(ponder=True))
    for offset, argv in enumerate(others, start=1):
        seats[(seat + offset) % game.seats] = SeatSpec(name=program_name(argv), command=argv, cwd=None, env=None, time=None)
    folder = ResultsFolder(output) if output is not None else None
    spec = MatchSpec(
        variant=game,
        rules=rules,
        seed=seed,
        match_id=f"play-{secrets.token_hex(4)}",  # the bots see the id: it must not give the seed away
        seats=seats,
        time=TimeControl(),
        faults=FaultPolicy.FORFEIT,
        logs=str(folder.logs) if folder is not None else None,
    )
    click.echo(f"Starting a {game.value} match, seed {seed}, you in seat {seat}.")
    with _terminal_restored(tty):
        try:
            # console=None: the referee stays quiet so the adapter owns the screen.
            record = run_match(spec, console=None)
        except KeyboardInterrupt:
            click.echo("\nMatch abandoned.")
            sys.exit(130)
    if folder is not None:
        folder.append_record(record.to_dict())
    replay = ["spades", "play", "--seed", str(seed)]
    if game is not Variant.PARTNERSHIP:
        replay += ["--variant", game.value]
    if seat:
        replay += ["--seat", str(seat)]
    if target is not None:
        replay += ["--target", str(target)]
    click.echo(_result_text(record, game, seat, " ".join(replay), output))


_REASON_WORDS = {"target": "target reached", "max_hands": "hand limit reached", "mercy": "mercy rule", "forfeit": "forfeit"}


def _result_text(record: MatchRecord, game: Variant, seat: int, replay: str, output: Path | None) -> str:
    """The closing lines: the result from your side, any faults, how to replay."""
    score = list(record.score) or [0, 0]
    winner = record.winner
    reason = record.reason.value
    mine = game.side_of(seat)
    who = "You" if game is Variant.TWO_PLAYER else "Your side"
    if winner is None:
        verdict = f"Draw, {score[mine]} to {score[1 - mine]}"
    elif winner == mine:
        verdict = f"{who} won, {score[mine]} to {score[1 - mine]}"
    else:
        verdict = f"{who} lost, {score[mine]} to {score[1 - mine]}"
    lines = [f"{verdict} ({_REASON_WORDS.get(reason, reason)})."]
    for fault in record.faults:
        whose = "Your seat" if fault.seat == seat else f"Seat {fault.seat}"
        lines.append(f"{whose} was faulted ({fault.kind.value}): {fault.detail}".rstrip(": "))
    lines.append(f"Replay these deals: {replay}")
    if output is not None:
        lines.append(f"Match record and logs: {output}")
    return "\n".join(lines)
