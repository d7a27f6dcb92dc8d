"""End to end: a person plays `spades play` in a real terminal (tmux).

The test starts ``python -m referee.cli play`` in a detached tmux session of 80x24
(the real referee, the real human adapter, three heuristic bots), reads the
screen with ``tmux capture-pane`` and answers every prompt with ``send-keys``
(picking a legal card from the numbered hand on the screen) until the first
hand has been scored. Then it presses Ctrl-C at the next prompt and checks the
goodbye and the result line of ``spades play``. It measures what a person
would see: the hand's scoring, the final result, and that nothing wraps past
80 columns.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
CARD_RE = re.compile(r"(\d+):(10|[2-9JQKA])([\u2663\u2666\u2665\u2660])")
PROMPT = "\u203a"

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed; this test drives a real terminal through it")


class Tmux:
    """A private tmux server (own socket, no user config) with one 80x24 window."""

    def __init__(self, tmp: Path) -> None:
        # The server's socket lives in the test's own folder: nothing is left behind.
        conf = tmp / "tmux.conf"
        conf.write_text("set -g history-limit 50000\n")
        self.base = ["tmux", "-u", "-S", str(tmp / "tmux.sock"), "-f", str(conf)]

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=20)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def start(self, shell_command: str) -> None:
        env = ["-e", "LANG=C.UTF-8", "-e", "TERM=xterm-256color"]
        self.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", *env, shell_command)

    def screen(self) -> str:
        """The whole history plus the visible screen, wrapped lines joined (-J)."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", "play")

    def keys(self, text: str) -> None:
        self.run("send-keys", "-t", "play", "-l", text)
        self.run("send-keys", "-t", "play", "Enter")

    def ctrl(self, key: str) -> None:
        self.run("send-keys", "-t", "play", f"C-{key}")

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=20)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path)
    yield t
    t.kill()


def wait_until(tmux: Tmux, predicate, what: str, timeout: float = 20.0) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if predicate(screen):
            return screen
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; the screen ends with:\n{screen[-3000:]}")


def prompts(screen: str) -> list[str]:
    return [line for line in screen.splitlines() if f" {PROMPT}" in line]


def choose_card(screen: str, prompt: str) -> str:
    """The number of a legal card, read from the last hand shown and the prompt."""
    block = screen[screen.rfind("\u2500\u2500\u2500 Hand") :]
    hand = [(int(n), ("T" if r == "10" else r) + SUITS[s]) for n, r, s in CARD_RE.findall(block)]
    assert hand, f"no numbered hand on the screen:\n{block}"
    follow = re.search(r"follow (\w+)", prompt)
    if follow:
        pool = [n for n, c in hand if c[1] == SUIT_WORDS[follow.group(1)]]
    elif "not broken" in prompt:
        pool = [n for n, c in hand if c[1] != "S"]
    else:
        pool = [n for n, _ in hand]
    return str(pool[-1])  # the highest of the suit: this player likes to win tricks


@needs_tmux
def test_play_one_hand_in_tmux_then_leave_with_ctrl_c(tmux: Tmux) -> None:
    command = [sys.executable, "-m", "referee.cli", "play", "--seed", "7", "--target", "150"]
    shell = f"cd {shlex.quote(str(ROOT))} && {shlex.join(command)}; echo EXIT=$?; sleep 120"
    tmux.start(shell)
    answered = 0
    seen_prompts = 0
    plays = 0
    while True:
        screen = wait_until(
            tmux,
            lambda s: len(prompts(s)) > seen_prompts or "Hand 1 scored" in s or "EXIT=" in s,
            "the next prompt",
        )
        if "Hand 1 scored" in screen or "EXIT=" in screen:
            break
        seen_prompts = len(prompts(screen))
        prompt = prompts(screen)[-1]
        if "Bid blind nil" in prompt:
            answer = "n"
        elif "Your bid" in prompt:
            answer = "3"
        elif "Pass 3 cards" in prompt:
            answer = "1 2 3"
        elif "Your play" in prompt or "Your lead" in prompt:
            answer = choose_card(screen, prompt)
            plays += 1
        else:
            raise AssertionError(f"unexpected prompt: {prompt!r}")
        assert "you must follow" not in screen.splitlines()[-1]
        tmux.keys(answer)
        answered += 1
        assert answered < 60, "a hand takes far fewer answers"

    screen = wait_until(tmux, lambda s: re.search(r"Score: Us -?\d+", s) is not None, "the hand's score line")
    assert "EXIT=" not in screen, f"spades play ended early:\n{screen[-3000:]}"
    assert plays == 13
    scored = screen[screen.index("Hand 1 scored") :]
    assert re.search(r"Us:\s+You bid 3, took \d+; Partner bid", scored)
    assert re.search(r"(made|set).*[+-]\d+", scored), "the scoring is itemised"
    assert "Trick 13:" in screen
    # Readable in 80 columns: no line of the session is wider (-J joined any wrapped ones).
    wide = [line for line in screen.splitlines() if len(line.rstrip()) > 80]
    assert not wide, wide

    # Leave at the next question with Ctrl-C: the adapter says goodbye, the
    # referee records the seat's exit, and `spades play` reports the result.
    wait_until(tmux, lambda s: prompts(s[s.index("Hand 1 scored") :]) != [], "a prompt in hand 2")
    tmux.ctrl("c")
    screen = wait_until(tmux, lambda s: "EXIT=" in s, "spades play to exit", timeout=30)
    tail = screen[screen.index("Hand 1 scored") :]
    assert "Goodbye" in tail
    assert re.search(r"Your side lost, -?\d+ to -?\d+ \(forfeit\)\.", tail), tail
    assert "Your seat was faulted (crash)" in tail
    assert "Replay these deals: spades play --seed 7 --target 150" in tail
    assert "EXIT=0" in tail


# -- spades play's option handling (no terminal needed) ------------------------


def run_play(*args: str) -> subprocess.CompletedProcess[str]:
    """``spades play`` with no terminal at all (own session, no tty on 0/1/2)."""
    code = "from referee.human.play import play_command; play_command(prog_name='spades play')"
    return subprocess.run([sys.executable, "-c", code, *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, cwd=ROOT, timeout=30, start_new_session=True)


def test_play_refuses_to_run_without_a_terminal() -> None:
    done = run_play("--seed", "1")
    assert done.returncode == 2
    assert "spades play needs a terminal" in done.stderr and "--input FILE --output FILE" in done.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seat", "4"], "must be 0-3 in the partnership game, got: 4"),
        (["--variant", "two-player", "--seat", "2"], "must be 0-1 in the two-player game, got: 2"),
        (["--bot", "a", "--bot", "b"], "exactly 3 (one per seat, clockwise from your left), got 2"),
        (["--bot", ""], "empty bot command, got: ''"),
        (["--target", "0"], "rule 'target' must be at least 1, got: 0"),
        (["--clock", "-1"], "must be positive, got: -1.0"),
    ],
)
def test_play_option_errors_quote_the_bad_value(args: list[str], message: str) -> None:
    done = run_play(*args)
    assert done.returncode == 2
    assert message in " ".join(done.stderr.split()), done.stderr


def test_bot_names_and_seat_commands() -> None:
    from referee.human.adapter import program_name as _bot_name
    from referee.human.play import _other_seats

    assert _bot_name(["python3", "bots/heuristic_bot.py"]) == "heuristic"
    assert _bot_name(["node", "bots/js/random_bot.js", "--level", "3"]) == "random"
    assert _bot_name(["python3", "-m", "mybot"]) == "mybot"
    assert _bot_name(["./mybot"]) == "mybot"
    assert _bot_name(["/usr/bin/python3.11", "bot.py"]) == "bot"
    assert _bot_name([sys.executable, "-u", "x/strong_bot.py"]) == "strong"
    assert _other_seats(("python3 a.py",), 3) == [["python3", "a.py"]] * 3
    assert _other_seats(("x", "y z", "'q r'"), 3) == [["x"], ["y", "z"], ["q r"]]
    from referee.seat.builtin import resolve
    default = _other_seats((), 1)
    assert default == [["builtin:heuristic"]]  # the bundled bot, wherever the package is installed
    assert resolve(default[0]) == [sys.executable, str(ROOT / "bots" / "heuristic_bot.py")]


def test_result_text_from_the_persons_side() -> None:
    from referee.game.outcomes import EndReason
    from referee.game.rules import Rules, Variant
    from referee.human.play import _result_text
    from referee.match import MatchRecord
    from referee.seat.faults import Fault, FaultKind

    record = MatchRecord(match="play-9", variant=Variant.PARTNERSHIP, seed=9, bots=["you", "a", "b", "c"], hands=[],
                         score=[120, 310], winner=1, reason=EndReason.FORFEIT,
                         faults=[Fault(2, FaultKind.CRASH, "exited", 3)], seconds=1.0, rules=Rules(), stats=[])
    text = _result_text(record, Variant.PARTNERSHIP, 2, "spades play --seed 9 --seat 2", Path("out"))
    assert text.splitlines() == [
        "Your side lost, 120 to 310 (forfeit).",
        "Your seat was faulted (crash): exited",
        "Replay these deals: spades play --seed 9 --seat 2",
        "Match record and logs: out",
    ]
    assert all(len(line) <= 80 for line in text.splitlines())


def test_human_partnership_config_seats_a_person_without_a_clock() -> None:
    from referee.tournament.config import load_config

    config = load_config(ROOT / "configs" / "human-partnership.yaml")
    human, heuristic = config.bots
    assert config.variant.value == "partnership" and config.concurrency == 1
    assert human.time is not None and human.time.move_ms is None, "the per-bot override removes the move clock"
    assert heuristic.time is None and config.bot_time(heuristic).move_ms == 1000
    assert list(human.command[:3]) == ["python3", "-m", "referee.human"]
    partner = human.command[human.command.index("--partner-bot") + 1]
    assert partner == "python3 bots/heuristic_bot.py"
    assert human.cwd == ROOT and (human.cwd / "bots" / "heuristic_bot.py").is_file()
