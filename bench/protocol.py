"""The referee's cost per decision against a bare JSON ping-pong of the same messages.

1. A whole partnership match (to 500, default rules) is played through the
   real referee (``run_match``: clock, transcript and stderr logging on) by
   four processes of ``bench/minimal_bot.py``. Cost per decision = wall time
   of the match loop / number of requests.
2. The same messages, read back from that match's transcript, are replayed
   over pipes to four fresh processes of the same bot by a bare loop that
   only writes the recorded lines and reads and JSON-decodes each answer: no
   engine, no views, no serialisation, no clock, no logging.

The last line is ``ratio R`` = referee microseconds per decision / bare
microseconds per decision, the median over several runs.

Usage: python bench/protocol.py [--runs 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from referee.match import MatchSpec, run_match
from referee.seat.spec import SeatSpec
from referee.seat.clock import TimeControl  # noqa: E402
from referee.game.rules import Rules, Variant  # noqa: E402

BOT = [sys.executable, str(HERE / "minimal_bot.py")]


def referee_run(seed: int, out: Path) -> tuple[float, int, Path]:
    """Play one match through the referee; return (seconds in the match loop, requests, transcript)."""
    seats = [SeatSpec("minimal", BOT) for _ in range(4)]
    spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=Rules(), seed=seed, match_id="bench",
                     time=TimeControl(1000, 10000, 10000), logs=out / "logs", grace_s=1.0)
    record = run_match(spec)
    transcript = spec.transcript_path
    assert transcript is not None
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    msgs = [e for e in entries if "dir" in e]
    requests = [e for e in msgs if e["dir"] == "out" and "id" in e["msg"] and e["msg"]["type"] != "hello"]
    # Time from the first request after the hellos to the last message: the decision loop.
    first = next(e["t"] for e in msgs if e["dir"] == "out" and e["msg"].get("type") == "hand_start")
    last = msgs[-1]["t"]
    assert record.reason.value in ("target", "max_hands"), record.reason
    return last - first, len(requests), transcript


def bare_run(transcript: Path) -> tuple[float, int]:
    """Replay the transcript's referee->bot lines over pipes; return (seconds, requests)."""
    entries = [json.loads(line) for line in transcript.read_text().splitlines()]
    script = [(e["seat"], json.dumps(e["msg"], separators=(",", ":")).encode() + b"\n", "id" in e["msg"])
              for e in entries if e.get("dir") == "out"]
    procs = [subprocess.Popen(BOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) for _ in range(4)]
    ins = [p.stdin.fileno() for p in procs]
    outs = [p.stdout.fileno() for p in procs]
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
    elapsed = time.perf_counter() - start
    for p in procs:
        p.stdin.close()
        p.wait(5)
        p.stdout.close()
    return elapsed, n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ref_us, bare_us, ratios = [], [], []
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}  load average: {os.getloadavg()[0]:.2f}",
          flush=True)
    for r in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
            secs, n, transcript = referee_run(args.seed + r, Path(tmp))
            bsecs, bn = bare_run(transcript)
        assert bn == n, (bn, n)
        ref_us.append(secs / n * 1e6)
        bare_us.append(bsecs / bn * 1e6)
        ratios.append(ref_us[-1] / bare_us[-1])
        print(f"run {r + 1}: {n} decisions; referee {ref_us[-1]:7.1f} us/decision, "
              f"bare ping-pong {bare_us[-1]:7.1f} us/decision, ratio {ratios[-1]:.2f}, "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
    print(f"referee (engine + protocol + clock + transcript): {statistics.median(ref_us):7.1f} us per decision")
    print(f"bare JSON ping-pong of the same messages:         {statistics.median(bare_us):7.1f} us per decision")
    print(f"ratio {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
