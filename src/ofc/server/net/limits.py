"""Limits at the server's door: request bodies bounded before they are read, text no database
refuses, security headers; table connections capped and hints counted per seat and address.

An HTTP body larger than ``MAX_BODY`` is refused with 413 from its ``Content-Length`` alone,
or as soon as the bytes read pass the limit (a body without a length); it is never read in
full. An address or a JSON body holding a NUL character or a lone surrogate in any text is
refused with 400 ``bad_text`` naming the field, before any route runs (PostgreSQL cannot
store them; the same answer on SQLite). Every HTTP answer carries a Content-Security-Policy
(only this origin's scripts, styles and sockets; no framing), ``X-Frame-Options: DENY`` and
``X-Content-Type-Options: nosniff``.

A table WebSocket counts, in the database every server process shares, against its client
address when it opens and against each seat token it first speaks for: past
``connections_per_address`` or ``connections_per_token`` live connections it gets an ``error``
message (code ``too_many_connections``) and is closed (1008). Its hints and fantasy solutions
are counted per seat token and per address (``hint_seat``, ``hint_address`` of
``ofc.server.net.ratelimit``) before the table sees them; one over a limit is answered with a
``rate_limited`` error and goes no further. A live connection's count expires
``CONNECTION_SECONDS`` after its process last renewed it, so a dead process's connections stop
counting. Without rate limits (``rate_limits=None``) none of this is counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
from typing import Any
from urllib.parse import unquote_to_bytes

import anyio

from ofc.server.db.work import StorageUnavailable
from ofc.server.net.protocol import bad_text, error_message
from ofc.server.net.ratelimit import RateLimited
from ofc.server.tables.decks import PlayError

log = logging.getLogger("ofc.server.limits")

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

CONNECTION_SECONDS = 30.0
"""How long a live connection counts unless its process renews it (every third of this)."""

TOKENS_COUNTED = 4
"""Seat tokens one connection is counted against at most (a connection may speak for a few seats)."""

TOO_MANY = 1008
"""The close code of a connection over a cap (policy violation)."""

Scope = dict[str, Any]
Message = dict[str, Any]
Holder = tuple[str, str, str]
"""A live connection's count: the cap's kind, its key (an address, a token's hash) and the holder."""


def over_cap(kind: str, cap: int) -> None:
    """Raise the ``too_many_connections`` refusal of cap ``kind``."""
    if kind == "socket_token":
        raise PlayError(
            "this seat token already has {cap} connections: close one first", code="too_many_connections", cap=cap
        )
    raise PlayError("this address already has {cap} connections: close one first", code="too_many_connections", cap=cap)


class _TooLarge(Exception):
    """The body read so far passed the limit."""


class DoorLimits:
    """ASGI middleware: the body limit and the security headers."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit
        self._live: dict[str, list[Holder]] = {}
        """This process's live connections' counts, by connection."""
        self._renewing: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
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

    async def _socket(self, scope: Scope, receive: Any, send: Any) -> None:
        """A WebSocket: capped per address and per seat token, its hints counted; then the app's."""
        state = getattr(scope.get("app"), "state", None)
        manager = getattr(state, "manager", None)
        settings = getattr(state, "settings", None)
        limiter = getattr(manager, "limiter", None)
        if manager is None or settings is None or limiter is None or limiter.shared is None or limiter.rules is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        connection = f"{manager.node}/{secrets.token_hex(8)}"
        caps = {"socket_address": settings.connections_per_address, "socket_token": settings.connections_per_token}
        held = self._live[connection] = []
        tokens: set[str] = set()
        closed = False
        first: Message | None = None

        async def refuse(error: PlayError) -> Message:
            """Accept if not yet, send the error, close; what the app reads next (a disconnect)."""
            nonlocal closed
            if first is not None:
                await send({"type": "websocket.accept"})
            await send(
                {"type": "websocket.send", "text": json.dumps(error_message(error.code, str(error), error=error))}
            )
            await send({"type": "websocket.close", "code": TOO_MANY, "reason": "too many connections"})
            closed = True
            return {"type": "websocket.disconnect", "code": TOO_MANY}

        async def count(kind: str, key: str) -> PlayError | None:
            """Count this connection against ``key``'s cap; the refusal when over it."""
            try:
                live = await manager.db.read(limiter.shared.hold, kind, key, connection, caps[kind], CONNECTION_SECONDS)
            except StorageUnavailable:
                log.warning("connections of %s not counted: the database did not answer", kind)
                return None  # the table itself answers with the database's fault
            if live is None:
                held.append((kind, key, connection))
                self._renew_soon(manager, limiter.shared)
                return None
            try:
                over_cap(kind, caps[kind])
            except PlayError as error:
                return error
            return None  # pragma: no cover - over_cap always raises

        async def hinted(data: dict[str, Any], token: str) -> bool:
            """Count a hint or a solution of ``token``; False (answered with the refusal) when over a limit."""
            try:
                await limiter.take(manager.db, [("hint_seat", token, 1), ("hint_address", address, 1)])
            except RateLimited as error:
                refusal = error_message(error.code, str(error), data.get("id"), error)
                await send({"type": "websocket.send", "text": json.dumps(refusal | {"retry_after": error.retry_after})})
                return False
            except StorageUnavailable as error:
                refusal = error_message(error.code, str(error), data.get("id"), error)
                await send({"type": "websocket.send", "text": json.dumps(refusal)})
                return False
            return True

        async def counted() -> Message:
            nonlocal first
            if first is not None:
                given, first = first, None
                return given
            while True:
                message: Message = await receive()
                if closed or message["type"] != "websocket.receive":
                    return message
                data = _frame(message)
                token = data.get("token") if data is not None else None
                if data is None or not isinstance(token, str) or not token:
                    return message
                key = hashlib.sha256(token.encode()).hexdigest()
                if key not in tokens and len(tokens) < TOKENS_COUNTED:
                    refused = await count("socket_token", key)
                    if refused is not None:
                        return await refuse(refused)
                    tokens.add(key)
                if data.get("type") not in ("hint", "solve") or await hinted(data, key):
                    return message

        async def guarded(message: Message) -> None:
            if not closed:
                await send(message)

        try:
            first = await receive()
            if first["type"] == "websocket.connect":
                refused = await count("socket_address", address)
                if refused is not None:
                    await refuse(refused)
                    return
            await self.app(scope, counted, guarded)
        finally:
            del self._live[connection]
            if not self._live and self._renewing is not None:
                self._renewing.cancel()
                self._renewing = None
            if held:
                with anyio.CancelScope(shield=True):  # counted until released, even when the socket is cancelled
                    try:
                        await manager.db.read(limiter.shared.release, held)
                    except StorageUnavailable:
                        log.warning("a connection's count was not released: it expires on its own")

    def _renew_soon(self, manager: Any, shared: Any) -> None:
        """Renew this process's live connections every third of ``CONNECTION_SECONDS`` while there are any."""
        if self._renewing is not None and not self._renewing.done():
            return

        async def renew() -> None:
            while self._live:
                await asyncio.sleep(CONNECTION_SECONDS / 3)
                holders = [holder for held in self._live.values() for holder in held]
                try:
                    await manager.db.read(shared.renew, holders, CONNECTION_SECONDS)
                except StorageUnavailable:
                    log.warning("live connections not renewed: the database did not answer")

        self._renewing = asyncio.get_running_loop().create_task(renew())


def _frame(message: Message) -> dict[str, Any] | None:
    """A WebSocket frame's JSON object (None: not one; the table answers it)."""
    text = message.get("text")
    if text is None:
        text = bytes(message.get("bytes") or b"").decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


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
