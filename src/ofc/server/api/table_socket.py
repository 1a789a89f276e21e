"""The table's WebSocket ``/ws/tables/{id}``: its message stream (docs/protocol.md).

Each connection reads one message at a time and writes queued replies; hints and solutions
are worked out beside the connection's other messages, one at a time, so many a minute.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ofc.rules.terms import Phrase
from ofc.server.api.dependencies import Manager
from ofc.server.db.work import StorageUnavailable
from ofc.server.net.pacing import Pacer
from ofc.server.net.protocol import Hint, ProtocolError, Solve, error_message, parse_message
from ofc.server.net.ratelimit import WHAT, RateLimited, check
from ofc.server.tables.decks import PlayError
from ofc.server.tables.manager import Connection, Runtime, TableManager

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(socket: WebSocket, table_id: int, manager: Manager) -> None:
    """The table's message stream: see docs/protocol.md."""
    await socket.accept()
    try:
        runtime = await manager.load(table_id)  # a finished table is loaded from the database on demand
    except (PlayError, StorageUnavailable) as error:
        await socket.send_json(error_message(error.code, str(error)))
        await socket.close(code=4404 if error.code == "no_table" else 1011)
        return
    await _serve(manager, runtime, socket)


def advising(manager: TableManager, runtime: Runtime, connection: Connection, message: Hint | Solve) -> None:
    """Work out a hint or a solution beside the connection's other messages (one at a time, so many a minute)."""
    if connection.advising is not None and not connection.advising.done():
        connection.send(error_message("busy", "a hint for this connection is still being worked out", message.id))
        return
    try:
        check(connection.hints, Phrase(WHAT["hint"]))
    except RateLimited as error:
        connection.send(error_message(error.code, str(error), message.id) | {"retry_after": error.retry_after})
        return
    if connection.hints is not None:
        connection.hints.spend()
    connection.advising = asyncio.get_running_loop().create_task(manager.handle(runtime, connection, message))


async def _serve(manager: TableManager, runtime: Runtime, socket: WebSocket) -> None:
    """Read messages and write queued replies until the client goes away."""
    connection = Connection()
    connection.hints = manager.limiter.bucket("hint")
    manager.connect(runtime, connection)
    async with runtime.lock:
        connection.send(manager.state(runtime, None))

    async def writer() -> None:
        while (text := await connection.outbox.get()) is not None:
            await socket.send_text(text)
        if connection.outbox.overflowed:
            await socket.close(code=1008, reason="too slow: the messages sent were not read")

    sending = asyncio.get_running_loop().create_task(writer())
    pacer = Pacer()
    try:
        while True:
            # one message at a time, then the other connections' turn, and at most so many a
            # second: a client sending without pause cannot hold the loop (ofc.server.net.pacing)
            await pacer.turn()
            frame = await socket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = bytes(frame.get("bytes") or b"").decode("utf-8", errors="replace")
            try:
                message = parse_message(text)
            except ProtocolError as error:
                connection.send(error_message(error.code, str(error)))
                continue
            if isinstance(message, Hint | Solve):
                advising(manager, runtime, connection, message)
            else:
                await manager.handle(runtime, connection, message)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        manager.disconnect(runtime, connection)
        if connection.advising is not None:
            connection.advising.cancel()
        connection.outbox.put_nowait(None)
        sending.cancel()
