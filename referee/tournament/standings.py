"""Standings: statistics of every bot from match records, and their tables.

:class:`StandingsBuilder` takes records one at a time (``add``) and keeps only
counters, so memory does not grow with the number of matches; the records
themselves are streamed from ``matches.jsonl`` and dropped. ``report()``
turns the counters into a :class:`StandingsReport`, which renders as a text
table, Markdown, CSV or JSON.

Who is a "bot" here: the entry of a side. In a tournament each side is one
bot (in a partnership playing both seats as two processes); a record where a
side's two seats hold different programs (``spades match`` with four bots)
counts for the team ``"a/b"``.

Definitions (also printed under the tables):

* **Win %**: (wins + draws/2) / matches, with the 95% Wilson interval.
* **Elo**: maximum-likelihood fit to every result (:mod:`referee.tournament.ratings`),
  mean 0, with its 95% error.
* **Bids made**: contracts made / contracts played; a side's contract is the
  sum of its non-nil bids (a side of nil bidders only has none). A contract
  not made is a **set**: suffered by that side, inflicted by the other.
* **Nil** / **Blind nil**: made / tried, per nil bid.
* **Bags/hand**: overtricks plus tricks of failed nil bidders, per hand;
  **Bag pen.**: how many times the bag limit cost a penalty.
* **Faults** by kind, and decision time (mean and max, ms) over all the
  bot's decisions, from the referee's clock.
* **Twin pairs** (duplicate tournaments): the two matches played on the same
  deals with the bots in swapped seats. A bot wins the pair by scoring more
  than one of its two matches (draws half); one win each is a split.
  The margin is the bot's score minus the opponent's, summed over both.
"""

from __future__ import annotations

import collections
import csv
import dataclasses
import io
import json
from typing import Any, Iterable, Mapping, Sequence

from tabulate import tabulate

from referee.game.rules import RuleError, Rules, Variant
from referee.game.scoring import score_hand, side_seats
from referee.seat.faults import FaultKind
from referee.tournament.ratings import fit_elo, wilson
from referee.tournament.sections import ReportSection

__all__ = ["StandingsBuilder", "StandingsReport", "BotStats", "FORMATS", "render"]

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
    twin_margin: int = 0

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
    twin_margin_a: int = 0


@dataclasses.dataclass(frozen=True)
class _Leg:
    """One match of a twin pair, waiting for the other."""

    side0: str
    side1: str
    points0: float  # match points of side 0 (1, 1/2, 0)
    margin0: int  # score of side 0 minus score of side 1


@dataclasses.dataclass
class StandingsReport:
    """Standings ready to render (see :func:`render`)."""

    title: str
    matches: int
    expected: int | None
    bots: list[dict[str, Any]]  # ranked, one dict per bot
    crosstable: dict[str, dict[str, list[int]]]  # row bot -> column bot -> [W, L, D]
    twins: list[dict[str, Any]]  # per pairing, only with duplicate twins
    warnings: list[str]
    #: What the tournament's format adds at the end (:meth:`TournamentFormat.standings_sections`).
    sections: list[ReportSection] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = {"title": self.title, "matches": self.matches, "expected": self.expected, "bots": self.bots,
               "crosstable": self.crosstable, "twins": self.twins}
        out.update({section.key: section.data for section in self.sections})
        return out


class StandingsBuilder:
    """Accumulates records into per-bot counters (constant memory per record)."""

    def __init__(self, names: Sequence[str] = (), *, title: str = "Standings", expected: int | None = None,
                 prior: float = 1.0):
        """``names``: the bots in config order (bots without a record yet still
        get a row). ``expected``: how many matches the tournament has.
        ``prior``: virtual draws per pairing in the Elo fit."""
        self.title, self.expected, self.prior = title, expected, prior
        self.bots: dict[str, BotStats] = {n: BotStats(n) for n in names}
        self.pairs: dict[tuple[str, str], _PairStats] = {}
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

    def _pair(self, a: str, b: str) -> tuple[_PairStats, bool]:
        """The pairing's stats and whether ``a`` is its first bot."""
        key = (a, b) if (a, b) in self.pairs or (b, a) not in self.pairs else (b, a)
        stats = self.pairs.get(key)
        if stats is None:
            stats = self.pairs[key] = _PairStats(*key)
        return stats, key[0] == a

    def add(self, record: Mapping[str, Any]) -> bool:
        """Count one match record; False (and a warning) if it cannot be used."""
        try:
            self._add(record)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            self.warnings.append(f"match {record.get('match', '?')!r}: skipped, the record is not usable "
                                 f"({type(exc).__name__}: {exc})")
            return False
        return True

    def _add(self, rec: Mapping[str, Any]) -> None:
        # Read and check everything first, so a bad record changes no counter.
        variant = Variant.parse(rec["variant"])
        bots = [str(b) for b in rec["bots"]]
        if len(bots) != variant.seats:
            raise ValueError(f"{variant.value} has {variant.seats} seats, the record names {len(bots)} bots")
        entries = [_entry(bots, variant, side) for side in (0, 1)]
        if entries[0] == entries[1]:
            raise ValueError(f"both sides are {entries[0]!r} (a bot against itself)")
        score = [int(rec["score"][0]), int(rec["score"][1])]
        winner = rec["winner"]
        if winner not in (0, 1, None):
            raise ValueError(f"winner must be 0, 1 or null, got: {winner!r}")
        rules = self._rules(rec.get("rules"))
        hand_deltas = _hand_deltas(variant, rules, len(bots), rec.get("hands") or [])
        faults = [(variant.side_of(int(f["seat"])), str(f["kind"])) for f in rec.get("faults") or []]
        timing = []
        for seat, st in enumerate((rec.get("stats") or [])[:len(bots)]):
            count = st.get("decisions") if isinstance(st, Mapping) else None
            if count:  # None: no clock (a human seat)
                timing.append((variant.side_of(seat), int(count), float(st["mean_ms"]), float(st["max_ms"])))

        self.matches += 1
        sides = [self._bot(e) for e in entries]
        for side, bot in enumerate(sides):
            bot.matches += 1
            bot.points_for += score[side]
            bot.points_against += score[1 - side]
            if winner is None:
                bot.draws += 1
            elif winner == side:
                bot.wins += 1
            else:
                bot.losses += 1
        pair, a_first = self._pair(entries[0], entries[1])
        pair.games += 1
        if winner is None:
            pair.draws += 1
        elif winner == (0 if a_first else 1):
            pair.wins += 1
        else:
            pair.losses += 1
        for side, delta in hand_deltas:
            bot, other = sides[side], sides[1 - side]
            for key, value in delta.items():
                setattr(bot, key, getattr(bot, key) + value)
            other.sets_inflicted += delta.get("sets_suffered", 0)
        for side, kind in faults:
            sides[side].faults[kind] += 1
        for side, count, mean_ms, max_ms in timing:
            bot = sides[side]
            bot.decisions += count
            bot.decision_ms_total += mean_ms * count
            bot.decision_ms_max = max(bot.decision_ms_max, max_ms)

        seed = rec.get("seed")
        if isinstance(seed, int):
            points0 = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            self._twin(_Leg(entries[0], entries[1], points0, score[0] - score[1]), seed)

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
        margin_a = first.margin0 - leg.margin0
        bot_a, bot_b = self._bot(a), self._bot(b)
        pair, a_first = self._pair(a, b)
        pair.twin_pairs += 1
        if points_a == 1.0:
            bot_a.twin_split += 1
            bot_b.twin_split += 1
            pair.twin_split += 1
        else:
            winner, loser = (bot_a, bot_b) if points_a > 1.0 else (bot_b, bot_a)
            winner.twin_won += 1
            loser.twin_lost += 1
            # The pair's "A" is its first-named bot, which is ``a`` when ``a_first``.
            if (points_a > 1.0) == a_first:
                pair.twin_a += 1
            else:
                pair.twin_b += 1
        bot_a.twin_margin += margin_a
        bot_b.twin_margin -= margin_a
        pair.twin_margin_a += margin_a if a_first else -margin_a

    # ------------------------------------------------------------ queries

    def leader(self) -> tuple[str, BotStats] | None:
        """The bot with the best win % so far (for progress lines), or None."""
        played = [b for b in self.bots.values() if b.matches]
        if not played:
            return None
        best = max(played, key=lambda b: (b.score / b.matches, b.matches))
        return best.name, best

    def report(self) -> StandingsReport:
        """Ratings, ranks and every table's data."""
        names = list(self.bots)
        index = {n: i for i, n in enumerate(names)}
        results = {}
        for p in self.pairs.values():
            if p.games:
                results[(index[p.a], index[p.b])] = (float(p.games), p.wins + p.draws / 2)
        ratings = fit_elo(len(names), results, prior=self.prior)
        rows: list[dict[str, Any]] = []
        for name in names:
            b = self.bots[name]
            r = ratings[index[name]]
            lo, hi = wilson(b.score, b.matches)
            rows.append({
                "bot": name, "matches": b.matches, "wins": b.wins, "losses": b.losses, "draws": b.draws,
                "win_pct": _pct(b.score, b.matches), "win_ci95": [round(lo * 100, 1), round(hi * 100, 1)],
                "points_for": _ratio(b.points_for, b.matches, 1), "points_against": _ratio(b.points_against,
                                                                                           b.matches, 1),
                "elo": None if r.rating is None else round(r.rating, 1),
                "elo_error95": None if r.error is None else round(r.error, 1),
                "hands": b.hands, "contracts": b.contracts, "contracts_made": b.contracts_made,
                "bids_made_pct": _pct(b.contracts_made, b.contracts),
                "sets_suffered": b.sets_suffered, "sets_inflicted": b.sets_inflicted,
                "nil": {"tried": b.nil_tried, "made": b.nil_made},
                "blind_nil": {"tried": b.blind_tried, "made": b.blind_made},
                "bags": b.bags, "bags_per_hand": _ratio(b.bags, b.hands, 2), "bag_penalties": b.bag_penalties,
                "faults": {k.value: b.faults[k.value] for k in FaultKind if b.faults[k.value]}
                | {k: v for k, v in sorted(b.faults.items()) if k not in {f.value for f in FaultKind}},
                "decisions": b.decisions,
                "decision_ms_mean": _ratio(b.decision_ms_total, b.decisions, 2),
                "decision_ms_max": round(b.decision_ms_max, 2) if b.decisions else None,
                "twin_pairs": {"won": b.twin_won, "lost": b.twin_lost, "split": b.twin_split,
                               "margin_per_pair": _ratio(b.twin_margin, b.twin_pairs, 1)},
            })
        order = {n: i for i, n in enumerate(names)}

        def rank_key(row: dict[str, Any]) -> tuple[Any, ...]:
            elo = row["elo"] if row["elo"] is not None else float("-inf")
            win = row["win_pct"] if row["win_pct"] is not None else -1.0
            return (-elo, -win, order[row["bot"]])

        rows.sort(key=rank_key)
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
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
                first, second, a_won, b_won, margin = p.a, p.b, p.twin_a, p.twin_b, p.twin_margin_a
            else:
                first, second, a_won, b_won, margin = p.b, p.a, p.twin_b, p.twin_a, -p.twin_margin_a
            twins.append({"a": first, "b": second, "pairs": p.twin_pairs, "a_won": a_won, "b_won": b_won,
                          "split": p.twin_split, "a_margin_per_pair": _ratio(margin, p.twin_pairs, 1)})
        return StandingsReport(self.title, self.matches, self.expected, rows, cross, twins, list(self.warnings))


def _hand_deltas(variant: Variant, rules: Rules, nseats: int,
                 hands: Iterable[Mapping[str, Any]]) -> list[tuple[int, dict[str, int]]]:
    """Per side and hand, the counters a hand adds (re-scored with the match's rules)."""
    out: list[tuple[int, dict[str, int]]] = []
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
        for side, sc in enumerate(scored.sides):
            delta = {"hands": 1, "bags": sc.bags_gained, "bag_penalties": sc.penalties}
            if sc.made is not None:
                delta["contracts"] = 1
                delta["contracts_made" if sc.made else "sets_suffered"] = 1
            for seat in side_seats(variant, side):
                if bids[seat] == 0:
                    kind = "blind" if blind[seat] else "nil"
                    delta[f"{kind}_tried"] = delta.get(f"{kind}_tried", 0) + 1
                    if tricks[seat] == 0:
                        delta[f"{kind}_made"] = delta.get(f"{kind}_made", 0) + 1
            out.append((side, delta))
    return out


def _entry(bots: Sequence[str], variant: Variant, side: int) -> str:
    names: list[str] = []
    for seat in side_seats(variant, side):
        if bots[seat] not in names:
            names.append(str(bots[seat]))
    return "/".join(names)


def _pct(num: float, den: int) -> float | None:
    return round(100.0 * num / den, 1) if den else None


def _ratio(num: float, den: int, digits: int) -> float | None:
    return round(num / den, digits) if den else None


# ---------------------------------------------------------------- rendering

_NOTES = (
    "Win %: (wins + draws/2) / matches, 95% Wilson interval. "
    "Elo: maximum-likelihood fit to all results, mean 0, ±95% from the Fisher information "
    "(one virtual draw per pairing as prior).",
    "Bids made: side contracts (sum of non-nil bids) made / played; a set is a contract not made. "
    "Nil and blind nil: made/tried. Bags/hand: overtricks plus failed-nil tricks. ms: decision time.",
)
_TWIN_NOTE = ("Twin pairs: two matches on the same deals with seats swapped; a pair is won by scoring more than "
              "one of its two matches, a split is one win each. Margin: own score minus opponent's, both matches.")


def _show(value: Any, fmt: str = "{}", none: str = "-") -> str:
    return none if value is None else fmt.format(value)


def _wld(w: int, l: int, d: int) -> str:
    return f"{w}-{l}-{d}"


def _main_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    twins = bool(report.twins)
    head = ["#", "Bot", "Matches", "W-L-D", "Win %", "95% CI", "For", "Against", "Elo", "±95%"]
    if twins:
        head.append("Twins W-L-S")
    rows = []
    for r in report.bots:
        ci = f"{r['win_ci95'][0]:.1f}-{r['win_ci95'][1]:.1f}" if r["matches"] else "-"
        row = [str(r["rank"]), r["bot"], str(r["matches"]), _wld(r["wins"], r["losses"], r["draws"]),
               _show(r["win_pct"], "{:.1f}"), ci, _show(r["points_for"], "{:.1f}"),
               _show(r["points_against"], "{:.1f}"), _show(r["elo"], "{:+.0f}"), _show(r["elo_error95"], "{:.0f}")]
        if twins:
            t = r["twin_pairs"]
            row.append(_wld(t["won"], t["lost"], t["split"]))
        rows.append(row)
    return head, rows


def _faults_text(faults: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in faults.items()) or "-"


def _spades_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    head = ["Bot", "Hands", "Bids made", "Sets suffered", "Sets inflicted", "Nil", "Blind nil", "Bags/hand",
            "Bag pen.", "Faults", "ms mean", "ms max"]
    rows = []
    for r in report.bots:
        made = f"{r['bids_made_pct']:.1f}% ({r['contracts_made']}/{r['contracts']})" if r["contracts"] else "-"
        rows.append([r["bot"], str(r["hands"]), made, str(r["sets_suffered"]), str(r["sets_inflicted"]),
                     f"{r['nil']['made']}/{r['nil']['tried']}", f"{r['blind_nil']['made']}/{r['blind_nil']['tried']}",
                     _show(r["bags_per_hand"], "{:.2f}"), str(r["bag_penalties"]), _faults_text(r["faults"]),
                     _show(r["decision_ms_mean"], "{:.1f}"), _show(r["decision_ms_max"], "{:.1f}")])
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


def _twin_table(report: StandingsReport) -> tuple[list[str], list[list[str]]]:
    head = ["Bot A", "Bot B", "Pairs", "A won", "B won", "Split", "A margin/pair"]
    rows = [[t["a"], t["b"], str(t["pairs"]), str(t["a_won"]), str(t["b_won"]), str(t["split"]),
             _show(t["a_margin_per_pair"], "{:+.1f}")] for t in report.twins]
    return head, rows


def _heading(report: StandingsReport) -> str:
    played = f"{report.matches} of {report.expected}" if report.expected is not None else str(report.matches)
    return f"{report.title}: {played} matches"


def render(report: StandingsReport, fmt: str = "table") -> str:
    """The standings as text: ``table`` (terminal), ``markdown``, ``csv`` or ``json``."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return _render_csv(report)
    if fmt not in ("table", "markdown"):
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    tablefmt = "github" if fmt == "markdown" else "simple"
    sections = [("Standings", _main_table(report)), ("Spades statistics", _spades_table(report)),
                ("Head to head (row vs column)", _cross_table(report))]
    if report.twins:
        sections.append(("Twin pairs (same deals, seats swapped)", _twin_table(report)))
    out = [f"# {_heading(report)}" if fmt == "markdown" else _heading(report), ""]
    for title, (head, rows) in sections:
        out.append(f"## {title}" if fmt == "markdown" else title)
        if fmt == "markdown":
            out.append("")
        out.append(tabulate(rows, headers=head, tablefmt=tablefmt, disable_numparse=True,
                            colalign=("left",) * len(head)))
        out.append("")
    notes = list(_NOTES) + ([_TWIN_NOTE] if report.twins else [])
    out.extend(("- " + n) if fmt == "markdown" else n for n in notes)
    for section in report.sections:
        out.extend(["", f"## {section.title}" if fmt == "markdown" else section.title, ""])
        if section.headers:
            out.extend([tabulate(section.rows, headers=list(section.headers), tablefmt=tablefmt,
                                 disable_numparse=True, colalign=("left",) * len(section.headers)), ""])
        if section.lines:
            out.extend(["```", *section.lines, "```"] if fmt == "markdown" else section.lines)
    return "\n".join(out) + "\n"


def _render_csv(report: StandingsReport) -> str:
    """One row per bot with every per-bot figure (the crosstable is in json)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    kinds = [k.value for k in FaultKind]
    writer.writerow(["rank", "bot", "matches", "wins", "losses", "draws", "win_pct", "win_ci95_low",
                     "win_ci95_high", "points_for", "points_against", "elo", "elo_error95", "hands", "contracts",
                     "contracts_made", "bids_made_pct", "sets_suffered", "sets_inflicted", "nil_tried", "nil_made",
                     "blind_nil_tried", "blind_nil_made", "bags", "bags_per_hand", "bag_penalties"]
                    + [f"faults_{k}" for k in kinds]
                    + ["decisions", "decision_ms_mean", "decision_ms_max", "twin_won", "twin_lost", "twin_split",
                       "twin_margin_per_pair"])
    for r in report.bots:
        t = r["twin_pairs"]
        writer.writerow([r["rank"], r["bot"], r["matches"], r["wins"], r["losses"], r["draws"],
                         _blank(r["win_pct"]), r["win_ci95"][0], r["win_ci95"][1], _blank(r["points_for"]),
                         _blank(r["points_against"]), _blank(r["elo"]), _blank(r["elo_error95"]), r["hands"],
                         r["contracts"], r["contracts_made"], _blank(r["bids_made_pct"]), r["sets_suffered"],
                         r["sets_inflicted"], r["nil"]["tried"], r["nil"]["made"], r["blind_nil"]["tried"],
                         r["blind_nil"]["made"], r["bags"], _blank(r["bags_per_hand"]), r["bag_penalties"]]
                        + [r["faults"].get(k, 0) for k in kinds]
                        + [r["decisions"], _blank(r["decision_ms_mean"]), _blank(r["decision_ms_max"]), t["won"],
                           t["lost"], t["split"], _blank(t["margin_per_pair"])])
    return buf.getvalue()


def _blank(value: Any) -> Any:
    return "" if value is None else value
