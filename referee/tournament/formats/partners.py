"""Mixed partnerships (``partners: rotate``): every bot partners every other, each deal replayed with sides swapped.

A partnership result rates a team, not a bot, unless bots also play with other
partners. With ``partners: rotate`` a round-robin's matches are seatings of four
different bots: for every set of four, each of its three splits into two teams
(``{a,b} v {c,d}``, ``{a,c} v {b,d}``, ``{a,d} v {b,c}``). So every two bots are
partners in the same number of matches and opponents in twice as many (a
match has one partner and two opponents), for every bot alike. ``n`` bots
give ``3 * C(n, 4)`` seatings (15 for 5 bots, 210 for 8).

Each seating plays ``matches_per_pairing`` matches as twin pairs: the second
leg deals the same cards with the teams in each other's seats, so each deal's
cards go once to each team. Within a team, the first seat of its side (seat 0
deals first, seat 1 leads the first trick) goes to whichever member has had it
less often, so those seats are shared out about equally too.

The main standings table rates each bot on its own, from a team-sum
Bradley–Terry fit of its teams' results (:mod:`referee.tournament.team_ratings`,
via :meth:`RoundRobin.mixed_teams`). The format adds each bot's **best partner**
(the partner with whom it scored best) and the table of **teams**: every pair
of partners, its score together and the **partner effect**, that score minus
what the individual ratings predict for the matches it played, in percentage
points: how much better (or worse) two bots do together than their strengths
alone say.
"""

from __future__ import annotations

import collections
import itertools
from typing import Mapping, Sequence

from referee.tournament.formats.base import Played
from referee.tournament.pentanomial import Pentanomial
from referee.tournament.ratings import Z95
from referee.tournament.schedule import Pairing, ScheduledMatch, _slug, match_seed
from referee.tournament.sections import ReportSection
from referee.tournament.team_ratings import TeamGame, expected_score, fit_team_elo

__all__ = ["rotation_schedule", "partner_games", "partner_sections"]


def _seatings(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for w, x, y, z in itertools.combinations(range(n), 4):
        out.extend((((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))))
    return out


def rotation_schedule(names: Sequence[str], per_seating: int, master_seed: int) -> list[ScheduledMatch]:
    """Every match of a mixed-partnership round-robin of ``names``: ``per_seating`` (even) a seating."""
    seatings = _seatings(len(names))
    width = max(3, len(str(len(seatings))))
    out = []
    # Who of a team takes its first seat (seat 0 deals first, seat 1 leads first): given to the
    # member who has had that seat less often so far, so every bot has each about equally often.
    # Alternating within each pair of partners, then by the overall count, balances both exactly
    # when partners share a side an even number of times, and to within one otherwise.
    had: list[list[int]] = [[0] * len(names), [0] * len(names)]
    had_with: dict[tuple[tuple[int, int], int, int], int] = collections.defaultdict(int)

    def ordered(team: tuple[int, int], seat: int) -> tuple[int, int]:
        first = min(team, key=lambda b: (had_with[team, seat, b], had[seat][b], b))
        had[seat][first] += 1
        had_with[team, seat, first] += 1
        return (first, team[1] if first == team[0] else team[0])

    # Twin-major, so that raising matches_per_pairing only appends: the seats of the
    # first twins do not depend on how many come after them.
    for twin in range(per_seating // 2):
        for index, (t1, t2) in enumerate(seatings):
            stem = (f"{index + 1:0{width}d}-{_slug(names[t1[0]])}+{_slug(names[t1[1]])}-"
                    f"{_slug(names[t2[0]])}+{_slug(names[t2[1]])}")
            seed = match_seed(master_seed, "+".join(names[i] for i in t1), "+".join(names[i] for i in t2), twin)
            first, second = (t1, t2) if (index + twin) % 2 == 0 else (t2, t1)
            for leg, (at0, at1) in enumerate(((first, second), (second, first))):
                side0, side1 = ordered(at0, 0), ordered(at1, 1)
                seating = (side0[0], side1[0], side0[1], side1[1])
                legs = (f"{stem}-{twin + 1}a", f"{stem}-{twin + 1}b")
                out.append(ScheduledMatch(legs[leg], Pairing(index, t1[0], t2[0]), 2 * twin + leg, twin, seed,
                                          (side0[0], side1[0]), twin_ids=legs, seating=seating))
    out.sort(key=lambda m: (m.number // 2, m.pairing.index, m.number))
    return out


def partner_games(schedule: Sequence[ScheduledMatch], done: Mapping[str, Played]) -> list[TeamGame]:
    """The finished matches as team games (seats 0 and 2 against 1 and 3)."""
    return [game for game, _ in _games(schedule, done)]


def _games(schedule: Sequence[ScheduledMatch], done: Mapping[str, Played]
           ) -> list[tuple[TeamGame, tuple[str, ...] | None]]:
    """Each finished match as a team game, with its twin pair's two ids (None for a single match)."""
    games: list[tuple[TeamGame, tuple[str, ...] | None]] = []
    for match in schedule:
        played = done.get(match.match_id)
        if played is None or match.seating is None:
            continue
        s = match.seating
        points = 0.5 if played.winner is None else (1.0 if played.winner == 0 else 0.0)
        games.append((TeamGame((s[0], s[2]), (s[1], s[3]), points), match.twin_ids))
    return games


def _team_twins(games: Sequence[tuple[TeamGame, tuple[str, ...] | None]]) -> dict[tuple[int, int], Pentanomial]:
    """Per team (its two bots, lower index first), the twin pairs it finished, from its side."""
    legs: dict[tuple[tuple[int, int], tuple[str, ...]], list[float]] = collections.defaultdict(list)
    for game, twin in games:
        if twin is None:
            continue
        for team, points in ((game.team_a, game.score_a), (game.team_b, 1 - game.score_a)):
            legs[(min(team), max(team)), twin].append(points)
    out: dict[tuple[int, int], Pentanomial] = collections.defaultdict(Pentanomial)
    for (team, _), leg_points in legs.items():
        if len(leg_points) == 2:
            out[team] = out[team].add(leg_points[0], leg_points[1])
    return out


def partner_sections(names: Sequence[str], schedule: Sequence[ScheduledMatch],
                     done: Mapping[str, Played]) -> list[ReportSection]:
    """Best partners and the teams' table (score together against the individual ratings' prediction).

    The individual ratings themselves are the main standings table (the same team-sum fit)."""
    with_twins = _games(schedule, done)
    games = [game for game, _ in with_twins]
    if not games:
        return []
    n = len(names)
    ratings = [r.rating for r in fit_team_elo(n, games)]
    twins = _team_twins(with_twins)
    # Per unordered pair of partners: matches, wins, losses, draws, points, expected points.
    together: dict[tuple[int, int], list[float]] = {}
    for game in games:
        expected = expected_score(ratings, game)
        for team, points, exp in ((game.team_a, game.score_a, expected), (game.team_b, 1 - game.score_a,
                                                                           1 - expected)):
            key = (min(team), max(team))
            row = together.setdefault(key, [0, 0, 0, 0, 0.0, 0.0])
            row[0] += 1
            row[1 if points == 1 else 2 if points == 0 else 3] += 1
            row[4] += points
            row[5] += exp
    order = sorted(range(n), key=lambda i: -ratings[i])

    def effect(key: tuple[int, int]) -> float:
        row = together[key]
        return 100 * (row[4] - row[5]) / row[0]

    def interval(key: tuple[int, int]) -> tuple[float, float] | None:
        pent = twins.get(key)
        return pent.score_interval(Z95) if pent is not None and pent.pairs > 1 else None

    best_rows = []
    best_data: list[dict[str, object]] = []
    for i in order:
        mine = [k for k in together if i in k]
        if not mine:
            continue
        best = max(mine, key=lambda k: (together[k][4] / together[k][0], effect(k)))
        row = together[best]
        partner = best[1] if best[0] == i else best[0]
        best_rows.append([names[i], names[partner], f"{row[1]:.0f}-{row[2]:.0f}-{row[3]:.0f}",
                          f"{100 * row[4] / row[0]:.1f}%", f"{effect(best):+.1f}"])
        best_data.append({"bot": names[i], "partner": names[partner], "score": round(row[4] / row[0], 4),
                          "effect_pct": round(effect(best), 2)})
    pairs = sorted(together, key=lambda k: -effect(k))

    def ci_text(key: tuple[int, int]) -> str:
        ends = interval(key)
        return "-" if ends is None else f"{100 * ends[0]:.1f}-{100 * ends[1]:.1f}"

    effect_rows = [[f"{names[a]} + {names[b]}", f"{together[(a, b)][0]:.0f}",
                    f"{together[(a, b)][1]:.0f}-{together[(a, b)][2]:.0f}-{together[(a, b)][3]:.0f}",
                    f"{100 * together[(a, b)][4] / together[(a, b)][0]:.1f}%", ci_text((a, b)),
                    f"{100 * together[(a, b)][5] / together[(a, b)][0]:.1f}%", f"{effect((a, b)):+.1f}"]
                   for a, b in pairs]
    effect_data = []
    for a, b in pairs:
        ends = interval((a, b))
        effect_data.append({"a": names[a], "b": names[b], "matches": int(together[(a, b)][0]),
                            "wins": int(together[(a, b)][1]), "losses": int(together[(a, b)][2]),
                            "draws": int(together[(a, b)][3]),
                            "score": round(together[(a, b)][4] / together[(a, b)][0], 4),
                            "score_ci95": None if ends is None else [round(ends[0], 4), round(ends[1], 4)],
                            "expected": round(together[(a, b)][5] / together[(a, b)][0], 4),
                            "effect_pct": round(effect((a, b)), 2)})
    return [
        ReportSection("best_partner", "Best partner", ("Bot", "Best partner", "W-L-D together", "Score together",
                                                       "Partner effect"), best_rows, data=best_data),
        ReportSection("partner_effect", "Teams: score together against what the individual ratings predict",
                      ("Team", "Matches", "W-L-D", "Score", "95% CI", "Predicted", "Partner effect (points of %)"),
                      effect_rows,
                      ["Predicted: the mean over the team's matches of 1 / (1 + 10^(-(its ratings' sum - the "
                       "opponents') / 400)). Partner effect: score minus predicted, in points of %: how much "
                       "better two bots do together than their strengths alone say. 95% CI: of the score, from "
                       "the spread of the team's twin pairs."], effect_data),
    ]
