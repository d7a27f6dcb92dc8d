"""Random-playout throughput of the rules engine, side by side with OpenSpiel.

Each "hand" is a complete partnership hand: a fresh shuffled deal (the engine's
own ``shuffled_deck``), four bids,
52 legal random plays and the scoring, all driven from Python by the same
random policy (``random.choice`` over the legal actions). OpenSpiel's
``spades`` game deals through 52 chance nodes, which the same policy resolves
by choosing among the chance outcomes. Blind Nil is switched off for our
engine because OpenSpiel's game has no Blind Nil, so both play the same game.

The two engines are timed in alternating rounds in one process, so a noisy
machine slows both alike; the last line is ``ratio R`` = ours / OpenSpiel's
hands per second. OpenSpiel (PyPI ``open-spiel``) is installed on demand; if
it cannot be had, our figure is printed alone and the ratio line says why.

Usage: python bench/engine.py [--seconds 3] [--rounds 5] [--no-install]
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from referee.game.deals import shuffled_deck, trusted_deal  # noqa: E402
from referee.game.engine import Variant, legal_actions, new_match, step  # noqa: E402
from referee.game.rules import Rules  # noqa: E402


def ours(seconds: float, rng: random.Random) -> float:
    """Hands per second of referee.game.engine under the random policy."""
    rules = Rules(blind_nil=False, max_hands=1)
    choice = rng.choice
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        st = new_match(Variant.PARTNERSHIP, rules, deals=[trusted_deal(shuffled_deck(rng))])
        while not st.over:
            st = step(st, choice(legal_actions(st)))
        n += 1
        if n % 64 == 0 and time.perf_counter() >= deadline:
            break
    return n / (time.perf_counter() - start)


def openspiel(seconds: float, rng: random.Random, pyspiel) -> float:
    """Hands per second of OpenSpiel's C++ ``spades`` driven from Python."""
    game = pyspiel.load_game("spades")
    choice = rng.choice
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(choice(st.chance_outcomes())[0])
            else:
                st.apply_action(choice(st.legal_actions()))
        n += 1
        if n % 64 == 0 and time.perf_counter() >= deadline:
            break
    return n / (time.perf_counter() - start)


def load_openspiel(install: bool):
    try:
        return importlib.import_module("pyspiel"), None
    except ImportError:
        if not install:
            return None, "open-spiel is not installed (run without --no-install to install it)"
    print("installing open-spiel from PyPI for the comparison ...", flush=True)
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "open-spiel"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, f"open-spiel could not be installed: {proc.stderr.strip().splitlines()[-1:]}"
    importlib.invalidate_caches()
    try:
        return importlib.import_module("pyspiel"), None
    except ImportError as exc:
        return None, f"open-spiel installed but does not import: {exc}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="seconds per engine per round")
    parser.add_argument("--rounds", type=int, default=21, help="alternating rounds (median reported)")
    parser.add_argument("--no-install", action="store_true", help="do not pip-install open-spiel")
    args = parser.parse_args()
    pyspiel, why = load_openspiel(not args.no_install)
    rng = random.Random(2026)
    ours(0.3, rng)  # warm-up: tables, caches
    if pyspiel:
        openspiel(0.3, rng, pyspiel)
    a, b = [], []
    for r in range(args.rounds):
        a.append(ours(args.seconds, rng))
        if pyspiel:
            b.append(openspiel(args.seconds, rng, pyspiel))
        print(f"round {r + 1}: spades-referee {a[-1]:8.0f} hands/s"
              + (f"   OpenSpiel {b[-1]:8.0f} hands/s" if pyspiel else ""), flush=True)
    ma = statistics.median(a)
    print(f"spades-referee engine: {ma:8.0f} random partnership hands/s (median of {len(a)})")
    if not pyspiel:
        print(f"OpenSpiel spades: not measured: {why}")
        print("ratio n/a")
        return 1
    mb = statistics.median(b)
    ratios = [x / y for x, y in zip(a, b)]
    print(f"OpenSpiel spades:      {mb:8.0f} random partnership hands/s (median of {len(b)})")
    print(f"per-round ratios: {', '.join(f'{r:.2f}' for r in ratios)}")
    print(f"ratio {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
