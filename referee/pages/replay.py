"""The replay of one match: every state, rebuilt by the rules engine.

A transcript holds what the referee told each seat. :func:`build_replay`
starts the engine from the record's variant, rules and seed, and at each
decision steps it with the action whose events are exactly the next lines
the referee sent (a card played, a bid, a draw, an exchange). The rules are
never re-implemented here: the engine decides legality, trick winners and
scores, and the replay is checked against the record hand by hand. A seat
the referee stopped talking to (it died under ``substitute``) gets the
referee's own fallback decision, as in the match.

The result is a list of :class:`Frame` (one per decision, plus one per deal
and one at the end) that the HTML page, ``spades show`` and the tests read.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Iterable, Sequence

from referee.game.cards import mask_of, parse_card
from referee.game.deals import DealSource
from referee.game.engine import (
    Action, Event, HandResult, IllegalAction, Phase, State, fallback_action, forfeit, legal_actions, new_match,
    step, trick_winner,
)
from referee.game.rules import Variant
from referee.match import MatchRecord
from referee.seat.faults import Fault
from referee.seat.protocol import event_messages

__all__ = ["ReplayError", "Frame", "FaultAt", "Replay", "build_replay", "read_transcript"]

# The protocol's event types: what the referee tells a seat without asking.
_EVENT_TYPES = frozenset(("hand_start", "hand", "bid_made", "drawn", "received", "played", "trick", "hand_end",
                          "match_end"))


class ReplayError(Exception):
    """A transcript that cannot be replayed (missing, unreadable, or not this match's)."""


@dataclasses.dataclass(frozen=True)
class Frame:
    """The table after one step of the match.

    ``kind`` is ``"deal"`` (a hand was dealt), a decision's phase
    (``"blind_nil"``, ``"keep"``, ``"discard"``, ``"bid"``, ``"pass"``,
    ``"play"``) or ``"end"`` (the match is over). ``table`` is the trick on
    the table; after its last card it is the complete trick, with
    ``winner`` set. ``hands`` are card masks per seat.
    """

    hand: int
    kind: str
    seat: int | None
    action: Any  # JSON-ready: a card, a bid, a bool, a list of cards, or None
    hands: tuple[int, ...]
    table: tuple[tuple[int, int], ...]
    winner: int | None
    trick_no: int  # 1..13 for plays, 0 otherwise
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    won: tuple[int, ...]  # tricks won this hand, per seat
    ms: float | None  # the seat's thinking time for this decision, from the transcript
    hand_over: bool  # this step finished the hand (its score is known)
    extra: Any = None  # keep: [card seen, other card]; discard: cards received; pass: the receiving seat
    line: int = -1  # index of the last transcript line this step accounts for
    looked: int = -1  # bit per seat: it has seen its cards (a partnership seat offered Blind Nil has not yet)


@dataclasses.dataclass(frozen=True)
class FaultAt:
    """A recorded fault and the frame it happened at."""

    fault: Fault
    frame: int
    told: str | None = None  # the error message the referee sent the bot, when it could still be told


@dataclasses.dataclass
class Replay:
    """A whole match, frame by frame, with the record it belongs to."""

    record: MatchRecord
    frames: list[Frame]
    hands: list[HandResult]  # finished hands, from the engine (equal to the record's)
    hand_frames: list[int]  # index of each hand's "deal" frame (the last hand's too, if cut short)
    faults: list[FaultAt]

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def names(self) -> list[str]:
        return self.record.bots

    def frame_of(self, hand: int, trick: int = 0, card: int | None = None) -> int:
        """Index of the frame showing ``hand`` (1-based) at ``trick`` (after its last card,
        or its ``card``-th one); trick 0 is the hand's deal. Clamped to the match."""
        if not self.hand_frames:
            return 0
        hand = min(max(hand, 1), len(self.hand_frames))
        start = self.hand_frames[hand - 1]
        if trick <= 0:
            return start
        end = self.hand_frames[hand] if hand < len(self.hand_frames) else len(self.frames)
        best = start
        for i in range(start, end):
            f = self.frames[i]
            if f.kind == "play" and f.trick_no <= trick:
                best = i
                if f.trick_no == trick and card is not None and len(f.table) >= card:
                    return i
        return best

    def decision_times(self) -> list[list[float]]:
        """Per seat, the thinking time (ms) of each decision the transcript timed."""
        out: list[list[float]] = [[] for _ in self.names]
        for f in self.frames:
            if f.seat is not None and f.ms is not None:
                out[f.seat].append(f.ms)
        return out


# --------------------------------------------------------------------------- reading


@dataclasses.dataclass
class _Transcript:
    streams: list[list[tuple[int, dict[str, Any]]]]  # per seat: (line index, event message)
    requests: list[list[tuple[int, float, int, str]]]  # per seat: (line index, t, id, type)
    answers: dict[tuple[int, int], float]  # (seat, id) -> time of the first answer with that id
    notes: list[int]  # line indexes of the referee's notes (one per fault)
    errors: list[list[tuple[int, str]]] = dataclasses.field(default_factory=list)  # per seat: (line, message)


def read_transcript(path: Path, nseats: int) -> list[dict[str, Any]]:
    """The transcript's lines as dicts (a torn or foreign line is skipped)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise ReplayError(f"no transcript at {path}: the match was played without logs (give `--output` to "
                          "`spades match`, or keep the results folder's logs/)") from None
    except OSError as exc:
        raise ReplayError(f"cannot read the transcript {path}: {exc}") from None
    lines = []
    for raw in text.splitlines():
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict) and ("note" in obj or (isinstance(obj.get("seat"), int)
                                                        and 0 <= obj["seat"] < nseats)):
            lines.append(obj)
        else:
            lines.append({})  # keeps the indexes of the others
    return lines


def _index(lines: Sequence[dict[str, Any]], nseats: int) -> _Transcript:
    tr = _Transcript([[] for _ in range(nseats)], [[] for _ in range(nseats)], {}, [], [[] for _ in range(nseats)])
    for i, obj in enumerate(lines):
        if "note" in obj:
            tr.notes.append(i)
            continue
        msg = obj.get("msg")
        if not isinstance(msg, dict):
            continue
        seat, t = obj["seat"], obj.get("t")
        t = float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None
        rid = msg.get("id")
        if obj.get("dir") == "out":
            kind = msg.get("type")
            if kind in _EVENT_TYPES and "id" not in msg:
                tr.streams[seat].append((i, msg))
            elif kind == "error" and isinstance(msg.get("message"), str):
                tr.errors[seat].append((i, msg["message"]))
            elif isinstance(rid, int) and rid > 0 and t is not None and isinstance(kind, str):
                tr.requests[seat].append((i, t, rid, kind))
        elif obj.get("dir") == "in" and isinstance(rid, int) and not isinstance(rid, bool) and t is not None:
            tr.answers.setdefault((seat, rid), t)
    return tr


# --------------------------------------------------------------------------- replaying


class _Replayer:
    def __init__(self, record: MatchRecord, tr: _Transcript, deals: DealSource | None = None):
        self.deals = deals
        self.record, self.tr = record, tr
        self.n = record.variant.seats
        self.ptr = [0] * self.n
        self.req_ptr = [0] * self.n
        self.frames: list[Frame] = []
        self.hand_frames: list[int] = []

    # ---- matching the engine's events with the lines the seats got

    def _next(self, seat: int) -> dict[str, Any] | None:
        stream = self.tr.streams[seat]
        p = self.ptr[seat]
        return stream[p][1] if p < len(stream) else None

    def _parked(self, seat: int) -> bool:
        """The referee told this seat nothing more but the match's end (it died)."""
        nxt = self._next(seat)
        return nxt is None or nxt.get("type") == "match_end"

    def _match(self, events: Iterable[Event]) -> tuple[list[int], int] | None:
        """New stream pointers and the last line used if ``events`` are the next lines, else None."""
        ptr = list(self.ptr)
        last = -1
        for event in events:
            pairs = event_messages(event, self.n)
            found = False
            for seat, msg in pairs:
                stream, p = self.tr.streams[seat], ptr[seat]
                if p < len(stream) and stream[p][1] == msg:
                    ptr[seat] = p + 1
                    last = max(last, stream[p][0])
                    found = True
            if not found and not (event.kind != "match_end" and all(self._parked(s) for s, _ in pairs)):
                return None
        return ptr, last

    def _hints(self, st: State) -> list[Action]:
        """The action the next lines name, when they name it directly (saves trying every one)."""
        seat, phase = st.turn, st.phase
        out: list[Action] = []
        for s in range(self.n):
            msg = self._next(s)
            if msg is None:
                continue
            kind = msg.get("type")
            try:
                if phase is Phase.PLAY and kind == "played" and msg.get("seat") == seat:
                    out.append(parse_card(msg["card"]))
                elif phase is Phase.BID and kind == "bid_made" and msg.get("seat") == seat:
                    out.append(msg["bid"])
                elif phase is Phase.PASS and kind == "received" and msg.get("from") == seat:
                    out.append(tuple(sorted(_cards(msg["cards"]))))
                elif phase is Phase.DISCARD and kind == "received" and s == seat:
                    nxt = self.tr.streams[s][self.ptr[s] + 1][1] if self.ptr[s] + 1 < len(self.tr.streams[s]) \
                        else {}
                    if nxt.get("type") == "hand":
                        kept = mask_of(_cards(nxt["cards"]))
                        out.append(tuple(c for c in range(52) if st.hands[seat] >> c & 1 and not kept >> c & 1))
            except (KeyError, TypeError, ValueError):
                continue
        return out

    def _candidates(self, st: State) -> list[Action]:
        if self._parked(st.turn):
            return [fallback_action(st)]
        if st.phase in (Phase.BLIND_NIL, Phase.KEEP):
            return [True, False]  # an answer with events first: False may have none to match
        hints = self._hints(st)
        return hints + [a for a in legal_actions(st) if a not in hints]

    def _decision_ms(self, seat: int, phase: Phase) -> float | None:
        """The time between the seat's request for this decision and its answer."""
        requests = self.tr.requests[seat]
        p = self.req_ptr[seat]
        while p < len(requests) and requests[p][3] != phase.value:
            p += 1
        if p >= len(requests):
            return None
        self.req_ptr[seat] = p + 1
        _, t, rid, _ = requests[p]
        answered = self.tr.answers.get((seat, rid))
        return round((answered - t) * 1000, 1) if answered is not None and answered >= t else None

    # ---- the frames

    def _deal_frame(self, st: State, line: int) -> None:
        self.hand_frames.append(len(self.frames))
        self.frames.append(Frame(st.hand_no, "deal", None, None, st.hands, (), None, 0, st.bids, st.blind,
                                 st.tricks, None, False, None, line, _looked(st)))

    def _step_frame(self, prev: State, action: Action, new: State, ms: float | None, line: int) -> None:
        seat, phase = prev.turn, prev.phase
        ended = len(new.history) > len(prev.history)
        table: tuple[tuple[int, int], ...] = ()
        winner: int | None = None
        trick_no = 0
        extra: Any = None
        if phase is Phase.PLAY:
            assert isinstance(action, int)
            hands = tuple(h & ~(1 << action) if s == seat else h for s, h in enumerate(prev.hands))
            table = prev.trick + ((seat, action),)
            trick_no = len(prev.done) + 1
            if len(table) == self.n:
                winner = trick_winner(table)
        else:
            hands = new.hands
        if phase is Phase.KEEP:
            extra = [prev.deal.cards[prev.stock], prev.deal.cards[prev.stock + 1]]
        elif phase is Phase.DISCARD:
            extra = sorted(_bits(new.received[seat] & ~prev.received[seat]))
        elif phase is Phase.PASS:
            extra = prev.pass_to
        src = prev if ended else new
        won = new.history[-1].tricks if ended else new.tricks
        shown = list(action) if isinstance(action, tuple) else action
        self.frames.append(Frame(prev.hand_no, phase.value, seat, shown, hands, table, winner, trick_no, src.bids,
                                 src.blind, won, ms, ended, extra, line, _looked(src)))

    def _end_frame(self, st: State, line: int) -> None:
        last = self.frames[-1] if self.frames else None
        if last is not None and last.hand_over:  # the match ended with a hand: show its last trick
            self.frames.append(dataclasses.replace(last, kind="end", seat=None, action=None, ms=None,
                                                   hand_over=False, extra=None, line=line))
            return
        self.frames.append(Frame(st.hand_no, "end", None, None, st.hands, st.trick, None, len(st.done),
                                 st.bids, st.blind, st.tricks, None, False, None, line, _looked(st)))

    def _forfeit(self, st: State) -> State:
        rec = self.record
        if rec.winner is None:
            seats = [0, 1]  # both sides forfeited
        else:
            seats = [s for s in range(self.n) if rec.variant.side_of(s) != rec.winner][:1]
        end = forfeit(st, seats)
        m = self._match(end.events)
        if m is None:
            raise self._mismatch(st, "the match's end")
        self.ptr = m[0]
        self._end_frame(end, m[1])
        return end

    def _all_ended(self) -> bool:
        return all(self._parked(s) for s in range(self.n)) and any(self._next(s) is not None for s in range(self.n))

    def _mismatch(self, st: State, what: str) -> ReplayError:
        seen = next((m for m in (self._next(s) for s in range(self.n)) if m is not None), None)
        return ReplayError(
            f"the transcript of match {self.record.match!r} does not follow its record at hand {st.hand_no} "
            f"({what}): the next line sent was {json.dumps(seen)[:200]}; no legal action of seat {st.turn} "
            "in the engine explains it. Is it the transcript of another match, or a record edited by hand?")

    def run(self) -> tuple[State, list[Frame], list[int]]:
        rec = self.record
        st = new_match(rec.variant, rec.rules, rec.seed, self.deals)
        m = self._match(st.events)
        if m is None:
            if self._all_ended():  # no bot started: the match ended before the deal
                self._deal_frame(st, -1)
                return self._forfeit(st), self.frames, self.hand_frames
            raise self._mismatch(st, "the first deal")
        self.ptr = m[0]
        self._deal_frame(st, m[1])
        while not st.over:
            if self._all_ended():
                st = self._forfeit(st)
                break
            prev = st
            parked = self._parked(st.turn)  # the referee decided for it: no request, no time
            for action in self._candidates(st):
                try:
                    new = step(st, action)
                except IllegalAction:
                    continue
                m = self._match(new.events)
                if m is not None:
                    break
            else:
                raise self._mismatch(st, f"{st.phase.value} of seat {st.turn}")
            self.ptr, line = m
            ms = None if parked else self._decision_ms(prev.turn, prev.phase)
            self._step_frame(prev, action, new, ms, line)
            st = new
            if len(new.history) > len(prev.history) and not new.over:
                self._deal_frame(new, line)
            elif new.over:
                self._end_frame(new, line)
        return st, self.frames, self.hand_frames


def _looked(st: State) -> int:
    return sum(1 << s for s, seen in enumerate(st.looked) if seen)


def _cards(names: Iterable[str]) -> list[int]:
    return [parse_card(n) for n in names]


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _place_faults(record: MatchRecord, frames: Sequence[Frame], tr: _Transcript) -> list[FaultAt]:
    """Each fault at the first frame after the referee's note of it (the faults and notes come in one
    order), with the error the referee then sent the bot (before the next note)."""
    notes = tr.notes
    placed = []
    for i, fault in enumerate(record.faults):
        told = None
        if len(notes) == len(record.faults):
            frame = next((k for k, f in enumerate(frames) if f.line > notes[i]), len(frames) - 1)
            until = notes[i + 1] if i + 1 < len(notes) else float("inf")
            errors = tr.errors[fault.seat] if 0 <= fault.seat < len(tr.errors) else []
            told = next((m for line, m in errors if notes[i] < line < until), None)
        else:  # a transcript without its notes: the start of the fault's hand
            frame = next((k for k, f in enumerate(frames) if f.hand >= fault.hand), len(frames) - 1)
        placed.append(FaultAt(fault, max(frame, 0), told))
    return placed


def build_replay(record: MatchRecord, transcript: Path, deals: DealSource | None = None) -> Replay:
    """The replay of ``record``'s match from its transcript; raises :class:`ReplayError`
    when the transcript is missing or does not fit the record.

    ``deals`` are the match's deals when they did not come from its seed alone (a
    tournament deals from the seed and the results folder's secret)."""
    n = record.variant.seats
    lines = read_transcript(transcript, n)
    tr = _index(lines, n)
    final, frames, hand_frames = _Replayer(record, tr, deals).run()
    hands = list(final.history)
    got = [h.to_record(record.variant) for h in hands]
    want = [{k: h.get(k) for k in got[i]} for i, h in enumerate(record.hands[:len(got)])] if got else []
    if got != want or len(record.hands) != len(got) or list(final.score) != list(record.score):
        bad = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(record.hands)))
        raise ReplayError(f"the transcript {transcript} replays to a different result than the record of match "
                          f"{record.match!r} from hand {bad + 1} on (record: {len(record.hands)} hands, score "
                          f"{record.score}; transcript: {len(got)} hands, score {list(final.score)})")
    return Replay(record, frames, hands, hand_frames, _place_faults(record, frames, tr))
