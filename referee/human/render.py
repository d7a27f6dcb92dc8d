"""What the person sees: the table, the hand, trick and scoring explanations.

Everything here is a pure function from protocol data to lines of text, so the
screens can be tested without a terminal. Two looks are supported, chosen by
:class:`Style`: suit symbols with ANSI colours (red hearts and diamonds,
dimmed unplayable cards), or plain ASCII letters (``QS``, ``10H``) for files,
pipes and terminals without the glyphs. Every block fits in 80 columns.

Seats are named from the person's point of view: *You*, *Left*, *Partner* and
*Right* in a partnership (seat + 1 is on your left, as play goes clockwise),
*You* and *Opponent* in the two-player game; sides are *Us* and *Them*.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable, Mapping, Sequence

from referee.game.cards import RANKS, SUIT_SYMBOLS, SUITS
from referee.game.rules import Variant

__all__ = [
    "HandScore",
    "Seating",
    "Style",
    "View",
    "WIDTH",
    "contract_line",
    "draw_block",
    "explain_hand",
    "hand_lines",
    "hand_summary",
    "help_text",
    "match_summary",
    "score_line",
    "sorted_hand",
    "status_block",
    "trick_summary",
    "visible_len",
    "welcome",
]

WIDTH = 80
"""Columns every block is laid out for."""

_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def visible_len(text: str) -> int:
    """Length of ``text`` as displayed, ANSI colour codes excluded."""
    return len(_ANSI_RE.sub("", text))


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - visible_len(text))
    return gap + text if right else text + gap


@dataclasses.dataclass(frozen=True)
class Style:
    """How cards and emphasis are drawn: symbols and colours, or plain ASCII."""

    symbols: bool = True
    color: bool = True

    @classmethod
    def plain(cls) -> "Style":
        """ASCII letters, no colour: for files, pipes and ``--ascii``."""
        return cls(symbols=False, color=False)

    def paint(self, text: str, *codes: int) -> str:
        """Wrap ``text`` in the ANSI SGR ``codes`` when colour is on."""
        if not self.color or not codes:
            return text
        return f"\x1b[{';'.join(map(str, codes))}m{text}\x1b[0m"

    def bold(self, text: str) -> str:
        return self.paint(text, 1)

    def dim(self, text: str) -> str:
        return self.paint(text, 2)

    def warn(self, text: str) -> str:
        return self.paint(text, 33)

    def suit(self, suit: int) -> str:
        """The suit's symbol (coloured) or letter."""
        if not self.symbols:
            return SUITS[suit]
        return self.paint(SUIT_SYMBOLS[suit], 31) if suit in (1, 2) else SUIT_SYMBOLS[suit]

    def card(self, name: str, dim: bool = False) -> str:
        """A protocol card name as shown: ``10♥`` (red) or ``10H``.

        Tens read as ``10``, which people recognise faster than ``T`` (the
        parser accepts both). ``dim`` greys the card out (unplayable now).
        """
        rank = "10" if name[0] == "T" else name[0]
        suit = SUITS.index(name[1])
        if not self.symbols:
            return self.dim(rank + SUITS[suit]) if dim else rank + SUITS[suit]
        glyph = SUIT_SYMBOLS[suit]
        if dim:
            return self.paint(rank + glyph, 2)
        return self.paint(rank + glyph, 31) if suit in (1, 2) else rank + glyph

    def cards(self, names: Iterable[str]) -> str:
        """Cards separated by spaces."""
        return " ".join(self.card(n) for n in names)

    @property
    def sep(self) -> str:
        return " \u00b7 " if self.symbols else " | "

    @property
    def prompt(self) -> str:
        return "\u203a " if self.symbols else "> "

    @property
    def arrow(self) -> str:
        return "\u2192" if self.symbols else "->"

    def rule(self, title: str, heavy: bool = False) -> str:
        """A full-width title line: ``─── Hand 2 · trick 5 ────…``."""
        ch = ("\u2550" if heavy else "\u2500") if self.symbols else ("=" if heavy else "-")
        head = f"{ch * 3} {title} "
        return self.bold(head + ch * max(3, WIDTH - 1 - visible_len(head)))


@dataclasses.dataclass(frozen=True)
class Seating:
    """Who sits where, named from the person's seat."""

    variant: Variant
    seat: int
    names: tuple[str, ...]

    @property
    def seats(self) -> int:
        return self.variant.seats

    @property
    def my_side(self) -> int:
        return self.variant.side_of(self.seat)

    def order(self) -> list[int]:
        """Seats clockwise starting with the person's own."""
        return [(self.seat + i) % self.seats for i in range(self.seats)]

    def label(self, seat: int) -> str:
        """``You``, ``Left``, ``Partner``, ``Right`` or ``Opponent``."""
        offset = (seat - self.seat) % self.seats
        if self.variant is Variant.TWO_PLAYER:
            return ("You", "Opponent")[offset]
        return ("You", "Left", "Partner", "Right")[offset]

    def side_label(self, side: int) -> str:
        if self.variant is Variant.TWO_PLAYER:
            return self.label(side)
        return "Us" if side == self.my_side else "Them"

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"


@dataclasses.dataclass(frozen=True)
class View:
    """The ``state`` object of a request, typed (protocol v1)."""

    hand_no: int
    seat: int
    hand: tuple[str, ...]
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    tricks: tuple[int, ...]
    trick: tuple[tuple[int, str], ...]
    leader: int | None
    spades_broken: bool
    score: tuple[int, ...]
    bags: tuple[int, ...]
    dealer: int | None = None
    first: int | None = None
    move_ms: int | None = None
    bank_ms: int | None = None

    @classmethod
    def from_state(cls, state: Mapping[str, Any], seats: int) -> "View":
        """Read a request's ``state``; missing fields get neutral values."""
        time = state.get("time") or {}
        return cls(
            hand_no=int(state.get("hand_no") or 0),
            seat=int(state.get("seat") or 0),
            hand=tuple(state.get("hand") or ()),
            bids=tuple(state.get("bids") or (None,) * seats),
            blind=tuple(bool(b) for b in (state.get("blind") or (False,) * seats)),
            tricks=tuple(int(t) for t in (state.get("tricks") or (0,) * seats)),
            trick=tuple((int(s), str(c)) for s, c in (state.get("trick") or ())),
            leader=state.get("leader"),
            spades_broken=bool(state.get("spades_broken")),
            score=tuple(state.get("score") or (0, 0)),
            bags=tuple(state.get("bags") or (0, 0)),
            dealer=state.get("dealer"),
            first=state.get("first"),
            move_ms=time.get("move_ms"),
            bank_ms=time.get("bank_ms"),
        )

    @property
    def trick_no(self) -> int:
        """1-based number of the trick being played."""
        return sum(self.tricks) + 1


def _bags(n: int) -> str:
    return f"{n} bag" if n == 1 else f"{n} bags"


def score_line(seating: Seating, score: Sequence[int], bags: Sequence[int], target: int | None, style: Style) -> str:
    """``Us 125 (3 bags) · Them 98 (1 bag) · playing to 500``."""
    sides = [seating.my_side, 1 - seating.my_side]
    parts = [f"{seating.side_label(s)} {style.bold(str(score[s]))} ({_bags(bags[s])})" for s in sides]
    if target is not None:
        parts.append(f"playing to {target}")
    return style.sep.join(parts)


def contract_line(view: View, seating: Seating, style: Style) -> str:
    """``Tricks toward the bids: Us 3 of 7 · Them 5 of 6``.

    Only non-nil bidders count toward a contract (a nil bidder's tricks are
    bags), so this is the number a player plans with.
    """
    parts = []
    for side in (seating.my_side, 1 - seating.my_side):
        members = [s for s in range(seating.seats) if seating.variant.side_of(s) == side]
        bids = [view.bids[s] for s in members if s < len(view.bids)]
        contract = sum(b for b in bids if b)
        have = sum(view.tricks[s] for s in members if s < len(view.bids) and view.bids[s])
        label = seating.side_label(side)
        parts.append(f"{label} {have} of {contract}" if contract else f"{label} bid nil only")
    return "Tricks toward the bids: " + style.sep.join(parts)


def _bid_text(bid: int | None, blind: bool) -> str:
    if bid is None:
        return "-"
    if bid == 0:
        return "blind nil" if blind else "nil"
    return str(bid)


def hand_lines(hand: Sequence[str], style: Style, playable: Iterable[str] | None = None) -> list[str]:
    """The hand, one suit per line, each card with its number (1 = first card).

    Cards not in ``playable`` (when given) are dimmed; a void suit says so,
    which matters when deciding what to lead or discard.
    """
    ok = set(playable) if playable is not None else None
    numbered = list(enumerate(sorted(hand, key=_card_order), start=1))
    lines: list[str] = []
    for suit in range(4):
        items = [
            style.dim(f"{n:>2}:") + _pad(style.card(c, dim=ok is not None and c not in ok), 3)
            for n, c in numbered
            if c[1] == SUITS[suit]
        ]
        head = f"  {style.suit(suit)} "
        if not items:
            lines.append(head + style.dim("  (none)"))
            continue
        # Ten cards of 7 columns fit 80; a longer suit (rare) wraps under itself.
        for i in range(0, len(items), 10):
            lines.append((head if i == 0 else "     ") + " ".join(items[i : i + 10]).rstrip())
    return lines


def _card_order(name: str) -> tuple[int, int]:
    return SUITS.index(name[1]), RANKS.index(name[0])


def sorted_hand(hand: Iterable[str]) -> list[str]:
    """Cards in screen order (by suit, then rank): the order numbers refer to."""
    return sorted(hand, key=_card_order)


def status_block(
    view: View,
    seating: Seating,
    style: Style,
    target: int | None,
    phase: str,
    playable: Iterable[str] | None = None,
) -> list[str]:
    """The table at a decision: header, seats with bids (and tricks), score, hand.

    ``phase`` is ``"blind"`` (no hand to show yet), ``"bid"``, ``"exchange"`` or
    ``"play"``; in play the block adds tricks won and the trick in progress.
    """
    head = [f"Hand {view.hand_no}"]
    if view.dealer is not None:
        head.append(f"dealer {seating.label(view.dealer)}")
    if view.first is not None:
        head.append("you draw first" if view.first == seating.seat else "opponent draws first")
    if phase == "play":
        head.append(f"trick {view.trick_no} of 13")
        head.append("spades broken" if view.spades_broken else "spades not broken")
    lines = [style.rule(style.sep.join(head).strip())]

    if phase == "blind":
        # Nothing to show but the bids so far: the person has not seen their cards.
        made = [f"{seating.label(s)} {_bid_text(view.bids[s], view.blind[s])}" for s in seating.order() if view.bids[s] is not None]
        lines.append("  Bids so far: " + (style.sep.join(made).strip() if made else "none yet"))
    else:
        lines.extend(_seat_rows(view, seating, style, phase))
    if phase == "play":
        lines.append("  " + contract_line(view, seating, style))
    lines.append("  " + score_line(seating, view.score, view.bags, target, style))
    if view.move_ms is not None:
        clock = f"  clock: {view.move_ms / 1000:g} s per decision"
        if view.bank_ms:
            clock += f" + {view.bank_ms / 1000:g} s in reserve"
        lines.append(style.dim(clock))
    if phase != "blind":
        lines.extend(hand_lines(view.hand, style, playable if phase == "play" else None))
    return lines


def draw_block(view: View, seating: Seating, style: Style, target: int | None, card: str) -> list[str]:
    """The two-player draw: the cards kept so far and the card just drawn.

    Compact on purpose: there are thirteen of these per hand and only the
    drawn card is new each time.
    """
    head = [f"Hand {view.hand_no}", f"the draw, card {len(view.hand) + 1} of 13"]
    lines = [style.rule(style.sep.join(head))]
    lines.append("  " + score_line(seating, view.score, view.bags, target, style))
    bids = [f"{seating.label(s)} bid {_bid_text(view.bids[s], view.blind[s])}" for s in seating.order() if view.bids[s] is not None]
    if bids:
        lines.append("  " + style.sep.join(bids))
    held = style.cards(sorted_hand(view.hand)) if view.hand else style.dim("(nothing yet)")
    lines.append(f"  You hold  {held}")
    lines.append(f"  You drew  {style.card(card)}")
    return lines


def _seat_rows(view: View, seating: Seating, style: Style, phase: str) -> list[str]:
    """One row per seat, clockwise from the person: bid, tricks won, card in the trick.

    The person's own missing bid or card shows as ``?``: it is their turn.
    """
    playing = phase == "play"
    in_trick = dict(view.trick)
    led = view.trick[0][0] if view.trick else None
    cols = f"  {'':<10}{'':<16}{'bid':>9}" + (f"{'won':>5}   trick" if playing else "")
    rows = [style.dim(cols.rstrip())]
    for s in seating.order():
        me = s == seating.seat
        bid = view.bids[s] if s < len(view.bids) else None
        bid_text = "?" if me and bid is None and phase == "bid" else _bid_text(bid, s < len(view.blind) and view.blind[s])
        row = f"  {_pad(style.bold(seating.label(s)) if me else seating.label(s), 10)}"
        row += _pad(seating.name(s)[:15], 16) + _pad(style.bold(bid_text) if bid_text == "?" else bid_text, 9, right=True)
        if playing:
            row += f"{view.tricks[s] if s < len(view.tricks) else 0:>5}   "
            if s in in_trick:
                row += style.card(in_trick[s]) + (style.dim(" led") if s == led else "")
            elif me:
                row += style.bold("?")
        rows.append(row.rstrip())
    return rows


def trick_summary(
    cards: Sequence[Sequence[Any]],
    winner: int,
    seating: Seating,
    style: Style,
    trick_no: int,
    broke_spades: bool,
) -> list[str]:
    """``Trick 5: Left 7♥ · Partner 2♥ · … → Right wins`` (plus a spades note)."""
    played = [f"{seating.label(int(s))} {style.card(str(c))}" for s, c in cards]
    won = dict((int(s), str(c)) for s, c in cards).get(winner)
    winner_text = f"{seating.label(winner)} {'win' if winner == seating.seat else 'wins'}"
    text = f"Trick {trick_no}: " + "  ".join(played) + f"  {style.arrow} " + style.bold(winner_text)
    if won is not None and won[1] == "S" and cards and str(cards[0][1])[1] != "S":
        text += " with a spade"
    lines = _wrap(text, indent="  ", hanging="    ")
    if broke_spades:
        lines.append("    Spades are broken now: they may be led.")
    return lines


def _wrap(text: str, indent: str = "", hanging: str = "") -> list[str]:
    """Wrap ``text`` to :data:`WIDTH` at spaces, measuring visible characters only."""
    lines: list[str] = []
    current, empty = indent, True
    for word in text.split(" "):
        if not empty and visible_len(current) + 1 + visible_len(word) > WIDTH - 1:
            lines.append(current)
            current, empty = hanging, True
        current += word if empty else " " + word
        empty = False
    lines.append(current)
    return lines


@dataclasses.dataclass(frozen=True)
class HandScore:
    """How one side's points for a hand came about (the rules' scoring, itemised)."""

    side: int
    parts: tuple[tuple[str, int], ...]
    """(what, points) items in the order they are applied."""
    hand_bags: int
    """Bags taken this hand (overtricks and a failed nil's tricks)."""
    total: int
    """Points the items add up to."""
    bags_after: int


def explain_hand(
    variant: Variant,
    rules: Mapping[str, Any],
    side: int,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags_before: int,
    labels: Sequence[str],
) -> HandScore:
    """Itemise a side's hand score from the bids and tricks (rules.md scoring).

    ``labels`` names each seat in the items (``Partner's nil``). The adapter
    shows the items only when they add up to the referee's own ``points``, so
    a rule this function does not model can never produce a wrong explanation.
    """
    members = [s for s in range(variant.seats) if variant.side_of(s) == side]
    nil_bonus = int(rules.get("nil_bonus", 100))
    blind_bonus = int(rules.get("blind_nil_bonus", 200))
    bag_limit = int(rules.get("bag_limit", 10))
    bag_penalty = int(rules.get("bag_penalty", 100))
    parts: list[tuple[str, int]] = []
    contract = sum(bids[s] for s in members if bids[s] > 0)
    taken = sum(tricks[s] for s in members if bids[s] > 0)
    bags = 0
    if contract > 0:
        if taken >= contract:
            parts.append((f"bid {contract} made", 10 * contract))
            bags += taken - contract
        else:
            parts.append((f"bid {contract} set ({taken} taken)", -10 * contract))
    for s in members:
        if bids[s] != 0:
            continue
        kind = "blind nil" if blind[s] else "nil"
        bonus = blind_bonus if blind[s] else nil_bonus
        who = "your" if labels[s] == "You" else f"{labels[s]}'s"
        if tricks[s] == 0:
            parts.append((f"{who} {kind} made", bonus))
        else:
            parts.append((f"{who} {kind} failed", -bonus))
            bags += tricks[s]
    if bags:
        parts.append((_bags(bags), bags))
    penalties, bags_after = divmod(bags_before + bags, bag_limit)
    if penalties:
        parts.append((f"{bag_limit} bags penalty" + (f" x{penalties}" if penalties > 1 else ""), -bag_penalty * penalties))
    return HandScore(side, tuple(parts), bags, sum(p for _, p in parts), bags_after)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def hand_summary(
    seating: Seating,
    rules: Mapping[str, Any],
    event: Mapping[str, Any],
    bags_before: Sequence[int],
    style: Style,
) -> list[str]:
    """Explain a ``hand_end`` event: per side, bids and tricks, then how they scored."""
    variant = seating.variant
    bids = [int(b) for b in event["bids"]]
    blind = [bool(b) for b in event.get("blind") or [False] * variant.seats]
    tricks = [int(t) for t in event["tricks"]]
    points = list(event["points"])
    lines = [style.rule(f"Hand {event.get('hand', '?')} scored")]
    labels = [seating.label(s) for s in range(variant.seats)]
    for side in (seating.my_side, 1 - seating.my_side):
        members = [s for s in seating.order() if variant.side_of(s) == side]
        who = "; ".join(
            f"{labels[s]} bid {_bid_text(bids[s], blind[s])}, took {tricks[s]}" for s in members
        )
        if variant is Variant.TWO_PLAYER:
            who = who.split(" ", 1)[1]  # "You bid 4, took 5" -> "bid 4, took 5" under the "You:" label
        head = f"  {seating.side_label(side) + ':':<10}"
        lines.append(head + who)
        explained = explain_hand(variant, rules, side, bids, blind, tricks, bags_before[side], labels)
        reported_bags = event.get("bags")
        consistent = explained.total == points[side] and (
            reported_bags is None or explained.bags_after == reported_bags[side]
        )
        total = style.bold(_signed(points[side]))
        if consistent and explained.parts:
            items = ", ".join(f"{what} {_signed(p)}" for what, p in explained.parts)
            lines.extend(_wrap(f"{items} {style.arrow} {total}", indent=" " * 12, hanging=" " * 14))
        else:
            lines.append(" " * 12 + f"{total} this hand")
    score = event.get("score") or [0, 0]
    bags = event.get("bags") or [0, 0]
    lines.append("  Score: " + score_line(seating, score, bags, rules.get("target"), style))
    return lines


_REASONS = {
    "target": "the target was reached",
    "max_hands": "the hand limit was reached",
    "mercy": "the mercy rule ended it",
    "forfeit": "by forfeit",
}


def match_summary(seating: Seating, event: Mapping[str, Any], style: Style) -> list[str]:
    """The final result from a ``match_end`` event, from the person's side."""
    score = list(event.get("score") or [0, 0])
    winner = event.get("winner")
    reason = _REASONS.get(str(event.get("reason")), str(event.get("reason")))
    mine, theirs = score[seating.my_side], score[1 - seating.my_side]
    if winner is None:
        verdict = f"a draw, {mine} to {theirs}"
    elif winner == seating.my_side:
        verdict = ("you win" if seating.variant is Variant.TWO_PLAYER else "your side wins") + f" {mine} to {theirs}"
    else:
        verdict = ("you lose" if seating.variant is Variant.TWO_PLAYER else "your side loses") + f" {mine} to {theirs}"
    return [style.rule(f"Match over: {verdict} ({reason})", heavy=True)]


def welcome(seating: Seating, rules: Mapping[str, Any], time: Mapping[str, Any] | None, style: Style) -> list[str]:
    """The greeting after ``hello``: who sits where, the target and the clock."""
    v = seating.variant
    lines = [style.rule(f"Spades{style.sep}{v.value}{style.sep}playing to {rules.get('target', 500)}", heavy=True)]
    others = [f"{seating.label(s)}: {seating.name(s)}" for s in seating.order()[1:]]
    lines.append(f"  You sit in seat {seating.seat}; play goes clockwise: {', '.join(seating.label(s) for s in seating.order())}.")
    lines.extend(_wrap(style.sep.join(others).strip(), indent="  ", hanging="  "))
    if v is Variant.PARTNERSHIP:
        lines.append("  You and Partner (opposite) score together against Left and Right.")
    move_ms = (time or {}).get("move_ms")
    if move_ms is None:
        lines.append("  No clock: take your time.")
    else:
        bank = (time or {}).get("bank_ms") or 0
        extra = f", plus a {bank / 1000:g} s reserve" if bank else ""
        lines.append(f"  Clock: {move_ms / 1000:g} s per decision{extra}.")
    lines.append(style.dim("  Type help at any prompt. Ctrl-C or Ctrl-D leaves the match."))
    return lines


_HELP_CARDS = (
    "Name a card as you like: qs, QS, 10h, Th, Q\u2660, queen of spades,",
    "or type its number in the list (the small number before each card).",
)
_HELP_COMMANDS = (
    "Anytime: hand (show your cards), score (the table and scores),",
    "help (this text), quit (leave the match; your seat is then faulted).",
)


def help_text(kind: str) -> list[str]:
    """How to answer a question of request type ``kind``, then the commands."""
    body: tuple[str, ...]
    if kind == "play":
        body = _HELP_CARDS + (
            "You must follow the suit led if you can. You may lead a spade only",
            "once spades are broken (or if you hold nothing but spades).",
        )
    elif kind == "bid":
        body = (
            "Bid how many tricks you and your cards will take: a number 1-13,",
            "or nil (or 0): +100 if you take no trick at all, -100 otherwise.",
        )
    elif kind == "blind_nil":
        body = (
            "Blind nil is a nil bid made before looking at your cards:",
            "+200 if you take no trick, -200 otherwise. Answer y or n.",
        )
    elif kind == "keep":
        body = (
            "y (or keep): keep the card you drew and discard the next one.",
            "n (or discard): discard it and keep the next card instead.",
            "You see both cards either way; your opponent sees neither.",
        )
    elif kind == "discard":
        body = _HELP_CARDS + (
            "Name up to the allowed number of cards, separated by spaces; each is",
            "replaced by a random card from the discards. Press Enter to keep all.",
        )
    elif kind == "pass":
        body = _HELP_CARDS + ("Name exactly the number of cards asked for, separated by spaces.",)
    else:
        body = ()
    return ["  " + line for line in body + _HELP_COMMANDS]
