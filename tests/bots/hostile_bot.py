#!/usr/bin/env python3
"""A protocol-v1 Spades bot that misbehaves on demand.

It plays legally by default and breaks one rule of the protocol (or several)
when told to by command-line flags, so the referee's fault handling can be
tested against a real foreign process. It uses the standard library only and
imports nothing from the referee: it stands for a bot written by someone else.

Default (legal) play: hello -> ``{"id":0,"name":NAME}``; ``blind_nil`` ->
false; ``keep`` -> true; ``discard`` -> []; ``pass`` -> the first ``count``
cards of ``state.hand``; ``bid`` -> the first value of ``legal`` above 0, else
``legal[0]``; ``play`` -> ``legal[0]``.

Each misbehaviour takes effect at its first opportunity and from then on:
in the request type it concerns (``--on`` picks another one where that makes
sense), from hand ``--at-hand N`` on, and only at seat ``--seat-only N`` if
given. Every misbehaviour is logged to stderr so match logs show it.
Sizes in MB are MiB (1 MB = 1,048,576 bytes).

Examples::

    hostile_bot.py --crash                     # exit 3 at the first play request
    hostile_bot.py --renege --at-hand 2        # fail to follow suit from hand 2
    hostile_bot.py --bid '"three"' --seat-only 1
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
MB = 1 << 20
NOT_GIVEN: Any = object()  # default of --bid, whose value may be any JSON, null included
REQUEST_TYPES = ("hello", "blind_nil", "keep", "discard", "pass", "bid", "play")

# Which request type each flag acts on by default. "any" = the first request
# that is not hello (the first decision of the match).
DEFAULT_ON = {
    "hang": "play",
    "slow": "play",
    "crash": "play",
    "fork_child": "play",
    "garbage": "any",
    "array": "any",
    "wrong_id": "any",
    "missing_field": "any",
    "wrong_type": "any",
    "huge_line": "any",
    "unsolicited": "hello",
    "flood": "any",
}
# The answer field of each request type.
ANSWER_FIELD = {
    "blind_nil": "blind_nil",
    "keep": "keep",
    "discard": "cards",
    "pass": "cards",
    "bid": "bid",
    "play": "card",
}


def json_value(text: str) -> Any:
    """argparse type: a JSON value such as 14, -1 or '"three"'."""
    try:
        return json.loads(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a JSON value: {text!r} (quote strings, e.g. '\"three\"')"
        ) from None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Protocol-v1 Spades bot that plays legally unless told to misbehave."
    )
    p.add_argument("--name", default="hostile", help="name sent in the hello answer")
    g = p.add_argument_group("when")
    g.add_argument("--at-hand", type=int, metavar="N", help="misbehave from hand N on (1-based)")
    g.add_argument("--seat-only", type=int, metavar="N", help="misbehave only at seat N")
    g.add_argument(
        "--on",
        choices=REQUEST_TYPES + ("any",),
        help="request type for --hang/--slow/--crash/--fork-child, the answer-shape"
        " flags, --huge-line and --unsolicited (default: play for the first four, the"
        " first decision for the shape flags, hello for --unsolicited)",
    )
    m = p.add_argument_group("misbehaviour")
    m.add_argument("--hang", action="store_true", help="stop answering and sleep forever")
    m.add_argument("--slow", type=int, metavar="MS", help="sleep MS before every answer")
    m.add_argument("--crash", action="store_true", help="exit with code 3")
    m.add_argument("--exit-in-hello", action="store_true", help="exit (code 0) on hello, unanswered")
    m.add_argument("--garbage", action="store_true", help="answer with a non-JSON line")
    m.add_argument("--array", action="store_true", help="answer with a JSON array")
    m.add_argument("--wrong-id", action="store_true", help="answer with another id")
    m.add_argument("--missing-field", action="store_true", help="omit the answer field")
    m.add_argument("--wrong-type", action="store_true", help="answer field of the wrong type")
    m.add_argument(
        "--huge-line", type=float, nargs="?", const=10.0, metavar="MB",
        help="answer with one line of MB MiB (default 10)",
    )
    m.add_argument(
        "--unsolicited", action="store_true",
        help="write an extra line right after an answer (default: after hello)",
    )
    m.add_argument(
        "--flood", type=int, metavar="N",
        help="write N extra lines right after an answer (default: after the first decision)",
    )
    m.add_argument(
        "--flood-stderr", type=float, nargs="?", const=100.0, metavar="MB",
        help="write MB MiB to stderr before answering hello (default 100)",
    )
    m.add_argument("--not-held", action="store_true", help="play a card it does not hold")
    m.add_argument("--renege", action="store_true", help="fail to follow suit when it could")
    m.add_argument(
        "--lead-spade", action="store_true", help="lead a spade before spades are broken"
    )
    m.add_argument(
        "--bid", type=json_value, default=NOT_GIVEN, metavar="VALUE",
        help="answer every bid with VALUE, a JSON value (14, -1, '\"three\"')",
    )
    m.add_argument(
        "--fork-child", action="store_true",
        help="fork a child that sleeps 1 h holding stdout/stderr, then exit",
    )
    m.add_argument(
        "--ignore-sigterm", action="store_true",
        help="ignore SIGTERM and keep running after stdin closes",
    )
    args = p.parse_args(argv)
    if args.on == "hello" and args.missing_field:
        p.error("--missing-field cannot act on hello: its answer has no required field")
    if args.flood is not None and args.flood < 1:
        p.error(f"--flood must be >= 1, got: {args.flood}")
    if args.slow is not None and args.slow < 0:
        p.error(f"--slow must be >= 0, got: {args.slow}")
    return args


def log(text: str) -> None:
    """One line to stderr, unbuffered (it must land even if we exit next)."""
    os.write(2, (text + "\n").encode())


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def sleep_forever() -> None:
    while True:
        time.sleep(3600)


def legal_answer(msg: dict[str, Any]) -> Any:
    """The well-behaved answer value for a request."""
    kind = msg.get("type")
    state = msg.get("state") or {}
    if kind == "blind_nil":
        return False
    if kind == "keep":
        return True
    if kind == "discard":
        return []
    if kind == "pass":
        return list(state.get("hand", []))[: int(msg.get("count", 0))]
    if kind == "bid":
        legal = msg["legal"]
        return next((b for b in legal if isinstance(b, int) and b > 0), legal[0])
    if kind == "play":
        return msg["legal"][0]
    return None


def renege_card(state: dict[str, Any]) -> str | None:
    """A card of another suit when we hold the led suit, or None."""
    trick = state.get("trick") or []
    hand = state.get("hand") or []
    if not trick:
        return None
    led = trick[0][1][1]
    if not any(c[1] == led for c in hand):
        return None
    return next((c for c in hand if c[1] != led), None)


def lead_spade_card(state: dict[str, Any]) -> str | None:
    """A spade to lead while spades are unbroken and we hold another suit, or None."""
    if state.get("trick") or state.get("spades_broken"):
        return None
    hand = state.get("hand") or []
    spades = [c for c in hand if c[1] == "S"]
    if spades and len(spades) < len(hand):
        return spades[0]
    return None


def not_held_card(state: dict[str, Any]) -> str:
    """A card not in our hand, preferring one nobody has played yet."""
    hand = set(state.get("hand") or [])
    played = {c for _, c in state.get("played") or []}
    unseen = [c for c in DECK if c not in hand and c not in played]
    return (unseen or [c for c in DECK if c not in hand])[0]


def wrong_type_answer(kind: str, legal: Any) -> tuple[str, Any]:
    """(field, value) with a value of the wrong JSON type for this request."""
    if kind == "hello":
        return "name", 42
    if kind == "play":
        return "card", 51  # a card as a number
    if kind == "bid":
        return "bid", str(legal)  # "3" instead of 3
    if kind in ("discard", "pass"):
        return "cards", ",".join(legal) if legal else "none"  # a string, not a list
    return ANSWER_FIELD.get(kind, "answer"), "yes"  # blind_nil / keep: not a bool


class HostileBot:
    """The bot's state between messages: seat, hand number, what has fired."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.seat: int | None = None
        self.hand_no = 0  # 0 until the first hand starts (hello)

    # -- arming ---------------------------------------------------------------

    def seat_ok(self) -> bool:
        return self.args.seat_only is None or self.seat == self.args.seat_only

    def given(self, flag: str) -> bool:
        """Was ``flag`` given on the command line?"""
        value = getattr(self.args, flag)
        if flag == "bid":
            return value is not NOT_GIVEN  # any JSON value, even false or null
        return value is not None and value is not False

    def in_window(self) -> bool:
        """Right seat, and at or after the hand named by --at-hand."""
        at_hand = self.args.at_hand
        return self.seat_ok() and (at_hand is None or self.hand_no >= at_hand)

    def armed(self, flag: str, kind: str) -> bool:
        """Does ``flag`` act on this request of type ``kind`` now?"""
        if not self.given(flag) or not self.in_window():
            return False
        on = self.args.on or DEFAULT_ON[flag]
        if flag == "unsolicited" and self.args.on is None and self.args.at_hand is not None:
            on = "any"  # "--unsolicited --at-hand 3": after the first answer of hand 3
        if on == "any":
            return kind != "hello"
        return kind == on

    def say(self, text: str) -> None:
        log(f"hostile_bot seat={self.seat} hand={self.hand_no}: {text}")

    # -- main loop ------------------------------------------------------------

    def run(self) -> int:
        args = self.args
        if args.ignore_sigterm and args.seat_only is None:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stdin = sys.stdin.buffer
        while True:
            raw = stdin.readline()
            if not raw:
                break
            try:
                msg = json.loads(raw)
            except ValueError:
                self.say(f"cannot parse referee line: {raw[:80]!r}")
                continue
            if not isinstance(msg, dict):
                continue
            if "id" in msg:
                self.on_request(msg)
            else:
                self.on_event(msg)
        if args.ignore_sigterm and self.seat_ok():
            self.say("--ignore-sigterm: stdin closed; ignoring it and SIGTERM, sleeping")
            sleep_forever()
        return 0

    def on_event(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "hand_start" and isinstance(msg.get("hand"), int):
            self.hand_no = msg["hand"]
        elif kind == "error":
            self.say(f"referee says: {msg.get('message')}")

    def on_request(self, msg: dict[str, Any]) -> None:
        args = self.args
        kind = str(msg.get("type"))
        rid = msg["id"]
        state = msg.get("state") or {}
        if kind == "hello":
            self.seat = msg.get("seat")
            if args.ignore_sigterm and self.seat_ok():
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                self.say("--ignore-sigterm: SIGTERM is now ignored")
            if args.exit_in_hello and self.seat_ok():
                self.say("--exit-in-hello: exiting with code 0 without answering")
                sys.exit(0)
            if args.flood_stderr and self.seat_ok():
                self.say(f"--flood-stderr: writing {args.flood_stderr:g} MiB to stderr")
                total = int(args.flood_stderr * MB)
                block = (b"flood " * (MB // 6 + 1))[:MB - 1] + b"\n"
                while total > 0:
                    write_all(2, block[:total])
                    total -= len(block)
            field, value = "name", args.name
        else:
            if isinstance(state.get("hand_no"), int):
                self.hand_no = state["hand_no"]
            field, value = ANSWER_FIELD.get(kind, "answer"), legal_answer(msg)

        if self.armed("crash", kind):
            self.say(f"--crash: exiting with code 3 at {kind} request id {rid}")
            sys.exit(3)
        if self.armed("fork_child", kind):
            child = os.fork()
            if child == 0:
                # Holds stdin/stdout/stderr open; stays in the bot's process group.
                time.sleep(3600)
                os._exit(0)
            self.say(f"--fork-child: forked child pid {child}; parent exiting with code 0")
            os._exit(0)
        if self.armed("hang", kind):
            self.say(f"--hang: not answering {kind} request id {rid}; sleeping forever")
            sleep_forever()
        if self.armed("slow", kind):
            self.say(f"--slow: sleeping {args.slow} ms before answering {kind} id {rid}")
            time.sleep(args.slow / 1000)

        # Decisions the rules forbid.
        if kind == "play" and self.armed_decision("not_held"):
            value = not_held_card(state)
            self.say(f"--not-held: playing {value}, which it does not hold")
        if kind == "play" and self.armed_decision("renege"):
            card = renege_card(state)
            if card is not None:
                value = card
                self.say(f"--renege: playing {card} although it holds the led suit")
        if kind == "play" and self.armed_decision("lead_spade"):
            card = lead_spade_card(state)
            if card is not None:
                value = card
                self.say(f"--lead-spade: leading {card} before spades are broken")
        if kind == "bid" and self.armed_decision("bid"):
            value = args.bid
            self.say(f"--bid: bidding {json.dumps(value)}")

        # The shape of the answer line.
        answer: dict[str, Any] = {"id": rid, field: value}
        line: str | None = None
        if self.armed("wrong_type", kind):
            wfield, wvalue = wrong_type_answer(kind, value)
            answer = {"id": rid, wfield: wvalue}
            self.say(f"--wrong-type: answering {wfield}={json.dumps(wvalue)}")
        if self.armed("missing_field", kind):
            answer = {"id": rid}
            self.say(f"--missing-field: answering without {field!r}")
        if self.armed("wrong_id", kind):
            answer["id"] = rid + 1000 if isinstance(rid, int) else "wrong"
            self.say(f"--wrong-id: answering id {answer['id']} to request id {rid}")
        if self.armed("array", kind):
            line = json.dumps([rid, value])
            self.say("--array: answering with a JSON array")
        if self.armed("garbage", kind):
            line = "this is not JSON {"
            self.say("--garbage: answering with a non-JSON line")
        if line is None:
            line = json.dumps(answer)
        data = line.encode() + b"\n"
        if self.armed("huge_line", kind):
            size = max(int(args.huge_line * MB), 1)
            self.say(f"--huge-line: answering with a line of {size} bytes")
            head = f'{{"id": {json.dumps(rid)}, "pad": "'.encode()
            pad = size - len(head) - 3
            chunk = b"x" * MB
            write_all(1, head)
            while pad > 0:
                write_all(1, chunk[:pad])
                pad -= MB
            data = b'"}\n'
        if self.armed("unsolicited", kind):
            # One write holding the answer and the extra line: the referee
            # sees both at once, so the test does not depend on timing.
            data += b'{"note": "nobody asked for this line"}\n'
            self.say("--unsolicited: writing an extra line after the answer")
        if self.armed("flood", kind):
            data += b'{"note": "flood"}\n' * args.flood
            self.say(f"--flood: writing {args.flood} extra lines after the answer")
        write_all(1, data)

    def armed_decision(self, flag: str) -> bool:
        """Rule-breaking flags act on play (or bid) requests only; no --on."""
        return self.given(flag) and self.in_window()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return HostileBot(args).run()
    except BrokenPipeError:
        # The referee stopped listening (e.g. after a huge line): just go.
        os._exit(1)


if __name__ == "__main__":
    sys.exit(main())
