"""The translation catalogs for the browser client, from the same ``.po`` files as the terminal.

``GET /api/i18n`` answers the catalog of the best language for the request's
``Accept-Language`` header; ``GET /api/i18n/{lang}`` the catalog of ``en``, ``ru`` or ``uk``
(the picker's choice). Each is ``{"language", "languages", "plural", "messages"}``
(``ofc.i18n.browser``); an unknown language is ``404 no_language``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ofc.i18n.browser import catalog_document
from ofc.i18n.language import LANGUAGES, from_accept_language, is_language

_CACHE = "public, max-age=300"


def i18n_router() -> APIRouter:
    """Routes serving the catalogs."""
    router = APIRouter()

    @router.get("/api/i18n")
    def negotiated(request: Request) -> JSONResponse:
        language = from_accept_language(request.headers.get("accept-language"))
        return JSONResponse(catalog_document(language), headers={"Cache-Control": "private, max-age=300"})

    @router.get("/api/i18n/{code}")
    def chosen(code: str) -> JSONResponse:
        if not is_language(code):
            message = f"there is no language {code[:20]!r}: choose one of {', '.join(LANGUAGES)}"
            return JSONResponse({"error": {"code": "no_language", "message": message}}, status_code=404)
        return JSONResponse(catalog_document(code), headers={"Cache-Control": _CACHE})

    return router
