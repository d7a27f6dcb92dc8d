"""The executor seam: where matches are played.

An executor takes match specs (:class:`referee.match.MatchSpec`, plain data),
plays them somewhere (threads of this process, other processes, other
machines) and hands back what came of each one as plain data too: a
:class:`MatchDone` with the record and any log files it could not write in
place, a :class:`MatchFailed` when the referee itself failed (never because
of a bot), or a :class:`MatchCancelled` after :meth:`Executor.cancel`.

The tournament runner is the only one that stores results: an executor never
writes ``matches.jsonl``. Every submitted match is answered exactly once by
:meth:`Executor.wait`, cancelled ones included, so the runner always knows
what is still running.

To add an executor: write a module in this package with a subclass of
:class:`Executor` and add it to ``EXECUTORS`` in ``executors/__init__.py``.
"""

from __future__ import annotations

import abc
import dataclasses
from typing import Any, ClassVar, Mapping, Sequence, Union

from referee.match import MatchSpec

__all__ = ["Executor", "MatchDone", "MatchFailed", "MatchCancelled", "Outcome"]


@dataclasses.dataclass(frozen=True)
class MatchDone:
    """A match played to its end."""

    match_id: str
    record: dict[str, Any]  # MatchRecord.to_dict()
    #: Log files (``name -> bytes``) for the results folder's ``logs/``, when the
    #: match ran where it could not write them in place; empty otherwise.
    logs: Mapping[str, bytes] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class MatchFailed:
    """The referee failed while playing the match (a bug or the machine, never a bot)."""

    match_id: str
    error: str  # "ExceptionType: message"


@dataclasses.dataclass(frozen=True)
class MatchCancelled:
    """The match was abandoned by :meth:`Executor.cancel`; nothing of it is kept."""

    match_id: str


Outcome = Union[MatchDone, MatchFailed, MatchCancelled]


class Executor(abc.ABC):
    """Plays submitted matches, at most :attr:`capacity` at once.

    Used by one thread (the runner's); :meth:`cancel` may also be called from
    a signal handler's thread of control, so it must not block.
    """

    #: The config's ``executor.kind`` value.
    name: ClassVar[str]

    @property
    @abc.abstractmethod
    def capacity(self) -> int:
        """How many matches it plays at once; the runner never submits more."""

    def start(self) -> None:
        """Acquire what the executor needs (workers, a cluster). Called once, before any submit."""

    @abc.abstractmethod
    def submit(self, spec: MatchSpec) -> None:
        """Start playing ``spec``; its outcome comes back from :meth:`wait` under ``spec.match_id``."""

    @abc.abstractmethod
    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        """Outcomes of matches that ended since the last call, waiting up to
        ``timeout_s`` for at least one; possibly empty."""

    @abc.abstractmethod
    def cancel(self) -> None:
        """Abandon every running match at once (their bots are ended). Does not wait:
        each comes back from :meth:`wait` as :class:`MatchCancelled`, or as
        :class:`MatchDone` if it finished first."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the workers once nothing runs. Idempotent."""
