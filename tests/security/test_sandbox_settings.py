"""The sandbox's settings and its degraded paths: config keys, --sandbox, records, warnings, pauses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from referee.game.rules import Variant
from referee.match import MatchSpec
from referee.seat.limits import Limit, SeatLimits
from referee.seat.sandbox import BWRAP_ENV, SandboxPolicy, SandboxSpec, detect
from referee.seat.spec import SeatSpec
from referee.tournament.config import ConfigError, parse_config

from conftest import BOTS, PY, ROOT

ATTACKS = Path(__file__).resolve().parent / "bots"
needs_sandbox = pytest.mark.skipif(detect().bwrap is None or detect().cgroups is None,
                                   reason="the sandbox needs bubblewrap and cgroups")


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "referee.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def test_match_spec_round_trips_the_sandbox_settings() -> None:
    seat = SeatSpec("a", ["python3", "a.py"], sandbox=SandboxSpec(limits=SeatLimits(memory_mb=99),
                                                                  ro_paths=("/opt/x",), rw_paths=("/dev/null",)))
    spec = MatchSpec(variant=Variant.TWO_PLAYER, seats=[seat, SeatSpec("b", "python3 b.py")],
                     sandbox=SandboxSpec(policy=SandboxPolicy.REQUIRED, ponder=True, cpu_clock=True))
    again = MatchSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again.sandbox == spec.sandbox and again.seats[0].sandbox == seat.sandbox
    assert again.seats[1].sandbox is None


def test_limit_faults_name_the_limit_and_its_value() -> None:
    assert Limit.MEMORY.fault_detail(1024) == "exceeded its memory limit (1024 MiB)"
    with pytest.raises(ValueError, match="memory_mb.*got: 0"):
        SeatLimits(memory_mb=0)


def test_config_keys_and_per_bot_overrides(tmp_path: Path) -> None:
    (tmp_path / "extra").mkdir()
    text = f"""
variant: two-player
sandbox: required
ponder: true
clock: cpu
limits: {{processes: 100}}
bots:
  - {{name: a, command: [{PY}, {BOTS / 'random_bot.py'}], memory_mb: 2048, extra_ro_paths: [extra]}}
  - {{name: b, command: [{PY}, {BOTS / 'random_bot.py'}]}}
"""
    config = parse_config(text, base=tmp_path)
    a, b = (config.bot_sandbox(bot) for bot in config.bots)
    assert a.policy is SandboxPolicy.REQUIRED and a.ponder and a.cpu_clock
    assert a.limits == SeatLimits(memory_mb=2048, processes=100) and b.limits == SeatLimits(processes=100)
    assert a.ro_paths == (str(tmp_path / "extra"),) and b.ro_paths == ()


def test_config_mistakes_are_explained(tmp_path: Path) -> None:
    text = f"""
variant: two-player
sandbox: strict
bots:
  - {{name: a, command: [{PY}, {BOTS / 'random_bot.py'}], memory_mb: lots, extra_ro_paths: [nowhere]}}
  - {{name: b, command: [{PY}, {BOTS / 'random_bot.py'}]}}
"""
    with pytest.raises(ConfigError) as err:
        parse_config(text, file="t.yaml", base=tmp_path)
    message = str(err.value)
    assert "sandbox: unknown value 'strict'; expected one of: auto, required, none" in message
    assert "bots[0].memory_mb: must be an integer, got: 'lots'" in message
    assert "bots[0].extra_ro_paths[0]: path 'nowhere' does not exist" in message


def test_without_bubblewrap_auto_degrades_loudly_and_the_record_says_so(tmp_path: Path) -> None:
    """Forcing the "no bwrap" detection: a loud warning, and the record's field says no namespaces."""
    bot = f"{PY} {BOTS / 'random_bot.py'}"
    done = _cli("match", "--variant", "two-player", "--bot", bot, "--bot", bot, "--target", "50", "--json",
                env={BWRAP_ENV: ""})
    assert done.returncode == 0, done.stderr
    assert "WARNING: sandbox: no namespaces ($SPADES_BWRAP is empty)" in done.stderr
    record = json.loads(done.stdout)
    assert [s["namespaces"] for s in record["sandbox"]] == [False, False]
    assert all(s["policy"] == "auto" and "no namespaces" in s["warnings"][0] for s in record["sandbox"])


def test_required_refuses_to_start_without_bubblewrap() -> None:
    bot = f"{PY} {BOTS / 'random_bot.py'}"
    done = _cli("match", "--sandbox", "required", "--bot", bot, "--bot", bot, env={BWRAP_ENV: ""})
    assert done.returncode != 0 and done.stdout == ""
    assert "sandbox: required, but $SPADES_BWRAP is empty; install bubblewrap" in done.stderr


def test_none_warns_loudly() -> None:
    bot = f"{PY} {BOTS / 'random_bot.py'}"
    done = _cli("match", "--variant", "two-player", "--sandbox", "none", "--bot", bot, "--bot", bot,
                "--target", "50", "--json")
    assert done.returncode == 0, done.stderr
    assert "WARNING: sandbox: none: bots run as plain processes" in done.stderr
    assert [s["namespaces"] for s in json.loads(done.stdout)["sandbox"]] == [False, False]


@needs_sandbox
def test_check_bot_runs_the_bot_in_the_sandbox() -> None:
    done = _cli("check-bot", "--quick", "--sandbox", "required", "--", PY, str(BOTS / "random_bot.py"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "COMPLIANT" in done.stdout


def _stopped_match(marker: str, bot: str, args: list[str], stops: int, stop_s: float) -> dict:
    """Play ``spades match`` in a child process, SIGSTOP it ``stops`` times for ``stop_s`` each; its record."""
    proc = subprocess.Popen(
        [PY, "-m", "referee.cli", "match", "--variant", "two-player", "--bot", bot, "--bot", bot, "--bank-ms", "0",
         "--target", "100", "--json", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), marker: "1"})
    try:
        time.sleep(1.5)
        for _ in range(stops):
            proc.send_signal(signal.SIGSTOP)
            time.sleep(stop_s)
            proc.send_signal(signal.SIGCONT)
            time.sleep(0.4)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    record: dict = json.loads(out)
    assert record["faults"] == [], record["faults"]
    assert record["reason"] in ("target", "max_hands")
    return record


@needs_sandbox
def test_the_referees_own_pauses_are_never_charged(marker: str) -> None:
    """The referee is stopped (SIGSTOP) for 1.5 s at a time, three times, while a bot needing
    150 ms of 300 ms per move plays under the CPU clock: nobody's clock runs, nobody times out."""
    record = _stopped_match(marker, f"{PY} {ATTACKS / 'fair.py'}",
                            ["--move-ms", "300", "--rule", "max_hands=1", "--clock", "cpu"], 3, 1.5)
    assert min(s["decisions"] for s in record["stats"]) > 5


@needs_sandbox
def test_the_wall_clock_does_not_charge_referee_pauses_either(marker: str) -> None:
    """Same under the default wall clock, 3 stops of 1 s, with a bot that sleeps 20 ms a move
    (no CPU: load cannot make it late). Fails with the pause correction turned off."""
    record = _stopped_match(marker, f"{PY} {ATTACKS / 'sleepy.py'}", ["--move-ms", "400", "--rule", "max_hands=6"],
                            3, 1.0)
    assert max(s["max_ms"] for s in record["stats"]) < 400
