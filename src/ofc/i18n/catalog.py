"""The translation catalogs: gettext ``.po`` files read with Babel and compiled at load time.

Each language has one folder ``src/ofc/locale/<lang>/LC_MESSAGES/`` holding a ``.po`` file per
domain (``core``, ``errors``, ``cli``, ``web``); they are merged into one gettext catalog. The
message ids are the English texts, so English needs no catalog (and does not load Babel's
catalog reader, which keeps the command line quick to start).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ofc.i18n.language import DEFAULT, Language

if TYPE_CHECKING:  # Babel loads when a catalog is first read: English output never needs it
    from babel.messages.catalog import Catalog

LOCALE_DIR: Final[Path] = Path(__file__).resolve().parent.parent / "locale"
DOMAINS: Final[tuple[str, ...]] = ("core", "errors", "cli", "web")


def po_path(language: Language, domain: str) -> Path:
    """Where the ``.po`` file of one language and domain lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(language: Language, domain: str) -> Catalog:
    """One domain's catalog as Babel reads it (an empty one when the file is missing)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = po_path(language, domain)
    if not path.exists():
        return Catalog(locale=language, domain=domain)
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain)


@cache
def merged_catalog(language: Language) -> Catalog:
    """Every domain of a language in one catalog (fuzzy and empty entries left out)."""
    from babel.messages.catalog import Catalog

    merged = Catalog(locale=language, domain="ofc")
    for domain in DOMAINS:
        for message in read_catalog(language, domain):
            if not message.id or message.fuzzy:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if not all(strings):
                continue
            merged.add(message.id, message.string, context=message.context)
    return merged


@cache
def translations(language: Language) -> gettext.NullTranslations:
    """The compiled gettext catalog of ``language`` (English: the message ids themselves)."""
    if language == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, merged_catalog(language))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
