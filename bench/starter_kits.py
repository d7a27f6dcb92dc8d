"""Decision times of the starter kits (bots/starters/), side by side with the Python
random bot as the reference, over check-bot's scripted scenarios.

Each available kit is built into a temporary folder, plus the Java kit a second time
without its JVM warm-up (the call in Main.java commented out), to show what the
warm-up buys. The bots are run in alternating rounds in one process, so a noisy
machine slows all alike. Figures are per decision (hello excluded): median, p99, max;
and hello (start-up, process creation included). The last line is ``ratio R`` = the
slowest kit's p99 / the reference's p99.

Usage: python bench/starter_kits.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.cli.checkbot import run_checks  # noqa: E402

# bots/starters/build_kit.py, loaded by its path: bots/ is not a package.
_spec = importlib.util.spec_from_file_location("spades_build_kit", ROOT / "bots" / "starters" / "build_kit.py")
assert _spec is not None and _spec.loader is not None
kits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kits)


def build_all(out: Path) -> dict[str, list[str]]:
    """Build every kit whose toolchain is here; returns name -> command."""
    cmds: dict[str, list[str]] = {"python random (reference)": [sys.executable, str(ROOT / "bots" / "random_bot.py")]}
    for kit in kits.KITS:
        if not kits.missing_tools(kit):
            cmds[kit] = kits.build(kit, out / kit)
    if "java" in cmds:
        cold = out / "java-cold-src"
        cold.mkdir()
        for src in map(Path, kits.java_sources()):
            (cold / src.name).write_text(src.read_text().replace("                warmUp();", "                // warmUp();"))
        subprocess.run(["javac", "-d", str(out / "java-cold"), *kits.java_sources(cold)], capture_output=True, check=True)
        cmds["java (no warm-up)"] = ["java", "-cp", str(out / "java-cold"), "starter.Main"]
    return cmds


def measure(cmd: list[str]) -> tuple[list[float], list[float]]:
    """Decision times and hello times (ms) of one quick check-bot pass."""
    report = run_checks(cmd, quick=True)
    assert report.ok, f"{cmd}: not compliant"
    times = [e.elapsed_ms for e in report.exchanges if e.elapsed_ms is not None and e.request["type"] != "hello"]
    hellos = [e.elapsed_ms for e in report.exchanges if e.elapsed_ms is not None and e.request["type"] == "hello"]
    return times, hellos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spades-kits-bench-") as tmp:
        cmds = build_all(Path(tmp))
        decisions: dict[str, list[float]] = {name: [] for name in cmds}
        hellos: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.rounds):
            for name, cmd in cmds.items():
                d, h = measure(cmd)
                decisions[name] += d
                hellos[name] += h
    print(f"{'bot':<28} {'decisions':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'hello ms':>9}")
    p99 = {}
    for name in cmds:
        t = sorted(decisions[name])
        p99[name] = t[min(len(t) - 1, int(len(t) * 0.99))]
        print(f"{name:<28} {len(t):>9} {statistics.median(t):>10.2f} {p99[name]:>8.1f} {t[-1]:>8.1f} "
              f"{statistics.median(hellos[name]):>9.0f}")
    kits = [n for n in cmds if n != "python random (reference)" and n != "java (no warm-up)"]
    if not kits:
        print("ratio n/a: no kit toolchain on this machine")
        return
    slowest = max(kits, key=lambda n: p99[n])
    print(f"slowest kit by p99: {slowest}")
    print(f"ratio {p99[slowest] / p99['python random (reference)']:.2f}")


if __name__ == "__main__":
    main()
