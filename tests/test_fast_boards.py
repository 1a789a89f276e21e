"""Board kernels (keys, fouls, royalties) against ``ofc.rules.scoring`` on large random sets."""

from __future__ import annotations

import numpy as np
import pytest

from ofc.fast import board_keys, fouls, royalties, royalties_of_keys
from ofc.fast.boards import VALID_FIVE_KEYS, VALID_TOP_KEYS
from ofc.fast.tables import royalty_arrays
from ofc.rules.cards import parse_cards
from ofc.rules.errors import BoardError, CardError
from ofc.rules.rulebook import ROYALTY_TABLES, Rules, Scoring
from ofc.rules.scoring import Board, RowKeys, row_keys, royalties_of


def random_boards(count: int, seed: int) -> np.ndarray:
    """Boards from varied sub-decks (few ranks, few suits), so every category turns up."""
    rng = np.random.default_rng(seed)
    boards = np.empty((count, 13), dtype=np.uint8)
    for i in range(count):
        suits = rng.choice(4, int(rng.integers(1, 5)), replace=False)
        lowest = 4 if len(suits) >= 4 else (5 if len(suits) == 3 else (7 if len(suits) == 2 else 13))
        ranks = rng.choice(13, int(rng.integers(lowest, 14)), replace=False)
        deck = np.array([r * 4 + s for r in ranks for s in suits])
        boards[i] = rng.choice(deck, 13, replace=False)
    return boards


BOARDS = random_boards(100_000, seed=11)


def core_keys(boards: np.ndarray) -> list[tuple[int, int, int]]:
    out = []
    for row in boards.tolist():
        keys = row_keys(Board(row[:3], row[3:8], row[8:]))
        out.append((keys.top, keys.middle, keys.bottom))
    return out


CORE_KEYS = core_keys(BOARDS)


def test_board_keys_and_fouls_equal_core() -> None:
    keys = board_keys(BOARDS)
    assert keys.tolist() == [list(k) for k in CORE_KEYS]
    expected = [kb < km or km < kt for kt, km, kb in CORE_KEYS]
    assert fouls(BOARDS).tolist() == expected
    assert 0.2 < np.mean(expected) < 0.9


@pytest.mark.parametrize("scoring", list(Scoring))
def test_royalties_equal_core(scoring: Scoring) -> None:
    rules = Rules.of(scoring=scoring)
    got = royalties(BOARDS, rules.royalty_table).tolist()
    expected = []
    for kt, km, kb in CORE_KEYS:
        pay = royalties_of(RowKeys(kt, km, kb), rules)
        expected.append([pay.top, pay.middle, pay.bottom])
    assert got == expected
    paying = np.array(expected)
    assert (paying[:, 0] >= 10).any()
    assert (paying[:, 2] >= 10).any()


def test_every_category_is_covered() -> None:
    categories = {k >> 20 for keys in CORE_KEYS for k in keys[1:]}
    assert categories == set(range(9))


@pytest.mark.parametrize(
    ("scoring", "expected"),
    [(Scoring.AMERICAN, [7, 8, 25]), (Scoring.CLASSIC, [7, 8, 15])],
)
def test_royal_bottom_exact(scoring: Scoring, expected: list[int]) -> None:
    board = [*parse_cards("Qh Qd 2c 2h 5h 7h 9h Jh Ts Js Qs Ks As")]
    assert royalties(np.array([board]), ROYALTY_TABLES[scoring]).tolist() == [expected]


def test_fouled_board_pays_nothing() -> None:
    board = [*parse_cards("Ah Ad Ac 2h 5d 7h 9h Jh Ts Js Qs Ks As")]
    assert fouls(np.array([board])).tolist() == [True]
    assert royalties(np.array([board]), ROYALTY_TABLES[Scoring.AMERICAN]).tolist() == [[0, 0, 0]]


def test_royalty_arrays_layout() -> None:
    arrays = royalty_arrays(ROYALTY_TABLES[Scoring.AMERICAN])
    assert arrays.top[1].tolist() == [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert arrays.top[3].tolist() == list(range(10, 23))
    assert arrays.middle.tolist() == [0, 0, 0, 2, 4, 8, 12, 20, 30, 50]
    assert arrays.bottom.tolist() == [0, 0, 0, 0, 2, 4, 6, 10, 15, 25]


def test_cards_outside_the_deck_are_refused() -> None:
    boards = np.arange(13, dtype=np.int64).reshape(1, 13)
    boards[0, 12] = 52
    with pytest.raises(CardError, match="cards are 0 to 51, got 52"):
        board_keys(boards)
    with pytest.raises(CardError, match="cards are 0 to 51, got 52"):
        royalties(boards, ROYALTY_TABLES[Scoring.CLASSIC])


def test_bad_board_shape() -> None:
    with pytest.raises(BoardError, match="shape"):
        board_keys(np.zeros((3, 12), dtype=np.int64))


def test_valid_key_sets_have_every_class() -> None:
    assert len(VALID_TOP_KEYS) == 455
    assert len(VALID_FIVE_KEYS) == 7462


def test_royalties_of_keys_equal_royalties() -> None:
    table = ROYALTY_TABLES[Scoring.AMERICAN]
    keys = board_keys(BOARDS[:5000])
    assert np.array_equal(royalties_of_keys(keys.astype(np.int64), table), royalties(BOARDS[:5000], table))


@pytest.mark.parametrize(
    ("column", "key", "message"),
    [
        (0, 2 << 20 | 5 << 16, "board 1: 2424832 is not a top-row rank key"),  # two pair cannot be 3 cards
        (1, 0, "board 1: 0 is not a middle-row rank key"),
        (2, 9 << 20, "board 1: 9437184 is not a bottom-row rank key"),
        (0, -1, "board 1: -1 is not a top-row rank key"),
    ],
)
def test_royalties_of_keys_refuses_made_up_keys(column: int, key: int, message: str) -> None:
    keys = board_keys(BOARDS[:3]).astype(np.int64)
    keys[1, column] = key
    with pytest.raises(BoardError, match=message):
        royalties_of_keys(keys, ROYALTY_TABLES[Scoring.CLASSIC])


def test_royalties_of_keys_refuses_a_bad_shape() -> None:
    with pytest.raises(BoardError, match=r"shape \(n, 3\)"):
        royalties_of_keys(np.zeros((2, 4), dtype=np.int32), ROYALTY_TABLES[Scoring.CLASSIC])
