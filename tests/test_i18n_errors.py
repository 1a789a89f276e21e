"""Errors in the players' languages (issue 18): every raise is a literal template, every template
is translated, and the errors a player meets read exactly as written here.

Expected texts are worked out by hand from the English message and the ``errors`` catalogs:
the filled-in row is the ``row`` term of ``core`` (top -> верхний / верхній), the variant the
``variant`` term (classic -> классический / класичний); card texts and setting names stay as typed.
"""

from __future__ import annotations

import pickle
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.i18n import Term, localize, localize_error
from ofc.i18n.extract import PACKAGE, check_catalogs, error_classes, error_templates, found_messages
from ofc.keep.entries import BookError
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.errors import (
    BotError,
    CardError,
    CardNotHeld,
    NoSuchSeat,
    NotYourTurn,
    OfcError,
    RowFull,
    RulesError,
    WrongDiscardCount,
)
from ofc.rules.rulebook import Rules
from ofc.server.tables.decks import PlayError

# Seat 1 acts first (button 0). Pineapple: seat 1 is dealt 2c..6c, seat 0 2d..6d, then seat 1 7c 8c 9c.
PINE_DECK = "2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  7c 8c 9c  7d 8d 9d  Tc Jc Qc"


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def pineapple_start() -> Hand:
    return Hand(Rules.preset("pineapple"), button=0, deck=stacked(PINE_DECK))


def pineapple_street2() -> Hand:
    hand = pineapple_start()
    hand.apply(Action.of(1, top="2c 3c 4c", middle="5c 6c"), 10)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 20)
    return hand  # seat 1 holds 7c 8c 9c and must discard one


def _python_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "i18n" not in path.relative_to(PACKAGE).parts[:1])


def test_every_raise_of_an_ofc_error_passes_a_literal_template() -> None:
    classes = error_classes()
    assert {"OfcError", "RowFull", "BookError", "PlayError", "CommandError", "StorageUnavailable"} <= classes
    found = 0
    not_literal = []
    for path in _python_files():
        for line, template in error_templates(path, classes):
            found += 1
            if template is None:
                not_literal.append(f"{path.relative_to(PACKAGE)}:{line}")
    assert not_literal == []
    assert found > 369  # every raise site counted (369 before plurals were split into their own raises)


def test_the_errors_domain_is_complete_in_russian_and_ukrainian() -> None:
    assert [problem for problem in check_catalogs() if "/errors:" in problem] == []


def _dummy(field: str) -> object:
    return 7 if field else ""


def test_every_template_renders_in_every_language() -> None:
    """Each translation fills from the English template's parameters alone, leaving no brace behind."""
    templates = [str(found.id) for found in found_messages()["errors"]]
    assert len(templates) > 300
    for template in templates:
        fields = {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}
        error = OfcError(template, **{name: _dummy(name) for name in fields})
        for language in ("ru", "uk"):
            text = localize_error(error, language)
            assert text.strip(), template
            assert "{" not in text.replace("{}", ""), (template, language, text)


def _raised(call: Callable[[], object]) -> OfcError:
    with pytest.raises(OfcError) as caught:
        call()
    return caught.value


ENGINE_CASES = [
    # out of turn: seat 1 acts first, so seat 0 may not
    (
        lambda: pineapple_start().apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 1),
        NotYourTurn,
        "seat 0 cannot act now: seat 1 is to act",
        "место 0 сейчас не может ходить: ходит место 1",
        "місце 0 зараз не може ходити: ходить місце 1",
    ),
    # four cards for the three-card top row
    (
        lambda: pineapple_start().apply(Action.of(1, top="2c 3c 4c 5c", middle="6c"), 1),
        RowFull,
        "seat 1's top row has room for 3 more cards, not 4",
        "в верхний бокс места 1 поместится ещё карт: 3, а не 4",
        "у верхній бокс місця 1 поміститься ще карт: 3, а не 4",
    ),
    # Ah is not among seat 1's 2c..6c
    (
        lambda: pineapple_start().apply(Action.of(1, bottom="2c 3c 4c 5c Ah"), 1),
        CardNotHeld,
        "seat 1 does not hold Ah",
        "у места 1 нет карты Ah",
        "у місця 1 немає карти Ah",
    ),
    # pineapple's second street: three cards, one of them to the discard
    (
        lambda: pineapple_street2().apply(Action.of(1, middle="7c 8c 9c"), 21),
        WrongDiscardCount,
        "seat 1 must discard 1 card, not 0",
        "место 1 должно сбросить 1 карту, а не 0",
        "місце 1 має скинути 1 карту, а не 0",
    ),
    # a seat number shown with repr in English stays bare in every language (no quotes around 2)
    (
        lambda: pineapple_start().apply(Action.of(2, bottom="2d"), 1),
        NoSuchSeat,
        "there is no seat 2 at this table of 2",
        "места 2 нет за этим столом (мест: 2)",
        "місця 2 немає за цим столом (місць: 2)",
    ),
]


@pytest.mark.parametrize(("act", "kind", "english", "russian", "ukrainian"), ENGINE_CASES)
def test_illegal_actions_in_three_languages(
    act: Callable[[], object], kind: type[OfcError], english: str, russian: str, ukrainian: str
) -> None:
    error = _raised(act)
    assert type(error) is kind
    assert (str(error), localize_error(error, "en")) == (english, english)
    assert localize_error(error, "ru") == russian
    assert localize_error(error, "uk") == ukrainian


def test_a_refused_action_leaves_the_hand_as_it_was() -> None:
    hand = pineapple_start()
    before = hand.view(1)
    with pytest.raises(RowFull):
        hand.apply(Action.of(1, top="2c 3c 4c 5c", middle="6c"), 1)
    assert hand.view(1) == before


INPUT_CASES = [
    (
        lambda: parse_cards("Ah Zx"),
        CardError,
        "unknown card 'Zx': expected a rank of 23456789TJQKA (or 10) and a suit of cdhs",
        "неизвестная карта 'Zx': нужен ранг из 23456789TJQKA (или 10) и масть из cdhs",
        "невідома карта 'Zx': потрібен ранг із 23456789TJQKA (або 10) і масть із cdhs",
    ),
    (
        lambda: parse_cards("Ah Kd Ah"),
        CardError,
        "card Ah appears twice",
        "карта Ah встречается дважды",
        "карта Ah трапляється двічі",
    ),
    (
        lambda: Rules.preset("classic").with_settings({"loss_limit": "lots"}),
        RulesError,
        "setting loss_limit: expected a number, got 'lots'",
        "настройка loss_limit: нужно число, а указано 'lots'",
        "налаштування loss_limit: потрібне число, а вказано 'lots'",
    ),
    # classic seats 2 to 4 players (RULES.md); the variant is a term, translated
    (
        lambda: Rules.preset("classic").with_settings({"players": "5"}),
        RulesError,
        "setting players: classic allows 2-4 players, not 5",
        "настройка players: в варианте «классический» играют от 2 до 4 игроков, а не 5",
        "налаштування players: у варіанті «класичний» грають від 2 до 4 гравців, а не 5",
    ),
    (
        lambda: Rules.preset("nope"),
        RulesError,
        "unknown preset 'nope': choose one of classic, turbo, pineapple, pineapple-progressive",
        "неизвестный пресет 'nope': выберите один из: classic, turbo, pineapple, pineapple-progressive",
        "невідомий пресет 'nope': виберіть один із: classic, turbo, pineapple, pineapple-progressive",
    ),
]


@pytest.mark.parametrize(("act", "kind", "english", "russian", "ukrainian"), INPUT_CASES)
def test_bad_cards_and_settings_in_three_languages(
    act: Callable[[], object], kind: type[OfcError], english: str, russian: str, ukrainian: str
) -> None:
    error = _raised(act)
    assert isinstance(error, kind)
    assert str(error) == english
    assert (localize_error(error, "ru"), localize_error(error, "uk")) == (russian, ukrainian)


def test_a_wrapped_error_renders_in_the_same_language() -> None:
    inner = RowFull("seat {seat}'s {row} row has room for {free} more cards, not {wanted}",
                    seat=1, row=Term("row", "bottom"), free=0, wanted=1)  # fmt: skip
    outer = PlayError("{kind}: {problem}", code="illegal", kind="RowFull", problem=inner)
    assert str(outer) == "RowFull: seat 1's bottom row has room for 0 more cards, not 1"
    assert localize_error(outer, "ru") == "RowFull: в нижний бокс места 1 поместится ещё карт: 0, а не 1"
    assert localize_error(outer, "uk") == "RowFull: у нижній бокс місця 1 поміститься ще карт: 0, а не 1"
    assert outer.to_json()["params"]["problem"]["template"] == inner.template
    copy = pickle.loads(pickle.dumps(outer))
    assert (type(copy), copy.code, str(copy), localize_error(copy, "uk")) == (
        PlayError,
        "illegal",
        str(outer),
        localize_error(outer, "uk"),
    )


def test_errors_with_their_own_fields_keep_them_through_pickling() -> None:
    error = BookError("{player}: card {cards} is entered twice", field="ann", player="ann", cards="Ah")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.field, str(copy)) == (BookError, "ann", "ann: card Ah is entered twice")
    assert localize_error(copy, "ru") == "ann: карта Ah введена дважды"
    assert localize_error(copy, "uk") == "ann: карту Ah введено двічі"


def test_a_conversion_stays_as_in_english() -> None:
    # "{spec!r}" quotes the bot spec in every language; the seconds come pre-formatted ("5", not "5.0")
    error = BotError(
        "bot {spec!r}: this server allows at most seconds={seconds} per decision (give seconds=, at most that)",
        spec="mc:seconds=60",
        seconds=f"{5.0:g}",
    )
    assert str(error) == (
        "bot 'mc:seconds=60': this server allows at most seconds=5 per decision (give seconds=, at most that)"
    )
    assert localize_error(error, "ru") == (
        "бот 'mc:seconds=60': этот сервер даёт на решение не больше seconds=5 (укажите seconds= не больше этого)"
    )
    assert localize_error(error, "uk") == (
        "бот 'mc:seconds=60': цей сервер дає на рішення не більше seconds=5 (вкажіть seconds= не більше цього)"
    )


def test_no_template_formats_a_field_with_a_spec() -> None:
    """The browser fills ``{name}`` and ``{name!r}`` only: a spec (``{x:g}``) is formatted before it is passed."""
    specs = [
        str(found.id)
        for found in found_messages()["errors"]
        if any(spec for _text, name, spec, _conv in string.Formatter().parse(str(found.id)) if name)
    ]
    assert specs == []


def test_localize_of_a_stored_template_matches_the_error() -> None:
    error = _raised(lambda: pineapple_start().apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 1))
    assert localize(error.template, error.params, "uk") == localize_error(error, "uk")
