"""``spades run`` and ``spades standings``: the tournament commands.

Registered on the ``spades`` group by :mod:`referee.cli`. Standings go to
stdout; progress, information and warnings to stderr, so
``spades run cfg.yaml --quiet > standings.txt`` captures the tables only.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import sys
from pathlib import Path

import click

from referee.cli.pathtype import UserPath
from referee.cli.sandboxing import announce_sandbox, sandbox_option
from referee.pages.report import write_report
from referee.seat.sandbox import SandboxPolicy
from referee.tournament.config import ConfigError, load_config, shown_path as _shown
from referee.tournament.executors import EXECUTORS, ExecutorError, ExecutorSettings
from referee.tournament.results import ResultsError, ResultsFolder, standings_from_folder
from referee.tournament.runner import Tournament
from referee.tournament.standings import FORMATS, render, render_comparison

__all__ = ["run_command", "standings_command"]


class InputError(click.ClickException):
    """Bad input (config, folder): exit status 2, as for usage errors."""

    exit_code = 2


def _err(text: str) -> None:
    click.echo(text, err=True)


@click.command("run")
@click.argument("config_file", metavar="CONFIG", type=UserPath(path_type=Path))
@click.option("--concurrency", "-j", type=int, default=None, metavar="N",
              help="Matches at once (default: the config's 'concurrency').")
@click.option("--output", type=UserPath(file_okay=False, path_type=Path), default=None,
              help="Results folder (default: the config's 'output', else results/<name>).")
@click.option("--fresh", is_flag=True,
              help="Start over: move an existing results folder aside to <folder>.old-<time> (nothing is deleted).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="Format of the standings printed at the end (and of standings.txt).")
@click.option("--quiet", "-q", is_flag=True, help="No progress or messages on stderr; print only the standings.")
@click.option("--no-report", is_flag=True, help="Do not write the HTML report (report.html) at the end.")
@sandbox_option(None)
@click.option("--executor", "executor_kind", type=click.Choice(sorted(EXECUTORS)), default=None,
              help="Where matches are played (default: the config's 'executor', else local). See docs/cluster.md.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Play on the running Dask cluster of this scheduler (implies --executor dask).")
@click.option("--workers", type=int, default=None, metavar="N",
              help="Start a local Dask cluster of N worker processes (implies --executor dask).")
def run_command(config_file: Path, concurrency: int | None, output: Path | None, fresh: bool, fmt: str,
                quiet: bool, no_report: bool, sandbox: str | None, executor_kind: str | None, scheduler: str | None,
                workers: int | None) -> None:
    """Play a tournament from a YAML config and print the standings.

    Re-running the same command resumes: finished matches (in
    <output>/matches.jsonl) are kept and only the rest is played. Ctrl-C stops
    cleanly at any time.

    \b
    Examples:
      spades run configs/demo.yaml
      spades run configs/two-player.yaml --concurrency 4 --quiet
      spades run configs/demo.yaml --fresh
      spades run configs/demo.yaml --executor dask --scheduler tcp://10.0.0.5:8786
    """
    if concurrency is not None and concurrency < 1:
        raise click.BadParameter(f"must be at least 1, got: {concurrency}", param_hint="--concurrency")
    try:
        config = load_config(config_file)
    except ConfigError as exc:
        raise InputError(f"invalid config\n{exc}") from None
    if output is not None:
        config = dataclasses.replace(config, output=output.resolve())
    if sandbox is not None:
        config = dataclasses.replace(config, sandbox=SandboxPolicy(sandbox))
    announce_sandbox(config.sandbox)
    if executor_kind is not None or scheduler is not None or workers is not None:
        config = dataclasses.replace(config, executor=_executor_choice(config.executor, executor_kind, scheduler,
                                                                       workers))
    say = None if quiet else _err
    tournament = Tournament(config, concurrency=concurrency, fresh=fresh,
                            progress_stream=None if quiet else sys.stderr, say=say, fmt=fmt)
    try:
        outcome = tournament.run()
    except ResultsError as exc:
        raise InputError(str(exc)) from None
    except ExecutorError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:  # outside the matches (preparing, or a second Ctrl-C): nothing runs any more
        _err(f"Interrupted. Finished matches are saved; run `spades run {shlex.quote(os.fspath(config_file))}` "
             "again to resume.")
        sys.exit(130)

    again = "spades run " + shlex.quote(os.fspath(config_file))
    if output is not None:
        again += " --output " + shlex.quote(os.fspath(output))
    folder = _shown(outcome.folder)
    of_total = f" of {outcome.total}" if outcome.total_known else ""  # no total: a format that decides as it goes
    if outcome.error is not None:
        _err(f"Error: the tournament stopped: {outcome.error}")
        _err(f"{outcome.already + outcome.played}{of_total} matches are saved in {folder}. "
             f"Fix the problem, then run `{again}` to play the rest.")
        sys.exit(outcome.exit_code)
    if outcome.interrupted_by is not None:
        _err(f"Interrupted: {outcome.already + outcome.played}{of_total} matches are finished and saved "
             f"in {folder}; every bot process has been ended.")
        _err(f"Run `{again}` to play {outcome.still_to_play} (finished matches are kept). "
             f"`spades standings {shlex.quote(folder)}` shows the standings so far.")
        sys.exit(outcome.exit_code)
    click.echo(outcome.standings_text, nl=False)
    if not quiet:
        _err(f"{outcome.played} match(es) played in {outcome.seconds:.1f} s; results in {folder} "
             "(standings.txt, matches.jsonl, logs/).")
    if not no_report:
        try:
            report = write_report(ResultsFolder(outcome.folder)).path
        except OSError as exc:  # the results are saved already; only the page is missing
            _err(f"warning: could not write the report: {exc}; `spades report {shlex.quote(folder)}` retries")
        else:
            if not quiet:
                _err(f"Report: {_shown(report)} (with every replay: `spades report {shlex.quote(folder)} --replays`)")


def _executor_choice(settings: ExecutorSettings, kind: str | None, scheduler: str | None,
                     workers: int | None) -> ExecutorSettings:
    """The config's executor with the command line's choices on top (checked like the config)."""
    where = {k: v for k, v in (("scheduler", scheduler), ("workers", workers)) if v is not None}
    if kind is None and where:
        kind = "dask"
    # --scheduler or --workers replaces where the config said the cluster is.
    chosen = settings.overridden(kind, where, drop=("scheduler", "workers", "matches_per_worker") if where else ())
    for key, message in EXECUTORS[chosen.kind].check_settings(chosen.options):
        option = f"--{key}" if key in where else f"the config's executor.{key}"
        raise click.BadParameter(f"{message} (with --executor {chosen.kind})", param_hint=option)
    return chosen


@click.command("standings")
@click.argument("results_dir", metavar="RESULTS_DIR", type=UserPath(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--compare", nargs=2, metavar="A B", default=None,
              help="Print only bot A against bot B: the Elo difference with its 95% interval, LOS and meetings.")
def standings_command(results_dir: Path, fmt: str, compare: tuple[str, str] | None) -> None:
    """Print the standings of a results folder (as `spades run` printed them).

    \b
    Examples:
      spades standings results/demo
      spades standings results/demo --format markdown > standings.md
      spades standings results/demo --format json | jq '.bots[0]'
      spades standings results/demo --compare sparring heuristic
    """
    folder = ResultsFolder(results_dir)
    if not results_dir.is_dir():
        raise InputError(f"no such results folder: {os.fspath(results_dir)}")
    if not folder.is_results_folder():
        raise InputError(f"{os.fspath(results_dir)} is not a results folder (it has no config.yaml or "
                         "matches.jsonl); give the folder `spades run` wrote, e.g. results/demo")
    try:
        report = standings_from_folder(folder, warn=_err)
    except ResultsError as exc:  # matches.jsonl is a folder or unreadable
        raise InputError(str(exc)) from None
    if compare is None:
        click.echo(render(report, fmt), nl=False)
    else:
        try:
            click.echo(render_comparison(report, compare[0], compare[1], fmt), nl=False)
        except KeyError as exc:
            raise InputError(f"--compare: {exc.args[0]}") from None
    if report.refused:
        # The tables are printed (without them), but a script must not take them for the whole story.
        _err(f"{report.refused} record(s) refused (see above): the standings leave them out")
        raise SystemExit(1)
