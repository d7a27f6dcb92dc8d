"""Bo Haglund's double-dummy solver (DDS), called through ctypes.

DDS is the standard C++ double-dummy solver of bridge; with spades as trumps its trick
play is that of Spades, except that it may lead a spade before spades are broken. The
``endplay`` package ships it built for every platform (``endplay/_dds/libdds.so``). Only
that library is loaded here, not endplay's Python package: the package imports numpy
and matplotlib, half a second and 80 MB in every bot process, for nothing the bot uses.

:func:`solve` gives the tricks the side to move takes from a position with every hand
known, for each of its cards. :func:`library` is None where the library is missing; the
callers then keep to their own search.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
from pathlib import Path
from typing import Sequence

#: Environment variable naming a libdds shared library to load instead of endplay's.
LIBRARY_ENV = "SPADES_LIBDDS"


class _Deal(ctypes.Structure):
    # DDS's ``struct deal``: suits 0..3 are spades, hearts, diamonds, clubs; hands
    # north, east, south, west; a rank r (2..14) is bit r of a holding.
    _fields_ = [
        ("trump", ctypes.c_int),
        ("first", ctypes.c_int),
        ("currentTrickSuit", ctypes.c_int * 3),
        ("currentTrickRank", ctypes.c_int * 3),
        ("remainCards", (ctypes.c_uint * 4) * 4),
    ]


class _FutureTricks(ctypes.Structure):
    _fields_ = [
        ("nodes", ctypes.c_int),
        ("cards", ctypes.c_int),
        ("suit", ctypes.c_int * 13),
        ("rank", ctypes.c_int * 13),
        ("equals", ctypes.c_int * 13),
        ("score", ctypes.c_int * 13),
    ]


class DDSError(RuntimeError):
    """DDS refused a position (its error code and message quoted)."""


_SPADES = 0  # DDS's trump code for spades
_ALL_CARDS = 3  # ``solutions``: the score of every card
_ALWAYS_SEARCH = 1  # ``mode``: search even when the hand has a single card


def _library_path() -> Path | None:
    named = os.environ.get(LIBRARY_ENV)
    if named:
        return Path(named)
    # find_spec of a top-level package locates it without running its __init__.
    spec = importlib.util.find_spec("endplay")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for name in ("libdds.so", "libdds.dylib", "dds.dll"):
            path = Path(folder) / "_dds" / name
            if path.is_file():
                return path
    return None


def _load() -> ctypes.CDLL | None:
    path = _library_path()
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(str(path))
    except OSError:
        return None
    lib.SolveBoard.argtypes = (_Deal, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.POINTER(_FutureTricks), ctypes.c_int)
    lib.SolveBoard.restype = ctypes.c_int
    # One thread's tables: the bot solves one deal at a time, and DDS would otherwise
    # size its memory for every core of the machine.
    lib.SetMaxThreads(1)
    return lib


@functools.cache
def library() -> ctypes.CDLL | None:
    """The DDS library, or None where it is not installed. Loaded on first use: the bot
    as shipped never calls DDS and does not pay its 18 MB."""
    return _load()


def solve(hands: Sequence[int], trick: Sequence[tuple[int, int]], leader: int) -> dict[int, int]:
    """Tricks the side to move takes from here on (this trick included), per card of the
    seat to move, with every seat playing on double dummy and spades trumps.

    ``hands`` are four 52-bit masks (this package's card ints) after ``trick``'s cards
    were played; ``trick`` is ``[(seat, card), ...]`` (at most 3) led by ``leader``.
    Seat ``i`` is DDS's hand ``i``: seats play in the same rotation."""
    lib = library()
    if lib is None:
        raise DDSError("DDS is not available (pip install endplay)")
    dl = _Deal()
    dl.trump = _SPADES
    dl.first = leader
    for i, (_seat, c) in enumerate(trick):  # the rest of the struct starts zeroed
        dl.currentTrickSuit[i] = 3 - c // 13
        dl.currentTrickRank[i] = c % 13 + 2
    for seat in range(4):
        h = hands[seat]
        for s in range(4):
            dl.remainCards[seat][3 - s] = ((h >> (13 * s)) & 0x1FFF) << 2
    fut = _FutureTricks()
    code = lib.SolveBoard(dl, -1, _ALL_CARDS, _ALWAYS_SEARCH, ctypes.byref(fut), 0)
    if code != 1:
        raise DDSError(f"DDS SolveBoard failed with code {code} (hands {list(hands)}, trick {list(trick)}, "
                       f"leader {leader})")
    out: dict[int, int] = {}
    for i in range(fut.cards):
        suit = 3 - fut.suit[i]
        tricks = fut.score[i]
        # ``equals``: lower ranks of the same suit, equivalent to this card, same score.
        ranks = (1 << fut.rank[i]) | fut.equals[i]
        for r in range(2, 15):
            if ranks >> r & 1:
                out[suit * 13 + r - 2] = tricks
    return out
