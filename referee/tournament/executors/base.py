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
A config chooses it with ``executor: {kind: <name>, ...}``: the class checks
its own settings (:meth:`Executor.check_settings`) and builds itself from
them (:meth:`Executor.from_settings`).
"""

from __future__ import annotations

import abc
import dataclasses
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence, Union

from referee.match import MatchSpec
from referee.seat.spec import SeatSpec

__all__ = ["Executor", "ExecutorError", "ExecutorSettings", "CommandCheck", "Say", "MatchDone", "MatchFailed",
           "MatchCancelled", "Outcome"]

#: Why a bot's command cannot start in a folder (None: it can): ``check(argv, cwd, env)``.
CommandCheck = Callable[[Sequence[str], Any, Mapping[str, str]], Union[str, None]]
Say = Callable[[str], None]


class ExecutorError(RuntimeError):
    """The executor cannot play matches (no cluster, a worker that cannot run a bot);
    the message says what and where, for the user."""


@dataclasses.dataclass(frozen=True)
class ExecutorSettings:
    """The config's ``executor:``: a kind (a name in ``EXECUTORS``) and that kind's own settings."""

    kind: str = "local"
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def overridden(self, kind: str | None, options: Mapping[str, Any], drop: Sequence[str] = ()) -> ExecutorSettings:
        """These settings with command-line choices on top: another ``kind`` starts from
        no options; ``drop`` names options the new ones replace (given or not)."""
        new_kind = kind or self.kind
        merged = {k: v for k, v in self.options.items() if k not in drop} if new_kind == self.kind else {}
        merged.update(options)
        return ExecutorSettings(new_kind, merged)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.options}


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

    @classmethod
    def check_settings(cls, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Problems with this kind's settings (all but ``kind``), as ``(key, message)``;
        the message quotes the bad value. By default an executor has no settings."""
        return [(key, f"not a setting of the {cls.name!r} executor (it takes none besides 'kind')")
                for key in options]

    @classmethod
    def from_settings(cls, options: Mapping[str, Any], *, concurrency: int, bots: Sequence[SeatSpec],
                      check: CommandCheck, say: Say | None, results: Path | None = None) -> Executor:
        """The executor a config's checked ``executor:`` settings describe.

        ``concurrency``: the tournament's; ``bots``: every bot of the config
        (for executors that must bring them to other machines); ``check``:
        tells whether a bot's command can start in a folder; ``say``: where
        to tell the user about the executor (None: nowhere); ``results``: the
        results folder (never shipped to workers).
        """
        raise ExecutorError(f"the {cls.name!r} executor cannot be chosen in a config")

    @property
    @abc.abstractmethod
    def capacity(self) -> int:
        """How many matches it plays at once; the runner never submits more."""

    @property
    def at_once(self) -> int:
        """How many matches actually play at the same time (what the user is told); at most
        :attr:`capacity`, which may also count matches queued where they will be played."""
        return self.capacity

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
