"""format: swiss: pairings of equal score, no repeats while avoidable, byes, tiebreaks; 5, 8 and 41 bots."""

from __future__ import annotations

import collections
import itertools
import textwrap
from pathlib import Path

import pytest
from scripted_results import StrengthExecutor

from referee.tournament.config import ConfigError, parse_config
from referee.tournament.formats import Played, format_for
from referee.tournament.formats.swiss import Swiss, pair_round
from referee.tournament.results import ResultsFolder, standings_from_folder
from referee.tournament.runner import Tournament


def swiss_config(tmp_path: Path, n: int, extra: str = "", name: str = "out") -> str:
    bots = "\n".join(f"  - {{name: b{i:02d}, command: [python3, x.py]}}" for i in range(n))
    return textwrap.dedent(f"""\
        variant: two-player
        format: swiss
        seed: 11
        output: {tmp_path / name}
        """) + extra + "bots:\n" + bots + "\n"


def play(tmp_path: Path, n: int, rounds: int, strength: dict[str, float] | None = None,
         name: str = "out") -> tuple[Swiss, dict[str, Played], str]:
    config = parse_config(swiss_config(tmp_path, n, f"rounds: {rounds}\n", name), check_commands=False)
    strength = strength or {f"b{i:02d}": 1.5 ** (n - i) for i in range(n)}  # b00 strongest, by far
    outcome = Tournament(config, executor=StrengthExecutor(strength, capacity=5)).run()
    assert outcome.exit_code == 0 and outcome.played == outcome.total == rounds * (n // 2) * 2
    records = list(ResultsFolder(config.output).iter_records())
    done = {r["match"]: Played.from_record(r) for r in records}
    fmt = format_for(config)
    assert isinstance(fmt, Swiss) and fmt.next_matches(done) == []
    return fmt, done, outcome.standings_text


def check_rounds(fmt: Swiss, done: dict[str, Played], n: int, rounds: int) -> None:
    """Every bot once per round (or its bye), one twin pair per pairing, no repeat, no second bye."""
    paired = fmt.paired_rounds(done)
    assert len(paired) == rounds
    seen: set[frozenset[int]] = set()
    byes = []
    for rnd in paired:
        bots = [b for pair in rnd.pairs for b in pair] + ([rnd.bye] if rnd.bye is not None else [])
        assert sorted(bots) == list(range(n))
        assert (rnd.bye is not None) == (n % 2 == 1)
        byes.extend([rnd.bye] if rnd.bye is not None else [])
        for matches in rnd.by_pairing:
            assert len(matches) == 2 and matches[0].seed == matches[1].seed
            assert matches[0].sides == tuple(reversed(matches[1].sides))
        for a, b in rnd.pairs:
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
    assert len(byes) == len(set(byes))


@pytest.mark.parametrize(("n", "rounds"), [(5, 4), (8, 3), (8, 7), (41, 6)])
def test_a_swiss_plays_its_rounds_without_repeats(tmp_path: Path, n: int, rounds: int) -> None:
    fmt, done, text = play(tmp_path, n, rounds)
    check_rounds(fmt, done, n, rounds)
    rows = fmt.standings(done)
    assert len(rows) == n and [r["rank"] for r in rows] == list(range(1, n + 1))
    assert sum(r["points"] for r in rows) == pytest.approx(rounds * (n // 2) + rounds * (n % 2))
    # Tiebreak order is what the table says it is.
    keys = [(-r["points"], -r["buchholz"], -r["buchholz_cut1"], -r["twin_margin"]) for r in rows]
    assert keys == sorted(keys)
    assert "Swiss standings" in text and "Buchholz cut-1" in text and f"round {rounds}: " in text
    # The strongest bots come out on top.
    assert rows[0]["bot"] in {f"b{i:02d}" for i in range(max(2, n // 8))}


def test_pairings_are_between_equal_scores_when_possible() -> None:
    # After round 1 of 8: four winners (0, 2, 4, 6) and four losers; round 2 pairs winners with winners.
    met = {0: {1}, 1: {0}, 2: {3}, 3: {2}, 4: {5}, 5: {4}, 6: {7}, 7: {6}}
    pairs, bye = pair_round([0, 2, 4, 6, 1, 3, 5, 7], met, set())
    assert bye is None and pairs == [(0, 2), (4, 6), (1, 3), (5, 7)]
    # The top two have met: the leader takes the next one it has not met.
    met = {0: {2}, 2: {0}}
    assert pair_round([0, 2, 4, 6], met, set())[0] == [(0, 4), (2, 6)]
    # A bye goes to the lowest-ranked bot without one.
    pairs, bye = pair_round([0, 1, 2, 3, 4], {}, {4})
    assert bye == 3 and pairs == [(0, 1), (2, 4)]


def test_repeats_only_when_unavoidable_and_then_as_few_as_possible() -> None:
    # Four bots who have all met (a full round-robin): a fourth round must repeat, twice.
    met = {i: {j for j in range(4) if j != i} for i in range(4)}
    pairs, _ = pair_round([0, 1, 2, 3], met, set())
    assert sorted(itertools.chain(*pairs)) == [0, 1, 2, 3]
    # Backtracking: greedy 0-1 would leave 2-3, who have met; the search finds the way round it.
    met = {2: {3}, 3: {2}}
    assert pair_round([0, 1, 2, 3], met, set())[0] == [(0, 2), (1, 3)]


def test_score_groups_are_kept_where_rank_order_alone_would_break_them() -> None:
    # Four bots on 2 points (ranks 0-3), two on 1; ranks 2 and 3 have met. Top-meets-next (0-1) would send
    # 2 and 3 down to the 1-point bots (2-4, 3-5: two pairings across groups); 0-2, 1-3 keeps every group.
    scores = {0: 2.0, 1: 2.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0}
    pairs, bye = pair_round(range(6), {2: {3}, 3: {2}}, set(), scores)
    assert bye is None and pairs == [(0, 2), (1, 3), (4, 5)]
    # With a one-point gap the only way out, the squared sum prefers two half gaps to one whole one.
    scores = {0: 2.0, 1: 1.5, 2: 1.5, 3: 1.0}
    assert pair_round(range(4), {1: {2}, 2: {1}}, set(), scores)[0] == [(0, 1), (2, 3)]


def test_the_bye_goes_to_the_lowest_bot_that_leaves_a_round_without_repeats() -> None:
    # Rank 0 has met 1, 2 and 3: a bye for rank 4 (the lowest) would force 0 into a repeat, so rank 3 sits out.
    met = {0: {1, 2, 3}, 1: {0}, 2: {0}, 3: {0}}
    assert pair_round(range(5), met, set()) == ([(0, 4), (1, 2)], 3)
    # Every bot has had a bye: the lowest-ranked gets a second one.
    assert pair_round(range(3), {}, {0, 1, 2}) == ([(0, 1)], 2)


def test_a_round_a_depth_first_search_gave_up_on_is_paired_without_a_repeat() -> None:
    """The pairing this replaced searched depth first for at most 20,000 steps. Here, rank 19 has met every
    bot but rank 0: that search tried 0-1 first and then every pairing of ranks 2-18 before it could find 19
    no partner, gave up at its cap and returned 0-1, 2-3, ..., 18-19 (a repeat). The matching finds 0-19."""
    n = 20
    met: dict[int, set[int]] = {i: {n - 1} for i in range(1, n - 1)}
    met[n - 1] = set(range(1, n - 1))
    pairs, bye = pair_round(range(n), met, set())
    assert bye is None and pairs == [(0, 19)] + [(i, i + 1) for i in range(1, 18, 2)]


def test_41_bots_over_20_rounds_never_repeat_a_pairing_or_a_bye() -> None:
    """After k rounds each bot (and the bye) has n - 1 - k partners left among 42 nodes; up to 20 rounds
    that is at least half of them, so a repeat-free round always exists (Dirac) and must be found."""
    import random

    rng = random.Random(41)
    n = 41
    points = {i: 0.0 for i in range(n)}
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    byes: set[int] = set()
    for _ in range(20):
        order = sorted(range(n), key=lambda i: (-points[i], i))
        pairs, bye = pair_round(order, met, byes, points)
        assert bye is not None and bye not in byes
        assert sorted([b for p in pairs for b in p] + [bye]) == list(range(n))
        for a, b in pairs:
            assert b not in met[a], f"repeat {a}-{b}"
            met[a].add(b)
            met[b].add(a)
            score = rng.choice((0.0, 0.25, 0.5, 0.75, 1.0))
            points[a] += score
            points[b] += 1 - score
        byes.add(bye)
        points[bye] += 1.0


def test_buchholz_by_hand(tmp_path: Path) -> None:
    """Three bots, three rounds, results forced: check points and tiebreaks worked by hand."""
    config = parse_config(swiss_config(tmp_path, 3, "rounds: 3\n"), check_commands=False)
    fmt = format_for(config)
    assert isinstance(fmt, Swiss)
    done: dict[str, Played] = {}
    wins = {frozenset((0, 1)): 0, frozenset((0, 2)): 0, frozenset((1, 2)): 1}  # b00 beats all, b01 beats b02
    for _ in range(3):
        for m in fmt.next_matches(done):
            winner_bot = wins[frozenset(m.sides)]
            done[m.match_id] = Played(m.match_id, tuple(f"b{i:02d}" for i in m.sides), (500, 100) if
                                      m.sides[0] == winner_bot else (100, 500), m.sides.index(winner_bot))
    rows = {r["bot"]: r for r in fmt.standings(done)}
    # Round 1: bye b02, b00-b01. Round 2: b00 (1) vs b02 (1), b01 bye. Round 3: b01-b02, b00 bye.
    assert [rnd.bye for rnd in fmt.paired_rounds(done)] == [2, 1, 0]
    assert (rows["b00"]["points"], rows["b01"]["points"], rows["b02"]["points"]) == (3, 2, 1)
    assert rows["b00"]["buchholz"] == 3 and rows["b00"]["buchholz_cut1"] == 3  # opponents 2 + 1, and a bye (0)
    assert rows["b02"]["buchholz"] == 5 and rows["b02"]["buchholz_cut1"] == 5
    assert rows["b01"]["twin_margin"] == 0 and rows["b00"]["twin_margin"] == 1600


def test_the_swiss_table_is_in_the_json_and_config_errors_are_clear(tmp_path: Path) -> None:
    fmt, done, _ = play(tmp_path, 5, 2)
    report = standings_from_folder(ResultsFolder(tmp_path / "out")).to_dict()
    assert report["swiss"]["finished_rounds"] == 2 and len(report["swiss"]["table"]) == 5
    assert collections.Counter(b for p in report["swiss"]["pairings"] for b in [p["bye"]]).most_common(1)[0][1] == 1
    with pytest.raises(ConfigError) as info:
        parse_config(swiss_config(tmp_path, 4, "rounds: 0\nelo1: 3\nmatches_per_pairing: 4\n"), file="s.yaml",
                     check_commands=False)
    text = str(info.value)
    assert "s.yaml:5:9: rounds: must be at least 1, got: 0" in text
    assert "s.yaml:6:1: elo1: belongs to format 'sprt', not 'swiss'" in text
    assert "matches_per_pairing: has no meaning with format 'swiss'" in text
    assert parse_config(swiss_config(tmp_path, 9), check_commands=False).format_options == {"rounds": None}
    assert format_for(parse_config(swiss_config(tmp_path, 9), check_commands=False)).expected_total() == 4 * 4 * 2


def test_resuming_mid_round_plays_only_what_is_left(tmp_path: Path) -> None:
    config = parse_config(swiss_config(tmp_path, 6, "rounds: 3\n"), check_commands=False)
    strength = {f"b{i:02d}": float(6 - i) for i in range(6)}
    first = StrengthExecutor(strength, capacity=1)

    class Stop(StrengthExecutor):
        def wait(self, timeout_s: float):  # type: ignore[no-untyped-def]
            out = super().wait(timeout_s)
            if len(self.submitted) >= 8:  # in round 2
                tournament.stop()
            return out

    tournament = Tournament(config, executor=Stop(strength, capacity=1))
    part = tournament.run()
    assert 0 < part.played < 18
    rest = Tournament(config, executor=first).run()
    assert rest.already == part.played and rest.played == 18 - part.played
    ids = [r["match"] for r in ResultsFolder(config.output).iter_records()]
    assert len(ids) == len(set(ids)) == 18
    # The same pairings as one uninterrupted run.
    whole, done_whole, _ = play(tmp_path, 6, 3, strength, name="whole")
    done = {r["match"]: Played.from_record(r) for r in ResultsFolder(config.output).iter_records()}
    again = format_for(config)
    assert isinstance(again, Swiss)
    assert [r.pairs for r in again.paired_rounds(done)] == [r.pairs for r in whole.paired_rounds(done_whole)]
