"""The smallest correct protocol-v1 bot: parse each line, answer requests with the first legal choice.

Used by bench/protocol.py on both sides of the comparison, so the bot's own
cost is the same in the referee run and in the bare ping-pong.
"""

import json
import sys

ANSWERS = {"hello": ("name", "minimal"), "blind_nil": ("blind_nil", False), "keep": ("keep", True),
           "discard": ("cards", [])}


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" not in msg:
            if msg.get("type") == "match_end":
                break
            continue
        kind = msg["type"]
        if kind in ("play", "bid"):
            answer = {"id": msg["id"], "card" if kind == "play" else "bid": msg["legal"][0]}
        elif kind == "pass":
            answer = {"id": msg["id"], "cards": msg["state"]["hand"][: msg["count"]]}
        else:
            field, value = ANSWERS[kind]
            answer = {"id": msg["id"], field: value}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
