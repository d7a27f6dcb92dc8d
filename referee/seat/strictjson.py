"""Decoding a bot's line as strict JSON: one meaning, or a clear reason why not.

Python's ``json.loads`` accepts more than the protocol does, and fails in
ways a caller does not expect: ``NaN``, a key given twice (the last wins, so
the referee and a reader of the transcript could disagree about an answer),
U+2028/U+2029 (valid JSON, but line breaks to JavaScript and to many log
tools), lone UTF-16 surrogates (``"\\ud800"``: text that cannot be written as
UTF-8), and an integer of 4,301 digits raises a plain ``ValueError``.
:func:`decode` turns every one of these into :class:`StrictJSONError` with
a message for the fault record; it never raises anything else.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["StrictJSONError", "decode", "encode", "MAX_INT"]

#: The largest integer magnitude an answer may hold: 2**53 - 1, exact in
#: every JSON reader (JavaScript's doubles included). No protocol field
#: comes anywhere near it.
MAX_INT = 2 ** 53 - 1
# Digits of MAX_INT: longer numbers are refused before int() sees them, so
# Python's 4,300-digit conversion limit is never reached.
_MAX_DIGITS = len(str(MAX_INT))

# Lone surrogates, decoded from \uXXXX escapes (a raw one cannot come from UTF-8).
_SURROGATE = re.compile("[\ud800-\udfff]")
_LINE_SEPARATORS = re.compile("[\u2028\u2029]")


class StrictJSONError(ValueError):
    """The line is not strict protocol JSON; ``str(exc)`` says why."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise StrictJSONError(f"key {json.dumps(key)} appears twice in one object")
            seen.add(key)
    for key in obj:
        if _SURROGATE.search(key):
            raise StrictJSONError(f"key {json.dumps(key)} holds a lone UTF-16 surrogate (not text)")
    return obj


def _int(text: str) -> int:
    digits = len(text) - (text[:1] == "-")
    if digits > _MAX_DIGITS or abs(int(text)) > MAX_INT:
        shown = text if len(text) <= 24 else f"{text[:12]}...{text[-6:]} ({digits} digits)"
        raise StrictJSONError(f"integer {shown} is out of range (at most {MAX_INT} in magnitude)")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise StrictJSONError(f"number {text[:24]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_int, parse_float=_float,
                            parse_constant=_constant, strict=True)


def _check_strings(value: Any) -> None:
    """Refuse lone surrogates anywhere in a decoded value (keys are checked as parsed)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                raise StrictJSONError(f"string {json.dumps(v)[:40]} holds a lone UTF-16 surrogate (not text)")
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def decode(line: str) -> Any:
    """The value of one JSON line, or :class:`StrictJSONError` saying what is wrong with it."""
    match = _LINE_SEPARATORS.search(line)
    if match is not None:
        raise StrictJSONError(f"raw U+{ord(match.group()):04X} (a line separator to JavaScript) at column "
                              f"{match.start() + 1}; write it as an escape if you mean it")
    try:
        value = _DECODER.decode(line)
    except StrictJSONError:
        raise
    except json.JSONDecodeError as exc:
        raise StrictJSONError(f"{exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise StrictJSONError("it nests too deeply to decode") from None
    except (ValueError, OverflowError) as exc:  # anything else the decoder refuses, e.g. a conversion limit
        raise StrictJSONError(str(exc)) from None
    if "\\u" in line:  # lone surrogates come only from escapes: skip the walk for nearly every line
        _check_strings(value)
    return value


_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode


def encode(value: Any) -> str:
    """Compact, ASCII-only JSON of a value :func:`decode` returned: what goes into a transcript."""
    return _ENCODE(value)
