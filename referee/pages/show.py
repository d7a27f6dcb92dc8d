"""``spades show``: a match's replay as plain text, hand by hand.

For bot authors who live in a terminal: the bids, the draw or the Blind Nil
exchanges, every trick with its winner, the hands (all open, or what one
seat saw), the score, and each fault where it happened. Cards use the
protocol's names (``QH``, ``TS``), so the text pastes into an issue as it is.
"""

from __future__ import annotations

from typing import Sequence

from referee.game.cards import CARD_NAMES, SUITS, cards_of
from referee.game.rules import Variant
from referee.pages.replay import Frame, Replay

__all__ = ["show_text"]


def _cards(cards: Sequence[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


def _hand(mask: int) -> str:
    """A hand by suit, spades first: ``S: A K 3 | H: Q 9 | C: - | D: J 2``."""
    cards = cards_of(mask)
    parts = []
    for suit in (3, 2, 0, 1):
        ranks = [CARD_NAMES[c][0] for c in reversed(cards) if c // 13 == suit]
        parts.append(f"{SUITS[suit]}: {' '.join(ranks) or '-'}")
    return " | ".join(parts)


def _bid(bid: int | None, blind: bool) -> str:
    if bid is None:
        return "-"
    return ("BN" if blind else "N") if bid == 0 else str(bid)


class _Writer:
    def __init__(self, replay: Replay, seat: int | None):
        self.r, self.seat = replay, seat
        self.lines: list[str] = []
        names = replay.names
        self.width = max(len(n) for n in names)

    def who(self, seat: int | None) -> str:
        if seat is None:  # Frame.seat may be None; the seat frames this names always have one
            return "the table"
        return f"seat {seat} ({self.r.names[seat]})"

    def sees(self, seat: int | None) -> bool:
        """Whether this page's viewer sees what ``seat`` sees (everyone, on the page of no seat)."""
        return self.seat is None or self.seat == seat

    def faults_at(self, index: int) -> None:
        for fa in self.r.faults:
            if fa.frame == index:
                f = fa.fault
                self.lines.append(f"  ! fault: {self.who(f.seat)} {f.kind.summary} ({f.kind.value}): {f.detail}")
                if fa.told is not None:
                    self.lines.append(f"    the referee told it: {fa.told}")

    def draw_text(self, f: Frame) -> str:
        if not self.sees(f.seat):
            return "drew"
        if f.action:
            return f"kept {CARD_NAMES[f.extra[0]]}, discarded {CARD_NAMES[f.extra[1]]}"
        return f"discarded {CARD_NAMES[f.extra[0]]}, took {CARD_NAMES[f.extra[1]]}"

    def setup_text(self, f: Frame) -> str:
        if f.kind == "blind_nil":
            return "bids Blind Nil" if f.action else "declines Blind Nil"
        if f.kind == "bid":
            return f"bids {'Nil' if f.action == 0 else f.action}"
        if f.kind == "discard":
            if self.sees(f.seat):
                return f"replaces {_cards(f.action)} with {_cards(f.extra)} from the discards"
            return f"replaces {len(f.action)} card(s) from the discards"
        if self.sees(f.seat) or self.sees(f.extra):
            return f"passes {_cards(f.action)} to {self.who(f.extra)}"
        return f"passes {len(f.action)} cards to {self.who(f.extra)}"

    def hands(self, when: str, frame: Frame) -> None:
        """The hands of ``frame`` (the seat's only, in one seat's view), then the bids."""
        r = self.r
        self.lines.append(f"  Hands {when}:" if self.seat is None else f"  Hand of seat {self.seat} {when}:")
        for s, mask in enumerate(frame.hands):
            if self.sees(s):
                self.lines.append(f"    seat {s} {r.names[s]:<{self.width}}  {_hand(mask)}")
        self.lines.append(f"  Bids: {' '.join(_bid(b, bl) for b, bl in zip(frame.bids, frame.blind))}")

    def hand(self, number: int) -> None:
        r = self.r
        two = r.variant is Variant.TWO_PLAYER
        start = r.hand_frames[number - 1]
        end = r.hand_frames[number] if number < len(r.hand_frames) else len(r.frames)
        frames = r.frames[start:end]
        if number <= len(r.hands):
            res = r.hands[number - 1]
            by = f"first {self.who(res.dealer)}" if two else f"dealer {self.who(res.dealer)}"
        else:
            by = f"first {self.who((number - 1) % 2)}" if two else f"dealer {self.who((number - 1) % 4)}"
        self.lines.append(f"Hand {number} ({by})")
        self.faults_at(start)
        turn = 0  # draws so far this hand
        shown_hands = False
        for k, f in enumerate(frames):
            if f.kind == "keep":
                if turn == 0:
                    self.lines.append("  Draw:" if self.seat is None else f"  Draw (what seat {self.seat} saw):")
                turn += 1
                self.lines.append(f"    {turn:>2}. seat {f.seat}: {self.draw_text(f)}")
            elif f.kind in ("blind_nil", "bid", "discard", "pass"):
                self.lines.append(f"  {self.who(f.seat)} {self.setup_text(f)}")
            elif f.kind == "play":
                if not shown_hands:
                    self.hands("at the first lead", r.frames[start + k - 1])
                    shown_hands = True
                if f.winner is not None:
                    cards = "  ".join(f"{s}:{CARD_NAMES[c]}" for s, c in f.table)
                    self.lines.append(f"  Trick {f.trick_no:>2}: {cards:<{9 * len(f.table)}} -> {self.who(f.winner)}")
            elif f.kind == "end" and f.winner is None and number > len(r.hands):
                if not shown_hands and any(f.hands):
                    self.hands("when the match ended", f)
                if f.table:
                    cards = "  ".join(f"{s}:{CARD_NAMES[c]}" for s, c in f.table)
                    self.lines.append(f"  Trick {f.trick_no + 1:>2}: {cards}  (not finished)")
            if k:
                self.faults_at(start + k)
        if number <= len(r.hands):
            res = r.hands[number - 1]
            self.lines.append(f"  Tricks won: {' '.join(map(str, res.tricks))} · points "
                              f"{' '.join(f'{p:+d}' for p in res.points)} · score {' '.join(map(str, res.score))}"
                              f" · bags {' '.join(map(str, res.bags))}")
        else:
            self.lines.append("  The hand was not finished.")
        self.lines.append("")


def show_text(replay: Replay, hand: int | None = None, seat: int | None = None) -> str:
    """The replay as text: every hand, or only ``hand``; all hands open, or ``seat``'s view."""
    rec = replay.record
    w = _Writer(replay, seat)
    seats = " · ".join(f"{s} {n}" for s, n in enumerate(rec.bots))
    w.lines.append(f"Match {rec.match}: {rec.variant.value}, seed {rec.seed}, {len(replay.hand_frames)} hand(s)")
    w.lines.append(f"Seats: {seats}")
    w.lines.append(f"Result: {rec.describe()}")
    if seat is not None:
        w.lines.append(f"View: seat {seat} ({rec.bots[seat]}); the other hands are hidden")
    w.lines.append("")
    if not replay.hand_frames:
        w.faults_at(0)
    numbers = [hand] if hand is not None else range(1, len(replay.hand_frames) + 1)
    for number in numbers:
        w.hand(number)
    return "\n".join(w.lines).rstrip("\n") + "\n"
