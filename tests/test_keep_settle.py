"""Settling a match in the fewest transfers; properties of whole books played at random."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.keep import Book, Entry, fewest_transfers, replay
from ofc.keep.settle import Transfer
from ofc.rules.cards import ALL_CARDS, format_cards
from ofc.rules.errors import MatchError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board


def test_one_debtor_pays_everyone() -> None:
    amounts = {"ann": Fraction(-10), "bob": Fraction(3), "cat": Fraction(7)}
    assert fewest_transfers(amounts) == [Transfer("ann", "cat", Fraction(7)), Transfer("ann", "bob", Fraction(3))]


def test_pairs_that_cancel_settle_among_themselves() -> None:
    # ann -5 / cat +5 and bob -7 / dan +7 cancel in pairs: 2 transfers, not 3.
    amounts = {"ann": Fraction(-5), "bob": Fraction(-7), "cat": Fraction(5), "dan": Fraction(7)}
    assert fewest_transfers(amounts) == [Transfer("ann", "cat", Fraction(5)), Transfer("bob", "dan", Fraction(7))]


def test_a_zero_sum_pair_the_greedy_rule_would_miss() -> None:
    # ann -6, bob -4, cat +4, dan +3, eve +3. Largest debt to largest credit from the start
    # would pay ann -> cat 4, bob -> dan 3, ann -> eve 2, bob -> eve 1: four transfers. Splitting
    # into bob/cat and ann/dan/eve (both add up to zero) needs three: 5 players - 2 groups.
    amounts = {name: Fraction(value) for name, value in (("ann", -6), ("bob", -4), ("cat", 4), ("dan", 3), ("eve", 3))}
    transfers = fewest_transfers(amounts)
    assert len(transfers) == 3
    assert Transfer("bob", "cat", Fraction(4)) in transfers


def test_nothing_owed_means_no_transfers_and_a_bad_total_is_refused() -> None:
    assert fewest_transfers({"ann": Fraction(0), "bob": Fraction(0)}) == []
    with pytest.raises(MatchError, match="do not add up to zero"):
        fewest_transfers({"ann": Fraction(1), "bob": Fraction(0)})


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=5))
def test_transfers_settle_exactly_and_are_at_most_one_fewer_than_the_players(values: list[int]) -> None:
    amounts = {f"p{i}": Fraction(value, 4) for i, value in enumerate(values)}
    amounts["last"] = -sum(amounts.values(), Fraction(0))
    transfers = fewest_transfers(amounts)
    left = dict(amounts)
    for transfer in transfers:
        assert transfer.amount > 0
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert all(value == 0 for value in left.values())
    assert len(transfers) <= max(0, sum(1 for value in amounts.values() if value) - 1)


def _random_entry(rng: random.Random, cards: list[int]) -> Entry:
    if rng.random() < 0.15:
        return Entry(None)
    hand = [cards.pop() for _ in range(13)]
    return Entry(Board(tuple(hand[:3]), tuple(hand[3:8]), tuple(hand[8:])))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["classic", "turbo", "pineapple"]),
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 15, 40]),
)
def test_random_books_stay_zero_sum_within_the_limit(preset: str, players: int, seed: int, limit: int | None) -> None:
    rules = Rules.preset(preset)
    players = min(players, rules.spec.max_players)
    rules = rules.with_settings({"loss_limit": limit, "point_value": "0.5"})
    names = [f"p{i}" for i in range(players)]
    rng = random.Random(seed)
    book = Book.new(rules, names, rng.choice(names))
    keeping = replay(book)
    while not keeping.over and len(keeping.hands) < 12:
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        hand = {name: _random_entry(rng, cards) for name in keeping.dealt}
        text = {name: entry.text() for name, entry in hand.items()}
        book = book.with_hands([*book.hands, book.read_hand(text)])
        keeping = replay(book)
        for name, entry in hand.items():
            assert keeping.hands[-1].entries[name] == entry, format_cards(entry.cards)
    assert sum(keeping.points.values()) == 0
    assert sum(keeping.money.values()) == 0
    assert keeping.money == {name: points / 2 for name, points in keeping.points.items()}
    if limit is not None:
        assert min(keeping.points.values()) >= -limit
    for played in keeping.hands:
        assert set(played.fouled) >= {name for name in played.names if played.entries[name].dead}
    transfers = keeping.settlement()
    paid = {name: Fraction(0) for name in names}
    for transfer in transfers:
        paid[transfer.payer] -= transfer.amount
        paid[transfer.payee] += transfer.amount
    assert paid == keeping.money


@given(st.permutations(list(ALL_CARDS)), st.integers(0, 4), st.booleans())
def test_entries_read_back_from_their_text_and_json(cards: list[int], discards: int, as_json: bool) -> None:
    from ofc.keep import parse_entry

    board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))
    entry = Entry(board, tuple(cards[13 : 13 + discards]) if discards else None)
    again = parse_entry(entry.to_json() if as_json else entry.text(), "ann")
    assert again == entry
    assert parse_entry("DEAD", "ann") == Entry(None)
