"""Protocol v1: referee messages built from the per-seat view, and bot answers parsed.

This module turns engine states and events into the JSON lines of protocol
v1 (docs/protocol.md) and turns a bot's answer line back into an engine
action. It holds no process or clock logic; the match runner does that.
Every request's ``state`` comes from :func:`referee.game.view.seat_view` and every
event from an engine event addressed to the seat, so no message can carry a
card the seat may not see.
"""

from __future__ import annotations

import json
from typing import Any

from referee.game.cards import CARD_NAMES, CardError, names_of, parse_card
from referee.game.engine import ALL, Event, IllegalAction, Phase, State, check_action, legal_bids, legal_play_mask
from referee.game.rules import Rules, Variant
from referee.game.view import ViewEncoder, cards_json, pairs_text, scalar_json, scalars_json, seat_view
from referee.seat.faults import FaultKind, ProtocolFault
from referee.seat.strictjson import StrictJSONError, decode

PROTOCOL_VERSION = 1
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

#: The answer field each request type expects.
ANSWER_FIELD = {
    Phase.BLIND_NIL: "blind_nil",
    Phase.KEEP: "keep",
    Phase.DISCARD: "cards",
    Phase.PASS: "cards",
    Phase.BID: "bid",
    Phase.PLAY: "card",
}


def answer_field(request_type: str) -> str:
    """The answer field of a request type given as its protocol name (``"discard"`` -> ``"cards"``)."""
    return ANSWER_FIELD[Phase(request_type)]


def dumps(message: dict[str, Any]) -> str:
    """One compact JSON line (no newline)."""
    return _dumps(message)


# --------------------------------------------------------------------------- referee -> bot


def hello(match_id: str, variant: Variant, seat: int, names: list[str], rules: Rules,
          move_ms: int | None, bank_ms: int) -> dict[str, Any]:
    """The ``hello`` request (id 0)."""
    return {"type": "hello", "id": 0, "protocol": PROTOCOL_VERSION, "match": match_id,
            "variant": variant.value, "seat": seat, "names": names, "rules": rules.to_dict(),
            "time": {"move_ms": move_ms, "bank_ms": bank_ms}}


def request(st: State, request_id: int, time: dict[str, Any]) -> dict[str, Any]:
    """The request for the seat to act, with its full view as ``state``."""
    seat = st.turn
    phase = st.phase
    view = seat_view(st, seat)
    view["time"] = time
    msg: dict[str, Any] = {"type": phase.value, "id": request_id}
    if phase is Phase.PLAY:
        msg["legal"] = names_of(legal_play_mask(st))
    elif phase is Phase.BID:
        msg["legal"] = legal_bids(st)
    elif phase is Phase.KEEP:
        msg["card"] = _pending_name(st)
    elif phase is Phase.DISCARD:
        msg["max"] = st.pending_count
    elif phase is Phase.PASS:
        msg["count"] = st.pending_count
        msg["to"] = st.pass_to
    msg["state"] = view
    return msg


def _pending_name(st: State) -> str:
    """The card a two-player drawer is looking at, in a ``keep`` request (the phase has one)."""
    card = st.pending_card
    if card is None:  # not a keep phase: a referee bug, never a bot's doing
        raise ValueError(f"no card is pending in phase {st.phase.value!r}")
    return CARD_NAMES[card]


def event_messages(event: Event, nseats: int) -> list[tuple[int, dict[str, Any]]]:
    """The protocol messages of one engine event, as ``(seat, message)`` pairs."""
    kind, data = event.kind, event.data
    if kind == "played":
        msg: dict[str, Any] = {"type": "played", "seat": data["seat"], "card": CARD_NAMES[data["card"]]}
    elif kind == "trick":
        msg = {"type": "trick", "cards": [[s, CARD_NAMES[c]] for s, c in data["cards"]], "winner": data["winner"]}
    elif kind == "bid_made":
        msg = {"type": "bid_made", "seat": data["seat"], "bid": data["bid"], "blind": data["blind"]}
    elif kind == "hand":
        msg = {"type": "hand", "cards": names_of(data["cards"])}
    elif kind == "drawn":
        msg = {"type": "drawn", "kept": CARD_NAMES[data["kept"]], "discarded": CARD_NAMES[data["discarded"]]}
    elif kind == "received":
        msg = {"type": "received", "cards": names_of(data["cards"]), "from": data["from"]}
    elif kind == "hand_start":
        msg = {"type": "hand_start", **{k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}}
    elif kind in ("hand_end",):
        msg = {"type": kind, **{k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}}
    elif kind == "match_end":
        reason = data["reason"]
        msg = {"type": "match_end", "score": list(data["score"]), "winner": data["winner"],
               "reason": reason.value if reason is not None else None}
    else:  # pragma: no cover - the engine's event kinds are a closed set
        raise ValueError(f"unknown engine event {kind!r}")
    if event.to == ALL:
        return [(seat, msg) for seat in range(nseats)]
    return [(event.to, msg)]


# --------------------------------------------------------------------------- the same, as JSON text
#
# What the match runner actually sends: :class:`Encoder` writes the lines of
# requests and events directly (see the note above
# :class:`referee.game.view.ViewEncoder`). Its output is exactly
# ``dumps(request(...))`` and ``dumps(message)`` for every message of
# :func:`event_messages`; tests/test_protocol_fast.py proves it on whole
# matches. Rare events (a hand's start and end, the match's end, exchanges)
# go through the dicts above and ``dumps``: they are too rare to matter.

_REQUEST_HEAD = {phase: f'{{"type":"{phase.value}","id":' for phase in Phase}
#: ``_PLAYED[seat][card]``: the whole ``played`` event line.
_PLAYED = tuple(tuple(f'{{"type":"played","seat":{seat},"card":"{name}"}}' for name in CARD_NAMES)
                for seat in range(4))
_TIME_KEYS = ("move_ms", "bank_ms")


class Encoder:
    """Turns requests and events into protocol lines, fast; one per match.

    Same output as the dict-building functions of this module followed by
    :func:`dumps`, written directly from engine values and precomputed
    fragments. Holds a per-match cache, so it is not thread-safe.
    """

    __slots__ = ("_view", "_bids", "_bids_text", "_time", "_time_text")

    def __init__(self) -> None:
        self._view = ViewEncoder()
        self._bids: tuple = ()
        self._bids_text = "[]"
        self._time: tuple = ()
        self._time_text = ""

    def request(self, st: State, request_id: int, time: dict[str, Any]) -> str:
        """``dumps(request(st, request_id, time))``."""
        if tuple(time) != _TIME_KEYS:
            time_json = _dumps(time)
        else:
            # The bank changes only when a bot goes over its move time: the
            # text is nearly always the one of the previous request. (Values
            # are ints or None, so equality is exact; scalar_json checks them.)
            key = time["move_ms"], time["bank_ms"]
            if key != self._time:
                self._time = key
                self._time_text = f'{{"move_ms":{scalar_json(key[0])},"bank_ms":{scalar_json(key[1])}}}'
            time_json = self._time_text
        phase = st.phase
        if phase is Phase.PLAY:
            extra = ',"legal":' + cards_json(legal_play_mask(st))
        elif phase is Phase.BID:
            bids = legal_bids(st)
            if bids is not self._bids:
                self._bids, self._bids_text = bids, scalars_json(bids)
            extra = ',"legal":' + self._bids_text
        elif phase is Phase.KEEP:
            extra = ',"card":"' + _pending_name(st) + '"'
        elif phase is Phase.DISCARD:
            extra = ',"max":' + scalar_json(st.pending_count)
        elif phase is Phase.PASS:
            extra = ',"count":' + scalar_json(st.pending_count) + ',"to":' + scalar_json(st.pass_to)
        else:
            extra = ""
        return "".join((_REQUEST_HEAD[phase], scalar_json(request_id), extra, ',"state":',
                        self._view.state_json(st, st.turn, time_json), "}"))

    def event(self, event: Event) -> str:
        """The line of an engine event: ``dumps`` of its message in :func:`event_messages`."""
        kind, data = event.kind, event.data
        if kind == "played":
            return _PLAYED[data["seat"]][data["card"]]
        if kind == "trick":
            return '{"type":"trick","cards":[' + pairs_text(data["cards"]) + '],"winner":' \
                + scalar_json(data["winner"]) + "}"
        if kind == "bid_made":
            return '{"type":"bid_made","seat":' + scalar_json(data["seat"]) + ',"bid":' \
                + scalar_json(data["bid"]) + ',"blind":' + scalar_json(data["blind"]) + "}"
        if kind == "hand":
            return '{"type":"hand","cards":' + cards_json(data["cards"]) + "}"
        return _dumps(event_messages(event, 1)[0][1])


def error(message: str) -> dict[str, Any]:
    """The ``error`` event sent to a bot that faulted."""
    return {"type": "error", "message": message}


# --------------------------------------------------------------------------- bot -> referee


def _quote(line: str, limit: int = 80) -> str:
    return repr(line if len(line) <= limit else line[:limit] + "...")


def _shown(value: Any, limit: int = 80) -> str:
    """A bot's value as JSON for a fault message, bounded, whatever it is (deep nesting included)."""
    try:
        text = json.dumps(value)
    except (ValueError, RecursionError):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'} nested too deeply to show"
    return text if len(text) <= limit else text[:limit] + "..."


def parse_answer(line: str, request_id: int, phase: Phase | None,
                 parsed: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """Parse an answer line into ``(action, object)``; raise ``ProtocolFault(malformed)``.

    Checks the framing only (a JSON object, the right ``id``, the answer
    field with the right JSON type); whether the decision is legal is
    :func:`check_legal`'s job. ``parsed`` may hand over ``json.loads(line)``
    when the caller already has it (the match transcript decodes each
    answer it records), so the line is not decoded twice.
    """
    if parsed is not None:
        obj: Any = parsed
    else:
        try:
            obj = decode(line)
        except StrictJSONError as exc:
            raise ProtocolFault(FaultKind.MALFORMED, f"answer is not JSON ({exc}): got {_quote(line)}") from None
    if not isinstance(obj, dict):
        raise ProtocolFault(FaultKind.MALFORMED, f"answer must be a JSON object, got a JSON {type(obj).__name__}: {_quote(line)}")
    if "id" not in obj:
        raise ProtocolFault(FaultKind.MALFORMED, f"answer has no \"id\" (expected {request_id}): got {_quote(line)}")
    if type(obj["id"]) is not int or obj["id"] != request_id:
        raise ProtocolFault(FaultKind.MALFORMED, f"answer has id {_shown(obj['id'])}, expected {request_id}: got {_quote(line)}")
    if phase is None:  # hello
        name = obj.get("name")
        if name is not None and not isinstance(name, str):
            raise ProtocolFault(FaultKind.MALFORMED, f"hello answer \"name\" must be a string, got: {_shown(name)}")
        return name, obj
    field = ANSWER_FIELD[phase]
    if field not in obj:
        raise ProtocolFault(FaultKind.MALFORMED, f"{phase.value} answer has no \"{field}\" field: got {_quote(line)}")
    value = obj[field]
    if phase in (Phase.BLIND_NIL, Phase.KEEP):
        if not isinstance(value, bool):
            raise ProtocolFault(FaultKind.MALFORMED, f"\"{field}\" must be true or false, got: {_shown(value)}")
        return value, obj
    if phase is Phase.BID:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolFault(FaultKind.MALFORMED, f"\"bid\" must be an integer, got: {_shown(value)}")
        return value, obj
    if phase is Phase.PLAY:
        if not isinstance(value, str):
            raise ProtocolFault(FaultKind.MALFORMED, f"\"card\" must be a card name such as \"AS\", got: {_shown(value)}")
        try:
            return parse_card(value), obj
        except CardError:
            raise ProtocolFault(FaultKind.MALFORMED, f"\"card\" is not a card name: got {json.dumps(value)} (e.g. \"AS\", \"TH\", \"2C\")") from None
    # discard / pass: a list of card names
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolFault(FaultKind.MALFORMED, f"\"cards\" must be a list of card names, got: {_shown(value)}")
    try:
        return tuple(parse_card(v) for v in value), obj
    except CardError as exc:
        raise ProtocolFault(FaultKind.MALFORMED, f"\"cards\" holds a bad card name: {exc}") from None


_WHAT = {Phase.PLAY: "card", Phase.BID: "bid", Phase.DISCARD: "discard", Phase.PASS: "pass",
         Phase.BLIND_NIL: "blind_nil answer", Phase.KEEP: "keep answer"}


def check_legal(st: State, action: Any) -> None:
    """Raise ``ProtocolFault(illegal)`` with the message the bot will get, unless legal."""
    try:
        check_action(st, action)
    except IllegalAction as exc:
        raise ProtocolFault(FaultKind.ILLEGAL, illegal_message(exc)) from None


def illegal_message(exc: IllegalAction) -> str:
    """E.g. ``illegal card "AS": you must follow hearts; legal: ["4H","JH"]``."""
    action = exc.action
    compact = (",", ":")
    if isinstance(action, int) and not isinstance(action, bool) and exc.phase is Phase.PLAY:
        shown = json.dumps(CARD_NAMES[action])
    elif isinstance(action, tuple):
        shown = json.dumps([CARD_NAMES[c] for c in action], separators=compact)
    else:
        shown = json.dumps(action, separators=compact)
    legal = exc.legal.replace("'", '"').replace(", ", ",")
    return f"illegal {_WHAT.get(exc.phase, 'answer')} {shown}: {exc.reason}; legal: {legal}"
