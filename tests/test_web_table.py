"""The browser table (issue 14): keyboard play, controls, placements kept, the showdown panel,
plain-word errors, the share link and rules, and screenshots free of overlapping elements.

Real ``ofc serve`` processes and Debian's chromium driven by Playwright (see test_web_e2e).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, sync_playwright

from support.server import ServerProcess
from test_web_e2e import CHROMIUM, FLAGS, PLACED, _create_table, _lobby_as_ann, _status, new_page

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process

WIDE = ViewportSize(width=1366, height=800)
PHONE = ViewportSize(width=390, height=844)
CARD_NAME = re.compile(
    r"^(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of (clubs|diamonds|hearts|spades)$"
)

# Every pair of these elements (visible ones), neither inside the other, must not overlap;
# nor may two cards of one row or of the hand.
OVERLAP_CHECK = """() => {
  const picks = ["header.bar", "#status", "#boards > .board", "#my-board .board", "#hand", "#discard-zone",
                 "#play-buttons", "#advice", ".side > .panel"];
  const nodes = [];
  for (const sel of picks) for (const n of document.querySelectorAll(sel)) {
    const r = n.getBoundingClientRect();
    const style = getComputedStyle(n);
    if (r.width && r.height && style.visibility !== "hidden") nodes.push([sel, n, r]);
  }
  const clash = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const found = [];
  for (let i = 0; i < nodes.length; i += 1) for (let j = i + 1; j < nodes.length; j += 1) {
    const [sa, na, ra] = nodes[i]; const [sb, nb, rb] = nodes[j];
    if (na.contains(nb) || nb.contains(na)) continue;
    if (clash(ra, rb)) found.push(`${sa} / ${sb}`);
  }
  for (const line of document.querySelectorAll(".row, #hand")) {
    const cards = Array.from(line.querySelectorAll(":scope > .card, :scope > .slot"))
      .map((c) => c.getBoundingClientRect());
    for (let i = 0; i < cards.length; i += 1) for (let j = i + 1; j < cards.length; j += 1) {
      if (clash(cards[i], cards[j])) found.push(`cards of ${line.dataset.row || line.id}`);
    }
  }
  return found;
}"""


def _overlaps(page: Page) -> list[str]:
    result: list[str] = page.evaluate(OVERLAP_CHECK)
    return result


def _rows_explain_points(page: Page) -> None:
    """The rows won and scoops the panel shows, scored by RULES.md (classic: 2 a row; american:
    1 a row, a scoop 3 more) plus the royalty difference, give the engine's points per pair."""
    page.wait_for_selector("#showdown .vs-line[data-computed]")
    pairs = page.eval_on_selector_all(
        "#showdown .vs-line", "nodes => nodes.map((n) => [n.dataset.points, n.dataset.computed, n.textContent])"
    )
    assert pairs
    for points, computed, text in pairs:
        assert float(points) == float(computed), text
        assert re.search(r"top ([+\u2212][12]|0) mid ([+\u2212][12]|0) bot ([+\u2212][12]|0)", text), text


def _focus_first_card(page: Page) -> None:
    """Tab (keyboard only) until a card of the hand has the focus."""
    for _ in range(80):
        if page.evaluate("() => Boolean(document.activeElement.closest && document.activeElement.closest('#hand'))"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("no card of the hand takes the keyboard focus")


# Every element that takes the focus or a click has a name a screen reader can say, and every
# card drawn has one ("ace of hearts", "face-down card").
UNNAMED = """() => {
  const named = (n) => (n.getAttribute('aria-label') || n.textContent || '').trim()
    || (n.id && document.querySelector(`label[for="${n.id}"]`)) || n.closest('label') || n.placeholder;
  const all = document.querySelectorAll('button, a[href], input, select, [tabindex], [role=img], .card');
  return Array.from(all).filter((n) => n.getClientRects().length && !named(n)).map((n) => n.outerHTML.slice(0, 80));
}"""


def _room(page: Page, row: str) -> int:
    return page.locator(f".board.mine .row[data-row={row}] .slot").count()


def test_a_whole_hand_played_with_the_keyboard_only(tmp_path: Path) -> None:
    """Pineapple against a bot: Tab to the cards, b/m/t for the rows, d to discard, c to confirm.

    Five streets (5 cards, then four times 3 with one discarded) fill the 13 places."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="pineapple", seats="2", seat1="random", fantasy="off", hand_seconds="600")
        page.wait_for_url("**/#/table/*")
        streets = 0
        while True:
            _status(page, "your turn|showdown")
            if "showdown" in (page.text_content("#status") or ""):
                break
            streets += 1
            assert page.title().startswith("\u25cf Your turn")
            assert page.is_visible("#play-buttons")
            if streets == 2:  # a turn with a discard: the table at both sizes, nothing overlapping
                for size, name in ((PHONE, "phone"), (WIDE, "wide")):
                    page.set_viewport_size(size)
                    page.screenshot(path=str(tmp_path / f"turn-{name}.png"), full_page=True)
                    assert _overlaps(page) == [], name
            assert page.evaluate(UNNAMED) == []
            _focus_first_card(page)
            label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            assert CARD_NAME.match(label), label
            outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("", "none"), outline  # the focus is visible
            while page.locator("#hand .card").count():
                if page.is_visible("#discard-zone") and not page.locator("#discard-zone .card").count():
                    page.keyboard.press("d")
                    continue
                row = next(r for r in ("bottom", "middle", "top") if _room(page, r) > 0)
                page.keyboard.press(row[0])
            placed = page.locator(PLACED).count()
            page.keyboard.press("c")
            page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")
            # not this player's turn any more: no Confirm, Reset or Hint to press (status and
            # buttons read in one step, since the bot's reply may already have made it her turn)
            status, buttons_shown = page.evaluate(
                "() => [document.getElementById('status').textContent,"
                " getComputedStyle(document.getElementById('play-buttons')).visibility === 'visible']"
            )
            if "your turn" not in status:
                assert not buttons_shown
        assert streets == 5
        _rows_explain_points(page)
        assert page.locator(".board.mine .card").count() == 13
        assert page.is_hidden("#play-buttons")
        # the hand history as ann may see it: her discards shown, the bot's face-down
        page.click("#show-history")
        page.wait_for_selector("#history-panel:not([hidden]) .history-hand")
        page.click(".history-hand summary")
        text = page.text_content("#history") or ""
        assert text.count("1 discard face-down") == 4
        assert text.count("ann: ") == 5
        assert page.locator("#history a[download]").count() == 1
        # each of her five decisions against the analysis's best choice, and the hand's total
        page.click("#history button.analyse")
        page.wait_for_selector("#history .analysis-box p:text('Expected loss in this hand, in points')")
        decisions = page.locator("#history .analysis li")
        assert decisions.count() == 5
        first = decisions.first.text_content() or ""
        assert first.startswith("Street 1: you played "), first
        assert page.is_disabled("#history button.analyse")  # worked out once
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(tmp_path / "analysis-phone.png"), full_page=True)
        assert _overlaps(page) == []
        # and the player's stats in the lobby: one pineapple hand
        page.goto(page.url.split("#")[0] + "#/")
        page.wait_for_selector("#stats table")
        assert (page.text_content("#stats tr:nth-child(2) td") or "") == "pineapple"
        assert (page.text_content("#stats tr:nth-child(2) td:nth-child(2)") or "") == "1"
    assert errors == []


def test_placements_survive_a_reload_and_a_server_restart(tmp_path: Path) -> None:
    """One card placed, not confirmed: a reload keeps it; with the server down the board says
    "Disconnected" and takes no clicks; back up, the placement is still there."""
    errors: list[str] = []
    db = f"sqlite:///{tmp_path / 'ofc.db'}"
    server = ServerProcess(db, tmp_path, "--pause", "60", "--bot-delay", "0").start()
    try:
        with sync_playwright() as play:
            browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            page = new_page(browser, viewport=WIDE)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.base + "/")
            page.fill("#player-name", "ann")
            page.dispatch_event("#player-name", "change")
            _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="600")
            page.wait_for_url("**/#/table/*")
            _status(page, "your turn")
            first = page.locator("#hand .card").first.get_attribute("data-card")
            page.locator("#hand .card").first.click()
            page.click(".board.mine .row[data-row=bottom]")
            assert page.locator(".board.mine .card.pending").count() == 1
            page.reload()
            _status(page, "your turn")
            assert page.locator(".board.mine .card.pending").get_attribute("data-card") == first
            server.kill()
            page.wait_for_selector("#offline:not([hidden])")
            assert "Disconnected" in (page.text_content("#offline") or "")
            second = page.locator("#hand .card").first
            second.click(force=True)  # the board takes no clicks while disconnected
            assert page.locator(".board.mine .card.pending").count() == 1
            assert page.locator(".card.selected").count() == 0
            server.start()
            page.wait_for_selector("#offline", state="hidden")
            _status(page, "your turn")
            assert page.locator(".board.mine .card.pending").get_attribute("data-card") == first
            browser.close()
    finally:
        server.kill()
    assert errors == []


def test_a_late_hint_is_offered_not_applied(tmp_path: Path) -> None:
    """Hint asked, then a card placed before the answer: the placement stays, the hint waits
    behind "Use the hint" (the answer cannot come in while one script runs)."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="600")
        page.wait_for_url("**/#/table/*")
        _status(page, "your turn")
        card = page.evaluate(
            """() => {
              document.getElementById('hint').click();
              const card = document.querySelector('#hand .card');
              card.click();
              document.querySelector('.board.mine .row[data-row=top]').click();
              return card.dataset.card;
            }"""
        )
        page.wait_for_selector("#use-hint:not([hidden])")
        assert "your own placements are kept" in (page.text_content("#advice") or "")
        pending = page.locator(".board.mine .card.pending")
        assert pending.count() == 1
        assert pending.get_attribute("data-card") == card
        assert page.locator(".board.mine .row[data-row=top] .card.pending").count() == 1
        page.click("#use-hint")
        # the hint places all five cards of the first street
        assert page.locator(".board.mine .card.pending").count() == 5
        assert page.is_enabled("#confirm")
    assert errors == []


def test_showdown_panel_rules_share_link_and_no_overlaps(tmp_path: Path) -> None:
    """A turbo hand the server's clock plays for ann (3 s a street, no bank): the showdown
    panel stays with per-opponent points; the rules and the share link are shown; the
    screenshots at 1366x800 and 390x844 have no overlapping elements."""
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "600", "--bot-delay", "0") as page:
        clocks = {"hand_seconds": "3", "time_bank_seconds": "0"}
        _create_table(
            page, preset="turbo", seats="3", seat1="random", seat2="random", fantasy="off", point_value="0.5", **clocks
        )
        page.wait_for_url("**/#/table/1")
        # 3 s on the clock is under the 15 s warning threshold
        page.wait_for_selector("#low-time:text-matches('placed automatically')")
        # a spectator in another browser is told when ann's cards were placed for her
        watcher = new_page(page.context.browser)  # type: ignore[arg-type]
        watcher.goto(page.url)
        watcher.wait_for_selector("#notice:text-matches('ann: time ran out, cards placed automatically')")
        watcher.context.close()
        page.wait_for_selector("#showdown-panel:not([hidden])")
        assert page.locator("#showdown .result").count() == 3
        # each player's line against the two others, e.g. "vs random bot +2"
        assert page.locator("#showdown .vs-line").count() == 6
        _rows_explain_points(page)
        assert page.locator("#showdown .result-title").first.text_content().count("total") == 1  # type: ignore[union-attr]
        assert "placed automatically" in (page.text_content("#notice") or "")
        rules = page.text_content("#rules") or ""
        assert "turbo" in rules
        assert "0.5" in rules
        assert "Loss limit" in rules
        assert page.input_value("#share-link").endswith("#/table/1")
        for size, name in ((WIDE, "wide"), (PHONE, "phone")):
            page.set_viewport_size(size)
            page.screenshot(path=str(tmp_path / f"table-{name}.png"), full_page=True)
            assert _overlaps(page) == [], name
        page.set_viewport_size(WIDE)
        page.click("#showdown-close")
        assert page.is_hidden("#showdown-panel")
        assert page.request.get(page.url.split("#")[0] + "favicon.svg").status == 200
    assert errors == []


def test_errors_are_plain_words_and_a_stale_token_is_forgotten(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--bot-delay", "0") as page:
        base = page.url.split("#")[0].rstrip("/")
        # someone else called ann holds the name (and its key) already
        table = page.request.post(
            base + "/api/tables", data={"preset": "classic", "seats": 2, "bots": [None, None]}
        ).json()
        page.request.post(base + f"/api/tables/{table['id']}/join", data={"name": "ann"})
        _create_table(page, seats="2", seat1="heuristic")
        page.wait_for_selector("#create-error:text-matches('belongs to another player')")
        text = page.text_content("#create-error") or ""
        # refused before the table was created: no empty table left behind
        assert len(page.request.get(base + "/api/tables").json()["tables"]) == 1
        assert "bad_key" not in text
        assert "Error" not in text
        # a seat token that the server does not know: forgotten, and the page watches
        page.evaluate(f"() => localStorage.setItem('ofc-seat-{table['id']}', 'not-a-token')")
        page.goto(base + f"/#/table/{table['id']}")
        page.wait_for_function(f"() => localStorage.getItem('ofc-seat-{table['id']}') === null")
        page.wait_for_selector("#error:not([hidden])")
        assert "watching" in (page.text_content("#error") or "")
        # row keys, worked out from RULES.md (ranks as indexes: 2 -> 0 ... A -> 12)
        keys = page.evaluate(
            """async () => { const m = await import('/rows.js'); return [
              ['Ah', '2d', '3c', '4s', '5h'], ['2h', '3d', '4c', '5s', '6h'], ['Kh', 'Kd', 'Kc', '9s', '9h'],
              ['Ah', 'Qh', '9h', '4h', '2h'], ['Qh', 'Qd', 'Kc'], ['7h', '7d', '7c'], ['Ts', 'Js', 'Qs', 'Ks', 'As'],
            ].map(m.rowKey); }"""
        )
        # wheel: a straight to the 5 (index 3); 2-6: to the 6; kings full of nines; an ace-high
        # flush; a top pair of queens with a king; top trips; the royal flush a straight flush to the ace
        assert keys == [[4, 3], [4, 4], [6, 11, 7], [5, 12, 10, 7, 2, 0], [1, 10, 11], [3, 5], [8, 12]]
        # a wins all three rows from b (a scoop). Royalties (RULES.md): a's top AA 9 + bottom
        # straight 2 = 11, b none. American: 3 rows + 3 scoop bonus + 11 = 17; classic: 3 x 2 + 11
        # = 17. b against a fouled a (royalties 0): b wins every row, a scoop: 6
        board_a = {
            "top": ["Ah", "Ad", "2c"],
            "middle": ["Kh", "Kd", "3c", "4c", "5s"],
            "bottom": ["9h", "Td", "Jc", "Qs", "Kc"],
        }
        board_b = {
            "top": ["2h", "3d", "4s"],
            "middle": ["Qh", "Qd", "3h", "4h", "6s"],
            "bottom": ["9s", "9d", "2s", "7c", "8c"],
        }
        scored = page.evaluate(
            """async ([a, b]) => { const m = await import('/rows.js');
              const p = { board: a, fouled: false, royalties: { total: 11 } };
              const q = { board: b, fouled: false, royalties: { total: 0 } };
              return [m.rowsAgainst(p, q), m.pairPoints(p, q, { scoring: 'american' }),
                      m.pairPoints(p, q, { scoring: 'classic' }),
                      m.pairPoints(q, { ...p, fouled: true, royalties: { total: 0 } }, { scoring: 'american' })]; }""",
            [board_a, board_b],
        )
        assert scored[0] == {"rows": [1, 1, 1], "scoop": 1}
        assert scored[1:] == [17, 17, 6]
        # the reconnection pause grows from about half a second to at most 15 s
        delays = page.evaluate(
            "async () => { const m = await import('/net.js'); return [0, 1, 2, 12].map(m.backoff); }"
        )
        assert 375 <= delays[0] <= 625
        assert 750 <= delays[1] <= 1250
        assert 1500 <= delays[2] <= 2500
        assert 11_250 <= delays[3] <= 18_750
    assert errors == []
