"""JSON Schemas of protocol v1, and validation of messages against them.

The schemas live next to this module as package data (``referee/seat/schemas/*.json``,
draft 2020-12), one per message type in each direction, with the shared
definitions (card, seat, state, ...) in ``common.json``. Schemas ``$ref``
``common.json`` by a relative reference, so any file-based tool resolves it
from the sibling file; here the references resolve through a
:class:`referencing.Registry` built from the packaged files, never the network.

Schema names:

* referee -> bot: the message ``type`` (``hello``, ``hand_start``, ``hand``,
  ``drawn``, ``bid_made``, ``received``, ``played``, ``trick``, ``hand_end``,
  ``match_end``, ``error``, and the requests ``blind_nil``, ``keep``,
  ``discard``, ``pass``, ``bid``, ``play``);
* bot -> referee: ``answer-<request type>`` (``answer-hello``, ``answer-play``, ...).
  An answer has no ``type``: which schema applies depends on the request it answers.

A schema checks the shape of one message. It cannot check what depends on
the game (that an answer's ``id`` matches its request, that a card is held
or legal); the referee checks those and faults the bot.

Command line: ``python -m referee.seat.schemas LOG.jsonl ...`` validates every
message of match transcripts (``<output>/logs/<match>.jsonl``).
"""

from __future__ import annotations

import functools
import json
import sys
from importlib import resources
from typing import Any, Iterable, Literal, Sequence

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = [
    "ANSWER_SCHEMAS",
    "EVENT_TYPES",
    "MessageSchemaError",
    "OUT_SCHEMAS",
    "REQUEST_TYPES",
    "Direction",
    "load_schema",
    "main",
    "registry",
    "schema_name",
    "validate_message",
    "validate_transcript",
    "validator_for",
]

Direction = Literal["out", "in"]

#: Request types that ask for a decision (``hello`` is the start-up request).
REQUEST_TYPES: tuple[str, ...] = ("blind_nil", "keep", "discard", "pass", "bid", "play")
#: Event types (no ``id``, no answer).
EVENT_TYPES: tuple[str, ...] = ("hand_start", "hand", "drawn", "bid_made", "received", "played",
                                "trick", "hand_end", "match_end", "error")
#: Schema names of referee -> bot messages (= their ``type``).
OUT_SCHEMAS: tuple[str, ...] = ("hello", *EVENT_TYPES, *REQUEST_TYPES)
#: Schema names of bot -> referee answers, one per request type.
ANSWER_SCHEMAS: tuple[str, ...] = tuple(f"answer-{t}" for t in ("hello", *REQUEST_TYPES))
_ALL = frozenset(("common", *OUT_SCHEMAS, *ANSWER_SCHEMAS))


class MessageSchemaError(ValueError):
    """A message that does not match its protocol schema (or has no schema).

    ``schema`` is the schema name (None when none applies), ``errors`` the
    underlying :class:`jsonschema.ValidationError` objects (may be empty when
    no schema could be chosen).
    """

    def __init__(self, text: str, schema: str | None = None, errors: Sequence[ValidationError] = ()):
        super().__init__(text)
        self.schema = schema
        self.errors = list(errors)


def _schema_file(name: str) -> Any:
    return resources.files(__name__).joinpath(f"{name}.json")


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (e.g. ``"play"``, ``"answer-play"``, ``"common"``) as a fresh dict."""
    if name not in _ALL:
        raise KeyError(f"no protocol schema named {name!r}; known: {', '.join(sorted(_ALL))}")
    return json.loads(_schema_file(name).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def registry() -> Registry:
    """Every packaged schema, keyed by its file name (``common.json``, ``play.json``, ...).

    The registry has no ``retrieve`` hook, so a reference to anything else
    fails as unresolvable instead of being fetched: validation never touches
    the network.
    """
    return Registry().with_resources(
        (f"{n}.json", Resource.from_contents(load_schema(n), default_specification=DRAFT202012))
        for n in sorted(_ALL))


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    schema = registry()[f"{name}.json"].contents
    return Draft202012Validator(schema, registry=registry())


def schema_name(message: Any, direction: Direction, request_type: str | None = None) -> str:
    """The name of the schema that applies to ``message``.

    ``direction`` is ``"out"`` (referee -> bot; chosen by the message's
    ``type``) or ``"in"`` (bot -> referee; an answer is checked against the
    type of the request it answers, ``request_type``, e.g. ``"play"`` or
    ``"hello"``). Raises :class:`MessageSchemaError` when no schema applies.
    """
    if direction == "out":
        if not isinstance(message, dict):
            raise MessageSchemaError(f"a referee message must be a JSON object, got: {message!r:.80}")
        kind = message.get("type")
        if kind not in OUT_SCHEMAS:
            raise MessageSchemaError(f"no schema for referee message type {kind!r}; "
                                     f"known types: {', '.join(OUT_SCHEMAS)}")
        return str(kind)
    if direction == "in":
        if request_type not in ("hello", *REQUEST_TYPES):
            raise MessageSchemaError(f"an answer is validated against the request it answers: request_type must "
                                     f"be one of hello, {', '.join(REQUEST_TYPES)}; got: {request_type!r}")
        return f"answer-{request_type}"
    raise MessageSchemaError(f"direction must be 'out' (referee -> bot) or 'in' (bot -> referee), got: {direction!r}")


def validator_for(message: Any, direction: Direction, request_type: str | None = None) -> Draft202012Validator:
    """A validator for the schema that applies to ``message`` (see :func:`schema_name`)."""
    return _validator(schema_name(message, direction, request_type))


def _where(error: ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".") or "(the message)"


def validate_message(message: Any, direction: Direction, request_type: str | None = None) -> str:
    """Check ``message`` against its schema; return the schema name.

    Raises :class:`MessageSchemaError` naming the schema, where in the message
    the problem is and the offending value, e.g.
    ``play message does not match schema play.json: at state.hand[2]: 'AX' does not match '^[2-9TJQKA][CDHS]$'``.
    """
    name = schema_name(message, direction, request_type)
    errors = list(_validator(name).iter_errors(message))
    if errors:
        worst = best_match(errors)
        what = f"answer to {request_type}" if direction == "in" else f"{message.get('type')} message"
        more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
        raise MessageSchemaError(f"{what} does not match schema {name}.json: at {_where(worst)}: "
                                 f"{worst.message}{more}", name, errors)
    return name


def validate_transcript(lines: Iterable[str]) -> int:
    """Validate every message of a match transcript; return how many were checked.

    ``lines`` are the lines of ``logs/<match>.jsonl``: ``{"t", "seat", "dir",
    "msg"}`` per message, ``"raw"`` instead of ``"msg"`` for a bot line that was
    not a JSON object, and ``{"t", "note"}`` for faults. Answers are validated
    against the request last sent to the same seat; a ``raw`` line is an
    answer that matches no schema, and is reported as one. Raises
    :class:`MessageSchemaError` prefixed with the line number at the first bad
    message.
    """
    pending: dict[int, str] = {}  # seat -> type of the outstanding request
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        entry = json.loads(line)
        if "raw" in entry and "msg" not in entry:
            raw = str(entry["raw"])
            shown = repr(raw if len(raw) <= 80 else raw[:80] + "...")
            request = pending.get(entry.get("seat"))
            what = f"the answer to {request}" if request else "a bot line"
            raise MessageSchemaError(f"line {number} (seat {entry.get('seat')}, {entry.get('dir', 'in')}): {what} "
                                     f"is not a JSON object, so it matches no schema: got {shown}")
        if "msg" not in entry:
            continue
        seat, msg = entry["seat"], entry["msg"]
        try:
            if entry["dir"] == "out":
                validate_message(msg, "out")
                if "id" in msg:
                    pending[seat] = msg["type"]
            else:
                validate_message(msg, "in", pending.pop(seat, None))
        except MessageSchemaError as exc:
            raise MessageSchemaError(f"line {number} (seat {seat}, {entry['dir']}): {exc}", exc.schema,
                                     exc.errors) from None
        count += 1
    return count


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m referee.seat.schemas LOG.jsonl ...``: exit 0 when every message is valid, 1 otherwise."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m referee.seat.schemas LOG.jsonl [LOG.jsonl ...]", file=sys.stderr)
        return 2
    status = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                n = validate_transcript(fh)
        except (OSError, ValueError) as exc:  # MessageSchemaError and bad JSON are ValueErrors
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
        else:
            print(f"{path}: {n} messages valid")
    return status
