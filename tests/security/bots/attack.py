"""The shared loop of the attack bots: legal random play, with the attack run at the first request.

Each attack bot is a few lines that call :func:`play` with its attack. What an
attack achieved is written to stderr as ``LEAK ...`` lines (the referee keeps
stderr in the match's logs), so a test can assert that nothing leaked.
"""
import json
import os
import random
import sys


def report(what):
    """Tell the test (through stderr) that the attack got something it must not get."""
    print(f"LEAK {what}", file=sys.stderr, flush=True)


def foreign_pids():
    """Pids this bot can see in /proc that are not itself."""
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]


def answer(msg, rng):
    kind, hand = msg["type"], msg.get("state", {}).get("hand", [])
    if kind == "hello":
        return {"name": "attack"}
    if kind in ("blind_nil", "keep"):
        return {kind: False if kind == "blind_nil" else True}
    if kind == "discard":
        return {"cards": []}
    if kind == "pass":
        return {"cards": hand[:msg["count"]]}
    return {"bid" if kind == "bid" else "card": rng.choice(msg["legal"])}


def play(attack=None, every=None):
    """Play legally; ``attack()`` runs once at the first request after hello, ``every()`` at each."""
    rng = random.Random(1)
    done = False
    for line in sys.stdin:
        msg = json.loads(line) if line.strip() else {}
        if "id" in msg:
            if msg["type"] != "hello":
                if attack is not None and not done:
                    done = True
                    attack()
                if every is not None:
                    every(msg)
            print(json.dumps({"id": msg["id"], **answer(msg, rng)}), flush=True)
        elif msg.get("type") == "match_end":
            break
