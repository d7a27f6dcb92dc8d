"""The SPRT on twin pairs: its LLR against independent computations, its error rates, the format."""

from __future__ import annotations

import itertools
import math
import random
import textwrap
from pathlib import Path

import pytest
from scipy.optimize import minimize
from scripted_results import StrengthExecutor

from referee.tournament.config import ConfigError, parse_config
from referee.tournament.formats import Played, format_for
from referee.tournament.formats.sprt import SprtFormat
from referee.tournament.pentanomial import Pentanomial
from referee.tournament.results import ResultsFolder, standings_from_folder
from referee.tournament.runner import Tournament
from referee.tournament.sprt import NELO_PER_T, Sprt, Verdict, _mle_tvalue, _moments, _regularised
from referee.tournament.standings import render

SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]


# ---------------------------------------------------------------- the LLR, computed two other ways


def gsprt_by_optimiser(counts: tuple[int, ...], elo0: float, elo1: float) -> float:
    """The GSPRT from its definition, by a general-purpose constrained optimiser.

    For each hypothesis: maximise sum_i n_i ln p_i over the simplex subject to
    (mean - 1/2) / sd_match = nelo / (800 / ln 10), with sd_match = sqrt(2) * sd_pair;
    the LLR is the difference of the two maxima. Empty cells get 1e-3, as fishtest does.
    """
    n = [c if c else 1e-3 for c in counts]
    total = sum(n)
    weights = [c / total for c in n]

    def best(nelo: float) -> float:
        t = nelo * math.log(10) / 800

        def constraint(p: list[float]) -> float:
            mu = sum(pi * a for pi, a in zip(p, SCORES))
            var = sum(pi * (a - mu) ** 2 for pi, a in zip(p, SCORES))
            return (mu - 0.5) - t * math.sqrt(2 * var)

        result = minimize(lambda p: -sum(w * math.log(max(pi, 1e-300)) for w, pi in zip(weights, p)),
                          weights, method="SLSQP", bounds=[(1e-12, 1)] * 5,
                          constraints=[{"type": "eq", "fun": lambda p: sum(p) - 1}, {"type": "eq", "fun": constraint}],
                          options={"ftol": 1e-15, "maxiter": 500})
        assert result.success, result.message
        return float(-result.fun)

    return sum(counts) * (best(elo1) - best(elo0))


def llr_closed_form(counts: tuple[int, ...], elo0: float, elo1: float) -> float:
    """fishtest's second-order approximation: (games / 2) ln((1 + (t - t0)^2) / (1 + (t - t1)^2))."""
    pairs = sum(counts)
    mu = sum(c * a for c, a in zip(counts, SCORES)) / pairs
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, SCORES)) / pairs
    t = (mu - 0.5) / math.sqrt(2 * var)
    t0, t1 = (e * math.log(10) / 800 for e in (elo0, elo1))
    return pairs * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))


VECTORS = [
    ((10, 20, 40, 25, 12), 0.0, 5.0),
    ((3, 50, 200, 70, 9), 0.0, 2.0),
    ((30, 60, 100, 40, 20), -3.0, 1.0),
    ((0, 5, 30, 10, 1), 0.0, 10.0),  # an empty cell
    ((12, 30, 41, 30, 12), 0.0, 5.0),  # a symmetric result: the LLR is negative
]


@pytest.mark.parametrize(("counts", "elo0", "elo1"), VECTORS)
def test_the_llr_is_the_generalised_likelihood_ratio(counts: tuple[int, ...], elo0: float, elo1: float) -> None:
    got = Sprt(elo0, elo1, 0.05, 0.05).llr(Pentanomial(counts))  # type: ignore[arg-type]
    assert got == pytest.approx(gsprt_by_optimiser(counts, elo0, elo1), abs=2e-4, rel=1e-4)


@pytest.mark.parametrize(("counts", "elo0", "elo1"), [v for v in VECTORS if 0 not in v[0]])
def test_the_llr_agrees_with_the_closed_form_approximation(counts: tuple[int, ...], elo0: float,
                                                           elo1: float) -> None:
    got = Sprt(elo0, elo1, 0.05, 0.05).llr(Pentanomial(counts))  # type: ignore[arg-type]
    # The approximation is second order in the t-values, which are small here.
    assert got == pytest.approx(llr_closed_form(counts, elo0, elo1), rel=0.03, abs=0.01)


def test_bounds_and_verdicts() -> None:
    test = Sprt(0, 5, 0.05, 0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95)) and test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.judge(3.0) is Verdict.H1 and test.judge(-2.3) is Verdict.H0 and test.judge(0.0) is Verdict.RUNNING
    assert test.llr(Pentanomial()) == 0.0
    with pytest.raises(ValueError, match="elo0 must be less than elo1"):
        Sprt(5, 5, 0.05, 0.05)


@pytest.mark.parametrize("elo0, elo1", [(0, 300), (-300, 0), (0, 500), (-500, 0), (-500, 500)])
def test_the_llr_is_computed_for_every_few_pair_count_up_to_the_largest_elo(elo0: float, elo1: float) -> None:
    """Large hypotheses once broke the fixed-point iteration (a variance of zero, then a math
    domain error raised out of the format) from the first pair on, e.g. after a single pair at elo1 300."""
    test = Sprt(elo0, elo1, 0.05, 0.05)
    for counts in itertools.product([0, 1, 30], repeat=5):
        if any(counts):
            llr = test.llr(Pentanomial(counts))
            assert math.isfinite(llr), (counts, llr)
    # And the sign follows the data: all wins for B favour the hypothesis that claims more.
    assert test.llr(Pentanomial((0, 0, 0, 0, 30))) > 0 > test.llr(Pentanomial((30, 0, 0, 0, 0)))
    # The distributions behind the LLR have the hypotheses' t-values, also where they were reached in steps.
    for counts in [(0, 0, 0, 1, 0), (1, 1, 0, 24, 0), (0, 0, 30, 0, 0), (3, 10, 25, 12, 4), (0, 0, 5, 482, 5)]:
        for elo in (elo0, elo1):
            t = elo / NELO_PER_T * math.sqrt(2)
            probs = _mle_tvalue(_regularised(Pentanomial(counts)), t)
            mean, var = _moments(probs)
            assert min(probs) > 0 and sum(probs) == pytest.approx(1)
            assert (mean - 0.5) / math.sqrt(var) == pytest.approx(t, abs=1e-9), (counts, elo)


def test_hypotheses_beyond_the_exact_fit_fall_back_to_the_normal_approximation() -> None:
    """Far outside the +-500 a config allows (an Sprt built in code), one loss and two
    lost-and-drawn pairs leave no distribution with t-values this low: the exact fit
    fails and the LLR falls back to fishtest's normal approximation instead of raising."""
    counts = Pentanomial((1, 2, 0, 0, 0))
    elo0, elo1 = -1500.0, -206.15
    t0, t1 = (e / NELO_PER_T * math.sqrt(2) for e in (elo0, elo1))
    with pytest.raises(ArithmeticError, match="no pentanomial distribution"):
        _mle_tvalue(_regularised(counts), t0)
    mean, var = _moments(_regularised(counts))
    t = (mean - 0.5) / math.sqrt(var)
    llr = Sprt(elo0, elo1, 0.05, 0.05).llr(counts)
    assert llr == pytest.approx(3 * (t1 - t0) * (2 * t - t0 - t1) / 2, rel=1e-12)
    # B's t-value, about -2.8 a pair, is nearer -206's (-0.84) than -1500's (-6.1).
    assert t == pytest.approx(-2.79, abs=0.01) and llr > 0


# ---------------------------------------------------------------- realised error rates


def tilted(target_nelo: float) -> list[float]:
    """A pentanomial distribution with normalised Elo ``target_nelo``: a draw-heavy shape,
    exponentially tilted (p_i ~ q_i e^(l a_i)) until its nElo is the target."""
    base = [0.08, 0.22, 0.40, 0.22, 0.08]

    def nelo(lam: float) -> tuple[float, list[float]]:
        w = [q * math.exp(lam * a) for q, a in zip(base, SCORES)]
        p = [x / sum(w) for x in w]
        mu = sum(pi * a for pi, a in zip(p, SCORES))
        var = sum(pi * (a - mu) ** 2 for pi, a in zip(p, SCORES))
        return 800 / math.log(10) * (mu - 0.5) / math.sqrt(2 * var), p

    lo, hi = -20.0, 20.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if nelo(mid)[0] < target_nelo:
            lo = mid
        else:
            hi = mid
    value, p = nelo((lo + hi) / 2)
    assert value == pytest.approx(target_nelo, abs=1e-6)
    return p


def run_test(test: Sprt, probs: list[float], rng: random.Random, cap: int = 4000) -> tuple[Verdict, int]:
    counts = [0] * 5
    for pairs in range(1, cap + 1):
        counts[rng.choices(range(5), probs)[0]] += 1
        verdict = test.judge(test.llr(Pentanomial(tuple(counts))))  # type: ignore[arg-type]
        if verdict.decided:
            return verdict, pairs
    return Verdict.UNDECIDED, cap


RUNS = 200


def test_realised_error_rates_stay_within_alpha_and_beta(capsys: pytest.CaptureFixture[str]) -> None:
    """Pair outcomes drawn at nElo = elo0 (H0 true) and at elo1 (H1 true), many runs each."""
    test = Sprt(0.0, 40.0, 0.1, 0.1)
    rng = random.Random(20261201)
    figures = {}
    for truth, nelo, wrong in (("H0", 0.0, Verdict.H1), ("H1", 40.0, Verdict.H0)):
        probs = tilted(nelo)
        verdicts, lengths = zip(*(run_test(test, probs, rng) for _ in range(RUNS)))
        figures[truth] = (verdicts.count(wrong) / RUNS, verdicts.count(Verdict.UNDECIDED), sum(lengths) / RUNS)
    with capsys.disabled():
        print(f"\nSPRT simulation, {RUNS} runs each, elo0 0 elo1 40 nElo, alpha = beta = 0.1: "
              f"H0 true: H1 accepted in {figures['H0'][0]:.3f} of runs (mean {figures['H0'][2]:.0f} pairs); "
              f"H1 true: H0 accepted in {figures['H1'][0]:.3f} (mean {figures['H1'][2]:.0f} pairs)")
    # Within the configured rates, up to the sampling error of RUNS runs (two standard errors).
    slack = 2 * math.sqrt(0.1 * 0.9 / RUNS)
    assert figures["H0"][0] <= 0.1 + slack and figures["H1"][0] <= 0.1 + slack
    assert figures["H0"][1] == figures["H1"][1] == 0  # every run decided well before the cap
    # And the test does discriminate: each truth is mostly accepted.
    assert figures["H0"][0] < 0.5 and figures["H1"][0] < 0.5


# ---------------------------------------------------------------- the format


def sprt_config(tmp_path: Path, extra: str = "", bots: int = 2) -> str:
    lines = "\n".join(f"  - {{name: b{i}, command: [python3, x.py]}}" for i in range(bots))
    return textwrap.dedent(f"""\
        variant: two-player
        format: sprt
        seed: 3
        output: {tmp_path / 'out'}
        """) + extra + "bots:\n" + lines + "\n"


def test_config_keys_of_the_format_are_checked_and_others_refused(tmp_path: Path) -> None:
    config = parse_config(sprt_config(tmp_path, "elo1: 10\nalpha: 0.1\n"), check_commands=False)
    assert dict(config.format_options) == {"elo0": 0.0, "elo1": 10.0, "alpha": 0.1, "beta": 0.05,
                                           "max_matches": 1000}
    with pytest.raises(ConfigError) as info:
        parse_config(sprt_config(tmp_path, "alpha: 1.5\nalpah: 3\nmatches_per_pairing: 4\n"),
                     file="c.yaml", check_commands=False)
    text = str(info.value)
    assert "c.yaml:5:8: alpha: must be strictly between 0 and 1, got: 1.5" in text
    assert "c.yaml:6:1: alpah: unknown key 'alpah'; did you mean 'alpha'?" in text
    assert "matches_per_pairing: has no meaning with format 'sprt'" in text
    with pytest.raises(ConfigError) as info:
        parse_config(sprt_config(tmp_path, "elo0: 5\nelo1: 5\nduplicate: false\nmax_matches: 7\n", bots=3),
                     check_commands=False)
    text = str(info.value)
    assert "give exactly 2 bots, got 3" in text and "elo1: must be more than elo0" in text
    assert "duplicate must be true" in text
    assert "max_matches: must be even (matches come in twin pairs), got: 7" in text
    with pytest.raises(ConfigError, match="c.yaml:5:7: elo1: must be between -500 and 500, got: 3000"):
        parse_config(sprt_config(tmp_path, "elo1: 3000\n"), file="c.yaml", check_commands=False)
    with pytest.raises(ConfigError, match="elo1: belongs to format 'sprt', not 'round-robin'; remove it, or set "
                                          "format: sprt"):
        parse_config(sprt_config(tmp_path, "elo1: 3\n").replace("format: sprt", "format: round-robin"),
                     check_commands=False)


def played(fmt: SprtFormat, k: int, b_points: tuple[float, float]) -> dict[str, Played]:
    """The two legs of pair ``k`` with B scoring ``b_points``."""
    out = {}
    for match, points in zip(fmt.pairs[k], b_points):
        b_side = match.sides.index(1)
        winner = None if points == 0.5 else (b_side if points == 1 else 1 - b_side)
        out[match.match_id] = Played(match.match_id, ("b0", "b1") if b_side else ("b1", "b0"), (0, 0), winner)
    return out


def test_the_decision_is_taken_on_the_prefix_of_finished_pairs(tmp_path: Path) -> None:
    config = parse_config(sprt_config(tmp_path, "elo1: 100\nalpha: 0.2\nbeta: 0.2\nmax_matches: 40\n"),
                          check_commands=False)
    fmt = format_for(config)
    assert isinstance(fmt, SprtFormat)
    assert len(fmt.next_matches({})) == 40 and fmt.expected_total() is None
    done: dict[str, Played] = {}
    # Pair 0 is unfinished: pairs 1.. count for nothing yet, however well B does.
    for k in range(1, 12):
        done |= played(fmt, k, (1, 1))
    assert fmt.progress(done).prefix.pairs == 0 and fmt.progress(done).every.pairs == 11
    first_leg = played(fmt, 0, (1, 1))
    lone = dict(list(first_leg.items())[:1])
    assert fmt.progress(done | lone).verdict is Verdict.RUNNING
    done |= first_leg
    state = fmt.progress(done)
    assert state.verdict is Verdict.H1 and state.decided_at is not None and state.decided_at < 12
    assert fmt.next_matches(done) == []  # stopped
    # A fresh format told the same results decides the same (a resumed run).
    again = format_for(config)
    assert again.progress(done) == state
    assert "H1 accepted" in fmt.progress_text(done) and "LLR +" in fmt.progress_text(done)
    # Stopped while a pair was half played: only its second leg is still to come.
    half = dict(list(played(fmt, 15, (0, 0)).items())[:1])
    assert [m.match_id for m in fmt.next_matches(done | half)] == [fmt.pairs[15][1].match_id]


def test_an_sprt_runs_to_a_verdict_and_prints_it(tmp_path: Path) -> None:
    config = parse_config(sprt_config(tmp_path, "elo1: 60\nmax_matches: 400\n"), check_commands=False)
    executor = StrengthExecutor({"b0": 1.0, "b1": 3.0}, capacity=3)
    outcome = Tournament(config, executor=executor).run()
    assert outcome.exit_code == 0
    fmt = format_for(config)
    records = list(ResultsFolder(config.output).iter_records())
    done = {r["match"]: Played.from_record(r) for r in records}
    state = fmt.progress(done)
    assert state.verdict is Verdict.H1 and state.decided_at is not None
    assert len(records) < 400 and len(records) % 2 == 0 and fmt.next_matches(done) == []
    # Overshoot: at most the matches that were running when the test stopped.
    assert len(records) <= 2 * state.decided_at + executor.capacity + 1
    text = outcome.standings_text
    assert "H1 accepted: b1 is stronger than b0 by at least 60 (normalised Elo)" in text
    assert f"pentanomial counts (b1's side, {len(records) // 2} twin pairs): LL " in text
    assert "Elo estimate (b1 - b0): +" in text and "95% interval [" in text
    data = standings_from_folder(ResultsFolder(config.output)).to_dict()["sprt"]
    assert data["verdict"] == "H1" and sum(data["pentanomial"]) == len(records) // 2
    assert "## Sequential test (SPRT on twin pairs)" in render(standings_from_folder(ResultsFolder(config.output)),
                                                               "markdown")


def test_equal_bots_accept_h0(tmp_path: Path) -> None:
    config = parse_config(sprt_config(tmp_path, "elo1: 80\nmax_matches: 600\n"), check_commands=False)
    outcome = Tournament(config, executor=StrengthExecutor({"b0": 1.0, "b1": 1.0}, capacity=2, draw=0.1)).run()
    assert "H0 accepted: b1 is not stronger than b0 by 80 or more" in outcome.standings_text


def test_max_matches_ends_an_undecided_test(tmp_path: Path) -> None:
    config = parse_config(sprt_config(tmp_path, "elo0: -1\nelo1: 1\nmax_matches: 20\n"), check_commands=False)
    outcome = Tournament(config, executor=StrengthExecutor({"b0": 1.0, "b1": 1.2}, capacity=2)).run()
    assert outcome.played == 20
    assert "no decision after 20 matches (max_matches): the LLR" in outcome.standings_text
