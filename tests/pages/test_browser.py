"""The pages in a real browser: Playwright driving the system's Chromium, headless.

Skipped only when Chromium or Playwright is missing (CI installs both, and
fails on a skip). A screenshot of each variant is kept in test-artifacts/
(git-ignored) as an artifact of the run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner
from pages_support import record_of, results, transcript_hand_after, transcript_trick  # noqa: F401 (results: a fixture)

from referee.cli.main import cli
from referee.game.cards import CARD_NAMES
from referee.pages.replay import build_replay

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert errors == [], errors


def run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def replay_url(results: Path, match_id: str, fragment: str = "") -> str:
    run(["replay", str(results), match_id])
    return (results / "replays" / f"{match_id}.html").as_uri() + fragment


def shown_cards(page: Any, selector: str) -> list[str]:
    return [CARD_NAMES[int(c)] for c in page.eval_on_selector_all(selector + " .card[data-card]",
                                                                   "els => els.map(e => e.dataset.card)")]


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_hand_two_trick_five_shows_the_transcripts_cards(page: Any, results: Path) -> None:
    page.goto(replay_url(results, "p7"))
    page.select_option("#hand-select", "2")
    for _ in range(5):
        page.click("#next-trick")
    want = transcript_trick(results, "p7", 2, 5)
    slots = page.eval_on_selector_all("#trick .slot", "els => els.map(e => [Number(e.dataset.seat), "
                                                      "Number(e.querySelector('.card').dataset.card)])")
    assert [[s, CARD_NAMES[c]] for s, c in slots] == want
    assert page.text_content("#position").startswith("Hand 2 · trick 5, card 4")
    # Every seat's hand shown is what the referee told it it held, less what it has played.
    for seat in range(4):
        assert sorted(shown_cards(page, f'[data-hand="{seat}"]')) == transcript_hand_after(results, "p7", seat, 2, 5)
    # The permalink names the place, and opening it shows the same cards.
    assert page.evaluate("location.hash") == "#hand=2&trick=5"
    page.goto(replay_url(results, "p7", "#hand=2&trick=5"))
    again = page.eval_on_selector_all("#trick .card", "els => els.map(e => Number(e.dataset.card))")
    assert [CARD_NAMES[c] for c in again] == [c for _, c in want]
    screenshot(page, "replay-partnership.png")


def test_the_score_charts_last_point_is_the_records_score(page: Any, results: Path) -> None:
    for match_id in ("p7", "t3", "long"):
        page.goto(replay_url(results, match_id))
        last = page.get_attribute("#score-chart svg", "data-last")
        assert [int(v) for v in last.split(",")] == record_of(results, match_id).score
        # The last point drawn for each side is that score, at the end of its line.
        drawn = page.evaluate("""() => ['circle.p0', 'rect.p1'].map((sel, side) => {
            const pts = document.querySelectorAll('#score-chart ' + sel), p = pts[pts.length - 1];
            const line = document.querySelector('#score-chart polyline.l' + side).points;
            const end = line.getItem(line.numberOfItems - 1);
            const box = p.getBBox();
            return [Number(p.dataset.value), Math.abs(box.x + box.width / 2 - end.x) < 0.5
                    && Math.abs(box.y + box.height / 2 - end.y) < 0.5];
        })""")
        assert drawn == [[s, True] for s in record_of(results, match_id).score]


def test_keyboard_and_slider_move_as_they_should(page: Any, results: Path) -> None:
    page.goto(replay_url(results, "p7"))
    frame = lambda: int(page.evaluate("document.body.dataset.frame"))  # noqa: E731
    assert frame() == 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert frame() == 2
    page.keyboard.press("ArrowLeft")
    assert frame() == 1
    page.keyboard.press("PageDown")
    assert page.evaluate("location.hash") == "#hand=2"
    page.keyboard.press("ArrowDown")  # to the end of the first trick of hand 2
    assert page.text_content("#position").startswith("Hand 2 · trick 1, card 4")
    page.keyboard.press("End")
    total = int(page.get_attribute("#slider", "max"))
    assert frame() == total
    page.keyboard.press("Home")
    assert frame() == 0
    page.fill("#slider", "40")  # sets the value and fires "input", as dragging does
    assert frame() == 40
    page.focus("#slider")
    page.keyboard.press("ArrowRight")
    assert frame() == 41 and page.input_value("#slider") == "41"
    # A Blind Nil bidder, in its own view, has not seen its cards when it bids.
    replay = build_replay(record_of(results, "p7"), results / "logs" / "p7.jsonl")
    k, f = next((k, f) for k, f in enumerate(replay.frames) if f.kind == "blind_nil" and f.action
                and None in f.bids)
    page.select_option("#view", str(f.seat))
    page.evaluate(f"window.replay.go({k})")
    assert page.locator(f'[data-hand="{f.seat}"] .card[data-card]').count() == 0
    assert "not looked at yet" in page.text_content(f'[data-hand="{f.seat}"]')
    page.select_option("#view", "all")
    page.evaluate("window.replay.go(41)")
    page.focus("#slider")
    page.keyboard.press("v")  # one seat's view: only seat 0's cards are face up
    assert page.input_value("#view") == "0"
    assert page.locator('[data-hand="1"] .card[data-card]').count() == 0
    assert page.locator('[data-hand="0"] .card[data-card]').count() > 0


def test_two_player_draw_and_forfeit_pages(page: Any, results: Path) -> None:
    page.goto(replay_url(results, "t3", "#hand=1&step=20"))
    assert page.locator("#exchanges li").count() >= 10  # the draw, turn by turn
    screenshot(page, "replay-two-player.png")
    page.goto(replay_url(results, "ff"))
    page.keyboard.press("End")
    banner = page.text_content("#fault-banner")
    assert "beta" in banner and "you do not hold that card" in banner
    screenshot(page, "replay-forfeit.png")
    page.goto(replay_url(results, "long", "#hand=100"))
    assert page.text_content("#position").startswith("Hand 100")
    screenshot(page, "replay-100-hands.png")


def test_report_links_to_replays_and_its_standings_match_the_json(page: Any, results: Path) -> None:
    run(["report", str(results), "--replays"])
    page.goto((results / "report.html").as_uri())
    standings = json.loads(run(["standings", str(results), "--format", "json"]))
    rows = page.eval_on_selector_all("#table-0 tbody tr", "rs => rs.map(r => Array.from(r.cells, c => c.textContent))")
    assert [(int(r[0]), r[1], int(r[2]), r[3]) for r in rows] == [
        (b["rank"], b["bot"], b["matches"], f"{b['wins']}-{b['losses']}-{b['draws']}") for b in standings["bots"]]
    # Sorting by a column reorders the rows; the data stay the same.
    page.click("#table-0 th[data-col='1']")
    bots = page.eval_on_selector_all("#table-0 tbody tr td:nth-child(2)", "cs => cs.map(c => c.textContent)")
    assert sorted(bots, reverse=True) == bots
    screenshot(page, "report.png")
    page.click("a.replay-link >> text=t3")
    page.wait_for_selector("#score-chart svg")
    assert page.text_content("#match-title").startswith("t3 · two-player")
    page.click("#back")
    assert page.url.endswith("report.html")
