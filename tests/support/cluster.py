"""Several real ``ofc serve`` processes on one PostgreSQL database and Redis bus, behind HAProxy.

``Room`` starts the nodes (``ServerProcess``), writes HAProxy's config from the repository's
``deploy/haproxy.cfg`` (its port and server lines replaced) and starts HAProxy; ``Player`` is an
asyncio WebSocket client that plays random legal moves, reconnects when its socket closes, and
remembers every message and every acknowledged action.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from sqlalchemy import create_engine, text

from support.launch import free_port, post_json
from support.server import HANG_GUARD, ServerProcess, random_move

REPO = Path(__file__).resolve().parents[2]
HAPROXY_CONFIG = REPO / "deploy" / "haproxy.cfg"


def redis_url() -> str:
    """The tests' Redis (``scripts/services`` starts it and sets ``OFC_TEST_REDIS_URL``)."""
    url = os.environ.get("OFC_TEST_REDIS_URL")
    if not url:
        raise AssertionError('OFC_TEST_REDIS_URL is not set: run `eval "$(bash scripts/services)"` first')
    return url


def haproxy_config(port: int, backends: list[tuple[str, int]]) -> str:
    """The repository's HAProxy config listening on ``port`` with ``backends`` (name, port)."""
    config = HAPROXY_CONFIG.read_text(encoding="utf-8")
    config = re.sub(r"bind 127\.0\.0\.1:\d+", f"bind 127.0.0.1:{port}", config)
    config = re.sub(r"\n    server .*", "", config)
    lines = "".join(f"\n    server {name} 127.0.0.1:{backend}" for name, backend in backends)
    return config.rstrip() + lines + "\n"


class Room:
    """``count`` nodes on ``db_url`` with the bus, and HAProxy in front of them."""

    def __init__(self, db_url: str, home: Path, count: int, *options: str) -> None:
        self.db_url = db_url
        self.home = home
        self.nodes: list[ServerProcess] = []
        self.names = [f"{secrets.token_hex(3)}-node{number}" for number in range(count)]
        """The nodes' names: unique per room, so rooms of tests running at once never share a bus channel."""
        for number in range(count):
            folder = home / f"node{number}"
            folder.mkdir(parents=True, exist_ok=True)
            node = ServerProcess(db_url, folder, "--bus", redis_url(), "--node", self.names[number], *options)
            self.nodes.append(node)
        self.port = free_port()
        self.balancer: subprocess.Popen[bytes] | None = None
        self.engine = create_engine(db_url.replace("postgresql://", "postgresql+pg8000://", 1))

    @property
    def base(self) -> str:
        """The balancer's address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Room:
        """The nodes, each ready (its kernels warm), then the balancer once it sees them all."""
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            self.wait(lambda node=node: self.answers(node.base + "/api/health"), "a node never became ready")
        config = self.home / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, [(f"node{i}", n.port) for i, n in enumerate(self.nodes)]))
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        with (self.home / "haproxy.log").open("ab") as log:
            self.balancer = subprocess.Popen([haproxy, "-f", str(config), "-db"], stdout=log, stderr=log)
        self.wait(self.balancing, "the balancer never answered")
        return self

    def balancing(self) -> bool:
        """Whether the balancer answers and has every live node in its rotation."""
        assert self.balancer is not None
        if self.balancer.poll() is not None:
            raise AssertionError(f"haproxy ended: {(self.home / 'haproxy.log').read_text()}")
        return self.answers(self.base + "/api/health") and "DOWN" not in self._haproxy_news()

    def _haproxy_news(self) -> str:
        """The balancer's log lines since it last said every server is up (empty: all up)."""
        log = (self.home / "haproxy.log").read_text(errors="replace")
        return log.rsplit(f"{len(self.nodes)} active and 0 backup servers online", 1)[-1] if "active" in log else ""

    def stop(self) -> None:
        if self.balancer is not None:
            self.balancer.terminate()
            self.balancer.wait(10)
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.send_signal(signal.SIGCONT)
            node.kill()
        self.engine.dispose()

    def __enter__(self) -> Room:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @staticmethod
    def answers(url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return bool(response.status == 200)
        except (OSError, urllib.error.HTTPError):
            return False

    @staticmethod
    def wait(condition: Any, failure: str, seconds: float = HANG_GUARD, *, quietly: bool = False) -> None:
        """Wait until ``condition()`` holds; fail with ``failure`` after ``seconds`` (``quietly``: just return)."""
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() >= deadline:
                assert quietly, failure
                return
            time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """A lobby request through the balancer."""
        return post_json(self.base, path, body, timeout=HANG_GUARD)

    def sql(self, query: str, **params: Any) -> list[Any]:
        with self.engine.connect() as db:
            return list(db.execute(text(query), params))

    def owner(self, table: int) -> tuple[str, int] | None:
        """The node and epoch of ``table``'s lease (None: no lease yet)."""
        rows = self.sql("SELECT owner, epoch FROM table_leases WHERE table_id = :t", t=table)
        return (str(rows[0][0]), int(rows[0][1])) if rows else None

    def node(self, name: str) -> ServerProcess:
        return self.nodes[self.names.index(name)]

    def health(self, node: ServerProcess) -> dict[str, Any]:
        with urllib.request.urlopen(node.base + "/api/health", timeout=5) as response:
            data: dict[str, Any] = json.loads(response.read())
        return data


class Player:
    """A person at a table over a WebSocket: random legal moves; reconnects (through ``base``) when closed."""

    def __init__(self, ws_base: str, table: int, token: str, seed: int) -> None:
        self.ws_base = ws_base
        self.table = table
        self.token = token
        self.rng = random.Random(seed)
        self.states: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self.connections = 0
        self.sent = 0
        self.finished = False
        self.stop = asyncio.Event()
        """Set to end play before the match is over."""

    async def play(self) -> None:
        """Play until the match is over or ``stop`` is set, reconnecting whenever the socket closes."""
        while not self.finished and not self.stop.is_set():
            try:
                await self._session()
            except (OSError, websockets.WebSocketException, TimeoutError):
                await asyncio.sleep(0.2)  # the node went away, the balancer had none, or the table moved: again

    async def _session(self) -> None:
        async with websockets.connect(f"{self.ws_base}/ws/tables/{self.table}", open_timeout=10) as ws:
            self.connections += 1
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            waiting: int | None = None
            quiet = 0.0
            while not self.finished and not self.stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    quiet = 0.0
                except TimeoutError:
                    quiet += 1.0
                    assert quiet < HANG_GUARD, "no message for a long time"
                    continue
                if message["type"] == "state":
                    self.states.append(message)
                    if message.get("finished"):
                        self.finished = True
                        return
                    if message.get("discard_due") is not None and message["you"] is not None and waiting is None:
                        waiting = self.sent
                        self.sent += 1
                        await ws.send(json.dumps(random_move(message, self.rng) | {"token": self.token, "id": waiting}))
                elif message["type"] == "ack":
                    self.acks.append(message)
                    waiting = None
                elif message["type"] == "error":
                    waiting = None  # refused (the table moved, or a stale state): the next state says what to do
                    await ws.send(json.dumps({"type": "sync"}))
