"""What a sandboxed bot may see: the paths found from its command, and small path helpers.

:func:`bot_paths` reads a bot's command the way the sandbox needs it: the
folders of the files it names (its script, its program, a jar), the package of
``python -m``, the interpreter installations on its ``PATH``, terminals it
names, plus the extra paths of its config entry. :mod:`referee.seat.sandbox`
binds them into the bot's otherwise empty filesystem.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shlex
import shutil
import stat
import sys
from typing import Mapping, Sequence

__all__ = ["SYSTEM_PATHS", "BotPaths", "bot_paths", "under", "ancestors", "world_readable"]

#: Read-only system paths every interpreter needs (bound when present; symlinks kept).
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def under(path: str, roots: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or inside one."""
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def _install_root(path: str) -> str:
    """``/opt/node/bin/node`` -> ``/opt/node``: the folder an interpreter lives in."""
    parent = os.path.dirname(path)
    if os.path.basename(parent) in ("bin", "shims", "sbin"):
        return os.path.dirname(parent)
    return parent


def _python_module_dir(module: str, cwd: str, env: Mapping[str, str]) -> str | None:
    """Where ``python -m module`` finds its top package: cwd, PYTHONPATH, else this environment."""
    top = module.split(".")[0]
    if not top:
        return None
    roots = [cwd] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    for root in roots:
        base = os.path.join(root if os.path.isabs(root) else os.path.join(cwd, root), top)
        if os.path.isdir(base):
            return base
        if os.path.isfile(base + ".py"):
            return os.path.dirname(base)
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin in (None, "built-in", "frozen"):
        return None
    if spec.submodule_search_locations:
        return os.path.dirname(spec.origin) if spec.origin else None
    return os.path.dirname(spec.origin)


def _char_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


def _tty(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode) and path.startswith("/dev/pts/")
    except OSError:
        return False


@dataclasses.dataclass
class BotPaths:
    ro: list[str]  # folders and files to bind read-only
    rw: list[str]  # files and folders to bind read-write (the config's rw_paths)
    dev: list[str]  # terminals to bind


def bot_paths(argv: Sequence[str], cwd: str, env: Mapping[str, str], extra_ro: Sequence[str] = (),
              extra_rw: Sequence[str] = ()) -> BotPaths:
    """What a bot's command needs to see, found from the command itself.

    The folders of the files it names (its script, its program, a jar), the
    package of ``python -m``, the interpreter installations on its ``PATH``,
    the referee's own Python, terminals it names in its arguments or
    environment, and the extra paths of its config entry.
    """
    ro: list[str] = []
    dev: list[str] = []
    home = os.path.realpath(os.path.expanduser("~"))

    def too_wide(path: str) -> bool:
        """A whole top-level folder or the home folder: far more than a bot's own folder
        (`--log /tmp/x` must not bind all of /tmp); only extra_ro_paths give those."""
        return path.count("/") <= 1 or path == home

    def add_named(word: str) -> None:
        if not word or word.startswith("-") and "=" not in word:
            return
        if word.startswith("-"):
            word = word.split("=", 1)[1]
        path = os.path.realpath(os.path.join(cwd, os.path.expanduser(word)))
        if path == "/" or not os.path.exists(path):
            return
        if _tty(path):
            dev.append(path)
        elif os.path.isdir(path):
            ro.append(path)
        else:
            folder = os.path.dirname(path)
            # A script straight in /tmp or the home folder: that file alone, not the whole folder.
            ro.append(path if too_wide(folder) else folder)

    words = list(argv[1:])
    for word in argv[1:]:
        if " " in word:  # a command given as an argument (the human adapter's --partner-bot)
            try:
                words.extend(shlex.split(word))
            except ValueError:
                pass
    for i, word in enumerate(words):
        if word == "-m" and i + 1 < len(words):
            found = _python_module_dir(words[i + 1], cwd, env)
            if found is not None:
                ro.append(os.path.realpath(found))
        add_named(word)
    program = argv[0]
    search = env.get("PATH", os.defpath)
    if "/" in program:
        add_named(program)
    else:
        found_exe = shutil.which(program, path=search)
        if found_exe is not None:
            ro.append(_install_root(os.path.realpath(found_exe)))
    for entry in search.split(os.pathsep):
        if entry and os.path.isabs(entry) and os.path.isdir(entry):
            ro.append(_install_root(os.path.join(os.path.realpath(entry), "x")))
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        ro.append(os.path.realpath(prefix))
    for value in env.values():
        if value.startswith("/dev/pts/") and _tty(value):
            dev.append(value)
    rw = [os.path.realpath(p) for p in extra_rw]
    for path in rw:
        if _char_device(path):  # a device needs a device bind (plain binds are nodev)
            dev.append(path)
    rw = [p for p in rw if p not in dev]
    ro = [p for p in ro if not too_wide(p)]
    ro.extend(os.path.realpath(p) for p in extra_ro)
    return BotPaths(ro=_outermost([p for p in ro if os.path.exists(p) and not under(p, SYSTEM_PATHS)]),
                  rw=_outermost(rw), dev=sorted(set(dev)))


def ancestors(path: str) -> list[str]:
    """``/a/b/c`` -> ``/a``, ``/a/b``: the folders above a path, "/" left out."""
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _outermost(paths: list[str]) -> list[str]:
    """The paths with every one inside another dropped, sorted."""
    out: list[str] = []
    for p in sorted(set(paths)):
        if not out or not under(p, out):
            out.append(p)
    return out


def world_readable(path: str) -> bool:
    """Whether any user may read ``path`` (and enter it, for a folder): a seat's own uid can."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    need = (stat.S_IROTH | stat.S_IXOTH) if stat.S_ISDIR(mode) else stat.S_IROTH
    return mode & need == need
