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

from referee.seat.strictjson import StrictJSONError, decode, encode

__all__ = ["Transcript", "LineRecorder", "LogWriteError"]

#: ``record(direction, line, time.time())``; direction ``"out"`` (to the bot) or ``"in"``.
LineRecorder = Callable[[str, str, float], None]


class Transcript:
    """``logs/<match>.jsonl``: every line in both directions with its time.

    One JSON object per line: ``t`` (seconds since the match started),
    ``seat``, ``dir`` (``"out"``: referee to bot, ``"in"``: bot to referee)
    and either ``msg`` (the line as a JSON object) or ``raw`` (the line as a
    JSON string, when it is not strict JSON: see :mod:`referee.seat.strictjson`),
    or a ``note`` of the referee. A bot's object is re-encoded (compact,
    ASCII-only), never copied: a duplicate key, a raw U+2028 or control
    character cannot reach the file, and every line of it is strict JSON.

    Writing never raises: a bot's connection records lines from deep inside
    its reads and writes, where a full disk must not look like the bot's
    fault. The first ``OSError`` (ENOSPC, EIO, ...) stops the file and is kept
    in :attr:`error`; the match runner checks it after every step and ends the
    match with a :class:`LogWriteError`.
    """

    def __init__(self, path: Path | None):
        self.path = path
        #: The first write error, as the :class:`LogWriteError` the runner raises.
        self.error: LogWriteError | None = None
        try:
            self._fh = open(path, "w", encoding="utf-8", buffering=1 << 16) if path else None
        except OSError as exc:
            raise LogWriteError(path, exc) from None
        self._t0 = time.time()
        #: ``(line, parsed)`` of the last bot line recorded that is a JSON
        #: object: the runner reuses the parse instead of decoding it again.
        self.last_in: tuple[str, Any] | None = None

    def _failed(self, exc: OSError) -> None:
        if self.error is None:
            self.error = LogWriteError(self.path, exc)
        fh, self._fh = self._fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError:
                pass

    def for_seat(self, seat: int) -> LineRecorder | None:
        if self._fh is None:
            return None
        t0 = self._t0
        out_head = f',"seat":{seat},"dir":"out","msg":'
        in_head = f',"seat":{seat},"dir":"in","msg":'
        raw_head = f',"seat":{seat},"dir":"in","raw":'

        def record(direction: str, line: str, t: float) -> None:
            # The referee's own lines are JSON objects: embedded as they are.
            # A bot's line is embedded, re-encoded, when it is a strict JSON
            # object, else it is quoted as a raw string.
            if direction == "out":
                text = f'{{"t":{t - t0:.6f}{out_head}{line}}}\n'
            else:
                obj = None
                if line[:1] == "{":
                    try:
                        obj = decode(line)
                        body = encode(obj)
                    except (StrictJSONError, ValueError, RecursionError):
                        obj = None
                if obj.__class__ is dict:
                    self.last_in = (line, obj)
                    text = f'{{"t":{t - t0:.6f}{in_head}{body}}}\n'
                else:
                    text = f'{{"t":{t - t0:.6f}{raw_head}{json.dumps(line)}}}\n'
            fh = self._fh
            if fh is None:
                return
            try:
                fh.write(text)
            except OSError as exc:
                self._failed(exc)

        return record

    def note(self, text: str) -> None:
        if self._fh is not None:
            try:
                self._fh.write(json.dumps({"t": round(time.time() - self._t0, 6), "note": text}) + "\n")
            except OSError as exc:
                self._failed(exc)

    def close(self) -> None:
        """Flush and close the file; a failure is kept in :attr:`error`, never raised."""
        fh, self._fh = self._fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError as exc:
                self._failed(exc)


class LogWriteError(Exception):
    """A match log could not be written (a full disk, an I/O error): the referee's failure, not a bot's."""

    def __init__(self, path: Path | None, exc: OSError):
        self.path, self.errno = path, exc.errno
        why = exc.strerror or str(exc)
        super().__init__(f"cannot write the match log {path}: {why}"
                         + (f" (errno {exc.errno})" if exc.errno else "")
                         + "; the match was abandoned, nothing of it is recorded")
