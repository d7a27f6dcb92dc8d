"""The replay page of one match: a single self-contained HTML file.

The page's script only renders: every frame (hands, the trick on the table,
bids, tricks won, decision times) is computed here by the replay model and
inlined as JSON. Frames are arrays, not objects, to keep a 20-hand match
well under 300 KB; ``FRAME_FIELDS`` names the positions, and the script
reads the same list from the data.
"""

from __future__ import annotations

from typing import Any

from referee.game.scoring import side_seats
from referee.pages.assets import page
from referee.pages.replay import Frame, Replay

__all__ = ["FRAME_FIELDS", "page_data", "replay_html"]

#: The positions of a frame's array in the page data.
FRAME_FIELDS = ("hand", "kind", "seat", "action", "hands", "table", "winner", "trick", "bids", "blind", "won", "ms",
                "hand_over", "extra", "looked")


def _frame(f: Frame) -> list[Any]:
    # A hand as the hex digits of its mask: exact in JavaScript (whose bit
    # operations stop at 32 bits) and 13 characters at most.
    return [f.hand, f.kind, f.seat, f.action, [format(h, "x") for h in f.hands], [list(p) for p in f.table],
            f.winner, f.trick_no, list(f.bids), [int(b) for b in f.blind], list(f.won), f.ms, int(f.hand_over),
            f.extra, f.looked]


def page_data(replay: Replay) -> dict[str, Any]:
    """Everything the page shows, as plain JSON-ready data."""
    rec = replay.record
    variant = rec.variant
    before, bags_before = [0, 0], [0, 0]
    hands = []
    for i, start in enumerate(replay.hand_frames):
        entry: dict[str, Any] = {"n": i + 1, "frame": start, "before": before, "bags_before": bags_before}
        if i < len(replay.hands):
            h = replay.hands[i].to_record(variant)
            entry.update(h)
            before, bags_before = h["score"], h["bags"]
        hands.append(entry)
    return {
        "fields": list(FRAME_FIELDS),
        "match": rec.match, "variant": variant.value, "names": rec.bots, "seed": rec.seed,
        "rules": rec.rules.to_dict(), "score": rec.score, "winner": rec.winner, "reason": rec.reason.value,
        "result": rec.describe(), "seconds": rec.seconds, "stats": rec.stats,
        "sides": [list(side_seats(variant, s)) for s in (0, 1)],
        "hands": hands,
        "frames": [_frame(f) for f in replay.frames],
        "faults": [{"seat": fa.fault.seat, "kind": fa.fault.kind.value, "summary": fa.fault.kind.summary,
                    "detail": fa.fault.detail, "hand": fa.fault.hand, "frame": fa.frame, "told": fa.told} for fa in replay.faults],
    }


def replay_html(replay: Replay, *, back_link: str | None = None) -> str:
    """The whole page; ``back_link``: a relative link to the tournament report, if any."""
    data = page_data(replay)
    data["back"] = back_link
    return page(f"Replay: {replay.record.match}", _BODY, styles=["common.css", "replay.css"],
                scripts=["replay.js"], data=data)


_BODY = """<header class="top">
  <div class="title"><a id="back" class="back" hidden>&larr; tournament</a>
    <h1 id="match-title">Replay</h1><p id="result" class="result"></p></div>
  <div class="view"><label for="view">Cards shown <select id="view"></select></label></div>
</header>
<nav class="controls" aria-label="Replay controls">
  <button id="first-hand" title="Previous hand (PageUp, or [)">&laquo; hand</button>
  <button id="prev-trick" title="Previous trick (Shift+Left, or Up)">&lsaquo; trick</button>
  <button id="prev" title="Previous step (Left)">&#x25C0; step</button>
  <button id="next" title="Next step (Right)">step &#x25B6;</button>
  <button id="next-trick" title="Next trick (Shift+Right, or Down)">trick &rsaquo;</button>
  <button id="next-hand" title="Next hand (PageDown, or ])">hand &raquo;</button>
  <label class="jump">Hand <select id="hand-select"></select></label>
  <input id="slider" type="range" min="0" value="0" aria-label="Position in the match">
  <span id="position" class="position"></span>
  <a id="permalink" class="permalink" href="#">permalink</a>
</nav>
<main class="layout">
  <section class="table-area">
    <div id="fault-banner" class="fault-banner" role="alert" hidden></div>
    <div id="table" class="felt"></div>
    <p id="action" class="action" aria-live="polite"></p>
  </section>
  <aside class="side">
    <section class="panel"><h2>This hand</h2><div id="hand-info"></div></section>
    <section class="panel" id="exchange-panel"><h2 id="exchange-title">Exchanges</h2><div id="exchanges"></div></section>
    <section class="panel"><h2>Keys</h2><p class="keys"><kbd>&larr;</kbd> <kbd>&rarr;</kbd> step &middot;
      <kbd>&uarr;</kbd> <kbd>&darr;</kbd> trick &middot; <kbd>PgUp</kbd> <kbd>PgDn</kbd> hand &middot;
      <kbd>Home</kbd> <kbd>End</kbd> &middot; <kbd>v</kbd> cards shown</p></section>
  </aside>
</main>
<section class="charts">
  <div class="panel wide"><h2>Score after each hand</h2><div id="score-chart"></div></div>
  <div class="panel wide"><h2>Bags after each hand</h2><div id="bags-chart"></div></div>
</section>
<section class="bottom">
  <div class="panel wide"><h2>Decision times</h2><div id="times"></div></div>
  <div class="panel wide"><h2>Faults</h2><div id="faults"></div></div>
</section>
<footer class="foot">spades-referee replay &middot; every state rebuilt by the rules engine from the transcript</footer>"""
