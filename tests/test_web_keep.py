"""End to end on a phone-sized screen: Debian's chromium, driven by Playwright, keeps the
hand-worked pineapple match of ``keep_books`` on ``/keep``, reloads mid-hand, goes offline,
and follows the book through the read-only share link.

Chromium is installed by scripts/services (run by scripts/test); this test fails, not skips,
when it is missing. Screenshots land in the test's temporary folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, sync_playwright

from support.keep_books import (
    PINEAPPLE_HANDS,
    PINEAPPLE_MONEY,
    PINEAPPLE_POINTS,
    PINEAPPLE_SETTLEMENT,
    PINEAPPLE_TOTALS,
)
from support.server import ServerProcess
from test_web_e2e import CHROMIUM, FLAGS, new_context

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

PHONE = ViewportSize(width=390, height=844)


def _shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _type(page: Page, name: str, board: str) -> None:
    """Enter ``name``'s board by typing it (or 'dead' with the Dead button)."""
    page.click(f"#k-tabs button[data-player={name}]")
    if board == "dead":
        page.click("#k-dead")
        return
    page.fill("#k-text", board)
    page.click("#k-use")


def _tap(page: Page, name: str, board: str) -> None:
    """Enter ``name``'s board card by card on the picker (it fills top, middle, bottom)."""
    page.click(f"#k-tabs button[data-player={name}]")
    for card in board.replace("/", " ").split():
        page.click(f"#k-picker button[data-card='{card}']")


def _saved(page: Page, hands: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('#k-hands li:not(.k-pending)').length === {hands}"
        " && document.getElementById('k-sync').textContent === 'all saved'",
    )


def _cell(page: Page, name: str, kind: str) -> str:
    return page.text_content(f"#k-table tr[data-player={name}] .k-{kind}") or ""


def _signed(value: float) -> str:
    return f"+{value:g}" if value > 0 else f"{value:g}".replace("-", "\u2212")  # the typographic minus


def test_keep_a_pineapple_match_on_a_phone(tmp_path: Path) -> None:
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: run scripts/services (scripts/test does)"
    errors: list[str] = []
    with ServerProcess(f"sqlite:///{tmp_path / 'ofc.db'}", tmp_path) as server, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.base + "/keep")
        for index, name in enumerate(("ann", "bob", "cat")):
            page.fill(f"#k-new [name=p{index}]", name)
        page.select_option("#k-new [name=preset]", "pineapple")
        page.fill("#k-new [name=point_value]", "0.5")
        page.select_option("#k-new [name=button]", "ann")
        _shot(page, tmp_path, "new")
        page.click("#k-new button[type=submit]")
        page.wait_for_selector("#k-book:not([hidden])")
        assert "order bob, cat, ann" in (page.text_content("#k-next") or "")

        # Hand 1: ann typed, bob tapped on the picker, cat typed; a card used twice is refused.
        one = PINEAPPLE_HANDS[0]
        _type(page, "ann", one["ann"])
        _type(page, "bob", one["ann"])
        assert "already used in this hand" in (page.text_content("#k-field-error") or "")
        _tap(page, "bob", one["bob"])
        assert page.is_disabled("#k-picker button[data-card='Kc']")
        _type(page, "cat", one["cat"])
        _shot(page, tmp_path, "hand1-entered")
        page.click("#k-save")
        _saved(page, 1)
        assert "fantasy next: 14" in (page.text_content("#k-result [data-player=cat]") or "")
        assert "cat: fantasy 14 cards" in (page.text_content("#k-next") or "")
        _shot(page, tmp_path, "hand1-result")

        # Hand 2 (cat in fantasy); then hand 3 half entered, the page reloaded: nothing lost.
        for name, board in PINEAPPLE_HANDS[1].items():
            _type(page, name, board)
        page.click("#k-save")
        _saved(page, 2)
        three = PINEAPPLE_HANDS[2]
        _type(page, "cat", three["cat"])
        _tap(page, "ann", "7c 7d 2h 9c 9d")
        page.reload()
        page.wait_for_selector("#k-book:not([hidden])")
        page.click("#k-tabs button[data-player=ann]")
        assert page.locator("#k-board .k-card").count() == 5
        assert (page.text_content("#k-tabs button[data-player=cat]") or "").startswith("cat 13/13")
        _tap(page, "ann", "9h 3s 4s Tc Jc Qc Kc 2c")
        _type(page, "bob", "dead")
        page.click("#k-save")
        _saved(page, 3)
        assert "dead" in (page.text_content("#k-result [data-player=bob]") or "")

        # Hand 4 saved while offline: it waits, survives a reload, and is sent once back online.
        context.set_offline(True)
        for name, board in PINEAPPLE_HANDS[3].items():
            _type(page, name, board)
        page.click("#k-save")
        page.wait_for_function("() => /1 waiting/.test(document.getElementById('k-sync').textContent)")
        _shot(page, tmp_path, "offline")
        context.set_offline(False)
        _saved(page, 4)
        for name, board in PINEAPPLE_HANDS[4].items():
            _type(page, name, board)
        page.click("#k-save")
        _saved(page, 5)
        page.wait_for_selector("#k-over:not([hidden])")

        for number, points in enumerate(PINEAPPLE_POINTS, start=1):
            for name, value in points.items():
                cell = page.text_content(f"#k-table tr[data-player={name}] td[data-hand='{number}']")
                assert cell == _signed(value), (number, name)
        for name in ("ann", "bob", "cat"):
            assert _cell(page, name, "points") == _signed(PINEAPPLE_TOTALS[name])
            assert _cell(page, name, "money") == _signed(PINEAPPLE_MONEY[name])
        settlement = page.locator("#k-over li").all_text_contents()
        assert settlement == [f"{t['from']} pays {t['to']} {t['amount']}" for t in PINEAPPLE_SETTLEMENT]
        assert page.is_hidden("#k-entry")
        _shot(page, tmp_path, "over")

        # The share link shows the same table, read only.
        link = page.input_value("#k-link")
        assert "#view=" in link
        viewer = context.new_page()
        viewer.on("pageerror", lambda error: errors.append(str(error)))
        viewer.goto(link)
        viewer.wait_for_selector("#k-table tr[data-player=ann]")
        assert viewer.inner_text("#k-table") == page.inner_text("#k-table")
        assert viewer.is_hidden("#k-entry")
        assert viewer.locator("#k-hands button").count() == 0
        assert viewer.locator("#k-over li").all_text_contents() == settlement
        svg = viewer.evaluate("() => fetch(document.getElementById('k-qr').src).then(r => r.text())")
        assert svg.startswith("<svg")
        _shot(viewer, tmp_path, "share")

        # An edit the rest of the book cannot follow (no KK for ann in hand 4: no fantasy, so no
        # hand 5) is refused next to the boards, which stay as entered; nothing changes.
        page.locator("#k-hands .k-edit").nth(3).click()
        _type(page, "ann", "Kc Jd 2h / Ac Ad 3c 4d 5s / 6c 6d 6h 7c 7d")
        page.click("#k-save")
        page.wait_for_function("() => /refused/.test(document.getElementById('k-field-error').textContent)")
        refusal = page.text_content("#k-field-error") or ""
        assert refusal.endswith("hand 5: the match is over after 4 hands; start a new book")
        assert page.is_visible("#k-editing")
        page.click("#k-tabs button[data-player=ann]")
        assert page.locator("#k-board .k-card").all_text_contents()[:3] == ["K\u2663", "J\u2666", "2\u2665"]
        _shot(page, tmp_path, "refused-edit")
        page.click("#k-cancel")
        assert page.is_hidden("#k-entry")
        assert _cell(page, "ann", "points") == _signed(PINEAPPLE_TOTALS["ann"])

        # A new book: same players, the button one seat on from the last hand's (cat): ann.
        page.click("#k-again")
        page.wait_for_function("() => /order bob, cat, ann/.test(document.getElementById('k-next').textContent)")
        browser.close()
    assert errors == []
