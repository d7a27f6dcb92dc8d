"""One complete seat interface: every transport the code has behaves alike under misbehaviour.

The runner reaches seats only through :class:`referee.seat.transport.Transport`.
Here the same three misbehaviours go through each kind of transport (a bot
process, a tournament's cancellable wrapper, check-bot's recorder, and the
in-process scripted seat), under both fault policies, and must end in the
same verdict:

* **late**: the answer comes after the deadline, but before the seat's next
  request (the referee drops it as unasked output when it resynchronises);
* **stale**: the answer comes after the seat's next request was sent (the
  referee skips it by its id and reads the answer to the current request);
* **flood**: a thousand lines nobody asked for follow the answer.

Seat 1 misbehaves on its bid; seat 2 takes 250 ms over its own bid, which is
what puts the late answer before, and the stale one after, seat 1's next
request. Times: 300 ms a move plus a 300 ms bank, so seat 1's bid times out at
600 ms; late answers at 700 ms, stale ones at 900 ms.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import BOTS, HOSTILE, PY
from referee.cli.checkbot import Exchange, RecordingTransport, run_checks, scenarios
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.match import MatchRecord, MatchSpec, TransportFactory, bot_process, run_match
from referee.seat.botprocess import BotProcess
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultKind, FaultPolicy
from referee.seat.scripted import Reply, ScriptedTransport, VirtualClock, random_policy
from referee.seat.spec import SeatSpec
from referee.seat.transcript import Transcript
from referee.seat.transport import ForwardingTransport, Transport
from referee.tournament.executors.local import CancellableTransport, _CancelToken, cancellable_factory

RANDOM = [PY, str(BOTS / "random_bot.py")]
TIME = TimeControl(300, 300, 5000)
RULES = Rules(max_hands=1, blind_nil=False)
CASES = ["late", "stale", "flood"]
ANSWER_AT_S = {"late": 0.7, "stale": 0.9}  # when seat 1's bid answer comes
HOSTILE_FLAGS = {"late": ["--slow", "700", "--on", "bid"], "stale": ["--slow", "900", "--on", "bid"],
                 "flood": ["--flood", "1000", "--on", "bid"]}
KINDS = ["process", "tournament", "check-bot recorder", "scripted"]


def test_the_forwarding_base_covers_the_whole_interface() -> None:
    """A wrapper built on ForwardingTransport can never lack a method the runner calls."""
    interface = {name for name, value in vars(Transport).items() if callable(value) and not name.startswith("_")}
    assert interface >= {"start", "send", "send_lines", "try_send_lines", "request", "request_overlapped",
                         "read_line", "discard_pending", "check_unexpected", "close"}
    assert interface <= set(vars(ForwardingTransport)), interface - set(vars(ForwardingTransport))
    for cls in (BotProcess, ScriptedTransport, CancellableTransport, RecordingTransport):
        assert issubclass(cls, Transport)
        assert not getattr(cls, "__abstractmethods__", None), (cls, cls.__abstractmethods__)


def test_the_runner_probes_for_no_method_and_silences_no_type_check() -> None:
    source = (Path(__file__).resolve().parents[2] / "referee" / "match.py").read_text()
    assert "getattr(" not in source and "type: ignore" not in source and "hasattr(" not in source


def _scripted_factory(case: str, clock: VirtualClock) -> TransportFactory:
    """Scripted seats: seat 1 misbehaves on its bid as ``case`` says, seat 2 thinks 250 ms over its bid."""
    def override_1(req: dict[str, Any]) -> str | Reply | None:
        if req["type"] != "bid":
            return None
        answer = json.dumps({"id": req["id"], "bid": req["legal"][1]})
        if case == "flood":
            return Reply([answer] + ['{"note": "flood"}'] * 1000)
        return Reply([answer], after_s=ANSWER_AT_S[case])

    def override_2(req: dict[str, Any]) -> str | Reply | None:
        if req["type"] != "bid":
            return None
        return Reply([json.dumps({"id": req["id"], "bid": req["legal"][1]})], after_s=0.25)

    def make(seat: int, seat_spec: SeatSpec, transcript: Transcript) -> Transport:
        override = {1: override_1, 2: override_2}.get(seat)
        return ScriptedTransport(random_policy(random.Random(seat)), name=seat_spec.name, answer_override=override,
                                 clock=clock, transcript=transcript.for_seat(seat))
    return make


def play(kind: str, case: str, policy: FaultPolicy, tmp_path: Path, marker: str) -> tuple[MatchRecord, list[Exchange]]:
    env = {marker: "1", "BOT_SEED": "3"}
    seats = [SeatSpec("random", RANDOM, env=env) for _ in range(4)]
    seats[1] = SeatSpec("hostile", [PY, str(HOSTILE), *HOSTILE_FLAGS[case]], env=env)
    seats[2] = SeatSpec("thinker", [PY, str(HOSTILE), "--slow", "250", "--on", "bid"], env=env)
    spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=seats, rules=RULES, seed=5, match_id="m", time=TIME,
                     faults=policy, max_faults=3, logs=tmp_path / "logs", grace_s=0.3)
    log: list[Exchange] = []
    factory: TransportFactory | None
    if kind == "process":
        factory = None
    elif kind == "tournament":
        factory = cancellable_factory(spec, _CancelToken())
    elif kind == "check-bot recorder":
        def factory(seat: int, seat_spec: SeatSpec, transcript: Transcript) -> Transport:
            return RecordingTransport(bot_process(spec, seat, seat_spec, transcript), "case", log)
    else:
        factory = _scripted_factory(case, VirtualClock())
    return run_match(spec, transport_factory=factory), log


def match_ends_told(tmp_path: Path) -> dict[int, int]:
    """How many match_end events each seat was sent, from the transcript."""
    counts = {seat: 0 for seat in range(4)}
    for line in (tmp_path / "logs" / "m.jsonl").read_text().splitlines():
        entry = json.loads(line)
        msg = entry.get("msg")
        if entry.get("dir") == "out" and isinstance(msg, dict) and msg.get("type") == "match_end":
            counts[entry["seat"]] += 1
    return counts


@pytest.mark.parametrize("policy", list(FaultPolicy), ids=lambda p: p.value)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_transport_gives_the_same_verdict(kind: str, case: str, policy: FaultPolicy, tmp_path: Path,
                                                marker: str) -> None:
    record, log = play(kind, case, policy, tmp_path, marker)
    faults = [(f.seat, f.kind) for f in record.faults]
    assert all(seat == 1 for seat, _ in faults), faults  # nobody else is ever blamed
    if case == "flood":
        assert faults[0] == (1, FaultKind.UNEXPECTED), faults
        assert "no request outstanding" in record.faults[0].detail
        assert (record.reason, record.winner) == (EndReason.FORFEIT, 0)
    elif policy is FaultPolicy.FORFEIT:
        assert faults == [(1, FaultKind.TIMEOUT)]
        assert (record.reason, record.winner) == (EndReason.FORFEIT, 0)
    else:
        # One timeout: the referee bids for the seat, drops the late answer
        # (wherever it turns up) and the hand is played out to the end.
        assert faults == [(1, FaultKind.TIMEOUT)]
        assert record.reason is EndReason.MAX_HANDS and len(record.hands) == 1
        assert record.hands[0]["bids"][1] == 1  # the referee's substitute bid
        assert sum(record.hands[0]["tricks"]) == 13
    assert {s: n for s, n in match_ends_told(tmp_path).items() if s != 1} == {0: 1, 2: 1, 3: 1}
    if kind == "check-bot recorder":
        bids = [ex for ex in log if ex.request["type"] == "bid" and ex.request["state"]["seat"] == 1]
        assert bids, "the recorder saw seat 1's bid request"
        if case == "flood":
            assert bids[0].answer is not None and bids[0].elapsed_ms is not None
        else:
            assert bids[0].answer is None and bids[0].elapsed_ms is None  # timed out: no answer counted
        if case == "stale" and policy is FaultPolicy.SUBSTITUTE:
            # The request after the timeout: its entry holds the answer that counted, not the stale one.
            later = [ex for ex in log if ex.request.get("id", 0) > bids[0].request["id"]
                     and ex.request["state"]["seat"] == 1]
            assert later and json.loads(later[0].answer or "{}").get("id") == later[0].request["id"]


LATE_BOT = r"""
import json, sys
plays = 0
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    kind = msg["type"]
    if kind == "hello":
        out = {"name": "late"}
    elif kind == "play":
        plays += 1
        if plays == 3:
            import time; time.sleep(0.35)
        out = {"card": msg["legal"][0]}
    elif kind in ("bid",):
        out = {"bid": msg["legal"][-1] if msg["legal"][-1] <= 3 else 3}
    elif kind in ("blind_nil", "keep"):
        out = {kind: kind == "keep"}
    elif kind == "discard":
        out = {"cards": []}
    else:
        out = {"cards": msg["state"]["hand"][:msg["count"]]}
    out["id"] = msg["id"]
    print(json.dumps(out), flush=True)
"""


def test_check_bot_reports_a_late_answer_instead_of_crashing(tmp_path: Path) -> None:
    """``check-bot --move-ms 200`` with a bot answering its 3rd play 350 ms late: once an
    ``AttributeError`` (the recorder lacked ``read_line``), now one timeout, reported."""
    script = tmp_path / "late_bot.py"
    script.write_text(LATE_BOT)
    report = run_checks([PY, str(script)], move_ms=200, quick=True)
    # Each scenario starts the bot afresh, so each has its one late third play.
    titles = [sc.title for sc in scenarios(quick=True)]
    assert [title for title, _ in report.faults] == titles
    for _, fault in report.faults:
        assert fault.kind is FaultKind.TIMEOUT and "no answer within 200 ms" in fault.detail
        assert fault.request is not None and '"type":"play"' in fault.request
    assert not report.ok
    # Every scenario was played to its end: the bot kept answering after its late answer.
    assert len({ex.scenario for ex in report.exchanges}) == len(titles)
    assert sum(ex.request["type"] == "play" for ex in report.exchanges) > 50
