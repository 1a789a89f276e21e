"""Many server processes, one room: connections relayed to the node that runs their table, requests forwarded.

Every process (a node) may accept any player. A table runs on the one node that holds its lease
(``ofc.server.db.leases``; the table manager renews, drops and takes over leases); here:

- a **relay** serves a WebSocket whose table runs on another node: what the client sends goes
  over the bus to the owner, what the owner sends comes back, unchanged and in order. The owner
  treats a relayed client as a ``RemoteConnection``, one of its table's connections like any
  other, so a client sees exactly what a one-process server would send it. When the owner dies
  or hands the table over, the relay closes the socket and the client reconnects (to any node);
- **calls** carry the lobby's requests about a table (join, leave, rematch) to the table's owner
  and its answer or refusal back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ofc.rules.errors import OfcError
from ofc.server.db.leases import Leases
from ofc.server.db.work import StorageUnavailable
from ofc.server.net.bus import Bus
from ofc.server.net.outbox import Outbox
from ofc.server.net.pacing import Pacer
from ofc.server.net.ratelimit import Limiter
from ofc.server.tables.decks import PlayError
from ofc.server.tables.runtime import Connection, Runtime

if TYPE_CHECKING:
    from fastapi import WebSocket

log = logging.getLogger("ofc.server.cluster")

CALL_SECONDS = 15.0
"""How long a node waits for the owner's answer to a forwarded request."""
MOVED = 4012
"""The WebSocket close code a relay uses when its table's owner is gone: reconnect (to any node)."""


class Host(Protocol):
    """What the cluster needs of this node's table manager."""

    tables: dict[int, Runtime]
    limiter: Limiter
    leases: Leases

    def connect(self, runtime: Runtime, connection: Connection) -> None: ...

    def disconnect(self, runtime: Runtime, connection: Connection) -> None: ...

    def state(self, runtime: Runtime, seat: int | None) -> dict[str, Any]: ...

    async def receive(self, runtime: Runtime, connection: Connection, text: str) -> None: ...

    async def join_here(self, table_id: int, request: dict[str, Any], address: str = "") -> dict[str, Any]: ...

    async def leave_here(self, table_id: int, request: dict[str, Any]) -> dict[str, Any]: ...

    async def rematch_here(self, table_id: int) -> dict[str, Any]: ...


class Elsewhere(Exception):
    """The table runs on another node (``owner``), under a lease (``epoch``) that is still running."""

    def __init__(self, table: int, owner: str, epoch: int = 0) -> None:
        super().__init__(f"table {table} runs on {owner}")
        self.table = table
        self.owner = owner
        self.epoch = epoch


class RemoteOutbox(Outbox):
    """An outbox whose messages go over the bus to the relaying node, in order (it keeps none)."""

    def __init__(self, bus: Bus, node: str, connection: str) -> None:
        super().__init__()
        self.bus, self.node, self.connection = bus, node, connection

    def put_nowait(self, text: str | None, *, state: bool = False) -> None:
        """Send ``text`` to the relay (None: the connection ends there)."""
        if text is None:
            self.bus.send(self.node, {"k": "end", "c": self.connection})
        else:
            self.bus.send(self.node, {"k": "out", "c": self.connection, "p": text, "s": state})


@dataclass
class Relay:
    """A socket this node holds for a table another node runs: the table, its owner and lease epoch, the outbox."""

    table: int
    owner: str
    epoch: int
    outbox: Outbox


@dataclass
class RemoteClient:
    """A client of another node, as its table's owner sees it: a connection and its message queue."""

    runtime: Runtime
    connection: Connection
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class Cluster:
    """This node's part of the room: the keeper, the relays, the remote clients and the calls."""

    def __init__(self, manager: Host, bus: Bus) -> None:
        self.manager = manager
        self.bus = bus
        self.node = bus.node
        self.leases = manager.leases
        self.relays: dict[str, Relay] = {}
        """This node's relayed sockets, by connection id."""
        self.clients: dict[tuple[str, str], RemoteClient] = {}
        """Other nodes' clients of this node's tables, by (node, connection id)."""
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.scan = asyncio.Event()
        """Set when another node hands its tables over: the keeper looks for orphans at once."""

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Join the bus."""
        await self.bus.start(self._receive)

    async def stop(self) -> None:
        """Tell the other nodes this one's tables are free (its leases ended first), end the relays, leave."""
        self.bus.broadcast({"k": "released", "n": self.node})
        for connection_id in list(self.relays):
            self._end_relay(connection_id)
        await self.bus.stop()

    async def check_relays(self) -> None:
        """End the relays whose owner no longer holds the lease they began under (the clients reconnect).

        The epoch is compared too: an owner that died and came back under the same name knows
        nothing of the relays it had.
        """
        if not self.relays:
            return
        current = await asyncio.to_thread(self.leases.leases_of, {relay.table for relay in self.relays.values()})
        for connection_id, relay in list(self.relays.items()):
            lease = current.get(relay.table)
            if lease is None or not lease.live or (lease.owner, lease.epoch) != (relay.owner, relay.epoch):
                self._end_relay(connection_id)

    def _end_relay(self, connection_id: str, *, tell_owner: bool = False) -> None:
        """Close a relayed socket (its client reconnects); ``tell_owner`` if the owner still serves it."""
        relay = self.relays.pop(connection_id, None)
        if relay is not None:
            relay.outbox.put_nowait(None)
            if tell_owner:
                self.bus.send(relay.owner, {"k": "close", "c": connection_id, "n": self.node})

    # ------------------------------------------------------------------ the relay (this node holds the socket)

    async def relay(self, socket: WebSocket, elsewhere: Elsewhere) -> None:
        """Serve ``socket`` for a table another node runs: its messages there, the owner's here."""
        table, owner = elsewhere.table, elsewhere.owner
        connection_id = secrets.token_hex(8)
        outbox = Outbox()
        self.relays[connection_id] = Relay(table, owner, elsewhere.epoch, outbox)
        self.bus.send(owner, {"k": "open", "t": table, "c": connection_id, "n": self.node})

        async def writer() -> None:
            while (text := await outbox.get()) is not None:
                await socket.send_text(text)
            code = 1008 if outbox.overflowed else MOVED
            reason = "too slow: the messages sent were not read" if outbox.overflowed else "the table moved: reconnect"
            with contextlib.suppress(Exception):
                await socket.close(code=code, reason=reason)

        async def reader() -> None:
            pacer = Pacer()
            while True:
                await pacer.turn()
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                if text is None:
                    text = bytes(frame.get("bytes") or b"").decode("utf-8", errors="replace")
                self.bus.send(owner, {"k": "in", "c": connection_id, "n": self.node, "p": text})

        loop = asyncio.get_running_loop()
        sending, receiving = loop.create_task(writer()), loop.create_task(reader())
        try:  # until the client goes away (the reader ends) or the relay ends (the writer closes the socket)
            await asyncio.wait({receiving, sending}, return_when=asyncio.FIRST_COMPLETED)
            if receiving.done() and receiving.exception() is not None:
                log.debug("relay %s of table %s ended", connection_id, table, exc_info=receiving.exception())
        finally:
            receiving.cancel()
            self._end_relay(connection_id, tell_owner=True)  # if nothing else ended it first
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sending, 1.0)

    # ------------------------------------------------------------------ calls (the lobby's requests)

    async def call(self, owner: str, operation: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Run a lobby request on the table's owner; its answer, or its refusal raised here."""
        reply_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[reply_id] = future
        self.bus.send(owner, {"k": "call", "r": reply_id, "n": self.node, "op": operation, "a": arguments})
        try:
            async with asyncio.timeout(CALL_SECONDS):
                reply = await future
        except TimeoutError:
            raise StorageUnavailable("the server running this table did not answer in time") from None
        finally:
            self._calls.pop(reply_id, None)
        if reply.get("ok"):
            value: dict[str, Any] = reply["v"]
            return value
        raise _rebuilt(reply["e"])

    async def _answer(self, message: dict[str, Any]) -> None:
        operations: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
            "join": self.manager.join_here,
            "leave": self.manager.leave_here,
            "rematch": self.manager.rematch_here,
        }
        try:
            value = await operations[message["op"]](**message["a"])
            reply: dict[str, Any] = {"ok": True, "v": value}
        except OfcError as error:
            reply = {"ok": False, "e": error.to_json() | {"code": getattr(error, "code", None)}}
        except Elsewhere:
            moved = PlayError("the table moved to another server: reconnect", code="moved")
            reply = {"ok": False, "e": moved.to_json() | {"code": "moved"}}
        self.bus.send(message["n"], {"k": "reply", "r": message["r"]} | reply)

    # ------------------------------------------------------------------ what arrives on the bus

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "out":
            relayed = self.relays.get(message["c"])
            if relayed is not None:
                relayed.outbox.put_nowait(message["p"], state=bool(message.get("s")))
        elif kind == "end":
            self._end_relay(message["c"])
        elif kind == "reply":
            future = self._calls.get(message["r"])
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._answer(message))
        elif kind == "open":
            await self._open(message)
        elif kind == "in":
            client = self.clients.get((message["n"], message["c"]))
            if client is not None:
                client.inbox.put_nowait(message["p"])
            else:  # a relay this node does not know (it restarted, or lost the table): it ends, the client reconnects
                self.bus.send(message["n"], {"k": "end", "c": message["c"]})
        elif kind == "close":
            client = self.clients.pop((message["n"], message["c"]), None)
            if client is not None:
                client.inbox.put_nowait(None)
        elif kind == "resubscribed":  # what the owners sent meanwhile is lost: the relayed clients reconnect
            for connection_id in list(self.relays):
                self._end_relay(connection_id, tell_owner=True)
        elif kind == "released" and message.get("n") != self.node:
            self.scan.set()  # a node handed its tables over: take them now

    async def _open(self, message: dict[str, Any]) -> None:
        """A relayed client arrives for one of this node's tables."""
        node, connection_id = message["n"], message["c"]
        runtime = self.manager.tables.get(message["t"])
        if runtime is None or runtime.epoch is None:  # not (or no longer) this node's: the client reconnects
            self.bus.send(node, {"k": "end", "c": connection_id})
            return
        connection = Connection()
        connection.outbox = RemoteOutbox(self.bus, node, connection_id)
        connection.hints = self.manager.limiter.bucket("hint")
        client = RemoteClient(runtime, connection)
        self.clients[(node, connection_id)] = client
        self.manager.connect(runtime, connection)
        async with runtime.lock:
            connection.send(self.manager.state(runtime, None))
        client.task = asyncio.get_running_loop().create_task(self._serve_client(client))

    async def _serve_client(self, client: RemoteClient) -> None:
        """A relayed client's messages, one at a time, as a socket on this node would be served."""
        try:
            while (text := await client.inbox.get()) is not None:
                await self.manager.receive(client.runtime, client.connection, text)
        finally:
            self.manager.disconnect(client.runtime, client.connection)
            if client.connection.advising is not None:
                client.connection.advising.cancel()

    def drop_clients(self, runtime: Runtime) -> None:
        """End the relayed clients of a table this node no longer runs (they reconnect)."""
        for key, client in list(self.clients.items()):
            if client.runtime is runtime:
                self.clients.pop(key, None)
                client.connection.outbox.put_nowait(None)
                client.inbox.put_nowait(None)


def _rebuilt(error: dict[str, Any]) -> OfcError:
    """The owner's refusal as it was raised there (its template was a literal at the raise)."""
    template, params = str(error["template"]), dict(error.get("params", {}))
    made: OfcError
    if error["kind"] == "PlayError" and error.get("code"):
        made = PlayError(template, code=str(error["code"]), **params)
    elif error["kind"] == "StorageUnavailable":
        made = StorageUnavailable(template, **params)
    else:
        made = OfcError(template, **params)
    return made
