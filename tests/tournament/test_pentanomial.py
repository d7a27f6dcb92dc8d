"""Pentanomial counting and arithmetic, checked against values worked by hand."""

from __future__ import annotations

import math

import pytest

from referee.tournament.pentanomial import Pentanomial, pair_index, score_to_elo


@pytest.mark.parametrize(("legs", "index"), [((0, 0), 0), ((0.5, 0), 1), ((0, 0.5), 1), ((1, 0), 2),
                                             ((0.5, 0.5), 2), ((1, 0.5), 3), ((1, 1), 4)])
def test_pair_index(legs: tuple[float, float], index: int) -> None:
    assert pair_index(*legs) == index


def test_bad_points_are_refused_quoting_the_value() -> None:
    with pytest.raises(ValueError, match="got: 2"):
        pair_index(2, 0)
    with pytest.raises(ValueError, match="got:"):
        Pentanomial((1, 2, 3))  # type: ignore[arg-type]  # a wrong length on purpose


def test_mean_variance_and_interval_by_hand() -> None:
    # Pairs: 1 x 0, 2 x 0.5, 1 x 1 -> mean 0.5; squared deviations 0.25, 0, 0, 0.25 -> var 0.5 / 4.
    p = Pentanomial.from_legs([(0, 0), (1, 0), (0.5, 0.5), (1, 1)])
    assert p.counts == (1, 0, 2, 0, 1)
    assert p.pairs == 4
    assert p.mean() == 0.5
    assert p.variance() == pytest.approx(0.125)
    half = 2.0 * math.sqrt(0.125 / 4)
    assert p.standard_error() == pytest.approx(half / 2)
    lo, hi = p.score_interval(2.0) or (None, None)
    assert (lo, hi) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    elo_lo, elo_hi = p.elo_interval(2.0) or (0.0, 0.0)
    assert elo_hi == pytest.approx(400 * math.log10((0.5 + half) / (0.5 - half))) == pytest.approx(-elo_lo)


def test_add_flip_and_extremes() -> None:
    p = Pentanomial().add(1, 1).add(1, 0.5)
    assert p.counts == (0, 0, 0, 1, 1)
    assert p.flipped().counts == (1, 1, 0, 0, 0)
    assert p.flipped().mean() == pytest.approx(1 - (p.mean() or 0))
    perfect = Pentanomial((0, 0, 0, 0, 3))
    assert perfect.elo() == math.inf and perfect.variance() == 0
    assert Pentanomial().mean() is None and Pentanomial().elo_interval(1.96) is None
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))


def test_spread_about_a_point() -> None:
    # Pair scores 0, 0.5, 0.5, 1 about 0.25: 0.0625 + 2 * 0.0625 + 0.5625; about the mean it is n * variance.
    p = Pentanomial.from_legs([(0, 0), (1, 0), (0.5, 0.5), (1, 1)])
    assert p.spread(0.25) == pytest.approx(0.0625 * 3 + 0.5625)
    assert p.spread(p.mean() or 0.0) == pytest.approx(p.pairs * (p.variance() or 0.0))
