"""The closed set of outcomes: fault kinds and match end reasons.

Free-form strings drift; these enums are what the match record, the standings
and the messages to bots are built from. Each member carries the template of
the sentence a person reads.
"""

from __future__ import annotations

import enum


class FaultKind(str, enum.Enum):
    """Why a bot was faulted (protocol v1, section Faults)."""

    TIMEOUT = "timeout"
    CRASH = "crash"
    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    OVERSIZE = "oversize"
    UNEXPECTED = "unexpected"
    STARTUP = "startup"

    @property
    def summary(self) -> str:
        """A short human phrase for this kind of fault."""
        return _FAULT_SUMMARY[self]


_FAULT_SUMMARY = {
    FaultKind.TIMEOUT: "ran out of time",
    FaultKind.CRASH: "exited or closed its output",
    FaultKind.MALFORMED: "sent a malformed answer",
    FaultKind.ILLEGAL: "made an illegal decision",
    FaultKind.OVERSIZE: "sent a line over the length limit",
    FaultKind.UNEXPECTED: "wrote to stdout with no request outstanding",
    FaultKind.STARTUP: "failed to start or to answer hello in time",
}


class EndReason(str, enum.Enum):
    """Why a match ended (protocol v1 ``match_end.reason``)."""

    TARGET = "target"
    MAX_HANDS = "max_hands"
    MERCY = "mercy"
    FORFEIT = "forfeit"

    def describe(self, winner: int | None, score: tuple[int, ...] | list[int]) -> str:
        """A sentence such as ``"side 0 wins by reaching the target (512 to 380)"``."""
        scores = " to ".join(str(s) for s in score)
        if winner is None:
            return _DRAW_TEMPLATES[self].format(scores=scores)
        return _WIN_TEMPLATES[self].format(winner=winner, scores=scores)


_WIN_TEMPLATES = {
    EndReason.TARGET: "side {winner} wins by reaching the target ({scores})",
    EndReason.MAX_HANDS: "side {winner} wins on score after the hand limit ({scores})",
    EndReason.MERCY: "side {winner} wins by the mercy rule ({scores})",
    EndReason.FORFEIT: "side {winner} wins by forfeit ({scores})",
}
_DRAW_TEMPLATES = {
    EndReason.TARGET: "draw at the target ({scores})",
    EndReason.MAX_HANDS: "draw on equal scores after the hand limit ({scores})",
    EndReason.MERCY: "draw under the mercy rule ({scores})",
    EndReason.FORFEIT: "draw: both sides forfeited ({scores})",
}


class FaultPolicy(str, enum.Enum):
    """What the referee does when a bot faults."""

    FORFEIT = "forfeit"
    SUBSTITUTE = "substitute"
