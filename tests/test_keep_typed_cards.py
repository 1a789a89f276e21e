"""The score book reads cards as people type them: the server's ``read_typed_cards`` and the keep
page's ``keep-cards.js`` agree on every form accepted and on the kind of every refusal.

The page's module runs in Debian's chromium (Playwright), imported from a data: URL.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from ofc.keep import BookError, parse_entry
from ofc.rules.cards import format_cards, read_typed_cards
from ofc.rules.errors import CardError
from test_web_e2e import CHROMIUM, FLAGS

KEEP_CARDS_JS = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web" / "keep-cards.js"

ACCEPTED = [
    ("Qs Qh 2c", "Qs Qh 2c"),
    ("QsQh2c", "Qs Qh 2c"),
    ("qsqh2C", "Qs Qh 2c"),
    ("QS,QH;2C", "Qs Qh 2c"),
    ("Q\u2660 Q\u2665 2\u2663", "Qs Qh 2c"),
    ("Q\u2660Q\u26652\u2663", "Qs Qh 2c"),
    ("\u2660Q \u2665Q \u26632", "Qs Qh 2c"),
    ("Q\u2664 Q\u2661 2\u2667 3\u2662", "Qs Qh 2c 3d"),
    ("Q\u2660\ufe0f Q\u2665\ufe0f", "Qs Qh"),
    ("sQ hQ c2", "Qs Qh 2c"),
    ("\u2666A Kd", "Ad Kd"),
    ("Q\u2660\u2665Q", "Qs Qh"),
    ("10h 10D h10 \u266010", "Th Td Th Ts"),
    ("10h10d", "Th Td"),
    ("Th td", "Th Td"),
    # Cyrillic: ranks В Д К Т (валет, дама, король, туз), suits т б ч п (трефы, бубны, червы, пики)
    ("Дп Дч 2т", "Qs Qh 2c"),
    ("дпдч2т", "Qs Qh 2c"),
    ("Вб Кт Тп", "Jd Kc As"),
    ("пТ чК тВ", "As Kh Jc"),
    ("тт Тт тТ", "Ac Ac Ac"),
    ("тК Кт", "Kc Kc"),
    ("10ч Д\u2660 Qт", "Th Qs Qc"),
    ("", ""),
]

REFUSED = [
    ("Qx", "unknown", "cannot read 'Qx': 'x' is neither a rank (2-9, 10, T J Q K A, В Д К Т) nor a suit"),
    ("1h", "unknown", "cannot read '1h': '1' is neither a rank"),
    ("\u0410s", "unknown", "cannot read '\u0410s': '\u0410' is neither a rank"),
    ("QsQ", "rank alone", "cannot read 'QsQ': the rank 'Q' at its end has no suit"),
    ("10", "rank alone", "cannot read '10': the rank '10' at its end has no suit"),
    ("\u2660", "suit alone", "cannot read '\u2660': the suit '\u2660' at its end has no rank"),
    ("Qsт", "no pair", "cannot read 'Qsт': the 'т' at its end has no pair"),
    ("QQs", "two ranks", "cannot read 'QQs': 'QQ' is two ranks; a card is a rank and a suit"),
    ("Дк", "two ranks", "cannot read 'Дк': 'Дк' is two ranks; a card is a rank and a suit"),
    ("sh", "two suits", "cannot read 'sh': 'sh' is two suits; a card is a rank and a suit"),
    ("Q\u2660\u2665\u2666", "two suits", "cannot read 'Q\u2660\u2665\u2666': '\u2665\u2666' is"),
    ("Тs", "mixed ace", "cannot read 'Тs': 'Тs' mixes the Cyrillic Т (туз, ace) with a Latin suit"),
    ("hТ", "mixed ace", "cannot read 'hТ': 'hТ' mixes the Cyrillic Т (туз, ace) with a Latin suit"),
]


@pytest.mark.parametrize(("text", "cards"), ACCEPTED)
def test_each_form_is_read(text: str, cards: str) -> None:
    assert format_cards(read_typed_cards(text)) == cards


@pytest.mark.parametrize(("text", "kind", "message"), REFUSED)
def test_each_refused_form_has_its_own_error(text: str, kind: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        read_typed_cards(text)
    assert str(caught.value).startswith(message), kind


def test_two_suits_names_the_pair_at_fault() -> None:
    with pytest.raises(CardError) as caught:
        read_typed_cards("Q\u2660\u2665\u2666")
    assert (
        str(caught.value)
        == "cannot read 'Q\u2660\u2665\u2666': '\u2665\u2666' is two suits; a card is a rank and a suit"
    )


def test_a_book_entry_reads_typed_rows() -> None:
    entry = parse_entry("QsQh2c / 9\u26659\u26669\u26633\u26604\u2660 / пТ пК пВ п10 п9", "ann")
    assert entry.text() == "Qs Qh 2c / 9h 9d 9c 3s 4s / As Ks Js Ts 9s"
    listed = parse_entry({"top": ["Q\u2660", "hQ", "2т"], "middle": "9h9d9c3s4s", "bottom": "AsKsJs8s2s"}, "bob")
    assert listed.text() == "Qs Qh 2c / 9h 9d 9c 3s 4s / As Ks Js 8s 2s"


def test_a_book_entry_names_the_player_and_row_of_an_unreadable_card() -> None:
    with pytest.raises(BookError) as caught:
        parse_entry("QsQh2c / 9h9d9c3s4s / AsKsJs8sТs", "ann")
    assert str(caught.value) == (
        "ann, bottom row: cannot read 'AsKsJs8sТs': 'Тs' mixes the Cyrillic Т (туз, ace) with a Latin suit; "
        "write A or T (ten) in Latin letters, or the suit in Cyrillic (т б ч п)"
    )
    assert caught.value.field == "ann.bottom"
    with pytest.raises(BookError, match="ann, top row: card Qs appears twice"):
        parse_entry("Qs\u2660Q2c / 9h9d9c3s4s / AsKsJs8s2s", "ann")
    with pytest.raises(BookError, match=r"ann, top row: a card must be written as text, not 12"):
        parse_entry({"top": ["Qs", 12, "2c"], "middle": "9h9d9c3s4s", "bottom": "AsKsJs8s2s"}, "ann")


@pytest.mark.slow
def test_the_keep_page_reads_the_same_forms() -> None:
    """keep-cards.js gives the same cards for each accepted form and the same kind of refusal."""
    source = base64.b64encode(KEEP_CARDS_JS.read_bytes()).decode()
    script = """async ([source, accepted, refused]) => {
      const m = await import(`data:text/javascript;base64,${source}`);
      const read = accepted.map(([text]) => m.readTypedCards(text).join(" "));
      const kinds = refused.map(([text]) => {
        try { m.readTypedCards(text); return null; } catch (error) { return [error.kind, error.params]; }
      });
      return [read, kinds];
    }"""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            read, kinds = page.evaluate(script, [source, ACCEPTED, REFUSED])
        finally:
            browser.close()
    assert read == [cards for _, cards in ACCEPTED]
    assert [kind for kind, _ in kinds] == [kind for _, kind, _ in REFUSED]
    assert json.dumps(kinds[0][1]) == json.dumps({"word": "Qx", "char": "x"})
    assert kinds[10][1] == {"word": "Q\u2660\u2665\u2666", "pair": "\u2665\u2666"}
    assert kinds[11][1] == {"word": "Тs", "pair": "Тs"}
