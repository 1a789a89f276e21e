"""A seat's view as the arrays the rollout kernels read: boards, the unseen pool, the schedule.

Everything here is built from the ``HandView`` alone, so whatever a bot samples is consistent
with what its seat knows: the pool is the 52 cards minus every card the view shows (all
revealed rows, the viewer's held cards and its own discards); opponents' discards, hidden
fantasy boards, cards held by seats yet to act and every future deal come from that pool.
Which deals are still to come, and in what order, the engine says (``ofc.engine.determinize``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ofc.bots.base import seat_of
from ofc.engine.actions import Action
from ofc.engine.determinize import pending_deals
from ofc.engine.view import HandView
from ofc.fast.evaluation import (
    P_FANTASY,
    P_MOBILITY,
    P_ROW_POINTS,
    P_SCOOP,
    PARAMS,
    ROW_START,
    WEIGHTS_DISCARDING,
    WEIGHTS_ONE_A_STREET,
    WEIGHTS_PLACING_ALL,
)
from ofc.fast.kernel_tables import KernelTables
from ofc.fast.rollout import Playouts
from ofc.fast.settle import fantasy_rules_array
from ofc.fast.tables import EVAL_TABLES, royalty_arrays
from ofc.rules.cards import Card
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class KernelRules:
    """The rules as kernel arguments: ``params`` then the evaluation and royalty tables."""

    params: F64
    tables: KernelTables

    @staticmethod
    def of(rules: Rules, fantasy_value: float) -> KernelRules:
        """Kernel arguments for ``rules``, pricing a fantasy entry at ``fantasy_value`` points."""
        params = np.zeros(PARAMS, dtype=np.float64)
        params[P_ROW_POINTS] = rules.row_points
        params[P_SCOOP] = rules.scoop_bonus
        params[P_FANTASY] = fantasy_value if rules.fantasy else 0.0
        params[P_MOBILITY:] = weights_for(rules)
        t = EVAL_TABLES
        pays = royalty_arrays(rules.royalty_table)
        tables = KernelTables(
            t.card_weight, t.card_bit, t.unsuited5, t.flush5, t.unsuited3, pays.top, pays.middle, pays.bottom
        )
        return KernelRules(params, tables)


def weights_for(rules: Rules) -> tuple[float, ...]:
    """The evaluation's weights for the deal schedule of ``rules`` (see ``ofc.fast.evaluation``)."""
    streets = rules.spec.streets
    if any(street.discards for street in streets):
        return WEIGHTS_DISCARDING
    if all(street.cards == 1 for street in streets[1:]):
        return WEIGHTS_ONE_A_STREET
    return WEIGHTS_PLACING_ALL


@lru_cache(maxsize=32)
def kernel_rules(rules: Rules, fantasy_value: float) -> KernelRules:
    """``KernelRules.of``, cached: the arrays are read-only for the kernels."""
    return KernelRules.of(rules, fantasy_value)


def board_array(rows: tuple[tuple[Card, ...], ...]) -> tuple[I64, I64]:
    """A board and its row counts from three rows of cards (top, middle, bottom)."""
    board = np.zeros(13, dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    for r, cards in enumerate(rows):
        for i, card in enumerate(cards):
            board[ROW_START[r] + i] = card
        counts[r] = len(cards)
    return board, counts


def after_action(rows: tuple[tuple[Card, ...], ...], action: Action) -> tuple[I64, I64]:
    """The board arrays of ``rows`` once ``action``'s placements are added."""
    grown = [list(cards) for cards in rows]
    for card, row in action.placements:
        grown[row].append(card)
    return board_array(tuple(tuple(cards) for cards in grown))


def unseen_cards(view: HandView) -> tuple[Card, ...]:
    """The 52 cards minus every card ``view`` shows."""
    seen = set(view.cards) | set(view.discards)
    for seat in view.seats:
        for row in seat.rows:
            seen.update(row)
    return tuple(card for card in range(52) if card not in seen)


def playouts(view: HandView, cand_boards: I64, cand_counts: I64) -> Playouts:
    """The rest of the hand as seen by ``view.seat``, about to act on a normal street.

    The deals still to place come from the engine (``ofc.engine.determinize.pending_deals``), in its
    deal order; face-down fantasy boards are moved last, as nothing the others do depends on
    them. The opponents' discards are burnt unseen.
    """
    me = seat_of(view)
    players = len(view.seats)
    pending = pending_deals(view)
    events = [deal for deal in pending if not deal.fantasy] + [deal for deal in pending if deal.fantasy]
    burn = sum(s.discarded for s in view.seats if s.seat != me and not s.fantasy)
    pool = np.array(unseen_cards(view), dtype=np.int64)
    needed = burn + sum(deal.cards for deal in events)
    if needed > len(pool):  # the kernel would deal past the end of its pool: refuse, never corrupt memory
        raise BotError(
            "the view leaves {unseen} unseen cards but the rest of the hand deals {needed}",
            unseen=len(pool),
            needed=needed,
        )
    boards = np.zeros((players, 13), dtype=np.int64)
    counts = np.zeros((players, 3), dtype=np.int64)
    for seat in range(players):
        boards[seat], counts[seat] = board_array(view.seats[seat].rows)
    return Playouts(
        me=me,
        boards=boards,
        counts=counts,
        cand_boards=cand_boards,
        cand_counts=cand_counts,
        pool=pool,
        burn=burn,
        player=np.array([deal.seat for deal in events], dtype=np.int64),
        cards=np.array([deal.cards for deal in events], dtype=np.int64),
        discards=np.array([deal.discards for deal in events], dtype=np.int64),
        fantasy=np.array([deal.fantasy for deal in events], dtype=np.bool_),
        in_row=np.array([s.fantasy_in_row for s in view.seats], dtype=np.int64),
        fantasy_rules=fantasy_rules_array(view.rules),
    )


__all__ = ["KernelRules", "after_action", "board_array", "kernel_rules", "playouts", "unseen_cards", "weights_for"]
