"""Speaking the players' languages: English, Russian and Ukrainian.

One translation layer for every face: gettext catalogs (``src/ofc/locale``, read with Babel
at load time) serve Python (``tr``, ``trn``, ``trc``) and, as JSON, the browser client.
Machine-readable output (``--json``, the protocol, hand histories) never goes through it.
"""

from ofc.i18n.language import (
    DEFAULT,
    LANGUAGE_NAMES,
    LANGUAGES,
    Language,
    current_language,
    from_accept_language,
    from_environment,
    parse_language,
    set_language,
    use_language,
)
from ofc.i18n.numbers import format_money, format_number, format_percent, format_signed
from ofc.i18n.text import N_, NC_, Phrase, Term, fill, localize, localize_error, tr, translate, trc, trn

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "NC_",
    "N_",
    "Language",
    "Phrase",
    "Term",
    "current_language",
    "fill",
    "format_money",
    "format_number",
    "format_percent",
    "format_signed",
    "from_accept_language",
    "from_environment",
    "localize",
    "localize_error",
    "parse_language",
    "set_language",
    "tr",
    "translate",
    "trc",
    "trn",
    "use_language",
]
