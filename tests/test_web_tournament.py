"""End to end: one person and two bots play a short sit-and-go tournament in chromium.

The person clicks every card into place; the tournament (60 chips each, one hand a level,
1, 5, 20 then 100 chips a point) runs until one player is left; the results panel shows the
places and prizes, and the prize lands in the balance shown at the top. Screenshots at
1366x800 and 390x844 land in the test's temporary folder.
"""

from __future__ import annotations

import json
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize

from test_web_e2e import PLACED, _create_table, _lobby_as_ann, _place_by_hand, _status, click_and_confirm

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

WIDE = ViewportSize(width=1366, height=800)
PHONE = ViewportSize(width=390, height=844)


def _shots(page: Page, folder: Path, name: str) -> None:
    """Screenshots of the page as a desktop and as a phone sees it (then back to desktop)."""
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(folder / f"{name}-wide.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(folder / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(WIDE)


def _balance(base: str, name: str) -> Fraction:
    with urllib.request.urlopen(f"{base}/api/players/{name}", timeout=180) as response:
        return Fraction(json.loads(response.read())["balance"])


def test_one_person_and_two_bots_play_a_tournament_to_the_end(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "1", "--bot-delay", "0") as page:
        page.select_option("#create [name=kind]", "tournament")
        assert page.is_visible("#tournament-fields")
        assert page.is_hidden("#match-fields")
        _shots(page, tmp_path, "lobby")
        fields = {"buy_in": "100", "starting_chips": "60", "level_hands": "1", "chips_per_point": "1,5,20,100"}
        fields |= {"payouts": "0.7,0.3", "fantasy": "off"}
        _create_table(page, preset="pineapple", seats="3", seat1="random", seat2="heuristic", **fields)
        page.wait_for_url("**/#/table/1")
        page.wait_for_function("() => /balance 900\\.00/.test(document.getElementById('balance').textContent)")
        page.wait_for_selector("#tournament-panel:not([hidden])")
        assert page.is_hidden("#ledger-panel")
        assert "Level 1: 1 chip a point, 1 hand left at this level, then 5." in (page.text_content("#tournament") or "")
        assert page.locator(".board .badge.chips").first.text_content() == "60 chips"
        turns = 0
        while True:
            _status(page, "your turn|tournament is over")
            if "tournament is over" in (page.text_content("#status") or ""):
                break
            if turns in (1, 5):  # the first hand's second street; the second hand, at level 2
                _shots(page, tmp_path, f"playing-{turns}")
            _place_by_hand(page)
            placed = page.locator(PLACED).count()
            page.click("#confirm")
            page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")
            turns += 1
        assert turns >= 5  # at least one whole hand clicked through
        page.wait_for_selector("#after:not([hidden])")
        assert page.text_content("#tournament-title") == "Tournament results"
        assert page.text_content("#after-title") == "Tournament over"
        rows = page.locator("#tournament table.standings tr")
        assert rows.count() == 4
        places = [rows.nth(i).locator("td.place").text_content() for i in range(1, 4)]
        assert places in (["1st", "2nd", "3rd"], ["1st", "2nd\u20133rd (tied)", "2nd\u20133rd (tied)"])
        prizes = [Fraction(rows.nth(i).locator("td").nth(4).text_content() or "") for i in range(1, 4)]
        assert prizes in ([210, 90, 0], [210, 45, 45])  # 300 paid 70% / 30%, ties share
        names = [rows.nth(i).locator("td").first.text_content() for i in range(1, 4)]
        mine = prizes[names.index("ann")]
        balance = _balance(page.url.split("/#")[0], "ann")
        assert balance == 900 + mine
        page.wait_for_function(
            f"() => document.getElementById('balance').textContent === 'balance {float(balance):,.2f}'"
        )
        _shots(page, tmp_path, "results")
    assert errors == []


def test_leaving_a_running_tournament_the_bot_plays_on_and_the_prize_is_paid(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "1", "--bot-delay", "0") as page:
        page.select_option("#create [name=kind]", "tournament")
        fields = {"buy_in": "100", "starting_chips": "60", "level_hands": "1", "chips_per_point": "1,5,20,100"}
        fields |= {"payouts": "0.7,0.3", "fantasy": "off"}
        _create_table(page, preset="pineapple", seats="3", seat1="random", seat2="heuristic", **fields)
        page.wait_for_url("**/#/table/1")
        _status(page, "your turn")
        assert page.text_content("#leave-match") == "Leave the tournament"
        assert page.text_content("#leave-match-note") == (
            "A bot then plays your seat to the end; any prize goes to your balance."
        )
        assert click_and_confirm(page, "#leave-match") == [
            "Leave the tournament? The heuristic bot plays your seat to the end; any prize goes to your balance."
        ]
        _status(page, "you left the tournament; the heuristic bot plays your seat|tournament is over")
        assert page.is_hidden("#playing-panel")
        _status(page, "tournament is over")
        rows = page.locator("#tournament table.standings tr")
        names = [rows.nth(i).locator("td").first.text_content() for i in range(1, 4)]
        prizes = [Fraction(rows.nth(i).locator("td").nth(4).text_content() or "") for i in range(1, 4)]
        assert prizes in ([210, 90, 0], [210, 45, 45])  # 300 paid 70% / 30%, ties share
        assert _balance(page.url.split("/#")[0], "ann") == 900 + prizes[names.index("ann")]
    assert errors == []
