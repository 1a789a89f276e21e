"""The translation layer (issue 18): language choice, plurals, numbers, hand names, catalogs.

Exact values are written out by hand: Russian and Ukrainian share one plural rule
(1, 21, 101 -> form 0 "очко"; 2-4, 22-24 -> form 1 "очка"; 0, 5-20, 25-30, 111 -> form 2 "очков"),
and CLDR groups thousands with a no-break space and uses a decimal comma in both.
"""

from __future__ import annotations

import pickle
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ofc.i18n import (
    Term,
    format_money,
    format_number,
    format_signed,
    from_accept_language,
    from_environment,
    localize,
    localize_error,
    parse_language,
    use_language,
)
from ofc.i18n.browser import catalog_document
from ofc.i18n.catalog import DOMAINS, translations
from ofc.i18n.extract import PACKAGE, check_catalogs, non_literal_calls, non_literal_js_calls
from ofc.rules.cards import parse_cards
from ofc.rules.errors import RowFull, RulesError
from ofc.rules.ranking import ACE, Category, hand_name, make_key, rank3, rank5
from ofc.rules.terms import Phrase
from support.server import make_app

RU_PLURAL_FORMS = {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 25: 2, 101: 0, 111: 2, 0: 2}


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.5", "uk"),
        ("fr-FR, ru;q=0.3, en;q=0.2", "ru"),
        ("de-DE,de;q=0.9", "en"),
        ("ru;q=0, uk;q=0.1", "uk"),
        ("en-GB;q=0.4, ru-RU", "ru"),
        ("", "en"),
        (None, "en"),
        ("ru;q=banana, uk", "uk"),
    ],
)
def test_accept_language_picks_the_best_of_ours(header: str | None, language: str) -> None:
    assert from_accept_language(header) == language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "uk_UA.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "C"}, "en"),
        ({"LANGUAGE": "de:uk:ru", "LANG": "ru_RU.UTF-8"}, "uk"),
        ({"LANGUAGE": "de", "LANG": "ru_RU.UTF-8"}, "ru"),
        ({}, "en"),
    ],
)
def test_environment_is_read_in_gettexts_order(environ: dict[str, str], language: str) -> None:
    assert from_environment(environ) == language


def test_a_language_flag_is_read_or_refused_by_name() -> None:
    assert parse_language("UK") == "uk"
    assert parse_language("ru_RU") == "ru"
    with pytest.raises(RulesError, match="unknown language 'fr': choose one of en, ru, uk"):
        parse_language("fr")


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_plural_forms_follow_the_slavic_rule(language: str) -> None:
    rule = translations(language).plural  # type: ignore[attr-defined]
    assert {n: rule(n) for n in RU_PLURAL_FORMS} == RU_PLURAL_FORMS
    # the browser picks forms by CLDR category; the map must send each category to the same form
    assert catalog_document(language)["plural"] == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert catalog_document("en")["plural"] == {"one": 0, "other": 1}


def test_numbers_and_money_are_written_the_languages_way() -> None:
    assert format_number(12345.5, "en") == "12,345.5"
    assert format_number(12345.5, "ru") == "12\xa0345,5"
    assert format_number(-12345, "uk") == "-12\xa0345"
    assert format_signed(3, "ru") == "+3"
    assert format_signed(-2, "en") == "-2"
    assert format_signed(0, "en") == "0"
    assert format_money(Decimal("1234.50"), "ru") == "1\xa0234,50"
    assert format_money(Decimal("1234.50"), "en") == "1,234.50"
    assert format_money(10, "uk") == "10"
    with use_language("uk"):
        assert format_number(0.25) == "0,25"


@pytest.mark.parametrize(
    ("cards", "english", "russian", "ukrainian"),
    [
        ("Kh Kd Ks 9c 9d", "Full house, kings over nines", "Фул-хаус: короли и девятки", "Фул-хаус: королі і дев'ятки"),
        ("Kh Kd 9s 9c 2d", "Two pair, kings and nines", "Две пары: короли и девятки", "Дві пари: королі і дев'ятки"),
        ("Ah Kh Qh Jh Th", "Royal flush", "Роял-флеш", "Роял-флеш"),
        ("Ah 2d 3c 4s 5h", "Straight, five high", "Стрит, старшая карта — пятёрка", "Стріт, старша карта — п'ятірка"),
        ("Ac Ad As Ah 2d", "Quads, aces", "Каре: тузы", "Каре: тузи"),
        ("Ac 9d 7s 4h 2d", "High card, ace", "Старшая карта: туз", "Старша карта: туз"),
    ],
)
def test_hand_names_in_three_languages(cards: str, english: str, russian: str, ukrainian: str) -> None:
    name = hand_name(rank5(parse_cards(cards)))
    assert name == english
    assert localize(name.template, name.params, "en") == english
    assert localize(name.template, name.params, "ru") == russian
    assert localize(name.template, name.params, "uk") == ukrainian


def test_top_row_hand_names_translate() -> None:
    name = hand_name(rank3(parse_cards("Qh Qd 5c")))
    assert (str(name), localize(name.template, name.params, "ru")) == ("Pair, queens", "Пара: дамы")


def test_every_hand_name_is_fully_translated() -> None:
    """Every category with every deciding rank (and second rank) renders with no English word left."""
    checked = 0
    for category in Category:
        for first in range(ACE + 1):
            for second in range(ACE + 1):
                if second == first:
                    continue
                name = hand_name(make_key(category, [first, second, 0, 0, 0][: _deciding(category)]))
                for language in ("ru", "uk"):
                    text = localize(name.template, name.params, language)
                    assert "{" not in text
                    assert not any("a" <= letter.lower() <= "z" for letter in text), text
                checked += 1
    assert checked == len(Category) * 13 * 12


def _deciding(category: Category) -> int:
    return {Category.TWO_PAIR: 3, Category.FULL_HOUSE: 2}.get(category, 1)


def test_errors_keep_their_template_and_render_in_any_language() -> None:
    error = RowFull("the {row} row is full", row=Term("row", "top"))
    assert str(error) == "the top row is full"
    assert error.to_json() == {
        "kind": "RowFull",
        "message": "the top row is full",
        "template": "the {row} row is full",
        "params": {"row": {"term": "top", "context": "row"}},
    }
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.template, copy.params) == (RowFull, error.template, error.params)
    nested = RulesError("{hand}", hand=hand_name(rank3(parse_cards("Ah Ad Ac"))))
    assert localize_error(nested, "ru") == "Сет: тузы"
    assert localize_error(nested, "uk") == "Сет: тузи"


def test_phrases_are_strings_that_survive_pickling() -> None:
    phrase = hand_name(rank5(parse_cards("Kh Kd Ks 9c 9d")))
    copy = pickle.loads(pickle.dumps(phrase))
    assert isinstance(copy, Phrase)
    assert (copy, copy.template, copy.params) == (phrase, phrase.template, phrase.params)


@pytest.mark.parametrize("domain", ["core"])
def test_catalogs_are_complete(domain: str) -> None:
    """Every message in every language, translated, with the placeholders of the English."""
    problems = [problem for problem in check_catalogs() if f"/{domain}:" in problem]
    assert problems == []


def test_domains_are_the_four_catalogs() -> None:
    assert DOMAINS == ("core", "errors", "cli", "web")


def test_translation_calls_take_literal_strings() -> None:
    python = {str(path): list(non_literal_calls(path)) for path in PACKAGE.rglob("*.py") if "i18n" not in path.parts}
    js = {
        str(path): list(non_literal_js_calls(path)) for path in (PACKAGE / "web").glob("*.js") if path.name != "i18n.js"
    }
    assert {path: lines for path, lines in {**python, **js}.items() if lines} == {}


def test_the_server_serves_the_catalogs(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        negotiated = client.get("/api/i18n", headers={"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}).json()
        assert negotiated["language"] == "uk"
        assert negotiated["messages"]["row\x04top"] == "верхній"
        assert [entry["code"] for entry in negotiated["languages"]] == ["en", "ru", "uk"]
        russian = client.get("/api/i18n/ru").json()
        assert russian["messages"]["hand\x04Full house"] == "Фул-хаус"
        assert client.get("/api/i18n").json()["language"] == "en"
        refused = client.get("/api/i18n/xx")
        assert refused.status_code == 404
        assert refused.json()["error"]["code"] == "no_language"


def test_reasons_filled_into_errors_translate_too() -> None:
    """A rate limit's reason and a bot option's rule are phrases, so the whole refusal translates."""
    from ofc.bots.spec import parse_spec
    from ofc.rules.errors import BotError
    from ofc.server.net.ratelimit import WHAT, RateLimited

    limited = RateLimited(
        "{what}: try again in {wait} s", retry_after=3, what=Phrase(WHAT["key_name"], key="ann"), wait=3
    )
    assert str(limited) == "too many wrong player keys for ann: try again in 3 s"
    assert localize_error(limited, "ru") == "слишком много неверных ключей игрока для ann: попробуйте снова через 3 с"
    assert limited.to_json()["params"]["what"] == {"template": WHAT["key_name"], "params": {"key": "ann"}}
    with pytest.raises(BotError) as caught:
        parse_spec("mc:seconds=-1")
    assert localize_error(caught.value, "uk") == (
        "бот mc: для параметра seconds потрібне число секунд більше 0 (не більше 3600), а вказано '-1'"
    )
