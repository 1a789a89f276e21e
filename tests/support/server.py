"""Helpers for the server tests: a stand-in bot, an app on a temporary database, socket reading."""

from __future__ import annotations

import json
import random
import signal
import subprocess
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI
from starlette.testclient import TestClient, WebSocketTestSession

from ofc.bots.base import Decision
from ofc.engine.actions import Action
from ofc.engine.legal import LegalActions
from ofc.engine.view import HandView
from ofc.rules.cards import Deck
from ofc.rules.rulebook import HAND_CARDS, Rules
from ofc.server.app import create_app
from ofc.server.settings import ServerSettings
from support.launch import free_port, post_json, start_server

HANG_GUARD = 300.0
"""Seconds a test waits for a server's answer at most: a hang guard only (the suite must pass on a
machine 5x slower than a quiet one)."""


class FakeClock:
    """A clock that only moves when told."""

    def __init__(self, start: Decimal | int = 1000) -> None:
        self.time = Decimal(start)

    def now(self) -> Decimal:
        """The time set so far."""
        return self.time

    def move(self, seconds: Decimal | int | str) -> None:
        """Move time forward by ``seconds``."""
        self.time += Decimal(seconds)


class StandInBot:
    """Plays a random legal action from the view (a test stand-in for ``ofc.bots``)."""

    name = "stand-in"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: HandView) -> Action:
        seat = view.seat
        assert seat is not None
        mine = view.seats[seat]
        rooms = (3 - len(mine.rows[0]), 5 - len(mine.rows[1]), 5 - len(mine.rows[2]))
        due = len(view.cards) - HAND_CARDS if mine.fantasy else view.rules.spec.streets[view.street].discards
        return self.rng.choice(LegalActions(seat, view.cards, rooms, due))

    def decide(self, view: HandView) -> Decision:
        return Decision(self.act(view), 1.5)


def stand_in_factory(spec: str, seed: int | None) -> StandInBot:
    """Any spec but ``bad`` gives a stand-in bot."""
    from ofc.rules.errors import BotError

    if spec == "bad":
        raise BotError("unknown bot 'bad'")
    return StandInBot(0 if seed is None else seed)


def seeded_decks(table: int, hand: int) -> Deck:
    """Reproducible decks for tests."""
    return Deck(table * 1000 + hand)


def make_app(tmp_path: Path, **options: Any) -> FastAPI:
    """An app on a fresh SQLite file with the stand-in bots, no pauses and seeded decks."""
    options.setdefault("bot_factory", stand_in_factory)
    options.setdefault("pause", 0)
    options.setdefault("bot_delay", 0)
    options.setdefault("decks", seeded_decks)
    options.setdefault("clock", FakeClock())
    options.setdefault("buttons", random.Random(7))
    options.setdefault("processes", False)  # the stand-in bots decide on threads
    options.setdefault("freeze_gc", False)  # many apps in one test process: nothing pinned
    return app_with(f"sqlite:///{tmp_path / 'ofc.db'}", **options)


COLLABORATORS = ("clock", "bot_factory", "decks", "buttons")
"""``create_app``'s own keywords; every other option is a ``ServerSettings`` field."""


def app_with(db_url: str, **options: Any) -> FastAPI:
    """``create_app`` over ``db_url`` with ``options``: its collaborators, and settings for the rest."""
    given = {name: options.pop(name) for name in COLLABORATORS if name in options}
    return create_app(ServerSettings(db_url=db_url, **options), **given)


def receive(ws: WebSocketTestSession, timeout: float = HANG_GUARD) -> dict[str, Any]:
    """The next message of ``ws`` as a dict; fails after ``timeout`` seconds.

    Generous: the first hint or bot move of a fresh checkout compiles the numba kernels.
    """

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise AssertionError(f"the server closed the socket: {message}")
    data: dict[str, Any] = json.loads(message["text"])
    return data


def until(
    ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool], seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Read messages until one satisfies ``wanted``; every message read goes into ``seen``."""
    while True:
        message = receive(ws)
        if seen is not None:
            seen.append(message)
        if wanted(message):
            return message


def create_table(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST a table and return its listing."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, table: int, name: str, seat: int | None = None) -> dict[str, Any]:
    """Join a table and return the answer (seat and token)."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/tables/{table}/join", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def my_turn(message: dict[str, Any]) -> bool:
    """Whether a state message asks its seat to act."""
    return message.get("type") == "state" and message.get("discard_due") is not None


def random_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal ``act`` body (without token) for the seat of a state message."""
    hand = state["hand"]
    seat = hand["seat"]
    mine = hand["seats"][seat]
    rooms = [3 - len(mine["top"]), 5 - len(mine["middle"]), 5 - len(mine["bottom"])]
    cards = list(hand["cards"])
    rng.shuffle(cards)
    due = state["discard_due"]
    keep, dropped = cards[: len(cards) - due], cards[len(cards) - due :]
    slots = [row for row, room in zip(("top", "middle", "bottom"), rooms, strict=True) for _ in range(room)]
    rng.shuffle(slots)
    return {"type": "act", "place": [[card, slots[i]] for i, card in enumerate(keep)], "discard": dropped}


def rules_of(state: dict[str, Any]) -> Rules:
    """The rules of a state message's hand."""
    return Rules().with_settings(state["hand"]["rules"])


def messages(ws: WebSocketTestSession, count: int) -> Iterator[dict[str, Any]]:
    """The next ``count`` messages."""
    for _ in range(count):
        yield receive(ws)


class ServerProcess:
    """A real ``ofc serve`` process on a free port of 127.0.0.1 (killed with SIGKILL on request)."""

    def __init__(self, db_url: str, home: Path, *options: str) -> None:
        self.db_url = db_url
        self.home = home
        self.options = options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        self.process = start_server(self.db_url, self.port, self.home, *self.options)
        return self

    def kill(self) -> None:
        """``kill -9`` the server and wait for it to be gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return post_json(self.base, path, body, timeout=HANG_GUARD)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.kill()


def play_to_end(
    ws: WebSocketTestSession, token: str, rng: random.Random, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Play random legal moves for one seat until the match is finished; return the last state."""
    number = 0
    while True:
        message = until(ws, lambda m: my_turn(m) or bool(m.get("finished")) or m["type"] == "error", seen)
        assert message["type"] != "error", message
        if message.get("finished"):
            return message
        ws.send_json(random_move(message, rng) | {"token": token, "id": number})
        number += 1


def app_state(client: TestClient) -> Any:
    """The app's ``state`` (the test client types its app as a bare ASGI callable)."""
    app = client.app
    assert isinstance(app, FastAPI)
    return app.state
