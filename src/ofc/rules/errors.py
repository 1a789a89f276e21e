"""The error hierarchy: every failure the library reports on purpose is an ``OfcError``.

Messages name the card, row, seat or setting at fault, so a face can show them as they are.
A message is an English template with ``{placeholders}`` filled from keyword arguments
(``RowFull("the {row} row is full", row=...)``): ``str(error)`` is the English text,
``ofc.i18n.localize_error(error)`` the player's language, ``error.to_json()`` the language-neutral form a
protocol message carries. Templates are literal strings, so they can be extracted and
translated (``python -m ofc.i18n.extract``; a test holds every raise to it).

Vocabulary is filled in as terms (``row.term``, ``VARIANT_TERMS[variant]``) so it translates;
card texts, names and what the user typed stay as they are. A field shown with ``{value!r}``
is quoted the same way in every language; templates use no format spec (the browser fills
``{name}`` only), so a value is formatted before it is passed (``seconds=f"{x:g}"``). English
plurals are separate templates (``... 1 card`` / ``... 2 cards``): a translation fills a number
where it needs no agreement (``карт: 3``). A wrapped error is a parameter
(``InputError("line {line}: {problem}", line=n, problem=error)``) and renders in the same language.
"""

from __future__ import annotations

from typing import Any

from ofc.rules.terms import neutral


class OfcError(Exception):
    """Base class of every error raised on purpose by ``ofc``."""

    def __init__(self, template: str = "", /, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the template and parameters (errors cross to and from worker processes)."""
        return (_restore, (type(self), self.template, self.params, self.__dict__))

    def to_json(self) -> dict[str, Any]:
        """Kind, English text, template and neutral parameters: what a client translates from."""
        return {
            "kind": type(self).__name__,
            "message": str(self),
            "template": self.template,
            "params": {key: neutral(value) for key, value in self.params.items()},
        }


def _restore(kind: type[OfcError], template: str, params: dict[str, object], state: dict[str, Any]) -> OfcError:
    """Rebuild a pickled error without calling a subclass's own ``__init__``."""
    error = kind.__new__(kind)
    OfcError.__init__(error, template, **params)
    error.__dict__.update(state)
    return error


class CardError(OfcError, ValueError):
    """A card or list of cards cannot be read, or a card appears twice."""


class RulesError(OfcError, ValueError):
    """A setting is unknown, malformed or impossible in combination with others."""


class BoardError(OfcError, ValueError):
    """A board or row has the wrong shape (wrong number of cards, cards shared)."""


class InputError(OfcError, ValueError):
    """A document given to a command (a score file, say) is malformed."""


class MatchError(OfcError, ValueError):
    """A match or tournament call is out of turn or its input does not fit the table."""


class BalanceError(MatchError):
    """A player's balance does not cover what the match may cost them."""


class SetupError(OfcError, ValueError):
    """A hand cannot be set up as asked (button, deck, fantasy or time bank out of range)."""


class ActionError(OfcError, ValueError):
    """An action cannot be applied; the hand is left exactly as it was."""


class HandOver(ActionError):
    """The hand is over: nobody may act any more."""


class NoSuchSeat(ActionError):
    """The action names a seat that is not at the table."""


class NotYourTurn(ActionError):
    """The seat is at the table but may not act now."""


class CardNotHeld(ActionError):
    """The action places or discards a card the seat does not hold."""


class DuplicateCard(ActionError):
    """The action uses one card twice."""


class UnknownRow(ActionError):
    """The action names something that is not a row."""


class RowFull(ActionError):
    """The action puts more cards into a row than it has room for."""


class WrongDiscardCount(ActionError):
    """The action discards more or fewer cards than the deal requires."""


class WrongPlacementCount(ActionError):
    """The action leaves a held card neither placed nor discarded."""


class ClockError(ActionError):
    """A time passed in lies before the hand's clock: time never runs backwards."""


class OutOfTime(ActionError):
    """A seat's hand clock and time bank ran out before the time of the action."""


class HistoryError(OfcError, ValueError):
    """A hand history is malformed, or its replay disagrees with what it records."""


class BotError(OfcError, ValueError):
    """A bot name, option or option value is unknown or malformed."""


class NothingToUndo(ActionError):
    """``Hand.undo`` was called before any action was applied."""


class DealError(ActionError):
    """A deal made by the caller (``Hand.deal``) cannot be made; the hand is left as it was."""


class NoDealDue(DealError):
    """No deal is due: the hand deals its own cards, a seat is to act, or the hand is over."""


class WrongDealSize(DealError):
    """The deal holds more or fewer cards than the seat is due."""


class CardAlreadyDealt(DealError):
    """The deal holds a card dealt before in this hand, or one card twice."""


class DeterminizeError(OfcError, ValueError):
    """A view cannot be completed into a hand (it is not a view the engine could have made)."""
