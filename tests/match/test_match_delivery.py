"""How the match runner delivers lines: batched per seat, overlapped with the bot to act.

A transport may implement ``send_lines``, ``try_send_lines`` and
``request_overlapped`` itself (a bot process does) or inherit the defaults of
:class:`referee.seat.transport.Transport`. Either way every seat must receive
exactly the same lines in the same order as through plain ``send``/``request``;
these tests play whole matches both ways with deterministic in-process seats
and compare.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat.faults import BotFault, FaultKind
from referee.seat.protocol import answer_field
from referee.seat.spec import SeatSpec
from referee.seat.transport import Transport

RANDOM = Path(__file__).resolve().parents[2] / "bots" / "random_bot.py"


def decide(req: dict[str, Any]) -> Any:
    """A deterministic policy; seat 0 always goes Blind Nil, so exchanges happen."""
    kind, state = req["type"], req.get("state", {})
    if kind == "blind_nil":
        return state.get("seat") == 0
    if kind == "keep":
        return True
    if kind == "discard":
        return state["hand"][: req["max"]]
    if kind == "pass":
        return state["hand"][: req["count"]]
    return req["legal"][0]


class Log:
    """Everything every seat was sent, in order, with how many answers had been read by then."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, int, list[str], int]] = []  # (how, seat, lines, answers so far)
        self.answers = 0


class PlainSeat(Transport):
    """Only the abstract methods of the transport interface; the defaults do the rest."""

    def __init__(self, seat: int, log: Log):
        self.seat, self.log = seat, log
        self.stream: list[str] = []

    def start(self) -> None:
        pass

    def send(self, line: str) -> None:
        self.stream.append(line)
        self.log.entries.append(("send", self.seat, [line], self.log.answers))

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        return self._answer(line, None)

    def _answer(self, line: str, meanwhile: Callable[[], None] | None) -> tuple[str, float]:
        self.stream.append(line)
        self.log.entries.append(("request", self.seat, [line], self.log.answers))
        if meanwhile is not None:
            meanwhile()
        req = json.loads(line)
        self.log.answers += 1
        if req["type"] == "hello":
            return json.dumps({"id": 0, "name": f"s{self.seat}"}), 0.0
        return json.dumps({"id": req["id"], answer_field(req["type"]): decide(req)}), 0.0


class RichSeat(PlainSeat):
    """Its own batched and overlapped methods; ``refuse`` makes each non-waiting write report a full pipe."""

    def __init__(self, seat: int, log: Log, refuse: bool = False):
        super().__init__(seat, log)
        self.refuse = refuse

    def send_lines(self, lines: Sequence[str]) -> None:
        self.stream.extend(lines)
        self.log.entries.append(("batch", self.seat, list(lines), self.log.answers))

    def try_send_lines(self, lines: Sequence[str]) -> bool:
        if self.refuse:
            return False
        self.stream.extend(lines)
        self.log.entries.append(("try", self.seat, list(lines), self.log.answers))
        return True

    def request_overlapped(self, line: str, timeout_s: float,
                           meanwhile: Callable[[], None] | None) -> tuple[str, float]:
        return self._answer(line, meanwhile)


def play(variant: Variant, make: Callable[[int, Log], PlainSeat], seed: int) -> tuple[list[PlainSeat], Log]:
    log = Log()
    seats: list[PlainSeat] = []

    def factory(i: int, spec: SeatSpec, transcript: Any) -> PlainSeat:
        seats.append(make(i, log))
        return seats[-1]

    spec = MatchSpec(variant=variant, seats=[SeatSpec(f"s{i}", "internal") for i in range(variant.seats)],
                     rules=Rules(target=300), seed=seed)
    record = run_match(spec, transport_factory=factory)
    assert not record.faults and record.reason.value in ("target", "max_hands", "mercy")
    return seats, log


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("seed", [1, 2])
def test_batched_and_overlapped_delivery_sends_every_seat_the_same_lines(variant: Variant, seed: int) -> None:
    plain, _ = play(variant, PlainSeat, seed)
    rich, log = play(variant, RichSeat, seed)
    for a, b in zip(plain, rich):
        assert a.stream == b.stream
    events = [e for e in log.entries if e[0] != "request"]
    # One write per seat per step: never two writes of events to a seat between two answers...
    per_step = Counter((seat, answers) for _, seat, _, answers in events)
    assert max(per_step.values()) == 1
    # ...and steps with several events (tricks, hand ends) really were batched.
    assert any(len(lines) > 1 for _, _, lines, _ in events)
    assert sum(len(lines) for _, _, lines, _ in events) > len(events)
    # The seat to act gets its events before its request; the others get theirs while it thinks.
    steps: dict[int, list[tuple[str, int, list[str], int]]] = {}
    for entry in log.entries:
        steps.setdefault(entry[3], []).append(entry)
    for answers, entries in steps.items():
        requests = [i for i, e in enumerate(entries) if e[0] == "request"]
        if answers < variant.seats or not requests:
            continue  # the hellos, or the final step (match_end only)
        assert len(requests) == 1
        i = requests[0]
        seat = entries[i][1]
        assert all(e[1] == seat for e in entries[:i]), entries
        assert all(e[1] != seat and e[0] == "try" for e in entries[i + 1:]), entries


def test_a_full_pipe_defers_a_seat_s_lines_until_the_answer_is_read() -> None:
    plain, _ = play(Variant.PARTNERSHIP, PlainSeat, 3)
    # Seat 2's pipe is always "full": its lines go after each answer, with a waiting write.
    rich, log = play(Variant.PARTNERSHIP, lambda i, lg: RichSeat(i, lg, refuse=(i == 2)), 3)
    for a, b in zip(plain, rich):
        assert a.stream == b.stream
    assert not any(how == "try" and seat == 2 for how, seat, _, _ in log.entries)
    # Seat 2's lines of a step where another seat acts come right after that seat's answer.
    deferred = 0
    for i, (how, seat, _, answers) in enumerate(log.entries[:-1]):
        if how == "request" and seat != 2 and answers >= 4:
            nxt = log.entries[i + 1]
            if nxt[1] == 2:
                assert nxt[0] in ("batch", "send") and nxt[3] == answers + 1, nxt
                deferred += 1
    assert deferred > 100


class DyingSeat(RichSeat):
    """A bot that exits after its ``answers``-th answer: every later write to it fails."""

    def __init__(self, seat: int, log: Log, answers: int):
        super().__init__(seat, log)
        self.limit, self.given = answers, 0

    def _check(self) -> None:
        if self.given >= self.limit:
            raise BotFault(FaultKind.CRASH, "exited with code 0")

    def send(self, line: str) -> None:
        self._check()
        super().send(line)

    def send_lines(self, lines: Sequence[str]) -> None:
        self._check()
        super().send_lines(lines)

    def try_send_lines(self, lines: Sequence[str]) -> bool:
        self._check()
        return super().try_send_lines(lines)

    def _answer(self, line: str, meanwhile: Callable[[], None] | None) -> tuple[str, float]:
        self._check()
        self.given += 1
        return super()._answer(line, meanwhile)


@pytest.mark.parametrize("answers", range(3, 9))
def test_a_bot_dying_between_answers_ends_the_match_once(answers: int) -> None:
    """Whether the dead bot's write fails while the others are told (overlapped) or
    as the next to act, it faults once and everybody else gets exactly one match_end."""
    seats: list[PlainSeat] = []
    log = Log()

    def factory(i: int, spec: SeatSpec, transcript: Any) -> PlainSeat:
        seats.append(DyingSeat(i, log, answers) if i == 1 else RichSeat(i, log))
        return seats[-1]

    spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=[SeatSpec(f"s{i}", "internal") for i in range(4)],
                     rules=Rules(target=300), seed=5)
    record = run_match(spec, transport_factory=factory)
    assert record.reason.value == "forfeit" and record.winner == 0
    assert [(f.seat, f.kind) for f in record.faults] == [(1, FaultKind.CRASH)]
    for seat in seats:
        ends = [line for line in seat.stream if '"match_end"' in line]
        assert len(ends) == (0 if seat.seat == 1 else 1), (seat.seat, ends)
        assert seat.stream[-1] == ends[-1] if ends else True


# Answers hello, then every request with an object nested far too deep to decode.
DEEP_BOT = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["type"] == "hello":
        print(json.dumps({"id": 0, "name": "deep"}), flush=True)
    else:
        print('{"id": %d, "card": %s%s}' % (msg["id"], "[" * 30000, "]" * 30000), flush=True)
"""


def test_a_deeply_nested_answer_is_a_malformed_fault_and_is_transcribed_raw(tmp_path: Path) -> None:
    seats = [SeatSpec("deep", [sys.executable, "-c", DEEP_BOT]), SeatSpec("random", [sys.executable, str(RANDOM)])]
    spec = MatchSpec(variant=Variant.TWO_PLAYER, seats=seats, rules=Rules(target=100), seed=1, match_id="deep",
                     logs=tmp_path / "logs")
    record = run_match(spec)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, FaultKind.MALFORMED)]
    assert record.reason.value == "forfeit" and record.winner == 1
    entries = [json.loads(line) for line in (tmp_path / "logs" / "deep.jsonl").read_text().splitlines()]
    raw = [e for e in entries if e.get("dir") == "in" and "raw" in e]
    assert len(raw) == 1 and raw[0]["seat"] == 0 and raw[0]["raw"].startswith('{"id": ')
