"""Growing a finished tournament: more matches per pairing, bots added at the end; every other change refused."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from scripted_results import StrengthExecutor

from referee.tournament.config import parse_config
from referee.tournament.formats import format_for
from referee.tournament.results import ConfigChanged, ResultsFolder
from referee.tournament.runner import Tournament

STRENGTH = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0}


def config_text(tmp_path: Path, bots: str, per: int = 2, extra: str = "") -> str:
    lines = "\n".join(f"  - {{name: {b}, command: [python3, {b}.py]}}" for b in bots)
    return textwrap.dedent(f"""\
        variant: two-player
        seed: 9
        matches_per_pairing: {per}
        output: {tmp_path / 'out'}
        """) + extra + "bots:\n" + lines + "\n"


def run(tmp_path: Path, bots: str, per: int = 2, extra: str = "") -> tuple[Tournament, list[str]]:
    said: list[str] = []
    config = parse_config(config_text(tmp_path, bots, per, extra), check_commands=False)
    tournament = Tournament(config, executor=StrengthExecutor(STRENGTH), say=said.append)
    outcome = tournament.run()
    assert outcome.exit_code == 0 and outcome.complete
    return tournament, said


def lines(tmp_path: Path) -> list[str]:
    return (tmp_path / "out" / "matches.jsonl").read_text().splitlines()


def test_raising_matches_per_pairing_plays_only_the_new_matches(tmp_path: Path) -> None:
    run(tmp_path, "abc", per=2)
    before = lines(tmp_path)
    assert len(before) == 6
    tournament, said = run(tmp_path, "abc", per=6)
    after = lines(tmp_path)
    assert after[:6] == before and len(after) == 18  # the old records untouched, 12 new ones
    assert any("Growing" in s and "matches_per_pairing 2 -> 6" in s and "12 new matches" in s for s in said)
    assert any("Resuming" in s and "6 of 18 matches already played, 12 to go" in s for s in said)
    ids = {m.match_id for m in format_for(tournament.config).next_matches({})}
    assert ids == {line.split('"match":"')[1].split('"')[0] for line in after}
    # The folder's frozen config is the grown one: the same command now simply resumes, nothing to play.
    assert ResultsFolder(tmp_path / "out").load_config().matches_per_pairing == 6
    _, said = run(tmp_path, "abc", per=6)
    assert not any("Growing" in s for s in said)


def test_adding_bots_at_the_end_plays_only_their_pairings(tmp_path: Path) -> None:
    run(tmp_path, "abc")
    before = lines(tmp_path)
    tournament, said = run(tmp_path, "abcde")
    after = lines(tmp_path)
    assert after[:6] == before and len(after) == 20  # 10 pairings of 2
    new = after[6:]
    assert all(('"d"' in line or '"e"' in line) for line in new)
    assert any("bots added: d, e" in s and "14 new matches" in s for s in said)
    report = tournament.folder
    assert ResultsFolder(report.path).load_config().bots[-1].name == "e"


def test_growing_both_ways_at_once(tmp_path: Path) -> None:
    run(tmp_path, "ab", per=2)
    _, said = run(tmp_path, "abc", per=4)
    assert len(lines(tmp_path)) == 12
    assert any("matches_per_pairing 2 -> 4, bots added: c" in s for s in said)


@pytest.mark.parametrize(("bots", "per", "extra", "reason"), [
    ("abc", 4, "seed: 10\n", "this changes more than that"),
    ("ab", 4, "", "bots may only be added at the end of the list"),  # a bot removed
    ("acb", 4, "", "bots may only be added at the end of the list"),  # reordered
    ("adbc", 4, "", "bots may only be added at the end of the list"),  # inserted in the middle
    ("abc", 2, "", "lowering matches_per_pairing (4 -> 2) would drop matches already played"),
    ("abcd", 4, "rules: {target: 300}\n", "this changes more than that"),
])
def test_every_other_change_is_refused_with_the_reason(tmp_path: Path, bots: str, per: int, extra: str,
                                                       reason: str) -> None:
    run(tmp_path, "abc", per=4)
    before = lines(tmp_path)
    text = config_text(tmp_path, bots, per, extra)
    if "seed:" in extra:
        text = text.replace("seed: 9\n", "", 1)
    config = parse_config(text, check_commands=False)
    with pytest.raises(ConfigChanged) as info:
        Tournament(config, executor=StrengthExecutor(STRENGTH)).run()
    message = str(info.value)
    assert "holds a tournament run with a different config" in message and reason in message and "--fresh" in message
    assert lines(tmp_path) == before
    assert ResultsFolder(tmp_path / "out").load_config().matches_per_pairing == 4  # the frozen config untouched


def test_an_adaptive_format_does_not_grow(tmp_path: Path) -> None:
    run(tmp_path, "abcd", extra="format: knockout\n")
    config = parse_config(config_text(tmp_path, "abcde", extra="format: knockout\n"), check_commands=False)
    with pytest.raises(ConfigChanged, match="format 'knockout' decides its matches as it goes: it cannot grow"):
        Tournament(config, executor=StrengthExecutor(STRENGTH)).run()


def test_mixed_partnerships_grow_by_more_matches_per_seating(tmp_path: Path) -> None:
    extra = "partners: rotate\n"
    text = config_text(tmp_path, "abcd", 2, extra).replace("variant: two-player", "variant: partnership")
    Tournament(parse_config(text, check_commands=False), executor=StrengthExecutor(STRENGTH)).run()
    before = lines(tmp_path)
    assert len(before) == 6  # 3 seatings, one twin pair each
    grown = parse_config(text.replace("matches_per_pairing: 2", "matches_per_pairing: 4"), check_commands=False)
    outcome = Tournament(grown, executor=StrengthExecutor(STRENGTH)).run()
    assert (outcome.already, outcome.played) == (6, 6) and lines(tmp_path)[:6] == before
