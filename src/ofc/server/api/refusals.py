"""The one refusal of the HTTP API: ``Refusal``, its JSON shape and the one handler that answers it.

Every refused request is answered ``{"error": {"code", "message", "field", "template",
"params"}}`` with all five keys: ``code`` names the kind for clients, ``message`` is English,
``field`` the request field at fault (or null), ``template`` and ``params`` the
language-neutral form a client words in the player's language (``OfcError.to_json``; a plain
message is its own template, with no params). Errors of the tables, the database and the rate
limits, invalid requests and unknown addresses all become a ``Refusal`` in ``refusal_of``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException

from ofc.rules.errors import BalanceError, OfcError
from ofc.server.db.work import StorageUnavailable
from ofc.server.net.ratelimit import RateLimited
from ofc.server.tables.decks import PlayError

PLAY_STATUS = {"bad_key": 403, "bad_token": 403, "no_table": 404, "no_player": 404, "expired": 410}
"""HTTP status of a table's refusal by its code (409 for the rest of the conflicts below, else 400)."""
PLAY_STATUS |= dict.fromkeys(
    ("seat_taken", "table_full", "already_seated", "not_finished", "not_waiting", "not_playing", "left_seat"), 409
)
HTTP_CODES = {404: "not_found", 405: "bad_method"}
"""Codes of the answers Starlette itself gives (an unknown address, a method a route has not)."""


class RefusalBody(BaseModel):
    """A refusal's fields: what a client shows and translates."""

    model_config = ConfigDict(extra="forbid")

    code: str
    message: str
    field: str | None
    template: str
    params: dict[str, Any]


class RefusalAnswer(BaseModel):
    """The JSON body of every HTTP refusal."""

    model_config = ConfigDict(extra="forbid")

    error: RefusalBody


class Refusal(Exception):
    """A request refused with an HTTP status: a code, an English message, the field at fault.

    With ``cause``, the template and params are the error's own; else the message is its own
    template. ``headers`` go with the answer (``Retry-After``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        cause: OfcError | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.field, self.cause = status, code, field or None, cause
        self.headers = headers or {}

    @classmethod
    def of(cls, status: int, code: str, error: OfcError, field: str | None = None) -> Refusal:
        """The refusal carrying ``error``'s text, template and params."""
        return cls(status, code, str(error), field, error)

    def body(self) -> RefusalAnswer:
        """The answer's body."""
        if self.cause is None:
            template, params = str(self), {}
        else:
            neutral = self.cause.to_json()
            template, params = str(neutral["template"]), dict(neutral["params"])
        return RefusalAnswer(
            error=RefusalBody(code=self.code, message=str(self), field=self.field, template=template, params=params)
        )

    def response(self) -> JSONResponse:
        """The JSON answer."""
        return JSONResponse(self.body().model_dump(mode="json"), status_code=self.status, headers=self.headers)


def refusal_of(error: Exception) -> Refusal:
    """The refusal an error raised by a route (or by FastAPI and Starlette around it) is answered with."""
    if isinstance(error, Refusal):
        return error
    if isinstance(error, RequestValidationError):
        return _invalid(error)
    if isinstance(error, RateLimited):
        return Refusal(429, error.code, str(error), cause=error, headers={"retry-after": str(error.retry_after)})
    if isinstance(error, PlayError):
        return Refusal.of(PLAY_STATUS.get(error.code, 400), error.code, error)
    if isinstance(error, StorageUnavailable):
        return Refusal.of(503, error.code, error)
    if isinstance(error, BalanceError):
        return Refusal.of(409, "balance", error)
    if isinstance(error, HTTPException):
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        return Refusal(error.status_code, code, str(error.detail), headers=dict(error.headers or {}))
    raise TypeError(f"no refusal for {type(error).__name__}")  # pragma: no cover - only registered kinds come here


def _invalid(error: RequestValidationError) -> Refusal:
    """An invalid request (422 ``bad_request``): the first problem, with the field at fault."""
    problems = error.errors()
    problem = problems[0] if problems else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in problem.get("loc", ())[1:])
    where = where.removeprefix("sit.")  # the player's fields of a table created with its player seated
    return Refusal(422, "bad_request", f"{where or 'body'}: {problem.get('msg')}", where or None)


async def answer_refusal(_request: Request, error: Exception) -> JSONResponse:
    """The one exception handler: every refused request answered in the one shape."""
    return refusal_of(error).response()


REFUSED_KINDS: tuple[type[Exception], ...] = (
    Refusal,
    RequestValidationError,
    PlayError,
    StorageUnavailable,
    BalanceError,
    HTTPException,
)
"""What ``answer_refusal`` answers (``RateLimited`` is a ``PlayError``)."""


def install_refusals(app: FastAPI) -> None:
    """Answer every refusal of ``app`` with ``answer_refusal``."""
    for kind in REFUSED_KINDS:
        app.add_exception_handler(kind, answer_refusal)


_WHY = {
    400: "Refused: the request is wrong (bad_text, bad_table...)",
    403: "Refused: a wrong key or token",
    404: "Refused: nothing of that name or number",
    409: "Refused: the state does not allow it now",
    410: "Refused: gone",
    413: "Refused: the body is too large",
    422: "Refused: the request is invalid (bad_request, bad_book)",
    429: "Refused: over a rate limit (see Retry-After)",
    503: "Refused: the database or the workers did not answer in time; nothing changed",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these refusal statuses, plus those any request may get (400, 413, 422)."""
    return {
        status: {"model": RefusalAnswer, "description": _WHY.get(status, "Refused")}
        for status in sorted({400, 413, 422, *statuses})
    }
