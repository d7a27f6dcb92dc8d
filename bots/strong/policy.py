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

When an opponent bid nil and has taken nothing, the policy works to set it
(:func:`_nil_attack_lead` and the follow rules below): a leader leads low in a suit the
nil bidder still holds, best where all its cards of that suit are above the lead and
its partner cannot cover (even when the side still needs tricks, as a set nil is worth
far more than a trick); a follower never overtakes a trick the nil bidder is winning,
keeps the trick low while the nil bidder is still to play, and otherwise gives away its
second-lowest card of a suit rather than the lowest, keeping a low card to lead or play
under the nil bidder later. The partner of a nil bidder covers: it leads a suit in which
its top card beats all of the nil bidder's (or one the nil bidder is void in, so that it
can shed a dangerous card), and overtakes a trick the nil bidder is winning.

The policy sees the cards others may hold as masks: ``out`` (every card another seat may
hold) and ``after`` (per seat still to play this trick, what it may hold). In a sampled
deal these are the actual hands; from a seat's own view they are the unknown cards minus
known voids (``exact=False`` then makes the trump checks cautious).
"""

from __future__ import annotations

from typing import Sequence

from .cards import NON_SPADE_MASK, SPADE_MASK, SUIT_MASKS, trick_key

S = SUIT_MASKS

# "set" mode (take tricks to break the opponents' contract once ours is made) when the
# opponents still need all but at most SET_WINDOW - 1 of the tricks left.
SET_WINDOW = 2


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


_key = trick_key


def _beating(cards: int, led: int, key: int) -> int:
    """The cards of ``cards`` whose trick key on suit ``led`` exceeds ``key`` (as
    :func:`_key` ranks them), by mask arithmetic: above a spade's key (100 + rank) only
    higher spades; above a key of the led suit, its higher cards and every spade; above
    -1 (nothing to beat), every card of the led suit and every spade."""
    if key >= 100:
        return cards & SPADE_MASK & ~((1 << (40 + key - 100)) - 1)
    return (cards & S[led] & ~((1 << (13 * led + key + 1)) - 1)) | (cards & SPADE_MASK)


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
    if opp_contract and 0 < opp_need <= remaining and remaining - opp_need + 1 <= SET_WINDOW:
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
    wseat, wkey = winning(trick)
    return choose_known_winner(seat, hand, legal, trick, wseat, wkey, out, after, after_seats, bids, tricks,
                               n, exact)


def winning(trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Who is winning ``trick`` (``[(seat, card), ...]``) so far and its card's
    :func:`_key`; (-1, -1) for an empty trick."""
    wseat = wkey = -1
    if trick:
        led = trick[0][1] // 13
        for s, c in trick:
            k = _key(c, led)
            if k > wkey:
                wseat, wkey = s, k
    return wseat, wkey


def choose_known_winner(seat: int, hand: int, legal: int, trick: Sequence[tuple[int, int]], wseat: int,
                        wkey: int, out: int, after: Sequence[int], after_seats: Sequence[int],
                        bids: Sequence[int | None], tricks: Sequence[int], n: int, exact: bool = True) -> int:
    """:func:`choose` told who is winning the trick so far: ``wseat`` and its card's
    :func:`_key` ``wkey`` (ignored when leading). A playout keeps them card by card, so
    it need not find them again at every card."""
    if legal & (legal - 1) == 0:
        return _low(legal)
    remaining = hand.bit_count()
    mode, opp_nils = modes(seat, n, bids, tricks, remaining)
    if not trick:
        return _lead(seat, hand, legal, out, after, after_seats, mode, opp_nils, n, exact)
    led = trick[0][1] // 13
    threat = _threat(after, led, exact)
    following = bool(legal & S[led])
    winners = _beating(legal, led, wkey)
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
                keep = _keep_low(legal & S[led], losers, opp_nils, after, after_seats, out, led) if following else -1
                return keep if keep >= 0 else _low_discard(losers, following)

    if mode == "cover":
        partner = (seat + 2) % 4
        partner_played = any(s == partner for s, _ in trick)
        if partner_played:
            if wseat == partner:
                if winners:
                    sure = _beating(winners, led, threat)
                    return _low(sure) if sure else _top(winners)
                return _low_discard(legal, following)
            mode = "take"
        else:
            # Partner still to play: win as high as possible so that partner can duck.
            if winners:
                return _top(winners) if following else _top(winners & SPADE_MASK or winners)
            return _low_discard(legal, following)

    if opp_nils and following and mode != "cover":
        keep = _keep_low(legal & S[led], losers, opp_nils, after, after_seats, out, led)
        if keep >= 0 and mode in ("take", "set") and (not winners or (partner_winning and wkey > threat)):
            return keep

    if mode in ("take", "set"):
        if partner_winning and wkey > threat:
            return _low_discard(losers or legal, following)
        if winners:
            sure = _beating(winners, led, threat)
            if sure:
                return _low(sure)
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


def _holding(seat: int, after: Sequence[int], after_seats: Sequence[int]) -> int | None:
    """What ``seat`` (still to play this trick) holds or may hold; None if it has played."""
    for s, h in zip(after_seats, after):
        if s == seat:
            return h
    return None


def _keep_low(suit_cards: int, losers: int, opp_nils: Sequence[int], after: Sequence[int],
              after_seats: Sequence[int], out: int, led: int) -> int:
    """The card to give away from ``suit_cards`` (all losers wanted) while an opponent's
    nil is alive: the second-lowest loser when the lowest card lies under every card of
    the suit the nil bidder may hold (a card to lead or play under it later), else -1."""
    spare = suit_cards & losers
    if spare.bit_count() < 2:
        return -1
    low = _low(spare)
    for t in opp_nils:
        h = _holding(t, after, after_seats)
        nil_suit = (h if h is not None else out) & S[led]
        if nil_suit and not nil_suit & ((1 << low) - 1):
            return _low(spare & ~(1 << low))
    return -1


def _nil_attack_lead(legal: int, after: Sequence[int], after_seats: Sequence[int],
                     opp_nils: Sequence[int]) -> tuple[int, float]:
    """The best low lead against an opponent's live nil, as (card, score); (-1, 0) if none.

    A lead attacks when the nil bidder holds the suit and none of its cards of the suit
    lies under the lead (so it must play over it): score 1; 3 when its partner also
    cannot cover (no higher card of the suit, and no spade to ruff with when void). In a
    sampled deal the holdings are the actual hands; from the seat's own view they are
    what each seat may hold, so both tests are cautious there (a card that may be held
    counts as held).
    """
    best, best_score = -1, 0.0
    for t in opp_nils:
        nil_hand = _holding(t, after, after_seats)
        if nil_hand is None:
            continue
        partner_hand = _holding((t + 2) % 4, after, after_seats) or 0
        for s in range(4):
            sm = legal & S[s]
            ns = nil_hand & S[s]
            if not sm or not ns:
                continue
            c = _low(sm)
            if ns & ((1 << c) - 1):
                continue  # it can play under the lead
            score = 1.0
            ps = partner_hand & S[s]
            ruff = not ps and s != 3 and partner_hand & SPADE_MASK
            if not ruff and not (ps and _top(ps) > _low(ns)):
                score = 3.0
            # Among equals: the suit where the nil bidder has fewest cards to spare.
            score -= 0.01 * ns.bit_count()
            if score > best_score:
                best, best_score = c, score
    return best, best_score


def _cover_lead(legal: int, after: Sequence[int], after_seats: Sequence[int], partner: int) -> int:
    """A lead that keeps a nil partner safe in a known deal: the top card of a suit where
    it beats every card the partner holds, or of a plain suit the partner is void in
    (it sheds a dangerous card); -1 if none."""
    ph = _holding(partner, after, after_seats)
    if ph is None:
        return -1
    best, best_score = -1, 0.0
    for s in range(4):
        sm = legal & S[s]
        if not sm:
            continue
        top = _top(sm)
        ps = ph & S[s]
        if ps:
            score = 2.0 if top > _top(ps) else 0.0
        else:
            score = 2.5 if s != 3 and ph & NON_SPADE_MASK & ~S[s] else 0.0
        score += 0.01 * (top % 13)
        if score > best_score:
            best, best_score = top, score
    return best if best_score >= 2.0 else -1


def _lead(seat: int, hand: int, legal: int, out: int, after: Sequence[int], after_seats: Sequence[int],
          mode: str, opp_nils: Sequence[int], n: int, exact: bool) -> int:
    if opp_nils and n == 4 and mode != "nil" and mode != "cover":
        card, score = _nil_attack_lead(legal, after, after_seats, opp_nils)
        if card >= 0 and (score >= 2.0 or mode in ("duck", "set")):
            return card
    if mode == "cover" and exact:
        card = _cover_lead(legal, after, after_seats, (seat + 2) % 4)
        if card >= 0:
            return card
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
