"""The showdown on the table (issue 37): every board's hand names, FOULED, fantasy earned,
royalties and points against each opponent, and the ledger's change, in the middle of the
table and inside the window at 1366x800 and at 390x844; gone when the next hand is dealt.

The server runs in this process (uvicorn on a thread) with a clock that only the test moves,
so the showdown stays up until the test deals the next hand. The decks are seeded and both
bots are the deterministic ``heuristic`` bot; ann places each card in the first row with room
(top, then middle, then bottom) and discards the last card dealt. With ``SEED`` that fouls
ann's board, both bots scoop her, and heuristic bot 2 earns a 14-card fantasy (found by
playing the same decks through the server's test client).
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from ofc.rules.cards import Deck
from ofc.server.tables.agents import default_bot_factory
from support.keep_books import PINEAPPLE_HANDS
from support.launch import free_port
from support.server import HANG_GUARD, FakeClock, make_app
from test_web_e2e import CHROMIUM, FLAGS, PLACED, _create_table, _status, new_page

pytestmark = pytest.mark.slow  # drives Chromium against a server

SEED = 19
PAUSE = 1
WIDE = ViewportSize(width=1366, height=800)
PHONE = ViewportSize(width=390, height=844)
SHOTS = os.environ.get("OFC_SHOWDOWN_SHOTS", "")
"""A folder to copy the two screenshots into (docs/images when the docs are refreshed)."""

# Every figure of the showdown: names, totals, badges, royalties, hand names, cards, the lines
# against each opponent and the ledger's cells.
FIGURES = (
    "#showdown .result-title > *",
    "#showdown .hand-name",
    "#showdown .royalty",
    "#showdown .card",
    "#showdown .vs-line",
    "#showdown-ledger th",
    "#showdown-ledger td",
)

OUTSIDE = """(selectors) => {
  const out = [];
  for (const sel of selectors) for (const n of document.querySelectorAll(sel)) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) { out.push(`${sel} not drawn: ${n.textContent}`); continue; }
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      out.push(`${sel} at ${at}: ${n.textContent}`);
    }
  }
  return [scrollX, scrollY, out];
}"""


@contextmanager
def _served(tmp_path: Path) -> Iterator[tuple[str, FakeClock]]:
    """The app on a thread (seeded decks, real bots, a clock the test moves); its base URL and clock."""
    clock = FakeClock()
    app = make_app(
        tmp_path,
        bot_factory=default_bot_factory,
        decks=lambda _table, hand: Deck(SEED * 1000 + hand),
        buttons=random.Random(7),
        clock=clock,
        pause=PAUSE,
    )
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_GUARD
    while not server.started:
        assert thread.is_alive(), "the server ended at start"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", clock
    finally:
        server.should_exit = True
        thread.join(HANG_GUARD)


def _room(page: Page, row: str) -> int:
    return page.locator(f".board.mine .row[data-row={row}] .slot").count()


def _play_top_first(page: Page) -> int:
    """ann's streets until the showdown (or the tournament's end): the last card dealt
    discarded, the others into the first row with room (top, middle, bottom). Returns the
    streets played."""
    streets = 0
    while True:
        _status(page, "your turn|showdown|tournament is over")
        if "your turn" not in (page.text_content("#status") or ""):
            return streets
        streets += 1
        if page.is_visible("#discard-zone"):
            page.locator("#hand .card").last.click()
            page.click("#discard-zone")
        for _ in range(page.locator("#hand .card").count()):
            page.locator("#hand .card").first.click()
            row = next(r for r in ("top", "middle", "bottom") if _room(page, r) > 0)
            page.locator(f".board.mine .row[data-row={row}] .slot").first.click()
        assert page.locator("#hand .card").count() == 0
        placed = page.locator(PLACED).count()
        page.click("#confirm")
        page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")


def _all_inside(page: Page, name: str, tmp_path: Path) -> None:
    """Every showdown figure is drawn inside the window, the page not scrolled."""
    page.wait_for_timeout(100)  # a frame for the new size's layout
    shot = tmp_path / f"showdown-{name}.png"
    page.screenshot(path=str(shot))
    if SHOTS:
        shutil.copy(shot, Path(SHOTS) / shot.name)
    scroll_x, scroll_y, outside = page.evaluate(OUTSIDE, list(FIGURES))
    assert (scroll_x, scroll_y) == (0, 0), name
    assert outside == [], name


def _lobby_as_ann(browser: Browser, base: str, errors: list[str]) -> Page:
    """A wide page in the lobby, named ann, its script errors kept in ``errors``."""
    page = new_page(browser, viewport=WIDE)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    page.fill("#player-name", "ann")
    page.dispatch_event("#player-name", "change")
    return page


def _plate(page: Page, seat: int) -> str:
    return page.text_content(f"#showdown .result[data-seat='{seat}']") or ""


def test_the_showdown_is_on_the_table_inside_the_window_and_clears_with_the_next_hand(tmp_path: Path) -> None:
    errors: list[str] = []
    with _served(tmp_path) as (base, clock), sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = _lobby_as_ann(browser, base, errors)
        _create_table(page, preset="pineapple", seats="3", seat1="heuristic", seat2="heuristic", hand_seconds="600")
        page.wait_for_url("**/#/table/1")
        assert _play_top_first(page) == 5
        page.wait_for_selector("#showdown-panel:not([hidden])")
        # the showdown takes the middle of the table: the boards and ann's cards give way
        assert page.is_hidden("#boards")
        assert page.is_hidden("#me")
        box = page.locator("#showdown-panel").bounding_box()
        side = page.locator("aside.side").bounding_box()
        assert box is not None
        assert side is not None
        assert box["x"] + box["width"] <= side["x"]
        assert box["width"] > 2 * side["width"]
        # ann first (her board), then the bots in seat order
        seats = page.eval_on_selector_all("#showdown .result", "nodes => nodes.map((n) => n.dataset.seat)")
        assert seats == ["0", "1", "2"]
        assert page.locator("#showdown .hand-name").count() == 9
        assert all(name.strip() for name in page.locator("#showdown .hand-name").all_text_contents())
        # ann fouled: FOULED on her board only, both bots scoop her (american: 3 rows + 3 more)
        assert page.locator("#showdown .badge.foul").count() == 1
        assert "FOULED" in _plate(page, 0)
        assert "royalties 0" in _plate(page, 0)
        ann_lines = page.locator("#showdown .result[data-seat='0'] .vs-line").all_text_contents()
        assert len(ann_lines) == 2
        assert all("top \u22121 mid \u22121 bot \u22121, scooped \u22123" in line for line in ann_lines), ann_lines
        # heuristic bot 2 earns a 14-card fantasy
        assert page.locator("#showdown .badge.fantasy").count() == 1
        assert "fantasy next: 14" in _plate(page, 2)
        # each line against an opponent adds up to the engine's points
        pairs = page.eval_on_selector_all(
            "#showdown .vs-line", "nodes => nodes.map((n) => [n.dataset.points, n.dataset.computed])"
        )
        assert len(pairs) == 6
        assert all(float(points) == float(computed) for points, computed in pairs), pairs
        # the hand's totals, and the ledger's change: this hand, points and money after it
        totals = page.locator("#showdown .result-total").all_text_contents()
        assert totals == ["total \u221223 points", "total \u221211 points", "total +34 points"]
        ledger = page.eval_on_selector_all(
            "#showdown-ledger tr",
            "rows => rows.map((r) => Array.from(r.children).map((c) => c.textContent))",
        )
        assert ledger == [
            ["", "this hand", "points", "money"],
            ["ann", "\u221223", "\u221223", "\u221223"],
            ["heuristic bot 1", "\u221211", "\u221211", "\u221211"],
            ["heuristic bot 2", "+34", "+34", "+34"],
        ]
        _all_inside(page, "desktop", tmp_path)
        page.set_viewport_size(PHONE)
        _all_inside(page, "phone", tmp_path)
        # the next hand is dealt (the test moves the server's clock past the pause): the
        # showdown is gone, the boards are back
        clock.move(PAUSE)
        _status(page, "Hand 2")
        assert page.is_hidden("#showdown-panel")
        assert page.is_visible("#boards")
        browser.close()
    assert errors == []


INSIDE_PANEL = """() => {
  const panel = document.getElementById('tournament-panel').getBoundingClientRect();
  const grid = document.querySelector('#tournament table');
  const out = [];
  for (const cell of grid.querySelectorAll('th, td')) {
    const r = cell.getBoundingClientRect();
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5) out.push(cell.textContent);
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(`${cell.textContent} clipped`);
  }
  return out;
}"""


def test_a_finished_tournament_says_no_next_fantasy_and_its_prizes_fit(tmp_path: Path) -> None:
    """The same seeded hand as a sit-and-go with 1 starting chip: ann and heuristic bot 1 are
    out together (2nd-3rd, tied), heuristic bot 2 wins it with a fantasy entry that no hand
    follows, so no board says "fantasy next"; the results table fits its panel."""
    errors: list[str] = []
    with _served(tmp_path) as (base, _clock), sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = _lobby_as_ann(browser, base, errors)
        _create_table(
            page,
            kind="tournament",
            preset="pineapple",
            seats="3",
            seat1="heuristic",
            seat2="heuristic",
            starting_chips="1",
            payouts="0.7,0.3",
            hand_seconds="600",
        )
        page.wait_for_url("**/#/table/1")
        assert _play_top_first(page) == 5
        _status(page, "The tournament is over")
        page.wait_for_selector("#showdown-panel:not([hidden])")
        assert "FOULED" in _plate(page, 0)
        assert "fantasy" not in page.evaluate("() => document.body.innerText")
        ledger = page.eval_on_selector_all(
            "#showdown-ledger tr",
            "rows => rows.map((r) => Array.from(r.children).map((c) => c.textContent))",
        )
        assert ledger[0] == ["", "this hand", "chips"]
        assert [row[0] for row in ledger[1:]] == ["ann", "heuristic bot 1", "heuristic bot 2"]
        prizes = page.eval_on_selector_all(
            "#tournament tr", "rows => rows.map((r) => Array.from(r.children).map((c) => c.textContent))"
        )
        assert prizes[0] == ["", "chips", "last hand", "place", "prize"]
        assert prizes[1][0] == "heuristic bot 2"
        assert prizes[1][3:] == ["1st", "210"]
        for size, name in ((WIDE, "desktop"), (PHONE, "phone")):
            page.set_viewport_size(size)
            page.wait_for_timeout(100)
            page.screenshot(path=str(tmp_path / f"tournament-{name}.png"), full_page=True)
            if SHOTS:
                shutil.copy(tmp_path / f"tournament-{name}.png", Path(SHOTS) / f"tournament-{name}.png")
            assert page.evaluate(INSIDE_PANEL) == [], name
            outside = page.evaluate(OUTSIDE, list(FIGURES))[2]
            assert outside == [], name
        browser.close()
    assert errors == []


def test_the_keyboard_help_shows_on_a_desktop_not_on_a_touch_screen(tmp_path: Path) -> None:
    with _served(tmp_path) as (base, _clock), sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        desk = new_page(browser, viewport=WIDE)
        touch = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
        shown = []
        for page in (desk, touch):
            page.goto(base + "/")
            page.wait_for_selector("#lobby:not([hidden])")
            shown.append(page.evaluate("() => getComputedStyle(document.querySelector('.keys')).display"))
        assert shown == ["block", "none"]
        browser.close()


LABELS_CLEAR = """() => {
  const bad = [];
  for (const rows of document.querySelectorAll('#k-result .k-rows')) {
    const spans = rows.children;
    for (let i = 0; i + 1 < spans.length; i += 3) {
      const label = spans[i].getBoundingClientRect();
      const words = spans[i + 1].getBoundingClientRect();
      const clipped = spans[i].scrollWidth > spans[i].clientWidth + 1;
      if (label.right > words.left + 0.5 || clipped) bad.push(spans[i].textContent);
    }
  }
  for (const label of document.querySelectorAll('#k-board .k-label')) {
    if (label.scrollWidth > label.clientWidth + 1) bad.push(label.textContent);
  }
  return bad;
}"""


def test_the_score_book_in_russian_on_a_phone_keeps_row_labels_clear_of_hand_names(tmp_path: Path) -> None:
    """The keep page's result in Russian at 390x844: "верхний", "средний", "нижний" end before
    the hand names begin, and the entry board's labels fit their box."""
    errors: list[str] = []
    with _served(tmp_path) as (base, _clock), sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = new_page(browser, viewport=PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/keep")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        for index, name in enumerate(("ann", "bob", "cat")):
            page.fill(f"#k-new [name=p{index}]", name)
        page.select_option("#k-new [name=preset]", "pineapple")
        page.select_option("#k-new [name=button]", "ann")
        page.click("#k-new button[type=submit]")
        page.wait_for_selector("#k-board .k-row")
        assert page.locator("#k-board .k-label").all_text_contents() == ["верхний", "средний", "нижний"]
        for name, board in PINEAPPLE_HANDS[0].items():
            page.click(f"#k-tabs button[data-player={name}]")
            page.fill("#k-text", board)
            page.click("#k-use")
        page.click("#k-save")
        page.wait_for_selector("#k-result .k-rows")
        page.screenshot(path=str(tmp_path / "keep-ru.png"), full_page=True)
        if SHOTS:
            shutil.copy(tmp_path / "keep-ru.png", Path(SHOTS) / "keep-ru.png")
        assert page.locator("#k-result .k-rows").count() == 3
        assert page.evaluate(LABELS_CLEAR) == []
        browser.close()
    assert errors == []


def test_four_boards_fit_the_window_too(tmp_path: Path) -> None:
    """Classic at four seats on the same decks: ann and heuristic bot 3 foul (their line reads
    0 everywhere), every figure is inside the window at both sizes (on the phone each
    opponent's points on one line, the breakdown in the hand history)."""
    errors: list[str] = []
    with _served(tmp_path) as (base, _clock), sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = _lobby_as_ann(browser, base, errors)
        bots = {"seat1": "heuristic", "seat2": "heuristic", "seat3": "heuristic"}
        _create_table(page, preset="classic", seats="4", hand_seconds="600", **bots)
        page.wait_for_url("**/#/table/1")
        assert _play_top_first(page) == 9
        page.wait_for_selector("#showdown-panel:not([hidden])")
        assert page.locator("#showdown .result.fouled").count() == 2
        totals = page.locator("#showdown .result-total").all_text_contents()
        assert totals == ["total \u221218 points", "total +36 points", "total 0 points", "total \u221218 points"]
        assert "vs heuristic bot 3: top 0 mid 0 bot 0 \u2192 0" in _plate(page, 0)
        for size, name in ((WIDE, "desktop-4"), (PHONE, "phone-4")):
            page.set_viewport_size(size)
            _all_inside(page, name, tmp_path)
        browser.close()
    assert errors == []
