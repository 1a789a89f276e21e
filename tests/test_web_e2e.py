"""End to end: Debian's chromium, driven by Playwright, plays a whole hand against bots.

Chromium is installed by scripts/services (run by scripts/test, hence by CI); this test
fails, not skips, when it is missing. The screenshots land in the test's temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, sync_playwright

from ofc.rules.ranking import CATEGORY_NAMES
from support.server import ServerProcess

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLACED = ".board.mine .row .card:not(.pending)"
WAIT_MS = 300_000
"""Playwright's longest wait for anything: a hang guard only (the suite must pass on a machine
5x slower than a quiet one, e.g. on one core that another process keeps busy)."""


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context whose every wait may last ``WAIT_MS``."""
    context = browser.new_context(**options)
    context.set_default_timeout(WAIT_MS)
    return context


def new_page(browser: Browser, **options: Any) -> Page:
    """A page in a context of its own (``new_context``)."""
    return new_context(browser, **options).new_page()


def _place_by_hand(page: Page) -> None:
    """Click each card, then the lowest row with an empty slot; the discard zone when due."""
    while page.locator("#hand .card").count():
        if page.is_visible("#discard-zone") and not page.locator("#discard-zone .card").count():
            page.locator("#hand .card").first.click()
            page.click("#discard-zone")
            continue
        page.locator("#hand .card").first.click()
        for row in ("bottom", "middle", "top"):
            slots = page.locator(f".board.mine .row[data-row={row}] .slot")
            if slots.count():
                slots.first.click()
                break


def second_player(page: Page, name: str, errors: list[str]) -> Page:
    """Another person on a 390x844 phone: a fresh context of ``page``'s browser on the lobby of
    ``page``'s server, ``name`` typed in; errors the page raises go into ``errors``."""
    browser = page.context.browser
    assert browser is not None
    other = new_page(browser, viewport={"width": 390, "height": 844})
    other.on("pageerror", lambda error: errors.append(str(error)))
    other.goto(page.url.split("#")[0])
    other.fill("#player-name", name)
    other.dispatch_event("#player-name", "change")
    return other


def click_and_confirm(page: Page, selector: str) -> list[str]:
    """Click ``selector``, accept the confirmation it opens; the dialog's message(s)."""
    messages: list[str] = []

    def accept(dialog: Dialog) -> None:
        messages.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.click(selector)
    return messages


def _status(page: Page, pattern: str) -> None:
    page.wait_for_function(f"() => /{pattern}/.test(document.getElementById('status').textContent)")


@contextmanager
def _lobby_as_ann(tmp_path: Path, errors: list[str], *server_args: str) -> Iterator[Page]:
    """A real ``ofc serve`` and a chromium page on its lobby, the name ``ann`` typed in.

    Errors the page raises go into ``errors``.
    """
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: run scripts/services (scripts/test does)"
    db = f"sqlite:///{tmp_path / 'ofc.db'}"
    with ServerProcess(db, tmp_path, *server_args) as server, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = new_page(browser, viewport={"width": 1280, "height": 860})
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.base + "/")
        page.fill("#player-name", "ann")
        page.dispatch_event("#player-name", "change")
        try:
            yield page
        finally:
            browser.close()


def _create_table(page: Page, **fields: str) -> None:
    """Fill in the lobby's new-table form (a field's name: its value) and submit it.

    Selects are set in the order given (``seats`` before the ``seatN`` it makes), inputs filled.
    """
    for name, value in fields.items():
        field = f"#create [name={name}]"
        if page.eval_on_selector(field, "node => node.tagName") == "SELECT":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    page.click("#create button[type=submit]")


def test_a_whole_hand_in_the_browser_against_bots(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "30", "--bot-delay", "0") as page:
        _create_table(page, preset="pineapple", seats="3", seat1="random", seat2="heuristic")
        page.wait_for_url("**/#/table/*")
        turns = 0
        while True:
            _status(page, "your turn|showdown")
            if "showdown" in (page.text_content("#status") or ""):
                break
            turns += 1
            if turns == 2:
                page.click("#hint")
                # the pro bot's kernels compile on the first hint after an install: a hang guard, not a bound
                page.wait_for_function(
                    "() => /expected/.test(document.getElementById('advice').textContent)", timeout=WAIT_MS
                )
            else:
                _place_by_hand(page)
            assert page.is_enabled("#confirm")
            placed = page.locator(PLACED).count()
            page.click("#confirm")
            page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")
        assert turns == 5
        page.wait_for_selector("#showdown-panel:not([hidden])")
        assert page.locator("#showdown .result").count() == 3
        names = page.locator("#showdown .hand-name").all_text_contents()
        assert len(names) == 9
        categories = set(CATEGORY_NAMES.values())
        assert all(name.split(",")[0] in categories for name in names), names
        assert page.locator(".board .card").count() == 39
        points = page.locator("#ledger td.plus, #ledger td.minus").count()
        shot = tmp_path / "showdown.png"
        page.screenshot(path=str(shot), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        phone = tmp_path / "phone.png"
        page.screenshot(path=str(phone), full_page=True)
    assert shot.stat().st_size > 20_000
    assert phone.stat().st_size > 20_000
    assert points in (0, 4, 6)
    assert errors == []


def test_a_match_that_ends_offers_a_rematch_in_the_same_seat(tmp_path: Path) -> None:
    """A match the server's clock plays for ann (one second a street, no bank), then the rematch."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "0", "--bot-delay", "0") as page:
        clocks = {"hand_seconds": "1", "time_bank_seconds": "0"}
        _create_table(page, preset="turbo", seats="2", seat1="random", fantasy="off", **clocks)
        page.wait_for_url("**/#/table/1")
        _status(page, "The match is over")
        page.wait_for_selector("#after:not([hidden])")
        assert page.text_content("#rematch") == "Rematch"
        assert page.is_hidden("#play-buttons")
        page.screenshot(path=str(tmp_path / "over.png"), full_page=True)
        page.click("#rematch")
        page.wait_for_url("**/#/table/2")
        _status(page, "your turn")
        assert page.is_hidden("#after")
        assert page.locator(".board.mine").count() == 1
    assert errors == []


def test_a_seat_at_a_waiting_table_can_be_left(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--bot-delay", "0") as page:
        _create_table(page, seats="2", seat1="person")
        page.wait_for_url("**/#/table/1")
        _status(page, "Waiting for 1 more player")
        page.wait_for_selector("#waiting:not([hidden])")
        page.click("#leave")
        page.wait_for_selector("#lobby:not([hidden])")
        page.wait_for_selector(".table-row")
        assert "(open) \u00b7 (open)" in (page.text_content(".table-row .seats") or "")
    assert errors == []


def test_the_table_waits_for_a_fantasy_hand_to_be_set_first(tmp_path: Path) -> None:
    """With ``--seed 336``, ann placing every card in the lowest row with room lets the
    ``heuristic`` bot earn fantasy in hand 1 (found by playing the same decks in the engine).
    Hand 2 keeps hand 1's button; the bot sets its 13 cards first while ann waits."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--seed", "336", "--pause", "3", "--bot-delay", "4") as page:
        _create_table(page, preset="classic", seats="2", seat1="heuristic")
        page.wait_for_url("**/#/table/*")
        while True:
            _status(page, "your turn|showdown")
            if "showdown" in (page.text_content("#status") or ""):
                break
            _place_by_hand(page)
            placed = page.locator(PLACED).count()
            page.click("#confirm")
            page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")
        _status(page, "Hand 2: waiting for the fantasy hand of heuristic bot to be set first")
        assert page.is_hidden("#confirm") or not page.is_enabled("#confirm")
        page.screenshot(path=str(tmp_path / "fantasy-wait.png"), full_page=True)
        _status(page, "Hand 2: your turn")
        assert errors == []
