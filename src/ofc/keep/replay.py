"""Playing a score book through the match engine: everything a keeper needs, derived.

``replay(book)`` checks every hand against its deal plan (who is dealt in, who plays fantasy
with how many cards) and scores it with ``ofc.rules.scoring.score_boards`` before handing the sheet
to ``ofc.series.match.Match.record``: the button, fantasies, the end of the match and the loss limit
are the engine's. A dead player (did not finish) is scored as a fouled hand: they are given a
fouled stand-in board made of cards nobody holds, so the engine's own foul rules apply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ofc.keep.book import Book, Hand
from ofc.keep.breakdown import PairResult, pair_result
from ofc.keep.entries import BookError, Entry
from ofc.keep.settle import Transfer, fewest_transfers
from ofc.rules.cards import ALL_CARDS, Card, format_card
from ofc.rules.errors import OfcError
from ofc.rules.ranking import rank5
from ofc.rules.rulebook import HAND_CARDS, Rules
from ofc.rules.scoring import Board, PlayerScore, ScoreSheet, is_fouled, score_boards
from ofc.series.match import HandRecord, Match
from ofc.series.rotation import DealPlan


@dataclass(frozen=True)
class PlayedHand:
    """One hand of the book as the engine settled it."""

    number: int
    """From 0."""
    plan: DealPlan
    names: tuple[str, ...]
    """The players dealt in, in the plan's (seat) order, aligned with ``sheet``."""
    entries: Mapping[str, Entry]
    sheet: ScoreSheet
    record: HandRecord
    rules: Rules
    players: tuple[str, ...]
    """Every player of the book, in seat order (some may not be dealt in)."""

    @property
    def button(self) -> str:
        """Who had the button."""
        return self.names[self.plan.button_index]

    @property
    def order(self) -> tuple[str, ...]:
        """Order of play: left of the button first, the button last."""
        return tuple(self.names[self.plan.index(seat)] for seat in self.plan.order)

    @property
    def fantasy(self) -> dict[str, int]:
        """Who played this hand in fantasy, with the cards they were dealt."""
        return {name: cards for name, cards in zip(self.names, self.plan.fantasy, strict=True) if cards}

    @property
    def fouled(self) -> list[str]:
        """Players whose hand is dead or fouled."""
        return [name for name in self.names if self.entries[name].dead or self.line(name).fouled]

    @property
    def earned(self) -> dict[str, int]:
        """Fantasy earned for the next hand (cards), as the scoring says."""
        return {name: self.line(name).fantasy for name in self.names if self.line(name).fantasy}

    def line(self, name: str) -> PlayerScore:
        """The score-sheet line of ``name``."""
        return self.sheet.players[self.names.index(name)]

    @property
    def points(self) -> dict[str, Fraction]:
        """Points each player of the book actually won this hand, loss limit applied."""
        return dict(zip(self.players, self.record.points, strict=True))

    def pair(self, name: str, other: str) -> PairResult:
        """What ``name`` won from ``other`` before any loss limit: rows, scoop, royalties."""
        a, b = self.names.index(name), self.names.index(other)
        return pair_result(self.sheet.players[a], self.sheet.players[b], b, self.rules)


@dataclass(frozen=True)
class Keeping:
    """A book played through the engine: its hands, what comes next and the running totals."""

    book: Book
    hands: tuple[PlayedHand, ...]
    match: Match

    @property
    def over(self) -> bool:
        """Whether the match has ended (no more hands may be entered)."""
        return self.match.finished

    @property
    def next_plan(self) -> DealPlan | None:
        """The next hand's deal plan (None once the match is over)."""
        return None if self.match.finished else self.match.next_deal()

    @property
    def next_button(self) -> str | None:
        """Who has the button for the next hand."""
        plan = self.next_plan
        return None if plan is None else self.book.players[plan.button]

    @property
    def next_order(self) -> tuple[str, ...]:
        """The next hand's order of play (empty once the match is over)."""
        plan = self.next_plan
        return () if plan is None else tuple(self.book.players[seat] for seat in plan.order)

    @property
    def next_fantasy(self) -> dict[str, int]:
        """Who plays the next hand in fantasy and with how many cards."""
        plan = self.next_plan
        if plan is None:
            return {}
        pairs = zip(plan.seats, plan.fantasy, strict=True)
        return {self.book.players[seat]: cards for seat, cards in pairs if cards}

    @property
    def dealt(self) -> tuple[str, ...]:
        """Who is still in the match (dealt into the next hand)."""
        return tuple(self.book.players[seat] for seat in self.match.active)

    @property
    def points(self) -> dict[str, Fraction]:
        """Running total of points per player, loss limit applied."""
        return dict(zip(self.book.players, self.match.ledger.points, strict=True))

    @property
    def money(self) -> dict[str, Fraction]:
        """Running total of money per player."""
        return dict(zip(self.book.players, self.match.ledger.money, strict=True))

    @property
    def left(self) -> list[str]:
        """Players who reached the loss limit and left the match."""
        return [name for seat, name in enumerate(self.book.players) if seat not in self.match.active]

    def settlement(self) -> list[Transfer]:
        """Who pays whom how much to settle the money so far (fewest transfers)."""
        return fewest_transfers(self.money)

    def next_book(self) -> Book:
        """A new book with the same players and rules, the button one seat on from the last hand's."""
        last = self.hands[-1].plan.button if self.hands else self.book.button - 1
        return Book(self.book.rules, self.book.players, (last + 1) % len(self.book.players))


def replay(book: Book) -> Keeping:
    """Play every hand of ``book`` through the engine; ``BookError`` names the first bad hand."""
    match = Match(book.rules, button=book.button)
    played: list[PlayedHand] = []
    for number, hand in enumerate(book.hands):
        played.append(_play(book, match, number, hand))
    return Keeping(book, tuple(played), match)


def _play(book: Book, match: Match, number: int, hand: Hand) -> PlayedHand:
    shown = number + 1
    if match.finished:
        raise BookError(
            "hand {hand}: the match is over after {number} hands; start a new book",
            field="hand",
            hand=shown,
            number=number,
        )
    plan = match.next_deal()
    names = tuple(book.players[seat] for seat in plan.seats)
    _check_players(book, plan, names, hand, shown)
    entries = {name: hand[name] for name in names}
    _check_cards(book.rules, plan, names, entries, shown)
    boards = _boards(names, entries)
    try:
        sheet = score_boards(boards, book.rules, plan.fantasy_in_row)
        record = match.record(sheet)
    except OfcError as error:
        raise BookError("hand {hand}: {error}", field="hand", hand=shown, error=error) from None
    return PlayedHand(number, plan, names, entries, sheet, record, book.rules, book.players)


def _check_players(book: Book, plan: DealPlan, names: Sequence[str], hand: Hand, shown: int) -> None:
    for name in hand:
        if name not in book.players:
            raise BookError(
                "hand {hand}: unknown player {name!r} (players: {names})",
                field=name,
                hand=shown,
                name=name,
                names=", ".join(book.players),
            )
        if name not in names:
            raise BookError(
                "hand {hand}: {name} left the match at the loss limit and is not dealt in",
                field=name,
                hand=shown,
                name=name,
            )
    for name in names:
        if name not in hand:
            raise BookError(
                "hand {hand}: no board for {name} (enter their board, or 'dead')", field=name, hand=shown, name=name
            )


def _check_cards(rules: Rules, plan: DealPlan, names: Sequence[str], entries: Mapping[str, Entry], shown: int) -> None:
    owner: dict[Card, str] = {}
    normal_discards = sum(street.discards for street in rules.spec.streets)
    for name, cards in zip(names, plan.fantasy, strict=True):
        entry = entries[name]
        for card in entry.cards:
            if card in owner:
                if owner[card] == name:
                    raise BookError(
                        "hand {hand}: card {card} is entered twice", field=name, hand=shown, card=format_card(card)
                    )
                raise BookError(
                    "hand {hand}: card {card} is entered for both {first} and {name}",
                    field=name,
                    hand=shown,
                    card=format_card(card),
                    first=owner[card],
                    name=name,
                )
            owner[card] = name
        if entry.dead or entry.discards is None:
            continue
        due = cards - HAND_CARDS if cards else normal_discards
        if len(entry.discards) != due:
            if cards:
                raise BookError(
                    "hand {hand}: {name} plays fantasy with {cards} cards, so discards {due}, not {given}: "
                    "the board is not drawn from the deal",
                    field=f"{name}.discards",
                    hand=shown,
                    name=name,
                    cards=cards,
                    due=due,
                    given=len(entry.discards),
                )
            raise BookError(
                "hand {hand}: {name} discards {due} a hand, not {given}: the board is not drawn from the deal",
                field=f"{name}.discards",
                hand=shown,
                name=name,
                due=due,
                given=len(entry.discards),
            )


def _boards(names: Sequence[str], entries: Mapping[str, Entry]) -> list[Board]:
    used = {card for entry in entries.values() for card in entry.cards}
    boards: list[Board] = []
    for name in names:
        board = entries[name].board
        if board is None:
            board = fouled_stand_in([card for card in ALL_CARDS if card not in used])
            used.update(board.cards)
        boards.append(board)
    return boards


def fouled_stand_in(free: Sequence[Card]) -> Board:
    """A fouled board of 13 cards from ``free`` (at least 13): how a dead hand is scored.

    The first 13 free cards are cut, at each of their 13 rotations, into a middle and a
    bottom; whichever of the two is stronger goes in the middle. Two rank-equal 5-card rows
    at every rotation would need all 13 cards of one rank, so a foul is always found.
    """
    cards = list(free[:HAND_CARDS])
    for shift in range(len(cards)):
        turned = cards[shift:] + cards[:shift]
        first, second, top = turned[:5], turned[5:10], turned[10:]
        middle, bottom = (first, second) if rank5(first) > rank5(second) else (second, first)
        board = Board(tuple(top), tuple(middle), tuple(bottom))
        if is_fouled(board):
            return board
    raise BookError("no fouled board can be made of the cards left", field="hand")
