"""The browser client in Russian and Ukrainian (issue 18): catalogs, server payloads, Playwright.

Exact texts come from the ``web`` catalogs and, for hand names, from the Python side of the
same catalogs (``ofc.i18n.localize`` of ``ofc.rules.ranking.hand_name``): the page must name each
row's cards exactly as the terminal would. Plural forms are worked out by hand from the rule
Russian and Ukrainian share (1, 21 -> form 0 "очко"/"бал"; 2-4, 22-24 -> form 1
"очка"/"бали"; 0, 5-20, 25-30 -> form 2 "очков"/"балів").

Screenshots land in ``$OFC_SCREENSHOTS`` when set (to look at them), else in the test's
temporary folder: ``OFC_SCREENSHOTS=shots .venv/bin/python -m pytest tests/test_web_i18n.py``.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Page, ViewportSize, sync_playwright

from ofc.i18n import localize
from ofc.i18n.extract import check_catalogs
from ofc.i18n.language import Language
from ofc.rules.cards import parse_cards
from ofc.rules.errors import OfcError
from ofc.rules.ranking import hand_name, rank3, rank5
from ofc.rules.terms import Term
from ofc.server.net.protocol import error_message, with_hand_phrases
from support.server import ServerProcess, make_app
from test_web_e2e import CHROMIUM, FLAGS, PLACED, _place_by_hand, new_context

PHONE: ViewportSize = {"width": 390, "height": 844}
WIDE: ViewportSize = {"width": 1280, "height": 860}
LANGUAGES: dict[str, Language] = {"ru": "ru", "uk": "uk"}

# A card as a screen reader says it: the rank, then the suit in the genitive plural
# (ru "туз червей", "десятка пик"; uk "туз чирв", "дама пік").
RU_RANKS = ["туз", "король", "дама", "валет", "десятка", "девятка", "восьмёрка", "семёрка", "шестёрка"]
UK_RANKS = ["туз", "король", "дама", "валет", "десятка", "дев'ятка", "вісімка", "сімка", "шістка"]
RANKS = {
    "ru": dict(zip("AKQJT98765432", [*RU_RANKS, "пятёрка", "четвёрка", "тройка", "двойка"], strict=True)),
    "uk": dict(zip("AKQJT98765432", [*UK_RANKS, "п'ятірка", "четвірка", "трійка", "двійка"], strict=True)),
}
SUITS = {
    "ru": {"c": "треф", "d": "бубен", "h": "червей", "s": "пик"},
    "uk": {"c": "треф", "d": "бубон", "h": "чирв", "s": "пік"},
}

# Everything a phone player reads, word for word, per language.
RU_CLICK = "Нажмите карту, затем бокс (или перетащите; клавиши: t m b d, c — подтвердить)."
UK_CLICK = "Натисніть карту, потім бокс (або перетягніть; клавіші: t m b d, c — підтвердити)."
WORDS: dict[str, dict[str, Any]] = {
    "ru": {
        "tables": "Столы",
        "confirm": "Подтвердить",
        "hint": "Подсказка",
        "choice": r"^1\. [+\-\u2212]?\d+,\d\d, мёртвая \d+(,\d)?\s?%: ",
        "choice_spoken": "мёртвая рука в ",
        "street1": "Раздача 1: ваш ход — положите 5. " + RU_CLICK,
        "street2": "Раздача 1: ваш ход — положите 2, сбросьте 1. " + RU_CLICK,
        "top_target": "верхний бокс, свободно: 3 (Enter или t: положить выбранную карту)",
        "showdown": "Вскрытие, раздача 1",
        "vs": r"против .+: верх ([+\u2212][12]|0) сред\. ([+\u2212][12]|0) низ ([+\u2212][12]|0)"
        r"(, победа во всех трёх боксах|, проигрыш во всех трёх боксах)?( [+\u2212]3)?"
        r"(, бон\. [+\u2212]\d+)? → ([+\u2212]?\d+)",
        "total": "итого {points} {word}",
        "point": ("очко", "очка", "очков"),
        "fouled": "МЁРТВАЯ РУКА",
        "ledger": ["", "очки", "деньги"],
        "bad_name": "Проверьте форму: name: только латинские буквы, цифры, пробелы и _ . -",
        "seat": "Место 2",
        "placeholder": "ваше имя",
        "two_points": "итого +2 очка",
    },
    "uk": {
        "tables": "Столи",
        "confirm": "Підтвердити",
        "hint": "Підказка",
        "choice": r"^1\. [+\-\u2212]?\d+,\d\d, мертва \d+(,\d)?\s?%: ",
        "choice_spoken": "мертва рука в ",
        "street1": "Роздача 1: ваш хід — покладіть 5. " + UK_CLICK,
        "street2": "Роздача 1: ваш хід — покладіть 2, скиньте 1. " + UK_CLICK,
        "top_target": "верхній бокс, вільно: 3 (Enter або t: покласти вибрану карту)",
        "showdown": "Розкриття, роздача 1",
        "vs": r"проти .+: верх ([+\u2212][12]|0) сер\. ([+\u2212][12]|0) низ ([+\u2212][12]|0)"
        r"(, перемога в усіх трьох боксах|, поразка в усіх трьох боксах)?( [+\u2212]3)?"
        r"(, бон\. [+\u2212]\d+)? → ([+\u2212]?\d+)",
        "total": "разом {points} {word}",
        "point": ("бал", "бали", "балів"),
        "fouled": "МЕРТВА РУКА",
        "ledger": ["", "бали", "гроші"],
        "bad_name": "Перевірте форму: name: лише латинські літери, цифри, пробіли та _ . -",
        "seat": "Місце 2",
        "placeholder": "ваше ім’я",
        "two_points": "разом +2 бали",
    },
}

# Visible text boxes whose text is wider than the box (clipped or spilling out), and whether
# the page itself is wider than the screen (a sideways scroll on a phone).
OVERFLOW = """() => {
  const boxes = document.querySelectorAll(
    'button, .button, label, select, h2, h3, th, td, .badge, .status, .panel, .board, .hand-name, ' +
    '.vs span, .result-title, .bar, .notice, .advice, .toast, .k-panel, .k-bar, p');
  const wide = [];
  for (const node of boxes) {
    if (!node.getClientRects().length) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden') continue;
    if (node.scrollWidth > node.clientWidth + 1 && style.overflowX !== 'auto' && style.overflowX !== 'scroll') {
      const text = (node.textContent || '').trim().slice(0, 50);
      wide.push(`${node.tagName}.${node.className} "${text}" ${node.scrollWidth}>${node.clientWidth}`);
    }
  }
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth + 1) wide.push(`page ${page}>${window.innerWidth}`);
  return wide;
}"""


def _plural(n: int) -> int:
    """The Russian and Ukrainian plural form of ``n``, by hand: 1 очко, 2 очка, 5 очков."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def _shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("OFC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    path = _shots_dir(tmp_path) / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def _no_overflow(page: Page, where: str) -> None:
    wide: list[str] = page.evaluate(OVERFLOW)
    assert wide == [], f"{where}: text wider than its box: {wide}"


@contextmanager
def _browser(tmp_path: Path, errors: list[str], *server_args: str) -> Iterator[tuple[ServerProcess, Any]]:
    """A real ``ofc serve`` and a headless chromium; page errors go into ``errors``."""
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: run scripts/services (scripts/test does)"
    db = f"sqlite:///{tmp_path / 'ofc.db'}"
    with ServerProcess(db, tmp_path, *server_args) as server, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield server, browser
        finally:
            browser.close()


def _phone(browser: Any, errors: list[str], locale: str) -> Page:
    context = new_context(browser, viewport=PHONE, locale=locale, device_scale_factor=1)
    page: Page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def _language(page: Page, code: str) -> None:
    page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
    page.wait_for_selector("#lobby:not([hidden])")


def _play_a_hand(page: Page, lang: str, tmp_path: Path) -> None:
    """Pineapple against a random bot on a phone, every street clicked, to the showdown."""
    words = WORDS[lang]
    page.fill("#player-name", "анна")  # a Cyrillic name: the server refuses it, in the player's words
    page.dispatch_event("#player-name", "change")
    page.select_option("#create [name=seats]", "2")
    page.select_option("#create [name=seat1]", "random")
    page.click("#create button[type=submit]")
    page.wait_for_function("() => document.getElementById('create-error').textContent")
    assert page.text_content("#create-error") == words["bad_name"]
    page.fill("#player-name", "anna")
    page.dispatch_event("#player-name", "change")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/#/table/*")
    streets = 0
    while True:
        page.wait_for_function(
            "() => document.querySelector('#showdown-panel:not([hidden]), .board.mine .row.target')",
        )
        if page.is_visible("#showdown-panel"):
            break
        streets += 1
        status = page.text_content("#status")
        if streets == 1:
            assert status == words["street1"]
            assert page.get_attribute(".board.mine .row[data-row=top]", "aria-label") == words["top_target"]
            assert page.text_content("#confirm") == words["confirm"]
            assert page.text_content("#hint") == words["hint"]
            for card in page.eval_on_selector_all("#hand .card", "nodes => nodes.map((n) => n.dataset.card)"):
                label = page.get_attribute(f'#hand .card[data-card="{card}"]', "aria-label")
                assert label == f"{RANKS[lang][card[0]]} {SUITS[lang][card[1]]}"
        if streets == 2:
            assert status == words["street2"]
            _no_overflow(page, f"{lang} street 2")
            _shot(page, tmp_path, f"{lang}-street2")
            # the hint's choices: expected points and the share of fouled play-outs, in the language
            page.click("#hint")
            page.wait_for_selector("#choices:not([hidden]) button.choice")
            first = page.locator("#choices button.choice").first
            assert re.match(words["choice"], first.text_content() or ""), first.text_content()
            assert words["choice_spoken"] in (first.get_attribute("aria-label") or "")
            _no_overflow(page, f"{lang} hint choices")
            _shot(page, tmp_path, f"{lang}-hint")
            page.click("#reset")
        _place_by_hand(page)
        placed = page.locator(PLACED).count()
        page.click("#confirm")
        page.wait_for_function(f"() => document.querySelectorAll('{PLACED}').length > {placed}")
    assert streets == 5
    page.wait_for_selector("#showdown .vs span")
    _showdown_words(page, lang)
    _no_overflow(page, f"{lang} showdown")
    _shot(page, tmp_path, f"{lang}-showdown")
    page.set_viewport_size(WIDE)  # the side panel is narrow on a wide screen: the words must fit too
    _no_overflow(page, f"{lang} showdown, wide")
    _shot(page, tmp_path, f"{lang}-showdown-wide")
    page.set_viewport_size(PHONE)


def _showdown_words(page: Page, lang: str) -> None:
    words = WORDS[lang]
    assert page.text_content("#showdown-title") == words["showdown"]
    results = page.locator("#showdown .result")
    assert results.count() == 2
    for index in range(2):
        result = results.nth(index)
        for row in range(3):
            line = result.locator(".result-row").nth(row)
            texts = line.locator(".card").evaluate_all("nodes => nodes.map((n) => n.dataset.card)")
            cards = parse_cards(" ".join(texts))
            phrase = hand_name(rank3(cards) if row == 0 else rank5(cards))
            assert line.locator(".hand-name").text_content() == localize(
                phrase.template, phrase.params, LANGUAGES[lang]
            )
        total = result.locator(".result-title span").first.text_content() or ""
        points = int(re.sub(r"[^\d-]", "", total.replace("+", "").replace("\u2212", "-")))
        signed = f"+{points}" if points > 0 else str(points).replace("-", "\u2212")  # the typographic minus
        assert total == words["total"].format(points=signed, word=words["point"][_plural(points)])
        if "fouled" in (result.get_attribute("class") or ""):
            assert result.locator(".badge.foul").text_content() == words["fouled"]
        vs = result.locator(".vs span").first.text_content() or ""
        assert re.fullmatch(words["vs"], vs), vs
    assert page.locator("#ledger th").all_text_contents() == words["ledger"]


def _page_tr(page: Page, script: str) -> Any:
    """Run ``script`` with the page's own i18n module (the catalog it loaded) as ``m``."""
    return page.evaluate(f"async () => {{ const m = await import('/i18n.js'); return {script}; }}")


# ---------------------------------------------------------------------- catalogs and payloads


def test_the_web_domain_is_translated_completely() -> None:
    assert [problem for problem in check_catalogs() if "/web:" in problem] == []


def test_an_error_message_carries_the_language_neutral_fields() -> None:
    error = OfcError("the {row} row is full", row=Term("row", "top"))
    message = error_message("illegal", str(error), 7, error)
    assert message == {
        "type": "error",
        "code": "illegal",
        "message": "the top row is full",
        "id": 7,
        "kind": "OfcError",
        "template": "the {row} row is full",
        "params": {"row": {"term": "top", "context": "row"}},
    }
    assert error_message("busy", "wait") == {"type": "error", "code": "busy", "message": "wait", "id": None}


def test_hand_names_go_out_with_their_phrases() -> None:
    # Qh Qd 2c: a pair of queens, "Pair, queens" (RULES.md hand ranking); 9h 9d 9c 3s 4s: trips, nines
    top = hand_name(rank3(parse_cards("Qh Qd 2c")))
    middle = hand_name(rank5(parse_cards("9h 9d 9c 3s 4s")))
    sent = with_hand_phrases({"result": {"players": [{"hands": [top, middle, "plain"]}]}, "hands": []})
    player = sent["result"]["players"][0]
    assert player["hands"] == ["Pair, queens", "Trips, nines", "plain"]

    def phrase(category: str, ranks: str) -> dict[str, Any]:
        params = {"category": {"term": category, "context": "hand"}, "ranks": {"term": ranks, "context": "ranks"}}
        return {"template": "{category}, {ranks}", "params": params}

    assert player["hand_phrases"] == [phrase("Pair", "queens"), phrase("Trips", "nines"), None]
    assert "hand_phrases" not in sent
    assert json.loads(json.dumps(sent)) == sent
    assert localize(top.template, top.params, "ru") == "Пара: дамы"


def test_a_refused_table_says_what_and_how_to_translate_it(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        answer = client.post("/api/tables", json={"preset": "no-such-game", "seats": 2, "bots": [None, "random"]})
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error["code"] == "bad_table"
        assert set(error) == {"code", "message", "field", "template", "params"}
        assert isinstance(error["template"], str)
        assert isinstance(error["params"], dict)
        assert "no-such-game" in error["message"]


# ---------------------------------------------------------------------- the browser


@pytest.mark.slow
def test_a_whole_hand_in_russian_on_a_phone_chosen_by_accept_language(tmp_path: Path) -> None:
    errors: list[str] = []
    with _browser(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as (server, browser):
        page = _phone(browser, errors, "ru-RU")
        page.goto(server.base + "/")
        _language(page, "ru")
        assert page.input_value("#language") == "ru"
        assert page.text_content("#lobby h2") == WORDS["ru"]["tables"]
        assert page.get_attribute("#player-name", "placeholder") == WORDS["ru"]["placeholder"]
        assert page.get_attribute("#create [name=name]", "placeholder") == "игра и хозяин"  # the table name's hint too
        # the page's own plural forms and numbers: 1 очко, 2 очка, 5 очков, 21 очко; 1 234,5
        call = "m.trn('total {{points}} point', 'total {{points}} points', {n}, {{ points: '+{n}' }})"
        totals = [_page_tr(page, call.format(n=n)) for n in (1, 2, 5, 21)]
        assert totals == ["итого +1 очко", "итого +2 очка", "итого +5 очков", "итого +21 очко"]
        assert _page_tr(page, "m.formatNumber(1234.5)").replace("\u00a0", " ") == "1 234,5"
        _no_overflow(page, "ru lobby")
        _shot(page, tmp_path, "ru-lobby")
        _play_a_hand(page, "ru", tmp_path)
    assert errors == []


@pytest.mark.slow
def test_the_picker_switches_to_ukrainian_remembers_it_and_a_hand_is_played(tmp_path: Path) -> None:
    errors: list[str] = []
    with _browser(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as (server, browser):
        page = _phone(browser, errors, "en-US")
        page.goto(server.base + "/")
        _language(page, "en")
        assert page.text_content("#lobby h2") == "Tables"
        assert page.text_content("#seat-kinds label:nth-child(2)").startswith("Seat 2")  # type: ignore[union-attr]
        # the picker: a labelled select of the catalog's languages, reachable by keyboard
        assert page.eval_on_selector("#language", "n => [...n.options].map((o) => o.value + ':' + o.text)") == [
            "en:English",
            "ru:Русский",
            "uk:Українська",
        ]
        assert page.get_by_label("Language", exact=True).get_attribute("id") == "language"
        page.focus("#language")
        page.keyboard.press("ArrowDown")  # en -> ru
        page.keyboard.press("ArrowDown")  # ru -> uk
        page.wait_for_function("() => document.documentElement.lang === 'uk'")
        assert page.text_content("#lobby h2") == WORDS["uk"]["tables"]
        assert (page.text_content("#seat-kinds label:nth-child(2)") or "").startswith(WORDS["uk"]["seat"])
        assert page.get_by_label("Мова", exact=True).get_attribute("id") == "language"
        assert page.evaluate("() => localStorage.getItem('ofc.language')") == "uk"
        page.reload()
        _language(page, "uk")  # remembered, though the browser asks for English
        assert page.input_value("#language") == "uk"
        assert page.get_attribute("#player-name", "placeholder") == WORDS["uk"]["placeholder"]
        assert page.get_attribute("#create [name=name]", "placeholder") == "гра й господар"
        assert (
            _page_tr(page, "m.trn('total {points} point', 'total {points} points', 2, { points: '+2' })")
            == (WORDS["uk"]["two_points"])
        )
        _no_overflow(page, "uk lobby")
        _shot(page, tmp_path, "uk-lobby")
        _play_a_hand(page, "uk", tmp_path)
        # switching language at the table draws the table again in it
        page.select_option("#language", "ru")
        page.wait_for_function("() => document.getElementById('showdown-title').textContent === 'Вскрытие, раздача 1'")
        _showdown_words(page, "ru")
        _no_overflow(page, "ru showdown after the switch")
    assert errors == []


@pytest.mark.slow
def test_accept_language_chooses_the_language_of_a_first_visit(tmp_path: Path) -> None:
    errors: list[str] = []
    with _browser(tmp_path, errors) as (server, browser):
        for locale, code, heading in (("uk-UA", "uk", "Столи"), ("de-DE", "en", "Tables"), ("ru", "ru", "Столы")):
            page = _phone(browser, errors, locale)
            page.goto(server.base + "/")
            _language(page, code)
            assert page.text_content("#lobby h2") == heading
            assert page.input_value("#language") == code
            page.context.close()
        request = urllib.request.Request(server.base + "/api/i18n", headers={"Accept-Language": "uk,ru;q=0.5"})
        with urllib.request.urlopen(request, timeout=180) as response:
            assert json.loads(response.read())["language"] == "uk"
    assert errors == []


@pytest.mark.slow
def test_the_keep_page_speaks_both_languages_without_overflow(tmp_path: Path) -> None:
    errors: list[str] = []
    with _browser(tmp_path, errors) as (server, browser):
        for locale, code, title, start in (
            ("ru-RU", "ru", "Новая запись счёта", "Начать запись"),
            ("uk-UA", "uk", "Новий запис рахунку", "Почати запис"),
        ):
            page = _phone(browser, errors, locale)
            page.goto(server.base + "/keep")
            page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
            page.wait_for_selector("#k-home:not([hidden])")
            assert page.text_content("#k-home h2") == title
            assert page.text_content("#k-new button[type=submit]") == start
            _no_overflow(page, f"{code} keep home")
            page.fill("#k-new [name=p0]", "ann")
            page.fill("#k-new [name=p1]", "bob")
            page.click("#k-new button[type=submit]")
            page.wait_for_selector("#k-book:not([hidden])")
            page.wait_for_selector("#k-board .k-row")
            labels = page.locator("#k-board .k-label").all_text_contents()
            assert labels == (["верхний", "средний", "нижний"] if code == "ru" else ["верхній", "середній", "нижній"])
            picker = page.get_attribute("#k-picker button[data-card=Ah]", "aria-label")
            assert picker == ("туз червей" if code == "ru" else "туз чирв")
            _no_overflow(page, f"{code} keep book")
            _shot(page, tmp_path, f"{code}-keep")
            page.context.close()
    assert errors == []
