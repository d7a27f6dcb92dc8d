"""The ``spades`` command line (click).

Sub-commands: ``match`` (one match), ``check-bot`` (protocol compliance of a
bot), ``run`` (a tournament from a YAML config), ``standings`` (tables from a
results folder), ``human`` (the text adapter a person plays through) and
``play`` (sit down at a table with bots).
``replay``, ``report`` and ``show`` (seeing the games) are in :mod:`referee.cli.pages`.
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Any

import click

from referee.cli.bots import bots_command
from referee.cli.checkbot import check_bot_command
from referee.cli.deal import deal_command
from referee.cli.faultnotes import fault_hints
from referee.cli.matchinputs import check_match_inputs, rule_value
from referee.cli.pages import replay_command, report_command, show_command
from referee.cli.pathtype import UserPath
from referee.cli.sandboxing import announce_sandbox, sandbox_option
from referee.cli.starthand import deals_for, load_deal, match_start, recorded_deals, replay_options
from referee.cli.stderrview import LiveStderr, crash_tails
from referee.cli.tournament import run_command, standings_command
from referee.game.rules import RuleError, Rules, Variant
from referee.human.command import human_command
from referee.human.play import play_command
from referee.match import LogWriteError, MatchSpec, run_match
from referee.seat import builtin
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultPolicy
from referee.seat.sandbox import SandboxPolicy, SandboxSpec
from referee.seat.spec import SeatSpec, bot_name
from referee.tournament.results import ResultsError, ResultsFolder

__all__ = ["cli", "main", "unique_names", "parse_rule_options", "seats_for"]

_TIME = TimeControl()  # the defaults of the time options


def _echo(line: str) -> None:
    click.echo(line)


def unique_names(names: list[str]) -> list[str]:
    """Make display names unique by suffixing repeats: ``random``, ``random#2``."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def parse_rule_options(pairs: tuple[str, ...], base: dict[str, Any] | None = None) -> Rules:
    """``--rule key=value`` pairs (values parsed as YAML scalars) over ``base``."""
    data = dict(base or {})
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"expected KEY=VALUE, got: {pair!r}", param_hint="--rule")
        key, _, value = pair.partition("=")
        data[key.strip()] = rule_value(key.strip(), value)
    try:
        return Rules.from_mapping(data, where="--rule")
    except RuleError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None


def seats_for(variant: Variant, bots: list[str], names: list[str]) -> list[SeatSpec]:
    """Seat the given bots: two-player one each; partnership 2 bots = one per side, 4 = one per seat."""
    if variant is Variant.TWO_PLAYER:
        if len(bots) != 2:
            raise click.UsageError(f"two-player needs exactly 2 --bot options, got {len(bots)}")
        return [SeatSpec(names[i], bots[i]) for i in range(2)]
    if len(bots) == 2:
        return [SeatSpec(names[i % 2], bots[i % 2]) for i in range(4)]
    if len(bots) == 4:
        return [SeatSpec(names[i], bots[i]) for i in range(4)]
    raise click.UsageError(f"partnership needs 2 --bot options (one per side) or 4 (one per seat), got {len(bots)}")


_VARIANT = click.Choice([v.value for v in Variant])


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="spades-referee")
def cli() -> None:
    """spades-referee: run Spades bots written in any language, enforce every rule, rank them."""


@cli.command("match")
@click.option("--variant", type=_VARIANT, default="partnership", show_default=True)
@click.option("--bot", "bots", multiple=True, required=True, metavar="CMD",
              help="A bot command (repeat: 2 for two-player; 2 or 4 for partnership).")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Display names, in --bot order.")
@click.option("--seed", type=int, default=None,
              help="Seed of the deals (default: a fresh random one, shown in the output); the same seed replays "
                   "the same deals. No bot is told it.")
@click.option("--target", type=int, default=None, help="Score that ends the match (default 500).")
@click.option("--rule", "rule_pairs", multiple=True, metavar="KEY=VALUE",
              help="Any rule option, e.g. --rule mercy=-200 --rule blind_nil=false.")
@click.option("--move-ms", type=int, default=_TIME.move_ms, show_default=True, help="Time per decision.")
@click.option("--bank-ms", type=int, default=_TIME.bank_ms, show_default=True, help="Reserve per bot per match.")
@click.option("--startup-ms", type=int, default=_TIME.startup_ms, show_default=True,
              help="Allowance for start-up and hello.")
@click.option("--faults", type=click.Choice([p.value for p in FaultPolicy]), default=MatchSpec.faults.value,
              show_default=True)
@click.option("--max-faults", type=int, default=MatchSpec.max_faults, show_default=True,
              help="Faults before forfeit under 'substitute'.")
@click.option("--output", type=UserPath(file_okay=False, path_type=Path), default=None,
              help="Folder for matches.jsonl and logs/ (default: keep nothing).")
@click.option("--match-id", default=None, help="Match id in the record and log names.")
@click.option("--quiet", "-q", is_flag=True,
              help="Print only the result line (and, with --output, where the record went).")
@click.option("--json", "as_json", is_flag=True, help="Print the match record as JSON.")
@click.option("--live-stderr", is_flag=True, help="Show the bots' stderr as it comes, each line prefixed by its seat.")
@replay_options
@sandbox_option(SandboxPolicy.AUTO.value)
@click.option("--ponder", is_flag=True, help="Let bots run while another seat thinks (default: frozen).")
@click.option("--clock", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
              help="Charge each answer its wall time, or the CPU time of the bot's processes (wall clock as a "
                   "backstop: 10x the allowance + 5 s).")
def match_command(variant: str, bots: tuple[str, ...], names: tuple[str, ...], seed: int | None,
                  target: int | None,
                  rule_pairs: tuple[str, ...], move_ms: int, bank_ms: int, startup_ms: int, faults: str,
                  max_faults: int, output: Path | None, match_id: str | None, quiet: bool, as_json: bool,
                  live_stderr: bool, start_hand: int | None, start_score: str | None, start_bags: str | None,
                  from_record: Path | None, deal_file: Path | None, sandbox: str, ponder: bool, clock: str) -> None:
    """Play one match between bots and print it hand by hand.

    \b
    Example:
      spades match --variant partnership --seed 7 \\
        --bot "python3 bots/heuristic_bot.py" --bot "node bots/js/random_bot.js" --output results/m1
    """
    v = Variant(variant)
    check_match_inputs(bots=bots, match_id=match_id, target=target, max_faults=max_faults, output=output,
                       times={"--move-ms": move_ms, "--bank-ms": bank_ms, "--startup-ms": startup_ms})
    rules = parse_rule_options(rule_pairs, {"target": target} if target is not None else None)
    if names and len(names) != len(bots):
        raise click.UsageError(f"give one --name per --bot ({len(bots)}), got {len(names)}")
    for b in bots:
        try:
            builtin.resolve(b)
        except builtin.BuiltinError as exc:
            raise click.BadParameter(str(exc), param_hint="--bot") from None
    display = list(names) if names else unique_names([bot_name(b) for b in bots])
    for label, value in (("--move-ms", move_ms), ("--bank-ms", bank_ms), ("--startup-ms", startup_ms)):
        if value < 0:
            raise click.BadParameter(f"must be >= 0, got: {value}", param_hint=label)
    if seed is None:
        seed = secrets.randbits(48)  # exact in every JSON reader, like a tournament's seeds
    start = match_start(start_hand, start_score, start_bags, from_record, match_id, seed, v)
    deal = load_deal(deal_file, v, start.hand if start is not None else 1) if deal_file is not None else None
    announce_sandbox(SandboxPolicy(sandbox))
    folder = ResultsFolder(output) if output is not None else None
    seats = seats_for(v, list(bots), display)
    # Without --output the logs go to a temporary folder: a crashed bot's stderr is worth keeping.
    scratch = Path(tempfile.mkdtemp(prefix="spades-match-")) if folder is None else None
    # The id reaches the bots (hello): it must say nothing of the seed.
    spec = MatchSpec(variant=v, seats=seats, rules=rules, seed=seed,
                     match_id=match_id or f"{variant}-{secrets.token_hex(4)}"
                     + (f"-from-hand{start.hand}" if start else ""),
                     time=TimeControl(move_ms, bank_ms, startup_ms), faults=FaultPolicy(faults),
                     max_faults=max_faults, logs=str(folder.logs) if folder is not None else str(scratch),
                     start=start, deals=deals_for(seed, start, deal, recorded_deals(from_record, match_id, seed, v)),
                     sandbox=SandboxSpec(policy=SandboxPolicy(sandbox), ponder=ponder, cpu_clock=clock == "cpu"))
    stderr_paths = [spec.stderr_path(i) for i in range(len(spec.seats))]
    live = LiveStderr(stderr_paths, [s.name for s in spec.seats], lambda line: click.echo(line, err=True)) \
        if live_stderr else contextlib.nullcontext()
    try:
        if folder is not None:
            folder.secret(create=True)  # before the match: a folder that cannot sign records is refused first
        with live:
            record = run_match(spec, console=None if (quiet or as_json) else _echo)
        if folder is not None:
            folder.append_record(record.to_dict())
    except (LogWriteError, ResultsError) as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:  # a log or the record could not be written (a full disk): say so, no traceback
        where = exc.filename or (folder.matches_path if folder is not None else "a match log")
        raise click.ClickException(f"cannot write {where}: {exc.strerror or exc}; the match was not recorded") \
            from None
    except BaseException:  # Ctrl-C, or a bad spec: nothing worth keeping
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        raise
    if not (quiet or as_json):
        for line in fault_hints(spec.transcript_path, record.faults, record.bots):
            click.echo(line)
        for line in crash_tails(record.faults, stderr_paths, record.bots):
            click.echo(line)
    if scratch is not None:
        _keep_or_remove(scratch, stderr_paths, bool(record.faults), tell=not (quiet or as_json))
    if as_json:
        click.echo(record.to_json())
    elif quiet:
        click.echo(record.describe())
    if folder is not None and not as_json:
        click.echo(f"Record appended to {folder.matches_path}; transcript in {folder.logs}")


def _keep_or_remove(scratch: Path, stderr_paths: list[Path | None], faulted: bool, tell: bool) -> None:
    """Keep the temporary logs folder, and say where, if a bot faulted or wrote to stderr; else remove it."""
    wrote = any(p is not None and p.is_file() and p.stat().st_size for p in stderr_paths)
    if tell and (faulted or wrote):
        click.echo(f"The bots' stderr and the transcript are kept in {scratch}")
    else:
        shutil.rmtree(scratch, ignore_errors=True)


cli.add_command(check_bot_command, "check-bot")
cli.add_command(run_command, "run")
cli.add_command(standings_command, "standings")
cli.add_command(deal_command, "deal")
cli.add_command(human_command, "human")
cli.add_command(play_command, "play")
cli.add_command(replay_command, "replay")
cli.add_command(report_command, "report")
cli.add_command(show_command, "show")
cli.add_command(bots_command, "bots")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="spades")


if __name__ == "__main__":
    main()
