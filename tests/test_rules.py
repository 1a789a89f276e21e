"""Rules: presets, every setting read from text, validation naming the setting."""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

from decimal import Decimal

import pytest

from ofc.i18n import localize_error
from ofc.rules.errors import RulesError
from ofc.rules.ranking import Category
from ofc.rules.rulebook import (
    PRESETS,
    SETTING_NAMES,
    ButtonOnFantasy,
    FantasyCards,
    Rules,
    Scoring,
    StayCondition,
    Street,
    Variant,
    parse_assignment,
)


def test_presets() -> None:
    assert set(PRESETS) == {"classic", "turbo", "pineapple", "pineapple-progressive"}
    classic = Rules.preset("classic")
    assert (classic.variant, classic.scoring, classic.fantasy_cards) == (
        Variant.CLASSIC,
        Scoring.CLASSIC,
        FantasyCards.FIXED,
    )
    assert Rules.preset("turbo").variant is Variant.TURBO
    assert Rules.preset("turbo").scoring is Scoring.CLASSIC
    pineapple = Rules.preset("Pineapple")
    assert (pineapple.variant, pineapple.scoring) == (Variant.PINEAPPLE, Scoring.AMERICAN)
    progressive = Rules.preset("pineapple-progressive")
    assert progressive.fantasy_cards is FantasyCards.PROGRESSIVE
    assert progressive.scoring is Scoring.AMERICAN


def test_defaults_follow_rules_md() -> None:
    rules = Rules()
    assert rules.fantasy is True
    assert rules.fantasy_stay == {StayCondition.TOP_TRIPS, StayCondition.BOTTOM_QUADS_PLUS}
    assert rules.fantasy_max_in_row == 2
    assert rules.button_on_fantasy is ButtonOnFantasy.STAYS
    assert rules.point_value == 1
    assert rules.loss_limit is None
    assert (rules.hand_seconds, rules.time_bank_seconds) == (120, 180)
    assert rules.players == 2


def test_variant_specs() -> None:
    classic = Rules.preset("classic").spec
    assert classic.streets == (Street(5, 5),) + (Street(1, 1),) * 8
    assert (classic.min_players, classic.max_players, classic.fantasy_cards) == (2, 4, 13)
    turbo = Rules.preset("turbo").spec
    assert turbo.streets == (Street(5, 5), Street(4, 4), Street(4, 4))
    assert (turbo.max_players, turbo.fantasy_cards) == (4, 13)
    pineapple = Rules.preset("pineapple").spec
    assert pineapple.streets == (Street(5, 5),) + (Street(3, 2),) * 4
    assert pineapple.streets[1].discards == 1
    assert (pineapple.max_players, pineapple.fantasy_cards) == (3, 14)
    for preset in PRESETS.values():
        assert sum(street.place for street in preset.spec.streets) == 13
        assert preset.spec.first_deal == Street(5, 5)


def test_royalty_tables_are_rules_md() -> None:
    classic = Rules.preset("classic").royalty_table
    american = Rules.preset("pineapple").royalty_table
    bottom = {Category.STRAIGHT: 2, Category.FLUSH: 4, Category.FULL_HOUSE: 6}
    for category, value in bottom.items():
        assert classic.bottom[category] == american.bottom[category] == value
    assert (classic.bottom[Category.QUADS], american.bottom[Category.QUADS]) == (8, 10)
    assert (classic.bottom[Category.STRAIGHT_FLUSH], american.bottom[Category.STRAIGHT_FLUSH]) == (10, 15)
    assert (classic.bottom_royal, american.bottom_royal) == (15, 25)
    assert classic.middle[Category.TRIPS] == american.middle[Category.TRIPS] == 2
    assert classic.middle[Category.FULL_HOUSE] == 12
    assert (classic.middle_royal, american.middle_royal) == (30, 50)
    assert classic.bottom[Category.TRIPS] == 0
    assert classic.top_pair == american.top_pair == (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert classic.top_trips == tuple(range(10, 23))
    assert Rules.preset("classic").row_points == 2
    assert Rules.preset("classic").scoop_bonus == 0
    assert Rules.preset("pineapple").row_points == 1
    assert Rules.preset("pineapple").scoop_bonus == 3


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("variant", "turbo", Variant.TURBO),
        ("players", "3", 3),
        ("scoring", "AMERICAN", Scoring.AMERICAN),
        ("fantasy", "off", False),
        ("fantasy", "on", True),
        ("fantasy_stay", "top_trips,middle_quads_plus", {StayCondition.TOP_TRIPS, StayCondition.MIDDLE_QUADS_PLUS}),
        ("fantasy_stay", "middle-full-house-plus", {StayCondition.MIDDLE_FULL_HOUSE_PLUS}),
        ("fantasy_stay", "none", frozenset()),
        ("fantasy_max_in_row", "1", 1),
        ("fantasy_max_in_row", "none", None),
        ("button_on_fantasy", "moves", ButtonOnFantasy.MOVES),
        ("point_value", "0.25", Decimal("0.25")),
        ("loss_limit", "50", Decimal(50)),
        ("loss_limit", "none", None),
        ("hand_seconds", "30", Decimal(30)),
        ("time_bank_seconds", "0", Decimal(0)),
        ("buy_in", "10.50", Decimal("10.50")),
        ("starting_chips", "500", 500),
        ("level_hands", "5", 5),
        ("chips_per_point", "1,2,4", (1, 2, 4)),
        ("payouts", "0.7,0.3", (Decimal("0.7"), Decimal("0.3"))),
    ],
)
def test_every_setting_reads_text(name: str, text: str, expected: object) -> None:
    rules = Rules.preset("classic").with_settings({name: text})
    assert getattr(rules, name) == expected
    assert rules.with_settings(rules.to_dict()) == rules  # to_dict reads back


def test_fantasy_cards_progressive_reads_in_pineapple() -> None:
    rules = Rules.preset("pineapple").with_settings({"fantasy_cards": "progressive"})
    assert rules.fantasy_cards is FantasyCards.PROGRESSIVE


def test_typed_values_are_accepted() -> None:
    rules = Rules.of(variant="pineapple", scoring="american", players=3, point_value=2)
    assert rules.variant is Variant.PINEAPPLE
    assert rules.point_value == Decimal(2)
    assert rules.with_settings({"fantasy_stay": ["top_trips"]}).fantasy_stay == {StayCondition.TOP_TRIPS}


@pytest.mark.parametrize(
    ("preset", "settings", "message"),
    [
        ("pineapple", {"players": "4"}, "setting players: pineapple allows 2-3 players, not 4"),
        ("classic", {"players": "5"}, "setting players: classic allows 2-4 players, not 5"),
        ("classic", {"players": "1"}, "setting players"),
        ("classic", {"fantasy_cards": "progressive"}, "setting fantasy_cards: progressive"),
        ("turbo", {"fantasy_cards": "progressive"}, "setting fantasy_cards"),
        ("classic", {"fantasy_stay": "top_quads"}, "setting fantasy_stay: 'top_quads' is not one of"),
        ("classic", {"fantasy_max_in_row": "0"}, "setting fantasy_max_in_row"),
        ("classic", {"point_value": "-1"}, "setting point_value: must be positive"),
        ("classic", {"point_value": "0"}, "setting point_value"),
        ("classic", {"point_value": "abc"}, "setting point_value: expected a number"),
        ("classic", {"point_value": "NaN"}, "setting point_value"),
        ("classic", {"loss_limit": "-5"}, "setting loss_limit"),
        ("classic", {"hand_seconds": "1e1000000"}, "setting hand_seconds: too large, got '1e1000000'"),
        ("classic", {"point_value": "1e999999999"}, "setting point_value: too large, got '1e999999999'"),
        ("classic", {"loss_limit": "-1e15"}, "setting loss_limit: too large, got '-1e15'"),
        ("classic", {"point_value": "1e-999999999"}, "setting point_value: more than 12 decimal places, got '1e-999"),
        ("classic", {"buy_in": "0.0000000000001"}, "setting buy_in: more than 12 decimal places"),
        ("classic", {"hand_seconds": "0"}, "setting hand_seconds"),
        ("classic", {"time_bank_seconds": "-1"}, "setting time_bank_seconds"),
        ("classic", {"buy_in": "-1"}, "setting buy_in"),
        ("classic", {"starting_chips": "0"}, "setting starting_chips"),
        ("classic", {"level_hands": "0"}, "setting level_hands"),
        ("classic", {"chips_per_point": "5,3"}, "setting chips_per_point: levels must not decrease"),
        ("classic", {"chips_per_point": "0,1"}, "setting chips_per_point"),
        ("classic", {"payouts": "0.5,0.4"}, "setting payouts: shares must add up to 1"),
        ("classic", {"payouts": "0.3,0.7"}, "setting payouts: a lower place"),
        ("classic", {"variant": "omaha"}, "setting variant: 'omaha' is not one of classic, turbo, pineapple"),
        ("classic", {"scoring": "european"}, "setting scoring"),
        ("classic", {"fantasy": "maybe"}, "setting fantasy: expected on or off"),
        ("classic", {"button_on_fantasy": "left"}, "setting button_on_fantasy"),
        ("classic", {"players": "two"}, "setting players: expected a whole number"),
        ("classic", {"players": True}, "setting players"),
        ("classic", {"colour": "red"}, "unknown setting 'colour'"),
    ],
)
def test_invalid_settings_name_the_setting(preset: str, settings: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(")):
        Rules.preset(preset).with_settings(settings)


def test_switching_variant_rechecks_players() -> None:
    four = Rules.preset("classic").with_settings({"players": 4})
    with pytest.raises(RulesError, match="setting players"):
        four.with_settings({"variant": "pineapple"})
    assert four.with_settings({"variant": "pineapple", "players": 3}).players == 3


def test_scoring_defaults_to_the_variants() -> None:
    """RULES.md: scoring defaults to classic for classic and turbo, american for pineapple."""
    assert Rules.of(variant="pineapple").scoring is Scoring.AMERICAN
    assert Rules.of(variant="turbo").scoring is Scoring.CLASSIC
    assert Rules.preset("classic").with_settings({"variant": "pineapple"}).scoring is Scoring.AMERICAN
    assert Rules.preset("pineapple").with_settings({"variant": "turbo"}).scoring is Scoring.CLASSIC
    assert Rules.preset("classic").with_settings({"scoring": None}).scoring is Scoring.CLASSIC
    assert Rules.preset("pineapple").with_settings({"scoring": "default"}).scoring is Scoring.AMERICAN


def test_a_scoring_other_than_the_variants_default_is_kept() -> None:
    chosen = Rules.preset("classic").with_settings({"scoring": "american"})
    assert chosen.with_settings({"variant": "turbo"}).scoring is Scoring.AMERICAN
    assert Rules.preset("pineapple").with_settings({"scoring": "american"}).scoring is Scoring.AMERICAN


def test_classic_scoring_is_refused_in_pineapple() -> None:
    """The rule pages: classic scoring is played only in classic and turbo."""
    message = "setting scoring: classic scoring is not played in pineapple"
    with pytest.raises(RulesError, match=message):
        Rules.preset("classic").with_settings({"variant": "pineapple", "scoring": "classic"})
    with pytest.raises(RulesError, match=message):
        Rules.of(variant="pineapple", scoring="classic")
    with pytest.raises(RulesError, match=message) as refused:
        Rules.preset("pineapple").with_settings({"scoring": "classic"})
    assert localize_error(refused.value, "ru") == (
        "настройка scoring: классические правила подсчёта очков не применяются в варианте «ананас»"
    )
    assert Rules.of(variant="turbo", scoring="classic").scoring is Scoring.CLASSIC
    assert Rules.of(variant="classic", scoring="american").scoring is Scoring.AMERICAN


def test_fantasy_deal_sizes_and_repeats() -> None:
    """RULES.md: 13 in classic and turbo, 14 in pineapple; progressive QQ 14, KK 15, AA 16,
    trips 17, a repeat 14."""
    assert Rules.preset("classic").fantasy_deal_sizes == {13}
    assert Rules.preset("turbo").fantasy_deal_sizes == {13}
    assert Rules.preset("pineapple").fantasy_deal_sizes == {14}
    assert Rules.preset("pineapple-progressive").fantasy_deal_sizes == {14, 15, 16, 17}
    assert [Rules.preset(name).repeat_fantasy_cards for name in PRESETS] == [13, 13, 14, 14]


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset 'holdem': choose one of classic, turbo"):
        Rules.preset("holdem")


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules.preset("pineapple")
    with pytest.raises(AttributeError):
        rules.players = 3  # type: ignore[misc]
    assert hash(rules) == hash(Rules.preset("pineapple").with_settings({}))


def test_parse_assignment() -> None:
    assert parse_assignment("players = 3") == ("players", "3")
    assert parse_assignment("fantasy_stay=top_trips,bottom_quads_plus") == (
        "fantasy_stay",
        "top_trips,bottom_quads_plus",
    )
    with pytest.raises(RulesError, match="expected KEY=VALUE"):
        parse_assignment("players")


def test_setting_names_cover_every_field() -> None:
    assert set(SETTING_NAMES) == set(Rules().to_dict())


def test_the_constructor_takes_typed_values_and_rules_of_reads_text() -> None:
    # Fields hold what their annotations say: text and look-alikes go through Rules.of / with_settings.
    with pytest.raises(RulesError, match=r"setting players: Rules\(\) takes a int, not '3'"):
        Rules(players="3")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="setting fantasy: Rules\\(\\) takes a bool, not 1"):
        Rules(fantasy=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="setting payouts"):
        Rules(payouts=("0.5", "0.5"))  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="setting players"):
        Rules(players=True)
    assert Rules.of(players="3", payouts="0.5,0.5") == Rules(players=3, payouts=(Decimal("0.5"), Decimal("0.5")))
    assert Rules(variant=Variant.PINEAPPLE, scoring=Scoring.DEFAULT).scoring is Scoring.AMERICAN
    assert Rules.of(variant="turbo", scoring="default").scoring is Scoring.CLASSIC
