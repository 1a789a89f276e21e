"""Rules: one frozen, validated value holding every setting of RULES.md.

Variants, scoring systems and royalty tables are data here, so the rest of the code asks a
field instead of testing a variant's name. Build a ``Rules`` from a preset and overrides::

    rules = Rules.preset("pineapple").with_settings({"players": "3", "fantasy_stay": "top_trips"})

``with_settings`` (and ``Rules.of``) read every setting from its Python value or its text form
(as typed after ``--set``, see ``ofc.rules.setting_readers``); the constructor takes typed values only.
An unknown name, a malformed value or an impossible combination raises ``RulesError`` naming
the setting. The variants and royalty tables live in ``ofc.rules.variants`` and
``ofc.rules.royalties``; their names are re-exported here, where the rest of the code reads them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from itertools import pairwise

from ofc.rules.errors import RulesError
from ofc.rules.royalties import ROW_POINTS, ROYALTY_TABLES, SCOOP_BONUS, RoyaltyTable
from ofc.rules.setting_readers import READERS, parse_assignment
from ofc.rules.variants import (
    HAND_CARDS,
    PROGRESSIVE_FANTASY_CARDS,
    PROGRESSIVE_REPEAT_CARDS,
    PROGRESSIVE_TRIPS_CARDS,
    SCORING_TERMS,
    VARIANT_TERMS,
    VARIANTS,
    ButtonOnFantasy,
    FantasyCards,
    Scoring,
    StayCondition,
    Street,
    Variant,
    VariantSpec,
)

DEFAULT_STAY = frozenset({StayCondition.TOP_TRIPS, StayCondition.BOTTOM_QUADS_PLUS})


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
    scoring: Scoring = Scoring.DEFAULT
    """``DEFAULT`` stands for the variant's own scoring and is replaced by it on construction."""
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
            value = getattr(self, item.name)
            _check_type(item.name, value)
            object.__setattr__(self, item.name, READERS[item.name](item.name, value))  # normalised, range-checked
        if self.scoring is Scoring.DEFAULT:
            object.__setattr__(self, "scoring", self.spec.scoring)
        self._validate()

    @staticmethod
    def of(**settings: object) -> Rules:
        """Rules from the defaults and ``settings`` given as Python values or text (``players="3"``)."""
        return Rules().with_settings(settings)

    def _validate(self) -> None:
        spec = self.spec
        if not spec.min_players <= self.players <= spec.max_players:
            raise RulesError(
                "setting players: {variant} allows {min_players}-{max_players} players, not {players}",
                variant=VARIANT_TERMS[self.variant],
                min_players=spec.min_players,
                max_players=spec.max_players,
                players=self.players,
            )
        if self.scoring not in spec.scorings:
            raise RulesError(
                "setting scoring: {scoring} scoring is not played in {variant}",
                scoring=SCORING_TERMS[self.scoring],
                variant=VARIANT_TERMS[self.variant],
            )
        if self.fantasy_cards is FantasyCards.PROGRESSIVE and self.variant is not Variant.PINEAPPLE:
            raise RulesError("setting fantasy_cards: progressive fantasy exists only in pineapple")
        if self.fantasy_max_in_row is not None and self.fantasy_max_in_row < 1:
            raise RulesError("setting fantasy_max_in_row: must be at least 1 (or none)")
        positive = {"point_value": self.point_value, "hand_seconds": self.hand_seconds}
        for name, number in positive.items():
            if number <= 0:
                raise RulesError("setting {name}: must be positive, got {number}", name=name, number=number)
        if self.loss_limit is not None and self.loss_limit <= 0:
            raise RulesError(
                "setting loss_limit: must be positive (or none), got {loss_limit}", loss_limit=self.loss_limit
            )
        for name, number in {"time_bank_seconds": self.time_bank_seconds, "buy_in": self.buy_in}.items():
            if number < 0:
                raise RulesError("setting {name}: must not be negative, got {number}", name=name, number=number)
        for name, count in {"starting_chips": self.starting_chips, "level_hands": self.level_hands}.items():
            if count < 1:
                raise RulesError("setting {name}: must be at least 1, got {count}", name=name, count=count)
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
            raise RulesError("setting payouts: shares must add up to 1, not {payouts}", payouts=sum(payouts))
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
        """The named preset (``classic``, ``turbo``, ``pineapple``, ``pineapple-progressive``).

        >>> rules = Rules.preset("pineapple")
        >>> rules.players, rules.scoring.value, len(rules.spec.streets)
        (2, 'american', 5)
        >>> Rules.preset("omaha")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ofc.rules.errors.RulesError: unknown preset 'omaha': choose one of classic, turbo, ...pineapple-progressive
        """
        key = name.strip().lower()
        if key not in PRESETS:
            raise RulesError("unknown preset {name!r}: choose one of {names}", name=name, names=", ".join(PRESETS))
        return PRESETS[key]

    def with_settings(self, settings: Mapping[str, object]) -> Rules:
        """A copy with ``settings`` (name -> value or text) applied, validated as a whole."""
        unknown = [name for name in settings if name not in READERS]
        if unknown:
            raise RulesError(
                "unknown setting {unknown!r}: known settings are {names}", unknown=unknown[0], names=", ".join(READERS)
            )
        typed = {name: READERS[name](name, value) for name, value in settings.items()}
        if "variant" in typed and "scoring" not in typed and self.scoring is self.spec.scoring:
            typed["scoring"] = Scoring.DEFAULT  # the scoring was the variant's default: follow the new variant
        return dataclasses.replace(self, **typed)

    def to_dict(self) -> dict[str, object]:
        """Every setting as JSON-friendly values (text for decimals and enums)."""
        out: dict[str, object] = {}
        for item in dataclasses.fields(self):
            out[item.name] = _plain(getattr(self, item.name))
        return out


_TYPES: Mapping[str, tuple[type, ...]] = {
    "variant": (Variant,), "players": (int,), "scoring": (Scoring,), "fantasy": (bool,),
    "fantasy_cards": (FantasyCards,), "fantasy_stay": (frozenset,), "fantasy_max_in_row": (int, type(None)),
    "button_on_fantasy": (ButtonOnFantasy,), "point_value": (Decimal,), "loss_limit": (Decimal, type(None)),
    "hand_seconds": (Decimal,), "time_bank_seconds": (Decimal,), "buy_in": (Decimal,), "starting_chips": (int,),
    "level_hands": (int,), "chips_per_point": (tuple,), "payouts": (tuple,),
}  # fmt: skip
"""The type each field holds; tuples and sets are checked item by item below."""
_ITEMS: Mapping[str, type] = {"fantasy_stay": StayCondition, "chips_per_point": int, "payouts": Decimal}


def _check_type(name: str, value: object) -> None:
    """Raise ``RulesError`` unless ``value`` is of the type field ``name`` holds (text goes through ``Rules.of``)."""
    kinds = _TYPES[name]
    wrong = not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
    item = _ITEMS.get(name)
    if not wrong and item is not None and isinstance(value, tuple | frozenset):
        wrong = not all(isinstance(part, item) and not isinstance(part, bool) for part in value)
    if wrong:
        expected = " or ".join("none" if kind is type(None) else kind.__name__ for kind in kinds)
        raise RulesError(
            "setting {name}: Rules() takes a {expected}, not {value!r} (Rules.of and with_settings read text)",
            name=name,
            expected=expected,
            value=value,
        )


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


SETTING_NAMES: tuple[str, ...] = tuple(READERS)

PRESETS: Mapping[str, Rules] = {
    "classic": Rules(),
    "turbo": Rules(variant=Variant.TURBO),
    "pineapple": Rules(variant=Variant.PINEAPPLE),
    "pineapple-progressive": Rules(variant=Variant.PINEAPPLE, fantasy_cards=FantasyCards.PROGRESSIVE),
}


__all__ = [
    "DEFAULT_STAY",
    "HAND_CARDS",
    "PRESETS",
    "PROGRESSIVE_FANTASY_CARDS",
    "PROGRESSIVE_REPEAT_CARDS",
    "PROGRESSIVE_TRIPS_CARDS",
    "ROW_POINTS",
    "ROYALTY_TABLES",
    "SCOOP_BONUS",
    "SETTING_NAMES",
    "VARIANTS",
    "ButtonOnFantasy",
    "FantasyCards",
    "RoyaltyTable",
    "Rules",
    "Scoring",
    "StayCondition",
    "Street",
    "Variant",
    "VariantSpec",
    "parse_assignment",
]
