"""The table's WebSocket ``/ws/tables/{id}``: its message stream (docs/protocol.md).

Each connection reads one message at a time and writes queued replies; hints and solutions
are worked out beside the connection's other messages, one at a time, so many a minute.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ofc.server.api.dependencies import Manager
from ofc.server.db.work import StorageUnavailable
from ofc.server.net.pacing import Pacer
from ofc.server.net.protocol import error_message
from ofc.server.tables.cluster import MOVED, Elsewhere
from ofc.server.tables.decks import PlayError
from ofc.server.tables.manager import Connection, Runtime, TableManager

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(socket: WebSocket, table_id: int, manager: Manager) -> None:
    """The table's message stream: see docs/protocol.md."""
    await socket.accept()
    try:
        runtime = await manager.load(table_id)  # a finished table is loaded from the database on demand
    except Elsewhere as elsewhere:  # run by another node: this one relays
        if manager.cluster is not None and elsewhere.owner:
            await manager.cluster.relay(socket, elsewhere)
            return
        error = PlayError("the table moved to another server: reconnect", code="moved")
        await socket.send_json(error_message(error.code, str(error), error=error))
        await socket.close(code=MOVED)
        return
    except (PlayError, StorageUnavailable) as error:
        await socket.send_json(error_message(error.code, str(error)))
        await socket.close(code=4404 if error.code == "no_table" else 1011)
        return
    await _serve(manager, runtime, socket)


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
        else:
            await socket.close(code=MOVED, reason="the table moved: reconnect")

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
            await manager.receive(runtime, connection, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        manager.disconnect(runtime, connection)
        if connection.advising is not None:
            connection.advising.cancel()
        connection.outbox.put_nowait(None)
        sending.cancel()
