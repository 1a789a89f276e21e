"""The variants and their fixed facts: streets, table sizes, fantasy deals, and the setting enums."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ofc.rules.terms import NC_, Term


class Variant(StrEnum):
    """How the 13 cards arrive."""

    CLASSIC = "classic"
    TURBO = "turbo"
    PINEAPPLE = "pineapple"


class Scoring(StrEnum):
    """How rows are paid and which royalty table applies."""

    CLASSIC = "classic"
    AMERICAN = "american"
    DEFAULT = "default"
    """The variant's own scoring (``VariantSpec.scoring``); a ``Rules`` never keeps it."""


VARIANT_TERMS: Mapping[Variant, Term] = {
    Variant.CLASSIC: NC_("variant", "classic"),
    Variant.TURBO: NC_("variant", "turbo"),
    Variant.PINEAPPLE: NC_("variant", "pineapple"),
}
SCORING_TERMS: Mapping[Scoring, Term] = {
    Scoring.CLASSIC: NC_("scoring", "classic"),
    Scoring.AMERICAN: NC_("scoring", "american"),
}


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
    scorings: frozenset[Scoring] = frozenset(Scoring)
    """The scoring systems the variant is played with (classic scoring only in classic and turbo)."""

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
        Variant.PINEAPPLE,
        2,
        3,
        (Street(5, 5),) + (Street(3, 2),) * 4,
        fantasy_cards=14,
        scoring=Scoring.AMERICAN,
        scorings=frozenset({Scoring.AMERICAN}),
    ),
}

PROGRESSIVE_FANTASY_CARDS: Mapping[int, int] = {10: 14, 11: 15, 12: 16}
"""Progressive fantasy deal by the rank index of the top pair (QQ 14, KK 15, AA 16)."""
PROGRESSIVE_TRIPS_CARDS = 17
PROGRESSIVE_REPEAT_CARDS = 14
HAND_CARDS = 13

MOST_FANTASY_CARDS = max(
    PROGRESSIVE_TRIPS_CARDS, *PROGRESSIVE_FANTASY_CARDS.values(), *(s.fantasy_cards for s in VARIANTS.values())
)
"""The largest deal a seat can hold in any rules (a progressive fantasy on trips)."""
MOST_DISCARDS = max(
    MOST_FANTASY_CARDS - HAND_CARDS, *(sum(street.discards for street in s.streets) for s in VARIANTS.values())
)
"""The most cards a seat can discard in one hand of any rules."""
