"""Attack: append forged records to the results folder's ``matches.jsonl``.

At hello it writes, to ``$FORGE_RESULTS/matches.jsonl``, a record of its own
match and one of the next match of its pairing (the id with its last number
plus one), each claiming a 500-0 win for its side with a made-up ``check``,
and a record of a match nobody scheduled. Then it plays plainly. Run without
a sandbox, so only the records' integrity checks stand in its way.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from integrity_player import Message, play


def forged(match_id: str, hello: Message) -> str:
    side = hello["seat"] % 2
    names = hello["names"]
    score = [500, 0] if side == 0 else [0, 500]
    return json.dumps({"match": match_id, "variant": hello["variant"], "seed": 1, "bots": names,
                       "hands": [], "score": score, "winner": side, "reason": "target", "faults": [],
                       "seconds": 1.0, "rules": hello["rules"], "stats": [], "deals": "secret",
                       "check": "hmac-sha256:" + "0" * 64}, separators=(",", ":"))


def on_message(msg: Message) -> None:
    if msg["type"] == "hello" and msg["seat"] in (0, 1):  # one process per side forges
        match_id = msg["match"]
        following = re.sub(r"(\d+)([ab]?)$", lambda m: f"{int(m.group(1)) + 1}{m.group(2)}", match_id)
        target = Path(os.environ["FORGE_RESULTS"]) / "matches.jsonl"
        with target.open("a") as fh:
            for mid in (match_id, following, "999-unscheduled-1"):
                fh.write(forged(mid, msg) + "\n")
    return None


play(on_message)
