"""Standings: statistics of every bot from match records, and their tables.

:class:`StandingsBuilder` takes records one at a time (``add``) and keeps only
counters, so memory does not grow with the number of matches; the records
themselves are streamed from ``matches.jsonl`` and dropped. ``report()``
turns the counters into a :class:`StandingsReport`, which renders as a text
table, Markdown, CSV or JSON.

Who is a "bot" here: the entry of a side. In a tournament each side is one
bot (in a partnership playing both seats as two processes); a record where a
side's two seats hold different programs (``spades match`` with four bots)
counts for the team ``"a/b"``. In a mixed-partnership tournament (``partners:
rotate``, ``mixed=True``) a side's two bots are rated on their own instead: each
counts its team's results, nil bids, faults and decision times are its own seat's,
and the ratings come from the team-sum fit of :mod:`referee.tournament.team_ratings`.

Definitions (also printed under the tables; docs/tournaments.md has them in full):

* **Win %**: (wins + draws/2) / matches. Its 95% interval is Wilson's; where the bot
  played twin pairs it comes from the spread of its pair scores instead (each twin
  pair one unit, the pentanomial model), and a perfect or null score gets a one-sided
  bound.
* **Elo**: maximum-likelihood fit to every result, no prior
  (:class:`referee.tournament.ratings.Pool`), mean 0 over the bots it can place; a bot
  with a perfect (or null) record against them shows a one-sided 95% bound ("> +310").
  The interval is the profile-likelihood one, scaled for twin pairs.
* **LOS**: the probability that the bot is stronger than the one ranked below it.
* **Pts/hand**: own points per scored hand, mean and median (the median is not
  dragged by a few long matches).
* **Bids made**: contracts made / contracts played; a side's contract is the
  sum of its non-nil bids (a side of nil bidders only has none). A contract
  not made is a **set**: suffered by that side, inflicted by the other.
* **Nil** / **Blind nil**: made / tried, per nil bid.
* **Bags/hand**: overtricks plus tricks of failed nil bidders, per hand;
  **Bag pen.**: how many times the bag limit cost a penalty.
* **Faults** by kind, and decision time (mean and max, ms) over all the
  bot's decisions, from the referee's clock.
* **Twin pairs** (duplicate tournaments): the two matches played on the same
  deals with the bots in swapped seats. A bot wins the pair with more than 1
  of its 2 match points (a win is 1, a draw 1/2); 1 each is a split.
  The margin is the bot's hand points minus the opponent's over the hands both
  legs played (the same deals), per such hand, both legs summed.

Every figure is kept at full precision in the report (and in JSON); the table,
Markdown and CSV round each value once, when it is printed.
"""

from __future__ import annotations

import collections
import csv
import dataclasses
import io
import json
import math
from typing import Any, Iterable, Mapping, Sequence

from tabulate import tabulate

from referee.game.rules import RuleError, Rules, Variant
from referee.game.scoring import score_hand, side_seats
from referee.seat.faults import FaultKind
from referee.tournament.pentanomial import Pentanomial
from referee.tournament.ratings import Z95, Estimate, Kind, Pairing, Pool, RatingFit, informative, twin_estimate, wilson
from referee.tournament.sections import ReportSection
from referee.tournament.team_ratings import TeamFit, TeamPairing

__all__ = ["StandingsBuilder", "StandingsReport", "BotStats", "FORMATS", "render", "render_comparison", "tables",
           "notes", "elo_text"]

FORMATS = ("table", "markdown", "csv", "json")


@dataclasses.dataclass
class BotStats:
    """Counters of one bot (entry) over every record seen."""

    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    hands: int = 0
    contracts: int = 0
    contracts_made: int = 0
    sets_suffered: int = 0
    sets_inflicted: int = 0
    nil_tried: int = 0
    nil_made: int = 0
    blind_tried: int = 0
    blind_made: int = 0
    bags: int = 0
    bag_penalties: int = 0
    faults: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    decisions: int = 0
    decision_ms_total: float = 0.0
    decision_ms_max: float = 0.0
    twin_won: int = 0
    twin_lost: int = 0
    twin_split: int = 0
    twin_margin: int = 0  # over the hands both legs played
    twin_hands: int = 0  # those hands (deals)
    twins: Pentanomial = Pentanomial()  # its twin pairs, from its point of view
    twin_legs: collections.Counter[float] = dataclasses.field(default_factory=collections.Counter)  # leg points
    hand_points: collections.Counter[int] = dataclasses.field(default_factory=collections.Counter)  # per hand

    @property
    def score(self) -> float:
        """Match points: a win 1, a draw 1/2."""
        return self.wins + self.draws / 2

    @property
    def twin_pairs(self) -> int:
        return self.twin_won + self.twin_lost + self.twin_split


@dataclasses.dataclass
class _PairStats:
    """Results of one unordered pairing, from the point of view of ``a``."""

    a: str
    b: str
    games: int = 0
    wins: int = 0  # of a
    losses: int = 0
    draws: int = 0
    twin_pairs: int = 0
    twin_a: int = 0
    twin_b: int = 0
    twin_split: int = 0
    twin_margin_a: int = 0  # over the hands both legs played
    twin_hands: int = 0
    twins_a: Pentanomial = Pentanomial()  # from a's point of view


@dataclasses.dataclass(frozen=True)
class _Leg:
    """One match of a twin pair, waiting for the other."""

    side0: str
    side1: str
    points0: float  # match points of side 0 (1, 1/2, 0)
    hands: Mapping[int, int]  # hand number -> side 0's hand points minus side 1's, scored hands only


@dataclasses.dataclass
class StandingsReport:
    """Standings ready to render (see :func:`render`), every figure at full precision."""

    title: str
    matches: int
    expected: int | None
    bots: list[dict[str, Any]]  # ranked, one dict per bot
    crosstable: dict[str, dict[str, list[int]]]  # row bot -> column bot -> [W, L, D]
    twins: list[dict[str, Any]]  # per pairing, only with duplicate twins
    warnings: list[str]
    pool: RatingFit | None = None  # the fit behind the ratings, for comparisons
    index: Mapping[str, int] = dataclasses.field(default_factory=dict)  # bot -> its index in ``pool``
    #: What the tournament's format adds at the end (:meth:`TournamentFormat.standings_sections`).
    sections: list[ReportSection] = dataclasses.field(default_factory=list)
    #: Records left out because they failed their check or were not scheduled (see the warnings).
    refused: int = 0
    #: Mixed partnerships: bots rated from their teams' results (the team-sum fit).
    mixed: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {"title": self.title, "matches": self.matches, "expected": self.expected, "bots": self.bots,
               "crosstable": self.crosstable, "twins": self.twins}
        out.update({section.key: section.data for section in self.sections})
        return out

    def compare(self, a: str, b: str) -> dict[str, Any]:
        """The difference ``a - b`` in Elo with its 95% interval (or a bound), and the LOS of ``a``.

        Raises ``KeyError`` naming the bot that is not in the standings.
        """
        for name in (a, b):
            if name not in self.index:
                raise KeyError(f"no bot {name!r} in these standings; the bots are: "
                               f"{', '.join(r['bot'] for r in self.bots)}")
        assert self.pool is not None  # a report with bots has its pool
        i, j = self.index[a], self.index[b]
        cross = self.crosstable.get(a, {}).get(b)
        twins = next((t for t in self.twins if {t["a"], t["b"]} == {a, b}), None)
        return {"a": a, "b": b, "difference": self.pool.difference(i, j).to_dict(), "los": self.pool.los(i, j),
                "head_to_head": cross, "twin_pairs": twins}


class StandingsBuilder:
    """Accumulates records into per-bot counters (constant memory per record)."""

    def __init__(self, names: Sequence[str] = (), *, title: str = "Standings", expected: int | None = None,
                 prior: float = 0.0, mixed: bool = False):
        """``names``: the bots in config order (bots without a record yet still
        get a row). ``expected``: how many matches the tournament has.
        ``prior``: virtual draws per pairing in the Elo fit (none by default: see
        docs/tournaments.md for why). ``mixed``: a side's two seats hold two
        bots, each rated on its own from its teams' results (``partners: rotate``)."""
        self.title, self.expected, self.prior, self.mixed = title, expected, prior, mixed
        self.bots: dict[str, BotStats] = {n: BotStats(n) for n in names}
        # Between entries (bots; with ``mixed``, individuals who met as opponents).
        self.pairs: dict[tuple[str, str], _PairStats] = {}
        # With ``mixed``: between teams, by team key, for the fit; and each key's members.
        self.team_pairs: dict[tuple[str, str], _PairStats] = {}
        self._members: dict[str, tuple[str, ...]] = {}
        self.matches = 0
        self.warnings: list[str] = []
        self._legs: dict[tuple[int, frozenset[str]], _Leg] = {}
        self._rules_cache: dict[str, Rules] = {}

    # ------------------------------------------------------------ input

    def _bot(self, name: str) -> BotStats:
        stats = self.bots.get(name)
        if stats is None:
            stats = self.bots[name] = BotStats(name)
        return stats

    def _pair(self, a: str, b: str, table: dict[tuple[str, str], _PairStats] | None = None
              ) -> tuple[_PairStats, bool]:
        """The pairing's stats (in ``table``, by default the bots') and whether ``a`` is its first entry."""
        table = self.pairs if table is None else table
        key = (a, b) if (a, b) in table or (b, a) not in table else (b, a)
        stats = table.get(key)
        if stats is None:
            stats = table[key] = _PairStats(*key)
        return stats, key[0] == a

    def _group(self, entry: str) -> list[BotStats]:
        """The bots whose counters an entry's results go to: itself, or with ``mixed`` its team's members."""
        return [self._bot(name) for name in self._members.get(entry, (entry,))]

    def _count(self, pair: _PairStats, a_first: bool, winner: int | None) -> None:
        """One match of a pairing, ``winner`` a side of it (0: the entry ``a_first`` says)."""
        pair.games += 1
        if winner is None:
            pair.draws += 1
        elif winner == (0 if a_first else 1):
            pair.wins += 1
        else:
            pair.losses += 1

    def add(self, record: Mapping[str, Any]) -> bool:
        """Count one match record; False (and a warning) if it cannot be used."""
        try:
            self._add(record)
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            # A missing field says which; anything else says what was wrong with a value.
            why = f"it has no field {exc.args[0]!r}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            self.warnings.append(f"match {record.get('match', '?')!r}: skipped, the record is not usable ({why})")
            return False
        return True

    def _add(self, rec: Mapping[str, Any]) -> None:
        # Read and check everything first, so a bad record changes no counter.
        variant = Variant.parse(rec["variant"])
        bots = [str(b) for b in rec["bots"]]
        if len(bots) != variant.seats:
            raise ValueError(f"{variant.value} has {variant.seats} seats, the record names {len(bots)} bots")
        if self.mixed:
            members = [_members(bots, variant, side) for side in (0, 1)]
            twice = sorted(set(members[0]) & set(members[1]))
            if twice:
                raise ValueError(f"{twice[0]!r} plays on both sides")
            entries = [" + ".join(sorted(m)) for m in members]  # a team, whichever seat each partner took
        else:
            entries = [_entry(bots, variant, side) for side in (0, 1)]
            members = [[e] for e in entries]
            if entries[0] == entries[1]:
                raise ValueError(f"both sides are {entries[0]!r} (a bot against itself)")
        score = [int(rec["score"][0]), int(rec["score"][1])]
        winner = rec["winner"]
        if winner not in (0, 1, None):
            raise ValueError(f"winner must be 0, 1 or null, got: {winner!r}")
        rules = self._rules(rec.get("rules"))
        hand_deltas, seat_deltas, hand_points = _hand_deltas(variant, rules, len(bots), rec.get("hands") or [])

        def seat_entry(seat: int) -> str:
            # Whose own counters a seat's figures go to: its bot with ``mixed``, else its side's entry.
            return bots[seat] if self.mixed else entries[variant.side_of(seat)]

        faults = [(seat_entry(int(f["seat"])), str(f["kind"])) for f in rec.get("faults") or []]
        timing = []
        for seat, st in enumerate((rec.get("stats") or [])[:len(bots)]):
            count = st.get("decisions") if isinstance(st, Mapping) else None
            if count:  # None: no clock (a human seat)
                timing.append((seat_entry(seat), int(count), float(st["mean_ms"]), float(st["max_ms"])))
        nils = [(seat_entry(seat), delta) for seat, delta in seat_deltas]

        self.matches += 1
        if self.mixed:
            for entry, names in zip(entries, members):
                self._members[entry] = tuple(sorted(names))
        teams = [self._group(e) for e in entries]
        for side, team in enumerate(teams):
            for bot in team:
                bot.matches += 1
                bot.points_for += score[side]
                bot.points_against += score[1 - side]
                if winner is None:
                    bot.draws += 1
                elif winner == side:
                    bot.wins += 1
                else:
                    bot.losses += 1
        if self.mixed:
            self._count(*self._pair(entries[0], entries[1], self.team_pairs), winner)
        # Head to head: between the entries, or with ``mixed`` between every two bots who were opponents.
        for a in members[0]:
            for b in members[1]:
                self._count(*self._pair(a, b), winner)
        for _, points in hand_points:
            for side, team in enumerate(teams):
                for bot in team:
                    bot.hand_points[points[side]] += 1
        for side, delta in hand_deltas:
            for bot in teams[side]:
                for key, value in delta.items():
                    setattr(bot, key, getattr(bot, key) + value)
            for other in teams[1 - side]:
                other.sets_inflicted += delta.get("sets_suffered", 0)
        for name, delta in nils:
            bot = self._bot(name)
            for key, value in delta.items():
                setattr(bot, key, getattr(bot, key) + value)
        for name, kind in faults:
            self._bot(name).faults[kind] += 1
        for name, count, mean_ms, max_ms in timing:
            bot = self._bot(name)
            bot.decisions += count
            bot.decision_ms_total += mean_ms * count
            bot.decision_ms_max = max(bot.decision_ms_max, max_ms)

        seed = rec.get("seed")
        if isinstance(seed, int):
            points0 = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            margins = {number: points[0] - points[1] for number, points in hand_points}
            self._twin(_Leg(entries[0], entries[1], points0, margins), seed)

    def _rules(self, data: Any) -> Rules:
        key = json.dumps(data, sort_keys=True)
        rules = self._rules_cache.get(key)
        if rules is None:
            try:
                rules = Rules.from_mapping(data or {}, where="record rules")
            except RuleError as exc:
                raise ValueError(str(exc)) from None
            self._rules_cache[key] = rules
        return rules

    def _twin(self, leg: _Leg, seed: int) -> None:
        key = (seed, frozenset((leg.side0, leg.side1)))
        first = self._legs.get(key)
        if first is None or first.side0 != leg.side1:
            self._legs[key] = leg  # the first leg, or the same seats again (not a twin)
            return
        del self._legs[key]
        # Points and margin of first.side0 over the two legs (it is side 1 now).
        a, b = first.side0, first.side1
        points_a = first.points0 + (1.0 - leg.points0)
        # The same deals in both legs: only hands both legs played compare like with like.
        common = sorted(set(first.hands) & set(leg.hands))
        margin_a = sum(first.hands[h] - leg.hands[h] for h in common)
        # The bots (with ``mixed``, each member of the two teams) and the pairing (of the teams) it counts for.
        group_a, group_b = self._group(a), self._group(b)
        pair, a_first = self._pair(a, b, self.team_pairs if self.mixed else None)
        pair.twin_pairs += 1
        legs_a = (first.points0, 1.0 - leg.points0)
        legs_b = (1.0 - legs_a[0], 1.0 - legs_a[1])
        pair.twins_a = pair.twins_a.add(*legs_a) if a_first else pair.twins_a.add(*legs_b)
        pair.twin_hands += len(common)
        sides = ((group_a, legs_a, margin_a, points_a), (group_b, legs_b, -margin_a, 2.0 - points_a))
        for group, legs, margin, points in sides:
            for bot in group:
                bot.twins = bot.twins.add(*legs)
                for leg_points in legs:
                    bot.twin_legs[leg_points] += 1
                bot.twin_hands += len(common)
                bot.twin_margin += margin
                if points == 1.0:
                    bot.twin_split += 1
                elif points > 1.0:
                    bot.twin_won += 1
                else:
                    bot.twin_lost += 1
        if points_a == 1.0:
            pair.twin_split += 1
        # The pair's "A" is its first-named entry, which is ``a`` when ``a_first``.
        elif (points_a > 1.0) == a_first:
            pair.twin_a += 1
        else:
            pair.twin_b += 1
        pair.twin_margin_a += margin_a if a_first else -margin_a

    # ------------------------------------------------------------ queries

    def leader(self) -> tuple[str, BotStats] | None:
        """The bot with the best win % so far (for progress lines), or None."""
        played = [b for b in self.bots.values() if b.matches]
        if not played:
            return None
        best = max(played, key=lambda b: (b.score / b.matches, b.matches))
        return best.name, best

    def pool(self) -> RatingFit:
        """The rating fit of every result so far (bots indexed in the order of ``self.bots``): with
        ``mixed`` the team-sum fit of the teams' results, else the pairwise fit."""
        index = {n: i for i, n in enumerate(self.bots)}
        if self.mixed:
            def team(key: str) -> tuple[int, ...]:
                return tuple(index[name] for name in self._members[key])
            return TeamFit(len(index), [TeamPairing(team(p.a), team(p.b), p.games, p.wins + p.draws / 2, p.twins_a)
                                        for p in self.team_pairs.values() if p.games])
        return Pool(len(index), [Pairing(index[p.a], index[p.b], p.games, p.wins + p.draws / 2, p.twins_a)
                                 for p in self.pairs.values() if p.games], prior=self.prior)

    def report(self) -> StandingsReport:
        """Ratings, ranks and every table's data, at full precision."""
        names = list(self.bots)
        index = {n: i for i, n in enumerate(names)}
        pool = self.pool()
        rows: list[dict[str, Any]] = []
        for name in names:
            b = self.bots[name]
            elo = pool.rating(index[name])
            lo, hi = _win_interval(b)
            rows.append({
                "bot": name, "matches": b.matches, "wins": b.wins, "losses": b.losses, "draws": b.draws,
                "win_pct": _ratio(100.0 * b.score, b.matches),
                "win_ci95": [100 * lo, 100 * hi] if b.matches else None,
                "win_ci_method": _win_method(b),
                "points_for": _ratio(b.points_for, b.matches), "points_against": _ratio(b.points_against, b.matches),
                "points_per_hand": {"mean": _mean(b.hand_points), "median": _median(b.hand_points)},
                "elo": elo.to_dict(),
                "hands": b.hands, "contracts": b.contracts, "contracts_made": b.contracts_made,
                "bids_made_pct": _ratio(100.0 * b.contracts_made, b.contracts),
                "sets_suffered": b.sets_suffered, "sets_inflicted": b.sets_inflicted,
                "nil": {"tried": b.nil_tried, "made": b.nil_made},
                "blind_nil": {"tried": b.blind_tried, "made": b.blind_made},
                "bags": b.bags, "bags_per_hand": _ratio(b.bags, b.hands), "bag_penalties": b.bag_penalties,
                "faults": {k.value: b.faults[k.value] for k in FaultKind if b.faults[k.value]}
                | {k: v for k, v in sorted(b.faults.items()) if k not in {f.value for f in FaultKind}},
                "decisions": b.decisions,
                "decision_ms_mean": _ratio(b.decision_ms_total, b.decisions),
                "decision_ms_max": b.decision_ms_max if b.decisions else None,
                "twin_pairs": {"won": b.twin_won, "lost": b.twin_lost, "split": b.twin_split,
                               "pentanomial": list(b.twins.counts), "hands": b.twin_hands,
                               "margin_per_hand": _ratio(b.twin_margin, b.twin_hands)},
            })
        order = {n: i for i, n in enumerate(names)}
        rating = {name: pool.rating(index[name]) for name in names}
        sort_value = {name: rating[name].sort_value() for name in names}

        def rank_key(row: dict[str, Any]) -> tuple[Any, ...]:
            win = row["win_pct"] if row["win_pct"] is not None else -1.0
            return (-sort_value[row["bot"]], -win, order[row["bot"]])

        rows.sort(key=rank_key)
        # Equal ratings share a rank ("2="): compared at full precision, up to the fit's tolerance.
        for k, row in enumerate(rows):
            value = rating[row["bot"]]
            tied_above = k > 0 and _same_rating(value, rating[rows[k - 1]["bot"]])
            row["rank"] = rows[k - 1]["rank"] if tied_above else k + 1
            row["tied"] = tied_above or (k + 1 < len(rows) and _same_rating(value, rating[rows[k + 1]["bot"]]))
            nxt = rows[k + 1]["bot"] if k + 1 < len(rows) else None
            row["los_next"] = None if nxt is None else pool.los(index[row["bot"]], index[nxt])
        ranked: list[str] = [str(row["bot"]) for row in rows]
        cross: dict[str, dict[str, list[int]]] = {a: {} for a in ranked}
        for p in self.pairs.values():
            cross[p.a][p.b] = [p.wins, p.losses, p.draws]
            cross[p.b][p.a] = [p.losses, p.wins, p.draws]
        cross = {a: {o: cross[a][o] for o in ranked if o in cross[a]} for a in ranked}
        twins = []
        # Pairings in bot order, each seen from its earlier bot, whatever
        # order the records came in.
        for p in sorted(self.pairs.values(), key=lambda p: sorted((index[p.a], index[p.b]))):
            if not p.twin_pairs:
                continue
            if index[p.a] < index[p.b]:
                first, second, a_won, b_won, margin, pent = p.a, p.b, p.twin_a, p.twin_b, p.twin_margin_a, p.twins_a
            else:
                first, second, a_won, b_won, margin, pent = (p.b, p.a, p.twin_b, p.twin_a, -p.twin_margin_a,
                                                             p.twins_a.flipped())
            interval = pent.score_interval(Z95) if informative(pent) else wilson(2 * pent.pairs * (pent.mean() or 0.0),
                                                                                 2 * pent.pairs)
            twins.append({"a": first, "b": second, "pairs": p.twin_pairs, "a_won": a_won, "b_won": b_won,
                          "split": p.twin_split, "pentanomial": list(pent.counts), "a_score": pent.mean(),
                          "a_score_ci95": list(interval) if interval else None,
                          "a_elo": twin_estimate(pent).to_dict(), "hands": p.twin_hands,
                          "a_margin_per_hand": _ratio(margin, p.twin_hands)})
        return StandingsReport(self.title, self.matches, self.expected, rows, cross, twins, list(self.warnings),
                               pool, index, mixed=self.mixed)


def _same(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y))


def _same_rating(a: Estimate, b: Estimate) -> bool:
    """Two ratings that rank alike: the same kind, and the same value (or bound) at full precision.

    Bounds are compared by their bound, not by their sort value (which puts every
    bound beyond every estimate, at a scale where a tolerance would join them all).
    """
    if a.kind is not b.kind:
        return False
    x, y = {Kind.ESTIMATE: (a.value, b.value), Kind.LOWER_BOUND: (a.low, b.low),
            Kind.UPPER_BOUND: (a.high, b.high)}.get(a.kind, (0.0, 0.0))
    if x is None or y is None:
        return x is y
    return _same(x, y)


def _win_interval(b: BotStats) -> tuple[float, float]:
    """The 95% interval of a bot's score: Wilson's, or with twin pairs from their spread.

    With twin pairs each pair is one unit of evidence (its two legs share the deals), and
    each match outside a pair one more: the variance of the mean score is
    ``sum over units (points - mean * matches in it) ** 2 / matches ** 2``, which with pairs
    only is the pentanomial variance of the mean; the interval is Wilson's at the
    effective number of matches ``mean (1 - mean) / that variance``. A perfect or null score has no spread to use:
    its bound is the one-sided ``0.05 ** (1 / units)`` of a unit that never failed.
    """
    if not b.matches or not b.twin_pairs:
        return wilson(b.score, b.matches)
    mu = b.score / b.matches
    units = b.twin_pairs + b.matches - 2 * b.twin_pairs
    if b.score in (0, b.matches):
        edge = 0.05 ** (1 / units)
        return (edge, 1.0) if mu == 1.0 else (0.0, 1.0 - edge)
    single = {1.0: b.wins - b.twin_legs[1.0], 0.5: b.draws - b.twin_legs[0.5], 0.0: b.losses - b.twin_legs[0.0]}
    spread = 4 * b.twins.spread(mu) + sum(n * (x - mu) ** 2 for x, n in single.items())
    # Wilson's interval at the effective number of matches, mu (1 - mu) / variance of the
    # mean: the pair variance sets the width, and the interval stays inside [0, 1] and
    # asymmetric near the ends (a plain normal interval would reach 0 for 2 wins in 12).
    # As in the rating fit, the pairs may halve the per-match variance at most (a few pairs
    # that all ended alike would otherwise claim certainty).
    var = max(spread / b.matches ** 2, mu * (1 - mu) / b.matches / 2)
    n_eff = mu * (1 - mu) / var
    return wilson(mu * n_eff, n_eff)


def _win_method(b: BotStats) -> str:
    if b.twin_pairs and b.score in (0, b.matches):
        return "one-sided, twin pairs as units"
    return "twin pairs" if b.twin_pairs else "wilson"


def _mean(values: collections.Counter[int]) -> float | None:
    n = sum(values.values())
    return sum(v * c for v, c in values.items()) / n if n else None


def _median(values: collections.Counter[int]) -> float | None:
    """The median of a multiset kept as counts (constant memory per distinct value)."""
    n = sum(values.values())
    if not n:
        return None
    ordered = sorted(values.items())

    def kth(k: int) -> int:  # 0-based
        seen = 0
        for v, c in ordered:
            seen += c
            if k < seen:
                return v
        raise AssertionError("k beyond the count")  # cannot happen: k < n

    return (kth((n - 1) // 2) + kth(n // 2)) / 2


def _hand_deltas(variant: Variant, rules: Rules, nseats: int, hands: Iterable[Mapping[str, Any]]
                 ) -> tuple[list[tuple[int, dict[str, int]]], list[tuple[int, dict[str, int]]],
                            list[tuple[int, tuple[int, int]]]]:
    """Per side and hand, the counters a hand adds (re-scored with the match's rules); per seat
    and hand, its nil and blind nil counters; and per scored hand its number and the two sides' points."""
    out: list[tuple[int, dict[str, int]]] = []
    nils: list[tuple[int, dict[str, int]]] = []
    points: list[tuple[int, tuple[int, int]]] = []
    bags_before: Sequence[int] = (0, 0)
    for hand in hands:
        bids, blind, tricks = list(hand["bids"]), list(hand["blind"]), list(hand["tricks"])
        if not len(bids) == len(blind) == len(tricks) == nseats:
            raise ValueError(f"hand {hand.get('hand')!r} has {len(bids)} bids, {len(blind)} blind flags and "
                             f"{len(tricks)} trick counts for {nseats} seats")
        if sum(tricks) != 13:
            continue  # a hand cut short by a forfeit is not scored
        scored = score_hand(variant, rules, bids, blind, tricks, bags_before)
        bags_before = hand.get("bags") or scored.bags
        number = hand.get("hand")
        points.append((int(number) if isinstance(number, int) else len(points) + 1,
                       (scored.sides[0].points, scored.sides[1].points)))
        for side, sc in enumerate(scored.sides):
            delta = {"hands": 1, "bags": sc.bags_gained, "bag_penalties": sc.penalties}
            if sc.made is not None:
                delta["contracts"] = 1
                delta["contracts_made" if sc.made else "sets_suffered"] = 1
            for seat in side_seats(variant, side):
                if bids[seat] == 0:
                    kind = "blind" if blind[seat] else "nil"
                    nils.append((seat, {f"{kind}_tried": 1, f"{kind}_made": int(tricks[seat] == 0)}))
            out.append((side, delta))
    return out, nils, points


def _members(bots: Sequence[str], variant: Variant, side: int) -> list[str]:
    """The different bots of a side's seats, in seat order."""
    names: list[str] = []
    for seat in side_seats(variant, side):
        if bots[seat] not in names:
            names.append(str(bots[seat]))
    return names


def _entry(bots: Sequence[str], variant: Variant, side: int) -> str:
    return "/".join(_members(bots, variant, side))


def _ratio(num: float, den: int) -> float | None:
    """``num / den`` at full precision; None for nothing to divide by."""
    return num / den if den else None


# ---------------------------------------------------------------- rendering
#
# Every value below is formatted straight from the report's full precision: one
# rounding, in one place (``_fixed``), for the table, Markdown and CSV alike.

_NOTES = (
    "Win %: (wins + draws/2) / matches; 95% interval: Wilson's, or with twin pairs from the spread of the pair "
    "scores (pentanomial), a perfect score a one-sided bound. "
    "Elo: maximum-likelihood fit to all results, no prior, mean 0; 95% profile-likelihood interval, scaled for "
    "twin pairs; '> +310': every point against the bots it is rated against, a one-sided 95% bound. "
    "LOS: probability of being stronger than the next bot down. Ties share a rank (2=).",
    "Pts/hand: own points per scored hand, mean and median. "
    "Bids made: side contracts (sum of non-nil bids) made / played; a set is a contract not made. "
    "Nil and blind nil: made/tried. Bags/hand: overtricks plus failed-nil tricks. ms: decision time.",
)
_MIXED_NOTE = (
    "Mixed partnerships: each bot's matches are its teams'; W-L-D, points, bids, sets and bags are its team's, "
    "nil bids, faults and decision times its own seat's. Win %: (wins + draws/2) / matches, 95% from the spread "
    "of its twin pairs. Elo: team-sum Bradley-Terry fit, P(team A wins) = 1 / (1 + 10^(-(sum of A's ratings - "
    "sum of B's) / 400)), maximum likelihood with a weak prior (sd 400), mean 0; 95% interval with each twin pair "
    "one unit. LOS: probability of being stronger than the next bot down. Head to head: the row bot's team "
    "against a team with the column bot in it. Teams: the partner tables at the end.")
_TWIN_NOTE = ("Twin pairs: two matches on the same deals with seats swapped; a bot wins the pair with more than "
              "1 of its 2 match points (a win is 1, a draw 1/2), a split is 1 each. Pentanomial: pairs lost both, "
              "drew one lost one, level, won one drew one, won both. Score and Elo: mean pair score, 95% from the "
              "pair variance. Margin/hand: own hand points minus the opponent's over the hands both legs played, "
              "per hand, both legs summed.")


def _fixed(value: float | None, digits: int, *, sign: bool = False, none: str = "-") -> str:
    """One value rounded once, from full precision."""
    if value is None:
        return none
    text = f"{value:{'+' if sign else ''}.{digits}f}"
    if float(text) == 0.0:  # no "-0" for a value that rounds to zero
        text = f"{0.0:{'+' if sign else ''}.{digits}f}"
    return text


def elo_text(est: Mapping[str, Any]) -> str:
    """A rating as printed: ``+95``, or a one-sided bound ``> +310`` / ``< -310``."""
    kind = est["kind"]
    if kind == Kind.LOWER_BOUND.value:
        return "> " + _fixed(est["low"], 0, sign=True)
    if kind == Kind.UPPER_BOUND.value:
        return "< " + _fixed(est["high"], 0, sign=True)
    return _fixed(est["value"], 0, sign=True)


def _elo_ci_text(est: Mapping[str, Any]) -> str:
    if est["kind"] != Kind.ESTIMATE.value or (est["low"] is None and est["high"] is None):
        return "-"
    return f"[{_fixed(est['low'], 0, sign=True, none='-inf')}, {_fixed(est['high'], 0, sign=True, none='+inf')}]"


def _rank_text(row: Mapping[str, Any]) -> str:
    return f"{row['rank']}=" if row["tied"] else str(row["rank"])


def _pct_text(fraction: float | None) -> str:
    return "-" if fraction is None else _fixed(100 * fraction, 1) + "%"


def _wld(w: int, l: int, d: int) -> str:
    return f"{w}-{l}-{d}"


def _has_twins(report: StandingsReport) -> bool:
    """Whether any twin pair was played (with mixed partnerships they are between teams, not in ``twins``)."""
    return bool(report.twins) or any(sum(r["twin_pairs"]["pentanomial"]) for r in report.bots)


def _main_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    twins = _has_twins(report)
    head = ["#", "Bot", "Matches", "W-L-D", "Win %", "95% CI", "For", "Against", "Elo", "Elo 95% CI", "LOS"]
    if twins:
        head.append("Twins W-L-S")
    rows = []
    for r in report.bots:
        ci = f"{_fixed(r['win_ci95'][0], 1)}-{_fixed(r['win_ci95'][1], 1)}" if r["win_ci95"] else "-"
        row = [_rank_text(r), r["bot"], str(r["matches"]), _wld(r["wins"], r["losses"], r["draws"]),
               _fixed(r["win_pct"], 1), ci, _fixed(r["points_for"], 1), _fixed(r["points_against"], 1),
               elo_text(r["elo"]), _elo_ci_text(r["elo"]), _pct_text(r["los_next"])]
        if twins:
            t = r["twin_pairs"]
            row.append(_wld(t["won"], t["lost"], t["split"]))
        rows.append(row)
    return head, rows


def _faults_text(faults: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in faults.items()) or "-"


def _spades_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    head = ["Bot", "Hands", "Pts/hand", "median", "Bids made", "Sets suffered", "Sets inflicted", "Nil",
            "Blind nil", "Bags/hand", "Bag pen.", "Faults", "ms mean", "ms max"]
    rows = []
    for r in report.bots:
        made = (f"{_fixed(r['bids_made_pct'], 1)}% ({r['contracts_made']}/{r['contracts']})"
                if r["contracts"] else "-")
        per_hand = r["points_per_hand"]
        rows.append([r["bot"], str(r["hands"]), _fixed(per_hand["mean"], 1), _fixed(per_hand["median"], 1), made,
                     str(r["sets_suffered"]), str(r["sets_inflicted"]),
                     f"{r['nil']['made']}/{r['nil']['tried']}", f"{r['blind_nil']['made']}/{r['blind_nil']['tried']}",
                     _fixed(r["bags_per_hand"], 2), str(r["bag_penalties"]), _faults_text(r["faults"]),
                     _fixed(r["decision_ms_mean"], 1), _fixed(r["decision_ms_max"], 1)])
    return head, rows


def _cross_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    names = [r["bot"] for r in report.bots]
    head = ["W-L-D"] + names
    rows = []
    for a in names:
        row = [a]
        for b in names:
            cell = report.crosstable.get(a, {}).get(b)
            row.append("x" if a == b else (_wld(*cell) if cell else "-"))
        rows.append(row)
    return head, rows


def _score_ci_text(interval: Sequence[float] | None) -> str:
    if not interval:
        return "-"
    return f"{_fixed(100 * interval[0], 1)}-{_fixed(100 * interval[1], 1)}"


def _twin_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    head = ["Bot A", "Bot B", "Pairs", "A won", "B won", "Split", "Pentanomial", "A score %", "95% CI", "A Elo",
            "Elo 95% CI", "Hands", "A margin/hand"]
    rows = [[t["a"], t["b"], str(t["pairs"]), str(t["a_won"]), str(t["b_won"]), str(t["split"]),
             " ".join(str(c) for c in t["pentanomial"]), _fixed(None if t["a_score"] is None else 100 * t["a_score"], 1),
             _score_ci_text(t["a_score_ci95"]), elo_text(t["a_elo"]), _elo_ci_text(t["a_elo"]), str(t["hands"]),
             _fixed(t["a_margin_per_hand"], 1, sign=True)] for t in report.twins]
    return head, rows


def _heading(report: StandingsReport) -> str:
    played = f"{report.matches} of {report.expected}" if report.expected is not None else str(report.matches)
    return f"{report.title}: {played} matches"


def _tables(sections: Sequence[tuple[str, tuple[list[str], list[list[str]]]]], fmt: str) -> list[str]:
    tablefmt = "github" if fmt == "markdown" else "simple"
    out = []
    for title, (head, rows) in sections:
        out.append(f"## {title}" if fmt == "markdown" else title)
        if fmt == "markdown":
            out.append("")
        out.append(tabulate(rows, headers=head, tablefmt=tablefmt, disable_numparse=True,
                            colalign=("left",) * len(head)))
        out.append("")
    return out


def tables(report: StandingsReport) -> list[tuple[str, tuple[list[str], list[list[str]]]]]:
    """Every table the standings print, as ``(title, (header, rows))``: the text
    formats (and any other face) render these same cells, rounded once."""
    sections = [("Standings", _main_table(report)), ("Spades statistics", _spades_table(report)),
                ("Head to head (row vs column)", _cross_table(report))]
    if report.twins:
        sections.append(("Twin pairs (same deals, seats swapped)", _twin_table(report)))
    return sections


def notes(report: StandingsReport) -> list[str]:
    """The notes printed under the tables."""
    first = [_MIXED_NOTE, _NOTES[1]] if report.mixed else list(_NOTES)
    return first + ([_TWIN_NOTE] if _has_twins(report) else [])


def render(report: StandingsReport, fmt: str = "table") -> str:
    """The standings as text: ``table`` (terminal), ``markdown``, ``csv`` or ``json``."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _render_csv(report)
    if fmt not in ("table", "markdown"):
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    out = [f"# {_heading(report)}" if fmt == "markdown" else _heading(report), ""]
    out.extend(_tables(tables(report), fmt))
    out.extend(("- " + n) if fmt == "markdown" else n for n in notes(report))
    tablefmt = "github" if fmt == "markdown" else "simple"
    for section in report.sections:
        out.extend(["", f"## {section.title}" if fmt == "markdown" else section.title, ""])
        if section.headers:
            out.extend([tabulate(section.rows, headers=list(section.headers), tablefmt=tablefmt,
                                 disable_numparse=True, colalign=("left",) * len(section.headers)), ""])
        if section.lines:
            out.extend(["```", *section.lines, "```"] if fmt == "markdown" else section.lines)
    return "\n".join(out) + "\n"


def render_comparison(report: StandingsReport, a: str, b: str, fmt: str = "table") -> str:
    """``a`` against ``b``: the rating difference with its 95% interval and LOS, and their meetings.

    Raises ``KeyError`` (naming the bot) when either is not in the standings.
    """
    data = report.compare(a, b)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    diff = data["difference"]
    cross = data["head_to_head"]
    twins = data["twin_pairs"]
    head = ["", "Value"]
    rows = [[f"Elo {a} - {b}", elo_text(diff)], ["95% CI", _elo_ci_text(diff)],
            [f"LOS ({a} stronger)", _pct_text(data["los"])],
            ["Head to head W-L-D", _wld(*cross) if cross else "never met"]]
    if twins:
        flip = twins["a"] != a
        pent = list(reversed(twins["pentanomial"])) if flip else twins["pentanomial"]
        rows.append(["Twin pairs (pentanomial)", " ".join(str(c) for c in pent)])
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["a", "b", "elo_kind", "elo_difference", "elo_ci95_low", "elo_ci95_high", "los"])
        writer.writerow([a, b, diff["kind"], _blank(_csv_num(diff["value"], 1)), _blank(_csv_num(diff["low"], 1)),
                         _blank(_csv_num(diff["high"], 1)),
                         _blank(_csv_num(None if data["los"] is None else 100 * data["los"], 1))])
        return buf.getvalue()
    if fmt not in ("table", "markdown"):
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    title = f"{a} vs {b}"
    out = [f"# {title}" if fmt == "markdown" else title, ""]
    out.extend(_tables([(f"{report.title}: {report.matches} matches", (head, rows))], fmt))
    note = ("Difference of the two ratings of the standings (same fit, all results), 95% profile-likelihood interval "
            "(scaled for twin pairs); '> x': a one-sided 95% bound. LOS: probability that the first is stronger.")
    if report.mixed:
        note = ("Difference of the two individual ratings of the standings (the team-sum fit of every team result), "
                "95% interval with each twin pair one unit. LOS: probability that the first is stronger.")
    out.append(("- " + note) if fmt == "markdown" else note)
    return "\n".join(out) + "\n"


def _csv_num(value: float | None, digits: int) -> float | None:
    """A CSV number rounded once from full precision (JSON keeps it all)."""
    return None if value is None else round(value, digits)


def _render_csv(report: StandingsReport) -> str:
    """One row per bot with every per-bot figure (the crosstable is in json)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    kinds = [k.value for k in FaultKind]
    writer.writerow(["rank", "bot", "tied", "matches", "wins", "losses", "draws", "win_pct", "win_ci95_low",
                     "win_ci95_high", "points_for", "points_against", "points_per_hand_mean",
                     "points_per_hand_median", "elo_kind", "elo", "elo_ci95_low", "elo_ci95_high", "los_next",
                     "hands", "contracts", "contracts_made", "bids_made_pct", "sets_suffered", "sets_inflicted",
                     "nil_tried", "nil_made", "blind_nil_tried", "blind_nil_made", "bags", "bags_per_hand",
                     "bag_penalties"]
                    + [f"faults_{k}" for k in kinds]
                    + ["decisions", "decision_ms_mean", "decision_ms_max", "twin_won", "twin_lost", "twin_split",
                       "twin_hands", "twin_margin_per_hand"])
    for r in report.bots:
        t = r["twin_pairs"]
        elo = r["elo"]
        ci = r["win_ci95"] or [None, None]
        los = None if r["los_next"] is None else 100 * r["los_next"]
        writer.writerow([r["rank"], r["bot"], int(r["tied"]), r["matches"], r["wins"], r["losses"], r["draws"]]
                        + [_blank(_csv_num(v, 1)) for v in (r["win_pct"], ci[0], ci[1], r["points_for"],
                                                          r["points_against"], r["points_per_hand"]["mean"],
                                                          r["points_per_hand"]["median"])]
                        + [elo["kind"]] + [_blank(_csv_num(v, 1)) for v in (elo["value"], elo["low"], elo["high"], los)]
                        + [r["hands"], r["contracts"], r["contracts_made"], _blank(_csv_num(r["bids_made_pct"], 1)),
                           r["sets_suffered"], r["sets_inflicted"], r["nil"]["tried"], r["nil"]["made"],
                           r["blind_nil"]["tried"], r["blind_nil"]["made"], r["bags"],
                           _blank(_csv_num(r["bags_per_hand"], 2)), r["bag_penalties"]]
                        + [r["faults"].get(k, 0) for k in kinds]
                        + [r["decisions"], _blank(_csv_num(r["decision_ms_mean"], 2)),
                           _blank(_csv_num(r["decision_ms_max"], 2)), t["won"], t["lost"], t["split"], t["hands"],
                           _blank(_csv_num(t["margin_per_hand"], 1))])
    return buf.getvalue()


def _blank(value: Any) -> Any:
    return "" if value is None else value
