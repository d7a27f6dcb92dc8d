"""The progress line of a running tournament: done/total, elapsed, ETA, leader."""

from __future__ import annotations

import shutil
import time
from typing import TextIO

__all__ = ["Progress"]


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Matches done/total, elapsed, ETA and the current leader, on stderr.

    On a terminal one line is redrawn in place; otherwise (a log file, CI) a
    plain line is written at most every ``interval_s`` seconds, and at the end.
    Messages printed meanwhile go through :meth:`message` so they never get
    mixed into the progress line.
    """

    def __init__(self, stream: TextIO, total: int | None, already: int, *, tty: bool | None = None,
                 interval_s: float = 10.0, width: int = 24):
        self.stream, self.total, self.already = stream, total, already
        self.tty = stream.isatty() if tty is None else tty
        self.interval_s, self.width = interval_s, width
        self.t0 = time.monotonic()
        self.done = already
        self.leader = ""
        self._last_plain = 0.0
        self._last_draw = 0.0
        self._last_text = ""
        self._drawn = False

    def _line(self) -> str:
        elapsed = time.monotonic() - self.t0
        lead = f"  leader {self.leader}" if self.leader else ""
        if self.total is None:  # a format that decides as it goes: no total, no ETA
            return f"{self.done} matches  elapsed {_clock(elapsed)}{lead}"
        played = self.done - self.already
        remaining = self.total - self.done
        eta = _clock(elapsed / played * remaining) if played and remaining else ("0:00" if not remaining else "?")
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        return (f"[{bar}] {self.done}/{self.total} matches  elapsed {_clock(elapsed)}  ETA {eta}{lead}")

    def update(self, done: int, leader: str = "", *, force: bool = False) -> None:
        """Record progress and redraw (TTY) or print a line when it is due."""
        self.done, self.leader = done, leader
        now = time.monotonic()
        if self.tty:
            self._draw()
        elif force or now - self._last_plain >= self.interval_s:
            line = self._line()
            if line != self._last_text:  # e.g. the final line, when it was just printed
                self.stream.write(line + "\n")
                self.stream.flush()
            self._last_plain, self._last_text = now, line

    def tick(self) -> None:
        """Refresh the clock on a terminal (at most once a second)."""
        if self.tty and time.monotonic() - self._last_draw >= 1.0:
            self._draw()

    def _draw(self) -> None:
        # One screen line at most: a wrapped line could not be redrawn in place.
        width = shutil.get_terminal_size((100, 24)).columns - 1
        self.stream.write("\r\x1b[2K" + self._line()[:max(width, 20)])
        self.stream.flush()
        self._drawn = True
        self._last_draw = time.monotonic()

    def message(self, text: str) -> None:
        """Print a line without breaking the progress display."""
        if self.tty and self._drawn:
            self.stream.write("\r\x1b[2K")
        self.stream.write(text + "\n")
        if self.tty and self._drawn:
            self._draw()
        else:
            self.stream.flush()

    def finish(self) -> None:
        """Leave the last state on screen and end the line."""
        if self.tty:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
        else:
            self.update(self.done, self.leader, force=True)
