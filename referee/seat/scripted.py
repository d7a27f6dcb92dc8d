"""In-process seats: a transport that answers like a bot, without a process.

:class:`ScriptedTransport` speaks protocol v1 lines to a Python policy. The
referee uses it for the scripted opponents of ``spades check-bot``, and tests
use it as the fastest fake bot (no process, same code path in the runner).

It models a bot's stdout as a pipe on a virtual clock, so misbehaviour can be
scripted exactly and without sleeping: a reply may come late (after the
request's deadline, to be read at the next request as a stale answer), or
bring extra lines (a flood, read as output nobody asked for).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import random
import time
from typing import Any, Callable, Sequence

from referee.seat.faults import BotFault
from referee.seat.protocol import answer_field
from referee.seat.transcript import LineRecorder
from referee.seat.transport import Transport

__all__ = ["Policy", "Reply", "ScriptedTransport", "VirtualClock", "random_policy"]

Policy = Callable[[dict[str, Any]], Any]


def random_policy(rng: random.Random, blind_nil: float = 0.0) -> Policy:
    """A policy making a random legal decision (Blind Nil with probability ``blind_nil``)."""

    def decide(req: dict[str, Any]) -> Any:
        kind = req["type"]
        hand = req.get("state", {}).get("hand", [])
        if kind in ("play", "bid"):
            return rng.choice(req["legal"])
        if kind == "blind_nil":
            return rng.random() < blind_nil
        if kind == "keep":
            return rng.random() < 0.5
        if kind == "discard":
            return rng.sample(hand, rng.randint(0, min(req["max"], len(hand))))
        if kind == "pass":
            return rng.sample(hand, req["count"])
        return None

    return decide


@dataclasses.dataclass(frozen=True)
class Reply:
    """What a scripted seat writes for one request: ``lines`` in order, ``after_s``
    seconds after the request (later than the allowance: a late answer)."""

    lines: Sequence[str]
    after_s: float = 0.0


Override = Callable[[dict[str, Any]], "str | Reply | None"]


class VirtualClock:
    """Seconds of make-believe time; seats that share one see each other's thinking time pass."""

    def __init__(self) -> None:
        self.now = 0.0


class ScriptedTransport(Transport):
    """A seat answered in-process by ``policy(request) -> decision``.

    Every line the seat is sent is kept, parsed, in :attr:`received`, so
    tests can inspect what a seat was told. ``answer_override(request)`` may
    return a raw line or a :class:`Reply` instead of the policy's answer, to
    script misbehaviour; None keeps the policy's answer.

    Time is virtual (``clock``, shared by the seats of a match when they are
    given the same one): a request at virtual time *t* whose reply comes
    ``after_s`` later is read at *t* + ``after_s`` if that is within the
    allowance, else the request times out and the reply stays in the pipe,
    to be found by the next request, or dropped as unasked output once the
    clock has passed it.
    """

    def __init__(self, policy: Policy, name: str = "scripted", answer_override: Override | None = None,
                 clock: VirtualClock | None = None, transcript: LineRecorder | None = None):
        self.policy, self.name, self.answer_override = policy, name, answer_override
        self.received: list[dict[str, Any]] = []
        self.closed = False
        self.clock = clock or VirtualClock()
        self._transcript = transcript  # as for a bot process: every line, both ways
        self._pipe: collections.deque[tuple[float, str]] = collections.deque()  # (arrives at, line)

    def send(self, line: str) -> None:
        if self._transcript is not None:
            self._transcript("out", line, time.time())
        self.received.append(json.loads(line))

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        if self._transcript is not None:
            self._transcript("out", line, time.time())
        req = json.loads(line)
        self.received.append(req)
        reply = self.answer_override(req) if self.answer_override is not None else None
        if reply is None:
            reply = Reply([self._answer(req)])
        elif isinstance(reply, str):
            reply = Reply([reply])
        at = self.clock.now + reply.after_s
        self._pipe.extend((at, text) for text in reply.lines)
        return self.read_line(timeout_s)

    def _answer(self, req: dict[str, Any]) -> str:
        if req["type"] == "hello":
            return json.dumps({"id": req["id"], "name": self.name})
        return json.dumps({"id": req["id"], answer_field(req["type"]): self.policy(req)})

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        clock = self.clock
        start = clock.now
        if self._pipe and self._pipe[0][0] <= start + timeout_s:
            at, text = self._pipe.popleft()
            clock.now = max(at, start)
            if self._transcript is not None:
                self._transcript("in", text, time.time())
            return text, clock.now - start
        clock.now = start + timeout_s
        raise BotFault.timeout(timeout_s)

    def discard_pending(self) -> int:
        dropped = 0
        while self._pipe and self._pipe[0][0] <= self.clock.now:
            dropped += len(self._pipe.popleft()[1]) + 1
        return dropped

    def check_unexpected(self) -> None:
        if self._pipe and self._pipe[0][0] <= self.clock.now:
            raise BotFault.unexpected(repr(self._pipe[0][1][:80]))

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        self.closed = True
        return 0
