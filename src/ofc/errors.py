"""The error hierarchy: every failure the library reports on purpose is an ``OfcError``.

Messages name the card, row, seat or setting at fault, so a face can show them as they are.
"""

from __future__ import annotations


class OfcError(Exception):
    """Base class of every error raised on purpose by ``ofc``."""


class CardError(OfcError, ValueError):
    """A card or list of cards cannot be read, or a card appears twice."""


class RulesError(OfcError, ValueError):
    """A setting is unknown, malformed or impossible in combination with others."""


class BoardError(OfcError, ValueError):
    """A board or row has the wrong shape (wrong number of cards, cards shared)."""


class InputError(OfcError, ValueError):
    """A document given to a command (a score file, say) is malformed."""
