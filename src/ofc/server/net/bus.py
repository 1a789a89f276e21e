"""The bus between server processes: Redis publish/subscribe, one channel per process.

Each ``ofc serve`` process (a node) reads its own channel ``ofc:node:<name>`` and the common
``ofc:all``. Messages are JSON objects (a relayed client text rides raw after them: ``encode``).
A node publishes everything through one connection, in order, so messages from one node arrive
at another in the order they were sent; the database, not the bus, keeps what must not be lost
(a message lost with a dying node is made good by the clients' reconnection and the database's
state).

The bus speaks Redis's protocol itself over two asyncio connections (one publishing, one
subscribed), packing commands and parsing replies with hiredis, Redis's own C protocol library:
every message of a node's busiest path crosses here, and a general client's layers per message
cost several times the protocol's own work. Whatever is sent during one turn of the event loop
leaves in one write. While Redis is unreachable, messages wait in order and go once it answers
again (those written but not acknowledged are written again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import time
import urllib.parse
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final, cast

import hiredis

from ofc.rules.errors import OfcError

log = logging.getLogger("ofc.server.bus")

ALL: Final = "ofc:all"
"""The channel every node reads."""
CONNECT_SECONDS: Final = 5.0
"""How long a connection to Redis may take before it counts as failed."""
RETRY_FIRST, RETRY_MOST = 0.05, 2.0
"""Seconds before connecting again after a failure: the first pause, doubling up to the longest."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]

RESUBSCRIBED: Final = '{"k":"resubscribed"}'
"""What the handler is given after the subscription was lost and made again: messages sent to
this node in between are lost, so whatever depends on them must start afresh."""


class BusAddressError(OfcError):
    """A bus address that is not a Redis URL."""


class BusUnreachable(OfcError):
    """No Redis answers at the bus address."""


def command(*words: str) -> bytes:
    r"""A Redis command in Redis's protocol.

    >>> command("PUBLISH", "ofc:all", "hi")
    b'*3\r\n$7\r\nPUBLISH\r\n$7\r\nofc:all\r\n$2\r\nhi\r\n'
    """
    packed: bytes = hiredis.pack_command(words)  # type: ignore[arg-type]  # its stub types the tuple as one element
    return packed


def node_channel(node: str) -> str:
    """The channel node ``node`` reads."""
    return f"ofc:node:{node}"


@dataclass(frozen=True)
class RedisAddress:
    """Where Redis listens and how to log in: ``redis://[[USER]:PASSWORD@]HOST[:PORT]``, ``rediss://``
    (TLS) or ``unix://PATH``.

    >>> RedisAddress.parse("redis://:secret@10.0.0.5:6380/0")
    RedisAddress(host='10.0.0.5', port=6380, path=None, tls=False, username=None, password='secret')
    >>> RedisAddress.parse("unix:///run/redis.sock").path
    '/run/redis.sock'
    """

    host: str = "127.0.0.1"
    port: int = 6379
    path: str | None = None
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @staticmethod
    def parse(url: str) -> RedisAddress:
        """The address in ``url``, or ``BusAddressError`` naming what is wrong with it."""
        parts = urllib.parse.urlsplit(url)
        username = urllib.parse.unquote(parts.username) if parts.username else None
        password = urllib.parse.unquote(parts.password) if parts.password else None
        if parts.scheme == "unix":
            if not parts.path:
                raise BusAddressError("the bus address {url} names no socket file", url=url)
            return RedisAddress(path=parts.path, username=username, password=password)
        if parts.scheme not in ("redis", "rediss") or not parts.hostname:
            raise BusAddressError("the bus address {url} is not redis://HOST:PORT", url=url)
        try:
            port = parts.port or 6379
        except ValueError:
            raise BusAddressError("the bus address {url} has no valid port", url=url) from None
        tls = parts.scheme == "rediss"
        return RedisAddress(parts.hostname, port, None, tls, username, password)

    def login(self) -> list[bytes]:
        """The commands a new connection sends first (AUTH when the address has a password)."""
        if self.password is None:
            return []
        credentials = (self.password,) if self.username is None else (self.username, self.password)
        return [command("AUTH", *credentials)]

    def where(self) -> str:
        """The socket file, or HOST:PORT."""
        return self.path or f"{self.host}:{self.port}"

    async def open(self, link: Link) -> None:
        """Connect ``link`` to Redis (raises ``OSError`` or ``TimeoutError``)."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(CONNECT_SECONDS):
            if self.path is not None:
                await loop.create_unix_connection(lambda: link, self.path)
            else:
                context = ssl.create_default_context() if self.tls else None
                await loop.create_connection(lambda: link, self.host, self.port, ssl=context)


class Link(asyncio.Protocol):
    """One connection to Redis: it writes commands and hands each reply, in order, to ``on_reply``."""

    def __init__(self, on_reply: Callable[[Any], None], on_lost: Callable[[Link], None]) -> None:
        self._reader = hiredis.Reader(encoding="utf-8", errors="replace")
        self._on_reply = on_reply
        self._on_lost = on_lost
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast("asyncio.Transport", transport)  # uvloop's transports do not subclass asyncio's

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            self._on_reply(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self._on_lost(self)

    def write(self, data: bytes) -> None:
        """Send ``data`` (dropped if the connection is gone: its loss is being handled)."""
        if self.transport is not None:
            self.transport.write(data)

    def close(self) -> None:
        """End the connection."""
        if self.transport is not None:
            self.transport.close()


async def call(address: RedisAddress, *words: str) -> Any:
    """One command's reply from Redis at ``address``, on a connection of its own (logged in first);
    ``BusUnreachable`` if nothing answers or Redis refuses."""
    login = address.login()
    replies: asyncio.Queue[Any] = asyncio.Queue()
    link = Link(replies.put_nowait, lambda _link: replies.put_nowait(None))
    try:
        await address.open(link)
        link.write(b"".join([*login, command(*words)]))
        async with asyncio.timeout(CONNECT_SECONDS):
            for _ in range(len(login) + 1):
                reply = await replies.get()
                if reply is None or isinstance(reply, hiredis.ReplyError):
                    raise BusUnreachable("Redis at {where} refused: {reply}", where=address.where(), reply=reply)
        return reply
    except (OSError, TimeoutError) as error:
        raise BusUnreachable("no Redis answers at {where}: {error}", where=address.where(), error=error) from None
    finally:
        link.close()


async def ping(address: RedisAddress) -> None:
    """Return once Redis at ``address`` answers a PING; raise ``BusUnreachable`` if it does not."""
    await call(address, "PING")


class Bus:
    """A node's side of the bus: ``send`` to one node, ``broadcast`` to all, ``handler`` for what arrives."""

    def __init__(self, url: str, node: str) -> None:
        self.address = RedisAddress.parse(url)
        self.node = node
        self.sent = 0
        self.received = 0
        self.lag = 0.0
        """Seconds between the last message's ``send`` and its handling here (wall clocks, kept in step by NTP)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handler: Handler | None = None
        self._stopping = False
        self._tasks: set[asyncio.Task[None]] = set()
        # publishing: commands not yet written, then written but not yet acknowledged
        self._publisher: Link | None = None
        self._pending: deque[bytes] = deque()
        self._unacknowledged: deque[bytes] = deque()
        self._logins = 0
        """Replies still due to the publisher's login commands (they come before any publish's)."""
        self._flush_due = False
        self._drained = asyncio.Event()
        # subscribing: what arrived, handled in order by one task
        self._subscriber: Link | None = None
        self._subscribed = asyncio.Event()
        self._confirmations = 0
        self._arrived: deque[str] = deque()
        self._arrival = asyncio.Event()

    # ------------------------------------------------------------------ life cycle

    async def start(self, handler: Handler) -> None:
        """Connect, subscribe, and start handling what arrives (returns once subscribed).

        Raises ``OSError`` or ``TimeoutError`` if Redis cannot be reached now; once started, the
        bus connects again by itself whenever a connection fails.
        """
        self._loop = asyncio.get_running_loop()
        self._handler = handler
        await self._connect_publisher(retry=False)
        await self._connect_subscriber(retry=False)
        async with asyncio.timeout(CONNECT_SECONDS):
            await self._subscribed.wait()
        self._spawn(self._dispatch())

    async def stop(self) -> None:
        """Send what is queued (a second at most), then disconnect."""
        self._flush()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                while self._pending or self._unacknowledged:
                    self._drained.clear()
                    await self._drained.wait()
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        for link in (self._publisher, self._subscriber):
            if link is not None:
                link.close()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        assert self._loop is not None
        task = self._loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _connected(self, make: Callable[[], Link], first: list[bytes], *, retry: bool) -> Link:
        """A new link that has written ``first``; if Redis does not answer, ``retry`` until it does, or raise."""
        pause = RETRY_FIRST
        while True:
            link = make()
            try:
                await self.address.open(link)
                link.write(b"".join(first))
                return link
            except (OSError, TimeoutError):
                if not retry:
                    raise
                log.warning("bus: Redis at %s does not answer; connecting again in %.2f s", self.address.where(), pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)

    # ------------------------------------------------------------------ publishing

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for node ``node`` (in order after everything queued before)."""
        self._queue(node_channel(node), encode(message))

    def broadcast(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every node (this one included)."""
        self._queue(ALL, encode(message))

    def _queue(self, channel: str, text: str) -> None:
        self._pending.append(command("PUBLISH", channel, text))
        if not self._flush_due and self._loop is not None:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Write everything queued in one go (if the publisher is connected; else it waits for it)."""
        self._flush_due = False
        if self._publisher is None or self._publisher.transport is None or not self._pending:
            return
        batch = list(self._pending)
        self._pending.clear()
        self._unacknowledged.extend(batch)
        self._publisher.write(b"".join(batch))

    async def _connect_publisher(self, *, retry: bool = True) -> None:
        login = self.address.login()
        link = await self._connected(lambda: Link(self._published, self._publisher_lost), login, retry=retry)
        self._logins = len(login)
        # what was written but never acknowledged goes again, ahead of what waits
        self._pending.extendleft(reversed(self._unacknowledged))
        self._unacknowledged.clear()
        self._publisher = link
        if link.transport is None:  # lost already, before it was this bus's publisher
            self._publisher_lost(link)
        self._flush()

    def _published(self, reply: Any) -> None:
        if self._logins:
            self._logins -= 1
            if isinstance(reply, hiredis.ReplyError):
                log.error("bus: Redis refused the login: %s", reply)
            return
        if self._unacknowledged:
            self._unacknowledged.popleft()
            self.sent += 1
        if isinstance(reply, hiredis.ReplyError):
            log.warning("bus: Redis refused a message: %s", reply)
        if not self._unacknowledged and not self._pending:
            self._drained.set()

    def _publisher_lost(self, link: Link) -> None:
        if link is self._publisher and not self._stopping:
            self._publisher = None
            log.warning("bus: the connection publishing to Redis was lost; connecting again")
            self._spawn(self._connect_publisher())

    # ------------------------------------------------------------------ subscribing

    async def _connect_subscriber(self, *, retry: bool = True) -> None:
        self._confirmations = 0
        subscribe = command("SUBSCRIBE", node_channel(self.node), ALL)
        link = await self._connected(
            lambda: Link(self._arrived_reply, self._subscriber_lost), [*self.address.login(), subscribe], retry=retry
        )
        self._subscriber = link
        if link.transport is None:  # lost already, before it was this bus's subscriber
            self._subscriber_lost(link)

    def _arrived_reply(self, reply: Any) -> None:
        if isinstance(reply, list) and reply:
            if reply[0] == "message":
                self._arrived.append(reply[2])
                self._arrival.set()
            elif reply[0] == "subscribe":
                self._confirmations += 1
                if self._confirmations == 2:
                    if self._subscribed.is_set():  # subscribed again: what was sent meanwhile is gone
                        self._arrived.append(RESUBSCRIBED)
                        self._arrival.set()
                    self._subscribed.set()
        elif isinstance(reply, hiredis.ReplyError):
            log.error("bus: Redis refused the subscription: %s", reply)

    def _subscriber_lost(self, link: Link) -> None:
        if link is self._subscriber and not self._stopping:
            self._subscriber = None
            log.warning("bus: the subscription to Redis was lost; subscribing again")
            self._spawn(self._connect_subscriber())

    async def _dispatch(self) -> None:
        """Hand each message that arrived to the handler, one after another, in order."""
        assert self._handler is not None
        while True:
            while not self._arrived:
                self._arrival.clear()
                await self._arrival.wait()
            data = self._arrived.popleft()
            try:
                message = decode(data)
                self.received += 1
                self.lag = max(0.0, time.time() - float(message.pop("_t", time.time())))
                await self._handler(message)
            except Exception:
                log.exception("bus: a message could not be handled: %.200s", data)


PAYLOAD: Final = "p"
"""The key of a message's text payload (a relayed client message, already JSON), sent as it is."""


def encode(message: dict[str, Any]) -> str:
    r"""A message as sent: its fields as one JSON line (with the sending time ``_t``), then the raw
    text payload, if any, after the newline (so a relayed message is neither escaped nor parsed again).

    >>> encode({"k": "out", "p": '{"type": "state"}', "_t": 1.5})
    '{"_t":1.5,"k":"out"}\n{"type": "state"}'
    """
    payload = message.get(PAYLOAD)
    if not isinstance(payload, str):
        return json.dumps({"_t": time.time()} | message, separators=(",", ":"))
    fields = {"_t": time.time()} | {key: value for key, value in message.items() if key != PAYLOAD}
    return json.dumps(fields, separators=(",", ":")) + "\n" + payload


def decode(data: bytes | str) -> dict[str, Any]:
    r"""The message ``encode`` made (JSON never holds a raw newline, so the first one ends the fields).

    >>> decode(encode({"k": "out", "p": '{"a":\n1}'}))["p"]
    '{"a":\n1}'
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    fields, newline, payload = text.partition("\n")
    message: dict[str, Any] = json.loads(fields)
    if newline:
        message[PAYLOAD] = payload
    return message
