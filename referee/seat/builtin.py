"""The bundled bots by name: ``builtin:heuristic`` instead of a path to a script.

A bot command whose first word is ``builtin:NAME`` runs the bundled bot
``NAME`` (any further words are its arguments: ``builtin:strong --budget
40ms``). This module is the one place that turns such a command into the real
one; the match (:func:`referee.match.bot_process`), the tournament config and
the command line all go through :func:`resolve`, so a config or a ``--bot``
that names a built-in works from any folder, from a clone of the repository
or after a plain ``pip install``.

Where the bots are: in a clone, the ``bots/`` folder next to the ``referee``
package; in an installed wheel, the package ``spades_bots``, which is that same
folder shipped by the packaging (``setup.py`` maps it).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Sequence

__all__ = ["PREFIX", "Builtin", "BUILTINS", "BuiltinError", "bots_dir", "builtin_name", "resolve"]

PREFIX = "builtin:"


@dataclasses.dataclass(frozen=True)
class Builtin:
    """One bundled bot: its name, its file under ``bots/``, its own options and what runs it."""

    name: str
    path: str  # relative to the bots folder
    language: str
    summary: str
    options: tuple[str, ...] = ()  # always passed first (``level-3`` is ``strong_bot.py --level 3``)

    @property
    def interpreter(self) -> list[str]:
        """The program that runs the script: this Python, or node."""
        return [sys.executable] if self.path.endswith(".py") else ["node"]

    def argv(self, args: Sequence[str] = ()) -> list[str]:
        """The full command of this bot, with extra ``args``."""
        return [*self.interpreter, str(bots_dir() / self.path), *self.options, *args]

    def available(self) -> bool:
        """Whether its file and its interpreter are present on this machine."""
        return (bots_dir() / self.path).is_file() and shutil.which(self.interpreter[0]) is not None


BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    Builtin("random", "random_bot.py", "Python", "random legal answers; the model for newcomers"),
    Builtin("heuristic", "heuristic_bot.py", "Python", "counts likely tricks to bid, follows low, wins cheaply"),
    Builtin("strong", "strong_bot.py", "Python", "samples the hidden cards and searches each sample"),
    Builtin("random-js", "js/random_bot.js", "JavaScript (node)", "random legal answers"),
    Builtin("heuristic-js", "js/heuristic_bot.js", "JavaScript (node)", "the heuristic bot in JavaScript"),
    # The strength ladder (bots/strong/levels.py, docs/bots.md); summaries as in LEVELS there.
    *(Builtin(f"level-{n}", "strong_bot.py", "Python", f"ladder {n}/5: {summary}", ("--level", str(n)))
      for n, summary in enumerate((
          "legal play and sane bids, mostly random cards",
          "rules of thumb: wins cheaply, ducks, covers; slips now and then",
          "the strong bot's rule policy with simulated bids and Nil, no search",
          "searches sampled deals on a small budget; no Blind Nil",
          "the full strong bot: search, simulated bids, Blind Nil",
      ), start=1)),
)}


class BuiltinError(ValueError):
    """A ``builtin:`` command that names no bundled bot."""


def bots_dir() -> Path:
    """The folder of the bundled bots: the clone's ``bots/``, else the installed ``spades_bots``."""
    clone = Path(__file__).resolve().parent.parent.parent / "bots"
    if (clone / "random_bot.py").is_file():
        return clone
    spec = importlib.util.find_spec("spades_bots")
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return clone  # missing either way: the bot then fails to start, naming this path


def _words(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()
    return [os.fspath(w) for w in command]


def builtin_name(command: str | Sequence[str]) -> str | None:
    """``"heuristic"`` for ``builtin:heuristic ...``; None for any other command."""
    words = _words(command)
    if words and words[0].startswith(PREFIX):
        return words[0][len(PREFIX):]
    return None


def resolve(command: str | Sequence[str]) -> str | Sequence[str]:
    """The command to run: a ``builtin:NAME`` command as the bundled bot's argv, others unchanged.

    Raises :class:`BuiltinError` naming the known bots when ``NAME`` is none of them.
    """
    name = builtin_name(command)
    if name is None:
        return command
    bot = BUILTINS.get(name)
    if bot is None:
        raise BuiltinError(f"no bundled bot named {name!r}, got: {PREFIX + name!r}; "
                           f"known: {', '.join(PREFIX + n for n in BUILTINS)} (see `spades bots`)")
    return bot.argv(_words(command)[1:])
