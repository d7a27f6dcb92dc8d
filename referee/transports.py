"""In-process seats: a transport that answers like a bot without a process.

:class:`ScriptedTransport` speaks protocol v1 lines to a Python policy. The
referee uses it for the scripted opponents of ``spades check-bot``, and tests
use it as the fastest fake bot (no process, same code path in the runner).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any, Callable

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


ANSWER_FIELD = {"blind_nil": "blind_nil", "keep": "keep", "discard": "cards", "pass": "cards",
                "bid": "bid", "play": "card"}


class ScriptedTransport:
    """A seat answered in-process by ``policy(request) -> decision``.

    Events are recorded in :attr:`received` (parsed) so tests can inspect
    what a seat was told. ``answer_override(request) -> str | None`` may
    return a raw line instead of the policy's answer, to script misbehaviour.
    """

    def __init__(self, policy: Policy, name: str = "scripted",
                 answer_override: Callable[[dict[str, Any]], str | None] | None = None):
        self.policy, self.name, self.answer_override = policy, name, answer_override
        self.received: list[dict[str, Any]] = []
        self.spawn_s = 0.0
        self.closed = False

    def start(self) -> None:
        pass

    def send(self, line: str) -> None:
        self.received.append(json.loads(line))

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        t0 = time.perf_counter()
        req = json.loads(line)
        self.received.append(req)
        if self.answer_override is not None:
            raw = self.answer_override(req)
            if raw is not None:
                return raw, time.perf_counter() - t0
        if req["type"] == "hello":
            answer: dict[str, Any] = {"id": req["id"], "name": self.name}
        else:
            answer = {"id": req["id"], ANSWER_FIELD[req["type"]]: self.policy(req)}
        return json.dumps(answer), time.perf_counter() - t0

    def check_unexpected(self) -> None:
        pass

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        self.closed = True
        return 0
