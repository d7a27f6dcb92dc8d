"""Double-dummy values by DDS (``bots/strong/dds.py``, ``bots/strong/dd.py``).

DDS, loaded from endplay's wheel through ctypes, must agree trick for trick with the
bot's own exact solver wherever both apply (spades broken: DDS does not know the lead
rule), name every card of the hand (equal cards expanded), and the search must use it
only where it is set and the score depends on the sides' totals alone."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Sequence

import pytest

from bots.strong import dd, dds, search
from bots.strong.cards import mask_of, parse_card
from bots.strong.game import MatchContext, Objective, RuleSet, side_of
from bots.strong.search import SearchConfig, decide_play
from bots.strong.solver import solve
from bots.strong.view import View

from tests.bundled.test_strong_solver import random_objective, random_position


def _cards(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def _side_tricks(side: int) -> Callable[[Sequence[int]], float]:
    """The objective of a side that wants tricks and nothing else."""
    return lambda t: float(sum(t[x] for x in range(4) if side_of(x, 4) == side))


def test_the_library_loads() -> None:
    # endplay is a dependency of the package: where it is installed, DDS must load.
    assert dds.library() is not None, "endplay's libdds did not load (pip install -e '.[test]')"


@pytest.mark.parametrize("spade_heavy", [False, True])
def test_dds_agrees_with_the_exact_solver(spade_heavy: bool) -> None:
    rng = random.Random(41 + spade_heavy)
    for _ in range(120):
        pos = random_position(rng, 4, rng.randint(1, 4), spade_heavy=spade_heavy)
        pos.broken = True
        seat = (pos.leader + len(pos.trick)) % 4
        side = side_of(seat, 4)
        got = dds.solve(pos.hands, pos.trick, pos.leader)
        led = pos.trick[0][1] // 13 if pos.trick else None
        hand = [c for c in range(52) if pos.hands[seat] >> c & 1]
        legal = [c for c in hand if led is None or c // 13 == led] if pos.trick else hand
        legal = legal or hand
        assert sorted(got) == sorted(legal), (pos, got)
        left = pos.hands[seat].bit_count()
        taken = sum(pos.tricks[s] for s in range(4) if side_of(s, 4) == side)
        want = solve(pos, _side_tricks(side), side)
        assert {c: float(taken + v) for c, v in got.items()} == want, (pos, got, want)
        assert all(0 <= v <= left for v in got.values())


def test_equal_cards_get_one_score() -> None:
    # North leads with a solid heart sequence and the top spades; the others follow.
    hands = [_cards("AH KH QH AS"), _cards("2H 3H 4H 2S"), _cards("5H 6H 7H 3S"), _cards("8H 9H TH 4S")]
    got = dds.solve(hands, [], 0)
    assert got == {parse_card(c): 4 for c in ("AH", "KH", "QH", "AS")}


def test_a_trick_in_progress_is_read() -> None:
    # East led the 2 of clubs and South won it with the ace so far; West, to move and
    # void in clubs, takes the trick only by ruffing (North must follow with its club).
    # The last trick is South's ace of spades either way.
    hands = [_cards("KD 4C"), _cards("QD"), _cards("AS"), _cards("3S 5D")]
    trick = [(1, parse_card("2C")), (2, parse_card("AC"))]
    assert dds.solve(hands, trick, 1) == {parse_card("3S"): 1, parse_card("5D"): 0}


def _obj(bids: list[int], side: int) -> Objective:
    ctx = MatchContext(RuleSet(), 4, side, (100, 120), (3, 4), hand_no=3)
    return Objective(ctx, bids, [False] * 4)


def test_dd_values_score_each_sides_total() -> None:
    rng = random.Random(5)
    for _ in range(40):
        pos = random_position(rng, 4, rng.randint(2, 4))
        pos.broken = True
        seat = (pos.leader + len(pos.trick)) % 4
        bids = [rng.randint(1, 5) for _ in range(4)]
        obj = _obj(bids, side_of(seat, 4))
        view = View(n=4, seat=seat, hand=pos.hands[seat], bids=list(bids), blind=[False] * 4,
                    tricks=list(pos.tricks), trick=list(pos.trick), leader=pos.leader, broken=True)
        cands = sorted(dds.solve(pos.hands, pos.trick, pos.leader))
        got = dd.dd_values(view, pos.hands, cands, obj)
        assert got is not None
        # The exact solver maximising this side's tricks, scored once at the end.
        side = side_of(seat, 4)
        most = solve(pos, _side_tricks(side), side)
        for c in cands:
            mine = int(most[c]) - sum(pos.tricks[s] for s in range(4) if side_of(s, 4) == side)
            final = list(pos.tricks)
            final[seat] += mine
            final[(seat + 1) % 4] += pos.hands[seat].bit_count() - mine
            assert got[c] == obj.value(final)


@pytest.fixture
def dd_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd, "DD_CARDS", 13)


def _view(k: int, bids: list[int], n: int = 4) -> tuple[View, list[int]]:
    """Seat 0 on lead with ``k`` cards each after ``13 - k`` tricks of plain suits that
    seat 0 led and won and everyone followed (so no void is shown), the rest of the deck
    dealt at random."""
    rng = random.Random(k * 7 + n)
    played: list[tuple[int, int]] = []
    for t in range(13 - k):
        low = 13 * (t % 3) + n * (t // 3)
        played += [(i, low + (i - 1) % n) for i in range(n)]
    out = {c for _, c in played}
    deck = [c for c in range(52) if c not in out]
    rng.shuffle(deck)
    hands = [mask_of(deck[i * k:(i + 1) * k]) for i in range(n)]
    tricks = [13 - k] + [0] * (n - 1)
    return View(n=n, seat=0, hand=hands[0], bids=list(bids), blind=[False] * n, tricks=tricks,
                trick=[], leader=0, broken=False, played=played, score=(0, 0), bags=(0, 0)), hands


def test_applies_only_where_set_and_without_nil(dd_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    bids = [3, 3, 3, 3]
    view, _ = _view(8, bids)
    assert dd.applies(view, bids)
    assert not dd.applies(view, [3, 0, 3, 3])  # a Nil: the score needs that seat's own tricks
    monkeypatch.setattr(dd, "DD_CARDS", 7)
    assert not dd.applies(view, bids)  # more cards than the setting
    two, _ = _view(8, [3, 3], n=2)
    monkeypatch.setattr(dd, "DD_CARDS", 13)
    assert not dd.applies(two, [3, 3])  # two-player: DDS plays four hands
    monkeypatch.setattr(dds, "library", lambda: None)
    assert not dd.applies(view, bids)  # no library: playouts as before


def test_dd_is_off_as_shipped() -> None:
    view, _ = _view(8, [3, 3, 3, 3])
    assert dd.DD_CARDS == 0 and not dd.applies(view, [3, 3, 3, 3])


@pytest.mark.parametrize("k,bids,calls", [(9, [3, 3, 3, 3], 12), (9, [3, 0, 3, 3], 0), (5, [3, 3, 3, 3], 0)])
def test_the_search_values_by_dds_where_it_applies(dd_on: None, monkeypatch: pytest.MonkeyPatch,
                                                     k: int, bids: list[int], calls: int) -> None:
    seen: list[int] = []
    real = dd.dd_values

    def counting(view: View, hands: list[int], cands: list[int], obj: Objective) -> dict[int, float] | None:
        seen.append(len(cands))
        return real(view, hands, cands, obj)

    monkeypatch.setattr(dd, "dd_values", counting)
    view, _ = _view(k, bids)
    view.broken = True  # any card may be led: several candidates at every size
    legal = search.legal_now(view)
    report = decide_play(view, RuleSet(blind_nil=False), legal, SearchConfig(samples=12), random.Random(3))
    assert len(seen) == calls
    assert report.samples == 12 and legal >> report.card & 1


def test_dd_samples_caps_the_count(dd_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd, "DD_SAMPLES", 5)
    view, _ = _view(9, [3, 3, 3, 3])
    report = decide_play(view, RuleSet(blind_nil=False), search.legal_now(view), SearchConfig(samples=12),
                         random.Random(3))
    assert report.samples == 5


def test_a_missing_library_is_not_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(dds.LIBRARY_ENV, str(tmp_path / "nowhere.so"))
    assert dds._load() is None
    junk = tmp_path / "junk.so"
    junk.write_text("not a library")
    monkeypatch.setenv(dds.LIBRARY_ENV, str(junk))
    assert dds._load() is None
    monkeypatch.setattr(dds, "library", lambda: None)
    with pytest.raises(dds.DDSError, match="not available"):
        dds.solve([0, 0, 0, 0], [], 0)


@pytest.mark.parametrize("deadline", [None, 1e18])
def test_dd_cpu_caps_the_decision(dd_on: None, monkeypatch: pytest.MonkeyPatch, deadline: float | None) -> None:
    # With no deadline of its own and with a bare perf_counter one: a generous cap leaves
    # the count alone, a spent one stops the decision before its first solve (the
    # policy's card is played).
    view, _ = _view(9, [3, 3, 3, 3])
    legal = search.legal_now(view)
    for cap, samples in ((10.0, 12), (0.0, 0)):
        monkeypatch.setattr(dd, "DD_CPU_S", cap)
        report = decide_play(view, RuleSet(blind_nil=False), legal, SearchConfig(samples=12, deadline=deadline),
                             random.Random(3))
        assert report.samples == samples and report.fallback == (samples == 0)


def test_a_refused_position_falls_back_to_playouts(dd_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(hands: Sequence[int], trick: Sequence[tuple[int, int]], leader: int) -> dict[int, int]:
        raise dds.DDSError("DDS SolveBoard failed with code -12")

    monkeypatch.setattr(dds, "solve", refuse)
    view, _ = _view(9, [3, 3, 3, 3])
    legal = search.legal_now(view)
    report = decide_play(view, RuleSet(blind_nil=False), legal, SearchConfig(samples=12), random.Random(3))
    assert report.samples == 12 and not report.fallback and legal >> report.card & 1
    monkeypatch.setattr(dd, "DD_CARDS", 0)
    plain = decide_play(view, RuleSet(blind_nil=False), legal, SearchConfig(samples=12), random.Random(3))
    assert report.values == plain.values  # every sample valued by its playouts, as without DDS
