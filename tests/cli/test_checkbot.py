"""`spades check-bot`: bundled bots pass; each hostile bot fails with a precise reason."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from conftest import BOTS, HOSTILE, PY
from referee.cli.checkbot import REQUEST_TYPES, SITUATIONS, run_checks
from referee.cli.checkreport import OWN_BLIND_NIL
from referee.cli.main import cli

BUNDLED = {
    "random_bot.py": [PY, str(BOTS / "random_bot.py")],
    "heuristic_bot.py": [PY, str(BOTS / "heuristic_bot.py")],
    "js/random_bot.js": ["node", str(BOTS / "js" / "random_bot.js")],
    "js/heuristic_bot.js": ["node", str(BOTS / "js" / "heuristic_bot.js")],
}


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_bots_are_compliant(name):
    report = run_checks(BUNDLED[name], quick=True)
    assert report.ok, [f"{f.kind.value}: {f.detail}" for _, f in report.faults] + [e.request["type"] for e in report.slow]
    coverage = report.coverage()
    for kind in REQUEST_TYPES:
        if kind in OWN_BLIND_NIL:  # only reached when the bot itself bids Blind Nil
            continue
        if kind == "pass" and "random" in name and coverage[kind] == 0:
            # A random bot that bids Blind Nil beside its Blind Nil partner
            # exchanges nothing; excused only when that is what happened.
            assert _bid_blind_nil_beside_partner(report), "pass: never asked, yet the bot did not bid Blind Nil"
            continue
        assert coverage[kind] > 0, kind
    met = report.situations()
    for situation in SITUATIONS:
        if situation in OWN_BLIND_NIL:
            continue
        # A random bot may itself bid Blind Nil beside its Blind Nil partner,
        # and then no cards are exchanged; every other situation is forced.
        if "random" in name and ("Blind Nil partner" in situation or "exchange" in situation):
            continue
        assert met[situation] > 0, situation


def _bid_blind_nil_beside_partner(report) -> bool:
    """Whether the bot answered true to blind_nil in the partner's Blind Nil scenario."""
    return any(ex.scenario == "partnership: your partner bids Blind Nil" and ex.request["type"] == "blind_nil"
               and ex.answer is not None and json.loads(ex.answer).get("blind_nil") is True
               for ex in report.exchanges)


def test_the_c_bot_is_compliant(tmp_path):
    if not shutil.which("make") or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no make or C compiler on this machine")
    out = tmp_path / "simple_bot"
    subprocess.run(["make", "-s", "-C", str(BOTS / "c"), f"OUT={out}"], check=True)
    report = run_checks([str(out)], quick=True)
    assert report.ok, [f.detail for _, f in report.faults]


def test_strong_bot_is_compliant():
    report = run_checks([PY, str(BOTS / "strong_bot.py"), "--budget", "30ms"], quick=True)
    assert report.ok, [f.detail for _, f in report.faults]


HOSTILE_CASES = [
    (["--garbage"], "malformed", "not JSON"),
    (["--renege"], "illegal", "you must follow"),
    (["--lead-spade"], "illegal", "spades are not broken"),
    (["--bid", "14"], "illegal", "illegal bid 14"),
    (["--not-held"], "illegal", "you do not hold"),
    (["--wrong-id"], "malformed", "expected"),
    (["--crash"], "crash", "exited with code 3"),
]


@pytest.mark.parametrize("flags, kind, words", HOSTILE_CASES, ids=[" ".join(c[0]) for c in HOSTILE_CASES])
def test_hostile_bots_fail_with_the_reason_and_the_request(flags, kind, words):
    report = run_checks([PY, str(HOSTILE), *flags], quick=True, move_ms=500)
    assert not report.ok
    first = report.faults[0][1]
    assert first.kind.value == kind and words in first.detail
    if kind != "crash":
        assert first.request and first.request.startswith('{"type":')


def test_slow_answers_are_reported_and_fail_the_check():
    report = run_checks([PY, str(HOSTILE), "--slow", "150", "--on", "bid"], quick=True, move_ms=1000, slow_ms=100)
    assert report.faults == [] and report.slow
    assert "bid" in {ex.request["type"] for ex in report.slow}
    assert all(ex.request["type"] != "hello" for ex in report.slow)
    assert not report.ok


def test_cli_exit_status_and_report():
    runner = CliRunner()
    good = runner.invoke(cli, ["check-bot", "--quick", "--", PY, str(BOTS / "random_bot.py")])
    assert good.exit_code == 0, good.output
    assert "COMPLIANT" in good.output and "Requests answered" in good.output
    bad = runner.invoke(cli, ["check-bot", "--quick", "--", PY, str(HOSTILE), "--renege"])
    assert bad.exit_code == 1
    assert "NOT COMPLIANT" in bad.output and "illegal: illegal card" in bad.output and "in answer to:" in bad.output


def test_a_hanging_bot_is_reported_quickly():
    import time
    t0 = time.perf_counter()
    report = run_checks([PY, str(HOSTILE), "--hang"], quick=True, move_ms=200)
    assert not report.ok and report.faults[0][1].kind.value == "timeout"
    assert time.perf_counter() - t0 < 30
