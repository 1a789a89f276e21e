"""Scoring finished boards: fouls, royalties, fantasy qualification and the settlement.

Every pair of players is settled on its own, so the result is zero-sum. ``score_boards`` is
the one entry point the engine and the faces use; the helpers are public for tests and tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from ofc.rules.cards import Card, check_distinct, format_card
from ofc.rules.errors import BoardError, RulesError
from ofc.rules.ranking import Category, category_of, deciding_ranks, is_royal_flush, rank3, rank5
from ofc.rules.rows import ROWS
from ofc.rules.rulebook import (
    HAND_CARDS,
    PROGRESSIVE_FANTASY_CARDS,
    PROGRESSIVE_TRIPS_CARDS,
    FantasyCards,
    RoyaltyTable,
    Rules,
    StayCondition,
)
from ofc.rules.terms import Term
from ofc.rules.variants import VARIANT_TERMS

ROW_NAMES = tuple(row.label for row in ROWS)
ROW_SIZES = {row.label: row.size for row in ROWS}
QUEENS = 10
"""Rank index of the queen: QQ on top is the lowest hand that enters fantasy."""


@dataclass(frozen=True)
class Board:
    """A finished board: 3 cards on top, 5 in the middle, 5 at the bottom, all distinct."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]

    def __post_init__(self) -> None:
        for name in ROW_NAMES:
            row = tuple(getattr(self, name))
            object.__setattr__(self, name, row)
            if len(row) != ROW_SIZES[name]:
                raise BoardError(
                    "the {row} row needs {size} cards, got {count}",
                    row=Term("row", name),
                    size=ROW_SIZES[name],
                    count=len(row),
                )
            for card in row:
                if not isinstance(card, int) or not 0 <= card < 52:
                    raise BoardError(
                        "the {row} row holds something that is not a card: {card!r}", row=Term("row", name), card=card
                    )
        check_distinct(self.cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 13 cards, top row first."""
        return self.top + self.middle + self.bottom

    def row(self, name: str) -> tuple[Card, ...]:
        """The row called ``name`` (``top``, ``middle`` or ``bottom``)."""
        if name not in ROW_SIZES:
            raise BoardError("unknown row {name!r}: rows are top, middle, bottom", name=name)
        cards: tuple[Card, ...] = getattr(self, name)
        return cards


@dataclass(frozen=True)
class RowKeys:
    """Rank keys of the three rows of a board (see ``ofc.rules.ranking``)."""

    top: int
    middle: int
    bottom: int

    @property
    def fouled(self) -> bool:
        """Whether the rows fail to rise: bottom >= middle >= top is required."""
        return self.bottom < self.middle or self.middle < self.top


@dataclass(frozen=True)
class Royalties:
    """Royalties per row; all zero for a fouled board."""

    top: int = 0
    middle: int = 0
    bottom: int = 0

    @property
    def total(self) -> int:
        """The sum over the three rows."""
        return self.top + self.middle + self.bottom

    def to_dict(self) -> dict[str, int]:
        """JSON-friendly form: each row and the total."""
        return {"top": self.top, "middle": self.middle, "bottom": self.bottom, "total": self.total}


def dealt_board(top: tuple[Card, ...], middle: tuple[Card, ...], bottom: tuple[Card, ...]) -> Board:
    """A ``Board`` of rows the engine filled (3, 5 and 5 cards dealt from one deck), not checked again."""
    board = object.__new__(Board)
    board.__dict__.update(top=top, middle=middle, bottom=bottom)  # as the frozen __init__ sets them
    return board


def row_keys(board: Board) -> RowKeys:
    """Rank the three rows of ``board``."""
    return RowKeys(rank3(board.top), rank5(board.middle), rank5(board.bottom))


def is_fouled(board: Board) -> bool:
    """Whether ``board`` is a dead hand."""
    return row_keys(board).fouled


def top_royalty(key: int, table: RoyaltyTable) -> int:
    """Royalty of a top row: pairs from 66, any trips."""
    category = category_of(key)
    leading = deciding_ranks(key)[0]
    if category == Category.TRIPS:
        return table.top_trips[leading]
    if category == Category.PAIR:
        return table.top_pair[leading]
    return 0


def middle_royalty(key: int, table: RoyaltyTable) -> int:
    """Royalty of a middle row: trips and better."""
    return table.middle_royal if is_royal_flush(key) else table.middle[category_of(key)]


def bottom_royalty(key: int, table: RoyaltyTable) -> int:
    """Royalty of a bottom row: straight and better."""
    return table.bottom_royal if is_royal_flush(key) else table.bottom[category_of(key)]


def royalties_of(keys: RowKeys, rules: Rules) -> Royalties:
    """Royalties of ranked rows under ``rules``; zero when the rows foul."""
    if keys.fouled:
        return Royalties()
    table = rules.royalty_table
    return Royalties(
        top_royalty(keys.top, table),
        middle_royalty(keys.middle, table),
        bottom_royalty(keys.bottom, table),
    )


def royalties(board: Board, rules: Rules) -> Royalties:
    """Royalties of ``board`` under ``rules``; zero when it fouls."""
    return royalties_of(row_keys(board), rules)


def fantasy_entry_cards(top_key: int, rules: Rules) -> int:
    """Cards a fantasy earned by this top row deals (0 below QQ); the board must be live."""
    category = category_of(top_key)
    leading = deciding_ranks(top_key)[0]
    qualifies = category == Category.TRIPS or (category == Category.PAIR and leading >= QUEENS)
    if not qualifies:
        return 0
    if rules.fantasy_cards is FantasyCards.PROGRESSIVE:
        if category == Category.TRIPS:
            return PROGRESSIVE_TRIPS_CARDS
        return PROGRESSIVE_FANTASY_CARDS[leading]
    return rules.spec.fantasy_cards


def meets_stay(keys: RowKeys, rules: Rules) -> bool:
    """Whether a live fantasy hand meets one of the stay conditions enabled in ``rules``."""
    checks = {
        StayCondition.TOP_TRIPS: category_of(keys.top) == Category.TRIPS,
        StayCondition.BOTTOM_QUADS_PLUS: category_of(keys.bottom) >= Category.QUADS,
        StayCondition.MIDDLE_QUADS_PLUS: category_of(keys.middle) >= Category.QUADS,
        StayCondition.MIDDLE_FULL_HOUSE_PLUS: category_of(keys.middle) >= Category.FULL_HOUSE,
    }
    return any(checks[condition] for condition in rules.fantasy_stay)


def next_fantasy_cards(keys: RowKeys, rules: Rules, fantasy_in_row: int = 0) -> int:
    """Cards the player's next hand deals in fantasy, or 0 for a normal hand.

    ``fantasy_in_row`` is how many fantasy hands in a row this hand completes (0 when this
    hand was not a fantasy hand). From a normal hand QQ+ on top enters; from a fantasy hand
    only the stay conditions count, and only below ``fantasy_max_in_row``.
    """
    if fantasy_in_row < 0:
        raise RulesError("fantasy_in_row cannot be negative, got {fantasy_in_row}", fantasy_in_row=fantasy_in_row)
    if not rules.fantasy or keys.fouled:
        return 0
    if fantasy_in_row == 0:
        return fantasy_entry_cards(keys.top, rules)
    limit = rules.fantasy_max_in_row
    if limit is not None and fantasy_in_row >= limit:
        return 0
    if not meets_stay(keys, rules):
        return 0
    return rules.repeat_fantasy_cards


@dataclass(frozen=True)
class PlayerScore:
    """One player's line of a score sheet.

    ``vs[j]`` is what this player wins from player ``j`` (0 against itself); ``points`` is
    their sum. ``fantasy`` is the number of cards the next hand deals in fantasy (0 if none).
    """

    keys: RowKeys
    royalties: Royalties
    fantasy: int
    vs: tuple[int, ...]

    @property
    def fouled(self) -> bool:
        """Whether this board is dead."""
        return self.keys.fouled

    @property
    def points(self) -> int:
        """Net points against the whole table."""
        return sum(self.vs)


@dataclass(frozen=True)
class ScoreSheet:
    """The result of one hand, players in seat order."""

    players: tuple[PlayerScore, ...]

    @property
    def points(self) -> tuple[int, ...]:
        """Net points per player; they sum to zero."""
        return tuple(p.points for p in self.players)


def settle_pair(a: RowKeys, a_royalties: int, b: RowKeys, b_royalties: int, rules: Rules) -> int:
    """Points player A wins from player B (B wins the negative)."""
    if a.fouled and b.fouled:
        return 0
    per_row = rules.row_points
    if a.fouled or b.fouled:
        sign = -1 if a.fouled else 1
        rows = 3 * per_row + rules.scoop_bonus
        return sign * rows + a_royalties - b_royalties
    wins = losses = 0
    for mine, theirs in ((a.top, b.top), (a.middle, b.middle), (a.bottom, b.bottom)):
        if mine > theirs:
            wins += 1
        elif mine < theirs:
            losses += 1
    rows = per_row * (wins - losses)
    if wins == 3:
        rows += rules.scoop_bonus
    elif losses == 3:
        rows -= rules.scoop_bonus
    return rows + a_royalties - b_royalties


def score_boards(boards: Sequence[Board], rules: Rules, fantasy_in_row: Sequence[int] | None = None) -> ScoreSheet:
    """Score a table of finished boards (2 to the variant's maximum players).

    ``fantasy_in_row[i]`` says how many fantasy hands in a row player ``i`` completes with this
    hand (0, the default, for a normal hand); it decides repeat fantasies.

    A queen pair on top (7) and a flush at the bottom (4) against a fouled board in classic
    scoring: three rows won at 2 each (6) plus the royalties (11), and a fantasy of 13 cards:

    >>> from ofc.rules.cards import parse_cards as cards
    >>> rules = Rules.preset("classic")
    >>> flush = Board(cards("Qh Qd 2c"), cards("9s 9c 5d 5h 3c"), cards("Ah Kh Th 7h 4h"))
    >>> fouled = Board(cards("As Ac 3d"), cards("Ks Kd 6c 4d 2d"), cards("Js Jd 8s 8c 6h"))
    >>> royalties(flush, rules), is_fouled(fouled)
    (Royalties(top=7, middle=0, bottom=4), True)
    >>> sheet = score_boards([flush, fouled], rules)
    >>> sheet.points, sheet.players[0].fantasy
    ((17, -17), 13)
    """
    spec = rules.spec
    if not spec.min_players <= len(boards) <= spec.max_players:
        raise RulesError(
            "setting players: {variant} is played by {min_players}-{max_players} players, got {n_boards} boards",
            variant=VARIANT_TERMS[rules.variant],
            min_players=spec.min_players,
            max_players=spec.max_players,
            n_boards=len(boards),
        )
    streaks = tuple(fantasy_in_row) if fantasy_in_row is not None else (0,) * len(boards)
    if len(streaks) != len(boards):
        raise RulesError(
            "fantasy_in_row has {n_streaks} entries for {n_boards} boards", n_streaks=len(streaks), n_boards=len(boards)
        )
    _check_no_shared_cards(boards)
    return settle_boards(boards, rules, streaks)


def settle_boards(boards: Sequence[Board], rules: Rules, streaks: Sequence[int]) -> ScoreSheet:
    """``score_boards`` without its checks, for a table already known to be one (the engine's boards:
    dealt from one deck, a seat per board, a streak per seat)."""
    keys = [row_keys(board) for board in boards]
    pays = [royalties_of(k, rules) for k in keys]
    count = len(keys)
    vs = [[0] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):  # settlement is zero-sum: B wins what A loses
            won = settle_pair(keys[i], pays[i].total, keys[j], pays[j].total, rules)
            vs[i][j] = won
            vs[j][i] = -won
    return ScoreSheet(
        tuple(
            PlayerScore(mine, pays[i], next_fantasy_cards(mine, rules, streaks[i]), tuple(vs[i]))
            for i, mine in enumerate(keys)
        )
    )


def _check_no_shared_cards(boards: Sequence[Board]) -> None:
    seen: set[Card] = set()
    for card in chain.from_iterable(board.cards for board in boards):
        if card in seen:
            raise BoardError("card {card} is on two boards", card=format_card(card))
        seen.add(card)


__all__ = [
    "HAND_CARDS",
    "ROW_NAMES",
    "Board",
    "PlayerScore",
    "RowKeys",
    "Royalties",
    "ScoreSheet",
    "bottom_royalty",
    "dealt_board",
    "fantasy_entry_cards",
    "is_fouled",
    "meets_stay",
    "middle_royalty",
    "next_fantasy_cards",
    "row_keys",
    "royalties",
    "royalties_of",
    "score_boards",
    "settle_boards",
    "settle_pair",
    "top_royalty",
]
