"""The browser table, issue 14's last parts: leaving a running match, seats shown disconnected
(two browser contexts), tables without hints, the hint's three choices, a Confirm answered
while a slow hint is worked out, and an accessibility check of the lobby and the table.

Real ``ofc serve`` processes and Debian's chromium driven by Playwright (see test_web_e2e).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket

from support.a11y_checks import audit
from test_web_e2e import WAIT_MS, _create_table, _lobby_as_ann, _status, click_and_confirm, second_player

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

BOARD = "#boards .board[data-seat='{seat}']"


def test_leaving_a_running_match_and_seats_shown_disconnected(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="classic", seats="2", seat1="person", fantasy="off", loss_limit="10")
        page.wait_for_url("**/#/table/1")
        _status(page, "Waiting for 1 more player")
        base = page.url.split("#")[0]
        bob = second_player(page, "bob", errors)
        bob.click(".table-row button.primary")  # Join
        bob.wait_for_url("**/#/table/1")
        _status(bob, "your turn|waiting for")
        _status(page, "your turn|waiting for")
        # both connected: no badge on either board
        page.wait_for_selector(BOARD.format(seat=1))
        assert page.locator(BOARD.format(seat=1) + " .badge.away").count() == 0
        assert page.is_visible("#playing-panel")
        # the confirmation: dismissed, nothing happens; accepted, the bot takes the seat over
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.click("#leave-match")
        assert page.is_visible("#playing-panel")
        assert click_and_confirm(page, "#leave-match") == [
            "Leave the match? The heuristic bot plays your seat to the end; your money stays at stake "
            "and the result goes to your balance."
        ]
        _status(page, "you left the match; the heuristic bot plays your seat")
        assert page.is_hidden("#playing-panel")
        assert page.is_hidden("#play-buttons") or not page.is_enabled("#confirm")
        # bob sees it on ann's board
        bob.wait_for_selector(BOARD.format(seat=0) + " .badge.away:text('left: the heuristic bot plays')")
        # and in the lobby's list of tables
        bob.goto(base)
        bob.click("#lobby-views button[data-view='playing']")
        bob.wait_for_selector(".table-row .seats:text('(left: the heuristic bot plays)')")
        assert bob.text_content(".table-row .seats") == "ann (left: the heuristic bot plays) \u00b7 bob"
        # bob's browser goes away: ann, still watching her seat, sees him disconnected
        bob.context.close()
        page.wait_for_selector(BOARD.format(seat=1) + " .badge.away:text('disconnected')")
        seats = page.request.get(base + "api/tables").json()["tables"][0]["seats"]
        assert [s["stand_in"] for s in seats] == ["heuristic", None]
    assert errors == []


def test_a_table_without_hints_and_the_accessibility_of_lobby_and_table(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        page.wait_for_selector("#lobby:not([hidden])")
        page.wait_for_selector("#seat-kinds select")
        assert audit(page) == []
        base = page.url.split("#")[0]
        # created and seated in one step: a stake the balance cannot cover leaves nothing behind
        _create_table(page, preset="classic", seats="2", seat1="random", loss_limit="2000")
        page.wait_for_selector("#create-error:text-matches('balance does not cover')")
        assert page.request.get(base + "api/tables").json()["tables"] == []
        assert page.request.get(base + "api/players/ann").status == 404
        page.uncheck("#create [name=hints]")
        _create_table(page, seats="2", seat1="random", fantasy="off", hand_seconds="600", loss_limit="20")
        page.wait_for_url("**/#/table/1")
        _status(page, "your turn")
        assert page.is_hidden("#hint")
        rules = page.text_content("#rules") or ""
        assert "Hintsoff: a game between people" in rules
        page.keyboard.press("h")  # the hint key does nothing here
        page.wait_for_timeout(300)
        assert (page.text_content("#advice") or "") == ""
        assert audit(page) == []
        page.set_viewport_size({"width": 390, "height": 844})  # and on a phone-sized screen
        assert audit(page) == []
    assert errors == []


def _frames(page: Page, seen: list[dict[str, Any]]) -> None:
    """Record every message the page's table socket receives, in order."""

    def watch(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: seen.append(json.loads(payload)))

    page.on("websocket", watch)


def _wait_for(
    seen: list[dict[str, Any]], page: Page, kind: str, timeout: float = WAIT_MS / 1000, also: str = ""
) -> dict[str, Any]:
    """The first recorded message of type ``kind`` (or ``also``); a hang guard of ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = next((m for m in seen if m.get("type") in (kind, also)), None)
        if found is not None:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"no {kind} message came")


def test_the_hints_choices_and_a_confirm_answered_while_a_slow_hint_runs(tmp_path: Path) -> None:
    errors: list[str] = []
    seen: list[dict[str, Any]] = []
    slow = ("--hint-bot", "pro:seconds=2")  # each hint thinks 2 s on the server
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0", *slow) as page:
        _frames(page, seen)
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="900")
        page.wait_for_url("**/#/table/1")
        _status(page, "your turn")
        page.click("#hint")
        hint = _wait_for(seen, page, "hint")
        choices = hint["choices"]
        assert len(choices) == 3  # the pro bot's three best, best first
        page.wait_for_selector("#choices:not([hidden]) button.choice")
        buttons = page.locator("#choices button.choice")
        assert buttons.count() == 3
        for index, choice in enumerate(choices):
            text = buttons.nth(index).text_content() or ""
            value = ("+" if round(choice["value"], 2) > 0 else "") + f"{choice['value']:.2f}".replace("-", "\u2212")
            shown = re.match(rf"^{index + 1}\. {re.escape(value)}, fouls ([\d.]+)%: ", text)
            assert shown, (text, value)
            assert abs(float(shown.group(1)) - 100 * choice["foul"]) <= 0.051  # one decimal at most
        # the board had not changed: the best choice is on it; the second is one click away
        assert buttons.nth(0).get_attribute("aria-pressed") == "true"
        assert audit(page) == []
        buttons.nth(1).click()
        assert buttons.nth(1).get_attribute("aria-pressed") == "true"
        for card, row in choices[1]["action"]["place"]:
            assert page.locator(f".board.mine .row[data-row={row}] .card.pending[data-card='{card}']").count() == 1
        # a card the player moves: the choices are no longer applied over the board
        card = choices[1]["action"]["place"][0][0]
        page.click(f".board.mine .card.pending[data-card='{card}']")
        page.click("#hand")
        assert page.locator("#hand .card").count() == 1
        assert buttons.nth(0).is_disabled()
        assert "not applied over them" in (page.text_content("#choices") or "")
        page.click("#reset")
        assert page.is_hidden("#choices")
        # a hint asked, then the cards placed and confirmed while it is worked out: the ack
        # comes first. (Sent in the same instant as the hint, the Confirm may even be handled
        # before the hint starts: the hint is then refused, not_your_turn, after the ack.)
        seen.clear()
        page.evaluate(
            """() => {
              document.getElementById('hint').click();
              for (const card of Array.from(document.querySelectorAll('#hand .card'))) {
                document.querySelector(`#hand .card[data-card="${card.dataset.card}"]`).click();
                document.querySelector('.board.mine .row[data-row=bottom]').click();
              }
              document.getElementById('confirm').click();
            }"""
        )
        answer = _wait_for(seen, page, "hint", also="error")
        kinds = [m["type"] for m in seen if m["type"] in ("ack", "hint", "error")]
        assert kinds[0] == "ack", kinds
        assert kinds[1:] == [answer["type"]], kinds
        if answer["type"] == "error":
            assert answer["code"] == "not_your_turn", answer
        page.wait_for_timeout(200)
        assert page.is_hidden("#error")  # nothing to tell the player about a hint for a decision made
        assert page.locator(".board.mine .row[data-row=bottom] .card:not(.pending)").count() == 5
        # the late answer is for a decision already made: nothing of it reaches the board
        assert page.locator(".board.mine .card.pending").count() == 0
    assert errors == []
