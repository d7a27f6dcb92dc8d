"""One line of ``matches.jsonl``: a record, or a reason why it is not one.

A results file is user input as much as a config is: an editor, a copy or a
hostile hand can put anything in it. :func:`decode_record` never raises: a
line nested too deeply for the decoder, a number out of range (``1e400``
decodes to infinity, which no record holds and which the integrity check
cannot even encode), ``NaN``, bytes that are not UTF-8 or a value that is
not an object with a ``match`` id are each refused with a short reason that
the reader quotes next to the line number.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

__all__ = ["decode_record", "unreadable_matches"]


class _NotARecord(ValueError):
    pass


def _finite(text: str) -> float:
    """A JSON number (or one of Python's ``NaN``/``Infinity`` words) that a record may hold: a finite one."""
    if not math.isfinite(value := float(text)):
        raise _NotARecord(f"the number {text[:24]} is out of range (not finite)")
    return value


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_finite)


def decode_record(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """The record on ``raw`` (one line, newline or not) and ``""``; or None and why not."""
    try:
        value = _DECODER.decode(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"it is not UTF-8 text (byte {exc.start + 1})"
    except _NotARecord as exc:
        return None, str(exc)
    except json.JSONDecodeError as exc:
        return None, f"it is not JSON ({exc.msg} at column {exc.colno})"
    except RecursionError:
        return None, "it nests too deeply to decode"
    except ValueError as exc:  # e.g. Python's limit on the digits of an integer
        return None, f"it is not a readable JSON value ({str(exc)[:80]})"
    if not isinstance(value, dict):
        return None, f"it is a JSON {type(value).__name__}, not an object"
    if not isinstance(value.get("match"), str):
        return None, f"it has no string 'match' id (got: {str(value.get('match'))[:40]!r})"
    return value, ""


def unreadable_matches(path: Path, exc: OSError) -> str:
    """Why a results file cannot be opened, and what to do about it."""
    shown = os.fspath(path)
    if Path(path).is_dir():
        return (f"{shown} is a folder, not the file of match records; move it aside (e.g. "
                f"`mv {shown} {shown}.folder`) and run again")
    return f"cannot read {shown}: {exc.strerror or exc}"
