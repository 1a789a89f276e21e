"""The settlement kernels equal ``ofc.rules.scoring`` on 40,000 random tables per scoring system.

Each table has 2-4 boards drawn from one deck: half dealt at random (mostly fouls and high
cards), half built to be strong (QQ+ or trips on top, full houses and quads below), so that
fantasy entries, stays and the stay limit all occur many times. The rules change every 2,000
tables: stay conditions, ``fantasy_max_in_row``, fantasy on or off, and each seat's streak.
Per seat the kernel's points against the table, royalties and "earns a fantasy" must equal
the score sheet's ``points``, ``royalties.total`` and ``fantasy > 0``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ofc.fast.settle import settle_tables
from ofc.rules.cards import ALL_CARDS, Card
from ofc.rules.errors import BoardError
from ofc.rules.rulebook import Rules, StayCondition
from ofc.rules.scoring import Board, row_keys, score_boards

TABLES = 40_000
CHUNK = 2_000
CONDITIONS = sorted(StayCondition, key=lambda condition: condition.value)


def _take(deck: list[Card], rank: int, count: int) -> list[Card] | None:
    """``count`` cards of ``rank`` still in ``deck`` (removed from it), or None if too few."""
    found = [card for card in deck if card // 4 == rank][:count]
    if len(found) < count:
        return None
    for card in found:
        deck.remove(card)
    return found


def _fill(deck: list[Card], cards: list[Card], size: int) -> tuple[Card, ...]:
    while len(cards) < size:
        cards.append(deck.pop())
    return tuple(cards)


def strong_board(deck: list[Card], rng: random.Random) -> Board:
    """A board likely to be live with a fantasy-grade top and strong rows below."""
    top_rank = rng.choice([10, 11, 12, 10, 11, 12, rng.randrange(13)])
    top = _take(deck, top_rank, rng.choice([2, 2, 3])) or []
    bottom = (_take(deck, rng.randrange(13), 4) or []) if rng.random() < 0.4 else []
    middle: list[Card] = []
    if rng.random() < 0.5:
        middle = _take(deck, rng.randrange(13), 3) or []
        middle += _take(deck, rng.randrange(13), 2) or []
    board = Board(_fill(deck, top, 3), _fill(deck, middle, 5), _fill(deck, bottom, 5))
    keys = row_keys(board)
    if keys.middle > keys.bottom:
        board = Board(board.top, board.bottom, board.middle)  # the stronger five at the bottom
    return board


def random_table(players: int, rng: random.Random) -> list[Board]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    if rng.random() < 0.5:
        return [Board(tuple(deck[13 * p : 13 * p + 3]), tuple(deck[13 * p + 3 : 13 * p + 8]),
                      tuple(deck[13 * p + 8 : 13 * p + 13])) for p in range(players)]  # fmt: skip
    return [strong_board(deck, rng) for _ in range(players)]


def random_rules(scoring: str, rng: random.Random) -> Rules:
    stay = [condition for condition in CONDITIONS if rng.random() < 0.5]
    return Rules.of(
        players=4,
        scoring=scoring,
        fantasy=rng.random() < 0.9,
        fantasy_stay=",".join(condition.value for condition in stay) or "none",
        fantasy_max_in_row=rng.choice([1, 2, 3, None]),
    )


@pytest.mark.slow
@pytest.mark.parametrize("scoring", ["classic", "american"])
def test_the_kernels_settle_as_the_core(scoring: str) -> None:
    rng = random.Random(f"settle-{scoring}")
    entries = stays = limited = 0
    for _ in range(TABLES // CHUNK):
        rules = random_rules(scoring, rng)
        for players in (2, 3, 4):
            tables = [random_table(players, rng) for _ in range(CHUNK // 3)]
            streaks = [[rng.choice([0, 0, 1, 2, 3]) for _ in range(players)] for _ in tables]
            boards = np.array([[board.top + board.middle + board.bottom for board in table] for table in tables])
            settled = settle_tables(boards, np.array(streaks), rules)
            for t, (table, streak) in enumerate(zip(tables, streaks, strict=True)):
                sheet = score_boards(table, rules.with_settings({"players": players}), streak)
                for p, line in enumerate(sheet.players):
                    assert settled.points[t, p] == line.points
                    assert settled.royalties[t, p] == line.royalties.total
                    assert bool(settled.earns[t, p]) == (line.fantasy > 0)
                    entries += line.fantasy > 0 and streak[p] == 0
                    stays += line.fantasy > 0 and streak[p] > 0
                    limited += (not line.fouled and streak[p] > 0 and rules.fantasy_max_in_row is not None
                                and streak[p] >= rules.fantasy_max_in_row)  # fmt: skip
    assert entries > 1_000
    assert stays > 300
    assert limited > 1_000


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(BoardError, match="boards must be tables x seats x 13 cards"):
        settle_tables(np.zeros((2, 2, 12)), np.zeros((2, 2)), Rules())
    with pytest.raises(BoardError):
        settle_tables(np.zeros((2, 2, 13)), np.zeros((2, 3)), Rules())
