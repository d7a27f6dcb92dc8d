"""Answers that strain the referee's JSON reading are `malformed` on the exact seat, never a crash.

Each attack bot (tests/bots/attacks/bad_answers.py) plays plainly and sends
one bad answer to its first bid. The match must end with exactly one fault,
on that seat, of kind ``malformed`` (``unexpected`` for a line after the last
answer), and the transcript must hold only strict JSON: the bad line kept
whole as a quoted ``raw`` string, never embedded as it came.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BOTS, PY, ROOT
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat import protocol
from referee.seat.faults import FaultKind
from referee.seat.spec import SeatSpec
from referee.seat.strictjson import decode

ATTACKS = Path(__file__).resolve().parent.parent / "bots" / "attacks"
HEURISTIC = f"{PY} {BOTS / 'heuristic_bot.py'}"
BAD_SEAT = 1  # bids first: dealer 0, bidding starts at its left
RULES = Rules(max_hands=1, blind_nil=False)


def play(tmp_path: Path, mode: str) -> tuple[object, list[str]]:
    seats = [SeatSpec(f"s{i}", HEURISTIC) for i in range(4)]
    seats[BAD_SEAT] = SeatSpec("bad", [PY, str(ATTACKS / "bad_answers.py"), mode])
    record = run_match(MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=RULES, seed=4, match_id="m",
                                 logs=tmp_path / "logs", grace_s=0.5))
    raw = (tmp_path / "logs" / "m.jsonl").read_bytes()
    # Strict JSON on every line: no duplicate key, no raw U+2028, no control character, ASCII only.
    assert raw.isascii()
    lines = raw.decode().splitlines()
    for line in lines:
        decode(line)
    return record, lines


CASES = {
    "hugeint": "integer 777777777777...777777 (5000 digits) is out of range",
    "dupkey": 'key "bid" appears twice in one object',
    "u2028": "raw U+2028 (a line separator to JavaScript) at column",
    "control": "Invalid control character at",
    "surrogate": "holds a lone UTF-16 surrogate",
    "nan": "NaN is not JSON",
}


@pytest.mark.parametrize("mode", sorted(CASES))
def test_a_bad_answer_is_malformed_on_its_seat_and_quoted_in_the_transcript(tmp_path: Path, mode: str) -> None:
    record, lines = play(tmp_path, mode)
    assert [(f.seat, f.kind) for f in record.faults] == [(BAD_SEAT, FaultKind.MALFORMED)], record.faults
    detail = record.faults[0].detail
    assert detail.startswith("answer is not JSON (") and CASES[mode] in detail, detail
    assert record.reason is EndReason.FORFEIT and record.winner == 0  # the bad seat's side loses
    entries = [json.loads(line) for line in lines]
    ins = [e for e in entries if e.get("seat") == BAD_SEAT and e.get("dir") == "in"]
    bad = ins[-1]
    # Quoted whole, as a string: nothing of it reaches the file as it came.
    assert "msg" not in bad and '"bid"' in bad["raw"]
    if mode == "hugeint":
        assert "7" * 5000 in bad["raw"]
    if mode == "u2028":
        assert "\u2028" in bad["raw"]  # kept, escaped by the encoder
    # The good answers of the same seat are re-encoded objects.
    assert all(isinstance(e["msg"], dict) for e in ins[:-1]) and len(ins) >= 2


def test_a_line_after_the_last_answer_is_unexpected_and_the_result_stands(tmp_path: Path) -> None:
    record, lines = play(tmp_path, "extra-after-last")
    assert [(f.seat, f.kind) for f in record.faults] == [(BAD_SEAT, FaultKind.UNEXPECTED)], record.faults
    assert "one more thing" in record.faults[0].detail and "after its last answer" in record.faults[0].detail
    assert record.reason is EndReason.MAX_HANDS and len(record.hands) == 1
    assert any("note" in json.loads(line) and "one more thing" in json.loads(line)["note"] for line in lines)


def test_an_exception_while_reading_one_answer_is_that_seats_fault(tmp_path: Path, monkeypatch) -> None:
    """Any failure in the referee's handling of one bot's answer becomes a verdict, never a crash."""
    real = protocol.parse_answer

    def fragile(line: str, request_id: int, phase, parsed=None):  # type: ignore[no-untyped-def]
        if request_id == 3:  # the third request of the match: seat 3's bid
            raise ZeroDivisionError("an unforeseen case")
        return real(line, request_id, phase, parsed)

    monkeypatch.setattr(protocol, "parse_answer", fragile)
    seats = [SeatSpec(f"s{i}", HEURISTIC) for i in range(4)]
    record = run_match(MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=RULES, seed=4, match_id="m",
                                 grace_s=0.5))
    assert [(f.seat, f.kind) for f in record.faults] == [(3, FaultKind.MALFORMED)]
    assert "the referee could not read this answer (ZeroDivisionError: an unforeseen case)" in \
        record.faults[0].detail
    assert record.reason is EndReason.FORFEIT and record.winner == 0


def test_check_bot_gives_a_verdict_on_a_huge_integer(tmp_path: Path) -> None:
    """check-bot used to crash on the 5,000-digit integer; now it reports the fault."""
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "check-bot", "--quick", "--",
                           PY, str(ATTACKS / "bad_answers.py"), "hugeint"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and proc.returncode != 0, out
    assert "malformed" in out and "out of range" in out, out


def test_strict_json_limits_are_exact() -> None:
    from referee.seat.strictjson import MAX_INT, StrictJSONError

    assert decode(f'{{"id":{MAX_INT},"bid":-{MAX_INT}}}') == {"id": MAX_INT, "bid": -MAX_INT}
    for bad in (f'{{"bid":{MAX_INT + 1}}}', f'{{"bid":-{MAX_INT + 1}}}', '{"bid":1e999}', '{"bid":-Infinity}',
                '{"a":{"b":1,"b":2}}', '["\\udc00"]', '{"\\ud800":1}', '{"a":"\x1f"}', "\u2029{}"):
        with pytest.raises(StrictJSONError):
            decode(bad)
    # An escaped U+2028 is fine: only the raw character breaks lines in other readers.
    assert decode('{"note":"a\\u2028b"}') == {"note": "a\u2028b"}
    assert decode('"\\ud83d\\ude00"') == "\U0001F600"  # a surrogate pair is a real character
