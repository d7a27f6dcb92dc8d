"""Who sits in a seat: plain data that says how to start a bot.

A :class:`SeatSpec` crosses process and machine boundaries inside a match
spec (see :class:`referee.match.MatchSpec`), so it holds only strings,
numbers and lists, and round-trips through :meth:`SeatSpec.to_dict`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from pathlib import Path
from typing import Any, Mapping, Sequence

from referee.seat.builtin import builtin_name
from referee.seat.clock import TimeControl
from referee.seat.sandbox import SandboxSpec

__all__ = ["SeatSpec", "bot_name"]

_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".rb", ".pl", ".sh", ".jar", ".exe", ".lua", ".php")
# Programs that run the bot rather than being it: never the bot's name.
_INTERPRETER_RE = re.compile(r"(python|pypy|node|nodejs|deno|ruby|perl|php|java|bash|sh|dash|zsh|lua|env|uv"
                             r"|Rscript)[\d.]*(\.exe)?")


def bot_name(command: str | Sequence[str]) -> str:
    """A short display name for a bot command: its script's or program's stem.

    ``python3 bots/heuristic_bot.py`` -> ``heuristic_bot``; ``./mybot --level 3``
    -> ``mybot``; ``python3 -m mybot`` -> ``mybot``. Option values are never
    taken for names: the first word that looks like a script wins, else the
    first word that is neither an interpreter nor an option. A bundled bot
    (``builtin:heuristic --level 2``) is named after itself (``heuristic``).
    """
    builtin = builtin_name(command)
    if builtin:
        return builtin
    if isinstance(command, str):
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
    else:
        words = [os.fspath(w) for w in command]
    for word in words:
        if word.lower().endswith(_SCRIPT_SUFFIXES) and not word.startswith("-"):
            return Path(word).stem
    for word in words:
        name = Path(word).name
        if not word.startswith("-") and "=" not in word and not _INTERPRETER_RE.fullmatch(name):
            return Path(word).stem or name
    return Path(words[0]).name if words else "bot"



@dataclasses.dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a display name and how to start the program."""

    name: str
    command: str | Sequence[str]
    cwd: str | os.PathLike[str] | None = None
    env: Mapping[str, str] | None = None
    time: TimeControl | None = None  # None: the match's default
    # Start the program in a session of its own (it leads a process group of
    # its own either way). For a program that uses the terminal, like the
    # human adapter: in the referee's session it would be a background group
    # and be stopped when reading the terminal. See BotProcess.
    new_session: bool = False
    # The seat's own sandbox settings (limits, extra paths); None: the match's.
    sandbox: SandboxSpec | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        return {"name": self.name,
                "command": self.command if isinstance(self.command, str) else [os.fspath(a) for a in self.command],
                "cwd": os.fspath(self.cwd) if self.cwd is not None else None,
                "env": dict(self.env) if self.env is not None else None,
                "time": self.time.to_dict() if self.time is not None else None,
                "new_session": self.new_session,
                "sandbox": self.sandbox.to_dict() if self.sandbox is not None else None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSpec:
        """The inverse of :meth:`to_dict`."""
        command = data["command"]
        return cls(name=data["name"], command=command if isinstance(command, str) else list(command),
                   cwd=data.get("cwd"), env=data.get("env"),
                   time=TimeControl.from_dict(data["time"]) if data.get("time") is not None else None,
                   new_session=bool(data.get("new_session", False)),
                   sandbox=SandboxSpec.from_dict(data["sandbox"]) if data.get("sandbox") is not None else None)
