"""Translating and filling in texts: the functions every face calls.

Message ids are English and use ``{name}`` placeholders (``str.format``). Calls must pass
literal strings, so the extractor finds them (a test checks it)::

    tr("Hint")                                  # translate
    tr("{name} must act first", name=player)    # translate, then fill in
    trn("{n} point", "{n} points", n)           # plural: 1 очко, 2 очка, 5 очков
    trc("row", "top")                           # a word with a context
    N_("Full house"), NC_("row", "top")         # mark for extraction, translate later

Filled-in numbers are written the language's way; a ``Term`` (``ofc.rules.terms``) is translated
with its context, a ``Phrase`` or an ``OfcError`` rendered whole.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from decimal import Decimal
from typing import Final

from ofc.i18n.catalog import translations
from ofc.i18n.language import Language, current_language, is_language
from ofc.i18n.numbers import format_number
from ofc.rules.errors import OfcError
from ofc.rules.terms import N_, NC_, Phrase, Term


def _lang(language: Language | None) -> Language:
    return language or current_language()


def translate(message: str, language: Language | None = None) -> str:
    """``message`` in the current (or given) language, placeholders left as they are."""
    return translations(_lang(language)).gettext(message)


def trc(context: str, message: str, language: Language | None = None) -> str:
    """``message`` under ``context`` in the current (or given) language."""
    return translations(_lang(language)).pgettext(context, message)


def fill(text: str, params: Mapping[str, object], language: Language | None = None) -> str:
    """``text`` with its placeholders filled: numbers localised, terms translated."""
    language = _lang(language)
    if not params:
        return text
    return text.format(**{key: render_value(value, language) for key, value in params.items()})


def render_value(value: object, language: Language) -> object:
    """One filled-in value as the language writes it."""
    if isinstance(value, OfcError):
        return localize_error(value, language)
    if isinstance(value, Phrase):
        return localize(value.template, value.params, language)
    if isinstance(value, Term):
        return trc(value.context, str(value), language)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return format_number(value, language)
    return value


def tr(message: str, /, **params: object) -> str:
    """``message`` translated, then its ``{placeholders}`` filled from ``params``."""
    return fill(translate(message), params)


def trn(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The plural form for ``n`` (``{n}`` is filled with it), translated and filled."""
    text = translations(current_language()).ngettext(singular, plural, n)
    return fill(text, {"n": n, **params})


def localize(template: str, params: Mapping[str, object], language: Language | None = None) -> str:
    """A stored template (an error's, say) rendered in the current (or given) language."""
    return fill(translate(template, language), params, language)


__all__ = ["KEYWORDS", "NC_", "N_", "Phrase", "Term", "fill", "localize", "tr", "translate", "trc", "trn"]

KEYWORDS: Final[dict[str, object]] = {
    "tr": None,
    "trn": (1, 2),
    "trc": ((1, "c"), 2),
    "N_": None,
    "NC_": ((1, "c"), 2),
}


def localize_error(error: OfcError, language: str | None = None) -> str:
    """``error``'s message in ``language`` (default, or not a language: the current one)."""
    verbatim = _shown_as_written(error.template)
    params = {key: _Verbatim(value) if key in verbatim else value for key, value in error.params.items()}
    return localize(error.template, params, language if is_language(language) else None)


def _shown_as_written(template: str) -> set[str]:
    """Fields the template shows with a conversion or format (``{value!r}``, ``{seconds:g}``)."""
    try:
        fields = string.Formatter().parse(template)
        return {field for _text, field, spec, conversion in fields if field and (spec or conversion)}
    except ValueError:
        return set()


class _Verbatim:
    """A value kept as it is when localised: ``{value!r}`` quotes the value, not its translation."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)
