"""What the other seats' plays say about the cards they still hold.

The sampler's hard constraints (voids, cards seen) only rule deals out. Plays say more:
a player whose side still needs tricks and who cannot win the trick follows with its
*lowest* card of the suit, and the last player to a trick wins it with its *cheapest*
winner. Nearly every bot and every human plays so, so a seat that followed a heart 9
under a heart queen while its side was short of its bid is unlikely to hold the heart 4.
:func:`play_evidence` turns the hand's plays into such soft facts, and the sampler deals
a card a fact names to that seat at the odds :attr:`Evidence.weight` (against 1 for the
other seats): deals lean toward the likely, none is ruled out (a player may have kept a
low card on purpose).

A seat on a Nil still alive is read the other way: under a winner it sheds its *highest*
loser, so it is unlikely to hold a card of the suit between the one it played and the
winner. No evidence is drawn where good play differs: a seat covering its partner's Nil
(it overtakes on purpose), a Nil already broken, a side whose contract is made (ducking
sheds high), and ruffs and wins by a seat before the last. Nor are discards: a seat that
discarded under an opponent's winner instead of ruffing may still hold spades (it may
fear bags, or keep its trumps), and reading "no winning spade" into it lost points
(docs/benchmarks.md, *Reading the play*).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from . import signals
from .cards import trick_key
from .game import RuleSet, free_blind_nil
from .policy import modes

#: Play inference is used in partnership where Blind Nil is not free (switched off, or
#: only for a side far behind): measured there (docs/benchmarks.md, *Reading the play*).
#: Under the default rules and in two-player the bot's play is as it was.
PLAY_INFERENCE = True

#: The odds (against 1 for another seat) that a seat is dealt a lower card of the suit
#: it followed with while losing a trick its side needed (a play few players make).
LOW_FOLLOW_WEIGHT = 0.05
#: ... that the last player to a trick, winning it, is dealt a cheaper card that also won.
CHEAP_WIN_WEIGHT = 0.1
#: The odds used instead for the facts about this seat's *partner* (None: the same as
#: for the others). The weights above are the heuristic bots' (their plays broke 1 of
#: 617 such facts on deals 9151-9170); the strong bot's search breaks about a third.
#: Reading a partner at 0.5 or not at all lost 2.0 and 2.6 points a hand (not shipped).
PARTNER_FACT_WEIGHT: float | None = None
#: ... that a seat on a live Nil is dealt a card of the suit it followed between its
#: card and the winning one: a Nil under a winner sheds its highest loser (no change
#: measured on first hands; kept as the reading good Nil play implies).
NIL_SHED_WEIGHT = 0.1
#: The odds that the *partner* (presumed to play as this bot does) holds the card it
#: would have played instead: this bot plays the lowest card of a run of cards that are
#: equivalent from its own view (search.root_candidates), so a partner that played a
#: card did not hold the next card below it that was still out (None: not read).
PARTNER_RUN_WEIGHT: float | None = None


@dataclasses.dataclass(frozen=True)
class Evidence:
    """``seat`` is unlikely to hold any card of ``cards`` (a mask): the sampler deals it
    each of them at odds ``weight``."""

    seat: int
    cards: int
    weight: float


def enabled(rules: RuleSet, n: int) -> bool:
    """Whether the play is read (see :data:`PLAY_INFERENCE`)."""
    return PLAY_INFERENCE and n == 4 and not free_blind_nil(rules)


def _between(suit: int, lo: int, hi: int) -> int:
    """Cards of ``suit`` ranked strictly between ranks ``lo`` and ``hi`` (-1: below the 2)."""
    if hi - lo <= 1:
        return 0
    return ((1 << (hi - lo - 1)) - 1) << (13 * suit + lo + 1)


def play_evidence(played: Sequence[tuple[int, int]], n: int, me: int,
                  bids: Sequence[int | None], unplayed: int) -> list[Evidence]:
    """The soft facts the plays in ``played`` (this hand, in order) give about the cards
    the other seats still hold; ``unplayed``: the cards no seat has played and ``me``
    does not hold (only those can be in question). Partnership only: the two-player
    sampler deals by its own keep odds."""
    if n != 4 or len(bids) != n or any(b is None for b in bids):
        return []
    out: list[Evidence] = []
    tricks = [0] * n
    for start in range(0, len(played), n):
        trick = list(played[start:start + n])
        led = trick[0][1] // 13
        wseat, wcard = trick[0]
        for i in range(1, len(trick)):
            seat, card = trick[i]
            key, wkey = trick_key(card, led), trick_key(wcard, led)
            # The seat's play mode as the policy has it: "nil" (its own Nil), "cover"
            # (its partner's live Nil), "take" (its side short of its contract), "set"
            # or "duck" (contract made); only a live Nil and "take" are read.
            mode = modes(seat, n, bids, tricks, 0)[0] if seat != me and 0 <= seat < n else ""
            if mode == "nil" and tricks[seat] == 0:
                if card // 13 == led and key < wkey:
                    # A Nil that follows under the winner sheds its highest loser.
                    top = wcard % 13 if wcard // 13 == led else 13
                    losers = _between(led, card % 13, top) & unplayed
                    if losers:
                        out.append(Evidence(seat, losers, NIL_SHED_WEIGHT))
            elif mode == "take":
                if card // 13 == led and key < wkey:
                    # Followed and lost: a lower card of the suit would have done as well.
                    low = _between(led, -1, card % 13) & unplayed
                    if low:
                        out.append(Evidence(seat, low, LOW_FOLLOW_WEIGHT))
                elif key > wkey and i == n - 1 and wseat != (seat + 2) % n:
                    # Last to play and won from an opponent: with its cheapest winner.
                    suit = card // 13
                    floor = wcard % 13 if wcard // 13 == suit else -1
                    cheaper = _between(suit, floor, card % 13) & unplayed
                    if cheaper:
                        out.append(Evidence(seat, cheaper, CHEAP_WIN_WEIGHT))
            if key > wkey:
                wseat, wcard = seat, card
        if len(trick) == n and 0 <= wseat < n:
            tricks[wseat] += 1
    if PARTNER_RUN_WEIGHT is not None:
        out.extend(run_evidence(played, n, me, unplayed, PARTNER_RUN_WEIGHT))
    if PARTNER_FACT_WEIGHT is not None:
        partner = (me + 2) % n
        out = [dataclasses.replace(e, weight=PARTNER_FACT_WEIGHT) if e.seat == partner else e for e in out]
    if signals.SIGNAL_READ_WEIGHT is not None:
        out.extend(Evidence(seat, cards, signals.SIGNAL_READ_WEIGHT)
                   for seat, cards in signals.discard_evidence(played, n, (me + 2) % n, unplayed))
    if signals.ECHO_READ_WEIGHT is not None:
        out.extend(Evidence(seat, cards, signals.ECHO_READ_WEIGHT)
                   for seat, cards in signals.echo_evidence(played, n, (me + 2) % n, unplayed) if cards)
    return [e for e in out if e.weight < 1.0]  # odds of 1 say nothing


def run_evidence(played: Sequence[tuple[int, int]], n: int, me: int, unplayed: int,
                 weight: float) -> list[Evidence]:
    """The partner's plays read by the rule this bot plays equivalent cards by: of a run
    of cards with nothing between them that another seat could still hold (cards played
    in earlier tricks are out; cards in the trick in progress still count), it plays the
    lowest. So a partner that played card c did not hold the first card of c's suit below
    it that no earlier trick had taken. Facts a later play of the partner contradicts
    (another bot as partner, or a decision that ran out of time) end the reading for
    the hand."""
    partner = (me + 2) % n
    out: list[Evidence] = []
    gone = 0  # cards of finished tricks
    for start in range(0, len(played), n):
        trick = played[start:start + n]
        in_trick = 0
        for seat, card in trick:
            if seat == partner:
                if any((1 << card) & e.cards for e in out):
                    return []
                below = card - 1
                while below >= 13 * (card // 13) and gone >> below & 1:
                    below -= 1
                denied = 1 << below if below >= 13 * (card // 13) else 0
                if denied & unplayed & ~in_trick and not any(e.cards == denied for e in out):
                    out.append(Evidence(partner, denied, weight))  # once: odds multiply
            in_trick |= 1 << card
        gone |= in_trick
    return out
