"""The browser keeps unplaced cards when the tab is closed and the link opened again, and the
hand history and its analysis draw cards as the table does (issue 37).

A real ``ofc serve`` and Debian's chromium driven by Playwright (see test_web_e2e).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route

from test_web_e2e import _create_table, _lobby_as_ann, _status

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

CODES = re.compile(r"\b[2-9TJQKA][cdhs]\b")
"""A card written as a code ("Ac", "Td"): what the history must not show."""

HISTORY = {
    "seat": 0,
    "name": "ann",
    "hands": [
        {
            "number": 0,
            "history": {
                "seats": ["ann", "bob"],
                "viewer": 0,
                "actions": [
                    {"seat": 0, "place": [["Ac", "bottom"], ["Kd", "bottom"], ["7h", "top"]], "discard": []},
                    {"seat": 1, "place": [["2s", "middle"]], "discard": [], "hidden_discards": 1},
                    {"seat": 0, "place": [["Th", "middle"], ["9c", "middle"]], "discard": ["3d"]},
                ],
                "result": {"players": [{"points": 3}, {"points": -3}]},
            },
        }
    ],
}
ANALYSIS = {
    "seat": 0,
    "total_loss": 2.5,
    "decisions": [
        {
            "index": 0, "street": 0, "kind": "street",
            "played": {"seat": 0, "place": [["Ac", "bottom"], ["Kd", "bottom"], ["7h", "top"]], "discard": []},
            "played_value": 1.0, "best": {"seat": 0, "place": [["Ac", "bottom"], ["Kd", "middle"], ["7h", "top"]],
                                          "discard": []},
            "best_value": 1.5, "loss": 0.5, "ci95": 0.4, "noise": 1.2, "within_noise": True, "flagged": False,
        },
        {
            "index": 2, "street": 1, "kind": "street",
            "played": {"seat": 0, "place": [["Th", "middle"], ["9c", "middle"]], "discard": ["3d"]},
            "played_value": -2.0, "best": {"seat": 0, "place": [["Th", "middle"], ["3d", "top"]], "discard": ["9c"]},
            "best_value": 0.0, "loss": 2.0, "ci95": 0.3, "noise": 0.9, "within_noise": False, "flagged": True,
        },
    ],
}  # fmt: skip


def _answer(body: object):  # type: ignore[no-untyped-def]
    def fulfil(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    return fulfil


def _pending(page: Page) -> list[tuple[str, str]]:
    found: list[list[str]] = page.eval_on_selector_all(
        ".board.mine .card.pending", "nodes => nodes.map((n) => [n.dataset.card, n.closest('.row').dataset.row])"
    )
    return sorted((card, row) for card, row in found)


def test_unplaced_cards_survive_the_tab_closed_and_the_link_opened_again(tmp_path: Path) -> None:
    """Two cards placed, not confirmed; the tab closed; the table's link opened in a new tab of the
    same browser (which shares local storage, not the closed tab's session storage): the two
    cards are on the board again, still tentative, and Confirm plays them with the rest."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="600")
        page.wait_for_url("**/#/table/*")
        _status(page, "your turn")
        cards = page.locator("#hand .card")
        cards.first.click()
        page.click(".board.mine .row[data-row=bottom]")
        cards.first.click()
        page.click(".board.mine .row[data-row=top]")
        placed = _pending(page)
        assert len(placed) == 2
        link = page.url
        context = page.context
        page.close()
        again = context.new_page()
        again.on("pageerror", lambda error: errors.append(str(error)))
        again.goto(link)
        _status(again, "your turn")
        assert again.evaluate("() => sessionStorage.length") == 0  # a new tab: nothing of the old session
        assert _pending(again) == placed
        assert again.locator("#hand .card").count() == 3
    assert errors == []


def test_the_history_and_its_analysis_draw_cards_not_codes(tmp_path: Path) -> None:
    """The hint lists its choices by the numbers it shows and says what they are. The hand history
    and the analysis of a hand (the server's answers stood in for) show every card as a drawn card
    with its spoken name, no card code in their text; the analysis labels a loss within noise as
    such and a mistake as a mistake."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="600")
        page.wait_for_url("**/#/table/*")
        _status(page, "your turn")
        # the hint's choices: the numbers shown are those it ranks by, best first, and one line says
        # what they are (or, on too few play-outs, that it is unsure and shows none)
        page.click("#hint")
        page.wait_for_selector("#choices .choices-note")
        note = page.text_content("#choices .choices-note") or ""
        texts = page.eval_on_selector_all("#choices button.choice", "nodes => nodes.map((n) => n.textContent)")
        assert 1 <= len(texts) <= 3
        numbers = [
            float(m.group(1).replace("\u2212", "-"))
            for t in texts
            if (m := re.match(r"\d\. ([+\u2212-]?\d+\.\d\d)", t))
        ]
        if note.startswith("Unsure"):
            assert numbers == []
        else:
            assert note == "Ranked by expected points less a charge for the risk of fouling."
            assert len(numbers) == len(texts)
            assert numbers == sorted(numbers, reverse=True)
        page.route(re.compile(r".*/api/tables/\d+/hands$"), _answer(HISTORY))
        page.route(re.compile(r".*/api/tables/\d+/hands/0/analysis$"), _answer(ANALYSIS))
        page.click("#show-history")
        page.wait_for_selector("#history-panel:not([hidden]) .history-hand")
        page.click(".history-hand summary")
        streets = page.locator("#history .streets")
        # 3 + 1 + 2 placed and 1 discarded: seven cards drawn, the bot's discard face-down in words
        assert streets.locator(".card").count() == 7
        labels = streets.locator(".card").evaluate_all("nodes => nodes.map((n) => n.getAttribute('aria-label'))")
        assert labels[:3] == ["ace of clubs", "king of diamonds", "seven of hearts"]
        text = streets.text_content() or ""
        assert CODES.findall(text) == []
        assert "1 discard face-down" in text
        page.click("#history button.analyse")
        page.wait_for_selector("#history .analysis-box p:text('Expected loss in this hand, in points')")
        box = page.locator("#history .analysis-box")
        # street 1: 3 played + 3 best; street 2: 2 placed + 1 discarded played, 2 + 1 best
        assert box.locator(".analysis .card").count() == 12
        assert CODES.findall(box.text_content() or "") == []
        items = box.locator(".analysis li")
        assert "within noise" in (items.nth(0).text_content() or "")
        assert "a mistake" not in (items.nth(0).text_content() or "")
        assert "a mistake" in (items.nth(1).text_content() or "")
        assert "as the hint ranks them" in (box.text_content() or "")
    assert errors == []
