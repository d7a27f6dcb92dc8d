"""Where a match starts: hand 1 at 0-0, or a later hand with the scores and bags of that moment.

Starting at hand K replays the deals of a seed from hand K on (the dealer or
first player of hand K, its deal from the seed unless one is given), so a bot
author can go straight to the hand where their bot went wrong.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

__all__ = ["MatchStart"]


@dataclasses.dataclass(frozen=True)
class MatchStart:
    """The first hand to play and the totals carried into it (per side)."""

    hand: int = 1
    score: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if isinstance(self.hand, bool) or not isinstance(self.hand, int) or self.hand < 1:
            raise ValueError(f"the first hand must be a whole number from 1, got: {self.hand!r}")
        for label, pair in (("score", self.score), ("bags", self.bags)):
            if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
                raise ValueError(f"{label} must be two whole numbers, one per side, got: {pair!r}")
        if min(self.bags) < 0:
            raise ValueError(f"bags cannot be negative, got: {self.bags!r}")
        object.__setattr__(self, "score", tuple(self.score))
        object.__setattr__(self, "bags", tuple(self.bags))

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "score": list(self.score), "bags": list(self.bags)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchStart:
        return cls(int(data["hand"]), tuple(data["score"]), tuple(data["bags"]))
