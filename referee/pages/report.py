"""The tournament report: one self-contained HTML page for a results folder.

The standings tables are the very cells ``spades standings`` prints
(:func:`referee.tournament.standings.tables`), so a new column shows up here
too; the page's script only sorts them. Ratings, the head-to-head grid, the
score margins per pairing and the faults are drawn here as inline SVG and
HTML from the same report and the match records.
"""

from __future__ import annotations

import collections
import dataclasses
import html
import statistics
from pathlib import Path
from typing import Callable, Sequence

from referee.game.scoring import side_seats
from referee.match import MatchRecord
from referee.pages.assets import page
from referee.pages.replay import ReplayError
from referee.pages.replay_page import replay_html
from referee.pages.source import MatchSource, load_replay, records, replay_file_name
from referee.tournament.results import ResultsFolder, standings_from_folder, write_atomic
from referee.tournament.ratings import Kind
from referee.tournament.standings import StandingsReport, elo_text, notes, tables

__all__ = ["REPORT_NAME", "REPLAYS_DIR", "ReportOutcome", "write_report", "report_html"]

REPORT_NAME = "report.html"
REPLAYS_DIR = "replays"
_e = html.escape


@dataclasses.dataclass
class ReportOutcome:
    """What :func:`write_report` wrote."""

    path: Path
    replays: int = 0
    failed: list[str] = dataclasses.field(default_factory=list)  # "match: reason" of replays not written


def _entry(rec: MatchRecord, side: int) -> str:
    """The name of a side's entry (a side of two programs is ``a/b``, as in the standings)."""
    names: list[str] = []
    for seat in side_seats(rec.variant, side):
        if rec.bots[seat] not in names:
            names.append(rec.bots[seat])
    return "/".join(names)


def _table_html(title: str, head: Sequence[str], rows: Sequence[Sequence[str]], key: str) -> str:
    ths = "".join(f'<th scope="col" data-col="{i}" tabindex="0" aria-sort="none">{_e(h)}</th>'
                  for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<section class="panel wide"><h2>{_e(title)}</h2><div class="scroll"><table class="data sortable" '
            f'id="{key}"><thead><tr>{ths}</tr></thead><tbody>{body}</tbody></table></div></section>')


def _chart(W: int, H: int, L: int, R: int, lo: float, hi: float, label: str, tick: str = "{:+d}",
           ref: float = 0) -> tuple[Callable[[float], float], list[str]]:
    """An SVG chart's opening with a horizontal value axis from ``lo`` to ``hi``
    (grid lines, ticks, a dashed line at ``ref``): the x mapping and the parts so far."""

    def x(v: float) -> float:
        return L + (W - L - R) * (v - lo) / (hi - lo)

    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="{_e(label)}">']
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 10 ** 9) if (hi - lo) / s <= 8)
    v = (int(lo) // step) * step
    while v <= hi:
        if v >= lo:
            out.append(f'<line class="grid" x1="{x(v):.1f}" x2="{x(v):.1f}" y1="8" y2="{H - 20}"/>'
                       f'<text class="tick" x="{x(v):.1f}" y="{H - 6}" text-anchor="middle">{tick.format(v)}</text>')
        v += step
    out.append(f'<line class="axis" x1="{x(ref):.1f}" x2="{x(ref):.1f}" y1="8" y2="{H - 20}"/>')
    return x, out


def _intervals_svg(items: Sequence[tuple[str, float, float, float, str]], lo: float, hi: float, label: str,
                   tick: str = "{:+d}", ref: float = 0) -> str:
    """One row per ``(name, value, low, high, text)``: the value as a dot, the interval as a bar."""
    W, L, R, row_h = 760, 170, 110, 30
    H = 30 + row_h * len(items)
    x, out = _chart(W, H, L, R, lo, hi, label, tick, ref)
    for i, (name, value, low, high, text) in enumerate(items):
        y = 25 + i * row_h
        out.append(f'<text x="{L - 10}" y="{y + 5}" text-anchor="end">{_e(name)}</text>'
                   f'<line class="ci" x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y}" y2="{y}"/>'
                   f'<line class="ci" x1="{x(low):.1f}" x2="{x(low):.1f}" y1="{y - 6}" y2="{y + 6}"/>'
                   f'<line class="ci" x1="{x(high):.1f}" x2="{x(high):.1f}" y1="{y - 6}" y2="{y + 6}"/>'
                   f'<circle class="pt" cx="{x(value):.1f}" cy="{y}" r="5"><title>{_e(name)}: {_e(text)}</title>'
                   f'</circle><text class="tick" x="{x(high) + 6:.1f}" y="{y + 4}">{_e(text)}</text>')
    out.append("</svg>")
    return "".join(out)


def _ratings_svg(report: StandingsReport) -> str:
    """Elo with its 95% interval (a one-sided bound drawn open to the edge), and win % with
    its 95% interval, per bot in rank order."""
    rows = [r for r in report.bots if r["elo"]["kind"] != Kind.NONE.value]
    if not rows:
        return '<p class="muted">No ratings yet: no match is finished.</p>'
    ends = [x for r in rows for x in (r["elo"]["low"], r["elo"]["high"], r["elo"]["value"]) if x is not None]
    lo, hi = min(min(ends, default=0.0) - 50.0, -50.0), max(max(ends, default=0.0) + 50.0, 50.0)
    elo = []
    for r in rows:
        est = r["elo"]
        low = est["low"] if est["low"] is not None else lo
        high = est["high"] if est["high"] is not None else hi
        # A bound has no value: its point sits on the bound, its bar runs open to the chart's edge.
        value = est["value"] if est["value"] is not None else (low if est["kind"] == Kind.LOWER_BOUND.value else high)
        text = elo_text(est) + ("" if est["kind"] != Kind.ESTIMATE.value or est["low"] is None or est["high"] is None
                                else f' [{est["low"]:+.0f}, {est["high"]:+.0f}]')
        elo.append((f'{r["rank"]}. {r["bot"]}', value, low, high, text))
    win = [(f'{r["rank"]}. {r["bot"]}', r["win_pct"], r["win_ci95"][0], r["win_ci95"][1],
            f'{r["win_pct"]:.1f}% ({r["win_ci95"][0]:.0f}-{r["win_ci95"][1]:.0f})') for r in rows
           if r["win_pct"] is not None and r["win_ci95"]]
    return (f'<h3>Elo, 95% interval</h3>{_intervals_svg(elo, lo, hi, "Elo ratings with 95% intervals")}'
            f'<h3>Win %, 95% interval</h3>{_intervals_svg(win, 0, 100, "win percentages", "{:d}%", 50)}')


def _grid_html(report: StandingsReport) -> str:
    names = [r["bot"] for r in report.bots]
    head = "".join(f'<th scope="col">{_e(n)}</th>' for n in names)
    body = []
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append('<td class="self">&times;</td>')
                continue
            wld = report.crosstable.get(a, {}).get(b)
            if not wld or not sum(wld):
                cells.append('<td class="none">&ndash;</td>')
                continue
            w, l, d = wld
            share = (w + d / 2) / (w + l + d)
            # Green for a winning record, red for a losing one; the number says it without colour.
            hue = 120 * share
            cells.append(f'<td class="h2h" style="background:hsl({hue:.0f},62%,{88 - 10 * abs(share - .5):.0f}%)" '
                         f'title="{_e(a)} vs {_e(b)}: {w} won, {l} lost, {d} drawn"><b>{w}-{l}-{d}</b>'
                         f'<span class="pct">{100 * share:.0f}%</span></td>')
        body.append(f'<tr><th scope="row">{_e(a)}</th>{"".join(cells)}</tr>')
    return (f'<div class="scroll"><table class="grid2" id="head-to-head"><thead><tr><th>row vs column</th>{head}'
            f'</tr></thead><tbody>{"".join(body)}</tbody></table></div><p class="muted">W-L-D of the row bot and its '
            'share of the points; green: the row bot leads the pairing, red: it trails.</p>')


def _margins_svg(recs: Sequence[MatchRecord]) -> str:
    # Per pairing (in name order), each match as (margin of the first bot, 1 won / 0 draw / -1 lost):
    # a forfeit can be lost while ahead on points.
    by_pair: dict[tuple[str, str], list[tuple[int, int]]] = collections.defaultdict(list)
    for rec in recs:
        a, b = _entry(rec, 0), _entry(rec, 1)
        first = 1 if b < a else 0
        if first:
            a, b = b, a
        margin = rec.score[first] - rec.score[1 - first]
        won = 0 if rec.winner is None else (1 if rec.winner == first else -1)
        by_pair[(a, b)].append((margin, won))
    if not by_pair:
        return '<p class="muted">No match is finished.</p>'
    pairs = sorted(by_pair.items())
    allm = [m for _, ms in pairs for m, _ in ms]
    lo, hi = min(min(allm), -100), max(max(allm), 100)
    W, L, R, row_h = 720, 230, 20, 34
    H = 36 + row_h * len(pairs)
    x, out = _chart(W, H, L, R, lo, hi, "score margin per pairing")
    for i, ((a, b), results) in enumerate(pairs):
        y = 24 + i * row_h
        ms = [m for m, _ in results]
        med = statistics.median(ms)
        out.append(f'<text x="{L - 10}" y="{y + 4}" text-anchor="end">{_e(a)} vs {_e(b)}</text>'
                   f'<line class="range" x1="{x(min(ms)):.1f}" x2="{x(max(ms)):.1f}" y1="{y}" y2="{y}"/>')
        for k, (m, won) in enumerate(sorted(results)):
            jitter = ((k % 3) - 1) * 4
            cls = {1: "win", -1: "loss", 0: "draw"}[won]
            out.append(f'<circle class="dot {cls}" cx="{x(m):.1f}" cy="{y + jitter}" r="4"><title>{_e(a)} '
                       f'{m:+d} vs {_e(b)}</title></circle>')
        out.append(f'<line class="median" x1="{x(med):.1f}" x2="{x(med):.1f}" y1="{y - 10}" y2="{y + 10}">'
                   f'<title>median {med:+.0f}</title></line>')
    out.append("</svg>")
    return "".join(out) + ('<p class="muted">Each dot is one match: the first bot\'s score minus the second\'s '
                           '(filled: the first bot won; hollow: it lost). The bar is the median.</p>')


def _faults_html(recs: Sequence[MatchRecord], link: Callable[[MatchRecord], str | None]) -> str:
    per_bot: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    items = []
    for rec in recs:
        for f in rec.faults:
            name = rec.bots[f.seat] if 0 <= f.seat < len(rec.bots) else f"seat {f.seat}"
            per_bot[name][f.kind.value] += 1
            href = link(rec)
            where = f"hand {f.hand}"
            target = (f'<a href="{_e(href)}#hand={f.hand}">{_e(rec.match)}, {where}</a>' if href
                      else f"{_e(rec.match)}, {where}")
            items.append(f'<li>{target}: <b>{_e(name)}</b> (seat {f.seat}) {_e(f.kind.summary)}: '
                         f'<span class="detail">{_e(f.detail[:300])}</span></li>')
    if not items:
        return '<p class="muted">No faults: every bot answered every request on time and legally.</p>'
    kinds = sorted({k for c in per_bot.values() for k in c})
    head = "".join(f"<th>{_e(k)}</th>" for k in kinds)
    rows = "".join(f"<tr><td>{_e(b)}</td>" + "".join(f"<td>{c[k] or ''}</td>" for k in kinds)
                   + f"<td><b>{sum(c.values())}</b></td></tr>" for b, c in sorted(per_bot.items()))
    shown = items[:200]
    more = f'<p class="muted">and {len(items) - 200} more.</p>' if len(items) > 200 else ""
    return (f'<table class="data" id="faults-per-bot"><thead><tr><th>Bot</th>{head}<th>All</th></tr></thead>'
            f'<tbody>{rows}</tbody></table><ol class="fault-list">{"".join(shown)}</ol>{more}')


def _matches_html(recs: Sequence[MatchRecord], link: Callable[[MatchRecord], str | None], folder: Path) -> str:
    rows = []
    for rec in recs:
        href = link(rec)
        name = (f'<a href="{_e(href)}" class="replay-link">{_e(rec.match)}</a>' if href else _e(rec.match))
        win = "draw" if rec.winner is None else _entry(rec, rec.winner)
        rows.append(f"<tr><td>{name}</td><td>{_e(_entry(rec, 0))}</td><td>{_e(_entry(rec, 1))}</td>"
                    f"<td>{rec.score[0]}</td><td>{rec.score[1]}</td><td>{_e(win)}</td><td>{_e(rec.reason.value)}</td>"
                    f"<td>{len(rec.hands)}</td><td>{len(rec.faults) or ''}</td></tr>")
    hint = ("" if all(link(r) for r in recs) else
            f'<p class="muted">Replay pages are written on demand: <code>spades report {_e(str(folder))} --replays'
            '</code> writes every one; <code>spades replay RESULTS MATCH</code> one.</p>')
    return ('<div class="scroll"><table class="data sortable" id="matches"><thead><tr>'
            + "".join(f'<th data-col="{i}" tabindex="0">{h}</th>' for i, h in enumerate(
                ["Match", "Side 0", "Side 1", "Score 0", "Score 1", "Winner", "Ended by", "Hands", "Faults"]))
            + f'</tr></thead><tbody>{"".join(rows)}</tbody></table></div>{hint}')


def report_html(folder: ResultsFolder, report: StandingsReport, recs: Sequence[MatchRecord],
                link: Callable[[MatchRecord], str | None]) -> str:
    """The whole report page."""
    played = f"{report.matches} of {report.expected}" if report.expected is not None else str(report.matches)
    sections = [_table_html(title, head, rows, f"table-{i}") for i, (title, (head, rows)) in
                enumerate(tables(report))]
    note_html = "".join(f"<li>{_e(n)}</li>" for n in notes(report))
    body = f"""<header class="top"><div><h1>{_e(report.title)}</h1>
<p class="result">{played} matches · results in <code>{_e(folder.path.name)}</code></p></div></header>
<main class="report">
<section class="panel wide"><h2>Ratings with their 95% intervals</h2>{_ratings_svg(report)}</section>
{sections[0]}
<section class="panel wide"><h2>Head to head</h2>{_grid_html(report)}</section>
{"".join(sections[1:])}
<section class="panel wide"><h2>Score margin per pairing</h2>{_margins_svg(recs)}</section>
<section class="panel wide"><h2>Faults per bot</h2>{_faults_html(recs, link)}</section>
<section class="panel wide"><h2>Matches</h2>{_matches_html(recs, link, folder.path)}</section>
<section class="panel wide notes"><h2>How the columns are computed</h2><ul>{note_html}</ul></section>
</main>
<footer class="foot">spades-referee tournament report · click a column heading to sort</footer>"""
    return page(f"Report: {report.title}", body, styles=["common.css", "report.css"], scripts=["report.js"])


def write_report(folder: ResultsFolder, *, replays: bool = False, warn: Callable[[str], None] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> ReportOutcome:
    """Write ``<results>/report.html`` (and, with ``replays``, ``<results>/replays/<match>.html``)."""
    report = standings_from_folder(folder, warn=warn)
    recs = list(records(folder))
    out_dir = folder.path / REPLAYS_DIR
    outcome = ReportOutcome(folder.path / REPORT_NAME)
    if replays:
        out_dir.mkdir(parents=True, exist_ok=True)
        for i, rec in enumerate(recs, 1):
            try:
                text = replay_html(load_replay(MatchSource(folder, rec)), back_link=f"../{REPORT_NAME}")
            except ReplayError as exc:
                outcome.failed.append(f"{rec.match}: {exc}")
            else:
                write_atomic(out_dir / replay_file_name(rec.match), text)
                outcome.replays += 1
            if progress is not None:
                progress(i, len(recs))

    def link(rec: MatchRecord) -> str | None:
        name = replay_file_name(rec.match)
        return f"{REPLAYS_DIR}/{name}" if (out_dir / name).exists() else None

    write_atomic(outcome.path, report_html(folder, report, recs, link))
    return outcome
