"""The one interface of a seat's connection, and the base for wrapping one.

The match runner talks to every seat through :class:`Transport` and nothing
else: no method is probed for, none is optional. A bot process
(:class:`~referee.seat.botprocess.BotProcess`) implements all of it; an
in-process fake (:class:`~referee.seat.scripted.ScriptedTransport`) writes the
two abstract methods and inherits defaults that are right for a seat which
never blocks and never falls behind.

A wrapper that adds a concern to another transport (recording for check-bot,
cancellation for tournaments) derives from :class:`ForwardingTransport`: it
forwards every method, so a wrapper can never lack one, and it overrides only
what it changes. A test checks that the forwarding base covers the whole
interface.

Errors: every method that talks to the bot raises
:class:`~referee.seat.faults.BotFault` when the bot misbehaves, and nothing
else because of the bot.
"""

from __future__ import annotations

import abc
from typing import Any, Callable, Sequence

from referee.seat.faults import BotFault

__all__ = ["Transport", "ForwardingTransport", "Meanwhile"]

#: The caller's work that :meth:`Transport.request_overlapped` runs between
#: writing a request and reading its answer.
Meanwhile = Callable[[], None]


class Transport(abc.ABC):
    """What the match runner needs from one seat's connection.

    Lines are text without their ``"\\n"``. Times are seconds.
    """

    #: Seconds the start took; the runner deducts them from the start-up allowance.
    spawn_s: float = 0.0

    def start(self) -> None:
        """Start the seat (a process: spawn it). Raises ``BotFault`` if it cannot start."""

    @abc.abstractmethod
    def send(self, line: str) -> None:
        """Deliver one event line."""

    def send_lines(self, lines: Sequence[str]) -> None:
        """Deliver several event lines, in order (a process: with one write)."""
        for line in lines:
            self.send(line)

    def try_send_lines(self, lines: Sequence[str]) -> bool:
        """Deliver the lines only if that cannot wait; False, having sent nothing, if it would.

        The runner uses it while another seat's clock runs, so it must never
        block. A seat that never blocks delivers them and says True.
        """
        self.send_lines(lines)
        return True

    @abc.abstractmethod
    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        """Send a request line and return ``(answer line, seconds it took)``.

        Raises ``BotFault(TIMEOUT)`` when no answer comes within ``timeout_s``.
        """

    def request_overlapped(self, line: str, timeout_s: float, meanwhile: Meanwhile | None) -> tuple[str, float]:
        """:meth:`request`, running ``meanwhile()`` after the request is out and before
        the answer is taken; ``meanwhile``'s exceptions propagate.

        The default suits a seat that answers at once: it asks, then runs
        ``meanwhile``, then hands over the answer.
        """
        answer = self.request(line, timeout_s)
        if meanwhile is not None:
            meanwhile()
        return answer

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        """Read one more line without sending anything (after a stale answer was skipped).

        The default is a seat with nothing more to say: it times out.
        """
        raise BotFault.timeout(timeout_s)

    def discard_pending(self) -> int:
        """Drop output that arrived unasked (a late answer after a timeout); return its size."""
        return 0

    def check_unexpected(self) -> None:
        """Raise ``BotFault(UNEXPECTED)`` if the seat wrote something nobody asked for."""

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        """End the seat and release what it holds; return its exit code. Idempotent."""
        return 0

    def sandbox_in_force(self) -> dict[str, Any] | None:
        """What confined the seat (namespaces, uid, cgroup, limits, fair clock), for the
        match record; None for a seat that is no process (it runs inside the referee)."""
        return None


class ForwardingTransport(Transport):
    """A transport that passes every call to ``inner``, through :meth:`_forward`.

    Subclasses override the methods whose behaviour they change, or
    :meth:`_forward` to wrap every call at once.
    """

    def __init__(self, inner: Transport):
        self.inner = inner

    def _forward(self, method: Callable[..., Any], *args: Any) -> Any:
        """Call ``method`` (a bound method of ``inner``) with ``args``."""
        return method(*args)

    def start(self) -> None:
        try:
            self._forward(self.inner.start)
        finally:
            self.spawn_s = self.inner.spawn_s

    def send(self, line: str) -> None:
        self._forward(self.inner.send, line)

    def send_lines(self, lines: Sequence[str]) -> None:
        self._forward(self.inner.send_lines, lines)

    def try_send_lines(self, lines: Sequence[str]) -> bool:
        return bool(self._forward(self.inner.try_send_lines, lines))

    def request(self, line: str, timeout_s: float) -> tuple[str, float]:
        return self.request_overlapped(line, timeout_s, None)

    def request_overlapped(self, line: str, timeout_s: float, meanwhile: Meanwhile | None) -> tuple[str, float]:
        result: tuple[str, float] = self._forward(self.inner.request_overlapped, line, timeout_s, meanwhile)
        return result

    def read_line(self, timeout_s: float) -> tuple[str, float]:
        result: tuple[str, float] = self._forward(self.inner.read_line, timeout_s)
        return result

    def discard_pending(self) -> int:
        return int(self._forward(self.inner.discard_pending))

    def check_unexpected(self) -> None:
        self._forward(self.inner.check_unexpected)

    def close(self, grace_s: float = 1.0, term_s: float = 1.0) -> int | None:
        result: int | None = self._forward(self.inner.close, grace_s, term_s)
        return result

    def sandbox_in_force(self) -> dict[str, Any] | None:
        result: dict[str, Any] | None = self._forward(self.inner.sandbox_in_force)
        return result
