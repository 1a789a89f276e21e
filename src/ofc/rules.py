"""Rules: one frozen, validated value holding every setting of RULES.md.

Variants, scoring systems and royalty tables are data here, so the rest of the code asks a
field instead of testing a variant's name. Build a ``Rules`` from a preset and overrides::

    rules = Rules.preset("pineapple").with_settings({"players": "3", "fantasy_stay": "top_trips"})

Every setting accepts its natural Python value or its text form (as typed after ``--set``);
an unknown name, a malformed value or an impossible combination raises ``RulesError`` naming
the setting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from itertools import pairwise
from typing import Any, TypeVar

from ofc.errors import RulesError
from ofc.ranking import Category


class Variant(StrEnum):
    """How the 13 cards arrive."""

    CLASSIC = "classic"
    TURBO = "turbo"
    PINEAPPLE = "pineapple"


class Scoring(StrEnum):
    """How rows are paid and which royalty table applies."""

    CLASSIC = "classic"
    AMERICAN = "american"


class FantasyCards(StrEnum):
    """How many cards a fantasy hand deals."""

    FIXED = "fixed"
    PROGRESSIVE = "progressive"


class StayCondition(StrEnum):
    """A way for a live fantasy hand to earn a repeat fantasy."""

    TOP_TRIPS = "top_trips"
    BOTTOM_QUADS_PLUS = "bottom_quads_plus"
    MIDDLE_QUADS_PLUS = "middle_quads_plus"
    MIDDLE_FULL_HOUSE_PLUS = "middle_full_house_plus"


class ButtonOnFantasy(StrEnum):
    """Whether the button moves after a hand in which someone played fantasy."""

    STAYS = "stays"
    MOVES = "moves"


@dataclass(frozen=True)
class Street:
    """One deal of a hand: ``cards`` dealt to each player, ``place`` of them placed."""

    cards: int
    place: int

    @property
    def discards(self) -> int:
        """Cards of this street that are discarded face-down."""
        return self.cards - self.place


@dataclass(frozen=True)
class VariantSpec:
    """What a variant fixes: table size, the streets, the fantasy deal and its default scoring."""

    variant: Variant
    min_players: int
    max_players: int
    streets: tuple[Street, ...]
    fantasy_cards: int
    scoring: Scoring
    """The ``scoring`` a rule set of this variant has unless another one is chosen."""

    @property
    def first_deal(self) -> Street:
        """The opening deal (five cards, all placed)."""
        return self.streets[0]


VARIANTS: Mapping[Variant, VariantSpec] = {
    Variant.CLASSIC: VariantSpec(
        Variant.CLASSIC, 2, 4, (Street(5, 5),) + (Street(1, 1),) * 8, fantasy_cards=13, scoring=Scoring.CLASSIC
    ),
    Variant.TURBO: VariantSpec(
        Variant.TURBO, 2, 4, (Street(5, 5),) + (Street(4, 4),) * 2, fantasy_cards=13, scoring=Scoring.CLASSIC
    ),
    Variant.PINEAPPLE: VariantSpec(
        Variant.PINEAPPLE, 2, 3, (Street(5, 5),) + (Street(3, 2),) * 4, fantasy_cards=14, scoring=Scoring.AMERICAN
    ),
}

PROGRESSIVE_FANTASY_CARDS: Mapping[int, int] = {10: 14, 11: 15, 12: 16}
"""Progressive fantasy deal by the rank index of the top pair (QQ 14, KK 15, AA 16)."""
PROGRESSIVE_TRIPS_CARDS = 17
PROGRESSIVE_REPEAT_CARDS = 14
HAND_CARDS = 13


@dataclass(frozen=True)
class RoyaltyTable:
    """Royalties of one scoring system, as data.

    ``bottom`` and ``middle`` are indexed by ``Category``; the royal flush has its own entry.
    ``top_pair`` and ``top_trips`` are indexed by the rank index (0 = deuce .. 12 = ace).
    """

    name: str
    bottom: tuple[int, ...]
    bottom_royal: int
    middle: tuple[int, ...]
    middle_royal: int
    top_pair: tuple[int, ...]
    top_trips: tuple[int, ...]


def _royalty_table(name: str, quads: int, straight_flush: int, royal: int) -> RoyaltyTable:
    bottom = [0] * len(Category)
    bottom[Category.STRAIGHT] = 2
    bottom[Category.FLUSH] = 4
    bottom[Category.FULL_HOUSE] = 6
    bottom[Category.QUADS] = quads
    bottom[Category.STRAIGHT_FLUSH] = straight_flush
    middle = [2 * value for value in bottom]
    middle[Category.TRIPS] = 2
    top_pair = (0,) * 4 + tuple(range(1, 10))  # 66 = 1 .. AA = 9
    top_trips = tuple(range(10, 23))  # 222 = 10 .. AAA = 22
    return RoyaltyTable(name, tuple(bottom), royal, tuple(middle), 2 * royal, top_pair, top_trips)


ROYALTY_TABLES: Mapping[Scoring, RoyaltyTable] = {
    Scoring.CLASSIC: _royalty_table("classic", quads=8, straight_flush=10, royal=15),
    Scoring.AMERICAN: _royalty_table("american", quads=10, straight_flush=15, royal=25),
}

ROW_POINTS: Mapping[Scoring, int] = {Scoring.CLASSIC: 2, Scoring.AMERICAN: 1}
SCOOP_BONUS: Mapping[Scoring, int] = {Scoring.CLASSIC: 0, Scoring.AMERICAN: 3}
"""Extra points for winning all three rows (american: +6 in all instead of +3)."""

DEFAULT_STAY = frozenset({StayCondition.TOP_TRIPS, StayCondition.BOTTOM_QUADS_PLUS})

LARGEST_NUMBER = Decimal(10) ** 12
"""Decimal settings lie strictly between -10^12 and 10^12."""
MOST_DECIMAL_PLACES = 12
"""Decimal settings have at most 12 decimal places.

Both bounds keep sums of times and exact money small: an exponent such as 1e999999999 would
overflow the decimal context in a clock or build a fraction of a billion digits in a ledger.
"""

E = TypeVar("E", bound=StrEnum)


# ---------------------------------------------------------------- value readers per setting


def _text(value: object) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def _enum(kind: type[E]) -> Callable[[str, object], E]:
    def read(name: str, value: object) -> E:
        if isinstance(value, kind):
            return value
        text = _text(value)
        if text is not None:
            for member in kind:
                if member.value == text.replace("-", "_"):
                    return member
        choices = ", ".join(m.value for m in kind)
        raise RulesError(f"setting {name}: {value!r} is not one of {choices}")

    return read


def _int(name: str, value: object) -> int:
    if isinstance(value, bool):
        raise RulesError(f"setting {name}: expected a whole number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = _text(value)
    if text is not None:
        try:
            return int(text)
        except ValueError:
            pass
    raise RulesError(f"setting {name}: expected a whole number, got {value!r}")


def _scoring(name: str, value: object) -> Scoring | None:
    """A scoring system, or None (also ``default``) for the variant's own."""
    if value is None or _text(value) == "default":
        return None
    return _enum(Scoring)(name, value)


def _optional_int(name: str, value: object) -> int | None:
    if value is None or _text(value) in ("none", "null", "off", "unlimited", ""):
        return None
    return _int(name, value)


def _decimal(name: str, value: object) -> Decimal:
    if isinstance(value, bool):
        raise RulesError(f"setting {name}: expected a number, got {value!r}")
    try:
        if isinstance(value, Decimal):
            number = value
        elif isinstance(value, int | float):
            number = Decimal(str(value))
        elif isinstance(value, str):
            number = Decimal(value.strip())
        else:
            raise RulesError(f"setting {name}: expected a number, got {value!r}")
    except InvalidOperation:
        raise RulesError(f"setting {name}: expected a number, got {value!r}") from None
    if not number.is_finite():
        raise RulesError(f"setting {name}: expected a finite number, got {value!r}")
    if not -LARGEST_NUMBER < number < LARGEST_NUMBER:
        raise RulesError(f"setting {name}: too large, got {value!r} (the limit is 10^12)")
    if _decimal_places(number) > MOST_DECIMAL_PLACES:
        raise RulesError(f"setting {name}: more than {MOST_DECIMAL_PLACES} decimal places, got {value!r}")
    return number


def _decimal_places(number: Decimal) -> int:
    """Digits after the point once trailing zeros are dropped (read exactly, no rounding)."""
    if number == 0:
        return 0
    digits = "".join(str(d) for d in number.as_tuple().digits)
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    return max(0, -(exponent + len(digits) - len(digits.rstrip("0"))))


def _optional_decimal(name: str, value: object) -> Decimal | None:
    if value is None or _text(value) in ("none", "null", "off", ""):
        return None
    return _decimal(name, value)


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = _text(value)
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise RulesError(f"setting {name}: expected on or off, got {value!r}")


def _items(name: str, value: object) -> list[object]:
    if isinstance(value, str):
        return [part for part in (p.strip() for p in value.split(",")) if part]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return list(value)
    raise RulesError(f"setting {name}: expected a comma-separated list, got {value!r}")


def _stay_set(name: str, value: object) -> frozenset[StayCondition]:
    if _text(value) in ("none", "off"):
        return frozenset()
    read = _enum(StayCondition)
    return frozenset(read(name, item) for item in _items(name, value))


def _int_tuple(name: str, value: object) -> tuple[int, ...]:
    return tuple(_int(name, item) for item in _items(name, value))


def _decimal_tuple(name: str, value: object) -> tuple[Decimal, ...]:
    return tuple(_decimal(name, item) for item in _items(name, value))


_READERS: Mapping[str, Callable[[str, object], Any]] = {
    "variant": _enum(Variant),
    "players": _int,
    "scoring": _scoring,
    "fantasy": _bool,
    "fantasy_cards": _enum(FantasyCards),
    "fantasy_stay": _stay_set,
    "fantasy_max_in_row": _optional_int,
    "button_on_fantasy": _enum(ButtonOnFantasy),
    "point_value": _decimal,
    "loss_limit": _optional_decimal,
    "hand_seconds": _decimal,
    "time_bank_seconds": _decimal,
    "buy_in": _decimal,
    "starting_chips": _int,
    "level_hands": _int,
    "chips_per_point": _int_tuple,
    "payouts": _decimal_tuple,
}


@dataclass(frozen=True)
class Rules:
    """Every setting of a game, validated on construction.

    Construct through ``Rules.preset`` and ``with_settings`` (which also read text values),
    or directly with typed values; either way the value is checked and normalised.

    ``scoring`` left out (or None) is the variant's default, as RULES.md says: classic for
    classic and turbo, american for pineapple. ``with_settings`` changing the variant moves a
    scoring that was the old variant's default to the new one's; any other choice is kept.
    """

    variant: Variant = Variant.CLASSIC
    players: int = 2
    scoring: Scoring = None  # type: ignore[assignment]  # None: the variant's (set in __post_init__)
    fantasy: bool = True
    fantasy_cards: FantasyCards = FantasyCards.FIXED
    fantasy_stay: frozenset[StayCondition] = DEFAULT_STAY
    fantasy_max_in_row: int | None = 2
    button_on_fantasy: ButtonOnFantasy = ButtonOnFantasy.STAYS
    point_value: Decimal = Decimal(1)
    loss_limit: Decimal | None = None
    hand_seconds: Decimal = Decimal(120)
    time_bank_seconds: Decimal = Decimal(180)
    buy_in: Decimal = Decimal(100)
    starting_chips: int = 1000
    level_hands: int = 8
    chips_per_point: tuple[int, ...] = (5, 10, 15, 25, 40, 60, 100, 150, 250, 400)
    payouts: tuple[Decimal, ...] = field(default=(Decimal(1),))

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = _READERS[item.name](item.name, getattr(self, item.name))
            object.__setattr__(self, item.name, value)
        if self.scoring is None:
            object.__setattr__(self, "scoring", self.spec.scoring)
        self._validate()

    def _validate(self) -> None:
        spec = self.spec
        if not spec.min_players <= self.players <= spec.max_players:
            raise RulesError(
                f"setting players: {self.variant} allows {spec.min_players}-{spec.max_players} "
                f"players, not {self.players}"
            )
        if self.fantasy_cards is FantasyCards.PROGRESSIVE and self.variant is not Variant.PINEAPPLE:
            raise RulesError("setting fantasy_cards: progressive fantasy exists only in pineapple")
        if self.fantasy_max_in_row is not None and self.fantasy_max_in_row < 1:
            raise RulesError("setting fantasy_max_in_row: must be at least 1 (or none)")
        positive = {"point_value": self.point_value, "hand_seconds": self.hand_seconds}
        for name, number in positive.items():
            if number <= 0:
                raise RulesError(f"setting {name}: must be positive, got {number}")
        if self.loss_limit is not None and self.loss_limit <= 0:
            raise RulesError(f"setting loss_limit: must be positive (or none), got {self.loss_limit}")
        for name, number in {"time_bank_seconds": self.time_bank_seconds, "buy_in": self.buy_in}.items():
            if number < 0:
                raise RulesError(f"setting {name}: must not be negative, got {number}")
        for name, count in {"starting_chips": self.starting_chips, "level_hands": self.level_hands}.items():
            if count < 1:
                raise RulesError(f"setting {name}: must be at least 1, got {count}")
        levels = self.chips_per_point
        if not levels or min(levels) < 1:
            raise RulesError("setting chips_per_point: needs one or more positive levels")
        if any(later < earlier for earlier, later in pairwise(levels)):
            raise RulesError("setting chips_per_point: levels must not decrease")
        self._validate_payouts()

    def _validate_payouts(self) -> None:
        payouts = self.payouts
        if not payouts or min(payouts) <= 0:
            raise RulesError("setting payouts: needs one or more positive shares")
        if sum(payouts) != 1:
            raise RulesError(f"setting payouts: shares must add up to 1, not {sum(payouts)}")
        if any(later > earlier for earlier, later in pairwise(payouts)):
            raise RulesError("setting payouts: a lower place cannot be paid more")

    # ------------------------------------------------------------------ derived values

    @property
    def spec(self) -> VariantSpec:
        """The variant's streets, table size and fantasy deal."""
        return VARIANTS[self.variant]

    @property
    def royalty_table(self) -> RoyaltyTable:
        """The royalty table of this scoring system."""
        return ROYALTY_TABLES[self.scoring]

    @property
    def row_points(self) -> int:
        """Points for each row won."""
        return ROW_POINTS[self.scoring]

    @property
    def fantasy_deal_sizes(self) -> frozenset[int]:
        """Every size a fantasy deal may have under ``fantasy_cards`` (whether or not fantasy is on).

        Fixed: the variant's deal. Progressive: QQ 14, KK 15, AA 16, trips 17, a repeat 14.
        """
        if self.fantasy_cards is FantasyCards.PROGRESSIVE:
            return frozenset({*PROGRESSIVE_FANTASY_CARDS.values(), PROGRESSIVE_TRIPS_CARDS, PROGRESSIVE_REPEAT_CARDS})
        return frozenset({self.spec.fantasy_cards})

    @property
    def fantasy_deals(self) -> frozenset[int]:
        """Sizes a fantasy deal may have in play: ``fantasy_deal_sizes``, or none when fantasy is off."""
        return self.fantasy_deal_sizes if self.fantasy else frozenset()

    @property
    def repeat_fantasy_cards(self) -> int:
        """Cards of a repeat fantasy: 14 in progressive, else the variant's fantasy deal."""
        if self.fantasy_cards is FantasyCards.PROGRESSIVE:
            return PROGRESSIVE_REPEAT_CARDS
        return self.spec.fantasy_cards

    @property
    def scoop_bonus(self) -> int:
        """Extra points for winning all three rows against one opponent."""
        return SCOOP_BONUS[self.scoring]

    # ------------------------------------------------------------------ building

    @staticmethod
    def preset(name: str) -> Rules:
        """The named preset (``classic``, ``turbo``, ``pineapple``, ``pineapple-progressive``)."""
        key = name.strip().lower()
        if key not in PRESETS:
            raise RulesError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
        return PRESETS[key]

    def with_settings(self, settings: Mapping[str, object]) -> Rules:
        """A copy with ``settings`` (name -> value or text) applied, validated as a whole."""
        unknown = [name for name in settings if name not in _READERS]
        if unknown:
            raise RulesError(f"unknown setting {unknown[0]!r}: known settings are {', '.join(_READERS)}")
        typed = {name: _READERS[name](name, value) for name, value in settings.items()}
        if "variant" in typed and "scoring" not in typed and self.scoring is self.spec.scoring:
            typed["scoring"] = None  # the scoring was the variant's default: follow the new variant
        return dataclasses.replace(self, **typed)

    def to_dict(self) -> dict[str, object]:
        """Every setting as JSON-friendly values (text for decimals and enums)."""
        out: dict[str, object] = {}
        for item in dataclasses.fields(self):
            out[item.name] = _plain(getattr(self, item.name))
        return out


def _plain(value: object) -> object:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)  # type: ignore[type-var]
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def parse_assignment(text: str) -> tuple[str, str]:
    """Split a ``KEY=VALUE`` override as typed on the command line."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"expected KEY=VALUE, got {text!r}")
    return name.strip(), value.strip()


SETTING_NAMES: tuple[str, ...] = tuple(_READERS)

PRESETS: Mapping[str, Rules] = {
    "classic": Rules(),
    "turbo": Rules(variant=Variant.TURBO),
    "pineapple": Rules(variant=Variant.PINEAPPLE),
    "pineapple-progressive": Rules(variant=Variant.PINEAPPLE, fantasy_cards=FantasyCards.PROGRESSIVE),
}
