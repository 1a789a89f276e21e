"""What one seat may know about a hand: the value ``Hand.view(seat)`` returns.

Faces and bots build everything they show or decide from a view, never from the hand, so a
view never holds another seat's discards or held cards, an unrevealed fantasy board or the
deck order: only counts of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ofc.actions import ROW_SIZES, ROWS
from ofc.cards import Card, format_card
from ofc.clock import ClockReading, time_text
from ofc.result import HandResult
from ofc.rules import HAND_CARDS, Rules


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [format_card(card) for card in cards]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it.

    ``rows`` holds the revealed cards of top, middle and bottom; ``hidden`` counts cards placed
    face-down (an unrevealed fantasy board), ``holding`` the cards held but not yet placed,
    ``discarded`` the cards discarded. ``fantasy`` is the size of the seat's fantasy deal
    (0 for a normal hand) and ``fantasy_in_row`` how many fantasy hands in a row this one
    completes (so whether it may still earn a repeat); both are public, since they follow
    from earlier results.
    """

    seat: int
    fantasy: int
    fantasy_in_row: int
    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    hidden: int
    holding: int
    discarded: int
    done: bool
    clock: ClockReading

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form."""
        out: dict[str, object] = {"seat": self.seat, "fantasy": self.fantasy, "fantasy_in_row": self.fantasy_in_row}
        for row, cards in zip(ROWS, self.rows, strict=True):
            out[row.label] = _texts(cards)
        out.update(
            hidden=self.hidden,
            holding=self.holding,
            discarded=self.discarded,
            done=self.done,
            clock=self.clock.to_dict(),
        )
        return out


@dataclass(frozen=True, slots=True)
class HandView:
    """Everything ``seat`` may know now (``seat`` None: a spectator, public facts only).

    ``street`` indexes ``rules.spec.streets`` (0 = the five-card deal; equal to the number of
    streets once they are all played). ``cards`` are the viewer's cards still to place and
    ``discards`` the viewer's own discards. ``result`` is set once the hand is over.
    """

    rules: Rules
    seat: int | None
    button: int
    street: int
    to_act: tuple[int, ...]
    now: Decimal
    cards: tuple[Card, ...]
    discards: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    result: HandResult | None

    @property
    def mine(self) -> SeatView | None:
        """The viewer's own seat (None for a spectator)."""
        return None if self.seat is None else self.seats[self.seat]

    @property
    def may_act(self) -> bool:
        """Whether the viewer is to act now with cards to place."""
        return self.seat is not None and self.seat in self.to_act and bool(self.cards)

    @property
    def in_fantasy(self) -> bool:
        """Whether the viewer plays this hand in fantasy."""
        return self.mine is not None and self.mine.fantasy > 0

    @property
    def rooms(self) -> tuple[int, int, int]:
        """Free places in the viewer's top, middle and bottom rows (none for a spectator)."""
        if self.mine is None:
            return (0, 0, 0)
        rows = self.mine.rows
        return (ROW_SIZES[0] - len(rows[0]), ROW_SIZES[1] - len(rows[1]), ROW_SIZES[2] - len(rows[2]))

    @property
    def discards_due(self) -> int:
        """Cards the viewer must discard with its next action (0 when it may not act)."""
        if not self.may_act:
            return 0
        if self.in_fantasy:
            return len(self.cards) - HAND_CARDS
        return self.rules.spec.streets[self.street].discards

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form for faces and servers."""
        return {
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "button": self.button,
            "street": self.street,
            "to_act": list(self.to_act),
            "now": time_text(self.now),
            "cards": _texts(self.cards),
            "discards": _texts(self.discards),
            "seats": [seat.to_dict() for seat in self.seats],
            "result": None if self.result is None else self.result.to_dict(),
        }

