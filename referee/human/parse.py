"""Forgiving parsing of what a person types at the human adapter's prompts.

A person names a card however they like: ``qs``, ``QS``, ``Q s``, ``10h``,
``Th``, ``Q♠``, ``♠Q``, ``queen of spades``, or by its number in the list the
screen shows. Bids accept ``nil`` as well as ``0``; yes/no questions accept
``y``/``yes``/``n``/``no`` and a few question-specific words. The parsers only
turn text into a decision and explain what they could not read; whether the
decision is *legal* is the adapter's business (it knows the hand and the
trick), so the messages it builds can name the rule that was broken.

Every failure raises :class:`InputError`, whose text is meant for the person
and quotes what they typed.
"""

from __future__ import annotations

import enum
import re
from typing import Callable, Iterable, Sequence


__all__ = [
    "Command",
    "describe_bids",
    "InputError",
    "parse_bid",
    "parse_card",
    "parse_cards",
    "parse_command",
    "parse_yes_no",
]


class InputError(ValueError):
    """Text a person typed that does not answer the question; the message says why."""


class Command(str, enum.Enum):
    """Words that work at every prompt instead of an answer."""

    HELP = "help"
    HAND = "hand"
    SCORE = "score"
    QUIT = "quit"


_COMMAND_WORDS = {
    "help": Command.HELP,
    "?": Command.HELP,
    "hand": Command.HAND,
    "cards": Command.HAND,
    "score": Command.SCORE,
    "scores": Command.SCORE,
    "quit": Command.QUIT,
    "exit": Command.QUIT,
}


def parse_command(text: str) -> Command | None:
    """The command ``text`` names (``help``, ``hand``, ``score``, ``quit``), or None."""
    return _COMMAND_WORDS.get(text.strip().lower())


# Rank and suit spellings, all lower case. Ranks and suit letters never share a
# character (no rank is c/d/h/s), so "qs" and "sq" both read unambiguously.
_RANK_WORDS = {
    "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
    "10": "T", "t": "T", "j": "J", "q": "Q", "k": "K", "a": "A",
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
}
_SUIT_WORDS = {
    "c": "C", "d": "D", "h": "H", "s": "S",
    "\u2663": "C", "\u2667": "C",  # black and white club
    "\u2666": "D", "\u2662": "D",  # diamond
    "\u2665": "H", "\u2661": "H",  # heart
    "\u2660": "S", "\u2664": "S",  # spade
    "club": "C", "clubs": "C", "diamond": "D", "diamonds": "D",
    "heart": "H", "hearts": "H", "spade": "S", "spades": "S",
}
# Some terminals append U+FE0F (emoji presentation) to pasted suit symbols.
_IGNORED_CHARS = dict.fromkeys(map(ord, "\ufe0f\ufe0e"), None)


def _alternation(words: Iterable[str]) -> str:
    # Longest first, so "10" wins over a bare "1" and "spades" over "s".
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_RANK_RE = _alternation(_RANK_WORDS)
_SUIT_RE = _alternation(_SUIT_WORDS)
# One item of an answer: a card (rank then suit, or suit then rank, optionally
# joined by a space, "of" or "-") or a number from the shown list. A word
# boundary is required after letters so "3spades" parses but "qsx" does not.
_ITEM_RE = re.compile(
    rf"(?P<r1>{_RANK_RE})(?:\s*(?:of|-)?\s*)(?P<s1>{_SUIT_RE})(?![a-z])"
    rf"|(?P<s2>{_SUIT_RE})(?:\s*-?\s*)(?P<r2>{_RANK_RE})(?![a-z0-9])"
    rf"|#?(?P<num>\d+)(?![a-z0-9])",
    re.IGNORECASE,
)
_SEPARATORS_RE = re.compile(r"[\s,;+]*")


def _identity(name: str) -> str:
    return name


def parse_cards(
    text: str,
    shown: Sequence[str],
    label: Callable[[str], str] = _identity,
) -> list[str]:
    """Read every card named in ``text``, in order, as protocol names (``'QS'``).

    ``shown`` is the numbered list on the screen (protocol names; number 1 is
    ``shown[0]``), so a bare number picks from it. Cards may be separated by
    spaces, commas or nothing at all (``qs 10h``, ``3,4``). ``label`` formats a
    card for messages (symbols or letters, as the screen shows them). Raises
    :class:`InputError` for text that is not a card, a number outside the list,
    or a card named twice. Whether the cards are held is not checked here.
    """
    source = text.translate(_IGNORED_CHARS).strip()
    cards: list[str] = []
    pos = 0
    while True:
        sep = _SEPARATORS_RE.match(source, pos)
        pos = sep.end() if sep else pos
        if pos >= len(source):
            break
        match = _ITEM_RE.match(source, pos)
        if match is None:
            bad = source[pos:].split()[0] if source[pos:].split() else source[pos:]
            raise InputError(f"not a card: {bad!r} (type e.g. qs, 10h, {label('QS')}, or a card's number)")
        if match.group("num") is not None:
            number = int(match.group("num"))
            if not shown:
                raise InputError(f"there is no numbered list to pick from, got: {match.group(0)!r}")
            if not 1 <= number <= len(shown):
                if len(shown) == 1:
                    raise InputError(f"there is no card number {number}: you have one card, number 1")
                raise InputError(f"there is no card number {number}: the numbers go from 1 to {len(shown)}")
            name = shown[number - 1]
        else:
            rank = match.group("r1") or match.group("r2")
            suit = match.group("s1") or match.group("s2")
            name = _RANK_WORDS[rank.lower()] + _SUIT_WORDS[suit.lower()]
        if name in cards:
            raise InputError(f"you named {label(name)} twice")
        cards.append(name)
        pos = match.end()
    return cards


def parse_card(text: str, shown: Sequence[str], label: Callable[[str], str] = _identity) -> str:
    """Read exactly one card from ``text`` (see :func:`parse_cards`)."""
    cards = parse_cards(text, shown, label)
    if not cards:
        raise InputError(f"type a card, e.g. qs, 10h, {label('QS')}, or its number in the list")
    if len(cards) > 1:
        raise InputError(f"one card please, got {len(cards)}: {' '.join(label(c) for c in cards)}")
    return cards[0]


_NIL_WORDS = {"nil", "0", "zero", "null", "nul"}


def parse_bid(text: str, legal: Sequence[int]) -> int:
    """Read a bid (``nil`` or ``0`` for Nil) and check it against ``legal``."""
    word = text.strip().lower()
    if not word:
        raise InputError("type your bid: a number of tricks" + (", or nil" if 0 in legal else ""))
    if word in _NIL_WORDS:
        bid = 0
    elif word.isdigit():
        bid = int(word)
    else:
        raise InputError(f"not a bid: {text.strip()!r} (type a number of tricks{', or nil' if 0 in legal else ''})")
    if bid not in legal:
        raise InputError(_bid_refusal(bid, legal))
    return bid


def _bid_refusal(bid: int, legal: Sequence[int]) -> str:
    if bid == 0:
        return "nil is not allowed in this match; bid " + describe_bids(legal)
    if bid > 13:
        return f"you cannot bid {bid}: there are only 13 tricks; bid " + describe_bids(legal)
    return f"you cannot bid {bid} here; bid " + describe_bids(legal)


def describe_bids(values: Sequence[int]) -> str:
    """Describe a set of bids the way a person says it: ``nil or 1-13``, ``nil, 2-3 or 5``."""
    nums = sorted(set(values))
    parts: list[str] = []
    if nums and nums[0] == 0:
        parts.append("nil")
        nums = nums[1:]
    # Collapse consecutive runs so thirteen legal bids read as one range.
    runs: list[list[int]] = []
    for n in nums:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts.extend(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
    if len(parts) <= 2:
        return " or ".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


_YES = {"y", "yes", "yep", "yeah", "ok", "sure", "true"}
_NO = {"n", "no", "nope", "false"}


def parse_yes_no(text: str, yes_words: Iterable[str] = (), no_words: Iterable[str] = ()) -> bool:
    """Read a yes/no answer; ``yes_words``/``no_words`` add question-specific words."""
    word = text.strip().lower()
    extra_yes = {w.lower() for w in yes_words}
    extra_no = {w.lower() for w in no_words}
    if word in _YES or word in extra_yes:
        return True
    if word in _NO or word in extra_no:
        return False
    choices = ["y", "n"] + sorted(extra_yes) + sorted(extra_no)
    if not word:
        raise InputError(f"please answer {'/'.join(choices)}")
    raise InputError(f"please answer {'/'.join(choices)}, got: {text.strip()!r}")

