"""``spades replay``, ``spades report`` and ``spades show``: seeing the games.

Registered on the ``spades`` group by :mod:`referee.cli.main`. The pages and
the text come from :mod:`referee.pages`; this module only parses arguments,
writes the files and reports where they went.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from referee.cli.pathtype import UserPath
from referee.pages.replay import ReplayError
from referee.pages.replay_page import replay_html
from referee.pages.report import REPLAYS_DIR, REPORT_NAME, write_report
from referee.pages.show import show_text
from referee.pages.source import MatchSource, load_replay, locate, replay_file_name
from referee.tournament.results import ResultsFolder, write_atomic

__all__ = ["replay_command", "report_command", "show_command"]


class InputError(click.ClickException):
    """A match or folder that cannot be read: exit status 2, as for usage errors."""

    exit_code = 2


def _source(target: Path, match_id: str | None) -> MatchSource:
    try:
        return locate(target, match_id)
    except ReplayError as exc:
        raise InputError(str(exc)) from None


_MATCH_HELP = "MATCH is a results folder and a match id, or the path of a match's transcript (logs/<match>.jsonl)."


@click.command("replay")
@click.argument("target", metavar="MATCH", type=UserPath(path_type=Path))
@click.argument("match_id", metavar="[MATCH_ID]", required=False)
@click.option("--output", "-o", type=UserPath(dir_okay=False, path_type=Path), default=None,
              help=f"The HTML file to write (default: <results>/{REPLAYS_DIR}/<match>.html).")
def replay_command(target: Path, match_id: str | None, output: Path | None) -> None:
    """Write a match's replay as one self-contained HTML page.

    \b
    MATCH is a results folder and a match id, or the path of a match's
    transcript (logs/<match>.jsonl). The page needs no network: open it
    from disk in any browser.

    \b
    Examples:
      spades replay results/demo 'rr-r1-m3'
      spades replay results/m1/logs/partnership-seed7.jsonl -o final.html
    """
    source = _source(target, match_id)
    try:
        replay = load_replay(source)
    except ReplayError as exc:
        raise InputError(str(exc)) from None
    if output is None:
        output = source.folder.path / REPLAYS_DIR / replay_file_name(source.record.match)
        back = f"../{REPORT_NAME}" if (source.folder.path / REPORT_NAME).exists() else None
    else:
        back = None
    output.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(output, replay_html(replay, back_link=back))
    click.echo(f"Replay of {source.record.match} ({len(replay.hand_frames)} hand(s)) written to {os.fspath(output)}")


@click.command("report")
@click.argument("results_dir", metavar="RESULTS", type=UserPath(path_type=Path))
@click.option("--replays", is_flag=True, help=f"Also write every match's replay page under {REPLAYS_DIR}/.")
def report_command(results_dir: Path, replays: bool) -> None:
    """Write a tournament's report page (RESULTS/report.html).

    \b
    Standings (sortable), ratings with their intervals, the head-to-head
    grid, score margins per pairing, faults per bot, and a link to each
    match's replay.

    \b
    Examples:
      spades report results/demo
      spades report results/demo --replays
    """
    folder = ResultsFolder(results_dir)
    if not results_dir.is_dir() or not folder.is_results_folder():
        raise InputError(f"{os.fspath(results_dir)} is not a results folder (it has no config.yaml or matches.jsonl); "
                         "give the folder `spades run` wrote, e.g. results/demo")
    outcome = write_report(folder, replays=replays, warn=lambda m: click.echo(m, err=True))
    for failure in outcome.failed:
        click.echo(f"warning: no replay for {failure}", err=True)
    if replays:
        click.echo(f"{outcome.replays} replay page(s) written to {os.fspath(results_dir / REPLAYS_DIR)}")
    click.echo(f"Report written to {os.fspath(outcome.path)}")


@click.command("show")
@click.argument("target", metavar="MATCH", type=UserPath(path_type=Path))
@click.argument("match_id", metavar="[MATCH_ID]", required=False)
@click.option("--hand", "hand", type=int, default=None, metavar="K", help="Only hand K (1-based).")
@click.option("--seat", "seat", type=int, default=None, metavar="S", help="Only what seat S saw (its own cards).")
def show_command(target: Path, match_id: str | None, hand: int | None, seat: int | None) -> None:
    """Print a match hand by hand as plain text: bids, tricks, hands, score.

    \b
    MATCH is a results folder and a match id, or the path of a match's
    transcript (logs/<match>.jsonl). Cards are written as in the protocol
    (QH, TS), so the output pastes into an issue as it is.

    \b
    Examples:
      spades show results/m1 partnership-seed7 --hand 2
      spades show results/m1/logs/partnership-seed7.jsonl --seat 0
    """
    source = _source(target, match_id)
    try:
        replay = load_replay(source)
    except ReplayError as exc:
        raise InputError(str(exc)) from None
    hands = len(replay.hand_frames)
    if hand is not None and not 1 <= hand <= hands:
        raise click.BadParameter(f"match {source.record.match} has hands 1 to {hands}, got: {hand}",
                                 param_hint="--hand")
    seats = len(replay.names)
    if seat is not None and not 0 <= seat < seats:
        raise click.BadParameter(f"seats are 0 to {seats - 1}, got: {seat}", param_hint="--seat")
    click.echo(show_text(replay, hand, seat), nl=False)
