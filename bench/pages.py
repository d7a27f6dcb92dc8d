#!/usr/bin/env python3
"""Size and speed of a replay page against the targets of issue 13.

Plays a seeded 20-hand partnership match in-process (scripted random seats,
so every hand goes the distance), builds its replay page, and opens it in
headless Chromium several times. Prints the page's size against 300 KB, the
time from navigation start to the first frame on screen (the browser's
``performance.now()``, median of the loads) against 1 s, and the CPU time
of building the page in Python. The last line is ``ratio R``: the larger of
size / 300 KB and render time / 1 s, so R < 1 meets both targets.

    python3 bench/pages.py [--loads 7] [--hands 20]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.game.rules import Rules, Variant  # noqa: E402
from referee.match import MatchSpec, run_match  # noqa: E402
from referee.pages.replay import build_replay  # noqa: E402
from referee.pages.replay_page import replay_html  # noqa: E402
from referee.seat.scripted import ScriptedTransport, random_policy  # noqa: E402
from referee.seat.spec import SeatSpec  # noqa: E402

SIZE_TARGET = 300 * 1024
RENDER_TARGET_MS = 1000.0
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=7)
    ap.add_argument("--hands", type=int, default=20)
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium: not installed\nratio n/a")
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "logs"
        spec = MatchSpec(variant=Variant.PARTNERSHIP, seats=[SeatSpec(f"bot{i}", ["scripted"]) for i in range(4)],
                         rules=Rules(target=100000, max_hands=args.hands), seed=20, match_id="bench", logs=str(logs))
        record = run_match(spec, transport_factory=lambda seat, s, tr: ScriptedTransport(
            random_policy(random.Random(seat), blind_nil=0.15), name=s.name, transcript=tr.for_seat(seat)))
        t0 = time.process_time()
        replay = build_replay(record, logs / "bench.jsonl")
        text = replay_html(replay)
        build_cpu = time.process_time() - t0
        page_path = Path(tmp) / "bench.html"
        page_path.write_text(text, encoding="utf-8")
        size = page_path.stat().st_size
        times = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            for _ in range(args.loads):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(page_path.as_uri())
                page.wait_for_function("window.replay && window.replay.renderedAt")
                times.append(page.evaluate("window.replay.renderedAt"))
                page.close()
            browser.close()
    render = statistics.median(times)
    print(f"match: partnership, {len(record.hands)} hands, {len(replay.frames)} frames")
    print(f"page size:   {size / 1024:8.1f} KB    target {SIZE_TARGET / 1024:.0f} KB   ({size / SIZE_TARGET:.2f})")
    print(f"first frame: {render:8.1f} ms    target {RENDER_TARGET_MS:.0f} ms    ({render / RENDER_TARGET_MS:.2f}; "
          f"loads: {', '.join(f'{t:.0f}' for t in times)} ms)")
    print(f"build (Python, CPU): {build_cpu * 1000:.0f} ms for the replay model and the page")
    print(f"ratio {max(size / SIZE_TARGET, render / RENDER_TARGET_MS):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
