"""The likely cause of each fault of a match, for ``spades match``'s output.

The match record keeps a fault's detail, not the answer line that caused it;
the transcript has both, in order (each fault is a ``note`` line right after
the line that caused it), so the hints are read from there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from referee.seat.faults import Fault
from referee.seat.botprocess import says_exited
from referee.seat.hints import Hint, hint_for

__all__ = ["fault_hints"]


def fault_hints(transcript: Path | None, faults: Sequence[Fault], names: Sequence[str]) -> list[str]:
    """``Hint for seat 1 (mybot): ...`` once per seat and hint, in the order of the faults."""
    if transcript is None or not faults:
        return []
    try:
        lines = transcript.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    last_in: dict[int, str | None] = {}
    last_request: dict[int, str] = {}
    seen: set[tuple[int, Hint]] = set()
    out: list[str] = []
    index = 0
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if "note" in entry:
            if index < len(faults):
                fault = faults[index]
                index += 1
                hint = hint_for(fault.kind, last_request.get(fault.seat), last_in.get(fault.seat),
                                exited=says_exited(fault.detail))
                if hint is not None and (fault.seat, hint) not in seen:
                    seen.add((fault.seat, hint))
                    out.append(f"Hint for seat {fault.seat} ({names[fault.seat]}): {hint.text}")
            continue
        seat = entry.get("seat")
        if not isinstance(seat, int):
            continue
        if entry.get("dir") == "out":
            msg = entry.get("msg")
            if isinstance(msg, dict) and "id" in msg:
                last_request[seat] = str(msg.get("type"))
                last_in[seat] = None
        elif entry.get("dir") == "in":
            last_in[seat] = str(entry["raw"]) if "raw" in entry else json.dumps(entry.get("msg"))
    return out
