"""The referee's cost per decision against a bare JSON ping-pong of the same messages.

1. A whole partnership match (to 500, default rules) is played through the
   real referee (``run_match``: clock, transcript and stderr logging on) by
   four processes of ``bench/minimal_bot.py``. Cost per decision = wall time
   of the match loop / number of requests.
2. The same messages, read back from that match's transcript, are replayed
   over pipes to four fresh processes of the same bot by a bare loop that
   only writes the recorded lines and reads and JSON-decodes each answer: no
   engine, no views, no serialisation, no clock, no logging.

Both are measured two ways: wall time of the decision loop, and CPU time of
the whole run (the referee process plus every bot process it started, from
``getrusage(RUSAGE_SELF)`` + ``getrusage(RUSAGE_CHILDREN)``: bot start-up
included on both sides). A shared machine disturbs CPU time far less than
wall time. The referee run uses the default sandbox (``auto``: namespaces,
cgroup, fair clock freezing the seats not on turn); ``--sandbox none`` for
plain processes.

The last lines are ``wall ratio W`` and ``ratio R``: referee CPU per decision /
bare CPU per decision, the median over the runs (with their spread).

Usage: python bench/protocol.py [--runs 5] [--seed 1] [--sandbox auto|none]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from referee.match import MatchSpec, run_match
from referee.seat.spec import SeatSpec
from referee.seat.clock import TimeControl  # noqa: E402
from referee.game.rules import Rules, Variant  # noqa: E402
from referee.seat.sandbox import SandboxPolicy, SandboxSpec  # noqa: E402

BOT = [sys.executable, str(HERE / "minimal_bot.py")]


_CPUACCT = Path("/sys/fs/cgroup/cpuacct")
_USAGE: Path | None = None  # this benchmark's own cpuacct group, when cgroup v1 allows one


def enter_own_cpu_group() -> str:
    """Move this process into a cpuacct group of its own, so that every process it starts,
    at any depth (sandboxed bots are grandchildren in another PID namespace, and their
    launcher does not hand their rusage up), is counted; say how CPU is measured."""
    global _USAGE
    group = _CPUACCT / f"spades-bench-{os.getpid()}"
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError as exc:
        return f"CPU from getrusage (self + reaped children; no cpuacct group: {exc.strerror})"
    _USAGE = group / "cpuacct.usage"
    atexit.register(_leave_own_cpu_group, group)
    return "CPU from a cpuacct cgroup holding this process and every process it starts"


def _leave_own_cpu_group(group: Path) -> None:
    """Back to the parent group; remove ours (and the empty seat groups' parent in it)."""
    try:
        # This process, and the referee's reaper (which outlives it by a moment).
        for pid in (group / "cgroup.procs").read_text().split():
            (group.parent / "cgroup.procs").write_text(pid)
        for sub in group.iterdir():
            if sub.is_dir():
                sub.rmdir()
        group.rmdir()
    except OSError:
        pass


def cpu_now() -> float:
    """CPU seconds of this process and every process it started."""
    if _USAGE is not None:
        return int(_USAGE.read_text()) / 1e9
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def referee_run(seed: int, out: Path, sandbox: SandboxPolicy) -> tuple[float, int, Path, float]:
    """Play one match through the referee; return (seconds in the match loop, requests, transcript, CPU s)."""
    seats = [SeatSpec("minimal", BOT) for _ in range(4)]
    spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=Rules(), seed=seed, match_id="bench",
                     time=TimeControl(1000, 10000, 10000), logs=out / "logs", grace_s=1.0,
                     sandbox=SandboxSpec(policy=sandbox))
    cpu0 = cpu_now()
    record = run_match(spec)
    cpu = cpu_now() - cpu0
    transcript = spec.transcript_path
    assert transcript is not None
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    msgs = [e for e in entries if "dir" in e]
    requests = [e for e in msgs if e["dir"] == "out" and "id" in e["msg"] and e["msg"]["type"] != "hello"]
    # Time from the first request after the hellos to the last message: the decision loop.
    first = next(e["t"] for e in msgs if e["dir"] == "out" and e["msg"].get("type") == "hand_start")
    last = msgs[-1]["t"]
    assert record.reason.value in ("target", "max_hands"), record.reason
    return last - first, len(requests), transcript, cpu


def _pipes(proc: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes]]:
    """A bot process's stdin and stdout (both opened with PIPE, so never None)."""
    assert proc.stdin is not None and proc.stdout is not None
    return proc.stdin, proc.stdout


def bare_run(transcript: Path) -> tuple[float, int, float]:
    """Replay the transcript's referee->bot lines over pipes; return (seconds, requests, CPU s)."""
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    script = [(e["seat"], json.dumps(e["msg"], separators=(",", ":")).encode() + b"\n", "id" in e["msg"])
              for e in entries if e.get("dir") == "out"]
    cpu0 = cpu_now()
    procs = [subprocess.Popen(BOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) for _ in range(4)]
    pipes = [_pipes(p) for p in procs]
    ins = [i.fileno() for i, _ in pipes]
    outs = [o.fileno() for _, o in pipes]
    pollers = []
    for fd in outs:
        po = select.poll()
        po.register(fd, select.POLLIN)
        pollers.append(po)
    bufs = [b""] * 4
    write, read, loads = os.write, os.read, json.loads
    start = None
    n = 0
    for seat, line, is_request in script:
        if start is None and b'"hand_start"' in line:
            start = time.perf_counter()
        write(ins[seat], line)
        if is_request:
            buf = bufs[seat]
            while b"\n" not in buf:
                pollers[seat].poll(5000)
                buf += read(outs[seat], 65536)
            answer, _, bufs[seat] = buf.partition(b"\n")
            loads(answer)
            if start is not None:
                n += 1
    if start is None:
        raise SystemExit(f"error: the transcript {transcript} has no hand_start message to time from")
    elapsed = time.perf_counter() - start
    for p, (stdin, stdout) in zip(procs, pipes):
        stdin.close()
        p.wait(5)
        stdout.close()
    return elapsed, n, cpu_now() - cpu0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sandbox", choices=[p.value for p in SandboxPolicy], default="auto")
    args = parser.parse_args()
    ref_us, bare_us, ratios = [], [], []
    ref_cpu, bare_cpu, cpu_ratios = [], [], []
    print(enter_own_cpu_group(), flush=True)
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}  load average: {os.getloadavg()[0]:.2f}",
          flush=True)
    for r in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
            secs, n, transcript, cpu = referee_run(args.seed + r, Path(tmp), SandboxPolicy(args.sandbox))
            bsecs, bn, bcpu = bare_run(transcript)
        assert bn == n, (bn, n)
        ref_us.append(secs / n * 1e6)
        bare_us.append(bsecs / bn * 1e6)
        ratios.append(ref_us[-1] / bare_us[-1])
        ref_cpu.append(cpu / n * 1e6)
        bare_cpu.append(bcpu / n * 1e6)
        cpu_ratios.append(ref_cpu[-1] / bare_cpu[-1])
        print(f"run {r + 1}: {n} decisions; wall: referee {ref_us[-1]:7.1f} us/decision, "
              f"bare ping-pong {bare_us[-1]:7.1f} us/decision, ratio {ratios[-1]:.2f}; "
              f"CPU: referee {ref_cpu[-1]:7.1f} us/decision, bare {bare_cpu[-1]:7.1f} us/decision, "
              f"ratio {cpu_ratios[-1]:.2f}; load average {os.getloadavg()[0]:.2f}", flush=True)
    print(f"referee (engine + protocol + clock + transcript): {statistics.median(ref_us):7.1f} us per decision")
    print(f"bare JSON ping-pong of the same messages:         {statistics.median(bare_us):7.1f} us per decision")
    print(f"CPU of the whole run (referee + bots), sandbox {args.sandbox}: "
          f"{statistics.median(ref_cpu):7.1f} us per decision")
    print(f"CPU of the bare loop with the same bots:          {statistics.median(bare_cpu):7.1f} us per decision")
    print(f"wall ratio {statistics.median(ratios):.2f} (runs {min(ratios):.2f} to {max(ratios):.2f})")
    print(f"CPU ratio spread over {args.runs} runs: {min(cpu_ratios):.2f} to {max(cpu_ratios):.2f}")
    print(f"ratio {statistics.median(cpu_ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
