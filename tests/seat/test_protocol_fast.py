"""The fast protocol writers say exactly what the dict builders plus ``json.dumps`` say.

:class:`referee.seat.protocol.Encoder` and :class:`referee.game.view.ViewEncoder` write
request and event lines straight from engine values (the referee's hot path).
Here whole random matches of both variants, under several rule sets, are
walked state by state, and every line they produce is compared byte for byte
with ``dumps`` of the reference dicts (:func:`referee.seat.protocol.request`,
:func:`referee.seat.protocol.event_messages`, :func:`referee.game.view.seat_view`).
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

from referee.game.cards import FULL_DECK, cards_of, names_of
from referee.game.engine import Phase, State, legal_actions, new_match, step
from referee.game.rules import Rules, Variant
from referee.game.view import ViewEncoder, cards_json, scalar_json, seat_view
from referee.seat import protocol

RULES = [Rules(), Rules(nil=False, blind_nil=False), Rules(blind_nil_cards=1, target=300, mercy=200),
         Rules(target=150, max_hands=3)]


def _random_action(st: State, rng: random.Random) -> Any:
    hand = cards_of(st.hands[st.turn])
    if st.phase is Phase.DISCARD:
        return tuple(rng.sample(hand, rng.randint(0, min(st.pending_count, len(hand)))))
    if st.phase is Phase.PASS:
        return tuple(rng.sample(hand, st.pending_count))
    if st.phase is Phase.BLIND_NIL:
        return rng.random() < 0.5  # often: exchanges in many hands
    return rng.choice(legal_actions(st))


def _states(variant: Variant, rules: Rules, seed: int) -> Iterator[State]:
    """Every state of a random match, the final one included."""
    rng = random.Random(seed)
    st = new_match(variant, rules, seed)
    yield st
    while not st.over:
        st = step(st, _random_action(st, rng))
        yield st


def _time(rng: random.Random) -> dict[str, Any]:
    return {"move_ms": rng.choice([None, 1000, 250]), "bank_ms": rng.randrange(0, 20000)}


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("rules", RULES, ids=["default", "no-nil", "mercy", "short"])
def test_requests_events_and_views_match_json_dumps(variant: Variant, rules: Rules) -> None:
    rng = random.Random(7)
    encoder = protocol.Encoder()
    views = [ViewEncoder() for _ in range(variant.seats)]
    phases: set[str] = set()
    kinds: set[str] = set()
    for n, st in enumerate(_states(variant, rules, seed=11)):
        for event in st.events:
            kinds.add(event.kind)
            line = encoder.event(event)
            for _, msg in protocol.event_messages(event, st.nseats):
                assert line == protocol.dumps(msg)
        for seat in range(variant.seats):
            # The per-seat encoders keep their cache across the whole match.
            assert views[seat].state_json(st, seat) == protocol.dumps(seat_view(st, seat))
        if st.over:
            continue
        phases.add(st.phase.value)
        time = _time(rng)
        line = encoder.request(st, n + 1, time)
        assert line == protocol.dumps(protocol.request(st, n + 1, time))
        assert line == protocol.Encoder().request(st, n + 1, time)  # a fresh encoder agrees
        assert line.isascii() and "\n" not in line
    # The match really went through the interesting cases (the long ones
    # surely; a short or mercy-ended match may end before an exchange).
    assert {"bid", "play"} <= phases
    if rules != Rules():
        return
    assert {"played", "trick", "bid_made", "hand", "hand_start", "hand_end", "match_end"} <= kinds
    if variant is Variant.TWO_PLAYER:
        assert {"keep", "discard"} <= phases and "drawn" in kinds
    if variant is Variant.PARTNERSHIP:
        assert "pass" in phases and "received" in kinds


@pytest.mark.parametrize("other", list(Variant))
def test_encoder_cache_survives_interleaved_matches(other: Variant) -> None:
    """One encoder asked about two matches in turn (its caches keyed by identity) stays exact,
    even across variants, whose fresh hands share constant tuples such as ``(0, 0)``."""
    a = list(_states(Variant.PARTNERSHIP, Rules(), seed=3))
    b = list(_states(other, Rules(), seed=4))
    encoder = protocol.Encoder()
    time = {"move_ms": 1000, "bank_ms": 5000}
    for x, y in zip(a, b):
        for st in (x, y):
            if not st.over:
                assert encoder.request(st, 1, time) == protocol.dumps(protocol.request(st, 1, time))


def test_unusual_time_field_falls_back_to_dumps() -> None:
    st = new_match(Variant.PARTNERSHIP, Rules(), 1)
    for time in ({"bank_ms": 5, "move_ms": 7}, {"move_ms": 7, "bank_ms": 5, "extra": "é"}, {}):
        assert protocol.Encoder().request(st, 3, time) == protocol.dumps(protocol.request(st, 3, time))


def test_cards_json_every_suit_pattern_edge() -> None:
    rng = random.Random(5)
    masks = [0, FULL_DECK, 1, 1 << 51, 0x1FFF, 0x1FFF << 39] + [rng.getrandbits(52) for _ in range(2000)]
    for mask in masks:
        assert cards_json(mask) == json.dumps(names_of(mask), separators=(",", ":"))


def test_scalar_json_refuses_what_it_cannot_write() -> None:
    assert [scalar_json(v) for v in (0, -120, True, False, None)] == ["0", "-120", "true", "false", "null"]
    with pytest.raises(TypeError, match="'x'"):
        scalar_json("x")
    with pytest.raises(TypeError):
        scalar_json(1.5)


def test_seat_view_json_is_the_view() -> None:
    for st in _states(Variant.TWO_PLAYER, Rules(target=100), seed=2):
        for seat in range(2):
            assert json.loads(ViewEncoder().state_json(st, seat)) == seat_view(st, seat)


def test_an_answer_nested_too_deeply_is_malformed_not_a_crash() -> None:
    deep = '{"id": 1, "card": ' + "[" * 50_000 + "]" * 50_000 + "}"
    with pytest.raises(protocol.ProtocolFault) as info:
        protocol.parse_answer(deep, 1, Phase.PLAY)
    assert info.value.kind.value == "malformed" and "nests too deeply" in info.value.detail
