"""format: knockout: seeded bracket, byes, ties of twin pairs with their tiebreak, seeds from ratings, the tree."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from scripted_results import StrengthExecutor

from referee.tournament.config import ConfigError, load_config, parse_config
from referee.tournament.formats import Played, format_for
from referee.tournament.formats.knockout import SEEDING_FILE, Knockout, bracket_order
from referee.tournament.results import ResultsFolder, standings_from_folder
from referee.tournament.runner import Tournament


def ko_config(tmp_path: Path, n: int, extra: str = "", out: str = "out", fmt: str = "knockout") -> str:
    bots = "\n".join(f"  - {{name: b{i}, command: [python3, x.py]}}" for i in range(n))
    return textwrap.dedent(f"""\
        variant: two-player
        format: {fmt}
        seed: 5
        output: {tmp_path / out}
        """) + extra + "bots:\n" + bots + "\n"


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = bracket_order(64)
    assert sorted(order) == list(range(1, 65)) and order.index(2) == 32  # 1 and 2 in different halves


def test_five_bots_byes_ties_of_two_twin_pairs_and_the_tree(tmp_path: Path) -> None:
    config = parse_config(ko_config(tmp_path, 5, "matches_per_pairing: 4\n"), check_commands=False)
    fmt = format_for(config)
    assert isinstance(fmt, Knockout) and fmt.expected_total() == 4 * 4
    first = fmt.next_matches({})
    # Seeds 1-3 have byes: 4 v 5 plays, and so does the semi-final of 2 v 3 (both known at once);
    # 1 v (4 or 5) waits for its quarter-final.
    assert {frozenset(m.sides) for m in first} == {frozenset({3, 4}), frozenset({1, 2})} and len(first) == 8
    strength = {f"b{i}": 3.0 ** (5 - i) for i in range(5)}  # b0 strongest by far
    outcome = Tournament(config, executor=StrengthExecutor(strength, capacity=3)).run()
    assert outcome.exit_code == 0 and outcome.played == outcome.total == 16
    done = {r["match"]: Played.from_record(r) for r in ResultsFolder(config.output).iter_records()}
    rounds = fmt.bracket(done)
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert rounds[-1][0].winner == 0
    for tie in (t for r in rounds for t in r if t.matches):
        seeds = {m.seed for m in tie.matches}
        assert len(tie.matches) == 4 and len(seeds) == 2  # two twin pairs, each on its own deals
    text = outcome.standings_text
    assert "Knockout bracket" in text and "champion: b0 (1)" in text
    lines = text.split("Knockout bracket", 1)[1].splitlines()
    final = next(i for i, line in enumerate(lines) if line.startswith("final: b0 (1) beat "))
    assert lines[final + 1].startswith("├── semi-final: b0 (1) beat ")
    assert any(line.startswith("│   ├── quarter-final: b0 (1) through on a bye") for line in lines)
    assert any("quarter-final: b3 (4) beat b4 (5)" in line or "quarter-final: b4 (5) beat b3 (4)" in line
               for line in lines)


def forced(fmt: Knockout, done: dict[str, Played], scores: dict[frozenset[int], list[tuple[int, int]]]) -> None:
    """Play what the bracket asks with the given (a's score, b's score) per leg, a the lower index."""
    while True:
        todo = fmt.next_matches(done)
        if not todo:
            return
        for m in todo:
            lo = min(m.sides)
            legs = scores[frozenset(m.sides)]
            sa, sb = legs[m.number]
            score = (sa, sb) if m.sides[0] == lo else (sb, sa)
            winner = None if sa == sb else (0 if score[0] > score[1] else 1)
            done[m.match_id] = Played(m.match_id, tuple(fmt.names[i] for i in m.sides), score, winner)


def test_the_tiebreak_is_points_then_margin_then_seed(tmp_path: Path) -> None:
    config = parse_config(ko_config(tmp_path, 4), check_commands=False)
    fmt = format_for(config)
    assert isinstance(fmt, Knockout)
    done: dict[str, Played] = {}
    forced(fmt, done, {
        frozenset({0, 3}): [(500, 100), (100, 520)],  # 1-1 on points; b3 by margin (+20)
        frozenset({1, 2}): [(500, 300), (300, 500)],  # level on points and margin: b1, the higher seed
        frozenset({1, 3}): [(500, 100), (500, 200)],  # the final: b1 on points
    })
    rounds = fmt.bracket(done)
    semis = {tie.winner: tie.how for tie in rounds[0]}
    assert semis == {3: "margin", 1: "seed"}
    assert rounds[1][0].winner == 1 and rounds[1][0].how == "points"
    text = "\n".join(fmt.standings_sections(done)[0].lines)
    assert "b3 (4) beat b0 (1) 1-1 (margin +20, level on points: by margin)" in text
    assert "b1 (2) beat b2 (3) 1-1 (margin +0, level: by seed)" in text


def test_seeds_from_a_previous_tournament_s_ratings_are_kept(tmp_path: Path) -> None:
    league = parse_config(ko_config(tmp_path, 4, "matches_per_pairing: 8\n", out="league", fmt="round-robin"),
                          check_commands=False)
    # b3 strongest, b0 weakest: the reverse of the config's order.
    strength = {f"b{i}": 4.0 ** i for i in range(4)}
    Tournament(league, executor=StrengthExecutor(strength)).run()
    cfg = tmp_path / "ko.yaml"
    cfg.write_text(ko_config(tmp_path, 4, "seeding: ratings\nfrom: league\n"))
    config = load_config(cfg, check_commands=False)
    assert config.format_options["from"] == str(tmp_path / "league")
    fmt = format_for(config)
    assert isinstance(fmt, Knockout) and fmt.seeds() == [3, 2, 1, 0]
    outcome = Tournament(config, executor=StrengthExecutor(strength)).run()
    assert "champion: b3 (1)" in outcome.standings_text
    assert json.loads((tmp_path / "out" / SEEDING_FILE).read_text()) == ["b3", "b2", "b1", "b0"]
    # The previous tournament changes (new results turn the ratings round): the bracket stays.
    Tournament(league, executor=StrengthExecutor({f"b{i}": 4.0 ** -i for i in range(4)}, salt=1), fresh=True).run()
    assert format_for(config).seeds() == [3, 2, 1, 0]  # type: ignore[attr-defined]
    # The frozen config resumes in place, its 'from' rewritten relative to the results folder.
    frozen = load_config(tmp_path / "out" / "config.yaml", check_commands=False)
    assert frozen.identity() == config.identity()
    again = Tournament(frozen, executor=StrengthExecutor(strength)).run()
    assert (again.already, again.played) == (6, 0)


def test_seeds_from_a_mixed_partnership_league_rate_the_bots_themselves(tmp_path: Path) -> None:
    """A partners: rotate league has no bot-against-bot results, only teams': the seeds are the
    individual ratings of its standings (the team-sum fit), not its team entries."""
    text = ko_config(tmp_path, 5, "matches_per_pairing: 8\npartners: rotate\n", out="league", fmt="round-robin")
    league = parse_config(text.replace("variant: two-player", "variant: partnership"), check_commands=False)
    strength = {f"b{i}": 4.0 ** i for i in range(5)}  # b4 strongest
    Tournament(league, executor=StrengthExecutor(strength)).run()
    ranked = [row["bot"] for row in standings_from_folder(ResultsFolder(tmp_path / "league")).bots]
    assert ranked[0] == "b4" and sorted(ranked) == [f"b{i}" for i in range(5)]
    cfg = tmp_path / "ko.yaml"
    cfg.write_text(ko_config(tmp_path, 5, "seeding: ratings\nfrom: league\n"))
    fmt = format_for(load_config(cfg, check_commands=False))
    assert isinstance(fmt, Knockout) and [f"b{i}" for i in fmt.seeds()] == ranked


def test_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(ko_config(tmp_path, 4, "seeding: rating\n"), file="k.yaml", check_commands=False)
    assert "k.yaml:5:10: seeding: unknown value 'rating'; did you mean 'ratings'?" in str(info.value)
    with pytest.raises(ConfigError, match="seeding: ratings needs 'from'"):
        parse_config(ko_config(tmp_path, 4, "seeding: ratings\n"), check_commands=False)
    with pytest.raises(ConfigError, match="from: no matches.jsonl in .*nowhere"):
        parse_config(ko_config(tmp_path, 4, "seeding: ratings\nfrom: nowhere\n"), check_commands=False)
    with pytest.raises(ConfigError, match="from: has no meaning with seeding: config"):
        parse_config(ko_config(tmp_path, 4, f"from: {tmp_path}\n"), check_commands=False)
    with pytest.raises(ConfigError, match="rounds: belongs to format 'swiss', not 'knockout'"):
        parse_config(ko_config(tmp_path, 4, "rounds: 2\n"), check_commands=False)
