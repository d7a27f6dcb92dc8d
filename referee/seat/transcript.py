"""The transcript of a match: every line between the referee and each seat, timed.

Each seat's connection records its lines through the callable that
:meth:`Transcript.for_seat` returns, so the one file holds both directions of
every seat in the order they happened.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["Transcript", "LineRecorder"]

#: ``record(direction, line, time.time())``; direction ``"out"`` (to the bot) or ``"in"``.
LineRecorder = Callable[[str, str, float], None]


class Transcript:
    """``logs/<match>.jsonl``: every line in both directions with its time.

    One JSON object per line: ``t`` (seconds since the match started),
    ``seat``, ``dir`` (``"out"``: referee to bot, ``"in"``: bot to referee)
    and either ``msg`` (the line itself, when it is a JSON object) or ``raw``
    (the line as a JSON string, when it is not), or a ``note`` of the referee.
    """

    def __init__(self, path: Path | None):
        self._fh = open(path, "w", encoding="utf-8", buffering=1 << 16) if path else None
        self._t0 = time.time()
        #: ``(line, parsed)`` of the last bot line recorded that is a JSON
        #: object: the runner reuses the parse instead of decoding it again.
        self.last_in: tuple[str, Any] | None = None

    def for_seat(self, seat: int) -> LineRecorder | None:
        fh = self._fh
        if fh is None:
            return None
        t0 = self._t0
        write = fh.write
        loads = json.loads
        out_head = f',"seat":{seat},"dir":"out","msg":'
        in_head = f',"seat":{seat},"dir":"in","msg":'
        raw_head = f',"seat":{seat},"dir":"in","raw":'

        def record(direction: str, line: str, t: float) -> None:
            # The referee's own lines are JSON objects: embedded as they are.
            # A bot's line is embedded when it parses as an object, else it
            # is quoted as a raw string.
            if direction == "out":
                write(f'{{"t":{t - t0:.6f}{out_head}{line}}}\n')
                return
            obj = None
            if line[:1] == "{":
                try:
                    obj = loads(line)
                except (ValueError, RecursionError):  # not JSON, or nested too deeply to decode
                    pass
            if obj.__class__ is dict:
                self.last_in = (line, obj)
                write(f'{{"t":{t - t0:.6f}{in_head}{line}}}\n')
            else:
                write(f'{{"t":{t - t0:.6f}{raw_head}{json.dumps(line)}}}\n')

        return record

    def note(self, text: str) -> None:
        if self._fh is not None:
            self._fh.write(json.dumps({"t": round(time.time() - self._t0, 6), "note": text}) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
