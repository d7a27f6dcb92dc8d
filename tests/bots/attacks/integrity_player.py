"""What every attack bot shares: a plain legal player over protocol v1.

Each attack script answers like this player and does its attack on the side;
the tests then check that the attack got nowhere and that the verdicts fall
on the attacker alone.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Iterator

Message = dict[str, Any]


def messages() -> Iterator[Message]:
    """The referee's messages, one per line of stdin, until it closes it."""
    for line in sys.stdin:
        if line.strip():
            yield json.loads(line)


def send(text: str) -> None:
    """Write one raw line (the attacks need to write lines no JSON encoder would)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def answer(msg: Message) -> Message:
    """A legal answer to a request: the first legal card or bid, no Blind Nil, keep, no discard."""
    kind, rid = msg["type"], msg["id"]
    if kind == "hello":
        return {"id": rid, "name": "attack"}
    if kind == "blind_nil":
        return {"id": rid, "blind_nil": False}
    if kind == "bid":
        legal = msg["legal"]
        return {"id": rid, "bid": 1 if 1 in legal else legal[0]}
    if kind == "play":
        return {"id": rid, "card": msg["legal"][0]}
    if kind == "keep":
        return {"id": rid, "keep": True}
    if kind == "discard":
        return {"id": rid, "cards": []}
    if kind == "pass":
        return {"id": rid, "cards": msg["state"]["hand"][: msg["count"]]}
    raise ValueError(f"unknown request {kind!r}")


def play(on_message: Callable[[Message], str | None] | None = None) -> None:
    """Play a whole match; ``on_message`` may return a raw line to send instead of the answer."""
    for msg in messages():
        line = on_message(msg) if on_message is not None else None
        if "id" in msg:
            send(line if line is not None else json.dumps(answer(msg)))
