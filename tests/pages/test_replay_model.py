"""The replay model: every frame rebuilt by the engine agrees with the transcript and the record."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from pages_support import record_of, results, sent_to, transcript_trick  # noqa: F401 (results: a fixture)

from referee.game.cards import CARD_NAMES, parse_card
from referee.pages.assets import json_for_script
from referee.pages.replay import ReplayError, build_replay
from referee.pages.replay_page import page_data, replay_html
from referee.pages.source import locate


def replay_of(results: Path, match_id: str):
    return build_replay(record_of(results, match_id), results / "logs" / f"{match_id}.jsonl")


@pytest.mark.parametrize("match_id", ["p7", "t3", "long"])
def test_every_card_played_is_the_transcripts(results: Path, match_id: str) -> None:
    replay = replay_of(results, match_id)
    played = [(m["seat"], parse_card(m["card"])) for m in sent_to(results, match_id, 0) if m["type"] == "played"]
    assert [(f.seat, f.action) for f in replay.frames if f.kind == "play"] == played
    assert len(replay.hands) == len(record_of(results, match_id).hands)


def test_hand_two_trick_five_is_the_transcripts(results: Path) -> None:
    replay = replay_of(results, "p7")
    frame = replay.frames[replay.frame_of(2, 5)]
    assert [[s, CARD_NAMES[c]] for s, c in frame.table] == transcript_trick(results, "p7", 2, 5)
    assert frame.winner is not None and frame.trick_no == 5 and frame.hand == 2


def test_the_hands_shown_are_the_ones_the_seats_were_dealt(results: Path) -> None:
    replay = replay_of(results, "p7")
    for seat in range(4):
        dealt = [m["cards"] for m in sent_to(results, "p7", seat) if m["type"] == "hand"]
        # The first "hand" message of hand 1 is the seat's 13 cards as dealt (or after its look).
        first_look = next(f for f in replay.frames if f.kind in ("bid", "blind_nil") and f.seat == seat)
        before = replay.frames[replay.frames.index(first_look) - 1] if first_look.kind == "bid" else first_look
        assert sorted(CARD_NAMES[c] for c in range(52) if before.hands[seat] >> c & 1) == sorted(dealt[0])


def test_a_first_hand_forfeit_ends_at_the_fault(results: Path) -> None:
    replay = replay_of(results, "ff")
    assert replay.frames[-1].kind == "end" and replay.hands == []
    [fault] = replay.faults
    assert fault.frame == len(replay.frames) - 1 and fault.fault.seat == 1
    assert "you do not hold that card" in fault.fault.detail
    # The referee's own words to the bot, from the transcript's error line.
    assert fault.told == f"illegal: {fault.fault.detail}; you forfeit the match"


def test_decision_times_come_from_the_transcript(results: Path) -> None:
    replay = replay_of(results, "t3")
    times = replay.decision_times()
    assert all(len(t) > 50 for t in times) and all(ms >= 0 for t in times for ms in t)


def test_a_transcript_of_another_match_is_refused_with_the_reason(results: Path) -> None:
    record = dataclasses.replace(record_of(results, "p7"), seed=8)
    with pytest.raises(ReplayError, match="does not follow its record at hand 1"):
        build_replay(record, results / "logs" / "p7.jsonl")


def test_a_missing_transcript_says_where_it_was_looked_for(results: Path, tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="no transcript at .*played without logs"):
        build_replay(record_of(results, "p7"), tmp_path / "nope.jsonl")


def test_locate_by_folder_and_id_or_by_transcript(results: Path) -> None:
    assert locate(results, "t3").record.match == "t3"
    assert locate(results / "logs" / "t3.jsonl").record.match == "t3"
    with pytest.raises(ReplayError, match="holds 4 matches; name one: p7, t3"):
        locate(results)
    with pytest.raises(ReplayError, match="no record of match 'zz'"):
        locate(results, "zz")


def test_the_page_inlines_everything_and_escapes_names(results: Path) -> None:
    replay = replay_of(results, "p7")
    record = dataclasses.replace(replay.record, bots=["</script><script>alert(1)</script>"] * 4)
    page = replay_html(dataclasses.replace(replay, record=record))
    assert "</script><script>alert(1)" not in page
    assert "http://" not in page and "https://" not in page and "src=" not in page
    data = json.loads(json_for_script(page_data(replay)))
    assert data["score"] == replay.record.score and len(data["frames"]) == len(replay.frames)


def test_only_the_command_line_imports_the_pages() -> None:
    """The pages are a face: nothing below them (nor the other face) may depend on them."""
    import ast

    package = Path(__file__).resolve().parents[2] / "referee"
    users = []
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).parts
        if rel[0] in ("pages", "cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            users += [f"{path.name}: {n}" for n in names if n.startswith("referee.pages")]
    assert users == []


def test_a_blind_nil_bidder_has_not_seen_its_cards_until_the_bidding_ends(results: Path) -> None:
    replay = replay_of(results, "p7")
    # (The last bidder's Blind Nil ends the bidding, and everybody picks up their cards at once.)
    blind = [f for f in replay.frames if f.kind == "blind_nil" and f.action and None in f.bids]
    assert blind, "the seeded match has a Blind Nil bid before the last bid"
    for f in blind:
        assert not f.looked >> f.seat & 1
    assert all(f.looked == 0b1111 for f in replay.frames if f.kind == "play")
