#!/usr/bin/env python3
"""Random Spades bot: a uniformly random legal answer to every request (protocol v1).

Self-contained on purpose: the smallest complete bot, to copy and start from.
Set BOT_SEED for a reproducible game (the seat is mixed in, so partners differ).
"""
import json
import os
import random
import sys


def answer(msg, rng):
    """The answer field for one request, chosen at random among the legal ones."""
    kind, hand = msg["type"], msg.get("state", {}).get("hand", [])
    if kind == "hello":
        seed = os.environ.get("BOT_SEED")
        if seed is not None:
            rng.seed(f"{seed}/{msg.get('seat')}")
        return {"name": "random"}
    if kind in ("blind_nil", "keep"):
        return {kind: rng.random() < 0.5}
    if kind == "discard":  # any 0..max of our cards
        return {"cards": rng.sample(hand, rng.randint(0, min(msg["max"], len(hand))))}
    if kind == "pass":  # exactly `count` of our cards
        return {"cards": rng.sample(hand, msg["count"])}
    if kind in ("bid", "play"):
        return {"bid" if kind == "bid" else "card": rng.choice(msg["legal"])}
    return None  # a request type this bot does not know: stay silent


rng = random.Random()
for line in sys.stdin:  # one JSON object per line; end of input ends the bot
    msg = json.loads(line) if line.strip() else {}
    if "id" in msg and (reply := answer(msg, rng)) is not None:
        print(json.dumps({"id": msg["id"], **reply}), flush=True)
    elif msg.get("type") == "match_end":
        break
