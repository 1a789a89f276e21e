"""What one seat may know about a hand: the value ``Hand.view(seat)`` returns.

Faces and bots build everything they show or decide from a view, never from the hand, so a
view never holds another seat's discards or held cards, an unrevealed fantasy board or the
deck order: only counts of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from ofc.engine.actions import ActionRecord, Placement
from ofc.engine.clock import ClockReading, time_text
from ofc.engine.result import HandResult
from ofc.rules.cards import Card, format_card
from ofc.rules.rows import ROW_SIZES, ROWS
from ofc.rules.rulebook import HAND_CARDS, Rules


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
class SeenAction:
    """One action of the hand as the viewer saw it (the public history, in order).

    ``placements`` are empty while a fantasy board is face-down (``hidden`` counts its cards);
    ``discards`` holds the viewer's own discarded cards and is empty for other seats, whose
    discards the viewer only counts (``discarded``).
    """

    seat: int
    placements: tuple[Placement, ...]
    discards: tuple[Card, ...]
    discarded: int
    hidden: int
    time: Decimal
    automatic: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form: rows as card lists, as in hand histories."""
        out: dict[str, object] = {"seat": self.seat}
        for row in ROWS:
            out[row.label] = [format_card(card) for card, where in self.placements if where == row]
        out.update(
            discards=_texts(self.discards),
            discarded=self.discarded,
            hidden=self.hidden,
            time=time_text(self.time),
            automatic=self.automatic,
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
    history: tuple[SeenAction, ...] = ()
    start: Decimal = Decimal(0)
    starting_banks: tuple[Decimal, ...] = ()

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
            "history": [action.to_dict() for action in self.history],
            "start": time_text(self.start),
            "starting_banks": [time_text(bank) for bank in self.starting_banks],
        }


_new = object.__new__
_tuple_new = tuple.__new__
"""``SomeNamedTuple(...)`` without its Python-level ``__new__``: the same value, quicker to make."""
_SEEN_FIELDS = ("seat", "placements", "discards", "discarded", "hidden", "time", "automatic")
_SEEN_SEAT, _SEEN_PLACEMENTS, _SEEN_DISCARDS, _SEEN_DISCARDED, _SEEN_HIDDEN, _SEEN_TIME, _SEEN_AUTOMATIC = (
    SeenAction.__dict__[name].__set__ for name in _SEEN_FIELDS
)


def seen_action(
    seat: int,
    placements: tuple[Placement, ...],
    discards: tuple[Card, ...],
    discarded: int,
    hidden: int,
    time: Decimal,
    automatic: bool,
    /,
) -> SeenAction:
    """``SeenAction(...)`` set field by field through its slots: the same value, made in half the time of
    the frozen dataclass's ``__init__`` (the engine makes one or two per action applied)."""
    seen: SeenAction = _new(SeenAction)
    _SEEN_SEAT(seen, seat)
    _SEEN_PLACEMENTS(seen, placements)
    _SEEN_DISCARDS(seen, discards)
    _SEEN_DISCARDED(seen, discarded)
    _SEEN_HIDDEN(seen, hidden)
    _SEEN_TIME(seen, time)
    _SEEN_AUTOMATIC(seen, automatic)
    return seen


SeenForms = tuple["SeenAction", "SeenAction", "SeenAction"]
"""How one action looks: to its own seat, to others once shown, and to others while face-down."""


def seen_forms(record: ActionRecord, face_down: bool) -> SeenForms:
    """The three forms of ``record`` (``face_down``: a fantasy set, hidden until the showdown).

    Forms that come out equal are one object (an action without discards looks the same to
    its seat and to others), so applying an action builds no more than it must.
    """
    action, time, automatic = record.action, record.time, record.automatic
    seat, placements, discards = action.seat, action.placements, action.discards
    own = seen_action(seat, placements, discards, len(discards), 0, time, automatic)
    shown = seen_action(seat, placements, (), len(discards), 0, time, automatic) if discards else own
    if not face_down:
        return own, shown, shown
    return own, shown, seen_action(seat, (), (), len(discards), len(placements), time, automatic)


def seen_by(
    seat: int | None, seen: Sequence[SeenForms], since: int, fantasy: tuple[int, ...], over: bool
) -> tuple[SeenAction, ...]:
    """The form ``seat`` sees of each action from number ``since`` on: its own whole, another street
    seat's shown, another fantasy seat's face-down until the showdown (the one rule for views and updates)."""
    return tuple([
        own if own.seat == seat else public if over or not fantasy[own.seat] else face_down
        for own, public, face_down in seen[since:]
    ])  # fmt: skip


def build_view(
    *,
    rules: Rules,
    seat: int | None,
    button: int,
    street: int,
    to_act: tuple[int, ...],
    now: Decimal,
    fantasy: tuple[int, ...],
    fantasy_in_row: tuple[int, ...],
    rows: Sequence[tuple[Sequence[Card], Sequence[Card], Sequence[Card]]],
    held: Sequence[tuple[Card, ...]],
    discards: Sequence[Sequence[Card]],
    clocks: tuple[ClockReading, ...],
    seen: Sequence[SeenForms],
    result: HandResult | None,
    start: Decimal,
    starting_banks: tuple[Decimal, ...],
) -> HandView:
    """The view of ``seat`` (None: a spectator) of a hand in this state; ``Hand.view`` calls it.

    Another seat's fantasy board is face-down until the showdown; other seats' held cards and
    discards are only counted.
    """
    over = result is not None

    seats = []
    for other, (top, middle, bottom) in enumerate(rows):
        placed = len(top) + len(middle) + len(bottom)
        shown = over or other == seat or not fantasy[other]
        seats.append(
            SeatView(
                seat=other,
                fantasy=fantasy[other],
                fantasy_in_row=fantasy_in_row[other],
                rows=(tuple(top), tuple(middle), tuple(bottom)) if shown else ((), (), ()),
                hidden=0 if shown else placed,
                holding=len(held[other]),
                discarded=len(discards[other]),
                done=placed == HAND_CARDS,
                clock=clocks[other],
            )
        )
    history = seen_by(seat, seen, 0, fantasy, over)
    return HandView(
        rules=rules,
        seat=seat,
        button=button,
        street=street,
        to_act=to_act,
        now=now,
        cards=held[seat] if seat is not None else (),
        discards=tuple(discards[seat]) if seat is not None else (),
        seats=tuple(seats),
        result=result,
        history=history,
        start=start,
        starting_banks=starting_banks,
    )


class ViewUpdate(NamedTuple):
    """What ``seat`` may know now that play changes, and the actions it saw from its ``since``-th on.

    ``Hand.view_update(seat, since)`` returns it: the same knowledge as ``Hand.view(seat)``
    without the clocks and without what is fixed for the hand (rules, button, fantasy deals
    and streaks, all public), so code that keeps its own copy of a seat's knowledge (the
    environments' observations, ``ofc.env.observer``) reads only what changed. ``history`` holds
    the actions from number ``since`` on, each in the form the view shows it now (at the
    showdown a face-down fantasy board is shown, so its earlier form changes: ``over``);
    ``seen`` is how many actions the view holds in all; ``holding`` is every seat's count
    of cards held. A named tuple: one is made per look, so it is kept cheap.
    """

    seat: int
    street: int
    to_act: tuple[int, ...]
    cards: tuple[Card, ...]
    holding: tuple[int, ...]
    history: tuple[SeenAction, ...]
    seen: int
    over: bool


def build_update(
    seat: int,
    street: int,
    to_act: tuple[int, ...],
    fantasy: tuple[int, ...],
    held: Sequence[tuple[Card, ...]],
    seen: Sequence[SeenForms],
    since: int,
    over: bool,
    /,
) -> ViewUpdate:
    """``seat``'s ``ViewUpdate`` of a hand in this state (``Hand.view_update`` calls it, once per look:
    positional arguments, quicker to pass; ``since`` checked)."""
    history = seen_by(seat, seen, since, fantasy, over)
    holding = tuple(map(len, held))
    return _tuple_new(ViewUpdate, (seat, street, to_act, held[seat], holding, history, len(seen), over))
