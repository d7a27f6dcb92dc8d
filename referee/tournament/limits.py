"""The bounds of user input: one place for every limit a config or command line must keep.

Values inside these bounds are what the referee and the tournament core are
built for; a value outside them is refused at the boundary (config loading,
the command-line options) with a message naming the key or option and
quoting the value, instead of reaching the core and failing there as an
``OverflowError`` (a 10^30 ms clock deadline), an ``OSError`` (a 300-char
file name), a log written outside its folder (``--match-id ../../x``) or a
schedule that eats the memory (``matches_per_pairing: 10^9``).
docs/tournaments.md lists them and why they exist.
"""

from __future__ import annotations

import re

__all__ = ["MAX_NAME_CHARS", "MAX_MATCH_ID_CHARS", "MAX_MS", "MAX_MATCHES_PER_PAIRING", "MAX_QUOTED_CHARS", "name_problem", "quoted",
           "ms_problem", "NAME_RE",
           "MAX_CONFIG_BYTES", "MAX_CONFIG_NODES", "MAX_CONFIG_DEPTH",
           "MAX_PATH_PART", "MAX_PATH_CHARS"]

#: A bot name or tournament name becomes part of a file name
#: (``results/<name>/``, and in match ids ``logs/<match>.<seat>.stderr``);
#: 255 bytes is the file-name limit of common file systems, and a
#: mixed-partnership match id holds four bot names.
MAX_NAME_CHARS = 48

#: A match id (``--match-id``) is a file name less ``.<seat>.stderr``.
MAX_MATCH_ID_CHARS = 240

#: The largest time allowance: one day in milliseconds. Clock deadlines
#: are computed as timestamps; 10^30 ms overflows them.
MAX_MS = 24 * 60 * 60 * 1000

#: More matches per pairing than this is a typo, not a tournament: the
#: schedule is built in memory before the first match.
MAX_MATCHES_PER_PAIRING = 100_000

#: A bad value is quoted back at most this long (a 50 MB seed is not shown whole).
MAX_QUOTED_CHARS = 80

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def quoted(value: object, limit: int = MAX_QUOTED_CHARS) -> str:
    """``repr(value)``, cut to ``limit`` characters with the full length said."""
    if isinstance(value, str) and len(value) > 4 * limit:  # never build the repr of a huge string
        return f"{value[:limit]!r}... ({len(value)} characters)"
    text = repr(value)
    size = len(value) if isinstance(value, str) else len(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({size} characters)"


def name_problem(value: object, what: str = "name", why: str = "it becomes part of a file name",
                 longest: int = MAX_NAME_CHARS) -> str | None:
    """Why ``value`` is not a file-name-safe name (None: it is one).

    Letters, digits and ``. _ + -``, starting with a letter or digit (so no
    path separator, no ``..``, no NUL, no hidden file), at most
    ``longest`` characters.
    """
    if isinstance(value, str) and NAME_RE.fullmatch(value) and len(value) <= longest:
        return None
    return (f"must be a {what} of letters, digits and . _ + - starting with a letter or digit, at most "
            f"{longest} characters ({why}), got: {quoted(value)}")


def ms_problem(value: int, low: int) -> str | None:
    """Why ``value`` milliseconds is out of bounds (None: it is within ``low`` .. :data:`MAX_MS`)."""
    if low <= value <= MAX_MS:
        return None
    return f"must be between {low} and {MAX_MS} (one day) milliseconds, got: {quoted(value)}"

#: A config file is a page of YAML; anything bigger is the wrong file
#: (``spades run /dev/zero`` would otherwise read until the memory is gone).
MAX_CONFIG_BYTES = 1 << 20

#: Nodes of a config once its aliases are expanded: a "billion laughs"
#: document of a few lines expands to 10^9 nodes.
MAX_CONFIG_NODES = 100_000

#: How deep a config may nest; the real ones are 4 deep.
MAX_CONFIG_DEPTH = 64

#: The longest file name (bytes) and path (characters) Linux file systems
#: take; longer ones fail deep inside as ``OSError: File name too long``.
MAX_PATH_PART = 255
MAX_PATH_CHARS = 4096
