#!/usr/bin/env python3
"""A protocol-v1 bot that makes one classic beginner's mistake, for check-bot's report tests.

Unlike ``hostile_bot.py`` (attacks on the referee), each mode here is a slip
real bot authors make. Standard library only; it imports nothing from the
referee. Plays legally otherwise: the first legal card, the first bid above 0.

    mistakes_bot.py debug-line     # one "DEBUG ..." print to stdout before its first play answer
    mistakes_bot.py lowercase      # every card in lower case: "7c"
    mistakes_bot.py ten            # plays a ten as "10H" whenever one is legal
    mistakes_bot.py no-flush       # writes its answers to a block-buffered stdout, never flushed
    mistakes_bot.py traceback      # a Python exception (a traceback on stderr) at its first play
    mistakes_bot.py late N MS      # answers its N-th play request MS milliseconds late
"""

from __future__ import annotations

import io
import json
import sys
import time


def decide(msg: dict, mode: str) -> dict:
    kind, state = msg["type"], msg.get("state", {})
    hand = state.get("hand", [])
    if kind == "hello":
        return {"name": f"mistakes-{mode}"}
    if kind in ("blind_nil", "keep"):
        return {kind: kind == "keep"}
    if kind == "discard":
        return {"cards": []}
    if kind == "pass":
        return {"cards": hand[: msg["count"]]}
    if kind == "bid":
        return {"bid": next((b for b in msg["legal"] if b > 0), msg["legal"][0])}
    card = msg["legal"][0]
    if mode == "lowercase":
        card = card.lower()
    elif mode == "ten":
        ten = next((c for c in msg["legal"] if c[0] == "T"), None)
        card = "10" + ten[1] if ten else card
    elif mode == "traceback":
        card = state["no_such_field"][0]  # the bug: a KeyError with a traceback on stderr
    return {"card": card}


def main() -> int:
    mode = sys.argv[1]
    late_at, late_ms = (int(sys.argv[2]), int(sys.argv[3])) if mode == "late" else (0, 0)
    out = sys.stdout
    if mode == "no-flush":
        # What a C or Rust program gets on a pipe: a block buffer nobody flushes.
        out = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 1 << 16), write_through=False)
    plays = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" not in msg:
            continue
        debug = ""
        if msg["type"] == "play":
            plays += 1
            if mode == "debug-line" and plays == 1:
                # print() then the answer, flushed together: one write, as most runtimes do.
                debug = f"DEBUG playing {msg['legal'][0]} from {len(msg['state']['hand'])} cards\n"
            if plays == late_at:
                time.sleep(late_ms / 1000)
        answer = {"id": msg["id"], **decide(msg, mode)}
        out.write(debug + json.dumps(answer) + "\n")
        if mode != "no-flush":
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
