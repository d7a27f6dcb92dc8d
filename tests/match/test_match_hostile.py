"""Every hostile bot against the real referee: the verdict, the record, the bot's message, no leftovers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import BOTS, HOSTILE, PY
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.match import MatchRecord, MatchSpec, run_match
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultKind, FaultPolicy
from referee.seat.spec import SeatSpec

RANDOM = [PY, str(BOTS / "random_bot.py")]


def play(tmp_path: Path, marker: str, flags: list[str], variant=Variant.PARTNERSHIP, seat=1,
         time=TimeControl(400, 0, 5000), rules=Rules(max_hands=3), faults=FaultPolicy.FORFEIT, max_faults=3,
         seed=5):
    env = {marker: "1", "BOT_SEED": "3"}
    seats = [SeatSpec("random", RANDOM, env=env) for _ in range(variant.seats)]
    seats[seat] = SeatSpec("hostile", [PY, str(HOSTILE), *flags], env=env)
    spec = MatchSpec(variant=variant, seats=seats, rules=rules, seed=seed, match_id="m", time=time,
                     faults=faults, max_faults=max_faults, logs=tmp_path / "logs", grace_s=0.3)
    record = run_match(spec)
    # A match writes its logs and nothing else: storing the record is its caller's job.
    assert not (tmp_path / "matches.jsonl").exists() and (tmp_path / "logs" / "m.jsonl").is_file()
    assert MatchRecord.from_dict(json.loads(record.to_json())).to_dict() == record.to_dict()
    return record


def told(tmp_path: Path, seat: int, kind: str) -> list[dict]:
    """Messages of a type the referee sent to a seat, from the transcript."""
    out = []
    for line in (tmp_path / "logs" / "m.jsonl").read_text().splitlines():
        e = json.loads(line)
        if e.get("dir") == "out" and e["seat"] == seat and e["msg"].get("type") == kind:
            out.append(e["msg"])
    return out


CASES = [
    # flags, fault kind, words in the detail
    (["--hang"], FaultKind.TIMEOUT, "no answer within"),
    (["--slow", "900"], FaultKind.TIMEOUT, "no answer within"),
    (["--crash"], FaultKind.CRASH, "exited with code 3"),
    (["--garbage"], FaultKind.MALFORMED, "not JSON"),
    (["--array"], FaultKind.MALFORMED, "JSON object"),
    (["--wrong-id"], FaultKind.MALFORMED, "expected"),
    (["--missing-field"], FaultKind.MALFORMED, "has no"),
    (["--wrong-type"], FaultKind.MALFORMED, "must be"),
    (["--huge-line", "10"], FaultKind.OVERSIZE, "65536"),
    (["--unsolicited"], FaultKind.UNEXPECTED, ""),
    (["--not-held"], FaultKind.ILLEGAL, "you do not hold"),
    (["--renege"], FaultKind.ILLEGAL, "you must follow"),
    (["--lead-spade"], FaultKind.ILLEGAL, "spades are not broken"),
    (["--bid", "14"], FaultKind.ILLEGAL, "illegal bid 14"),
    (["--bid", "-1"], FaultKind.ILLEGAL, "illegal bid -1"),
    (["--bid", '"three"'], FaultKind.MALFORMED, '"bid" must be an integer'),
    (["--fork-child"], FaultKind.CRASH, "exited"),
]


@pytest.mark.parametrize("flags, kind, words", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_hostile_bot_forfeits_with_a_precise_fault(tmp_path, marker, flags, kind, words):
    record = play(tmp_path, marker, flags)
    assert record.reason is EndReason.FORFEIT
    assert record.winner == 0  # seat 1 plays for side 1
    assert len(record.faults) == 1
    fault = record.faults[0]
    assert (fault.seat, fault.kind) == (1, kind)
    assert words in fault.detail
    saved = record.to_dict()  # what the caller stores (play() checks that it round-trips)
    assert saved["faults"][0]["kind"] == kind.value and saved["faults"][0]["seat"] == 1
    assert saved["reason"] == "forfeit"
    # Every seat was told the match ended; the faulting bot was told why, if it could still listen.
    for seat in (0, 2, 3):
        assert told(tmp_path, seat, "match_end")[-1]["reason"] == "forfeit"
    if kind is not FaultKind.CRASH:  # a dead process cannot be told
        errors = told(tmp_path, 1, "error")
        assert errors and fault.detail in errors[0]["message"] and "forfeit" in errors[0]["message"]


def test_illegal_card_message_names_the_card_and_what_was_legal(tmp_path, marker):
    record = play(tmp_path, marker, ["--renege"])
    detail = record.faults[0].detail
    assert detail.startswith('illegal card "') and "; legal: [" in detail
    assert record.faults[0].request and '"type":"play"' in record.faults[0].request


def test_exit_during_hello_is_a_startup_fault(tmp_path, marker):
    record = play(tmp_path, marker, ["--exit-in-hello"])
    assert record.reason is EndReason.FORFEIT and record.winner == 0
    assert (record.faults[0].seat, record.faults[0].kind) == (1, FaultKind.STARTUP)
    assert record.hands == []


def test_a_command_that_cannot_start_is_a_startup_fault(tmp_path, marker):
    seats = [SeatSpec("random", RANDOM, env={marker: "1"}) for _ in range(2)]
    seats[0] = SeatSpec("ghost", ["/nonexistent/bot-binary"])
    record = run_match(MatchSpec(variant=Variant.TWO_PLAYER, seats=seats, logs=tmp_path / "logs", grace_s=0.2))
    assert (record.reason, record.winner) == (EndReason.FORFEIT, 1)
    assert record.faults[0].kind is FaultKind.STARTUP and "/nonexistent/bot-binary" in record.faults[0].detail


def test_stderr_flood_is_capped_and_the_match_goes_on(tmp_path, marker):
    record = play(tmp_path, marker, ["--flood-stderr", "100"], rules=Rules(max_hands=1),
                  time=TimeControl(1000, 10000, 20000))
    assert record.faults == [] and record.reason is EndReason.MAX_HANDS
    log = tmp_path / "logs" / "m.1.stderr"
    size = log.stat().st_size
    assert (1 << 20) <= size < (1 << 20) + 4096
    assert b"truncated" in log.read_bytes()[-200:]


def test_a_bot_ignoring_sigterm_is_killed_after_the_match(tmp_path, marker):
    record = play(tmp_path, marker, ["--ignore-sigterm"], rules=Rules(max_hands=1))
    assert record.faults == [] and record.reason is EndReason.MAX_HANDS
    # the `marker` fixture asserts that no process survived


def test_two_player_hostile_bot(tmp_path, marker):
    record = play(tmp_path, marker, ["--renege"], variant=Variant.TWO_PLAYER, seat=0, rules=Rules(max_hands=4))
    assert (record.reason, record.winner) == (EndReason.FORFEIT, 1)
    assert (record.faults[0].seat, record.faults[0].kind) == (0, FaultKind.ILLEGAL)


def test_substitute_policy_plays_for_the_bot_then_forfeits_after_max_faults(tmp_path, marker):
    record = play(tmp_path, marker, ["--not-held", "--on", "any"], faults=FaultPolicy.SUBSTITUTE, max_faults=3)
    assert [f.kind for f in record.faults] == [FaultKind.ILLEGAL] * 3
    assert record.reason is EndReason.FORFEIT and record.winner == 0
    errors = told(tmp_path, 1, "error")
    assert len(errors) == 3 and "forfeit" in errors[-1]["message"] and "forfeit" not in errors[0]["message"]


def test_substitute_policy_drops_a_late_answer_and_goes_on(tmp_path, marker):
    # The bid answer comes after the move time and the bank: one timeout; the
    # referee bids for the bot, drops the late answer when it arrives and
    # reads the bot's answer to the next request as usual.
    record = play(tmp_path, marker, ["--slow", "900", "--on", "bid"], faults=FaultPolicy.SUBSTITUTE,
                  max_faults=3, rules=Rules(max_hands=1, blind_nil=False), time=TimeControl(300, 300, 5000))
    assert [(f.seat, f.kind) for f in record.faults] == [(1, FaultKind.TIMEOUT)]
    assert record.reason is EndReason.MAX_HANDS
    assert record.hands[0]["bids"][1] == 1  # the referee's substitute bid


def test_substitute_late_answer_through_a_tournaments_transport(tmp_path, marker):
    # The same late answer, with the bot processes wrapped as a tournament wraps
    # them (cancellable): the runner reads past the stale answer through the wrapper.
    from referee.tournament.executors.local import _CancelToken, cancellable_factory

    env = {marker: "1", "BOT_SEED": "3"}
    seats = [SeatSpec("random", RANDOM, env=env) for _ in range(4)]
    seats[1] = SeatSpec("hostile", [PY, str(HOSTILE), "--slow", "900", "--on", "bid"], env=env)
    spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=Rules(max_hands=1, blind_nil=False), seed=5,
                     match_id="m", time=TimeControl(300, 300, 5000), faults=FaultPolicy.SUBSTITUTE, max_faults=3,
                     logs=tmp_path / "logs", grace_s=0.3)
    record = run_match(spec, transport_factory=cancellable_factory(spec, _CancelToken()))
    assert [(f.seat, f.kind) for f in record.faults] == [(1, FaultKind.TIMEOUT)]
    assert record.reason is EndReason.MAX_HANDS
    assert record.hands[0]["bids"][1] == 1


@pytest.mark.parametrize("flags, kind", [(["--unsolicited", "--on", "bid"], FaultKind.UNEXPECTED),
                                         (["--crash"], FaultKind.CRASH)])
def test_the_turns_decided_for_an_ended_seat_never_claim_a_crash_that_did_not_happen(tmp_path, marker, flags, kind):
    """Under substitute, each later turn of a seat a fault ended is counted with that fault's kind."""
    record = play(tmp_path, marker, flags, faults=FaultPolicy.SUBSTITUTE, max_faults=3)
    assert [f.kind for f in record.faults] == [kind] * 3 and record.reason is EndReason.FORFEIT
    assert all(f.detail == kind.stand_in for f in record.faults[1:])
    if kind is FaultKind.UNEXPECTED:
        assert "stopped reading this bot" in record.faults[1].detail
        assert not any("no longer running" in f.detail or "exited" in f.describe(record.bots)
                       for f in record.faults)
