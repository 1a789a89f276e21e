"""The catalogs as the browser client reads them: one JSON document a language.

The same ``.po`` files serve both faces (no second source of truth, no build step): the client
gets every translated message keyed by its id (``context + "\\x04" + id`` under a context, as in
gettext), plural forms as lists, and which form each CLDR plural category takes, so
``Intl.PluralRules`` picks the same form gettext would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale

from ofc.i18n.catalog import merged_catalog, translations
from ofc.i18n.language import LANGUAGE_NAMES, LANGUAGES, Language

CONTEXT_GLUE = "\x04"


def plural_categories(language: Language) -> dict[str, int]:
    """Which gettext plural form each CLDR category takes (``one``/``few``/``many``/``other``)."""
    locale = Locale.parse(language)
    rule = getattr(translations(language), "plural", _english_rule)
    forms: dict[str, int] = {}
    for n in range(1000):
        forms.setdefault(str(locale.plural_form(n)), int(rule(n)))
    forms.setdefault("other", max(forms.values()))
    return forms


def _english_rule(n: int) -> int:
    return int(n != 1)


@cache
def catalog_document(language: Language) -> dict[str, Any]:
    """Everything the client needs to speak ``language``."""
    messages: dict[str, str | list[str]] = {}
    for message in merged_catalog(language):
        if not message.id:
            continue
        key_id = str(message.id[0]) if isinstance(message.id, tuple | list) else str(message.id)
        key = f"{message.context}{CONTEXT_GLUE}{key_id}" if message.context else key_id
        string = message.string
        messages[key] = list(string) if isinstance(string, tuple) else str(string)
    return {
        "language": language,
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        "plural": plural_categories(language),
        "messages": messages,
    }
