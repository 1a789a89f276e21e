"""Batch evaluation kernels against the pure-Python ranking core, exhaustively."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import pytest

from ofc.fast import eval3, eval5
from ofc.fast.tables import RANK_WEIGHTS, build_eval_tables
from ofc.rules.cards import parse_cards
from ofc.rules.errors import BoardError, CardError
from ofc.rules.ranking import rank3, rank5


def all_hands(size: int) -> np.ndarray:
    flat = np.fromiter((c for combo in combinations(range(52), size) for c in combo), dtype=np.uint8)
    return flat.reshape(-1, size)


@pytest.mark.slow
def test_eval5_equals_core_on_every_hand() -> None:
    hands = all_hands(5)
    assert hands.shape == (2_598_960, 5)
    keys = eval5(hands)
    expected = np.fromiter((rank5(hand) for hand in hands.tolist()), dtype=np.int32, count=len(hands))
    assert np.array_equal(keys, expected)
    assert len(np.unique(keys)) == 7462


def test_eval3_equals_core_on_every_hand() -> None:
    hands = all_hands(3)
    assert hands.shape == (22_100, 3)
    expected = np.array([rank3(hand) for hand in hands.tolist()], dtype=np.int32)
    assert np.array_equal(eval3(hands), expected)
    assert len(np.unique(expected)) == 455


def test_card_order_does_not_matter() -> None:
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(20_000)], dtype=np.int64)
    shuffled = rng.permuted(hands, axis=1)
    assert np.array_equal(eval5(hands), eval5(shuffled))
    tops = hands[:, :3]
    assert np.array_equal(eval3(tops), eval3(rng.permuted(tops, axis=1)))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.int64])
def test_any_integer_dtype(dtype: type[np.integer[Any]]) -> None:
    hand = np.array([parse_cards("Ts Js Qs Ks As")], dtype=dtype)
    assert eval5(hand).tolist() == [8 << 20 | 13 << 16]
    trips = np.array([parse_cards("Qh Qd Qc")], dtype=dtype)
    assert eval3(trips).tolist() == [3 << 20 | 11 << 16]


def test_exact_keys() -> None:
    hands = [parse_cards(text) for text in ("Ah 2d 3c 4s 5h", "7c 5c 4c 3c 2c", "Kh Kd 9s 9c 2h")]
    assert eval5(np.array(hands)).tolist() == [
        4 << 20 | 4 << 16,
        5 << 20 | 6 << 16 | 4 << 12 | 3 << 8 | 2 << 4 | 1,
        2 << 20 | 12 << 16 | 8 << 12 | 1 << 8,
    ]


@pytest.mark.parametrize("shape", [(4, 4), (5,), (3, 5, 1)])
def test_bad_shapes(shape: tuple[int, ...]) -> None:
    with pytest.raises(BoardError, match="shape"):
        eval5(np.zeros(shape, dtype=np.int64))


@pytest.mark.parametrize("bad", [52, -1, 100_000])
def test_cards_outside_the_deck_are_refused(bad: int) -> None:
    """Numba does not check bounds: such a card read past the tables and gave a made-up key."""
    hand = np.array([[bad, 1, 2, 3, 4]], dtype=np.int64)
    with pytest.raises(CardError, match=f"cards are 0 to 51, got {bad}"):
        eval5(hand)
    with pytest.raises(CardError, match=f"cards are 0 to 51, got {bad}"):
        eval3(hand[:, 2::-1])


def test_no_hands_need_no_check() -> None:
    assert eval5(np.zeros((0, 5), dtype=np.int64)).shape == (0,)


def test_float_cards_are_refused() -> None:
    with pytest.raises(BoardError, match="integers"):
        eval3(np.zeros((2, 3), dtype=np.float64))


def test_tables_are_rebuilt_identically() -> None:
    tables = build_eval_tables()
    assert RANK_WEIGHTS[:4] == (0, 1, 5, 22)
    assert int(tables.unsuited5.max()) == 7 << 20 | 13 << 16 | 12 << 12
    assert int((tables.unsuited5 >= 0).sum()) == 6175
    assert int((tables.flush5 > 0).sum()) == 1287
