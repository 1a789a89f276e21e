"""Marks for the texts the rules core writes, so the faces can translate them.

The core stays free of translation machinery (standard library only): it marks words and
phrases, and ``ofc.i18n`` renders them in the player's language. A ``Term`` is one word of
the game's vocabulary under a context (``Term("row", "top")``); a ``Phrase`` is an English
template with filled-in parts (``hand_name`` returns one). Both read as plain English text.
"""

from __future__ import annotations

from collections.abc import Mapping


class Term(str):
    """A word of the game's vocabulary (a row, a hand, a rank) under its context."""

    context: str

    def __new__(cls, context: str, word: str) -> Term:
        """Make the term ``word`` of ``context``."""
        made = super().__new__(cls, word)
        made.context = context
        return made

    def __reduce__(self) -> tuple[type[Term], tuple[str, str]]:
        """Pickle as the context and the word."""
        return (Term, (self.context, str(self)))

    def to_json(self) -> dict[str, str]:
        """The language-neutral form a protocol message carries."""
        return {"term": str(self), "context": self.context}


class Phrase(str):
    """An English template filled from ``params``; reads as the English text."""

    template: str
    params: Mapping[str, object]

    def __new__(cls, template: str, /, **params: object) -> Phrase:
        """Fill ``template`` (its English text is the string's value)."""
        made = super().__new__(cls, template.format(**params) if params else template)
        made.template = template
        made.params = params
        return made

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle as the template and its parameters."""
        return (_phrase, (self.template, dict(self.params)))

    def to_json(self) -> dict[str, object]:
        """The language-neutral form: the template and its parameters."""
        return {"template": self.template, "params": {k: neutral(v) for k, v in self.params.items()}}


def _phrase(template: str, params: dict[str, object]) -> Phrase:
    return Phrase(template, **params)


def neutral(value: object) -> object:
    """A filled-in value as JSON: numbers as numbers, terms, phrases and errors as objects, else text."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    return value if isinstance(value, bool | int | float) else str(value)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


def NC_(context: str, message: str) -> Term:  # noqa: N802 - the gettext convention
    """Mark a word of ``context`` for extraction; it translates itself when filled in."""
    return Term(context, message)
