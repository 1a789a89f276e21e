"""Limits at the server's door: request bodies bounded before they are read, text no database
refuses, security headers.

An HTTP body larger than ``MAX_BODY`` is refused with 413 from its ``Content-Length`` alone,
or as soon as the bytes read pass the limit (a body without a length); it is never read in
full. An address or a JSON body holding a NUL character or a lone surrogate in any text is
refused with 400 ``bad_text`` naming the field, before any route runs (PostgreSQL cannot
store them; the same answer on SQLite). Every HTTP answer carries a Content-Security-Policy
(only this origin's scripts, styles and sockets; no framing), ``X-Frame-Options: DENY`` and
``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_to_bytes

from ofc.server.net.protocol import bad_text

MAX_BODY = 64 * 1024
"""Bytes a request body may hold (the largest lobby or keep request is a few kilobytes)."""

MAX_FRAME = 64 * 1024
"""Bytes a WebSocket frame may hold (uvicorn's ``ws_max_size``; a table message is under 8 KiB)."""

HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]

Scope = dict[str, Any]
Message = dict[str, Any]


class _TooLarge(Exception):
    """The body read so far passed the limit."""


class DoorLimits:
    """ASGI middleware: the body limit and the security headers."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = message | {"headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(guarded_send)
            return
        if "\x00" in scope.get("path", "") or b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
            await _answer(guarded_send, 400, "bad_text", "the address may not contain NUL characters")
            return
        if scope.get("method") in ("POST", "PUT", "PATCH", "DELETE"):
            try:
                body = await self._read(receive)
            except _TooLarge:
                await self._refuse(guarded_send)
                return
            problem = _text_problem(body)
            if problem is not None:
                await _answer(guarded_send, 400, "bad_text", problem)
                return
            await self.app(scope, _replay(body, receive), guarded_send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message: Message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, guarded_send)
        except _TooLarge:
            if not started:
                await self._refuse(guarded_send)

    async def _read(self, receive: Any) -> bytes:
        """The whole body (at most ``limit`` bytes: raises ``_TooLarge`` as soon as it passes)."""
        parts: list[bytes] = []
        seen = 0
        while True:
            message: Message = await receive()
            if message["type"] != "http.request":
                break
            parts.append(message.get("body", b""))
            seen += len(parts[-1])
            if seen > self.limit:
                raise _TooLarge
            if not message.get("more_body", False):
                break
        return b"".join(parts)

    async def _refuse(self, send: Any) -> None:
        await _answer(send, 413, "too_large", f"a request body may hold at most {self.limit} bytes")


def _text_problem(body: bytes) -> str | None:
    """What ``bad_text`` finds in a JSON body (a body that is not JSON is left to the route)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return bad_text(data)


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` giving the body already read, then what the client sends next (a disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        message: Message = await receive()
        return message

    return replayed


async def _answer(send: Any, status: int, code: str, problem: str) -> None:
    # the one refusal shape of ofc.server.api.refusals: a plain message is its own template
    refusal: dict[str, object] = {"code": code, "message": problem, "field": None, "template": problem, "params": {}}
    body = json.dumps({"error": refusal}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
