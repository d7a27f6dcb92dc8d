"""``spades deal``: the cards of a recorded match, for the operator.

A tournament's deals come from each match's seed and the results folder's
secret, so no bot can compute them; the operator, who holds the folder, can.
The record is read through the same checks as the standings: a forged or
changed record is refused, never dealt.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from referee.cli.pathtype import UserPath
from referee.game.cards import CARD_NAMES, mask_of, names_of
from referee.game.deals import Deal
from referee.game.rules import Variant
from referee.tournament.integrity import record_deal_source
from referee.tournament.results import ResultsError, ResultsFolder

__all__ = ["deal_command", "hand_cards"]


class _InputError(click.ClickException):
    exit_code = 2


def hand_cards(deal: Deal, variant: Variant, dealer: int) -> dict[str, Any]:
    """What one deal gives: each seat's 13 cards (partnership), or the stock, top first (two-player)."""
    if variant is Variant.TWO_PLAYER:
        return {"stock": [CARD_NAMES[c] for c in deal.cards]}
    # Card i goes to seat dealer+1+i (mod 4), as the engine deals.
    seats = [names_of(mask_of(deal.cards[(s - dealer - 1) % 4::4])) for s in range(4)]
    return {"seats": seats}


@click.command("deal")
@click.argument("results_dir", metavar="RESULTS_DIR", type=UserPath(path_type=Path))
@click.argument("match_id", metavar="MATCH_ID")
@click.option("--json", "as_json", is_flag=True, help="Print the deals as JSON.")
def deal_command(results_dir: Path, match_id: str, as_json: bool) -> None:
    """Print the cards of every hand of a recorded match (operator only: it reads the folder's secret).

    \b
    Example:
      spades deal results/demo 001-random-heuristic-1a
    """
    folder = ResultsFolder(results_dir)
    if not folder.matches_path.is_file():
        raise _InputError(f"no matches.jsonl in {os.fspath(results_dir)}: give the folder `spades run` or "
                          "`spades match --output` wrote")
    warnings: list[str] = []
    record = next((r for r in folder.iter_records(warn=warnings.append) if r["match"] == match_id), None)
    if record is None:
        refused = [w for w in warnings if "refused" in w]
        raise _InputError(f"no good record of match {match_id!r} in {folder.matches_path}"
                          + ("".join(f"\n  {w}" for w in refused) if refused else ""))
    try:
        variant = Variant(record.get("variant"))
        source = record_deal_source(record, folder.secret())
    except (ValueError, ResultsError) as exc:
        raise _InputError(f"cannot recover the deals of match {match_id!r}: {exc}") from None
    hands = record.get("hands") or []
    # The hand a forfeit cut short was dealt too.
    count = max(1, len(hands) + (record.get("reason") == "forfeit"))
    key = "first" if variant is Variant.TWO_PLAYER else "dealer"
    out = []
    for number in range(1, count + 1):
        dealer = (number - 1) % variant.seats
        out.append({"hand": number, key: dealer, **hand_cards(source(number), variant, dealer)})
    if as_json:
        click.echo(json.dumps({"match": match_id, "variant": variant.value, "seed": record["seed"],
                               "deals": record.get("deals", "seed"), "hands": out}))
        return
    bots = record.get("bots") or []
    click.echo(f"Match {match_id}: {variant.value}, seed {record['seed']}, deals from "
               + ("the seed and the folder's secret" if record.get("deals") == "secret" else "the seed"))
    for hand in out:
        click.echo(f"Hand {hand['hand']} ({key} {hand[key]}):")
        if "seats" in hand:
            for s, cards in enumerate(hand["seats"]):
                name = f" ({bots[s]})" if s < len(bots) else ""
                click.echo(f"  seat {s}{name}: {' '.join(cards)}")
        else:
            click.echo(f"  stock, top first: {' '.join(hand['stock'])}")
