"""The ``"tournament"`` field of a hand history (format version 2): level and chips of the hand.

A tournament hand's history carries the hand's number and level in the tournament, its chips
per point, each seat's chips at the start of the hand and the whole chips each seat won (see
docs/hand-history.md). Reading checks the field against the rules (the level follows from the
hand number and ``level_hands``, the chips per point from the level); ``check`` checks the
chips won against the hand's recorded points (table stakes and rounding as
``ofc.series.tournament.Tournament`` settles them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ofc.rules.errors import HistoryError, OfcError
from ofc.rules.rulebook import Rules
from ofc.series.tournament import TournamentHand, chip_results

KEYS = ("hand", "level", "chips_per_point", "chips", "chips_won")


def level_of(rules: Rules, hand: int) -> int:
    """The level (from 1) of tournament hand ``hand`` (from 1): the last level lasts for ever."""
    return min((hand - 1) // rules.level_hands, len(rules.chips_per_point) - 1) + 1


@dataclass(frozen=True)
class TournamentFields:
    """A tournament hand's place in its tournament; tuples are per seat of the hand."""

    hand: int
    """Number of the hand in the tournament, from 1."""
    level: int
    """Level of the hand, from 1."""
    chips_per_point: int
    chips: tuple[int, ...]
    """Each seat's chips at the start of the hand."""
    chips_won: tuple[int, ...]
    """Whole chips each seat won in the hand (negative: lost)."""

    @staticmethod
    def of(record: TournamentHand) -> TournamentFields:
        """The fields of a hand as ``Tournament.record`` settled it (hand seats: ``plan.seats``)."""
        seats = record.plan.seats
        return TournamentFields(
            hand=record.plan.hand + 1,
            level=record.level + 1,
            chips_per_point=record.chips_per_point,
            chips=tuple(record.chips[seat] - record.won[seat] for seat in seats),
            chips_won=tuple(record.won[seat] for seat in seats),
        )

    @property
    def chips_after(self) -> tuple[int, ...]:
        """Each seat's chips at the end of the hand."""
        return tuple(before + won for before, won in zip(self.chips, self.chips_won, strict=True))

    def to_dict(self) -> dict[str, object]:
        """The JSON object of the history's ``"tournament"`` field."""
        return {
            "hand": self.hand,
            "level": self.level,
            "chips_per_point": self.chips_per_point,
            "chips": list(self.chips),
            "chips_won": list(self.chips_won),
        }

    def check(self, vs: Sequence[Sequence[int]], button: int) -> None:
        """Raise ``HistoryError`` unless ``chips_won`` is the settlement of the points ``vs``."""
        players = len(self.chips)
        order = [(button + 1 + step) % players for step in range(players)]
        try:
            won = chip_results(vs, self.chips_per_point, self.chips, order)
        except OfcError as error:
            raise HistoryError("the history's tournament chips cannot be settled: {error}", error=error) from None
        if won != self.chips_won:
            raise HistoryError(
                "the history's tournament 'chips_won' is {chips_won}, the hand's points at "
                "{chips_per_point} chips a point give {won}",
                chips_won=list(self.chips_won),
                chips_per_point=self.chips_per_point,
                won=list(won),
            )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_fields(value: object, rules: Rules) -> TournamentFields:
    """Check a history's ``"tournament"`` object against ``rules``; raise ``HistoryError``."""
    if not isinstance(value, Mapping):
        raise HistoryError("the history's 'tournament' must be an object, not {value!r}", value=value)
    extra = sorted(set(value) - set(KEYS))
    if extra:
        raise HistoryError("the history's 'tournament' has unknown field {key!r}", key=extra[0])
    document: Mapping[str, Any] = value
    numbers: dict[str, int] = {}
    for key in ("hand", "level", "chips_per_point"):
        number = document.get(key)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise HistoryError(
                "the history's tournament {key!r} must be a whole number from 1, not {number!r}", key=key, number=number
            )
        numbers[key] = number
    lists = {}
    for key, least in (("chips", 1), ("chips_won", None)):
        items = document.get(key)
        if not isinstance(items, list) or len(items) != rules.players or not all(_whole(v) for v in items):
            raise HistoryError(
                "the history's tournament {key!r} must be a list of {players} whole numbers, not {items!r}",
                key=key,
                players=rules.players,
                items=items,
            )
        if least is not None and min(items) < least:
            raise HistoryError(
                "the history's tournament {key!r}: every seat dealt in holds chips, not {items!r}", key=key, items=items
            )
        lists[key] = tuple(items)
    fields = TournamentFields(
        numbers["hand"], numbers["level"], numbers["chips_per_point"], lists["chips"], lists["chips_won"]
    )
    level = level_of(rules, fields.hand)
    if fields.level != level:
        raise HistoryError(
            "the history's tournament hand {hand} is in level {level} ({level_hands} hands a level), not {given}",
            hand=fields.hand,
            level=level,
            level_hands=rules.level_hands,
            given=fields.level,
        )
    rate = rules.chips_per_point[level - 1]
    if fields.chips_per_point != rate:
        raise HistoryError(
            "the history's tournament level {level} pays {rate} chips a point, not {chips_per_point}",
            level=level,
            rate=rate,
            chips_per_point=fields.chips_per_point,
        )
    if sum(fields.chips_won) != 0 or min(fields.chips_after) < 0:
        won = list(fields.chips_won)
        raise HistoryError("the history's tournament 'chips_won' {won} does not move chips between stacks", won=won)
    return fields
