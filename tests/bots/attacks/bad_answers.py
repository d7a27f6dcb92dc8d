"""Attack: answers that strain the referee's JSON reading.

``bad_answers.py MODE``: plays plainly, then answers its first bid request
(its first play request for ``extra-after-last``: its last card) with:

* ``hugeint``: a bid of 5,000 digits (Python's int() refuses 4,301);
* ``dupkey``: ``"bid"`` twice, 1 then 13 (which one counts?);
* ``u2028``: a raw U+2028 in the answer (a line break to JavaScript);
* ``control``: a raw control character (U+0001) inside a string;
* ``surrogate``: a lone UTF-16 surrogate escape in a string;
* ``nan``: ``NaN`` as the bid;
* ``extra-after-last``: its last card, then a second line nobody asked for.
"""

from __future__ import annotations

import json
import sys

from integrity_player import Message, play

MODE = sys.argv[1]
done = False


def on_message(msg: Message) -> str | None:
    global done
    if done or "id" not in msg:
        return None
    rid = msg["id"]
    if MODE == "extra-after-last":
        if msg["type"] == "play" and len(msg["state"]["hand"]) == 1:
            done = True
            return json.dumps({"id": rid, "card": msg["legal"][0]}) + "\n" + '{"note":"one more thing"}'
        return None
    if msg["type"] != "bid":
        return None
    done = True
    if MODE == "hugeint":
        return '{"id":%d,"bid":%s}' % (rid, "7" * 5000)
    if MODE == "dupkey":
        return '{"id":%d,"bid":1,"bid":13}' % rid
    if MODE == "u2028":
        return '{"id":%d,"bid":1,"note":"a\u2028b"}' % rid
    if MODE == "control":
        return '{"id":%d,"bid":1,"note":"a\x01b"}' % rid
    if MODE == "surrogate":
        return '{"id":%d,"bid":1,"note":"\\ud800"}' % rid
    if MODE == "nan":
        return '{"id":%d,"bid":NaN}' % rid
    raise SystemExit(f"unknown mode {MODE!r}")


play(on_message)
