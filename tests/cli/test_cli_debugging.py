"""`spades match` for debugging one bot: live stderr, the end of a crashed bot's stderr, replaying a hand."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from conftest import HOSTILE, PY
from referee.cli.main import cli

MISTAKES = Path(__file__).resolve().parent.parent / "bots" / "mistakes_bot.py"


def spades(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def test_live_stderr_shows_each_line_prefixed_by_its_seat():
    out = spades("match", "--bot", "builtin:random", "--bot", f"{PY} {HOSTILE} --slow 1 --seat-only 3",
                 "--rule", "max_hands=1", "--live-stderr")
    lines = [line for line in out.splitlines() if line.startswith("[seat ")]
    assert lines and all(line.startswith("[seat 3 hostile_bot] hostile_bot seat=3") for line in lines), lines
    assert not any(line.startswith("[seat 1") for line in lines)  # seat 1 runs the same program, silently
    kept = re.search(r"The bots' stderr and the transcript are kept in (\S+)", out)
    assert kept, "a bot wrote to stderr: its log is kept"
    shutil.rmtree(kept.group(1))


def test_a_crash_shows_the_end_of_its_stderr_and_where_the_logs_are_kept():
    out = spades("match", "--bot", "builtin:heuristic", "--bot", f"{PY} {MISTAKES} traceback", "--rule", "max_hands=1")
    assert "Fault: seat 1 (mistakes_bot) exited or closed its output in hand 1: exited with code 1" in out
    head = re.search(r"Last (\d+) lines of seat 1 \(mistakes_bot\)'s stderr \((.+)\):", out)
    assert head, out
    tail = [line[4:] for line in out.splitlines() if line.startswith("  | ")]
    assert len(tail) == int(head.group(1)) <= 20
    assert tail[0] == "Traceback (most recent call last):" and tail[-1] == "KeyError: 'no_such_field'"
    kept = re.search(r"The bots' stderr and the transcript are kept in (\S+)", out)
    assert kept and Path(head.group(2)).parent == Path(kept.group(1))
    assert "KeyError" in Path(head.group(2)).read_text()
    shutil.rmtree(kept.group(1))


def test_quiet_prints_the_result_line_alone_and_keeps_nothing():
    out = spades("match", "-q", "--bot", "builtin:heuristic", "--bot", f"{PY} {MISTAKES} traceback",
                 "--rule", "max_hands=1")
    assert out.strip().splitlines() == ["side 0 wins by forfeit (0 to 0)"]


def test_start_at_hand_k_replays_that_hand_with_the_scores_and_bags_of_that_moment(tmp_path):
    bots = ["--bot", "builtin:heuristic", "--bot", "builtin:heuristic"]
    spades("match", "--seed", "3", *bots, "--rule", "max_hands=4", "--output", str(tmp_path), "-q")
    original = json.loads((tmp_path / "matches.jsonl").read_text())
    out = spades("match", "--seed", "3", *bots, "--start-hand", "3", "--from-record",
                 str(tmp_path / "matches.jsonl"), "--rule", "max_hands=3", "--json")
    replay = json.loads(out)
    assert [h["hand"] for h in replay["hands"]] == [3]
    assert replay["hands"][0] == original["hands"][2]  # same dealer, deal, bids, tricks and totals
    # By hand: the same start without the record.
    before = original["hands"][1]
    out = spades("match", "--seed", "3", *bots, "--start-hand", "3", "--rule", "max_hands=3", "--json",
                 "--start-score", ",".join(map(str, before["score"])), "--start-bags", ",".join(map(str, before["bags"])))
    assert json.loads(out)["hands"] == replay["hands"]


def test_a_tournament_hand_replays_on_the_tournament_s_secret_deal(tmp_path):
    """A tournament deals from the seed and its folder's secret: --from-record takes the secret too."""
    config = tmp_path / "t.yaml"
    config.write_text("name: t\nvariant: two-player\nseed: 11\nmatches_per_pairing: 1\nduplicate: false\n"
                      "rules: {max_hands: 3, target: 100000}\noutput: out\nbots:\n"
                      "  - {name: a, command: 'builtin:heuristic'}\n  - {name: b, command: 'builtin:heuristic'}\n")
    result = CliRunner().invoke(cli, ["run", str(config), "-q", "--no-report"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = tmp_path / "out" / "matches.jsonl"
    original = json.loads(records.read_text())
    assert original["deals"] == "secret"
    out = spades("match", "--seed", str(original["seed"]), "--match-id", original["match"], "--variant", "two-player",
                 "--bot", "builtin:heuristic", "--bot", "builtin:heuristic", "--start-hand", "2",
                 "--from-record", str(records), "--rule", "max_hands=2", "--rule", "target=100000", "--json")
    assert json.loads(out)["hands"][0] == original["hands"][1]  # the same cards, so the same bids and tricks


def test_a_deal_file_gives_the_first_hand(tmp_path):
    deal = tmp_path / "deal.yaml"
    suits = {0: "C", 1: "S", 2: "D", 3: "H"}
    deal.write_text("hands:\n" + "".join(f"  {s}: [{', '.join(r + x for r in '23456789TJQKA')}]\n"
                                         for s, x in suits.items()))
    spades("match", "--seed", "1", "--bot", "builtin:heuristic", "--bot", "builtin:heuristic", "--deal", str(deal),
           "--start-hand", "2", "--rule", "max_hands=2", "--output", str(tmp_path / "out"), "-q")
    record = json.loads((tmp_path / "out" / "matches.jsonl").read_text())
    assert record["hands"][0]["hand"] == 2 and record["hands"][0]["tricks"][1] == 13  # seat 1 held every spade
    assert record["match"].endswith("-from-hand2") and "seed" not in record["match"]  # the id tells no seed
    shown = [json.loads(line)["msg"] for line in (tmp_path / "out" / "logs" / f"{record['match']}.jsonl").open()
             if '"seat":1,"dir":"out"' in line and '"type":"hand"' in line]
    assert shown[0]["cards"] == [r + "S" for r in "23456789TJQKA"]


def test_bad_replay_options_say_what_is_wrong(tmp_path):
    bots = ["--bot", "builtin:heuristic", "--bot", "builtin:heuristic"]
    out = spades("match", *bots, "--start-hand", "2", "--start-bags", "1", code=2)
    assert "--start-bags" in out and "got: '1'" in out
    bad = tmp_path / "deal.yaml"
    bad.write_text("cards: [AS, AS]\n")
    out = spades("match", *bots, "--deal", str(bad), code=2)
    assert "a deal is an order of all 52 cards" in out
    bad.write_text("hands: {0: [AX], 1: [], 2: [], 3: []}\n")
    out = spades("match", *bots, "--deal", str(bad), code=2)
    assert "hands.0" in out and "AX" in out
    bad.write_text("hands: {0: [AS]}\n")
    out = spades("match", *bots, "--deal", str(bad), code=2)
    assert "one list of 13 cards for each seat 0-3" in out


def test_match_faults_get_the_hint_for_a_classic_mistake():
    out = spades("match", "--bot", "builtin:heuristic", "--bot", f"{PY} {MISTAKES} lowercase", "--rule", "max_hands=1")
    assert 'Fault: seat 1 (mistakes_bot) sent a malformed answer in hand 1: "card" is not a card name' in out
    assert out.count('Hint for seat 1 (mistakes_bot): cards are rank then suit in upper case, e.g. "7C"') == 1
    kept = re.search(r"kept in (\S+)", out)
    assert kept
    shutil.rmtree(kept.group(1))


def test_a_bot_s_stderr_reaches_the_terminal_with_its_control_characters_escaped(tmp_path):
    from referee.cli.checkreport import stderr_tail

    log = tmp_path / "seat1.stderr"
    log.write_bytes(b"plain line\n\x1b[2J\x1b[Hreferee: seat 0 crashed\x07\n")
    assert stderr_tail(log) == ["plain line", "\\x1b[2J\\x1b[Hreferee: seat 0 crashed\\x07"]
