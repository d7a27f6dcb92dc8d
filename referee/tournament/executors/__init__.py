"""Executors: where a tournament's matches are played (the executor seam, see :mod:`.base`).

``EXECUTORS`` maps each executor kind to its class; adding an executor is a
new module here plus its line in that table.
"""

from __future__ import annotations

from referee.tournament.executors.base import Executor, MatchCancelled, MatchDone, MatchFailed, Outcome
from referee.tournament.executors.local import LocalExecutor

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "MatchCancelled", "MatchDone", "MatchFailed", "Outcome"]

EXECUTORS: dict[str, type[Executor]] = {cls.name: cls for cls in (LocalExecutor,)}
