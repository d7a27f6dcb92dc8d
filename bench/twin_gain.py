#!/usr/bin/env python3
"""Where the strong bot's points come from, card for card: a duplicate comparison.

In a duplicate tournament every deal is played twice, the seats swapped: the cards a
side of the strong bot held in one twin match, the opponent held in the other. For every
hand number that both twins reached (the same cards, see ``referee.game.deals``), this
script compares the points each holder of those cards scored, side by side, and sorts
the side-hands by what became of the two contracts (made, set, a Nil made or failed).
Under ``blind_nil_behind`` it also counts, per bot, the hands its side was allowed a
Blind Nil (trailing by enough), bid one, and made it: a bot that leads more is allowed
fewer.
The sum over a category says where the strong bot gains or loses against the opponent
*on the same cards*; a per-hand net (``bench/strength.py``'s ``pts/hand``) mixes the
cards in.

    python3 bench/twin_gain.py results/strength/partnership-heuristic-blind_nil-False-seed6161

Reads ``matches.jsonl`` of each results folder (a strength row, or any duplicate
gauntlet where one bot is named ``--bot``, default ``strong``). Partnership only: a
two-player side is one seat, and the draw builds the hands from the seed and the
players' choices, so the same hand number does not hold the same cards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator


@dataclass(frozen=True)
class SideHand:
    """What one side did with its cards in one hand."""

    bid: int  # the side's contract: the sum of its non-nil bids
    took: int  # tricks toward it (a nil bidder's tricks do not count)
    nils: tuple[bool, ...]  # one per nil bid: made?
    points: int
    tricks: int  # all the side's tricks

    @property
    def outcome(self) -> str:
        nil = ""
        if self.nils:
            nil = "nil made, " if all(self.nils) else "nil failed, "
        return nil + ("made" if self.took >= self.bid else "set")


def side_hand(hand: dict[str, Any], side: int) -> SideHand:
    seats = (side, side + 2)
    bids = [hand["bids"][s] for s in seats]
    tricks = [hand["tricks"][s] for s in seats]
    return SideHand(bid=sum(b for b in bids if b), took=sum(t for b, t in zip(bids, tricks) if b),
                    nils=tuple(t == 0 for b, t in zip(bids, tricks) if b == 0),
                    points=hand["points"][side], tricks=sum(tricks))


def twin_side_hands(records: list[dict[str, Any]], bot: str) -> Iterator[tuple[SideHand, SideHand]]:
    """(the bot's side-hand, the opponent's on the same cards) for every shared hand."""
    twins: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        name = str(r.get("match", ""))
        if r.get("variant") == "partnership" and name[-1:] in ("a", "b"):
            twins[name[:-1]][name[-1]] = r
    for pair in twins.values():
        if len(pair) != 2:
            continue
        a, b = pair["a"], pair["b"]
        hands_a = {h["hand"]: h for h in a.get("hands", [])}
        hands_b = {h["hand"]: h for h in b.get("hands", [])}
        for number in sorted(hands_a.keys() & hands_b.keys()):
            for side in (0, 1):
                mine_in_a = a["bots"][side] == bot
                if mine_in_a == (b["bots"][side] == bot):
                    continue  # not a swapped pair for this side
                ours, theirs = (hands_a, hands_b) if mine_in_a else (hands_b, hands_a)
                yield side_hand(ours[number], side), side_hand(theirs[number], side)


@dataclass
class BlindNilChances:
    """One bot's Blind Nils where the rules allow them only to a side trailing by enough."""

    eligible: int = 0  # side-hands that started trailing by at least blind_nil_behind
    bid: int = 0  # of those, side-hands with a Blind Nil
    made: int = 0


def blind_nil_chances(records: list[dict[str, Any]]) -> dict[str, BlindNilChances]:
    """Per bot: how often its side could bid Blind Nil (``blind_nil_behind``), did, and
    made it. Empty when no record has the rule. The partner of a bot is the same bot in
    these gauntlets, so a side is named by its first seat."""
    out: dict[str, BlindNilChances] = defaultdict(BlindNilChances)
    for r in records:
        rules = r.get("rules") or {}
        behind = rules.get("blind_nil_behind")
        if r.get("variant") != "partnership" or not isinstance(behind, int) or not rules.get("blind_nil", True):
            continue
        score = [0, 0]
        for hand in r.get("hands", []):
            for side in (0, 1):
                if score[1 - side] - score[side] >= behind:
                    c = out[str(r["bots"][side])]
                    c.eligible += 1
                    seats = [s for s in (side, side + 2) if hand["blind"][s] and hand["bids"][s] == 0]
                    if seats:
                        c.bid += 1
                        c.made += all(hand["tricks"][s] == 0 for s in seats)
            score = list(hand["score"])
    return dict(out)


def blind_nil_report(chances: dict[str, BlindNilChances]) -> str:
    lines = [f"{'Blind Nil when allowed (trailing)':<40} {'chances':>10} {'bid':>10} {'made':>8}"]
    for bot, c in sorted(chances.items()):
        made = f"{c.made} ({100 * c.made / c.bid:.0f}%)" if c.bid else "-"
        lines.append(f"{bot:<40} {c.eligible:>10} {c.bid:>10} {made:>8}")
    return "\n".join(lines)


def read_records(folder: Path) -> list[dict[str, Any]]:
    path = folder / "matches.jsonl"
    if not path.is_file():
        raise SystemExit(f"error: no matches.jsonl in {str(folder)!r} (is it a results folder?)")
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise SystemExit(f"error: {path}:{number} is not JSON ({err.msg}), got: {line[:60]!r}") from None
    return out


def report(pairs: list[tuple[SideHand, SideHand]], bot: str) -> str:
    if not pairs:
        return "no twin hands to compare (a duplicate partnership gauntlet is needed)"
    gain = [m.points - o.points for m, o in pairs]
    plain = [(m, o) for m, o in pairs if not m.nils and not o.nils]
    lines = [
        f"side-hands on the same cards: {len(pairs)}; {bot} scores {statistics.mean(gain):+.1f} points per "
        f"side-hand more than the opponent did with them",
        f"tricks taken: {statistics.mean(m.tricks - o.tricks for m, o in pairs):+.2f} per side-hand; "
        f"contract bid (no Nil on either side): "
        f"{statistics.mean(m.bid - o.bid for m, o in plain) if plain else 0:+.2f} tricks",
        "",
        f"{bot + ' / opponent':<40} {'side-hands':>10} {'mean gain':>10} {'total':>8}",
    ]
    groups: dict[str, list[int]] = defaultdict(list)
    for (m, o), g in zip(pairs, gain):
        groups[f"{m.outcome} / {o.outcome}"].append(g)
    for name, values in sorted(groups.items(), key=lambda kv: -abs(sum(kv[1]))):
        lines.append(f"{name:<40} {len(values):>10} {statistics.mean(values):>+10.1f} {sum(values):>+8d}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="results folders of duplicate partnership runs")
    parser.add_argument("--bot", default="strong", help="the bot whose gain is reported (default strong)")
    args = parser.parse_args(argv)
    for folder in args.folders:
        records = read_records(folder)
        pairs = list(twin_side_hands(records, args.bot))
        print(f"== {folder}")
        print(report(pairs, args.bot))
        chances = blind_nil_chances(records)
        if chances:
            print()
            print(blind_nil_report(chances))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
