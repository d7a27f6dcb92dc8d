"""Everything a bot can be faulted for, in one place.

* :class:`FaultKind`: the closed set of fault kinds (protocol v1, section
  Faults), each with the phrase a person reads and whether it ends the seat.
* :class:`FaultPolicy`: what the referee does after a fault.
* :class:`SeatFault` and its two subclasses, the exceptions the seat layer
  raises: :class:`BotFault` when the process breaks its contract (time,
  framing, exit), :class:`ProtocolFault` when an answer line breaks the
  protocol or the rules. The match runner catches :class:`SeatFault` alone.
* :class:`Fault`: a fault as the match record keeps it.

Free-form strings drift; these are what the match record, the standings and
the messages to bots are built from.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Mapping, Sequence

__all__ = ["FaultKind", "FaultPolicy", "SeatFault", "BotFault", "ProtocolFault", "Fault"]


class FaultKind(str, enum.Enum):
    """Why a bot was faulted (protocol v1, section Faults)."""

    TIMEOUT = "timeout"
    CRASH = "crash"
    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    OVERSIZE = "oversize"
    UNEXPECTED = "unexpected"
    STARTUP = "startup"
    LIMIT = "limit"

    @property
    def summary(self) -> str:
        """A short human phrase for this kind of fault."""
        return _FAULT_SUMMARY[self]

    @property
    def ends_seat(self) -> bool:
        """Whether no later answer of the bot can be trusted after this fault.

        After a crash, an oversize line, output with no request outstanding or
        a failed start the bot's stream position is unknown, so the referee
        reads nothing more from it (under ``substitute`` it decides for the
        seat). After a timeout, a malformed or an illegal answer the stream is
        still in step and the bot may go on.
        """
        return self in _ENDS_SEAT

    @property
    def stand_in(self) -> str:
        """The detail of each later fault of a seat this kind ended, under ``substitute``.

        The referee decides every later turn of such a seat and counts each as
        a fault of the same kind; the detail says what happened without
        claiming a crash that did not happen.
        """
        return _STAND_IN.get(self, f"the referee stopped reading this bot after its {self.value} fault "
                                   "and decides for it")


_FAULT_SUMMARY = {
    FaultKind.TIMEOUT: "ran out of time",
    FaultKind.CRASH: "exited or closed its output",
    FaultKind.MALFORMED: "sent a malformed answer",
    FaultKind.ILLEGAL: "made an illegal decision",
    FaultKind.OVERSIZE: "sent a line over the length limit",
    FaultKind.UNEXPECTED: "wrote to stdout with no request outstanding",
    FaultKind.STARTUP: "failed to start or to answer hello in time",
    FaultKind.LIMIT: "hit a resource limit of its sandbox",
}
_STAND_IN = {
    FaultKind.CRASH: "the bot is no longer running; the referee decides for it",
    FaultKind.OVERSIZE: "the referee stopped reading this bot after its over-long line and decides for it",
    FaultKind.UNEXPECTED: "the referee stopped reading this bot after its output with no request outstanding "
                          "and decides for it",
    FaultKind.LIMIT: "the bot was stopped by its sandbox limit; the referee decides for it",
}
# A bot that hit a limit was killed by it, or is left without what it needed.
_ENDS_SEAT = frozenset((FaultKind.CRASH, FaultKind.OVERSIZE, FaultKind.UNEXPECTED, FaultKind.STARTUP,
                        FaultKind.LIMIT))


class FaultPolicy(str, enum.Enum):
    """What the referee does when a bot faults."""

    FORFEIT = "forfeit"
    SUBSTITUTE = "substitute"


class SeatFault(Exception):
    """A bot broke its contract; ``kind`` classifies it.

    ``str(fault)`` is the detail alone, a sentence meant for the match record
    and the bot's ``error`` event.
    """

    def __init__(self, kind: FaultKind, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail

    def __str__(self) -> str:
        return self.detail

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind!r}, {self.detail!r})"

    def __reduce__(self) -> tuple[type[SeatFault], tuple[FaultKind, str]]:
        # Faults cross process boundaries when matches run in other processes.
        return (type(self), (self.kind, self.detail))


class BotFault(SeatFault):
    """The bot process broke the process-level contract (timeout, crash, oversize, ...)."""

    @classmethod
    def timeout(cls, timeout_s: float) -> BotFault:
        """No complete answer line within the allowance."""
        return cls(FaultKind.TIMEOUT, f"no answer within {round(timeout_s * 1000)} ms")

    @classmethod
    def unexpected(cls, quoted: str) -> BotFault:
        """Output with no request outstanding; ``quoted`` is the start of it, quoted."""
        return cls(FaultKind.UNEXPECTED, f"wrote to stdout with no request outstanding: {quoted}")


class ProtocolFault(SeatFault):
    """An answer line that breaks the protocol (``malformed``) or the rules (``illegal``)."""


@dataclasses.dataclass(frozen=True)
class Fault:
    """A recorded bot fault: one entry of a match record's ``faults``."""

    seat: int
    kind: FaultKind
    detail: str
    hand: int
    request: str | None = None  # the request that the faulty answer was for, if any

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value, "detail": self.detail, "hand": self.hand}
        if self.request is not None:
            out["request"] = self.request
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fault:
        """The inverse of :meth:`to_dict`."""
        return cls(int(data["seat"]), FaultKind(data["kind"]), str(data["detail"]), int(data["hand"]),
                   data.get("request"))

    @property
    def at_startup(self) -> bool:
        """Whether the fault happened before the first hand (starting the bot, or its ``hello``)."""
        return self.kind is FaultKind.STARTUP or (self.request or "").startswith('{"type":"hello"')

    def describe(self, names: Sequence[str]) -> str:
        """E.g. ``seat 2 (alpha) ran out of time in hand 3: no answer within 1000 ms``."""
        when = "at start-up" if self.at_startup else f"in hand {self.hand}"
        return f"seat {self.seat} ({names[self.seat]}) {self.kind.summary} {when}: {self.detail}"
