"""The built wheel, installed into a fresh venv outside the repository, works from any folder.

One test, in steps that share the venv (building and installing take most of
its time): the wheel is built from a copy of the sources (so the repository
gets no build/ or egg-info), installed with its dependencies (from PyPI, or
pip's cache) into a venv without the system's site-packages (so the editable
install a developer may have cannot leak in), and then run from an empty
folder with no PYTHONPATH: `spades bots`, `spades check-bot -- builtin:random`,
`spades run` on a copy of the demo config, and `spades play` through its text
interface on a pseudo-terminal.
"""

from __future__ import annotations

import importlib.util
import os
import pty
import re
import select
import signal
import shlex
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from conftest import ROOT

SOURCES = ("pyproject.toml", "setup.py", "README.md", "referee", "bots")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]")


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    t0 = time.perf_counter()
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    print(f"{time.perf_counter() - t0:6.1f} s  {' '.join(argv[:4])}")
    assert result.returncode == 0, f"{argv} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def _clean_env() -> dict[str, str]:
    """This environment without anything that would point Python at the repository."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
                                                               "VIRTUAL_ENV", "PYTHONUSERBASE")}
    env["PYTHONNOUSERSITE"] = "1"  # a user-site install of the package must not leak in either
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(the venv's bin folder, an empty working folder outside the repository, the environment)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "simple_bot"))
        else:
            shutil.copy2(path, src / name)
    env = _clean_env()
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(src)]
    if importlib.util.find_spec("wheel") is not None:
        build.insert(4, "--no-build-isolation")  # no download of the build tools: the test extra has them
    _run(build, tmp, env)
    (wheel,) = (tmp / "dist").glob("spades_referee-*.whl")
    # No pip inside the venv (no ensurepip needed, quicker): this pip installs into it (--python).
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(tmp / "venv")
    bin_dir = tmp / "venv" / "bin"
    # --no-compile as in the README's test command: what is imported is compiled when it is.
    _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q", "--no-compile",
          str(wheel)], tmp, env, timeout=300)
    work = tmp / "elsewhere"
    work.mkdir()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return bin_dir, work, env


def test_the_installed_wheel_runs_the_bundled_bots_from_any_folder(installed: tuple[Path, Path, dict[str, str]]):
    if shutil.which("node") is None:
        pytest.skip("no node on this machine: the demo config seats the JavaScript bots")
    bin_dir, work, env = installed
    venv_root = bin_dir.parent.resolve()

    # The package and its bots come from the venv, not from the repository.
    where = _run([str(bin_dir / "python"), "-c", "import referee, spades_bots, sys; "
                  "print(referee.__file__); print(list(spades_bots.__path__)[0]); print(sys.prefix)"], work, env)
    referee_file, bots_path, prefix = where.stdout.split("\n")[:3]
    for path in (referee_file, bots_path, prefix):
        assert Path(path).resolve().is_relative_to(venv_root), where.stdout
    assert not Path(referee_file).resolve().is_relative_to(ROOT)

    listing = _run([str(bin_dir / "spades"), "bots"], work, env).stdout
    for name in ("builtin:random", "builtin:heuristic", "builtin:strong", "builtin:random-js", "builtin:heuristic-js"):
        assert name in listing
    assert str(Path(bots_path)) in listing and str(ROOT) not in listing

    check = _run([str(bin_dir / "spades"), "check-bot", "--quick", "--", "builtin:random"], work, env, timeout=180)
    assert "COMPLIANT: every answer was well-formed, legal and in time." in check.stdout

    demo = (ROOT / "configs" / "demo.yaml").read_text()
    # One hand per match and a small search budget keep the round-robin of all five bots quick;
    # everything else as shipped.
    assert "rules: {target: 500}" in demo
    assert "--budget, 40ms]" in demo
    quick = demo.replace("rules: {target: 500}", "rules: {target: 500, max_hands: 1}").replace("40ms]", "5ms]")
    (work / "demo.yaml").write_text(quick)
    # The tournament plays while a person plays `spades play` (mostly waiting), to save the test time.
    t0 = time.perf_counter()
    tournament = subprocess.Popen([str(bin_dir / "spades"), "run", "demo.yaml", "--output", str(work / "results"),
                                   "--quiet"], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
    try:
        _play_one_hand(bin_dir, work, env)
        print(f"{time.perf_counter() - t0:6.1f} s  spades play, one hand")
        out, err = tournament.communicate(timeout=300)
    finally:
        if tournament.poll() is None:
            tournament.kill()
            tournament.wait()
    print(f"{time.perf_counter() - t0:6.1f} s  spades run demo.yaml (spades play meanwhile)")
    assert tournament.returncode == 0, f"spades run failed:\n{out[-3000:]}\n{err[-3000:]}"
    for name in ("random", "heuristic", "random-js", "heuristic-js", "strong"):
        assert name in out
    records = (work / "results" / "matches.jsonl").read_text().splitlines()
    assert len(records) == 20 and all('"faults":[]' in r for r in records), records[:3]


def _play_one_hand(bin_dir: Path, work: Path, env: dict[str, str]) -> None:
    """`spades play` on a pty against the default bots; answer every prompt until hand 1 is scored."""
    master, slave = pty.openpty()
    # Started with SIGINT ignored, as a script's background job is (and as a test runner's worker
    # can leave it): Ctrl-C must end the match all the same.
    play = shlex.join([str(bin_dir / "spades"), "play", "--seed", "5", "--ascii"])
    proc = subprocess.Popen(["/bin/sh", "-c", f"trap '' INT; exec {play}"], cwd=work,
                            env={**env, "TERM": "xterm", "COLUMNS": "100", "LINES": "40"},
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    screen = bytearray()
    # Tried in turn at each prompt until one is accepted: Blind Nil "n", a bid, the exchange, card numbers.
    answers = ["n", "3", "1 2 3"] + [str(i) for i in range(1, 14)]
    tried = 0
    answered_at = -1
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.03)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                screen.extend(chunk)
            text = ANSI.sub("", screen.decode("utf-8", errors="replace")).replace("\r", "")
            if "Hand 1 scored" in text:
                break
            if text.rstrip().endswith(">") and len(text) != answered_at and not ready:  # --ascii: the prompt is "> "
                os.write(master, (answers[tried % len(answers)] + "\r").encode())
                tried += 1
                answered_at = len(text)
        else:
            raise AssertionError(f"hand 1 was never scored; the screen ends with:\n{text[-2500:]}")
        assert "Hand 1 scored" in text, text[-2500:]
        assert "heuristic" in text  # the default bots, found in the installed package
        assert "default bot is missing" not in text
        # Ctrl-C (the pty is not its controlling terminal: it runs in a session of its own).
        os.killpg(proc.pid, signal.SIGINT)
        # The terminal is read on while the match ends, as a real one is (a pty nobody reads
        # would block the adapter's drawing once full), and kept to show if it does not end.
        end = time.monotonic() + 20
        while proc.poll() is None and time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    screen.extend(os.read(master, 65536))
                except OSError:
                    pass
        after = ANSI.sub("", screen.decode("utf-8", errors="replace")).replace("\r", "")[len(text):]
        assert proc.poll() == 130, f"exit status {proc.returncode} 20 s after Ctrl-C; the screen since:\n{after[-2500:]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        os.close(master)
