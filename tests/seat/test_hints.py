"""The hints table: each classic mistake gets its hint, nothing else gets one."""

from __future__ import annotations

import pytest

from referee.seat.faults import FaultKind
from referee.seat.hints import Hint, hint_for

M = FaultKind.MALFORMED


@pytest.mark.parametrize("kind, request_type, answer, hint", [
    (FaultKind.STARTUP, "hello", None, Hint.FLUSH),
    (M, "play", "DEBUG playing 7C", Hint.STDOUT_IS_FOR_ANSWERS),
    (M, "hello", "Starting up...", Hint.STDOUT_IS_FOR_ANSWERS),
    (FaultKind.UNEXPECTED, None, None, Hint.STDOUT_IS_FOR_ANSWERS),
    (M, "play", '{"id": 5, "card": "7c"}', Hint.CARD_CASE),
    (M, "pass", '{"id": 5, "cards": ["AS", "kh", "2C"]}', Hint.CARD_CASE),
    (M, "play", '{"id": 5, "card": "10H"}', Hint.TEN_IS_T),
    (M, "discard", '{"id": 5, "cards": ["10s"]}', Hint.TEN_IS_T),
    (M, "play", '{"id": 5, "card": "AX"}', None),  # not a classic mistake: no guess
    (M, "play", '{"id": 4, "card": "7C"}', None),  # a wrong id
    (M, "play", "[1, 2]", None),
    (FaultKind.ILLEGAL, "play", '{"id": 5, "card": "7C"}', None),
    (FaultKind.TIMEOUT, "play", None, None),  # a slow decision is not a buffering problem
    (FaultKind.STARTUP, "hello", '{"id": 0}', None),
])
def test_hint_for(kind, request_type, answer, hint):
    assert hint_for(kind, request_type, answer) is hint


def test_every_hint_reads_as_a_sentence():
    for hint in Hint:
        assert hint.text and hint.text == hint.value and not hint.text.endswith(".")


def test_a_bot_that_exited_before_hello_is_not_told_to_flush(tmp_path) -> None:
    """A bot that died at start-up (a wrong path, an exception) never got to write: the hint
    sends the author to its stderr instead; the referee's own wording is what says it exited."""
    import sys

    from referee.seat.botprocess import BotProcess, says_exited
    from referee.seat.faults import BotFault

    bot = BotProcess([sys.executable, "-c", "import sys; sys.exit(3)"], name="dies")
    with bot:
        bot.start()
        with pytest.raises(BotFault) as info:
            bot.request('{"type": "hello", "id": 0}', 5.0)
    assert says_exited(info.value.detail), info.value.detail
    assert hint_for(FaultKind.STARTUP, "hello", None, exited=True) is Hint.EXITED
    assert hint_for(FaultKind.TIMEOUT, "hello", None, exited=False) is Hint.FLUSH
    assert not says_exited("hello: no answer within 10000 ms")
