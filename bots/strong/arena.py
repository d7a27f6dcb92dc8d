"""A small in-process game loop speaking the protocol's message shapes to bot objects.

It exists for the bot's own offline work: calibrating the hand models by self-play
(:mod:`bots.strong.calibrate`), quick strength checks while developing, and tests that
need thousands of decisions without process start-up. It is *not* the referee (which
lives in ``referee/`` and which this package must not import); it follows the same rules
(docs/rules.md) and validates every answer, raising :class:`ArenaError` on an illegal one.

A bot is any object with ``handle(msg: dict) -> dict | None``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Protocol, Sequence

from .cards import legal_mask, mask_of, name, names_of, parse_card, trick_winner
from .game import RuleSet, score_hand, side_of


class Player(Protocol):
    def handle(self, msg: dict) -> dict | None: ...


class ArenaError(RuntimeError):
    """A bot answered something the rules forbid."""


@dataclasses.dataclass
class HandRecord:
    """One finished hand."""

    bids: list[int]
    blind: list[bool]
    tricks: list[int]
    points: list[int]
    score: list[int]
    bags: list[int]


@dataclasses.dataclass
class MatchResult:
    """A finished match: per-hand records, final score, winning side (None: draw)."""

    hands: list[HandRecord]
    score: list[int]
    winner: int | None


class Arena:
    """Plays whole matches between bot objects (one object per seat)."""

    def __init__(self, players: Sequence[Player], rules: RuleSet | None = None, seed: int = 0,
                 move_ms: int = 1000):
        self.players = list(players)
        self.n = len(players)
        if self.n not in (2, 4):
            raise ValueError(f"a match needs 2 or 4 players, got: {self.n}")
        self.rules = rules or RuleSet()
        self.rng = random.Random(seed)
        self.move_ms = move_ms
        self._next_id = 1

    # -- messaging --------------------------------------------------------------------
    def _send(self, seat: int, msg: dict) -> None:
        self.players[seat].handle(msg)

    def _all(self, msg: dict) -> None:
        for s in range(self.n):
            self._send(s, dict(msg))

    def _ask(self, seat: int, kind: str, extra: dict, field: str) -> Any:
        msg = {"type": kind, "id": self._next_id, **extra, "state": self._state(seat, kind)}
        self._next_id += 1
        ans = self.players[seat].handle(msg)
        if not isinstance(ans, dict) or ans.get("id") != msg["id"] or field not in ans:
            raise ArenaError(f"seat {seat} answered {kind} with {ans!r}")
        return ans[field]

    def _state(self, seat: int, phase: str) -> dict:
        st: dict[str, Any] = {
            "hand_no": self.hand_no, "seat": seat, "phase": phase,
            "hand": names_of(self.hands[seat]) if self.looked[seat] else [],
            "bids": list(self.bids), "blind": list(self.blind), "tricks": list(self.tricks),
            "trick": [[s, name(c)] for s, c in self.trick], "leader": self.leader,
            "spades_broken": self.broken, "played": [[s, name(c)] for s, c in self.played],
            "score": list(self.score), "bags": list(self.bag_count),
            "time": {"move_ms": self.move_ms, "bank_ms": 10000},
        }
        if self.n == 4:
            st["dealer"] = self.dealer
        else:
            st["first"] = self.first
            st["discards"] = names_of(self.own_discards[seat])
        return st

    # -- the match --------------------------------------------------------------------
    def play_match(self, hands: int | None = None, score: Sequence[int] = (0, 0)) -> MatchResult:
        """Play to the end of the match, or only its first ``hands`` hands (then the
        result has no winner): paired single-hand experiments use ``hands=1``, from the
        sides' ``score`` (a hand played behind or ahead: who may bid Blind Nil)."""
        n = self.n
        names = [f"p{s}" for s in range(n)]
        variant = "partnership" if n == 4 else "two-player"
        for s in range(n):
            ans = self.players[s].handle({
                "type": "hello", "id": 0, "protocol": 1, "match": "arena", "variant": variant,
                "seat": s, "names": names, "rules": dataclasses.asdict(self.rules),
                "time": {"move_ms": self.move_ms, "bank_ms": 10000}})
            if not isinstance(ans, dict) or ans.get("id") != 0:
                raise ArenaError(f"seat {s} answered hello with {ans!r}")
        self.score = [int(score[0]), int(score[1])]
        self.bag_count = [0, 0]
        records: list[HandRecord] = []
        hand_no = 0
        while True:
            hand_no += 1
            records.append(self._play_hand(hand_no))
            if hands is not None and hand_no >= hands:
                return MatchResult(records, list(self.score), None)
            a, b = self.score
            winner = None
            over = False
            if max(a, b) >= self.rules.target and a != b:
                over, winner = True, (0 if a > b else 1)
            elif self.rules.mercy is not None and min(a, b) <= self.rules.mercy:
                over, winner = True, (None if a == b else (0 if a > b else 1))
            elif hand_no >= self.rules.max_hands:
                over, winner = True, (None if a == b else (0 if a > b else 1))
            if over:
                self._all({"type": "match_end", "score": list(self.score), "winner": winner,
                           "reason": "target"})
                return MatchResult(records, list(self.score), winner)

    def _play_hand(self, hand_no: int) -> HandRecord:
        n, rules = self.n, self.rules
        self.hand_no = hand_no
        self.bids: list[int | None] = [None] * n
        self.blind = [False] * n
        self.tricks = [0] * n
        self.trick: list[tuple[int, int]] = []
        self.played: list[tuple[int, int]] = []
        self.broken = False
        self.looked = [False] * n
        self.own_discards = [0] * n
        deck = list(range(52))
        self.rng.shuffle(deck)
        if n == 4:
            self.dealer = (hand_no - 1) % 4
            self.first = 0
            self.hands = [0] * 4
            for i, c in enumerate(deck):
                self.hands[(self.dealer + 1 + i) % 4] |= 1 << c
            self._all({"type": "hand_start", "hand": hand_no, "dealer": self.dealer,
                       "score": list(self.score), "bags": list(self.bag_count)})
            self.leader = (self.dealer + 1) % 4
            self._bidding4()
        else:
            self.dealer = 0
            self.first = (hand_no - 1) % 2
            self.hands = [0, 0]
            self.leader = 1 - self.first
            self._all({"type": "hand_start", "hand": hand_no, "first": self.first,
                       "score": list(self.score), "bags": list(self.bag_count)})
            self._draw2(deck)
        self._play_tricks()
        bids = [b if b is not None else 0 for b in self.bids]
        points, bags = score_hand(rules, n, bids, self.blind, self.tricks, self.bag_count)
        self.score = [self.score[i] + points[i] for i in range(2)]
        self.bag_count = bags
        self._all({"type": "hand_end", "hand": hand_no, "bids": bids, "blind": list(self.blind),
                   "tricks": list(self.tricks), "points": points, "score": list(self.score),
                   "bags": list(self.bag_count)})
        return HandRecord(bids, list(self.blind), list(self.tricks), points, list(self.score),
                          list(bags))

    def _blind_allowed(self, seat: int) -> bool:
        if not (self.rules.blind_nil and self.rules.nil):
            return False
        if self.rules.blind_nil_behind is None:
            return True
        side = side_of(seat, self.n)
        return self.score[1 - side] - self.score[side] >= self.rules.blind_nil_behind

    def _bid_made(self, seat: int, bid: int, blind: bool) -> None:
        self.bids[seat] = bid
        self.blind[seat] = blind
        self._all({"type": "bid_made", "seat": seat, "bid": bid, "blind": blind})

    def _legal_bids(self) -> list[int]:
        return list(range(0 if self.rules.nil else 1, 14))

    def _ask_bid(self, seat: int) -> None:
        legal = self._legal_bids()
        bid = self._ask(seat, "bid", {"legal": legal}, "bid")
        if bid not in legal or isinstance(bid, bool):
            raise ArenaError(f"seat {seat} bid {bid!r}; legal {legal}")
        self._bid_made(seat, bid, False)

    def _bidding4(self) -> None:
        for i in range(4):
            seat = (self.dealer + 1 + i) % 4
            if self._blind_allowed(seat):
                bn = self._ask(seat, "blind_nil", {}, "blind_nil")
                if not isinstance(bn, bool):
                    raise ArenaError(f"seat {seat} answered blind_nil with {bn!r}")
                if bn:
                    self._bid_made(seat, 0, True)
                    continue
            self.looked[seat] = True
            self._send(seat, {"type": "hand", "cards": names_of(self.hands[seat])})
            self._ask_bid(seat)
        for seat in range(4):
            if not self.looked[seat]:
                self.looked[seat] = True
                self._send(seat, {"type": "hand", "cards": names_of(self.hands[seat])})
        k = self.rules.blind_nil_cards
        for side in (0, 1):
            a, b = side, side + 2
            blind = [s for s in (a, b) if self.blind[s]]
            if len(blind) != 1 or k == 0:
                continue
            bn = blind[0]
            partner = (bn + 2) % 4
            for giver, taker in ((partner, bn), (bn, partner)):
                cards = self._ask(giver, "pass", {"count": k, "to": taker}, "cards")
                cs = self._cards(giver, cards, exactly=k)
                m = mask_of(cs)
                self.hands[giver] &= ~m
                self.hands[taker] |= m
                self._send(taker, {"type": "received", "cards": names_of(m), "from": giver})
                self._send(taker, {"type": "hand", "cards": names_of(self.hands[taker])})
                self._send(giver, {"type": "hand", "cards": names_of(self.hands[giver])})

    def _cards(self, seat: int, cards: Any, exactly: int | None = None, at_most: int | None = None) -> list[int]:
        if not isinstance(cards, list):
            raise ArenaError(f"seat {seat} answered cards {cards!r}")
        cs = [parse_card(c) for c in cards]
        if len(set(cs)) != len(cs) or any(not self.hands[seat] >> c & 1 for c in cs):
            raise ArenaError(f"seat {seat} gave cards it does not hold: {cards!r}")
        if exactly is not None and len(cs) != exactly:
            raise ArenaError(f"seat {seat} gave {len(cs)} cards, expected {exactly}")
        if at_most is not None and len(cs) > at_most:
            raise ArenaError(f"seat {seat} gave {len(cs)} cards, at most {at_most}")
        return cs

    def _draw2(self, deck: list[int]) -> None:
        first, second = self.first, 1 - self.first
        for seat in (first, second):
            if self._blind_allowed(seat):
                bn = self._ask(seat, "blind_nil", {}, "blind_nil")
                if not isinstance(bn, bool):
                    raise ArenaError(f"seat {seat} answered blind_nil with {bn!r}")
                if bn:
                    self._bid_made(seat, 0, True)
        self.looked = [True, True]
        pile = 0
        pos = 0
        for turn in range(26):
            seat = first if turn % 2 == 0 else second
            top, nxt = deck[pos], deck[pos + 1]
            pos += 2
            keep = self._ask(seat, "keep", {"card": name(top)}, "keep")
            if not isinstance(keep, bool):
                raise ArenaError(f"seat {seat} answered keep with {keep!r}")
            kept, disc = (top, nxt) if keep else (nxt, top)
            self.hands[seat] |= 1 << kept
            self.own_discards[seat] |= 1 << disc
            pile |= 1 << disc
            self._send(seat, {"type": "drawn", "kept": name(kept), "discarded": name(disc)})
        for seat in (first, second):
            self._send(seat, {"type": "hand", "cards": names_of(self.hands[seat])})
        for seat in (first, second):
            if self.bids[seat] == 0 and self.blind[seat] and self.rules.blind_nil_cards:
                mx = self.rules.blind_nil_cards
                cards = self._ask(seat, "discard", {"max": mx}, "cards")
                cs = self._cards(seat, cards, at_most=mx)
                if cs:
                    before = [c for c in range(52) if pile >> c & 1]
                    got = self.rng.sample(before, len(cs))
                    m, g = mask_of(cs), mask_of(got)
                    pile = (pile & ~g) | m
                    self.hands[seat] = (self.hands[seat] & ~m) | g
                    self.own_discards[seat] = (self.own_discards[seat] | m) & ~g
                    self._send(seat, {"type": "received", "cards": names_of(g), "from": "discards"})
                    self._send(seat, {"type": "hand", "cards": names_of(self.hands[seat])})
        for seat in (second, first):
            if self.bids[seat] is None:
                self._ask_bid(seat)

    def _play_tricks(self) -> None:
        n = self.n
        for _ in range(13):
            self.trick = []
            for i in range(n):
                seat = (self.leader + i) % n
                led = self.trick[0][1] // 13 if self.trick else -1
                legal = legal_mask(self.hands[seat], led, self.broken)
                card_name = self._ask(seat, "play", {"legal": names_of(legal)}, "card")
                card = parse_card(card_name)
                if not legal >> card & 1:
                    raise ArenaError(f"seat {seat} played {card_name!r}; legal {names_of(legal)}")
                self.hands[seat] &= ~(1 << card)
                if card // 13 == 3:
                    self.broken = True
                self.trick.append((seat, card))
                self.played.append((seat, card))
                self._all({"type": "played", "seat": seat, "card": card_name})
            w = trick_winner(self.trick)
            self.tricks[w] += 1
            self._all({"type": "trick", "cards": [[s, name(c)] for s, c in self.trick], "winner": w})
            self.leader = w
        self.trick = []
        if any(self.hands):
            raise ArenaError("cards left after 13 tricks")


class PolicyBot:
    """A quick heuristic opponent: the fitted hand model bids, the rule-based policy plays
    (no sampling). Stands in for a conventional heuristic bot in offline experiments."""

    name = "policy"

    def __init__(self, seed: int = 0):
        from .bot import StrongBot  # local: bot imports this module's siblings only
        self._inner = StrongBot(seed=seed)
        self.rng = random.Random(seed)

    def handle(self, msg: dict) -> dict | None:
        from .bidding import predicted_bid
        from .search import legal_now, policy_card
        kind = msg.get("type")
        if "id" in msg and kind in ("bid", "play"):
            inner = self._inner
            view = inner._view(msg)
            if kind == "bid":
                legal = msg["legal"]
                b = predicted_bid(view.hand, inner.n, inner.rules.nil)
                return {"id": msg["id"], "bid": b if b in legal else legal[-1]}
            legal = mask_of(parse_card(c) for c in msg["legal"]) or legal_now(view)
            return {"id": msg["id"], "card": name(policy_card(view, legal))}
        return self._inner.handle(msg)
