"""Hidden information: no message ever shows a seat a card it has not legitimately seen.

Real matches of both variants are played with real bot processes (the bundled
Python bots, plus a small scripted bot that bids Blind Nil at every offer so
that exchanges happen in every hand). Their full transcripts
(``logs/<match>.jsonl``) are then checked two ways:

1. **From the transcript alone** (:class:`LeakChecker`), in protocol order.
   Each seat's "seen" set is grown only by the revelations the protocol
   allows, and each revelation is verified against independent evidence in
   the same transcript: a ``played`` card must be the answer of the seat that
   played it; a ``drawn`` event must match the seat's own ``keep`` request and
   answer; a ``received`` pass must be exactly the partner's ``pass`` answer; a
   two-player replacement must come from the discard pile as the transcript
   built it; a ``hand`` event must be the seat's own holding (tracked through
   exchanges, and at the end of the hand equal to the cards it played) and
   arrive no earlier than the seat may look. Every card in every message to a
   seat must then be in its seen set.
2. **Against the engine**: the same seed is replayed with
   :mod:`referee.game.engine`, feeding it the answers from the transcript; each
   request's ``state`` must equal :func:`referee.game.view.seat_view`, every card in
   a request must lie in :func:`referee.game.view.known_cards`, the seen set built
   in (1) must equal ``known_cards`` exactly, and the events each seat got
   must be exactly the engine's events addressed to it.

The checker is itself tested on doctored transcripts, so it can fail.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

from referee.game.cards import names_of, parse_card
from referee.game.engine import Phase, State, new_match, step
from referee.game.rules import Rules, Variant
from referee.game.view import known_cards, seat_view
from referee.match import MatchSpec, run_match
from referee.seat import protocol
from referee.seat.clock import TimeControl
from referee.seat.spec import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
RANDOM = [sys.executable, str(ROOT / "bots" / "random_bot.py")]
HEURISTIC = [sys.executable, str(ROOT / "bots" / "heuristic_bot.py")]
CARD = re.compile(r"^[2-9TJQKA][CDHS]$")
SUITS, RANKS = "CDHS", "23456789TJQKA"

# A bot that says yes to every Blind Nil offer, so every hand has an exchange;
# otherwise it plays at random. It discards/passes its highest-sorted cards so
# two-player replacements are as many as allowed.
BLIND_BOT = r'''
import json, random, sys
rng = random.Random(sys.argv[1])
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    kind, hand = msg["type"], msg.get("state", {}).get("hand", [])
    if kind == "hello":
        reply = {"name": "always-blind"}
    elif kind == "blind_nil":
        reply = {"blind_nil": True}
    elif kind == "keep":
        reply = {"keep": rng.random() < 0.5}
    elif kind == "discard":
        reply = {"cards": hand[len(hand) - msg["max"]:]}
    elif kind == "pass":
        reply = {"cards": hand[len(hand) - msg["count"]:]}
    elif kind == "bid":
        reply = {"bid": rng.choice(msg["legal"])}
    else:
        reply = {"card": rng.choice(msg["legal"])}
    print(json.dumps({"id": msg["id"], **reply}), flush=True)
'''

RULES = Rules(target=1000, max_hands=3)  # exactly three full hands per match
TIME = TimeControl(move_ms=5000, bank_ms=60000)  # no timeouts on a loaded CI machine


def card_key(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])


def cards_in(value: Any) -> set[str]:
    """Every string anywhere in a message that is a card name."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str) and CARD.match(v):
            found.add(v)
    return found


@dataclass
class Entry:
    """One message of a transcript, in file (= protocol) order."""

    line: int
    seat: int
    dir: str
    msg: dict[str, Any]


def read_transcript(path: Path) -> list[Entry]:
    entries = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        obj = json.loads(text)
        assert "note" not in obj, f"{path.name}:{number}: a fault in a clean match: {obj['note']}"
        assert "msg" in obj, f"{path.name}:{number}: an unparseable bot line: {obj}"
        entries.append(Entry(number, obj["seat"], obj["dir"], obj["msg"]))
    return entries


# --------------------------------------------------------------------------- (1) transcript-only checker


class Leak(AssertionError):
    """A message showed a seat a card it had no right to see (or broke the bookkeeping)."""


@dataclass
class SeatTrack:
    """What one seat has legitimately seen in the current hand, rebuilt from the transcript."""

    seat: int
    hand_no: int = 0
    seen: set[str] = field(default_factory=set)
    holding: set[str] | None = None  # its own cards; None while it has not looked (partnership)
    discards: set[str] = field(default_factory=set)  # two-player: cards it put on the pile
    passed: set[str] = field(default_factory=set)
    received: set[str] = field(default_factory=set)
    request: dict[str, Any] | None = None  # outstanding request
    keep: tuple[str, bool] | None = None  # two-player: (card offered, answer) awaiting its drawn event
    bn_discard: list[str] | None = None  # two-player: Blind Nil discard awaiting its replacement
    blind_answer: bool | None = None  # partnership: its answer to this hand's blind_nil offer
    bids_seen: int = 0  # bid_made events received this hand
    played: list[str] = field(default_factory=list)  # its own plays this hand


class LeakChecker:
    """Replays a transcript seat by seat and raises :class:`Leak` at the first illegitimate card.

    Only the transcript is used: the ground truth for each revelation is
    another message of the same transcript (an answer, or another seat's
    event), never the referee's own bookkeeping.
    """

    def __init__(self, variant: Variant, rules: Rules):
        self.variant, self.rules = variant, rules
        self.two = variant is Variant.TWO_PLAYER
        self.seats = [SeatTrack(s) for s in range(variant.seats)]
        # Ground truth from the answers, shared by all seats.
        self.plays: dict[tuple[int, str], int] = {}  # (hand, card) -> seat that played it
        self.passes: dict[tuple[int, int], tuple[list[str], int]] = {}  # (hand, seat) -> (cards, to)
        self.pile: dict[int, set[str]] = {}  # two-player: the discard pile of each hand
        self.drawn_by: dict[int, dict[str, int]] = {}  # two-player: hand -> card -> seat that drew it
        self.dealer: dict[int, int] = {}
        self.line = 0
        self.stats = {"blind_nil_offers": 0, "blind_nil_bids": 0, "exchanges": 0,
                      "replacements_from_opponent": 0, "messages": 0}

    def fail(self, seat: int, text: str) -> NoReturn:
        raise Leak(f"transcript line {self.line}, seat {seat}: {text}")

    def check(self, entries: list[Entry]) -> None:
        for e in entries:
            self.line = e.line
            if e.dir == "out":
                self.out(self.seats[e.seat], e.msg)
            else:
                self.answer(self.seats[e.seat], e.msg)
            self.stats["messages"] += 1

    # ------------------------------------------------------------ referee -> seat

    def out(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "hand_start":
            t = self.new_hand(t.seat, msg)
        reveal = getattr(self, f"on_{kind}", None)
        if reveal is not None:
            reveal(t, msg)
        if "id" in msg and kind != "hello":
            self.on_request(t, msg)
        if kind == "hello":
            t.request = msg
            return  # names and the match id are free text, not cards
        leaked = cards_in(msg) - t.seen
        if leaked:
            self.fail(t.seat, f"{kind} message shows {sorted(leaked, key=card_key)}, never legitimately seen "
                              f"by this seat in hand {t.hand_no}: {json.dumps(msg)[:300]}")

    def new_hand(self, seat: int, msg: dict[str, Any]) -> SeatTrack:
        """A new hand: nothing of it has been seen yet."""
        hand = msg["hand"]
        # Two-player hands are built by drawing; partnership cards are unseen until looked at.
        t = self.seats[seat] = SeatTrack(seat, hand, holding=set() if self.two else None)
        self.dealer[hand] = msg["first" if self.two else "dealer"]
        self.pile.setdefault(hand, set())
        self.drawn_by.setdefault(hand, {})
        return t

    def on_keep(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        card = msg["card"]
        if card in self.drawn_by[t.hand_no] or card in t.seen:
            self.fail(t.seat, f"keep offers {card}, which was already drawn this hand")
        t.seen.add(card)  # the drawn card is shown to the drawer: legitimate

    def on_drawn(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        if t.keep is None:
            self.fail(t.seat, f"drawn event {msg} without a keep answer of this seat before it "
                              "(another seat's draw shown to it)")
        offered, kept = t.keep
        t.keep = None
        mine, other = (msg["kept"], msg["discarded"]) if kept else (msg["discarded"], msg["kept"])
        if mine != offered:
            self.fail(t.seat, f"drawn {msg} does not match the offered {offered} answered keep={kept}")
        drawn = self.drawn_by[t.hand_no]
        if other in drawn or other in t.seen:
            self.fail(t.seat, f"drawn {msg}: second card {other} was already drawn this hand")
        drawn[offered] = drawn[other] = t.seat
        self.pile[t.hand_no].add(msg["discarded"])
        t.seen |= {offered, other}
        assert t.holding is not None
        t.holding.add(msg["kept"])
        t.discards.add(msg["discarded"])

    def on_hand(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        cards = set(msg["cards"])
        if msg["cards"] != sorted(cards, key=card_key):
            self.fail(t.seat, f"hand event cards are not sorted: {msg['cards']}")
        if t.holding is None:
            # Partnership: the first look of this hand. Legitimate only once the
            # seat has declined Blind Nil, or when all bids are in for a Blind Nil bidder.
            position = (t.seat - self.dealer[t.hand_no] - 1) % 4
            if t.blind_answer is True and t.bids_seen < 4:
                self.fail(t.seat, f"a Blind Nil bidder was shown its cards after {t.bids_seen} bids, "
                                  "before all bids were made")
            if t.blind_answer is None and self.rules.blind_nil:
                self.fail(t.seat, "shown its cards before it answered the Blind Nil offer")
            if t.blind_answer is None and t.bids_seen != position:
                self.fail(t.seat, f"shown its cards after {t.bids_seen} bids, but its bidding turn is "
                                  f"bid number {position + 1}")
            if len(cards) != 13:
                self.fail(t.seat, f"first hand event has {len(cards)} cards: {msg['cards']}")
            t.holding = cards  # verified at hand_end against the cards it plays
        elif cards != t.holding:
            self.fail(t.seat, f"hand event {sorted(cards, key=card_key)} differs from the seat's own holding "
                              f"{sorted(t.holding, key=card_key)} as built from the transcript")
        t.seen |= cards

    def on_received(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        cards, source = msg["cards"], msg["from"]
        if source == "discards":
            if not self.two or t.bn_discard is None:
                self.fail(t.seat, f"received from the discards without a Blind Nil discard: {msg}")
            gave = t.bn_discard or []
            t.bn_discard = None
            pile = self.pile[t.hand_no]
            if len(cards) != len(gave) or not set(cards) <= pile:
                self.fail(t.seat, f"replacements {cards} for discards {gave} are not {len(gave)} cards of the "
                                  f"pile {sorted(pile, key=card_key)}")
            self.stats["replacements_from_opponent"] += sum(
                1 for c in cards if self.drawn_by[t.hand_no].get(c) not in (None, t.seat))
            pile -= set(cards)
            pile |= set(gave)
        else:
            passed = self.passes.get((t.hand_no, source))
            if passed is None or passed[1] != t.seat or set(passed[0]) != set(cards):
                self.fail(t.seat, f"received {cards} from seat {source}, whose pass answer was {passed}")
            self.stats["exchanges"] += 1
        assert t.holding is not None
        t.holding |= set(cards)
        t.received |= set(cards)
        t.seen |= set(cards)

    def on_played(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        who = self.plays.get((t.hand_no, msg["card"]))
        if who != msg["seat"]:
            self.fail(t.seat, f"played event {msg}: the transcript has that card played by {who}")
        t.seen.add(msg["card"])

    def on_trick(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        for seat, card in msg["cards"]:
            if self.plays.get((t.hand_no, card)) != seat:
                self.fail(t.seat, f"trick {msg['cards']} holds {card} for seat {seat}, which did not play it")

    def on_bid_made(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        t.bids_seen += 1

    def on_hand_end(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        # Every card the seat was shown as its own is a card it then played.
        if t.holding:
            self.fail(t.seat, f"hand {t.hand_no} ended with {sorted(t.holding, key=card_key)} shown as its own "
                              "but never played by it")
        if len(t.played) != 13:
            self.fail(t.seat, f"played {len(t.played)} cards in hand {t.hand_no}")

    def on_request(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        if t.request is not None:
            self.fail(t.seat, f"request {msg['id']} sent while request {t.request['id']} is outstanding")
        t.request = msg
        state, kind = msg["state"], msg["type"]
        if kind == "blind_nil":
            self.stats["blind_nil_offers"] += 1
            if not self.two and (state["hand"] or t.holding is not None or t.seen):
                self.fail(t.seat, f"partnership blind_nil offer, but the seat has seen {sorted(t.seen)} "
                                  f"and state.hand is {state['hand']}")
        own = sorted(t.holding or (), key=card_key)
        if state["hand"] != own:
            self.fail(t.seat, f"{kind} state.hand {state['hand']} is not the seat's own holding {own}")
        for name, mine in (("discards", t.discards), ("passed", t.passed), ("received", t.received)):
            if name in state and set(state[name]) != mine:
                self.fail(t.seat, f"{kind} state.{name} {state[name]} is not {sorted(mine, key=card_key)}")
        for seat, card in state["played"]:
            if self.plays.get((t.hand_no, card)) != seat:
                self.fail(t.seat, f"{kind} state.played names {card} for seat {seat}, which did not play it")
        if kind == "play" and not set(msg["legal"]) <= (t.holding or set()):
            self.fail(t.seat, f"play request legal {msg['legal']} includes cards the seat does not hold")

    # ------------------------------------------------------------ seat -> referee

    def answer(self, t: SeatTrack, msg: dict[str, Any]) -> None:
        request, t.request = t.request, None
        if request is None or msg.get("id") != request["id"]:
            self.fail(t.seat, f"answer {msg} to no outstanding request ({request and request['id']})")
        kind = request["type"]
        if kind == "hello":
            return
        if kind == "keep":
            t.keep = (request["card"], msg["keep"])
            return
        if kind == "blind_nil":
            t.blind_answer = msg["blind_nil"]
            self.stats["blind_nil_bids"] += bool(msg["blind_nil"])
            return
        if kind == "bid":
            return
        # discard, pass and play give away cards, which must be the seat's own.
        holding = t.holding if t.holding is not None else set()
        gave = msg["cards"] if kind in ("discard", "pass") else [msg["card"]]
        if not set(gave) <= holding:
            self.fail(t.seat, f"{kind} answer gives {gave}, not all of which it was shown as its own")
        holding -= set(gave)
        if kind == "discard":
            t.bn_discard = gave
            t.discards |= set(gave)
        elif kind == "pass":
            self.passes[(t.hand_no, t.seat)] = (gave, request["to"])
            t.passed |= set(gave)
        else:
            card = gave[0]
            t.played.append(card)
            self.plays[(t.hand_no, card)] = t.seat


# --------------------------------------------------------------------------- (2) engine cross-check


def action_of(kind: str, answer: dict[str, Any]) -> Any:
    """The engine action of a transcript answer."""
    value = answer[protocol.ANSWER_FIELD[Phase(kind)]]
    if kind == "play":
        return parse_card(value)
    if kind in ("discard", "pass"):
        return tuple(parse_card(c) for c in value)
    return value


def cross_check_engine(entries: list[Entry], variant: Variant, rules: Rules, seed: int) -> int:
    """Replay the match in the engine from the transcript's answers; return the requests checked."""
    st: State = new_match(variant, rules, seed)
    checker = LeakChecker(variant, rules)
    expected: list[list[dict[str, Any]]] = [[] for _ in range(variant.seats)]

    def queue_events(state: State) -> None:
        for event in state.events:
            for seat, msg in protocol.event_messages(event, state.nseats):
                expected[seat].append(msg)
                if event.kind in ("hand", "drawn", "received") and event.to != seat:
                    raise Leak(f"engine event {event.kind} for seat {event.to} delivered to seat {seat}")

    queue_events(st)
    outstanding: dict[int, dict[str, Any]] = {}
    requests = 0
    for e in entries:
        checker.line = e.line
        msg = e.msg
        if e.dir == "in":
            checker.answer(checker.seats[e.seat], msg)
            request = outstanding.pop(e.seat)
            if request["type"] == "hello":
                continue
            st = step(st, action_of(request["type"], msg))
            queue_events(st)
            continue
        checker.out(checker.seats[e.seat], msg)
        if msg["type"] == "hello":
            outstanding[e.seat] = msg
            continue
        if "id" not in msg:
            want = expected[e.seat].pop(0) if expected[e.seat] else None
            assert msg == want, f"line {e.line}: seat {e.seat} got event {msg}, the engine says {want}"
            continue
        # A request: the engine must be waiting for this seat, in this phase, with this view.
        requests += 1
        outstanding[e.seat] = msg
        assert not expected[e.seat], f"line {e.line}: request sent before events {expected[e.seat]}"
        assert (st.turn, st.phase.value) == (e.seat, msg["type"]), \
            f"line {e.line}: transcript asks seat {e.seat} for {msg['type']}, engine awaits {st.turn} {st.phase.value}"
        view = seat_view(st, e.seat)
        got = {k: v for k, v in msg["state"].items() if k != "time"}
        assert got == view, f"line {e.line}: state differs from seat_view: {got} != {view}"
        known = set(names_of(known_cards(st, e.seat)))
        leaked = cards_in(msg) - known
        assert not leaked, f"line {e.line}: request to seat {e.seat} shows {sorted(leaked)} outside known_cards"
        seen = checker.seats[e.seat].seen
        assert seen == known, (f"line {e.line}: seat {e.seat} seen set from the transcript "
                               f"{sorted(seen, key=card_key)} != engine known_cards {sorted(known, key=card_key)}")
    assert st.over, "the engine replay did not reach the end of the match"
    assert all(not q for q in expected), f"events never delivered: {expected}"
    return requests


# --------------------------------------------------------------------------- the matches


@dataclass(frozen=True)
class Played:
    variant: Variant
    seed: int
    entries: list[Entry]


MATCHES: dict[str, tuple[Variant, int, list[str]]] = {
    # seat commands: "blind" = the always-Blind-Nil script, else a bundled bot
    "partnership-blind-vs-random": (Variant.PARTNERSHIP, 11, ["blind", "random", "heuristic", "random"]),
    "partnership-random": (Variant.PARTNERSHIP, 4, ["random", "random", "random", "random"]),
    "two-player-blind-vs-random": (Variant.TWO_PLAYER, 7, ["blind", "random"]),
    "two-player-random-vs-heuristic": (Variant.TWO_PLAYER, 4, ["random", "heuristic"]),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    out = tmp_path_factory.mktemp("no_leak")
    script = out / "always_blind_bot.py"
    script.write_text(BLIND_BOT, encoding="utf-8")
    results = {}
    for match_id, (variant, seed, kinds) in MATCHES.items():
        commands = {"random": RANDOM, "heuristic": HEURISTIC}
        seats = [SeatSpec(f"{kind}{i}", commands[kind] if kind in commands else [sys.executable, str(script), str(seed + i)],
                          env={"BOT_SEED": str(seed)})
                 for i, kind in enumerate(kinds)]
        record = run_match(MatchSpec(variant, seats, rules=RULES, seed=seed, match_id=match_id, logs=out / "logs",
                                     time=TIME))
        assert record.faults == [], f"{match_id}: {[f.to_dict() for f in record.faults]}"
        assert len(record.hands) == RULES.max_hands
        results[match_id] = Played(variant, seed, read_transcript(out / "logs" / f"{match_id}.jsonl"))
    return results


@pytest.mark.parametrize("match_id", list(MATCHES))
def test_transcript_shows_each_seat_only_what_it_may_see(played: dict[str, Played], match_id: str) -> None:
    p = played[match_id]
    checker = LeakChecker(p.variant, RULES)
    checker.check(p.entries)
    # The matches must really exercise Blind Nil, or the test proves little.
    assert checker.stats["blind_nil_bids"] >= 1, checker.stats
    if match_id.endswith("blind-vs-random"):
        if p.variant is Variant.PARTNERSHIP:
            assert checker.stats["exchanges"] >= 2 * RULES.max_hands, checker.stats
        else:
            assert checker.stats["replacements_from_opponent"] >= 1, checker.stats


@pytest.mark.parametrize("match_id", list(MATCHES))
def test_transcript_agrees_with_engine_known_cards(played: dict[str, Played], match_id: str) -> None:
    p = played[match_id]
    requests = cross_check_engine(p.entries, p.variant, RULES, p.seed)
    assert requests > 13 * p.variant.seats * RULES.max_hands


def test_partnership_blind_nil_offer_has_an_empty_hand(played: dict[str, Played]) -> None:
    offers = [e for e in played["partnership-blind-vs-random"].entries
              if e.dir == "out" and e.msg["type"] == "blind_nil"]
    assert len(offers) >= 4 * RULES.max_hands - 1
    for e in offers:
        assert e.msg["state"]["hand"] == [], f"line {e.line}: {e.msg}"
        assert cards_in(e.msg) == set(), f"line {e.line}: a Blind Nil offer names cards: {e.msg}"


def test_two_player_opponent_draw_never_shown(played: dict[str, Played]) -> None:
    """The opponent's kept and discarded cards reach a seat only once played, or as its own replacement."""
    for match_id in ("two-player-blind-vs-random", "two-player-random-vs-heuristic"):
        hand = 0
        drawn: dict[int, set[str]] = {0: set(), 1: set()}
        public: set[str] = set()
        got: dict[int, set[str]] = {0: set(), 1: set()}
        for e in played[match_id].entries:
            msg = e.msg
            if e.dir == "in":
                continue
            if msg["type"] == "hand_start" and msg["hand"] != hand:
                hand = msg["hand"]
                drawn, public, got = {0: set(), 1: set()}, set(), {0: set(), 1: set()}
            if msg["type"] == "drawn":
                drawn[e.seat] |= {msg["kept"], msg["discarded"]}
            elif msg["type"] == "played":
                public.add(msg["card"])
            elif msg["type"] == "received":
                got[e.seat] |= set(msg["cards"])
            hidden = drawn[1 - e.seat] - public - got[e.seat]
            assert not cards_in(msg) & hidden, \
                f"{match_id} line {e.line}: seat {e.seat} shown opponent's cards {cards_in(msg) & hidden}: {msg}"


# --------------------------------------------------------------------------- the checker can fail


def _doctor(entries: list[Entry], pick: Any, change: Any) -> list[Entry]:
    """A copy of ``entries`` with ``change(msg)`` applied to the first entry ``pick`` selects."""
    out = copy.deepcopy(entries)
    for e in out:
        if pick(e):
            change(e.msg)
            return out
    raise AssertionError("nothing to doctor")


def _first_request(kind: str) -> Any:
    return lambda e: e.dir == "out" and e.msg.get("type") == kind


def test_checker_catches_a_card_in_a_blind_nil_offer(played: dict[str, Played]) -> None:
    p = played["partnership-blind-vs-random"]
    bad = _doctor(p.entries, _first_request("blind_nil"), lambda m: m["state"]["hand"].append("AS"))
    with pytest.raises(Leak, match="blind_nil"):
        LeakChecker(p.variant, RULES).check(bad)


def test_checker_catches_the_partners_hand_shown(played: dict[str, Played]) -> None:
    p = played["partnership-random"]
    entries = p.entries
    partner = next(i for i, e in enumerate(entries) if e.dir == "out" and e.seat == 2 and e.msg["type"] == "hand")
    own = next(i for i, e in enumerate(entries) if e.dir == "out" and e.seat == 0 and e.msg["type"] == "hand")
    leak = copy.deepcopy(entries[partner])
    leak.seat = 0
    # Seat 2's cards shown to seat 0 before seat 0 may look at its own ...
    early = next(i for i, e in enumerate(entries) if e.dir == "out" and e.seat == 0 and e.msg["type"] == "hand_start")
    with pytest.raises(Leak, match="before it answered the Blind Nil offer"):
        LeakChecker(p.variant, RULES).check(entries[:early + 1] + [leak] + entries[early + 1:])
    # ... and after: they are not seat 0's holding.
    with pytest.raises(Leak, match="differs from the seat's own holding"):
        LeakChecker(p.variant, RULES).check(entries[:own + 1] + [leak] + entries[own + 1:])


def test_checker_catches_an_opponent_draw_and_a_played_card_early(played: dict[str, Played]) -> None:
    p = played["two-player-blind-vs-random"]
    entries = p.entries
    index = next(i for i, e in enumerate(entries) if e.dir == "out" and e.seat == 0 and e.msg["type"] == "drawn")
    leak = copy.deepcopy(entries[index])
    leak.seat = 1
    with pytest.raises(Leak, match="drawn"):
        LeakChecker(p.variant, RULES).check(entries[:index + 1] + [leak] + entries[index + 1:])
    # A card the opponent holds, named in a play request's trick before it is played.
    first_play = next(i for i, e in enumerate(entries) if e.dir == "out" and e.msg["type"] == "play")
    seat = entries[first_play].seat
    later = next(e.msg["card"] for e in entries[first_play:] if e.dir == "in" and e.seat != seat and "card" in e.msg)
    bad = copy.deepcopy(entries)
    bad[first_play].msg["state"]["trick"] = [[1 - seat, later]]
    with pytest.raises(Leak, match=later):
        LeakChecker(p.variant, RULES).check(bad)


def test_engine_cross_check_catches_a_view_that_differs(played: dict[str, Played]) -> None:
    p = played["two-player-random-vs-heuristic"]
    bad = _doctor(p.entries, _first_request("bid"), lambda m: m["state"]["discards"].pop())
    with pytest.raises(AssertionError, match="discards"):
        cross_check_engine(bad, p.variant, RULES, p.seed)

