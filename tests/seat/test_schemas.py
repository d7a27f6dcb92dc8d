"""The JSON Schemas of protocol v1 (``referee/seat/schemas``) against real traffic.

Real matches of both variants are played by real bot processes (the bundled
Python bots; a misbehaving bot for the ``error`` event; a seat without a move
clock for ``time.move_ms: null``), and every line of their transcripts is
validated: referee messages by their ``type``, answers by the type of the
request they answer. Together the matches must produce every message type of
both directions, so no schema goes untested. Mutated copies of real messages
then show that each schema rejects what the protocol forbids.
"""

from __future__ import annotations

import copy
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import pytest
from jsonschema import Draft202012Validator

from referee.game.rules import Rules, Variant
from referee.match import MatchSpec, run_match
from referee.seat import schemas
from referee.seat.clock import TimeControl
from referee.seat.faults import FaultPolicy
from referee.seat.schemas import MessageSchemaError, validate_message
from referee.seat.spec import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
RANDOM = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
HEURISTIC = [sys.executable, str(ROOT / "bots" / "heuristic_bot.py")]
HOSTILE = [sys.executable, str(ROOT / "tests" / "bots" / "hostile_bot.py")]
RULES = Rules(target=100, max_hands=3)
# Generous clocks: a loaded CI machine must not turn these matches into timeouts.
TIME = TimeControl(move_ms=5000, bank_ms=60000)

# Every field protocol v1 defines, per message: the schemas must require all of them.
PROTOCOL_FIELDS: dict[str, set[str]] = {
    "hello": {"type", "id", "protocol", "match", "variant", "seat", "names", "rules", "time"},
    "hand_start": {"type", "hand", "score", "bags"},  # + dealer or first
    "hand": {"type", "cards"},
    "drawn": {"type", "kept", "discarded"},
    "bid_made": {"type", "seat", "bid", "blind"},
    "received": {"type", "cards", "from"},
    "played": {"type", "seat", "card"},
    "trick": {"type", "cards", "winner"},
    "hand_end": {"type", "hand", "bids", "blind", "tricks", "points", "score", "bags"},
    "match_end": {"type", "score", "winner", "reason"},
    "error": {"type", "message"},
    "blind_nil": {"type", "id", "state"},
    "keep": {"type", "id", "state", "card"},
    "discard": {"type", "id", "state", "max"},
    "pass": {"type", "id", "state", "count", "to"},
    "bid": {"type", "id", "state", "legal"},
    "play": {"type", "id", "state", "legal"},
    "answer-hello": {"id"},
    "answer-blind_nil": {"id", "blind_nil"},
    "answer-keep": {"id", "keep"},
    "answer-discard": {"id", "cards"},
    "answer-pass": {"id", "cards"},
    "answer-bid": {"id", "bid"},
    "answer-play": {"id", "card"},
}
STATE_FIELDS = {"hand_no", "seat", "phase", "hand", "bids", "blind", "tricks", "trick", "leader",
                "spades_broken", "played", "score", "bags", "time"}  # + dealer or first


def _seat(name: str, command: list[str], seed: int, time: TimeControl | None = None) -> SeatSpec:
    return SeatSpec(name, command, env={"BOT_SEED": str(seed)}, time=time)


MATCHES: dict[str, Callable[[], MatchSpec]] = {
    # Blind Nil bids and partnership exchanges happen in this one (random bots, seeded).
    "partnership": lambda: MatchSpec(
        Variant.PARTNERSHIP, [_seat(f"p{i}", RANDOM if i % 2 == 0 else HEURISTIC, 4) for i in range(4)],
        rules=RULES, seed=4, match_id="partnership", time=TIME),
    # The draw, a Blind Nil discard with replacements; seat 1 has no move clock (as a human seat).
    "two-player": lambda: MatchSpec(
        Variant.TWO_PLAYER, [_seat("random", RANDOM, 4), _seat("heuristic", HEURISTIC, 4, TimeControl(move_ms=None))],
        rules=RULES, seed=4, match_id="two-player", time=TIME),
    # Three illegal plays under `substitute`: two `error` events, then the forfeit one.
    "faults": lambda: MatchSpec(
        Variant.TWO_PLAYER, [_seat("renege", [*HOSTILE, "--renege"], 1), _seat("random", RANDOM, 1)],
        rules=RULES, seed=3, match_id="faults", time=TIME, faults=FaultPolicy.SUBSTITUTE, max_faults=3),
}


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("schemas")
    paths = {}
    for match_id, make in MATCHES.items():
        spec = make()
        spec.logs = str(out / "logs")
        record = run_match(spec)
        if match_id != "faults":
            assert record.faults == [], f"{match_id}: {[f.to_dict() for f in record.faults]}"
        paths[match_id] = out / "logs" / f"{match_id}.jsonl"
    return paths


def _entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _messages(transcripts: dict[str, Path]) -> dict[str, list[dict[str, Any]]]:
    """Real messages by schema name, from every transcript."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in transcripts.values():
        pending: dict[int, str] = {}
        for entry in _entries(path):
            if "msg" not in entry:
                continue
            msg = entry["msg"]
            if entry["dir"] == "out":
                name = msg["type"]
                if "id" in msg:
                    pending[entry["seat"]] = name
            else:
                name = f"answer-{pending.pop(entry['seat'])}"
            found.setdefault(name, []).append(msg)
    return found


@pytest.fixture(scope="module")
def real(transcripts: dict[str, Path]) -> dict[str, list[dict[str, Any]]]:
    return _messages(transcripts)


# --------------------------------------------------------------------------- the schema files


def test_schema_files_are_exactly_the_protocol_messages() -> None:
    folder = resources.files("referee.seat.schemas")
    on_disk = {p.name for p in folder.iterdir() if p.name.endswith(".json")}
    assert on_disk == {f"{n}.json" for n in ("common", *schemas.OUT_SCHEMAS, *schemas.ANSWER_SCHEMAS)}
    assert set(PROTOCOL_FIELDS) == set(schemas.OUT_SCHEMAS) | set(schemas.ANSWER_SCHEMAS)


@pytest.mark.parametrize("name", ["common", *schemas.OUT_SCHEMAS, *schemas.ANSWER_SCHEMAS])
def test_schema_is_valid_draft_2020_12_and_open(name: str) -> None:
    schema = schemas.load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    # Unknown fields must be allowed everywhere (the protocol's forward compatibility).
    assert '"additionalProperties": false' not in json.dumps(schema)
    if name != "common":
        assert schema["title"] and schema["description"]
        assert set(schema["required"]) == PROTOCOL_FIELDS[name]


def test_state_requires_every_protocol_field() -> None:
    state = schemas.load_schema("common")["$defs"]["state"]
    assert set(state["required"]) == STATE_FIELDS
    assert {"dealer", "first", "variant", "turn", "discards", "passed", "received"} <= set(state["properties"])


# --------------------------------------------------------------------------- real traffic


@pytest.mark.parametrize("match_id", list(MATCHES))
def test_every_transcript_line_is_valid(transcripts: dict[str, Path], match_id: str) -> None:
    entries = _entries(transcripts[match_id])
    pending: dict[int, str] = {}
    checked = 0
    for number, entry in enumerate(entries, 1):
        where = f"{match_id}.jsonl line {number}"
        if "note" in entry:
            assert set(entry) == {"t", "note"} and isinstance(entry["note"], str), where
            continue
        assert set(entry) == {"t", "seat", "dir", "msg"}, f"{where}: {entry}"
        seat, msg = entry["seat"], entry["msg"]
        if entry["dir"] == "out":
            assert validate_message(msg, "out") == msg["type"]
            if "id" in msg:
                assert seat not in pending, f"{where}: two requests outstanding"
                pending[seat] = msg["type"]
        else:
            request_type = pending.pop(seat)
            assert validate_message(msg, "in", request_type) == f"answer-{request_type}"
        checked += 1
    assert checked == len(entries) - sum("note" in e for e in entries) > 100


def test_matches_cover_every_message_type(real: dict[str, list[dict[str, Any]]]) -> None:
    missing = set(PROTOCOL_FIELDS) - set(real)
    assert not missing, f"no real message of: {sorted(missing)}"
    assert any(m["from"] == "discards" for m in real["received"])
    assert any(isinstance(m["from"], int) for m in real["received"])
    assert any(m["blind"] for m in real["bid_made"])
    assert any(m["message"].endswith("you forfeit the match") for m in real["error"])
    assert any(not m["message"].endswith("you forfeit the match") for m in real["error"])


def test_seat_without_move_clock_gets_null_move_ms(transcripts: dict[str, Path]) -> None:
    times = [(e["msg"]["type"], (e["msg"].get("state") or e["msg"])["time"]) for e in _entries(transcripts["two-player"])
             if e.get("dir") == "out" and e["seat"] == 1 and "id" in e["msg"]]
    assert times and all(t["move_ms"] is None for _, t in times), times
    for kind, t in times:
        assert isinstance(t["bank_ms"], int)


# --------------------------------------------------------------------------- what the schemas accept


def test_unknown_fields_are_accepted(real: dict[str, list[dict[str, Any]]]) -> None:
    for name, messages in real.items():
        msg = copy.deepcopy(messages[0])
        msg["added_in_v2"] = {"anything": [1, "x"]}
        if "state" in msg:
            msg["state"]["added_in_v2"] = True
        if name.startswith("answer-"):
            validate_message(msg, "in", name.removeprefix("answer-"))
        else:
            validate_message(msg, "out")


def test_hello_answer_name_is_optional() -> None:
    for answer in ({"id": 0}, {"id": 0, "name": "MyBot"}, {"id": 0, "name": None}):
        assert validate_message(answer, "in", "hello") == "answer-hello"


# --------------------------------------------------------------------------- what they reject


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation: set (or with value DELETE, remove) the field at a dotted path."""
    def change(msg: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = msg
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is DELETE:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return change


DELETE = object()

BAD_OUT: list[tuple[str, str, Any, str]] = [
    # (message type, field path, new value or DELETE, text expected in the error)
    ("play", "legal.0", "AX", "'AX' does not match"),
    ("play", "legal.0", "10H", "'10H' does not match"),
    ("play", "legal.0", "as", "'as' does not match"),
    ("play", "legal", [], "should be non-empty"),
    ("play", "id", DELETE, "'id' is a required property"),
    ("play", "id", "7", "'7' is not of type 'integer'"),
    ("play", "state", DELETE, "'state' is a required property"),
    ("play", "state.hand", ["AS", "AS"], "non-unique"),
    ("play", "state.phase", "bid", "'play' was expected"),
    ("play", "state.spades_broken", "no", "is not of type 'boolean'"),
    ("play", "state.score", [0, 0, 0], "is too long"),
    ("play", "state.time.bank_ms", DELETE, "'bank_ms' is a required property"),
    ("play", "state.seat", 4, "4 is greater than the maximum of 3"),
    ("bid", "legal", [14], "14 is greater than the maximum of 13"),
    ("bid", "state.bids.0", "three", "is not valid under any of the given schemas"),
    ("keep", "card", "XS", "'XS' does not match"),
    ("discard", "max", 0, "0 is less than the minimum of 1"),
    ("pass", "to", DELETE, "'to' is a required property"),
    ("blind_nil", "state.hand", DELETE, "'hand' is a required property"),
    ("hello", "protocol", 2, "1 was expected"),
    ("hello", "rules.target", DELETE, "'target' is a required property"),
    ("hello", "time.move_ms", "fast", "is not of type 'integer', 'null'"),
    ("hello", "variant", "three-player", "is not one of"),
    ("hand_start", "score", [0], "is too short"),
    ("hand", "cards", ["AS", "AS"], "non-unique"),
    ("drawn", "kept", "S", "'S' does not match"),
    ("bid_made", "bid", 14, "14 is greater than the maximum of 13"),
    ("bid_made", "blind", "yes", "is not of type 'boolean'"),
    ("received", "from", "pile", "is not valid under any of the given schemas"),
    ("played", "card", DELETE, "'card' is a required property"),
    ("trick", "cards.0", ["AS", 0], "'AS' is not of type 'integer'"),
    ("hand_end", "points", [1, 2, 3], "is too long"),
    ("match_end", "reason", "resign", "is not one of"),
    ("match_end", "winner", 2, "is not valid under any of the given schemas"),
    ("error", "message", DELETE, "'message' is a required property"),
]


@pytest.mark.parametrize("kind,path,value,expected", BAD_OUT, ids=[f"{k}.{p}" for k, p, _, _ in BAD_OUT])
def test_bad_referee_message_is_rejected(real: dict[str, list[dict[str, Any]]], kind: str, path: str, value: Any,
                                         expected: str) -> None:
    original = real[kind][0]
    validate_message(original, "out")  # the real message is fine ...
    msg = copy.deepcopy(original)
    _set(path, value)(msg)
    with pytest.raises(MessageSchemaError) as info:  # ... and the mutation alone breaks it
        validate_message(msg, "out")
    assert info.value.schema == kind
    assert any(expected in e.message for e in _all_errors(info.value.errors)), \
        f"{info.value} / {[e.message for e in _all_errors(info.value.errors)]}"


def _all_errors(errors: list[Any]) -> list[Any]:
    out, stack = [], list(errors)
    while stack:
        e = stack.pop()
        out.append(e)
        stack.extend(e.context or ())
    return out


def test_dealer_or_first_exactly_one(real: dict[str, list[dict[str, Any]]]) -> None:
    start = [m for m in real["hand_start"] if "dealer" in m][0]
    both = {**start, "first": 0}
    neither = {k: v for k, v in start.items() if k != "dealer"}
    for msg in (both, neither):
        with pytest.raises(MessageSchemaError, match="hand_start.json"):
            validate_message(msg, "out")
    request = [m for m in real["play"] if "dealer" in m["state"]][0]
    bad = copy.deepcopy(request)
    bad["state"]["first"] = 1
    with pytest.raises(MessageSchemaError, match="play.json"):
        validate_message(bad, "out")


def test_hello_seat_and_names_fit_the_variant(real: dict[str, list[dict[str, Any]]]) -> None:
    hello = [m for m in real["hello"] if m["variant"] == "two-player"][0]
    for change in ({"seat": 2}, {"names": ["a", "b", "c", "d"]}):
        with pytest.raises(MessageSchemaError, match="hello.json"):
            validate_message({**hello, **change}, "out")
    partnership = [m for m in real["hello"] if m["variant"] == "partnership"][0]
    with pytest.raises(MessageSchemaError, match="hello.json"):
        validate_message({**partnership, "names": ["a", "b"]}, "out")


BAD_ANSWERS: list[tuple[str, dict[str, Any], str]] = [
    ("play", {"id": 5, "card": "AX"}, "'AX' does not match"),
    ("play", {"card": "AS"}, "'id' is a required property"),
    ("play", {"id": 5}, "'card' is a required property"),
    ("play", {"id": "5", "card": "AS"}, "'5' is not of type 'integer'"),
    ("bid", {"id": 5, "bid": "3"}, "'3' is not of type 'integer'"),
    ("bid", {"id": 5, "bid": 14}, "14 is greater than the maximum of 13"),
    ("bid", {"id": 5, "bid": -1}, "-1 is less than the minimum of 0"),
    ("blind_nil", {"id": 5, "blind_nil": "yes"}, "'yes' is not of type 'boolean'"),
    ("keep", {"id": 5, "keep": 1}, "1 is not of type 'boolean'"),
    ("discard", {"id": 5, "cards": ["AS", "AS"]}, "non-unique"),
    ("pass", {"id": 5, "cards": "AS KS QS"}, "is not of type 'array'"),
    ("pass", {"id": 5, "cards": ["AS", "KS", "1S"]}, "'1S' does not match"),
    ("hello", {"id": 1}, "0 was expected"),
    ("hello", {"id": 0, "name": 7}, "7 is not of type 'string', 'null'"),
]


@pytest.mark.parametrize("request_type,answer,expected", BAD_ANSWERS,
                         ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(BAD_ANSWERS)])
def test_bad_answer_is_rejected(request_type: str, answer: dict[str, Any], expected: str) -> None:
    with pytest.raises(MessageSchemaError) as info:
        validate_message(answer, "in", request_type)
    assert info.value.schema == f"answer-{request_type}"
    assert expected in str(info.value), str(info.value)


def test_error_text_names_schema_place_and_value() -> None:
    with pytest.raises(MessageSchemaError) as info:
        validate_message({"id": 12, "card": "AX"}, "in", "play")
    assert str(info.value) == ("answer to play does not match schema answer-play.json: at card: "
                               "'AX' does not match '^[2-9TJQKA][CDHS]$'")


def test_no_schema_applies() -> None:
    with pytest.raises(MessageSchemaError, match="no schema for referee message type 'deal'"):
        validate_message({"type": "deal"}, "out")
    with pytest.raises(MessageSchemaError, match="must be a JSON object"):
        validate_message(["play"], "out")
    with pytest.raises(MessageSchemaError, match="request_type must be one of .*got: None"):
        validate_message({"id": 1, "card": "AS"}, "in")
    with pytest.raises(MessageSchemaError, match="direction must be 'out'.*got: 'sideways'"):
        validate_message({"type": "hand", "cards": []}, "sideways")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="no protocol schema named 'answer-deal'"):
        schemas.load_schema("answer-deal")


def test_validator_for_picks_the_schema(real: dict[str, list[dict[str, Any]]]) -> None:
    play = real["play"][0]
    assert schemas.validator_for(play, "out").schema["title"].startswith("play (request")
    assert schemas.validator_for({"id": 3, "card": "AS"}, "in", "play").is_valid({"id": 3, "card": "AS"})
    assert not schemas.validator_for({}, "in", "play").is_valid({"id": 3, "card": "A"})


def test_references_resolve_without_network() -> None:
    # A schema that points outside the packaged set fails as unresolvable: nothing is fetched.
    from referencing.exceptions import Unresolvable

    validator = Draft202012Validator({"$ref": "https://example.invalid/other.json"}, registry=schemas.registry())
    with pytest.raises(Unresolvable):
        validator.validate({})


# --------------------------------------------------------------------------- transcripts and the command line


def test_validate_transcript_reports_the_bad_line(transcripts: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    lines = transcripts["faults"].read_text().splitlines()
    assert schemas.validate_transcript(lines) == sum('"msg":' in line for line in lines)
    assert schemas.main([str(transcripts["faults"])]) == 0
    assert "messages valid" in capsys.readouterr().out
    # Corrupt the first play answer: its card becomes a bad name.
    index = next(i for i, line in enumerate(lines) if '"dir":"in"' in line and '"card"' in line)
    entry = json.loads(lines[index])
    entry["msg"]["card"] = "ZZ"
    bad = lines[:index] + [json.dumps(entry), '{"t": 1.0, "seat": 0, "dir": "in", "raw": "not json"}'] + lines[index + 1:]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n")
    assert schemas.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"line {index + 1} (seat {entry['seat']}, in): answer to play does not match schema answer-play.json" in err
    assert "'ZZ' does not match" in err
    assert schemas.main([]) == 2


def test_a_non_json_answer_line_in_a_transcript_is_reported(transcripts: dict[str, Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A bot line the referee kept as ``raw`` (not a JSON object) is a bad answer, never skipped as valid."""
    lines = transcripts["faults"].read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"dir":"out"' in line and '"type":"play","id"' in line)
    seat = json.loads(lines[index])["seat"]
    answer = next(i for i in range(index + 1, len(lines)) if f'"seat":{seat},"dir":"in"' in lines[i])
    raw = json.dumps({"t": 1.0, "seat": seat, "dir": "in", "raw": "DEBUG playing 7C"})
    path = tmp_path / "raw.jsonl"
    path.write_text("\n".join(lines[:answer] + [raw] + lines[answer + 1:]) + "\n")
    assert schemas.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"line {answer + 1} (seat {seat}, in): the answer to play is not a JSON object" in err
    assert "'DEBUG playing 7C'" in err
