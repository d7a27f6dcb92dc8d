"""A fast rule-based card-play policy.

It is the default policy of the sampled playouts that value cards early in a hand (when
an exact solve is too slow in Python), the fallback when time is short, and the play
policy of the in-process self-play used for calibration. It thinks in *modes*:

* ``nil``: this seat bid nil: never win a trick if it can be helped (play the highest
  card that still loses, shed high cards when void);
* ``cover``: the partner bid nil and has taken nothing: win tricks above the partner;
* ``take``: the side still needs tricks for its contract: win cheaply (lowest winning
  card, a sure winner in second seat, trump when void), do not overtake a winning
  partner;
* ``set``: the contract is made but the opponents can still be set cheaply: take tricks;
* ``duck``: otherwise avoid bags: play the highest card that loses.

When an opponent bid nil and has taken nothing, following players duck under it instead
of overtaking it, and leaders lead low, to make it take a trick.

The policy sees the cards others may hold as masks: ``out`` (every card another seat may
hold) and ``after`` (per seat still to play this trick, what it may hold). In a sampled
deal these are the actual hands; from a seat's own view they are the unknown cards minus
known voids (``exact=False`` then makes the trump checks cautious).
"""

from __future__ import annotations

from typing import Sequence

from .cards import NON_SPADE_MASK, SPADE_MASK, SUIT_MASKS, cards_of

S = SUIT_MASKS


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _key(card: int, led: int) -> int:
    s = card // 13
    if s == 3:
        return 100 + card % 13
    return card % 13 if s == led else -1


def _threat(after: Sequence[int], led: int, exact: bool) -> int:
    """Highest trick key any player still to act could play on suit ``led``."""
    best = -1
    for h in after:
        follow = h & S[led]
        if follow:
            k = _top(follow) % 13 if led != 3 else 100 + _top(follow) % 13
            if k > best:
                best = k
            if exact or led == 3:
                continue
        sp = h & SPADE_MASK
        if sp:
            k = 100 + _top(sp) % 13
            if k > best:
                best = k
    return best


def modes(seat: int, n: int, bids: Sequence[int | None], tricks: Sequence[int],
          remaining: int) -> tuple[str, list[int]]:
    """The play mode of ``seat`` and the opponents whose nil is still alive."""
    if n == 4:
        partner = (seat + 2) % 4
        o1, o2 = (seat + 1) % 4, (seat + 3) % 4
        opp_nils = []
        if bids[o1] == 0 and tricks[o1] == 0:
            opp_nils.append(o1)
        if bids[o2] == 0 and tricks[o2] == 0:
            opp_nils.append(o2)
        if bids[seat] == 0:
            return "nil", opp_nils
        pb = bids[partner]
        if pb == 0 and tricks[partner] == 0:
            return "cover", opp_nils
        need = (bids[seat] or 0) - tricks[seat]
        if pb:
            need += pb - tricks[partner]
        if need > 0:
            return "take", opp_nils
        opp_contract = opp_taken = 0
        for s in (o1, o2):
            b = bids[s]
            if b:
                opp_contract += b
                opp_taken += tricks[s]
    else:
        opp = 1 - seat
        opp_nils = [opp] if bids[opp] == 0 and tricks[opp] == 0 else []
        if bids[seat] == 0:
            return "nil", opp_nils
        if (bids[seat] or 0) - tricks[seat] > 0:
            return "take", opp_nils
        opp_contract = bids[opp] or 0
        opp_taken = tricks[opp] if opp_contract else 0
    opp_need = opp_contract - opp_taken
    if opp_contract and 0 < opp_need <= remaining and remaining - opp_need + 1 <= 2:
        return "set", opp_nils
    return "duck", opp_nils


def choose(seat: int, hand: int, legal: int, trick: Sequence[tuple[int, int]], out: int,
           after: Sequence[int], after_seats: Sequence[int], bids: Sequence[int | None],
           tricks: Sequence[int], n: int, exact: bool = True) -> int:
    """Pick a card from ``legal`` (a mask of ``hand``) for ``seat``.

    ``trick``: cards played so far in this trick; ``out``: cards other seats may hold;
    ``after``/``after_seats``: what each seat still to play this trick may hold, and who
    they are; ``bids``/``tricks`` per seat (a ``None`` bid counts as not nil).
    """
    if legal & (legal - 1) == 0:
        return _low(legal)
    remaining = hand.bit_count()
    mode, opp_nils = modes(seat, n, bids, tricks, remaining)
    if not trick:
        return _lead(seat, hand, legal, out, mode, opp_nils, n, exact)
    led = trick[0][1] // 13
    wseat, wkey = trick[0][0], _key(trick[0][1], led)
    for s, c in trick[1:]:
        k = _key(c, led)
        if k > wkey:
            wseat, wkey = s, k
    threat = _threat(after, led, exact)
    following = bool(legal & S[led])
    winners = 0
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if _key(c, led) > wkey:
            winners |= low
    partner_winning = n == 4 and wseat == (seat + 2) % 4
    losers = legal & ~winners

    def highest_loser() -> int:
        if following or not (losers & NON_SPADE_MASK):
            return _top(losers)
        return _shed_high(losers)

    if mode == "nil":
        if losers:
            return highest_loser()
        # Every card wins for now: play the lowest unless last (then shed the highest).
        return _top(legal) if not after else _low(legal)

    # An opponent's live nil: if it is winning this trick, stay under it; if it is still
    # to play, keep the trick low so that it may be forced to take it.
    if opp_nils and mode != "cover":
        if wseat in opp_nils:
            if losers:
                return highest_loser()
        elif any(s in opp_nils for s in after_seats) and mode in ("duck", "set", "take") and not partner_winning:
            if mode == "take" and winners and not following:
                pass
            elif losers:
                return _low_discard(losers, following)

    if mode == "cover":
        partner = (seat + 2) % 4
        partner_played = any(s == partner for s, _ in trick)
        if partner_played:
            if wseat == partner:
                if winners:
                    sure = [c for c in cards_of(winners) if _key(c, led) > threat]
                    return sure[0] if sure else _top(winners)
                return _low_discard(legal, following)
            mode = "take"
        else:
            # Partner still to play: win as high as possible so that partner can duck.
            if winners:
                return _top(winners) if following else _top(winners & SPADE_MASK or winners)
            return _low_discard(legal, following)

    if mode in ("take", "set"):
        if partner_winning and wkey > threat:
            return _low_discard(losers or legal, following)
        if winners:
            sure = [c for c in cards_of(winners) if _key(c, led) > threat]
            if sure:
                return sure[0]
            if not after:
                return _low(winners)
            if not following:
                # Trump: with a spade high enough to survive, if any, else the lowest.
                return _low(winners)
            third = n == 4 and len(trick) == 2
            top = _top(winners)
            if third and top % 13 >= 9:
                return top
            return _low_discard(legal, following)
        return _low_discard(legal, following)

    # duck
    if losers:
        if not after or wkey > threat or not winners:
            return highest_loser()
        return highest_loser()
    return _top(legal) if not after else _low(legal)


def _low_discard(cards: int, following: bool) -> int:
    """Cheapest card to give away: the lowest when following; when void, the lowest
    non-spade card from the shortest suit (making voids), keeping spades."""
    if following:
        return _low(cards)
    plain = cards & NON_SPADE_MASK
    if not plain:
        return _low(cards)
    best, best_len = -1, 99
    for s in range(3):
        sm = plain & S[s]
        if sm:
            ln = sm.bit_count()
            if ln < best_len or (ln == best_len and _low(sm) % 13 < best % 13):
                best, best_len = _low(sm), ln
    return best


def _shed_high(cards: int) -> int:
    """When void and ducking: throw the highest non-spade (the most dangerous card)."""
    plain = cards & NON_SPADE_MASK
    if plain:
        best = -1
        for s in range(3):
            sm = plain & S[s]
            if sm:
                t = _top(sm)
                if best < 0 or t % 13 > best % 13:
                    best = t
        return best
    return _top(cards)


def _lead(seat: int, hand: int, legal: int, out: int, mode: str, opp_nils: Sequence[int],
          n: int, exact: bool) -> int:
    if mode == "nil" or (opp_nils and mode in ("duck", "set")):
        # Lead the card with the most outstanding cards above it (safest low lead).
        best, best_cover = -1, -99
        for s in range(4):
            sm = legal & S[s]
            if not sm:
                continue
            c = _low(sm)
            above = (out & S[s]) >> (c + 1) << (c + 1)
            cover = above.bit_count()
            if s == 3:
                cover -= 1
            if cover > best_cover:
                best, best_cover = c, cover
        return best
    if mode in ("take", "cover", "set"):
        # A sure winner in a plain suit (nobody out can beat or trump it).
        out_sp = out & SPADE_MASK
        best, best_score = -1, -99.0
        for s in range(4):
            sm = legal & S[s]
            if not sm:
                continue
            top = _top(sm)
            higher_out = (out & S[s]) >> (top + 1)
            if not higher_out:
                left = (out & S[s]).bit_count()
                if s == 3:
                    score = 3.0 if out_sp else 0.5
                elif not out_sp or left >= (3 if n == 4 else 2) or not exact:
                    score = 2.0 + left * 0.1
                else:
                    score = 0.2
                if score > best_score:
                    best, best_score = top, score
        if best >= 0 and best_score >= 1.0:
            return best
        if mode == "cover":
            # Lead high from the longest plain suit to protect the partner.
            return _top(_longest(legal))
        # Lead low from a suit where we hold a winner-in-waiting, else the longest.
        plain = legal & NON_SPADE_MASK
        if plain:
            # Prefer short suits when holding spades (to ruff later), else long suits.
            short = hand & SPADE_MASK and (hand & SPADE_MASK).bit_count() >= 3
            pick, pick_len = -1, 0
            for s in range(3):
                sm = plain & S[s]
                if not sm:
                    continue
                ln = sm.bit_count()
                better = (pick < 0) or (ln < pick_len if short else ln > pick_len)
                if better:
                    pick, pick_len = _low(sm), ln
            return pick
        return _low(legal)
    # duck: lead the lowest card relative to what is out
    best, best_cover = -1, -99
    for s in range(4):
        sm = legal & S[s]
        if not sm:
            continue
        c = _low(sm)
        above = ((out & S[s]) >> (c + 1)).bit_count()
        if s == 3:
            above -= 2
        if above > best_cover:
            best, best_cover = c, above
    return best


def _longest(mask: int) -> int:
    best, ln = 0, -1
    for s in range(4):
        sm = mask & S[s]
        if sm.bit_count() > ln:
            best, ln = sm, sm.bit_count()
    return best
