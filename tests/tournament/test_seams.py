"""The seams features plug into: plain-data match specs and records, executors, formats.

Each seam is tested the way a new feature would use it: a match spec that
crosses a process boundary as JSON and is played there; an executor written
here (matches in child processes, logs shipped back as bytes) that the runner
drives like the built-in one; a format written here that picks each round
from the last one's results.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

import pytest

from referee.game.deals import seeded_deal
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat.clock import TimeControl
from referee.seat.faults import Fault, FaultKind, FaultPolicy
from referee.seat.spec import SeatSpec, bot_name
from referee.tournament import formats, integrity
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.executors import Executor, LocalExecutor, MatchCancelled, MatchDone, MatchFailed, Outcome
from referee.tournament.formats import Played, TournamentFormat
from referee.tournament.results import ResultsFolder, standings_from_folder
from referee.tournament.runner import Tournament
from referee.tournament.schedule import Pairing, ScheduledMatch, match_seed

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
RANDOM = [PY, str(ROOT / "bots" / "random_bot.py")]
HEURISTIC = [PY, str(ROOT / "bots" / "heuristic_bot.py")]


def spec_with_everything(logs: Path | None = None) -> MatchSpec:
    seats = [SeatSpec("a", RANDOM, cwd=str(ROOT), env={"BOT_SEED": "1"}, time=TimeControl(None, 0, 3000),
                      new_session=True),
             SeatSpec("b", "python3 bots/heuristic_bot.py --quiet")]
    return MatchSpec(variant=Variant.TWO_PLAYER, seats=seats, rules=Rules(target=200, mercy=-300), seed=7,
                     match_id="x-1", time=TimeControl(500, 2000, 4000), faults=FaultPolicy.SUBSTITUTE, max_faults=5,
                     logs=str(logs) if logs else None, deals=[seeded_deal(3, 1), seeded_deal(3, 2)], grace_s=0.5,
                     max_line=4096, stderr_cap=1000)


# ---------------------------------------------------------------- plain data


def test_a_match_spec_round_trips_through_json_and_pickle() -> None:
    spec = spec_with_everything(Path("/some/logs"))
    data = spec.to_dict()
    again = MatchSpec.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.seats[0].time == TimeControl(None, 0, 3000) and again.seats[0].new_session
    assert list(again.deals or []) == list(spec.deals or [])
    assert pickle.loads(pickle.dumps(spec)).to_dict() == data


def test_a_match_record_round_trips_and_keeps_unknown_keys() -> None:
    record = MatchRecord(match="m", variant=Variant.PARTNERSHIP, seed=3, bots=["a", "b", "a", "b"], hands=[],
                         score=[10, -20], winner=0, reason=EndReason.FORFEIT,
                         faults=[Fault(1, FaultKind.TIMEOUT, "no answer within 5 ms", 2, '{"type":"play"}')],
                         seconds=1.5, rules=Rules(), stats=[{}, {}, {}, {}], extra={"pairing": 4})
    data = json.loads(record.to_json())
    again = MatchRecord.from_dict(data)
    assert again.to_dict() == data and again.extra == {"pairing": 4} and again.faults == record.faults


def test_a_spec_sent_as_json_to_another_process_is_played_there(tmp_path: Path) -> None:
    """What a remote executor does: the spec goes as text, the record comes back as text."""
    spec = MatchSpec(variant=Variant.TWO_PLAYER, seats=[SeatSpec("r", RANDOM, env={"BOT_SEED": "2"}),
                                                         SeatSpec("h", HEURISTIC)],
                     rules=Rules(target=150), seed=11, match_id="remote", logs=str(tmp_path / "logs"))
    here = run_match(spec).to_dict()
    out = _play_in_child(spec.to_dict())
    there = json.loads(out)
    for key in ("hands", "score", "winner", "reason", "faults", "bots"):
        assert there[key] == here[key], key
    assert (tmp_path / "logs" / "remote.jsonl").is_file()


_CHILD = (
    "import json, sys\n"
    "from referee.match import MatchSpec, run_match\n"
    "print(run_match(MatchSpec.from_dict(json.loads(sys.stdin.read()))).to_json())\n"
)


def _play_in_child(spec: Mapping[str, Any]) -> str:
    done = subprocess.run([PY, "-c", _CHILD], input=json.dumps(spec), capture_output=True, text=True, check=True,
                          cwd=ROOT, timeout=120)
    return done.stdout


def test_one_function_names_a_bot_from_its_command() -> None:
    assert bot_name("python3 bots/heuristic_bot.py") == "heuristic_bot"
    assert bot_name(["node", "bots/js/random_bot.js", "--level", "3"]) == "random_bot"
    assert bot_name(["python3", "-m", "mybot"]) == "mybot"
    assert bot_name("./target/release/spadesbot --bid 14") == "spadesbot"
    assert bot_name(["/usr/bin/python3.11", "-u", "x/y/alpha.py"]) == "alpha"
    assert bot_name("python3 'unclosed") == "'unclosed"  # never raises on a bad command


# ---------------------------------------------------------------- executors


class ChildProcessExecutor(Executor):
    """Each match in a child Python process; logs come back as bytes, like a remote worker's."""

    name: ClassVar[str] = "child-process"

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.children: dict[str, tuple[subprocess.Popen[str], Path]] = {}
        self.submitted: list[str] = []

    @property
    def capacity(self) -> int:
        return 2

    def submit(self, spec: MatchSpec) -> None:
        assert len(self.children) < self.capacity, "the runner never oversubscribes an executor"
        logs = self.scratch / spec.match_id
        data = spec.to_dict()
        data["logs"] = str(logs)  # the worker's own disk, not the results folder
        child = subprocess.Popen([PY, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert child.stdin is not None
        child.stdin.write(json.dumps(data))
        child.stdin.close()
        self.children[spec.match_id] = (child, logs)
        self.submitted.append(spec.match_id)

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        deadline = time.monotonic() + timeout_s
        while True:
            out: list[Outcome] = []
            for match_id, (child, logs) in list(self.children.items()):
                if child.poll() is None:
                    continue
                del self.children[match_id]
                assert child.stdout is not None
                text = child.stdout.read()
                if child.returncode != 0:
                    out.append(MatchFailed(match_id, f"child exited with {child.returncode}"))
                    continue
                files = {p.name: p.read_bytes() for p in logs.iterdir()}
                out.append(MatchDone(match_id, json.loads(text), files))
            if out or time.monotonic() >= deadline:
                return out
            time.sleep(0.02)

    def cancel(self) -> None:
        for child, _ in self.children.values():
            child.kill()

    def close(self) -> None:
        self.cancel()


def small_config(tmp_path: Path, fmt: str = "round-robin", n: int = 3, per: int = 2) -> TournamentConfig:
    bots = tuple(BotEntry(f"b{i}", tuple(RANDOM), ROOT, {"BOT_SEED": str(i)}) for i in range(n))
    return TournamentConfig(path=None, name="seams", variant=Variant.TWO_PLAYER, bots=bots, seed=4, format=fmt,
                            matches_per_pairing=per, duplicate=True, concurrency=2, rules=Rules(target=100),
                            output=tmp_path / "out")


def test_the_runner_drives_an_executor_of_its_own_and_stores_what_comes_back(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    executor = ChildProcessExecutor(tmp_path / "scratch")
    outcome = Tournament(config, executor=executor).run()
    assert outcome.exit_code == 0 and outcome.played == 6 == outcome.total
    folder = ResultsFolder(config.output)
    ids = [r["match"] for r in folder.iter_records()]
    assert sorted(ids) == sorted(executor.submitted) and len(ids) == 6
    # The transcripts and stderr logs came back as data and were stored by the runner.
    for match_id in ids:
        assert (folder.logs / f"{match_id}.jsonl").read_bytes() == \
            (tmp_path / "scratch" / match_id / f"{match_id}.jsonl").read_bytes()
        assert (folder.logs / f"{match_id}.0.stderr").is_file()
    assert "b0" in outcome.standings_text


def test_the_local_executor_answers_every_submit_once(tmp_path: Path) -> None:
    executor = LocalExecutor(2)
    executor.start()
    slow = MatchSpec(variant=Variant.TWO_PLAYER, seats=[SeatSpec("a", HEURISTIC), SeatSpec("b", HEURISTIC)],
                     rules=Rules(target=100000, max_hands=500), seed=1, match_id="slow", grace_s=0.2)
    broken = MatchSpec(variant=Variant.TWO_PLAYER, seats=[SeatSpec("a", "python3 'unclosed"), SeatSpec("b", RANDOM)],
                       match_id="broken")
    try:
        executor.submit(slow)
        executor.submit(broken)
        with pytest.raises(ValueError, match="already running"):
            executor.submit(slow)
        got: dict[str, Outcome] = {}
        deadline = time.monotonic() + 30
        while "broken" not in got and time.monotonic() < deadline:
            got.update((o.match_id, o) for o in executor.wait(0.2))
        failed = got["broken"]
        assert isinstance(failed, MatchFailed) and "cannot parse bot command" in failed.error
        executor.cancel()
        while "slow" not in got and time.monotonic() < deadline:
            got.update((o.match_id, o) for o in executor.wait(0.2))
        assert isinstance(got["slow"], MatchCancelled)
        assert executor.wait(0.05) == []
    finally:
        executor.close()


def test_the_local_executor_refuses_a_bad_concurrency() -> None:
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="concurrency must be an integer >= 1"):
            LocalExecutor(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------- formats


class Ladder(TournamentFormat):
    """A format that decides as it goes: round 1 is b0-b1; round 2 puts its winner against b2."""

    name: ClassVar[str] = "ladder"
    summary: ClassVar[str] = "winner stays on"

    def __init__(self, config: TournamentConfig) -> None:
        super().__init__(config)
        self.asked: list[int] = []

    def _match(self, round_no: int, a: int, b: int) -> ScheduledMatch:
        names = [bot.name for bot in self.config.bots]
        return ScheduledMatch(f"r{round_no}-{names[a]}-{names[b]}", Pairing(round_no - 1, a, b), 0, None,
                              match_seed(self.config.seed, names[a], names[b], round_no), (a, b))

    def next_matches(self, done: Mapping[str, Played]) -> Sequence[ScheduledMatch]:
        self.asked.append(len(done))
        first = self._match(1, 0, 1)
        if first.match_id not in done:
            return [first]
        played = done[first.match_id]
        winner = 0 if played.winner == 0 else 1  # side 0 held b0; a draw keeps b1 on
        second = self._match(2, winner, 2)
        return [] if second.match_id in done else [second]

    def owns(self, match_id: str) -> bool:
        return match_id.startswith(("r1-", "r2-"))


def test_a_format_of_its_own_picks_each_round_from_the_results(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(formats.FORMATS, "ladder", Ladder)
    config = small_config(tmp_path, fmt="ladder")
    progress = io.StringIO()
    run = Tournament(config, progress_stream=progress, tty=False)
    assert isinstance(run.format, Ladder)
    outcome = run.run()
    assert outcome.exit_code == 0 and outcome.played == 2
    # No total is known in advance: the progress line counts matches, with no bar or ETA.
    last = progress.getvalue().splitlines()[-1]
    assert last.startswith("2 matches  elapsed ") and "ETA" not in last and "/" not in last
    records = list(ResultsFolder(config.output).iter_records())
    first, second = records
    assert first["match"] == "r1-b0-b1"
    stayed = "b0" if first["winner"] == 0 else "b1"
    assert second["match"] == f"r2-{stayed}-b2" and second["bots"] == [stayed, "b2"]
    assert run.format.asked[-1] == 2  # asked again after each result, until it had nothing more
    # The standings take every record the format owns, and no other.
    # (Signed with the folder's secret, as a record copied from another
    # tournament sharing it would be: the check holds, the schedule refuses it.)
    folder = ResultsFolder(config.output)
    with open(folder.matches_path, "a") as fh:
        fh.write(json.dumps(integrity.sign(folder.secret(), {**first, "match": "stray-1"})) + "\n")
    warnings: list[str] = []
    report = standings_from_folder(ResultsFolder(config.output), warn=warnings.append)
    assert report.matches == 2 and sum(row["matches"] for row in report.bots) == 4  # two sides a match
    assert any("matches.jsonl:3: refused:" in w and "'stray-1', which this tournament did not schedule" in w
               for w in warnings)
    # And resuming asks the format again with what is done: nothing is played twice.
    again = Tournament(config).run()
    assert (again.already, again.played) == (2, 0)


def test_the_built_in_formats_are_the_table_of_formats() -> None:
    assert {name: cls.name for name, cls in formats.FORMATS.items()} == {"round-robin": "round-robin",
                                                                         "gauntlet": "gauntlet", "sprt": "sprt",
                                                                         "swiss": "swiss", "knockout": "knockout"}
    for cls in formats.FORMATS.values():
        assert issubclass(cls, TournamentFormat) and cls.summary


class CannedExecutor(Executor):
    """Answers every match at once with a canned record: the runner's side of the seam alone."""

    name: ClassVar[str] = "canned"

    def __init__(self, logs: Mapping[str, bytes]):
        self.logs = logs
        self.pending: list[MatchSpec] = []

    @property
    def capacity(self) -> int:
        return 1

    def submit(self, spec: MatchSpec) -> None:
        self.pending.append(spec)

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        out: list[Outcome] = []
        for spec in self.pending:
            bots = [s.name for s in spec.seats]
            record = MatchRecord(match=spec.match_id, variant=spec.variant, seed=spec.seed, bots=bots, hands=[],
                                 score=[100, 0], winner=0, reason=EndReason.TARGET, faults=[], seconds=0.0,
                                 rules=spec.rules, stats=[{}, {}])
            out.append(MatchDone(spec.match_id, record.to_dict(), self.logs))
        self.pending = []
        return out

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_log_name_with_a_path_is_refused_and_stops_the_run_with_the_reason(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    outcome = Tournament(config, executor=CannedExecutor({"../../escape": b"x"})).run()
    assert outcome.exit_code == 1 and outcome.error is not None
    assert "cannot store the record of match" in outcome.error and "'../../escape'" in outcome.error
    assert not (tmp_path / "escape").exists() and not (tmp_path / "out" / "escape").exists()
    assert list(ResultsFolder(config.output).iter_records()) == []  # nothing half-stored
    # A sound executor then finishes the same tournament from where it stopped.
    again = Tournament(config, executor=CannedExecutor({})).run()
    assert (again.already, again.played, again.exit_code) == (0, 6, 0)
