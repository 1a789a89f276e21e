"""Reading a hand history's fields, each checked, with an error naming the field at fault."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import to_time
from ofc.rules.cards import Card, Deck, parse_cards
from ofc.rules.errors import HistoryError, OfcError


def get_field(document: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """The value of ``key``, checked to be a ``kind`` (``what`` says it in words)."""
    if key not in document:
        raise HistoryError("the history has no {key!r} ({what})", key=key, what=what)
    value = document[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise HistoryError("the history's {key!r} must be {what}, not {value!r}", key=key, what=what, value=value)
    return value


def seat_ints(document: Mapping[str, Any], key: str, players: int) -> tuple[int, ...]:
    """One whole number per seat."""
    values = get_field(document, key, list, f"a list of {players} whole numbers")
    if len(values) != players or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise HistoryError(
            "the history's {key!r} must be a list of {players} whole numbers, not {values!r}",
            key=key,
            players=players,
            values=values,
        )
    return tuple(values)


def time_field(value: object, where: str) -> Decimal:
    """A time, as decimal text or a number."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise HistoryError("{where}: a time must be decimal text or a number, not {value!r}", where=where, value=value)
    try:
        return to_time(value)
    except OfcError as error:
        raise HistoryError("{where}: {error}", where=where, error=error) from None


def deck_field(document: Mapping[str, Any]) -> tuple[tuple[Card, ...], int | None]:
    """The deck's order (all 52 cards) and its seed, which must give that order."""
    deck = get_field(document, "deck", dict, "an object with the deck's order and seed")
    order = deck.get("order")
    seed = deck.get("seed")
    if not isinstance(order, list) or len(order) != 52:
        raise HistoryError("the history's deck order must list all 52 cards")
    try:
        cards = parse_cards(order)
    except OfcError as error:
        raise HistoryError("the history's deck order: {error}", error=error) from None
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise HistoryError("the history's deck seed must be a whole number from 0 or null, not {seed!r}", seed=seed)
    if seed is not None and Deck(seed).order != cards:
        raise HistoryError("the history's deck order is not the order seed {seed} gives", seed=seed)
    return cards, seed


def hidden_counts(document: Mapping[str, Any], copy: bool) -> tuple[int, ...]:
    """Per action, the face-down discards a seat's copy leaves out (always 0 in a full record)."""
    counts = []
    for number, item in enumerate(get_field(document, "actions", list, "a list of actions"), 1):
        count = item.get("hidden_discards", 0) if isinstance(item, dict) else 0
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 52:
            raise HistoryError(
                "action {number}: 'hidden_discards' must be a count of cards, not {count!r}", number=number, count=count
            )
        if count and not copy:
            raise HistoryError("action {number}: only a seat's copy may leave discards face-down", number=number)
        counts.append(count)
    return tuple(counts)


def action_records(document: Mapping[str, Any]) -> tuple[ActionRecord, ...]:
    """Every action with its time and whether it was automatic."""
    items = get_field(document, "actions", list, "a list of actions")
    records = []
    for number, item in enumerate(items, 1):
        where = f"action {number}"
        if not isinstance(item, dict):
            raise HistoryError("{where} must be an object, not {item!r}", where=where, item=item)
        automatic = item.get("automatic", False)
        if not isinstance(automatic, bool):
            raise HistoryError(
                "{where}: 'automatic' must be true or false, not {automatic!r}", where=where, automatic=automatic
            )
        try:
            action = Action.from_dict(item)
        except OfcError as error:
            raise HistoryError("{where}: {error}", where=where, error=error) from None
        records.append(ActionRecord(action, time_field(item.get("time"), where), automatic))
    return tuple(records)
