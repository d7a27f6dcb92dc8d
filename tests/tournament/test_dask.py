"""The Dask executor against a real LocalCluster (worker processes, no mocks of Dask).

Matches are short (two-player, low targets) so the whole module stays quick;
bots are seeded (BOT_SEED) or deterministic, so records can be compared with
the local executor's record by record.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import tempfile
import threading
import time
import warnings
from collections import Counter
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any, Iterator

import pytest

from referee.game.rules import Rules, Variant
from referee.match import MatchSpec
from referee.seat.spec import SeatSpec
from referee.tournament.config import BotEntry, ConfigError, TournamentConfig, check_command, parse_config
from referee.tournament.executors import DaskExecutor, ExecutorError, ExecutorSettings, LocalExecutor
from referee.tournament.executors.base import MatchCancelled, MatchFailed, Outcome
from referee.tournament.executors.dask import MISSING_DEPENDENCY, pack_folder
from referee.tournament.results import ResultsFolder
from referee.tournament.runner import Tournament, executor_for
from tests.conftest import BOTS, HOSTILE, PY, ROOT, processes_with_marker

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

RANDOM = [PY, str(BOTS / "random_bot.py")]
PRELOAD = "referee.tournament.executors.dask"


TEST_SECRET = bytes(range(32))


def local_cluster(n: int = 2, per: int = 1, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        # As in the executor: the scheduler's HTTP port moves aside when 8787 is taken
        # (another cluster of this module, or of a parallel test run).
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        return distributed.LocalCluster(n_workers=n, threads_per_worker=per, processes=True,
                                        resources={"match": per}, dashboard_address=None,
                                        silence_logs=logging.ERROR, preload=[PRELOAD], **kwargs)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with local_cluster() as c:
        yield c


def config_of(tmp_path: Path, bots: tuple[BotEntry, ...], hands: int = 3, **kw: Any) -> TournamentConfig:
    """Matches of at most ``hands`` hands (the target is out of reach): short, of known length."""
    rules = Rules(target=100000, max_hands=hands)
    # One secret for every results folder of these tests: the deals come from the seed and the
    # folder's secret, so runs compared record by record must share it (as docs/cluster.md says
    # of replaying a tournament elsewhere: copy its secret first).
    out = tmp_path / "out"
    out.mkdir(parents=True, exist_ok=True)
    if not (out / "secret").exists():
        fd = os.open(out / "secret", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, (TEST_SECRET.hex() + "\n").encode("ascii"))
        os.close(fd)
    return TournamentConfig(path=None, name="dask", variant=Variant.TWO_PLAYER, bots=bots, seed=9,
                            matches_per_pairing=2, duplicate=True, concurrency=2, rules=rules,
                            output=tmp_path / "out", **kw)


def random_bots(n: int = 3, env: dict[str, str] | None = None) -> tuple[BotEntry, ...]:
    return tuple(BotEntry(f"r{i}", tuple(RANDOM), ROOT, {"BOT_SEED": str(i), **(env or {})}) for i in range(n))


def slow_bots(marker: str, n: int = 3, ms: int = 10) -> tuple[BotEntry, ...]:
    """Deterministic legal bots that think ``ms`` per answer (about 30 answers a hand)."""
    return tuple(BotEntry(f"s{i}", (PY, str(HOSTILE), "--slow", str(ms), "--name", f"s{i}"), ROOT, {marker: "1"})
                 for i in range(n))


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what depends on the machine (times, the seats' uids, the HMAC over them)."""
    out = dict(record)
    out.pop("seconds")
    out.pop("check")  # the record's HMAC covers its times too
    # The sandbox in force is the same on any executor, but for the uid each seat was given.
    out["sandbox"] = [{k: v for k, v in seat.items() if k != "uid"} for seat in record["sandbox"]]
    out["stats"] = [{"decisions": s.get("decisions")} for s in record["stats"]]
    return out


def steady(value: Any) -> Any:
    """``value`` with every float rounded to 9 digits (through lists and dicts)."""
    if isinstance(value, float):
        return round(value, 9) + 0.0  # + 0.0: -0.0 and 0.0 alike
    if isinstance(value, dict):
        return {k: steady(v) for k, v in value.items()}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


def records(folder: Path) -> list[dict[str, Any]]:
    return list(ResultsFolder(folder).iter_records())


def collect(executor: Any, want: set[str], timeout_s: float = 60) -> dict[str, Outcome]:
    got: dict[str, Outcome] = {}
    deadline = time.monotonic() + timeout_s
    while not want <= set(got) and time.monotonic() < deadline:
        for outcome in executor.wait(0.2):
            assert outcome.match_id not in got, f"{outcome.match_id} answered twice"
            got[outcome.match_id] = outcome
    return got


# ---------------------------------------------------------------- same results


def test_a_tournament_on_dask_gives_the_local_records_record_by_record(tmp_path: Path) -> None:
    bots = random_bots()
    local = Tournament(config_of(tmp_path / "local", bots)).run()
    on_dask = config_of(tmp_path / "dask", bots, executor=ExecutorSettings("dask", {"workers": 2}))
    run = Tournament(on_dask)
    assert isinstance(run.executor, DaskExecutor)
    dask = run.run()
    assert (local.exit_code, dask.exit_code, local.played, dask.played) == (0, 0, 6, 6)
    here = {r["match"]: comparable(r) for r in records(tmp_path / "local" / "out")}
    there = {r["match"]: comparable(r) for r in records(tmp_path / "dask" / "out")}
    assert len(there) == 6 and here == there
    # The transcripts came back from the workers and were written by the coordinator alone.
    for match_id in there:
        assert (tmp_path / "dask" / "out" / "logs" / f"{match_id}.jsonl").stat().st_size > 0
    # The standings are the same too, decision times aside.
    # (Records in another file order move the fit in the 13th digit: the ratings are compared to 9.)
    untimed = [[{k: steady(v) for k, v in row.items() if not k.startswith("decision_ms")} for row in run.report.bots]
               for run in (local, dask)]
    assert untimed[0] == untimed[1]


def test_bundles_ship_each_bot_folder_and_play_the_same(tmp_path: Path, cluster: Any) -> None:
    folder = tmp_path / "botdir"
    folder.mkdir()
    (folder / "bot.py").write_bytes((BOTS / "random_bot.py").read_bytes())
    bots = tuple(BotEntry(f"r{i}", (PY, "bot.py"), folder, {"BOT_SEED": str(i)}) for i in range(3))
    digest, data = pack_folder(folder)
    assert pack_folder(folder) == (digest, data)  # content-hashed: the same files, the same bundle
    local = Tournament(config_of(tmp_path / "local", bots)).run()
    executor = DaskExecutor(cluster.scheduler_address, files="bundle", bots=[SeatSpec(b.name, list(b.command),
                                                                                      cwd=str(b.cwd)) for b in bots],
                            check=check_command)
    dask = Tournament(config_of(tmp_path / "dask", bots), executor=executor).run()
    assert dask.exit_code == 0
    assert {r["match"]: comparable(r) for r in records(tmp_path / "dask" / "out")} == \
        {r["match"]: comparable(r) for r in records(tmp_path / "local" / "out")}
    # Unpacked once per machine, under its content hash.
    assert (Path(tempfile.gettempdir()) / f"spades-bundles-{os.getuid()}" / digest / "bot.py").is_file()


def test_bundle_mode_refuses_a_bot_whose_script_lies_outside_its_folder(tmp_path: Path, cluster: Any) -> None:
    (tmp_path / "cfg").mkdir()
    seat = SeatSpec("x", [PY, os.path.relpath(BOTS / "random_bot.py", tmp_path / "cfg")], cwd=str(tmp_path / "cfg"))
    executor = DaskExecutor(cluster.scheduler_address, files="bundle", bots=[seat], check=check_command)
    with pytest.raises(ExecutorError, match=r"bot 'x': files: bundle ships the bot's folder .* names '\.\./"):
        executor.start()


# ---------------------------------------------------------------- failures


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().split(b") ", 1)[1].split()[1])
    except OSError:
        return None


def _worker_with_a_bot(client: Any, marker: str) -> int:
    """The pid of a worker process that has a bot (carrying ``marker``) running, once one has."""
    workers = set(client.run(os.getpid).values())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pid in processes_with_marker(marker):
            parent = _parent(pid)
            if parent in workers:
                return parent
        time.sleep(0.05)
    raise AssertionError("no match started on a worker")


def test_a_worker_killed_mid_match_gets_its_match_replayed_and_recorded_once(
        tmp_path: Path, marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # This process's own multiprocessing helper lives as long as pytest: start it before the
    # marker is set, or the first cluster of a session starts it with the marker on.
    resource_tracker.ensure_running()
    monkeypatch.setenv(marker, "1")  # the workers carry the marker too: none may outlive the run
    with local_cluster() as c, distributed.Client(c) as client:
        killed: list[int] = []

        def kill_one() -> None:
            pid = _worker_with_a_bot(client, marker)
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

        killer = threading.Thread(target=kill_one)
        killer.start()
        config = config_of(tmp_path, slow_bots(marker, 2), hands=4)
        outcome = Tournament(config, executor=DaskExecutor(c.scheduler_address)).run()
        killer.join()
        assert killed, "no worker was killed"
        assert outcome.exit_code == 0 and outcome.played == 2 == outcome.total
        ids = [r["match"] for r in records(config.output)]
        assert len(ids) == len(set(ids)) == 2  # every match once, none lost
        local = Tournament(config_of(tmp_path / "local", slow_bots(marker, 2), hands=4)).run()
        assert local.exit_code == 0
        assert {r["match"]: comparable(r) for r in records(config.output)} == \
            {r["match"]: comparable(r) for r in records(tmp_path / "local" / "out")}
    # (the marker fixture: no bot and no worker process is left)


def test_cancel_ends_the_bots_on_every_worker_and_answers_every_match(tmp_path: Path, marker: str,
                                                                      cluster: Any) -> None:
    executor = DaskExecutor(cluster.scheduler_address)
    executor.start()
    try:
        bots = slow_bots(marker, 2, ms=50)
        specs = [MatchSpec(variant=Variant.TWO_PLAYER, seats=[SeatSpec(b.name, list(b.command), cwd=str(b.cwd),
                                                                       env=dict(b.env)) for b in bots],
                           rules=Rules(target=100000, max_hands=500), seed=i, match_id=f"long{i}") for i in range(3)]
        for spec in specs:
            executor.submit(spec)
        deadline = time.monotonic() + 60
        while len(processes_with_marker(marker)) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)  # two matches running, one waiting for a slot
        assert len(processes_with_marker(marker)) >= 4
        # Never oversubscribed: each worker (one match slot) runs one match's two bots, no more,
        # though three matches were handed over (the third waits on a worker for its slot).
        for _ in range(10):
            per_worker = Counter(_parent(pid) for pid in processes_with_marker(marker))
            assert per_worker and max(per_worker.values()) <= 2, per_worker
            time.sleep(0.05)
        executor.cancel()
        got = collect(executor, {s.match_id for s in specs})
        assert {k: type(v) for k, v in got.items()} == {s.match_id: MatchCancelled for s in specs}
    finally:
        executor.close()


def test_a_referee_failure_is_retried_then_reported_with_the_worker_never_as_a_forfeit(cluster: Any) -> None:
    executor = DaskExecutor(cluster.scheduler_address, retries=1)
    executor.start()
    try:
        # An environment value that is not a string: starting the process raises
        # in the referee itself, on whatever worker plays it.
        seats = [SeatSpec("a", RANDOM, env={"X": 1}), SeatSpec("b", RANDOM)]  # type: ignore[dict-item]
        executor.submit(MatchSpec(variant=Variant.TWO_PLAYER, seats=seats, match_id="broken"))
        failed = collect(executor, {"broken"})["broken"]
        assert isinstance(failed, MatchFailed)
        assert "failed 2 time(s)" in failed.error and "never a bot's fault" in failed.error
        # The sandbox reads the environment first (AttributeError), a bare process would raise TypeError.
        assert failed.error.count("on worker tcp://127.0.0.1:") == 2
        assert "AttributeError" in failed.error or "TypeError" in failed.error
    finally:
        executor.close()


def test_a_worker_that_cannot_start_a_bot_is_named_with_the_path(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    program = tools / "only-here-bot"
    program.write_text(f"#!/bin/sh\nexec {PY} {BOTS / 'random_bot.py'}\n")
    program.chmod(0o755)
    # The coordinator has the program on its PATH; the workers do not.
    with local_cluster(env={"PATH": os.defpath}) as c:
        monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
        bot = SeatSpec("mine", ["only-here-bot"], cwd=str(tmp_path))
        assert check_command(["only-here-bot"], tmp_path) is None
        executor = DaskExecutor(c.scheduler_address, bots=[bot], check=check_command)
        with pytest.raises(ExecutorError, match=r"worker tcp://127\.0\.0\.1:\d+ cannot start bot 'mine': program "
                                                r"'only-here-bot' not found on PATH"):
            executor.start()
        # A worker that joins later is checked at its first match, with the same message.
        late = DaskExecutor(c.scheduler_address, check=check_command)
        late.start()
        try:
            late.submit(MatchSpec(variant=Variant.TWO_PLAYER, seats=[bot, SeatSpec("r", RANDOM)], match_id="m"))
            failed = collect(late, {"m"})["m"]
            assert isinstance(failed, MatchFailed) and "cannot start bot 'mine'" in failed.error
            assert "worker tcp://127.0.0.1:" in failed.error
        finally:
            late.close()
        script = SeatSpec("gone", [PY, str(tmp_path / "nowhere" / "bot.py")], cwd=str(tmp_path))
        with pytest.raises(ExecutorError, match=r"cannot start bot 'gone': script .* \(looked for .*nowhere/bot\.py"):
            DaskExecutor(c.scheduler_address, bots=[script], check=check_command).start()


def test_a_stopped_run_resumes_on_dask_and_plays_each_match_once(tmp_path: Path, cluster: Any, marker: str) -> None:
    config = config_of(tmp_path, slow_bots(marker, ms=5), hands=2)
    run = Tournament(config, executor=DaskExecutor(cluster.scheduler_address))
    stopper = threading.Timer(2.0, run.stop, args=(signal.SIGINT,))
    stopper.start()
    first = run.run()
    stopper.cancel()
    again = Tournament(config, executor=DaskExecutor(cluster.scheduler_address)).run()
    assert again.exit_code == 0 and first.played + again.played == 6 and again.already == first.played
    ids = [r["match"] for r in records(config.output)]
    assert len(ids) == len(set(ids)) == 6


def test_capacity_is_the_clusters_match_slots(cluster: Any) -> None:
    executor = DaskExecutor(cluster.scheduler_address)
    executor.start()
    try:
        assert (executor.at_once, executor.capacity) == (2, 4)  # a next match waits on each worker
    finally:
        executor.close()


# ---------------------------------------------------------------- settings


def test_the_config_checks_the_executor_settings_with_positions(tmp_path: Path) -> None:
    base = (f"variant: two-player\nbots:\n  - {{name: a, command: [{PY}, {BOTS / 'random_bot.py'}]}}\n"
            f"  - {{name: b, command: [{PY}, {BOTS / 'random_bot.py'}]}}\n")
    ok = parse_config(base + "executor: {kind: dask, scheduler: 'tcp://10.0.0.5:8786', files: bundle}\n",
                      base=tmp_path)
    assert ok.executor == ExecutorSettings("dask", {"scheduler": "tcp://10.0.0.5:8786", "files": "bundle"})
    assert parse_config(base + "executor: dask\n", base=tmp_path).executor.kind == "dask"
    assert parse_config(base, base=tmp_path).executor == ExecutorSettings()
    with pytest.raises(ConfigError) as err:
        parse_config(base + "executor:\n  kind: dask\n  scheduler: localhost\n  workers: 0\n  files: nfs\n"
                     "  sheduler: x\n", file="c.yaml", base=tmp_path)
    text = str(err.value)
    assert "c.yaml:7:14: executor.scheduler: must be a scheduler address like 'tcp://10.0.0.5:8786', " \
           "got: 'localhost'" in text
    assert "c.yaml:8:12: executor.workers: must be an integer of at least 1, got: 0" in text
    assert "c.yaml:9:10: executor.files: must be 'shared'" in text and "got: 'nfs'" in text
    assert "executor.sheduler: not a setting of the 'dask' executor" in text
    with pytest.raises(ConfigError, match=r"c.yaml:5:18: executor.kind: unknown value 'dusk'; did you mean 'dask'"):
        parse_config(base + "executor: {kind: dusk}\n", file="c.yaml", base=tmp_path)
    with pytest.raises(ConfigError, match=r"executor.workers: not a setting of the 'local' executor"):
        parse_config(base + "executor: {kind: local, workers: 2}\n", file="c.yaml", base=tmp_path)
    with pytest.raises(ConfigError, match=r"executor.workers: only for a local cluster, not with 'scheduler'"):
        parse_config(base + "executor: {kind: dask, scheduler: 'tcp://h:1', workers: 2}\n", base=tmp_path)


def test_the_command_line_chooses_the_executor(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"variant: two-player\noutput: out\nrules: {{target: 100}}\nbots:\n"
                   f"  - {{name: a, command: [{PY}, {BOTS / 'random_bot.py'}], env: {{BOT_SEED: '1'}}}}\n"
                   f"  - {{name: b, command: [{PY}, {BOTS / 'random_bot.py'}], env: {{BOT_SEED: '2'}}}}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def spades(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([PY, "-m", "referee.cli", "run", str(cfg), *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)

    done = spades("--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "Playing on a local Dask cluster: 2 worker(s), 2 match slot(s)" in done.stderr
    assert len(records(tmp_path / "out")) == 2
    bad = spades("--executor", "local", "--scheduler", "tcp://h:1")
    assert bad.returncode == 2 and "--scheduler: not a setting of the 'local' executor" in bad.stderr
    bad = spades("--scheduler", "h:1")
    assert bad.returncode == 2 and "must be a scheduler address like 'tcp://10.0.0.5:8786', got: 'h:1'" in bad.stderr


def test_the_referee_works_without_dask_and_says_what_to_install(tmp_path: Path) -> None:
    # A fresh interpreter in which `distributed` cannot be imported.
    code = ("import sys\nsys.modules['distributed'] = None\n"
            "from referee.tournament.executors import EXECUTORS, DaskExecutor, ExecutorError\n"
            "try:\n    DaskExecutor(workers=1).start()\nexcept ExecutorError as e:\n    print(e)\n")
    done = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == MISSING_DEPENDENCY


def test_executor_for_builds_the_configs_executor(tmp_path: Path) -> None:
    config = config_of(tmp_path, random_bots(), executor=ExecutorSettings("dask", {"matches_per_worker": 2}))
    executor = executor_for(config, concurrency=3)
    assert isinstance(executor, DaskExecutor) and (executor.workers, executor.matches_per_worker) == (3, 2)
    assert executor.at_once == 6  # before it starts: what the local cluster will offer
    assert isinstance(executor_for(config_of(tmp_path, random_bots())), LocalExecutor)
    assert json.loads(json.dumps(config.frozen(tmp_path)["executor"])) == {"kind": "dask", "matches_per_worker": 2}


def test_ctrl_c_in_the_terminal_stops_the_run_and_leaves_no_process(tmp_path: Path, marker: str) -> None:
    """SIGINT to the whole foreground group, as a terminal sends it: the local cluster's
    workers ignore it, the coordinator cancels every match, nothing survives."""
    cfg = tmp_path / "c.yaml"
    slow = f"[{PY}, {HOSTILE}, --slow, '20']"
    cfg.write_text(f"variant: two-player\noutput: out\nrules: {{target: 100000, max_hands: 50}}\nbots:\n"
                   f"  - {{name: a, command: {slow}, env: {{{marker}: '1'}}}}\n"
                   f"  - {{name: b, command: {slow}, env: {{{marker}: '1'}}}}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), marker: "1"}  # the workers carry it too
    run = subprocess.Popen([PY, "-m", "referee.cli", "run", str(cfg), "--workers", "2"], cwd=tmp_path, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while len([p for p in processes_with_marker(marker) if p != run.pid]) < 6 and time.monotonic() < deadline:
            time.sleep(0.1)  # 2 workers and the 4 bots of two matches
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err
    assert "Interrupted: 0 of 2 matches are finished" in err and "every bot process has been ended" in err
    assert records(tmp_path / "out") == []


def _environ(key: str) -> str | None:
    return os.environ.get(key)


def test_bots_on_a_worker_get_the_environment_they_would_get_locally() -> None:
    """A Dask nanny gives its worker MALLOC_TRIM_THRESHOLD_=65536 (and OMP_NUM_THREADS=1);
    a worker takes them out before its first match, so its bots never inherit them."""
    from referee.tournament.executors.dask import _restore_environ
    with local_cluster(n=1) as c, distributed.Client(c) as client:
        assert set(client.run(_environ, "MALLOC_TRIM_THRESHOLD_").values()) == {"65536"}  # Dask's, before
        client.run(_restore_environ)
        assert set(client.run(_environ, "MALLOC_TRIM_THRESHOLD_").values()) == {None}
