"""Resource limits of one seat: what a bot's whole process tree may use.

:class:`SeatLimits` is plain data with the referee's defaults stated once;
a tournament config or the command line overrides single fields per bot.
:class:`Limit` is the closed set of limits, each with its unit and the words
of the fault a bot gets when it hits one ("exceeded its memory limit
(1024 MiB)").

How each is enforced (see :mod:`referee.seat.sandbox`):

* memory, processes: the seat's cgroup (v1 ``memory.limit_in_bytes``, v2
  ``memory.max``; ``pids.max``), counting the whole tree, scratch space on
  tmpfs included;
* file size, open files, CPU time: ``setrlimit`` on the sandbox's first
  process, inherited by every process of the bot (per process, as rlimits are);
* scratch space: the size of the private tmpfs mounts (``/tmp`` and the
  scratch folder) of the sandbox.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Mapping

__all__ = ["Limit", "SeatLimits"]


class Limit(str, enum.Enum):
    """One resource limit of a seat; the value is the config key (in its unit)."""

    MEMORY = "memory_mb"
    PROCESSES = "processes"
    FILE_SIZE = "file_mb"
    OPEN_FILES = "open_files"
    SCRATCH = "scratch_mb"
    CPU_TIME = "cpu_s"

    @property
    def label(self) -> str:
        """The limit's name in a fault: ``memory`` in "exceeded its memory limit"."""
        return _LABEL[self]

    def shown(self, value: int) -> str:
        """A value with its unit, as a fault states it: ``1024 MiB``."""
        return f"{value} {_UNIT[self]}"

    def fault_detail(self, value: int) -> str:
        """``exceeded its memory limit (1024 MiB)``: the detail of a ``limit`` fault."""
        return f"exceeded its {self.label} limit ({self.shown(value)})"


_LABEL = {Limit.MEMORY: "memory", Limit.PROCESSES: "process", Limit.FILE_SIZE: "file size",
          Limit.OPEN_FILES: "open files", Limit.SCRATCH: "scratch space", Limit.CPU_TIME: "CPU time"}
_UNIT = {Limit.MEMORY: "MiB", Limit.PROCESSES: "processes and threads", Limit.FILE_SIZE: "MiB",
         Limit.OPEN_FILES: "files", Limit.SCRATCH: "MiB", Limit.CPU_TIME: "s"}


@dataclasses.dataclass(frozen=True)
class SeatLimits:
    """The limits of one seat. The defaults suit every bundled bot with room to spare.

    ``cpu_s`` is CPU seconds per process over the whole match (a safety net
    against a runaway; the move clock is the real time limit).
    """

    memory_mb: int = 1024
    processes: int = 64
    file_mb: int = 64
    open_files: int = 256
    scratch_mb: int = 64
    cpu_s: int = 600

    def __post_init__(self) -> None:
        for limit in Limit:
            value = getattr(self, limit.value)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"limit {limit.value!r} must be an integer >= 1, got: {value!r}")

    def value(self, limit: Limit) -> int:
        """The value of one limit, in its unit."""
        return int(getattr(self, limit.value))

    def to_dict(self) -> dict[str, int]:
        """Plain data; :meth:`from_dict` reads it back."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatLimits:
        """The inverse of :meth:`to_dict`; keys left out keep their defaults."""
        unknown = set(data) - {limit.value for limit in Limit}
        if unknown:
            raise ValueError(f"unknown limit {sorted(unknown)[0]!r}; expected one of: "
                             + ", ".join(limit.value for limit in Limit))
        return cls(**dict(data))
