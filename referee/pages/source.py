"""Finding a match: its record in a results folder and its transcript in ``logs/``.

A match is named either by a results folder and a match id, or by the path
of its transcript (``<results>/logs/<match>.jsonl``), whose folder then holds
the record. Records are read through :class:`~referee.match.MatchRecord`, so
fields added to records later flow through untouched.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Iterator

from referee.match import MatchRecord, transcript_name
from referee.pages.replay import Replay, ReplayError, build_replay
from referee.tournament.integrity import record_deal_source
from referee.tournament.results import ResultsError, ResultsFolder

__all__ = ["MatchSource", "locate", "records", "replay_file_name", "load_replay"]


@dataclasses.dataclass(frozen=True)
class MatchSource:
    """Where one match's record and transcript are."""

    folder: ResultsFolder
    record: MatchRecord

    @property
    def transcript(self) -> Path:
        return self.folder.logs / transcript_name(self.record.match)


def replay_file_name(match_id: str) -> str:
    """A file name for a match's replay page (a match id may hold any character)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", match_id) + ".html"


def records(folder: ResultsFolder) -> Iterator[MatchRecord]:
    """The folder's match records, in file order (lines that are not records are skipped)."""
    for data in folder.iter_records():
        try:
            yield MatchRecord.from_dict(data)
        except (KeyError, TypeError, ValueError):
            continue


def locate(target: Path, match_id: str | None = None) -> MatchSource:
    """The match named by ``target`` (a transcript, or a results folder with ``match_id``)."""
    if target.is_file():
        if match_id is not None:
            raise ReplayError(f"give either a transcript or a results folder and a match id, got the file {target} "
                              f"and the id {match_id!r}")
        match_id = target.name[:-len(".jsonl")] if target.name.endswith(".jsonl") else target.stem
        base = target.parent.parent if target.parent.name == "logs" else target.parent
        folder = ResultsFolder(base)
    elif target.is_dir():
        folder = ResultsFolder(target)
    else:
        raise ReplayError(f"no such results folder or transcript: {target}")
    if not folder.matches_path.exists():
        raise ReplayError(f"{folder.path} has no matches.jsonl: give a results folder written by `spades run` or "
                          "`spades match --output`, or a transcript inside its logs/")
    ids = []
    for record in records(folder):
        if match_id is None or record.match == match_id:
            ids.append(record.match)
            if match_id is not None:
                return MatchSource(folder, record)
    if match_id is None and len(ids) == 1:
        return MatchSource(folder, next(r for r in records(folder)))
    if match_id is None:
        shown = ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")
        raise ReplayError(f"{folder.path} holds {len(ids)} matches; name one: {shown}")
    raise ReplayError(f"no record of match {match_id!r} in {folder.matches_path}")


def load_replay(source: MatchSource) -> Replay:
    """The replay of a located match, dealt as the match was (seed, or seed and the folder's secret)."""
    try:
        deals = record_deal_source(source.record.to_dict(), source.folder.secret())
    except (ValueError, ResultsError) as exc:
        raise ReplayError(f"cannot recover the deals of match {source.record.match!r}: {exc}") from None
    return build_replay(source.record, source.transcript, deals)
