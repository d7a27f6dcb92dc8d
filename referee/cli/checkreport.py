"""What ``spades check-bot`` found, and how it tells the bot's author.

The runner (:mod:`referee.cli.checkbot`) records every request and answer
(:class:`Exchange`) and turns each scenario's faults into
:class:`FaultEntry` objects: one per mistake of the bot, with the answer that
caused it, the likely cause (:mod:`referee.seat.hints`), the tail of the
bot's stderr after a crash, and what the referee did next. The referee's own
consequences of a fault are folded into it, never reported as faults of
their own: after a fault that ends a seat the referee decides each later
turn (each counted as a fault in the match record), and a bot that printed a
stray line before its answer has that answer arrive with no request
outstanding. Alike entries are grouped: the first in full, then "and N more
like it (requests ...)".
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Callable

from referee.seat.faults import Fault, FaultKind
from referee.seat.botprocess import says_exited
from referee.seat.hints import Hint, hint_for

__all__ = ["REQUEST_TYPES", "SITUATIONS", "OWN_BLIND_NIL", "Exchange", "FaultEntry", "Report", "situations_of",
           "group_entries", "print_report", "stderr_tail"]

REQUEST_TYPES = ("hello", "blind_nil", "keep", "discard", "pass", "bid", "play")
SITUATIONS = (
    "play while void in the led suit",
    "lead with spades unbroken",
    "lead holding only spades",
    "last trick",
    "pass cards to a Blind Nil partner",
    "receive an exchange",
    "bid with Nil forbidden",
    "pass back as the Blind Nil bidder",
)
#: What only happens when the bot itself bids Blind Nil: check-bot cannot force it.
OWN_BLIND_NIL = ("discard", SITUATIONS[7])
_NOT_EXERCISED = {
    "discard": "not exercised: your bot never bid Blind Nil in a two-player scenario",
    SITUATIONS[7]: "not exercised: your bot never bid Blind Nil in a partnership scenario",
}
_TO_TEST_BLIND_NIL = ("To test the Blind Nil bidder's own requests (discard; pass back to the partner), make your "
                      "bot answer true to blind_nil for one run (e.g. behind an environment variable) and run "
                      "check-bot again.")
#: How many lines of a crashed bot's stderr the report shows.
STDERR_LINES = 20
_REQUEST_CHARS = 300


@dataclasses.dataclass
class Exchange:
    """One request to the bot and what came back."""

    scenario: str
    request: dict[str, Any]
    elapsed_ms: float | None
    answer: str | None


def situations_of(req: dict[str, Any]) -> list[str]:
    """Which of :data:`SITUATIONS` a request puts the bot in."""
    out = []
    st = req.get("state", {})
    hand = st.get("hand", [])
    if req["type"] == "play":
        trick = st.get("trick", [])
        if trick:
            led = trick[0][1][1]
            if not any(c[1] == led for c in hand):
                out.append(SITUATIONS[0])
        else:
            suits = {c[1] for c in hand}
            if suits == {"S"}:
                out.append(SITUATIONS[2])
            elif "S" in suits and not st.get("spades_broken"):
                out.append(SITUATIONS[1])
        if len(hand) == 1:
            out.append(SITUATIONS[3])
    elif req["type"] == "pass":
        blind = st.get("blind", [])
        to, seat = req.get("to"), st.get("seat")
        if isinstance(to, int) and to < len(blind) and blind[to]:
            out.append(SITUATIONS[4])
        if isinstance(seat, int) and seat < len(blind) and blind[seat]:
            out.append(SITUATIONS[7])
    elif req["type"] == "bid" and 0 not in req.get("legal", [0]):
        out.append(SITUATIONS[6])
    return out


@dataclasses.dataclass
class FaultEntry:
    """One mistake of the bot, with everything the report says about it."""

    scenario_no: int
    scenario: str
    fault: Fault
    request_type: str | None
    request_id: int | None
    answer: str | None
    hint: Hint | None
    stderr: list[str] = dataclasses.field(default_factory=list)  # last lines, after a crash
    stderr_path: str | None = None
    then: Fault | None = None  # output with no request outstanding right after this answer
    behind: int = 0  # later answers that each came one request late (the stray line's echo)
    stand_ins: int = 0  # later turns the referee decided because this fault ended the seat
    ended_scenario: bool = False  # the scenario's fault limit was reached after it
    late_ids: set[int] = dataclasses.field(default_factory=set)  # requests whose answers may still come

    @property
    def ends_seat(self) -> bool:
        return self.fault.kind.ends_seat or self.then is not None

    def signature(self) -> tuple[Any, ...]:
        """Entries with the same signature are "like" each other and grouped."""
        return (self.fault.kind, _masked(self.fault.detail), self.then is not None, self.behind > 0, self.hint,
                self.request_type)

    def where(self) -> str:
        """``hello`` or the request id, as the group's list shows it."""
        return "hello" if self.request_type == "hello" else str(self.request_id) if self.request_id is not None \
            else "-"


_MASKS = (re.compile(r"'(?:[^'\\]|\\.)*'(?:\.\.\.)?"), re.compile(r'"(?:[^"\\]|\\.)*"'),
          re.compile(r"\[[^\]]*\]"), re.compile(r"\d+"))


def _masked(detail: str) -> str:
    """A fault's detail with its quoted values, lists and numbers blanked out."""
    for mask in _MASKS:
        detail = mask.sub("_", detail)
    return detail


def stderr_tail(path: Path | None, lines: int = STDERR_LINES) -> list[str]:
    """The last ``lines`` lines of a bot's stderr log (empty when there is none)."""
    if path is None:
        return []
    try:
        data = path.read_bytes()
    except OSError:
        return []
    text = data[-64 * 1024:].decode("utf-8", errors="replace")
    return [visible(line.rstrip("\r")) for line in text.splitlines()][-lines:]


def visible(line: str) -> str:
    """A line of a bot's stderr as it may reach the terminal: control characters escaped.

    The bot wrote it, so a raw escape sequence could clear the screen or forge a line
    that looks like the referee's; ``\\x1b`` shown as text cannot.
    """
    if line.isprintable():
        return line
    return "".join(c if c.isprintable() or c == "\t" else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                   for c in line)


def request_id_of(request: str | None) -> int | None:
    """The id of a request line the referee wrote (compact JSON, the id near the start)."""
    if request is None:
        return None
    match = re.match(r'\{"type":"[a-z_]+","id":(\d+)', request)
    return int(match.group(1)) if match else None


def _answer_id(answer: str | None) -> Any:
    """The ``id`` of an answer line, or None."""
    try:
        obj = json.loads(answer) if answer is not None else None
    except (ValueError, RecursionError):
        return None
    return obj.get("id") if isinstance(obj, dict) and type(obj.get("id")) is int else None


def entries_for_seat(scenario_no: int, scenario: str, faults: list[Fault], exchanges: list[Exchange],
                     unexpected_after: Exchange | None, stderr_path: Path | None, ended: bool) -> list[FaultEntry]:
    """One seat's faults in one scenario as entries, the referee's consequences folded in.

    ``unexpected_after`` is the exchange after which the bot wrote output with
    no request outstanding (if it did); ``ended`` whether the scenario ended by
    forfeit.
    """
    by_id = {ex.request.get("id"): ex for ex in exchanges}
    out: list[FaultEntry] = []
    ending: FaultEntry | None = None
    for fault in faults:
        if ending is not None:  # the seat is ended: each later fault is the referee deciding for it
            ending.stand_ins += 1
            continue
        rid = request_id_of(fault.request)
        ex = by_id.get(rid) if rid is not None else None
        after = unexpected_after.request.get("id") if unexpected_after is not None else None
        if fault.kind is FaultKind.UNEXPECTED and out and after is not None and out[-1].then is None \
                and (after == out[-1].request_id or after in out[-1].late_ids):
            # The line after a faulty answer, e.g. the real answer after a debug print: one mistake.
            out[-1].then = fault
            ending = out[-1]
            continue
        rtype = ex.request["type"] if ex is not None else ("hello" if fault.at_startup else None)
        answer = ex.answer if ex is not None else None
        root = out[-1] if out else None
        if root is not None and fault.kind is FaultKind.MALFORMED and _answer_id(answer) in root.late_ids:
            # The answer to an earlier request, one behind: the echo of a stray line, not a new mistake.
            root.behind += 1
            if rid is not None:
                root.late_ids.add(rid)
            continue
        entry = FaultEntry(scenario_no, scenario, fault, rtype, rid, answer, hint_for(fault.kind, rtype, answer,
                                                                                    exited=says_exited(fault.detail)))
        if entry.hint is Hint.STDOUT_IS_FOR_ANSWERS and rid is not None:
            entry.late_ids.add(rid)
        if fault.kind in (FaultKind.CRASH, FaultKind.STARTUP):
            entry.stderr = stderr_tail(stderr_path)
        out.append(entry)
        if fault.kind.ends_seat:
            ending = entry
    if ended and out:
        (ending or out[-1]).ended_scenario = True
    return out


@dataclasses.dataclass
class Report:
    """Everything check-bot found."""

    exchanges: list[Exchange]
    faults: list[tuple[str, Fault]]  # every fault of the match records, the referee's stand-ins included
    slow: list[Exchange]
    slow_ms: float
    received_exchange: bool
    entries: list[FaultEntry] = dataclasses.field(default_factory=list)
    stopped: str | None = None  # why the remaining scenarios were not played
    max_faults: int = 10

    @property
    def ok(self) -> bool:
        return not self.faults and not self.slow

    def coverage(self) -> dict[str, int]:
        """Requests of each type the bot answered (an answer that came, well-formed or not)."""
        counts = {t: 0 for t in REQUEST_TYPES}
        for ex in self.exchanges:
            if ex.answer is not None:
                counts[ex.request["type"]] = counts.get(ex.request["type"], 0) + 1
        return counts

    def situations(self) -> dict[str, int]:
        counts = {s: 0 for s in SITUATIONS}
        for ex in self.exchanges:
            for s in situations_of(ex.request):
                counts[s] += 1
        if self.received_exchange:
            counts[SITUATIONS[5]] += 1
        return counts


def group_entries(entries: list[FaultEntry]) -> list[list[FaultEntry]]:
    """Alike entries together, groups in the order of their first entry."""
    groups: dict[tuple[Any, ...], list[FaultEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.signature(), []).append(entry)
    return list(groups.values())


def _short(text: str, limit: int = _REQUEST_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _requests_list(entries: list[FaultEntry], limit: int = 12) -> str:
    """``5, 9 in scenario 1; 3 in scenario 2``, at most ``limit`` requests named."""
    parts: list[str] = []
    shown = 0
    by_scenario: dict[int, list[str]] = {}
    for entry in entries:
        by_scenario.setdefault(entry.scenario_no, []).append(entry.where())
    for number, wheres in by_scenario.items():
        if shown >= limit:
            parts.append("...")
            break
        room = wheres[: limit - shown]
        shown += len(room)
        parts.append(", ".join(room) + (", ..." if len(room) < len(wheres) else "") + f" in scenario {number}")
    return "; ".join(parts)


def _consequence(entry: FaultEntry, max_faults: int) -> str | None:
    """What the referee did about a fault that ended the seat, in plain words."""
    stray = entry.hint is Hint.STDOUT_IS_FOR_ANSWERS
    behind = ""
    if entry.behind:
        n = entry.behind
        behind = (f"then the bot's answers ran one request behind (each came as the answer to the next request"
                  f"{', most likely because of the stray line' if stray else ''}): {n} more malformed "
                  f"answer{'s' if n != 1 else ''} of that kind")
    if not entry.ends_seat:
        return behind or None
    if behind:
        what = behind + "; at last the bot wrote a line with no request outstanding, so the referee stopped " \
                        "reading this bot"
    elif entry.then is not None:
        detail = entry.then.detail.split(": ", 1)[-1]
        cause = " (most likely the answer that followed the stray line)" if stray else ""
        what = (f"then the bot wrote {detail} with no request outstanding{cause}, so the referee stopped "
                f"reading this bot after the {entry.fault.kind.value} answer")
    elif entry.fault.kind is FaultKind.CRASH:
        what = "the bot is no longer running"
    elif entry.fault.kind is FaultKind.STARTUP:
        return "the scenario ended at once: a bot that did not start cannot be stood in for"
    else:
        what = f"the referee stopped reading this bot after its {entry.fault.kind.value} fault"
    if entry.stand_ins:
        what += f"; the referee decided its next {entry.stand_ins} turn{'s' if entry.stand_ins != 1 else ''}"
    if entry.ended_scenario:
        what += f" until the {max_faults}-fault limit ended the scenario"
    return what


def print_report(report: Report, echo: Callable[[str], None]) -> None:
    """The report as the author reads it, after the progress lines."""
    echo("")
    echo("Requests answered:")
    coverage = report.coverage()
    for kind, count in coverage.items():
        note = f"   ({_NOT_EXERCISED[kind]})" if count == 0 and kind in _NOT_EXERCISED else ""
        echo(f"  {kind:<10} {count:>5}{note}")
    echo("Situations met:")
    situations = report.situations()
    for name, count in situations.items():
        note = f"   ({_NOT_EXERCISED[name]})" if count == 0 and name in _NOT_EXERCISED else ""
        echo(f"  {name:<36} {count:>5}{note}")
    if coverage["discard"] == 0 or situations[SITUATIONS[7]] == 0:
        echo(_TO_TEST_BLIND_NIL)
    # hello is not a decision: its allowance includes starting the program.
    times = sorted(ex.elapsed_ms for ex in report.exchanges if ex.elapsed_ms is not None
                   and ex.request["type"] != "hello")
    if times:
        echo(f"Answer time (decisions): median {times[len(times) // 2]:.1f} ms, max {times[-1]:.1f} ms "
             f"(slow above {report.slow_ms:.0f} ms)")
    groups = group_entries(report.entries)
    if groups:
        total = len(report.entries)
        echo(f"\n{len(groups)} FAULT{'S' if len(groups) != 1 else ''}"
             + (f" ({total} in all; alike ones grouped)" if total != len(groups) else "") + ":")
        for group in groups:
            _print_group(group, report.max_faults, echo)
    if report.stopped:
        echo(f"\n{report.stopped}")
    if report.slow:
        echo(f"\n{len(report.slow)} SLOW ANSWER(S) (over {report.slow_ms:.0f} ms):")
        for ex in report.slow[:20]:
            echo(f"- [{ex.scenario}] {ex.elapsed_ms:.0f} ms for: {_short(json.dumps(ex.request, separators=(',', ':')))}")
        if len(report.slow) > 20:
            echo(f"  and {len(report.slow) - 20} more")
    echo("")
    if report.ok:
        echo("COMPLIANT: every answer was well-formed, legal and in time.")
    else:
        found = " and ".join(w for w, there in (("faults", report.faults), ("slow answers", report.slow)) if there)
        echo(f"NOT COMPLIANT: see the {found} above.")


def _print_group(group: list[FaultEntry], max_faults: int, echo: Callable[[str], None]) -> None:
    first = group[0]
    f = first.fault
    when = " at start-up" if f.at_startup and f.kind is not FaultKind.STARTUP else ""
    echo(f"- [{first.scenario_no}: {first.scenario}] {f.kind.value}{when}: {f.detail}")
    if f.request and not f.at_startup:
        echo(f"    in answer to: {_short(f.request)}")
    if first.hint is not None:
        echo(f"    hint: {first.hint.text}")
    consequence = _consequence(first, max_faults)
    if consequence:
        echo(f"    {consequence}")
    if first.stderr:
        echo(f"    last {len(first.stderr)} line{'s' if len(first.stderr) != 1 else ''} of the bot's stderr:")
        for line in first.stderr:
            echo(f"    | {line}")
    if len(group) > 1:
        echo(f"    and {len(group) - 1} more like it (requests {_requests_list(group[1:])})")
