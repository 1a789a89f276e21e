"""Limits at the server's door: request bodies bounded before they are read, security headers.

An HTTP body larger than ``MAX_BODY`` is refused with 413 from its ``Content-Length`` alone,
or as soon as the bytes read pass the limit (a body without a length); it is never read in
full. Every HTTP answer carries a Content-Security-Policy (only this origin's scripts, styles
and sockets; no framing), ``X-Frame-Options: DENY`` and ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import json
from typing import Any

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

    async def _refuse(self, send: Any) -> None:
        problem = f"a request body may hold at most {self.limit} bytes"
        body = json.dumps({"error": {"code": "too_large", "message": problem}}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
