"""A path option or argument that refuses what the operating system cannot take, as a usage error.

``click.Path`` calls ``os.stat`` on the value, which raises ``ValueError``
(not ``OSError``) for a NUL: a traceback before any of our checks runs.
"""

from __future__ import annotations

import os
from typing import Any

import click

from referee.tournament.limits import MAX_PATH_CHARS, MAX_PATH_PART, quoted

__all__ = ["UserPath"]


class UserPath(click.Path):
    """``click.Path`` that refuses an empty path, a NUL and names longer than the file system takes (exit 2)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (str, bytes, os.PathLike)):
            text = os.fsdecode(value)
            if not text:
                self.fail("must be a path, got: ''", param, ctx)
            if "\0" in text:
                self.fail(f"must be a path without a NUL character, got: {quoted(text)}", param, ctx)
            if len(text) > MAX_PATH_CHARS or any(len(os.fsencode(p)) > MAX_PATH_PART for p in text.split("/")):
                self.fail(f"has a name longer than the file system allows ({MAX_PATH_PART} bytes a name, "
                          f"{MAX_PATH_CHARS} a path), got: {quoted(text)}", param, ctx)
        return super().convert(value, param, ctx)
