"""Cards: notation round trips, parsing errors, the deck."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ofc.rules.cards import (
    ALL_CARDS,
    Deck,
    format_card,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from ofc.rules.errors import CardError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("Ah", 12, 2), ("td", 8, 1), ("10h", 8, 2), ("10H", 8, 2), ("2c", 0, 0), ("KS", 11, 3), (" 9d ", 7, 1)],
)
def test_parse_card(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert (rank_of(card), suit_of(card)) == (rank, suit)
    assert card == make_card(rank, suit)


def test_format_is_canonical() -> None:
    assert format_card(parse_card("td")) == "Td"
    assert format_card(parse_card("10S")) == "Ts"
    assert format_cards(parse_cards("ah, KD 2c")) == "Ah Kd 2c"


@given(st.integers(min_value=0, max_value=51))
def test_round_trip(card: int) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).lower()) == card


@pytest.mark.parametrize("text", ["1h", "Ax", "A", "", "AhK", "11h", "Zz", "10"])
def test_unknown_card_names_it(text: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        parse_card(text)


def test_a_long_token_is_cut_short_in_the_message() -> None:
    """A whole line read as one token (ofc solve --batch of a JSON file, say) is not echoed."""
    with pytest.raises(CardError) as caught:
        parse_card("[" * 100_000)
    assert str(caught.value) == (
        "unknown card '[[[[[[[[[[[[[[[[...' (100000 characters): "
        "expected a rank of 23456789TJQKA (or 10) and a suit of cdhs"
    )


def test_duplicate_card_is_named() -> None:
    with pytest.raises(CardError, match="card Ah appears twice"):
        parse_cards("Ah Kd ah")
    assert parse_cards("Ah ah", unique=False) == (parse_card("Ah"),) * 2


def test_parse_list_of_strings_and_non_strings() -> None:
    assert parse_cards(["Ah", "10c"]) == (parse_card("Ah"), parse_card("Tc"))
    with pytest.raises(CardError, match="as text"):
        parse_cards([12])  # type: ignore[list-item]


def test_format_rejects_out_of_range() -> None:
    with pytest.raises(CardError):
        format_card(52)
    with pytest.raises(CardError):
        make_card(13, 0)


def test_a_negative_seed_is_refused() -> None:
    """random.Random(-n) shuffles as random.Random(n): --seed -7 would replay --seed 7."""
    with pytest.raises(CardError, match="a deck seed is a whole number from 0, not -7"):
        Deck(-7)


def test_seeded_deck_is_reproducible_and_complete() -> None:
    first, second = Deck(seed=7), Deck(seed=7)
    assert first.order == second.order
    assert sorted(first.order) == list(ALL_CARDS)
    assert Deck(seed=8).order != first.order


def test_deck_deals_each_card_once() -> None:
    deck = Deck(seed=1)
    dealt = deck.deal(5) + deck.deal(47)
    assert sorted(dealt) == list(ALL_CARDS)
    assert deck.remaining == 0
    with pytest.raises(CardError, match="0 left"):
        deck.deal(1)


def test_secure_decks_differ() -> None:
    orders = {Deck().order for _ in range(5)}
    assert len(orders) == 5
    assert Deck().seed is None


def test_deck_from_order() -> None:
    order = tuple(reversed(ALL_CARDS))
    assert Deck(order=order).deal(2) == (51, 50)
    with pytest.raises(CardError, match="exactly once"):
        Deck(order=(0,) * 52)
