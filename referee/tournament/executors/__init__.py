"""Executors: where a tournament's matches are played (the executor seam, see :mod:`.base`).

``EXECUTORS`` maps each executor kind to its class; adding an executor is a
new module here plus its line in that table.
"""

from __future__ import annotations

from referee.tournament.executors.base import (Executor, ExecutorError, ExecutorSettings, MatchCancelled, MatchDone,
                                               MatchFailed, Outcome)
from referee.tournament.executors.dask import DaskExecutor
from referee.tournament.executors.local import LocalExecutor

__all__ = ["EXECUTORS", "DaskExecutor", "Executor", "ExecutorError", "ExecutorSettings", "LocalExecutor",
           "MatchCancelled", "MatchDone", "MatchFailed", "Outcome"]

# DaskExecutor imports Dask only when it starts: the table works without the extra.
EXECUTORS: dict[str, type[Executor]] = {cls.name: cls for cls in (LocalExecutor, DaskExecutor)}
