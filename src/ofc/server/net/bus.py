"""The bus between server processes: Redis publish/subscribe, one channel per process.

Each ``ofc serve`` process (a node) reads its own channel ``ofc:node:<name>`` and the common
``ofc:all``. Messages are JSON objects (a relayed client text rides raw after them: ``encode``).
A node sends everything through one connection, one message after another, so messages from
one node arrive at another in the order they were sent;
the database, not the bus, keeps what must not be lost (a message lost with a dying node is made
good by the clients' reconnection and the database's state).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

log = logging.getLogger("ofc.server.bus")

ALL: Final = "ofc:all"
"""The channel every node reads."""

BATCH: Final = 64
"""The most messages published in one round trip to Redis."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def node_channel(node: str) -> str:
    """The channel node ``node`` reads."""
    return f"ofc:node:{node}"


class Bus:
    """A node's side of the bus: ``send`` to one node, ``broadcast`` to all, ``handler`` for what arrives."""

    def __init__(self, url: str, node: str) -> None:
        self.url = url
        self.node = node
        self._outgoing: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self.sent = 0
        self.received = 0
        self.lag = 0.0
        """Seconds between the last message's ``send`` and its handling here (wall clocks, kept in step by NTP)."""

    async def start(self, handler: Handler) -> None:
        """Connect, subscribe, and start sending and receiving (returns once subscribed)."""
        import redis.asyncio as redis

        self._handler = handler
        self._client = redis.from_url(self.url)
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(node_channel(self.node), ALL)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._sender()), loop.create_task(self._receiver())]

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for node ``node`` (in order after everything queued before)."""
        self._outgoing.put_nowait((node_channel(node), encode(message)))

    def broadcast(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every node (this one included)."""
        self._outgoing.put_nowait((ALL, encode(message)))

    async def stop(self) -> None:
        """Send what is queued (a second at most), then disconnect."""
        self._outgoing.put_nowait(None)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await asyncio.shield(self._tasks[0])
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
            await self._client.aclose()

    async def _sender(self) -> None:
        """Publish what is queued, in order: whatever has queued up meanwhile goes in one round trip."""
        while (item := await self._outgoing.get()) is not None:
            batch = [item]
            while len(batch) < BATCH and not self._outgoing.empty():
                following = self._outgoing.get_nowait()
                if following is None:
                    await self._publish(batch)
                    return
                batch.append(following)
            await self._publish(batch)

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        pause = 0.05
        while True:
            try:
                if len(batch) == 1:
                    await self._client.publish(*batch[0])
                else:
                    async with self._client.pipeline(transaction=False) as pipe:
                        for channel, text in batch:
                            pipe.publish(channel, text)
                        await pipe.execute()
                self.sent += len(batch)
                return
            except Exception:  # the bus is down: keep the order, try again
                log.warning("bus: publish of %d messages failed; retrying in %.2f s", len(batch), pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)

    async def _receiver(self) -> None:
        assert self._handler is not None
        while True:
            try:
                async for item in self._pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    message = decode(item["data"])
                    self.received += 1
                    self.lag = max(0.0, time.time() - float(message.pop("_t", time.time())))
                    try:
                        await self._handler(message)
                    except Exception:
                        log.exception("bus: a message could not be handled: %.200s", item["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("bus: the subscription failed; subscribing again in 0.5 s")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(node_channel(self.node), ALL)


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
