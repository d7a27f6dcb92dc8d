"""Build a starter kit into a folder outside the repository; used by the kits' tests
(tests/starters/) and by bench/starter_kits.py.

    python bots/starters/build_kit.py go /tmp/kit-go     # prints the command that runs the bot

Each kit's README gives the ordinary one-command build; this module builds into `out`
instead (cargo --target-dir, javac -d, go build -o, make OUT=), so nothing is written
into the kit's folder, and with `checks` it also runs the kit's own checks (Rust unit
tests, go vet, warnings as errors for javac and g++).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

STARTERS = Path(__file__).resolve().parent
BUILD_TIMEOUT_S = 600  # a cold cargo or javac on a loaded 2-core machine


class BuildError(RuntimeError):
    """A build step failed; the message holds the command and its output."""


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    if done.returncode != 0:
        raise BuildError(f"{' '.join(argv)} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


def _rust(out: Path, checks: bool) -> list[str]:
    kit = STARTERS / "rust"
    # --locked: the committed Cargo.lock (no dependencies) must be current and is not rewritten.
    cargo = ["--release", "--offline", "--locked", "--quiet", "--target-dir", str(out)]
    _run(["cargo", "build", *cargo], kit)
    if checks:
        _run(["cargo", "test", *cargo], kit)
    return [str(out / "release" / "spadesbot")]


def java_sources(src: Path = STARTERS / "java" / "src" / "starter") -> list[str]:
    """The Java kit's source files."""
    return sorted(str(p) for p in src.glob("*.java"))


def _java(out: Path, checks: bool) -> list[str]:
    _run(["javac", *(["-Xlint:all", "-Werror"] if checks else []), "-d", str(out), *java_sources()], STARTERS / "java")
    return ["java", "-cp", str(out), "starter.Main"]


def _go(out: Path, checks: bool) -> list[str]:
    # The build cache and module path go to `out`, not to HOME; no module is fetched.
    env = {**os.environ, "GOCACHE": str(out / "cache"), "GOPATH": str(out / "gopath"), "GOFLAGS": "-mod=mod",
           "GO111MODULE": "on", "GOTOOLCHAIN": "local", "GOPROXY": "off"}
    kit = STARTERS / "go"
    if checks:
        _run(["go", "vet", "."], kit, env)
    _run(["go", "build", "-o", str(out / "spadesbot"), "."], kit, env)
    return [str(out / "spadesbot")]


def _cpp(out: Path, checks: bool) -> list[str]:
    flags = ["CXXFLAGS=-O2 -std=c++17 -Wall -Wextra -pedantic -Werror"] if checks else []
    _run(["make", "-s", "-C", str(STARTERS / "cpp"), f"OUT={out / 'spadesbot'}", *flags], STARTERS)
    return [str(out / "spadesbot")]


def _js(out: Path, checks: bool) -> list[str]:
    return ["node", str(STARTERS / "js" / "main.js")]  # nothing to build


#: kit -> (the tools it needs, how to build it into a folder)
KITS: dict[str, tuple[tuple[str, ...], Callable[[Path, bool], list[str]]]] = {
    "rust": (("cargo",), _rust),
    "java": (("javac", "java"), _java),
    "go": (("go",), _go),
    "cpp": (("make", "g++"), _cpp),
    "js": (("node",), _js),
}


def missing_tools(kit: str) -> list[str]:
    """The tools `kit` needs that are not on PATH."""
    return [t for t in KITS[kit][0] if not shutil.which(t)]


def build(kit: str, out: Path, checks: bool = False) -> list[str]:
    """Build `kit` into `out` (created if needed) and return the command that runs it."""
    out.mkdir(parents=True, exist_ok=True)
    return KITS[kit][1](out, checks)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in KITS:
        sys.exit(f"usage: python {sys.argv[0]} {{{','.join(KITS)}}} OUT_DIR")
    print(" ".join(build(sys.argv[1], Path(sys.argv[2]).resolve())))
