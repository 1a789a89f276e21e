"""The translation catalogs for the browser client, from the same ``.po`` files as the terminal.

``GET /api/i18n`` answers the catalog of the best language for the request's
``Accept-Language`` header; ``GET /api/i18n/{lang}`` the catalog of ``en``, ``ru`` or ``uk``
(the picker's choice). Each is ``{"language", "languages", "plural", "messages"}``
(``ofc.i18n.browser``); an unknown language is ``404 no_language``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from ofc.i18n.browser import catalog_document
from ofc.i18n.language import LANGUAGES, from_accept_language, is_language
from ofc.server.api.refusals import Refusal, refusals

_CACHE = "public, max-age=300"


class LanguageName(BaseModel):
    """A language the client offers: its code and its own name."""

    code: str
    name: str


class Catalog(BaseModel):
    """Everything the client needs to speak a language."""

    language: str
    languages: list[LanguageName]
    plural: dict[str, int]
    """The gettext plural form of each CLDR category (``one``, ``few``, ``many``, ``other``)."""
    messages: dict[str, str | list[str]]
    """Translations by message id (plural forms as a list)."""


router = APIRouter(prefix="/api/i18n", tags=["i18n"])


@router.get("", response_model=Catalog)
def negotiated(request: Request, response: Response) -> dict[str, Any]:
    """The catalog of the best language for the request's ``Accept-Language``."""
    language = from_accept_language(request.headers.get("accept-language"))
    response.headers["Cache-Control"] = "private, max-age=300"
    return catalog_document(language)


@router.get("/{code}", response_model=Catalog, responses=refusals(404))
def chosen(code: str, response: Response) -> dict[str, Any]:
    """The catalog of language ``code``."""
    if not is_language(code):
        raise Refusal(404, "no_language", f"there is no language {code[:20]!r}: choose one of {', '.join(LANGUAGES)}")
    response.headers["Cache-Control"] = _CACHE
    return catalog_document(code)
