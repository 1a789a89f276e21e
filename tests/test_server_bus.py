"""The bus between servers against a real Redis: order, payloads, Redis lost and back, clear refusals.

The fault tests run their own ``redis-server`` (killed, restarted, its clients cut off); the
others use the tests' Redis (``scripts/services``) under node names no other test uses.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ofc.server.net.bus import (
    Bus,
    BusAddressError,
    BusUnreachable,
    RedisAddress,
    call,
    command,
    node_channel,
    ping,
)
from support.cluster import redis_url
from support.launch import free_port

WAIT = 30.0
"""Seconds a test waits for what must happen (a guard against hanging, not a timing assert)."""


class Inbox:
    """What one bus received, in order."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def numbers(self) -> list[int]:
        return [int(message["i"]) for message in self.messages if "i" in message]


def receiver_news(inbox: Inbox) -> list[dict[str, Any]]:
    """The messages the bus itself made (no number)."""
    return [message for message in inbox.messages if "i" not in message]


def acknowledged(bus: Bus, count: int) -> Callable[[], bool]:
    """Whether Redis has acknowledged ``count`` messages of ``bus``."""
    return lambda: bus.sent == count


async def until(condition: Callable[[], bool], failure: str) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)
    assert condition(), failure


async def started(url: str) -> tuple[Bus, Inbox]:
    bus, inbox = Bus(url, f"test-{secrets.token_hex(4)}"), Inbox()
    await bus.start(inbox)
    return bus, inbox


class PrivateRedis:
    """A redis-server of this test's own on a free port, to kill and start again."""

    def __init__(self, folder: Path) -> None:
        server = shutil.which("redis-server")
        assert server is not None, "redis-server is missing: scripts/services installs it"
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self.arguments = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.arguments += ["--dir", str(folder)]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.arguments, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT
        while not asyncio.run(_answers(self.url)):
            assert time.monotonic() < deadline, "the private redis-server never answered"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextmanager
def private_redis(folder: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(folder)
    try:
        redis.start()
        yield redis
    finally:
        redis.kill()


async def _answers(url: str) -> bool:
    try:
        await ping(RedisAddress.parse(url))
    except BusUnreachable:
        return False
    return True


async def redis_command(url: str, *words: str) -> Any:
    """One command's reply, on a connection of its own."""
    return await call(RedisAddress.parse(url), *words)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


# ---------------------------------------------------------------------------- order and payloads


def test_messages_arrive_in_order_with_their_payloads_untouched() -> None:
    """5,000 messages, sent in bursts from one node: all arrive, in order; raw payloads keep newlines,
    quotes and non-ASCII text exactly; a broadcast reaches every node, the sender too."""
    payload = '{"type": "state",\n "name": "Ганна \\"К\\"", "cards": ["A♠"]}'

    async def test() -> None:
        (sender, _), (receiver, inbox) = await started(redis_url()), await started(redis_url())
        try:
            for number in range(5000):
                sender.send(receiver.node, {"k": "out", "i": number, "p": payload})
                if number % 97 == 0:
                    await asyncio.sleep(0)  # some messages alone in a write, most in bursts
            await until(lambda: len(inbox.messages) == 5000, "not every message arrived")
            assert inbox.numbers() == list(range(5000))
            assert all(message["p"] == payload and message["k"] == "out" for message in inbox.messages)
            assert sender.sent == 5000
            assert receiver.received == 5000
            sender.broadcast({"k": "hello", "i": -1})
            await until(lambda: inbox.numbers()[-1:] == [-1], "the broadcast did not arrive")
        finally:
            await sender.stop()
            await receiver.stop()

    run(test)


def test_stop_sends_what_is_queued_first() -> None:
    async def test() -> None:
        (sender, _), (receiver, inbox) = await started(redis_url()), await started(redis_url())
        for number in range(200):
            sender.send(receiver.node, {"i": number})
        await sender.stop()
        await until(lambda: len(inbox.messages) == 200, "messages queued before stop were lost")
        assert inbox.numbers() == list(range(200))
        await receiver.stop()

    run(test)


# ---------------------------------------------------------------------------- faults


def test_a_cut_publishing_connection_loses_nothing_and_keeps_the_order(tmp_path: Path) -> None:
    """Three times, Redis holds the publisher's messages (CLIENT PAUSE WRITE) and cuts it off
    (CLIENT KILL) before it takes them: the bus writes them again on a new connection. Every
    message arrives, and the first arrival of each is in sending order."""
    with private_redis(tmp_path) as redis:
        url = redis.url

        async def test() -> None:
            (sender, _), (receiver, inbox) = await started(url), await started(url)
            try:
                number = 0
                for _cut in range(3):
                    assert await redis_command(url, "CLIENT", "PAUSE", "10000", "WRITE") == "OK"
                    for _ in range(300):
                        sender.send(receiver.node, {"i": number})
                        number += 1
                    await until(lambda: not sender._pending, "the messages were not written")
                    assert sender._unacknowledged  # written, held by the pause, not acknowledged
                    assert await redis_command(url, "CLIENT", "KILL", "TYPE", "normal") >= 1  # the publisher
                    assert await redis_command(url, "CLIENT", "UNPAUSE") == "OK"
                    await until(acknowledged(sender, number), "the messages held were not sent again")
                await until(lambda: set(inbox.numbers()) == set(range(900)), "messages were lost")
                assert list(dict.fromkeys(inbox.numbers())) == list(range(900))
            finally:
                await sender.stop()
                await receiver.stop()

        run(test)


def test_redis_restarted_the_bus_connects_again_and_sends_what_waited(tmp_path: Path) -> None:
    """Redis killed: sending goes on into the queue without error; Redis back: both connections
    come back by themselves, the queued messages are published, in order, and new ones arrive."""
    with private_redis(tmp_path) as redis:
        url = redis.url

        async def test() -> None:
            (sender, _), (receiver, inbox) = await started(url), await started(url)
            try:
                sender.send(receiver.node, {"i": 0})
                await until(lambda: inbox.numbers() == [0], "the first message did not arrive")
                redis.kill()
                await until(lambda: sender._publisher is None, "the loss was not seen")
                for number in range(1, 101):
                    sender.send(receiver.node, {"i": number})
                await asyncio.to_thread(redis.start)
                await until(lambda: sender.sent == 101, "the messages queued while Redis was down were not published")
                channel = node_channel(receiver.node)
                subscribed = [0]

                async def count() -> None:
                    subscribed[0] = int((await redis_command(url, "PUBSUB", "NUMSUB", channel))[1])

                async with asyncio.timeout(WAIT):
                    while subscribed[0] != 1:
                        await count()
                        await asyncio.sleep(0.05)
                for number in range(101, 201):
                    sender.send(receiver.node, {"i": number})
                await until(lambda: inbox.numbers()[-1:] == [200], "messages after the restart did not arrive")
                assert {"k": "resubscribed"} in receiver_news(inbox)  # told: what was sent meanwhile may be gone
                after = [number for number in inbox.numbers() if number > 100]
                assert after == list(range(101, 201))
                arrived = inbox.numbers()
                assert arrived == sorted(arrived)  # whatever of the queued ones arrived, came in order
            finally:
                await sender.stop()
                await receiver.stop()

        run(test)


# ---------------------------------------------------------------------------- refusals


def test_a_bus_without_redis_is_refused_at_start() -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(BusUnreachable, match=rf"no Redis answers at 127\.0\.0\.1:{port}"):
        asyncio.run(ping(RedisAddress.parse(f"redis://127.0.0.1:{port}")))
    with pytest.raises(ConnectionRefusedError):
        asyncio.run(Bus(f"redis://127.0.0.1:{port}", "nobody").start(Inbox()))


@pytest.mark.parametrize(
    ("url", "wrong"),
    [
        ("http://127.0.0.1:6379", "is not redis://HOST:PORT"),
        ("redis://", "is not redis://HOST:PORT"),
        ("redis://127.0.0.1:99999", "has no valid port"),
        ("unix://", "names no socket file"),
    ],
)
def test_an_address_that_is_not_redis_is_named(url: str, wrong: str) -> None:
    with pytest.raises(BusAddressError, match=wrong):
        RedisAddress.parse(url)


def test_addresses_with_logins_and_tls() -> None:
    address = RedisAddress.parse("rediss://ofc:p%40ss@bus.example:6380/0")
    assert address == RedisAddress("bus.example", 6380, None, True, "ofc", "p@ss")
    assert address.login() == [command("AUTH", "ofc", "p@ss")]
    assert RedisAddress.parse("redis://bus").login() == []
    assert RedisAddress.parse("redis://bus").port == 6379


def test_serve_names_a_bus_that_does_not_answer_without_a_traceback() -> None:
    port = free_port()
    finished = subprocess.run(
        [sys.executable, "-m", "ofc", "serve", "--port", str(free_port()), "--db", "postgresql://nobody@127.0.0.1:1/x",
         "--bus", f"redis://127.0.0.1:{port}/0"],
        capture_output=True, text=True, timeout=WAIT * 4,
    )  # fmt: skip
    assert finished.returncode == 2
    error = " ".join(finished.stderr.split())
    assert f"Invalid value for --bus: no Redis answers at 127.0.0.1:{port}" in error
    assert "Traceback" not in finished.stderr
