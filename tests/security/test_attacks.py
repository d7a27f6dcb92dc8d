"""The attack zoo: hostile bots against the real sandbox, each with its exact verdict.

Every bot in ``tests/security/bots/`` plays legally and runs one attack at its
first request. Each test plays a real two-player match (the attacker in seat 0,
the random bot in seat 1) under the default sandbox, and asserts:

* the exact faults: the attacker's limit fault, or none at all (an attack that
  fails is not a fault, and the opponent is never blamed);
* that nothing the attack wanted leaked (the bots report successes on stderr
  as ``LEAK ...`` lines, which the referee keeps in the match's logs);
* that no process survives (the ``marker`` fixture), and that no file outside
  the bot's scratch space changed.

The attacks only prove something if they would succeed without the sandbox:
``test_the_attacks_work_without_the_sandbox`` runs the spies with ``sandbox:
none`` and expects their leaks.
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

import pytest

from referee.game.rules import Rules, Variant
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat.clock import TimeControl
from referee.seat.faults import Fault, FaultKind
from referee.seat.limits import Limit, SeatLimits
from referee.seat.sandbox import SandboxPolicy, SandboxSpec, detect
from referee.seat.spec import SeatSpec
from conftest import BOTS, PY, ROOT

ATTACKS = Path(__file__).resolve().parent / "bots"
SHORT = Rules(target=100, max_hands=2)

pytestmark = pytest.mark.skipif(detect().bwrap is None or detect().cgroups is None,
                                reason=f"the sandbox needs bubblewrap and cgroups: "
                                       f"{detect().bwrap_problem or detect().cgroup_problem}")


def _tree_digest(*folders: Path) -> dict[str, str]:
    """Hash of every file under ``folders`` (what a bot must not be able to change)."""
    out = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def play(tmp_path: Path, marker: str, attack: str, *, env: dict[str, str] | None = None,
         sandbox: SandboxSpec | None = None, opponent: list[str] | None = None,
         time: TimeControl | None = None, seed: int = 1, rules: Rules = SHORT,
         script: Path | None = None) -> tuple[MatchRecord, str]:
    """Play the attack bot (seat 0) against the random bot (seat 1); return the record and seat 0's stderr.

    ``sandbox`` is the match's sandbox (both seats); ``script`` the attack bot's file when it
    is not ``ATTACKS/<attack>.py``.
    """
    results = tmp_path / "results"
    spec = MatchSpec(
        variant=Variant.TWO_PLAYER, rules=rules, seed=seed, match_id=f"attack-{attack}",
        seats=[SeatSpec("attacker", [PY, str(script or ATTACKS / f"{attack}.py")], env={marker: "1", **(env or {})}),
               SeatSpec("victim", opponent or [PY, str(BOTS / "random_bot.py")], env={marker: "1"})],
        time=time or TimeControl(1000, 10000, 10000), logs=str(results / "logs"), grace_s=0.5,
        sandbox=sandbox or SandboxSpec())
    before = _tree_digest(ROOT / "referee", BOTS, ATTACKS)
    record = run_match(spec)
    assert _tree_digest(ROOT / "referee", BOTS, ATTACKS) == before, "a file outside the scratch space changed"
    stderr_path = spec.stderr_path(0)
    assert stderr_path is not None
    return record, stderr_path.read_text(errors="replace")


def leaks(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("LEAK ")]


def assert_clean(record: MatchRecord, stderr: str) -> None:
    """No fault on anybody, nothing leaked, the match played to its end."""
    assert record.faults == [], [f.describe(record.bots) for f in record.faults]
    assert leaks(stderr) == []
    assert record.reason.value in ("target", "max_hands"), record.reason


@pytest.mark.parametrize("attack", [
    "escapee",  # a double-forked child in its own session, stdio on /dev/null: dies with the seat
    "signaller",  # SIGSTOP/SIGKILL to the opponent and the referee: reaches nobody
    "pipe_forger",  # a fake answer into the opponent's stdout via /proc/<pid>/fd/1: no such process
    "mem_reader",  # /proc/<pid>/mem of the referee and the other bots: nothing to read
    "stdin_tee",  # tee(2) on /proc/<pid>/fd/0 of another process: nothing to copy
])
def test_attacks_on_other_processes_fail_and_blame_nobody(tmp_path: Path, marker: str, attack: str) -> None:
    """No fault on anybody, nothing leaked, and (the marker fixture) no process left."""
    record, stderr = play(tmp_path, marker, attack)
    assert_clean(record, stderr)


def test_referee_source_other_bots_results_and_config_are_out_of_reach(tmp_path: Path, marker: str) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "matches.jsonl").write_text('{"match":"earlier"}\n')
    config = tmp_path / "config.yaml"
    config.write_text("seed: 42\n")
    targets = [ROOT / "referee" / "match.py", BOTS / "random_bot.py", results / "matches.jsonl", config,
               results / "logs" / "attack-vandal.jsonl"]
    protected = {p: p.read_bytes() for p in targets if p.exists()}
    record, stderr = play(tmp_path, marker, "vandal", env={"SPY_TARGETS": os.pathsep.join(map(str, targets))})
    assert_clean(record, stderr)
    for path, content in protected.items():
        assert path.read_bytes() == content, path


def test_no_network(tmp_path: Path, marker: str) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.1)
    try:
        record, stderr = play(tmp_path, marker, "network", env={"SPY_PORT": str(server.getsockname()[1])})
        with pytest.raises(socket.timeout):
            server.accept()
    finally:
        server.close()
    assert_clean(record, stderr)


def _enforced(limit: Limit) -> pytest.MarkDecorator:
    """Skip where this machine's cgroups cannot enforce ``limit`` (cgroup v2 without its controller)."""
    roots = detect().cgroups
    return pytest.mark.skipif(roots is not None and limit in roots.not_enforced(),
                              reason=f"the {limit.label} limit is not enforced here: {detect().cgroup_problem}")


def _limit(record: MatchRecord, detail: str) -> None:
    assert record.faults == [Fault(0, FaultKind.LIMIT, detail, 1, record.faults[0].request)], \
        [f.describe(record.bots) for f in record.faults]
    assert record.winner == 1 and record.reason.value == "forfeit"


@_enforced(Limit.MEMORY)
def test_memory_hog_is_a_memory_limit_fault(tmp_path: Path, marker: str) -> None:
    # 4 GiB asked for; the seat's own limit (an override of the 1024 MiB default) stops it.
    sandbox = SandboxSpec(limits=SeatLimits(memory_mb=256))
    record, stderr = play(tmp_path, marker, "memory_hog", sandbox=sandbox)
    _limit(record, "exceeded its memory limit (256 MiB)")
    assert record.to_dict()["sandbox"][0]["limits"]["memory_mb"] == 256


def test_a_1_gib_file_in_tmp_is_a_file_size_limit_fault(tmp_path: Path, marker: str) -> None:
    record, _ = play(tmp_path, marker, "big_file")
    _limit(record, f"exceeded its file size limit ({SeatLimits().file_mb} MiB)")
    assert not Path("/tmp/big").exists() or Path("/tmp/big").stat().st_size < (64 << 20)


def test_a_big_file_bound_inside_tmp_is_not_the_bots_writing(tmp_path: Path, marker: str) -> None:
    """A bot that lives under /tmp (as does a virtual environment made there, with its
    150 MB browser driver) is bound inside the sandbox's /tmp. Its files are not what the
    bot wrote: a hang stays a timeout, not "exceeded its file size limit"."""
    home = tmp_path / "bot"
    home.mkdir()
    (home / "attack.py").write_text((ATTACKS / "attack.py").read_text())
    (home / "hang.py").write_text("import time\nfrom attack import play\nplay(attack=lambda: time.sleep(60))\n")
    (home / "weights.bin").write_bytes(b"\0" * (2 << 20))  # over the 1 MiB limit below
    record, _ = play(tmp_path, marker, "hang", script=home / "hang.py", time=TimeControl(300, 3000, 3000),
                     sandbox=SandboxSpec(limits=SeatLimits(file_mb=1)))
    assert [(f.seat, f.kind) for f in record.faults] == [(0, FaultKind.TIMEOUT)], \
        [f.describe(record.bots) for f in record.faults]


@_enforced(Limit.PROCESSES)
def test_fork_bomb_is_a_process_limit_fault(tmp_path: Path, marker: str) -> None:
    record, _ = play(tmp_path, marker, "fork_bomb")
    _limit(record, f"exceeded its process limit ({SeatLimits().processes} processes and threads)")


@pytest.mark.parametrize("attack", [
    "fd_hog",  # opens files until EMFILE kills it (its traceback names the error)
    "fd_hog_quiet",  # a child holds every descriptor it may have, silently; the bot hangs (a timeout)
])
def test_running_out_of_file_descriptors_is_an_open_files_limit_fault(tmp_path: Path, marker: str,
                                                                      attack: str) -> None:
    limits = SeatLimits(open_files=64)
    # A bank of 1 s, not 10: the quiet hog hangs, and the verdict waits for its clock.
    record, _ = play(tmp_path, marker, attack, sandbox=SandboxSpec(limits=limits), time=TimeControl(1000, 1000, 10000))
    _limit(record, "exceeded its open files limit (64 files)")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spinning_children_cannot_make_a_fair_bot_lose_on_time(tmp_path: Path, marker: str, seed: int) -> None:
    """The fair bot needs 150 ms of CPU per move and has 300 ms; the attacker's children spin on every core.

    The attacker is frozen (children included) whenever it is not on turn, and
    each answer is charged the CPU time of the answering seat: a test on a
    shared, loaded machine cannot promise a bot 150 ms of CPU within 300 ms of
    wall time even with no attacker (bench/sandbox.py measures both clocks).
    """
    fair = [PY, str(ATTACKS / "fair.py")]
    both = SandboxSpec(cpu_clock=True)
    record, stderr = play(tmp_path, marker, "spinner", opponent=fair, time=TimeControl(300, 0, 10000), seed=seed,
                          sandbox=both, rules=Rules(target=100, max_hands=1))
    assert_clean(record, stderr)
    assert record.stats[1]["decisions"] > 10 and record.stats[1]["mean_ms"] >= 150
    assert record.to_dict()["sandbox"][0]["fair_clock"] == "freeze+cpu"


@pytest.mark.parametrize("attack", ["mem_reader", "vandal"])
def test_the_attacks_work_without_the_sandbox(tmp_path: Path, marker: str, attack: str) -> None:
    """Control: with ``sandbox: none`` the same bots do get what they are after, so the tests above can fail."""
    victim = tmp_path / "victim.txt"
    victim.write_text("secret\n")
    _, stderr = play(tmp_path, marker, attack, sandbox=SandboxSpec(policy=SandboxPolicy.NONE),
                     env={"SPY_TARGETS": str(victim)})
    assert leaks(stderr), stderr[-2000:]


def test_each_record_states_the_sandbox_in_force(tmp_path: Path, marker: str) -> None:
    """Each record says what confined each seat."""
    record, _ = play(tmp_path, marker, "escapee")
    seat = record.to_dict()["sandbox"][0]
    assert seat["policy"] == "auto" and seat["namespaces"] is True
    assert seat["fair_clock"] == "freeze" and seat["cgroup_version"] == detect().cgroups.version
    if seat["cgroup_version"] == 1:
        assert set(seat["cgroup"]) == {"memory", "pids", "freezer", "cpuacct"} and seat["not_enforced"] == []
    else:  # tests/security/test_cgroup_v2.py has the v2 details
        assert {"freeze", "cpu"} <= set(seat["cgroup"])
    if os.geteuid() == 0:
        assert isinstance(seat["uid"], int) and seat["uid"] != 0
