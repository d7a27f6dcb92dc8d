"""How a match ends: the closed set of end reasons.

Free-form strings drift; this enum is what the engine, the match record, the
standings and the ``match_end`` message are built from. Each member carries
the template of the sentence a person reads. (Why a *bot* was faulted is a
seat matter: :mod:`referee.seat.faults`.)
"""

from __future__ import annotations

import enum


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

