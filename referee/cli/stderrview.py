"""Bots' stderr for ``spades match``: live, prefixed by seat, and the end of it after a crash.

Both read the stderr logs the bot processes already write
(``<logs>/<match>.<seat>.stderr``), so nothing in the seat layer changes:
:class:`LiveStderr` follows the files as they grow, :func:`crash_tails` picks
the last lines of each seat that crashed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Sequence

from referee.cli.checkreport import STDERR_LINES, stderr_tail, visible
from referee.seat.faults import Fault, FaultKind

__all__ = ["LiveStderr", "crash_tails"]

_POLL_S = 0.05


class LiveStderr:
    """Copies every line the bots write to stderr to ``echo``, as ``[seat 1 name] line``.

    Use as a context manager around the match; the last lines are flushed on exit.
    """

    def __init__(self, paths: Sequence[Path | None], names: Sequence[str], echo: Callable[[str], None]):
        self._files = [(f"[seat {i} {names[i]}] ", p) for i, p in enumerate(paths) if p is not None]
        self._echo = echo
        self._offsets = [0] * len(self._files)
        self._partial = [b""] * len(self._files)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="live-stderr", daemon=True)

    def __enter__(self) -> LiveStderr:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sweep(final=True)

    def _run(self) -> None:
        while not self._stop.wait(_POLL_S):
            self._sweep(final=False)

    def _sweep(self, final: bool) -> None:
        for k, (prefix, path) in enumerate(self._files):
            try:
                with open(path, "rb") as fh:
                    fh.seek(self._offsets[k])
                    data = fh.read()
            except OSError:
                continue  # not created yet
            self._offsets[k] += len(data)
            lines = (self._partial[k] + data).split(b"\n")
            self._partial[k] = lines.pop()
            if final and self._partial[k]:
                lines.append(self._partial[k])
                self._partial[k] = b""
            for line in lines:
                self._echo(prefix + visible(line.decode("utf-8", errors="replace").rstrip("\r")))


def crash_tails(faults: Sequence[Fault], paths: Sequence[Path | None], names: Sequence[str]) -> list[str]:
    """For each seat whose first seat-ending fault is a crash (or a failed start), the end of its stderr."""
    out: list[str] = []
    seen: set[int] = set()
    for fault in faults:
        if fault.seat in seen or not fault.kind.ends_seat:
            continue
        seen.add(fault.seat)
        if fault.kind not in (FaultKind.CRASH, FaultKind.STARTUP):
            continue
        path = paths[fault.seat]
        lines = stderr_tail(path, STDERR_LINES)
        if not lines:
            continue
        out.append(f"Last {len(lines)} line{'s' if len(lines) != 1 else ''} of seat {fault.seat} "
                   f"({names[fault.seat]})'s stderr ({path}):")
        out.extend(f"  | {line}" for line in lines)
    return out
