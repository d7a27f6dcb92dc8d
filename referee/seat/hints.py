"""The likely cause of a fault, for the classic mistakes of bot authors.

A :class:`Hint` names what a bot author most probably did wrong, as a
compiler's "did you mean" does. The set is closed: each member has its text
and :func:`hint_for` decides from the fault's kind, the request type and the
bot's raw answer line (not from the wording of the fault's detail, so the
parser's messages may change freely). Reporting faces (check-bot, ``spades
match``) print the hint under the fault; the referee's decisions never
depend on it.
"""

from __future__ import annotations

import enum
import json
import re
from typing import Any

from referee.seat.faults import FaultKind

__all__ = ["Hint", "hint_for"]


class Hint(enum.Enum):
    """A likely cause of a fault; the value is the sentence shown to the author."""

    FLUSH = "did the bot flush stdout after writing? Many languages buffer a pipe"
    EXITED = "the bot exited before it answered: its stderr says why (a wrong path, a missing module, an exception?)"
    STDOUT_IS_FOR_ANSWERS = "log to stderr; stdout is for answers"
    CARD_CASE = 'cards are rank then suit in upper case, e.g. "7C"'
    TEN_IS_T = 'ten is T: "TH", not "10H"'

    @property
    def text(self) -> str:
        """The sentence shown under the fault."""
        return str(self.value)


_CARD_ANY_CASE = re.compile(r"[2-9tjqka][cdhs]", re.IGNORECASE)
_TEN = re.compile(r"10[cdhs]|[cdhs]10", re.IGNORECASE)


def _answer_strings(obj: dict[str, Any]) -> list[str]:
    """The strings of an answer's fields (a card, a list of cards), ``id`` and ``name`` aside."""
    out: list[str] = []
    for key, value in obj.items():
        if key in ("id", "name"):
            continue
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    return out


def hint_for(kind: FaultKind, request_type: str | None, answer: str | None, exited: bool = False) -> Hint | None:
    """The likely cause of a fault, or None when none of the classic mistakes fits.

    ``request_type`` is the type of the request the fault concerns (``"hello"``,
    ``"play"``, ...; None if unknown), ``answer`` the bot's answer line as it
    arrived (None if none came) and ``exited`` whether the bot's process had
    ended (then it did not forget to flush: it never got that far).
    """
    if request_type == "hello" and answer is None and kind in (FaultKind.STARTUP, FaultKind.TIMEOUT):
        return Hint.EXITED if exited else Hint.FLUSH
    if kind is FaultKind.UNEXPECTED:
        return Hint.STDOUT_IS_FOR_ANSWERS  # nearly always a debug print, or an answer to an event
    if answer is None or kind is not FaultKind.MALFORMED:
        return None
    try:
        obj = json.loads(answer)
    except (ValueError, RecursionError):
        return Hint.STDOUT_IS_FOR_ANSWERS
    if not isinstance(obj, dict):
        return None
    values = _answer_strings(obj)
    if any(_TEN.fullmatch(v) for v in values):
        return Hint.TEN_IS_T
    if any(_CARD_ANY_CASE.fullmatch(v) and v != v.upper() for v in values):
        return Hint.CARD_CASE
    return None
