"""Replaying one hand: ``spades match --start-hand K`` (with that moment's scores and bags) and ``--deal FILE``.

A bot author whose bot went wrong in hand 7 of seed 3 replays that hand
alone: ``spades match --seed 3 --start-hand 7 --from-record results/m1/matches.jsonl
--rule max_hands=7 ...`` starts at hand 7 with the scores and bags the
record shows after hand 6, on the same deal (deals come from the seed and
the hand number). ``--start-score``/``--start-bags`` give them by hand, and
``--deal FILE`` replaces the first hand's deal with one of your own.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Callable, Sequence

import click
import yaml

from referee.cli.pathtype import UserPath
from referee.game.cards import CardError, parse_card
from referee.game.deals import Deal, DealSource, deal_from_hands, seeded_deal
from referee.game.rules import Variant
from referee.game.start import MatchStart
from referee.tournament.integrity import record_deal_source
from referee.tournament.results import ResultsError, ResultsFolder

__all__ = ["replay_options", "match_start", "load_deal", "deals_for", "recorded_deals"]


def replay_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The replay options of ``spades match``, in one decorator."""
    options = [
        click.option("--start-hand", type=click.IntRange(min=1), default=None, metavar="K",
                     help="Start at hand K of the seed (its dealer and deal), to replay it."),
        click.option("--start-score", default=None, metavar="A,B",
                     help="Scores of the two sides before the first hand (with --start-hand)."),
        click.option("--start-bags", default=None, metavar="A,B",
                     help="Bags of the two sides before the first hand (with --start-hand)."),
        click.option("--from-record", type=UserPath(dir_okay=False, exists=True, path_type=Path), default=None,
                     metavar="MATCHES.jsonl",
                     help="Take the scores and bags before --start-hand from this match record "
                          "(the match with --match-id, else the last one with this seed)."),
        click.option("--deal", "deal_file", type=UserPath(dir_okay=False, exists=True, path_type=Path),
                     default=None, metavar="FILE", help="Play the first hand on this deal (YAML: hands or cards)."),
    ]
    return functools.reduce(lambda f, option: option(f), reversed(options), command)


def _pair(text: str | None, option: str) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"expected two whole numbers, one per side, like 120,-40; got: {text!r}",
                                 param_hint=option) from None
    return a, b


def _find_record(path: Path, match_id: str | None, seed: int, variant: Variant) -> dict[str, Any]:
    """The record ``--from-record`` names: the match with ``match_id``, else the last one with this seed."""
    chosen = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise click.BadParameter(f"{path}:{number}: not a JSON match record: got {line[:80]!r}",
                                     param_hint="--from-record") from None
        if match_id is not None and record.get("match") == match_id \
                or match_id is None and record.get("seed") == seed and record.get("variant") == variant.value:
            chosen = record
    if chosen is None:
        which = f"match id {match_id!r}" if match_id else f"seed {seed} ({variant.value})"
        raise click.BadParameter(f"no match with {which} in {path}", param_hint="--from-record")
    return chosen


def _from_record(path: Path, match_id: str | None, seed: int, variant: Variant, hand: int) -> tuple[
        tuple[int, int], tuple[int, int]]:
    """Scores and bags after hand ``hand - 1`` of a recorded match."""
    chosen = _find_record(path, match_id, seed, variant)
    if hand == 1:
        return (0, 0), (0, 0)
    hands = {h.get("hand"): h for h in chosen.get("hands", [])}
    before = hands.get(hand - 1)
    if before is None:
        played = ", ".join(str(h) for h in sorted(hands)) or "none"
        raise click.BadParameter(f"match {chosen.get('match')!r} in {path} has no hand {hand - 1} to start after "
                                 f"(hands played: {played})", param_hint="--start-hand")
    return tuple(before["score"]), tuple(before["bags"])


def match_start(start_hand: int | None, start_score: str | None, start_bags: str | None, from_record: Path | None,
                match_id: str | None, seed: int, variant: Variant) -> MatchStart | None:
    """The :class:`MatchStart` the replay options ask for (None: hand 1 at 0-0)."""
    score, bags = _pair(start_score, "--start-score"), _pair(start_bags, "--start-bags")
    if start_hand is None:
        if score or bags or from_record:
            raise click.UsageError("--start-score, --start-bags and --from-record need --start-hand K")
        return None
    if from_record is not None:
        if score or bags:
            raise click.UsageError("give the scores and bags with --from-record or by hand, not both")
        score, bags = _from_record(from_record, match_id, seed, variant, start_hand)
    try:
        return MatchStart(start_hand, score or (0, 0), bags or (0, 0))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--start-bags") from None


def load_deal(path: Path, variant: Variant, hand: int) -> Deal:
    """A deal file: ``hands`` (partnership: seat -> 13 cards) or ``cards`` (52 in dealing order).

    ``cards`` is the order the referee deals: partnership one card at a time
    from the dealer's left, two-player the stock from the top. An optional
    ``salt`` seeds the two-player Blind Nil replacement draw.
    """
    where = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise click.BadParameter(f"{where}: cannot read the deal: {exc}", param_hint="--deal") from None
    if not isinstance(data, dict) or not ({"hands", "cards"} & set(data)):
        raise click.BadParameter(f"{where}: a deal file has 'hands' (partnership) or 'cards' (52 card names), "
                                 f"got: {data!r:.120}", param_hint="--deal")
    salt = data.get("salt", 0)
    if isinstance(salt, bool) or not isinstance(salt, int):
        raise click.BadParameter(f"{where}: salt: must be a whole number, got: {salt!r}", param_hint="--deal")

    def cards(value: Any, key: str) -> list[int]:
        if isinstance(value, str):
            value = value.split()
        if not isinstance(value, list):
            raise click.BadParameter(f"{where}: {key}: must be a list of card names, got: {value!r:.80}",
                                     param_hint="--deal")
        try:
            return [parse_card(str(v).upper()) for v in value]
        except CardError as exc:
            raise click.BadParameter(f"{where}: {key}: {exc}", param_hint="--deal") from None

    try:
        if "cards" in data:
            return Deal(tuple(cards(data["cards"], "cards")), salt)
        if variant is not Variant.PARTNERSHIP:
            raise click.BadParameter(f"{where}: the two-player game has no dealt hands; give the stock as 'cards'",
                                     param_hint="--deal")
        raw = data["hands"]
        seats: Sequence[Any] = [raw.get(s, raw.get(str(s))) for s in range(4)] if isinstance(raw, dict) else raw
        if not isinstance(seats, list) or len(seats) != 4 or any(s is None for s in seats):
            raise click.BadParameter(f"{where}: hands: one list of 13 cards for each seat 0-3, got: {raw!r:.120}",
                                     param_hint="--deal")
        return deal_from_hands([cards(h, f"hands.{i}") for i, h in enumerate(seats)], dealer=(hand - 1) % 4,
                               salt=salt)
    except ValueError as exc:  # not 52 distinct cards, or not 4 hands of 13
        raise click.BadParameter(f"{where}: {exc}", param_hint="--deal") from None


def recorded_deals(path: Path | None, match_id: str | None, seed: int, variant: Variant) -> DealSource | None:
    """The deals of the ``--from-record`` match when they came from its results folder's secret.

    A tournament deals from the seed *and* the folder's secret, so the seed alone
    would replay other cards; the operator's folder holds the secret next to
    ``matches.jsonl``. None: the seed alone deals that match (``spades match``).
    """
    if path is None:
        return None
    record = _find_record(path, match_id, seed, variant)
    if record.get("deals", "seed") == "seed":
        return None
    try:
        return record_deal_source(record, ResultsFolder(path.parent).secret())
    except (ValueError, ResultsError) as exc:
        raise click.BadParameter(f"cannot recover the deals of match {record.get('match')!r}: {exc}",
                                 param_hint="--from-record") from None


def deals_for(seed: int, start: MatchStart | None, deal: Deal | None,
              recorded: DealSource | None = None) -> list[Deal] | None:
    """The match's injected deals: ``deal`` at the first hand played, the seed's before it (never played).

    With ``recorded`` (a tournament match's secret deals) and no ``deal``, every hand
    up to the first one played, and 100 more, comes from it: the same cards as in the
    tournament.
    """
    if deal is None:
        if recorded is None:
            return None
        first = start.hand if start is not None else 1
        return [recorded(h) for h in range(1, first + 100)]
    first = start.hand if start is not None else 1
    return [seeded_deal(seed, h) for h in range(1, first)] + [deal]
