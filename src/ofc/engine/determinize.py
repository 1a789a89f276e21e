"""Determinization: a full ``Hand`` consistent with what one seat's view shows.

Search code (information-set Monte Carlo, our bots, research users) samples the cards a seat
cannot see and plays on from a real engine hand. ``determinize(view, rng)`` builds one: the
deck is laid out in the engine's own deal order (``ofc.engine.deals``), every card the view shows
where it was dealt, every other place (other seats' held cards and discards, face-down
fantasy boards, the rest of the deck) filled from a shuffle of the unseen cards; the public
history is then replayed through ``Hand.apply``/``advance``, so the engine itself checks the
result. The seat's own view of the new hand equals the view it was built from.

``pending_deals(view)`` lists, for play-out kernels, the deals whose cards the seat has not
yet seen placed: other seats' held cards, face-down fantasy boards, and every deal to come.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ofc.engine.actions import Action
from ofc.engine.autoplace import auto_action
from ofc.engine.deals import Deal, deal_sequence
from ofc.engine.hand import Hand
from ofc.engine.view import HandView, SeenAction
from ofc.rules.cards import ALL_CARDS, Card, Deck
from ofc.rules.errors import DeterminizeError, OfcError

FantasySetter = Callable[[Hand, int], Action]
"""Chooses a face-down fantasy board: given the determinized hand and the fantasy seat to act."""


@dataclass(frozen=True)
class _Layout:
    """Where a view's cards lie in the deal: per deal, the cards the viewer knows, then how many it does not."""

    deals: tuple[Deal, ...]
    known: tuple[tuple[Card, ...], ...]
    """Per dealt chunk: its known cards (see ``_auto_order``); the held cards in their dealt order."""
    dealt: int


def _fantasy_sizes(view: HandView) -> tuple[int, ...]:
    return tuple(seat.fantasy for seat in view.seats)


def _check_history(view: HandView) -> None:
    """Every card on a board and every discard count of ``view`` must come from its history."""
    for state in view.seats:
        mine = [action for action in view.history if action.seat == state.seat]
        placed = sum(len(action.placements) + action.hidden for action in mine)
        on_board = sum(len(row) for row in state.rows) + state.hidden
        discarded = sum(action.discarded for action in mine)
        if placed != on_board or discarded != state.discarded:
            raise DeterminizeError(
                "the view's history accounts for {placed} placed and {discarded} discarded cards of seat "
                "{seat}, its board shows {on_board} and {shown_discarded}: not a view the engine made",
                placed=placed,
                discarded=discarded,
                seat=state.seat,
                on_board=on_board,
                shown_discarded=state.discarded,
            )


def _layout(view: HandView) -> _Layout:
    """Map every action and held card of ``view`` onto the chunk of the deal it came from."""
    _check_history(view)
    deals = deal_sequence(view.rules, view.button, _fantasy_sizes(view))
    chunks: dict[int, list[int]] = {}
    for index, deal in enumerate(deals):
        chunks.setdefault(deal.seat, []).append(index)
    used = dict.fromkeys(chunks, 0)
    known: dict[int, tuple[Card, ...]] = {}
    for action in view.history:
        seat = action.seat
        if used[seat] >= len(chunks[seat]):
            raise DeterminizeError("seat {seat} acts more often than it is dealt cards", seat=seat)
        known[chunks[seat][used[seat]]] = _auto_order(action)
        used[seat] += 1
    for state in view.seats:
        if state.holding:
            if used[state.seat] >= len(chunks[state.seat]):
                raise DeterminizeError("seat {seat} holds cards it was never dealt", seat=state.seat)
            mine = state.seat == view.seat
            known[chunks[state.seat][used[state.seat]]] = view.cards if mine else ()
            used[state.seat] += 1
    dealt = sum(used.values())
    if sorted(known) != list(range(dealt)):
        raise DeterminizeError("the view's actions and held cards do not follow the engine's deal order")
    return _Layout(deals, tuple(known[index] for index in range(dealt)), dealt)


def _auto_order(action: SeenAction) -> tuple[Card, ...]:
    """The action's cards in an order from which the automatic placement makes the same action.

    ``auto_action`` puts each held card in the lowest row with room and discards the last
    ones, so the cards placed at the bottom come first, then the middle, then the top, then
    the discards. (Actions keep their placements sorted by card, not in held order.)
    """
    by_row = sorted(action.placements, key=lambda placement: -placement[1])
    return tuple(card for card, _ in by_row) + action.discards


def pending_deals(view: HandView) -> tuple[Deal, ...]:
    """Deals the viewer has not seen placed, in deal order (its own current one excluded).

    These are the other seats' held cards, face-down fantasy boards and every deal still to
    come: what a play-out must draw from the unseen cards and place.
    """
    layout = _layout(view)
    hidden_fantasy = {state.seat for state in view.seats if state.hidden}
    placed = {action.seat: 0 for action in view.history}
    for action in view.history:
        placed[action.seat] += 1
    pending = []
    seen_chunks: dict[int, int] = {}
    for index, deal in enumerate(layout.deals):
        number = seen_chunks.get(deal.seat, 0)
        seen_chunks[deal.seat] = number + 1
        if deal.seat == view.seat:
            if index >= layout.dealt:
                pending.append(deal)
            continue
        if index >= layout.dealt or number >= placed.get(deal.seat, 0) or deal.seat in hidden_fantasy:
            pending.append(deal)
    return tuple(pending)


def _deck_order(layout: _Layout, rng: random.Random) -> tuple[Card, ...]:
    """Known cards where they were dealt; every other place from a shuffle of the unseen cards."""
    seen = {card for cards in layout.known for card in cards}
    unseen = [card for card in ALL_CARDS if card not in seen]
    rng.shuffle(unseen)
    order: list[Card] = []
    for deal, cards in zip(layout.deals, layout.known, strict=False):
        if len(cards) > deal.cards:
            raise DeterminizeError(
                "seat {seat} shows more cards than its deal of {cards}", seat=deal.seat, cards=deal.cards
            )
        order.extend(cards)
        order.extend(unseen.pop() for _ in range(deal.cards - len(cards)))
    order.extend(unseen)
    return tuple(order)


def _full_action(hand: Hand, seen: SeenAction, set_fantasy: FantasySetter | None) -> Action:
    """The action behind ``seen`` in the determinized hand: its placements, the rest of the held cards discarded."""
    seat = seen.seat
    held = hand.view(seat).cards
    if seen.hidden:
        if set_fantasy is not None:
            return set_fantasy(hand, seat)
        return auto_action(seat, held, hand.view(seat).rooms, len(held) - seen.hidden)
    placed = {card for card, _ in seen.placements}
    return Action(seat, seen.placements, tuple(card for card in held if card not in placed))


def determinize(view: HandView, rng: random.Random, *, set_fantasy: FantasySetter | None = None) -> Hand:
    """A full hand consistent with ``view``, the cards its seat cannot see drawn with ``rng``.

    A face-down fantasy board is set by ``set_fantasy`` (default: the automatic placement,
    bottom, middle, then top). Raises ``DeterminizeError`` for a view the engine could not
    have produced.
    """
    layout = _layout(view)
    try:
        hand = Hand(
            view.rules,
            button=view.button,
            deck=Deck(order=_deck_order(layout, rng)),
            fantasy=_fantasy_sizes(view),
            fantasy_in_row=tuple(seat.fantasy_in_row for seat in view.seats),
            time_banks=view.starting_banks,
            now=view.start,
        )
        for index, seen in enumerate(view.history):
            if hand.actions_taken > index:
                continue  # made by an earlier advance, at the same deadline
            if seen.automatic:
                hand.advance(seen.time)
            else:
                hand.apply(_full_action(hand, seen, set_fantasy), seen.time)
        if view.now > hand.now:  # the real hand was told a later time (at the same time: not advanced)
            hand.advance(view.now)
    except OfcError as error:
        raise DeterminizeError("the view cannot be replayed: {error}", error=error) from None
    if hand.actions_taken != len(view.history):
        raise DeterminizeError("the view's history and its clocks disagree")
    return hand


__all__ = ["FantasySetter", "determinize", "pending_deals"]
