"""The hostile test bot: legal by default, each misbehaviour exactly when asked.

The lead's match-level tests rely on these behaviours, so they are pinned
here against the real script, driven through :class:`BotProcess`.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from referee.seat.botprocess import BotProcess
from referee.seat.faults import BotFault, FaultKind

HOSTILE = Path(__file__).resolve().parents[1] / "bots" / "hostile_bot.py"


def load_hostile() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hostile_bot", HOSTILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hb = load_hostile()


def hello(seat: int = 0, variant: str = "two-player") -> dict[str, Any]:
    names = ["a", "b"] if variant == "two-player" else ["a", "b", "c", "d"]
    return {"type": "hello", "id": 0, "protocol": 1, "match": "m1", "variant": variant,
            "seat": seat, "names": names, "rules": {}, "time": {"move_ms": 1000, "bank_ms": 0}}


def state(hand: list[str], hand_no: int = 1, trick: list[list[Any]] | None = None,
          broken: bool = False, played: list[list[Any]] | None = None) -> dict[str, Any]:
    return {"hand_no": hand_no, "seat": 0, "phase": "play", "hand": hand, "trick": trick or [],
            "spades_broken": broken, "played": played or [], "bids": [3, 4], "blind": [False, False],
            "tricks": [0, 0], "leader": 0, "score": [0, 0], "bags": [0, 0],
            "time": {"move_ms": 1000, "bank_ms": 0}}


def req(kind: str, rid: int, st: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "id": rid, "state": st, **extra}


class Driver:
    """A hostile bot under test, with JSON in and out."""

    def __init__(self, bot: BotProcess, log: Path) -> None:
        self.bot, self.log = bot, log

    def ask(self, msg: dict[str, Any], timeout: float = 10.0) -> Any:
        line, _ = self.bot.request(json.dumps(msg), timeout)
        return json.loads(line)

    def raw(self, msg: dict[str, Any], timeout: float = 10.0) -> str:
        return self.bot.request(json.dumps(msg), timeout)[0]

    def event(self, msg: dict[str, Any]) -> None:
        self.bot.send(json.dumps(msg))

    def stderr(self) -> str:
        self.bot.close(grace_s=0.5, term_s=0.5)
        return self.log.read_text()


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Any]:
    bots: list[BotProcess] = []

    def start(*flags: str) -> Driver:
        log = tmp_path / f"hostile{len(bots)}.log"
        bot = BotProcess([sys.executable, str(HOSTILE), *flags], name="hostile", stderr_path=log)
        bots.append(bot)
        bot.start()
        return Driver(bot, log)

    yield start
    for bot in bots:
        bot.close(grace_s=0.5, term_s=0.5)


PLAY_HAND = ["2C", "9C", "4H", "AS"]


def play_req(rid: int, hand_no: int = 1, **kw: Any) -> dict[str, Any]:
    st = state(PLAY_HAND, hand_no=hand_no, **kw)
    return req("play", rid, st, legal=["2C", "9C", "4H"])


# ------------------------------------------------------------------ legal by default


def test_legal_answers_in_two_player(run: Any) -> None:
    d = run()
    assert d.ask(hello()) == {"id": 0, "name": "hostile"}
    d.event({"type": "hand_start", "hand": 1, "first": 0, "score": [0, 0], "bags": [0, 0]})
    assert d.ask(req("blind_nil", 1, state([]))) == {"id": 1, "blind_nil": False}
    assert d.ask(req("keep", 2, state([]), card="AS")) == {"id": 2, "keep": True}
    assert d.ask(req("discard", 3, state(PLAY_HAND), max=3)) == {"id": 3, "cards": []}
    assert d.ask(req("bid", 4, state(PLAY_HAND), legal=[0, 1, 2])) == {"id": 4, "bid": 1}
    assert d.ask(req("bid", 5, state(PLAY_HAND), legal=[0])) == {"id": 5, "bid": 0}
    assert d.ask(play_req(6)) == {"id": 6, "card": "2C"}
    d.event({"type": "match_end", "score": [500, 0], "winner": 0, "reason": "target"})
    assert d.bot.close() == 0


def test_legal_answers_in_partnership(run: Any) -> None:
    d = run("--name", "Partner")
    assert d.ask(hello(seat=2, variant="partnership")) == {"id": 0, "name": "Partner"}
    assert d.ask(req("pass", 1, state(PLAY_HAND), count=3, to=0)) == {"id": 1, "cards": ["2C", "9C", "4H"]}
    assert d.ask(play_req(2)) == {"id": 2, "card": "2C"}


# ------------------------------------------------------------------ process faults


def test_crash_exits_3_at_the_first_play(run: Any) -> None:
    d = run("--crash")
    d.ask(hello())
    assert d.ask(req("bid", 1, state(PLAY_HAND), legal=[1, 2]))["bid"] == 1
    with pytest.raises(BotFault) as info:
        d.ask(play_req(2))
    assert (info.value.kind, str(info.value)) == (FaultKind.CRASH, "exited with code 3")
    assert "--crash: exiting with code 3 at play request id 2" in d.stderr()


def test_at_hand_delays_and_seat_only_restricts(run: Any) -> None:
    d = run("--crash", "--at-hand", "2")
    d.ask(hello())
    assert d.ask(play_req(1, hand_no=1))["card"] == "2C"
    with pytest.raises(BotFault) as info:
        d.ask(play_req(2, hand_no=2))
    assert info.value.kind is FaultKind.CRASH

    innocent = run("--crash", "--seat-only", "1")
    innocent.ask(hello(seat=0))
    assert innocent.ask(play_req(1))["card"] == "2C"
    guilty = run("--crash", "--seat-only", "1")
    guilty.ask(hello(seat=1))
    with pytest.raises(BotFault):
        guilty.ask(play_req(1))


def test_hang_and_slow(run: Any) -> None:
    d = run("--hang")
    d.ask(hello())
    with pytest.raises(BotFault) as info:
        d.ask(play_req(1), timeout=0.2)
    assert info.value.kind is FaultKind.TIMEOUT

    s = run("--slow", "150")
    s.ask(hello())
    _, quick = s.bot.request(json.dumps(req("bid", 1, state(PLAY_HAND), legal=[1])), 10.0)
    t0 = time.perf_counter()
    assert s.ask(play_req(2))["card"] == "2C"
    assert time.perf_counter() - t0 >= 0.15
    assert quick < 0.15  # only play requests are slowed
    assert "--slow: sleeping 150 ms before answering play id 2" in s.stderr()


def test_exit_in_hello(run: Any) -> None:
    d = run("--exit-in-hello")
    with pytest.raises(BotFault) as info:
        d.ask(hello())
    assert (info.value.kind, str(info.value)) == (FaultKind.CRASH, "exited with code 0")


def test_ignore_sigterm_keeps_running_after_stdin_closes(run: Any) -> None:
    d = run("--ignore-sigterm")
    d.ask(hello())
    assert d.bot.close(grace_s=0.2, term_s=0.2) == -9
    assert "--ignore-sigterm: stdin closed; ignoring it and SIGTERM, sleeping" in d.log.read_text()


# ------------------------------------------------------------------ malformed answers


def test_answer_shape_flags_act_on_the_first_decision(run: Any) -> None:
    expectations = {
        "--garbage": "this is not JSON {",
        "--array": '[1, false]',
        "--wrong-id": '{"id": 1001, "blind_nil": false}',
        "--missing-field": '{"id": 1}',
        "--wrong-type": '{"id": 1, "blind_nil": "yes"}',
    }
    for flag, expected in expectations.items():
        d = run(flag)
        assert d.ask(hello()) == {"id": 0, "name": "hostile"}, flag
        assert d.raw(req("blind_nil", 1, state([]))) == expected, flag


def test_wrong_type_per_request_type(run: Any) -> None:
    d = run("--wrong-type", "--on", "play")
    d.ask(hello())
    assert d.ask(req("bid", 1, state(PLAY_HAND), legal=[1]))["bid"] == 1
    assert d.ask(play_req(2)) == {"id": 2, "card": 51}
    b = run("--wrong-type", "--on", "bid")
    b.ask(hello())
    assert b.ask(req("bid", 1, state(PLAY_HAND), legal=[3, 4])) == {"id": 1, "bid": "3"}
    p = run("--wrong-type", "--on", "pass")
    p.ask(hello(variant="partnership"))
    assert p.ask(req("pass", 1, state(PLAY_HAND), count=3, to=0)) == {"id": 1, "cards": "2C,9C,4H"}
    h = run("--garbage", "--on", "hello")
    assert h.raw(hello()) == "this is not JSON {"


def test_huge_line(run: Any) -> None:
    d = run("--huge-line", "0.5")
    d.ask(hello())
    with pytest.raises(BotFault) as info:
        d.ask(play_req(1))
    assert info.value.kind is FaultKind.OVERSIZE
    big = BotProcess([sys.executable, str(HOSTILE), "--huge-line", "0.5"], name="big",
                     max_line=1 << 20)
    with big:
        big.start()
        big.request(json.dumps(hello()), 10.0)
        line, _ = big.request(json.dumps(play_req(1)), 10.0)
    assert len(line) == (1 << 19) - 1
    assert json.loads(line)["id"] == 1


def test_unsolicited_after_hello_or_in_a_later_hand(run: Any) -> None:
    d = run("--unsolicited")
    d.ask(hello())
    with pytest.raises(BotFault) as info:
        d.bot.check_unexpected()
    assert info.value.kind is FaultKind.UNEXPECTED

    later = run("--unsolicited", "--at-hand", "2")
    later.ask(hello())
    later.ask(play_req(1, hand_no=1))
    later.bot.check_unexpected()
    later.ask(play_req(2, hand_no=2))
    with pytest.raises(BotFault):
        later.bot.check_unexpected()


# ------------------------------------------------------------------ illegal decisions


def test_not_held_renege_lead_spade_and_bid(run: Any) -> None:
    d = run("--not-held")
    d.ask(hello())
    played = [[1, "3C"]]
    assert d.ask(play_req(1, played=played))["card"] == "4C"  # not held, not yet played

    r = run("--renege")
    r.ask(hello())
    assert r.ask(play_req(1))["card"] == "2C"  # leading: nothing to renege on yet
    assert r.ask(play_req(2, trick=[[1, "KC"]]))["card"] == "4H"  # holds clubs, plays a heart
    assert "--renege: playing 4H although it holds the led suit" in r.stderr()

    s = run("--lead-spade")
    s.ask(hello())
    assert s.ask(play_req(1, broken=True))["card"] == "2C"  # broken: leading a spade is legal
    assert s.ask(play_req(2))["card"] == "AS"

    for value, expected in (("14", 14), ("-1", -1), ('"three"', "three"), ("null", None)):
        b = run("--bid", value)
        b.ask(hello())
        assert b.ask(req("bid", 1, state(PLAY_HAND), legal=[1, 2])) == {"id": 1, "bid": expected}


def test_fork_child_logs_the_child_pid(run: Any) -> None:
    d = run("--fork-child")
    d.ask(hello())
    with pytest.raises(BotFault) as info:
        d.ask(play_req(1))
    assert info.value.kind is FaultKind.CRASH
    assert "--fork-child: forked child pid" in d.stderr()


def test_flags_are_validated() -> None:
    with pytest.raises(SystemExit):
        hb.parse_args(["--bid", "three"])  # not JSON: must be quoted
    with pytest.raises(SystemExit):
        hb.parse_args(["--missing-field", "--on", "hello"])
    assert hb.parse_args(["--huge-line"]).huge_line == 10.0
    assert hb.parse_args(["--flood-stderr"]).flood_stderr == 100.0


# ------------------------------------------------------------------ pure helpers


def test_card_choice_helpers() -> None:
    st = state(["2C", "3H", "AS"], trick=[[1, "KH"]])
    assert hb.renege_card(st) == "2C"
    assert hb.renege_card(state(["2C", "AS"], trick=[[1, "KH"]])) is None  # void: cannot renege
    assert hb.renege_card(state(["2H", "3H"], trick=[[1, "KH"]])) is None  # only hearts
    assert hb.lead_spade_card(state(["2C", "AS"])) == "AS"
    assert hb.lead_spade_card(state(["KS", "AS"])) is None  # only spades: legal anyway
    assert hb.lead_spade_card(state(["2C", "AS"], trick=[[1, "KH"]])) is None  # not leading
    assert hb.not_held_card(state(["2C"], played=[[0, "3C"]])) == "4C"
    assert hb.legal_answer({"type": "unknown"}) is None
