"""Database faults (issue 13, findings 1 and 3): a locked database delays writes, never loses or misnumbers them.

SQLite is locked the way another process locks it: a second connection holds ``BEGIN EXCLUSIVE``
(in WAL mode readers go on, writers wait), with the server's lock wait cut to 0.1 s so its
writes fail and are retried while the lock is held.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from starlette.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from ofc.server.db.storage import FINISHED, Storage
from ofc.server.tables.decks import PlayError
from support.pg_support import Proxy, fresh_database
from support.server import (
    HANG_GUARD,
    FakeClock,
    ServerProcess,
    StandInBot,
    app_state,
    app_with,
    create_table,
    join,
    make_app,
    random_move,
    receive,
    seeded_decks,
    stand_in_factory,
    until,
)


def _wait_for(condition: Callable[[], bool]) -> None:
    """Poll ``condition`` until it holds (a hang guard, not a timing assertion)."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.02)


@contextmanager
def locked(path: Path) -> Iterator[sqlite3.Connection]:
    """The database at ``path`` locked for writing until the block ends."""
    locker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        yield locker
    finally:
        locker.execute("ROLLBACK")
        locker.close()


def _two_humans(client: TestClient, **settings: Any) -> tuple[int, list[dict[str, Any]]]:
    response = client.post("/api/tables", json={"preset": "pineapple", "seats": 2, "settings": settings})
    assert response.status_code == 201, response.text
    table = int(response.json()["id"])
    return table, [join(client, table, "ann"), join(client, table, "bob")]


def _actor(state: dict[str, Any]) -> int:
    return int(state["hand_seats"][state["hand"]["to_act"][0]])


@pytest.fixture(params=["sqlite", "postgresql"])
def faulty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Callable[[], Any]]]:
    """A database URL and a fault on it: SQLite locked by another connection, or PostgreSQL gone
    (every connection cut and new ones refused, through a proxy) until the fault's block ends."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ofc.db'}", lambda: locked(tmp_path / "ofc.db")
        return
    with fresh_database() as url:
        proxy = Proxy(url.host or "127.0.0.1", url.port or 5432).start()

        @contextmanager
        def down() -> Iterator[None]:
            proxy.stop()
            try:
                yield
            finally:
                proxy.start()

        try:
            yield url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False), down
        finally:
            proxy.stop()


def test_a_placement_made_while_the_database_fails_is_stored_later_in_sequence(
    faulty: tuple[str, Callable[[], Any]],
) -> None:
    url, fault = faulty
    clock = FakeClock(5000)
    options: dict[str, Any] = {
        "bot_factory": stand_in_factory,
        "pause": 0,
        "bot_delay": 0,
        "decks": seeded_decks,
        "processes": False,
    }
    app = app_with(url, clock=clock, db_timeout=0.1, buttons=random.Random(7), **options)
    with TestClient(app) as client:
        table, seats = _two_humans(client, hand_seconds=10, time_bank_seconds=0)
        ws_url = f"/ws/tables/{table}"
        with client.websocket_connect(ws_url) as first, client.websocket_connect(ws_url) as second:
            sockets = [first, second]
            for ws, seat in zip(sockets, seats, strict=True):
                ws.send_json({"type": "hello", "token": seat["token"]})
                until(ws, lambda m: m["type"] == "welcome")
            state = receive(first)
            actor = _actor(state)
            failures = app.state.manager.db.failures
            with fault():
                clock.move(11)  # past the actor's 10 s: the server places for it
                first.send_json({"type": "sync"})
                _wait_for(lambda: app.state.manager.db.failures > failures)  # the write failed at least once
            # the fault is over: the retried write goes through and only then is the placement told
            after = until(first, lambda m: m["type"] == "state" and m["hand"]["to_act"] != state["hand"]["to_act"])
            other = 1 - actor
            assert _actor(after) == other
            ws = sockets[other]
            mine = until(ws, lambda m: m["type"] == "state" and m["discard_due"] is not None)
            ws.send_json(random_move(mine, random.Random(5)) | {"token": seats[other]["token"], "id": 1})
            ack = until(ws, lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack"
        stored = app.state.store.load_hands(table)[0].actions
        # seq 0: seat 0's automatic placement at 5000 + 10 (stored late, not lost); seq 1: seat 1's
        # acknowledged action at 5011; then perhaps (the clock task may not have come round yet) seat 0
        # again at 5011, automatically: its 10 s for the whole hand are spent
        rows = [(row.automatic, row.seat, row.time) for row in stored]
        assert rows[:2] == [(True, 0, "5010"), (False, 1, "5011")]
        assert rows[2:] in ([], [(True, 0, "5011")])
    # a restart replays them all: the table is listed as playing, nothing dropped
    with TestClient(app_with(url, clock=FakeClock(7000), **options)) as client:
        listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {table: "playing"}
        assert client.app.state.manager.tables[table].game.hand.actions_taken >= 2  # type: ignore[attr-defined]


def test_a_request_whose_write_cannot_be_stored_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path, db_timeout=0.05, request_seconds=0.3)
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"preset": "pineapple", "seats": 2}).json()["id"]
        with locked(tmp_path / "ofc.db"):
            refused = client.post(f"/api/tables/{table}/join", json={"name": "ann"})
            assert refused.status_code == 503
            assert refused.json()["error"]["code"] == "storage"
            assert client.get("/api/tables").json()["tables"][0]["open_seats"] == [0, 1]
        seat = join(client, table, "ann")  # the same request once the database is back
        assert seat["seat"] == 0
        assert client.get("/api/players/ann").json()["balance"] == "1000"


def test_the_lobby_answers_while_a_write_waits_on_a_locked_database(tmp_path: Path) -> None:
    app = make_app(tmp_path, db_timeout=0.1, request_seconds=600)
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"preset": "pineapple", "seats": 2}).json()["id"]
        answers: list[int] = []
        with locked(tmp_path / "ofc.db"):
            failures = app.state.manager.db.failures
            path = f"/api/tables/{table}/join"
            joining = threading.Thread(
                target=lambda: answers.append(client.post(path, json={"name": "ann"}).status_code)
            )
            joining.start()
            _wait_for(lambda: app.state.manager.db.failures > failures)  # the join is stuck on the lock
            listing = client.get("/api/tables")
            # answered while the join still waits on the locked database: the lobby does not wait on it
            assert joining.is_alive()
            assert answers == []
            assert listing.status_code == 200
            assert [t["id"] for t in listing.json()["tables"]] == [table]
        joining.join(HANG_GUARD)
        assert answers == [200]  # and the join went through once the lock was gone


def _recv(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=HANG_GUARD))
    return message


def _play(
    ws: ClientConnection, token: str, rng: random.Random, acks: list[tuple[int, dict[str, Any]]], moves: int
) -> None:
    """Play ``moves`` random moves for the seat (or to the end of the match), recording each ack with its hand."""
    number = -1
    while moves > 0:
        message = _recv(ws)
        if message["type"] == "state":
            number = message["hand_number"]
            if message["finished"]:
                return
            if message["discard_due"] is not None:
                ws.send(json.dumps(random_move(message, rng) | {"token": token}))
        elif message["type"] == "ack":
            acks.append((number, message["action"]))
            moves -= 1


def _kept(url: str, table: int, acks: list[tuple[int, dict[str, Any]]]) -> None:
    """Every acknowledged action is in the database, and each hand's actions are numbered 0, 1, 2..."""
    store = Storage(url)
    try:
        hands = {hand.number: hand.actions for hand in store.load_hands(table)}
    finally:
        store.close()
    for number, action in acks:
        rows = [(row.seat, row.place, row.discard) for row in hands[number] if not row.automatic]
        assert (action["seat"], action["place"], action["discard"]) in rows


@pytest.mark.slow
def test_a_locked_database_and_a_kill_9_lose_no_acknowledged_action(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("OFC_DB_TIMEOUT", "0.1")  # the server's lock waits: short, so its writes fail and retry
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    rng = random.Random(9)
    acks: list[tuple[int, dict[str, Any]]] = []
    with ServerProcess(url, tmp_path, "--pause", "0", "--bot-delay", "0") as server:
        table = server.post("/api/tables", {"preset": "pineapple", "seats": 3, "bots": [None, "random", "random"]})
        seat = server.post(f"/api/tables/{table['id']}/join", {"name": "ann"})
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 3)
            with locked(tmp_path / "ofc.db"):
                ws.send(json.dumps({"type": "sync"}))  # the bots' next moves and the seat's wait on the lock
                time.sleep(0.5)  # let writes fail and retry under the lock (not a timing assertion)
                server.kill()
        _kept(url, table["id"], acks)
        server.start()
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 10_000)  # to the end of the match
        listed = {t["id"]: t["status"] for t in json.loads(urlopen(server.base + "/api/tables").read())["tables"]}
        assert listed[table["id"]] == "finished"
    _kept(url, table["id"], acks)


def test_what_a_refused_late_action_brought_about_is_stored_before_anyone_is_told(tmp_path: Path) -> None:
    # A bot decides for longer than the hand clock: by the time its action is checked, the
    # clock has placed the hand's cards, settled it and dealt the next. The check refuses the
    # action (it was for the old hand), and what it brought about must be stored before the
    # lock is let go (found by tests/test_server_money.py: a spectator was told a match had
    # finished before its settlement was stored).
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        rules = {"hand_seconds": 1, "time_bank_seconds": 0, "fantasy": False, "loss_limit": 1000}
        table = create_table(client, seats=2, settings=rules)
        seat = join(client, table["id"], "ann")
        join(client, table["id"], "bob")
        manager = app_state(client).manager
        runtime = manager.tables[table["id"]]
        store = app_state(client).store
        assert [hand.number for hand in store.load_hands(table["id"])] == [0]
        clock.move(100)  # past every deadline of hand 0

        async def late_action() -> str:
            async with runtime.lock:
                try:
                    await manager._store_act(runtime, seat["seat"], [["Ah", "top"]], [])
                except PlayError as error:
                    return error.code
            return "accepted"

        assert client.portal is not None
        assert client.portal.call(late_action) == "illegal"
        assert runtime.game.pending == []
        hands = store.load_hands(table["id"])
        assert [hand.number for hand in hands] == [0, 1]  # the next deal is stored
        assert hands[0].history is not None  # and the hand the clock finished
        # Pineapple: five streets (5 cards, then four of 3), each placed for both seats: 10 actions.
        assert [action.automatic for action in hands[0].actions] == [True] * 10


class _FailsFirst(StandInBot):
    """A stand-in bot whose first decision fails (a worker lost, a decision over its time)."""

    failed = 0

    def act(self, view: Any) -> Any:
        if _FailsFirst.failed == 0:
            _FailsFirst.failed += 1
            raise RuntimeError("the decision worker went away")
        return super().act(view)


def test_a_bot_whose_decision_fails_is_tried_again(tmp_path: Path) -> None:
    # The fake clock never moves: only the retry can get the bot's move made (before, the
    # table waited for the bot's hand clock to run out).
    _FailsFirst.failed = 0
    app = make_app(tmp_path, bot_factory=lambda spec, seed: _FailsFirst(seed))
    with TestClient(app) as client:
        table = create_table(client, seats=2, bots=["random", "random"])
        runtime = app_state(client).manager.tables[table["id"]]
        _wait_for(lambda: runtime.game.hand is not None and runtime.game.hand.actions_taken >= 2)
        assert _FailsFirst.failed == 1
        assert runtime.failures == {}  # the seat's next decision went through: the count starts again


def _failed_since(app: Any, failures: int) -> Callable[[], bool]:
    """Whether a database write of ``app`` has failed since its count of failures was ``failures``."""
    return lambda: bool(app.state.manager.db.failures > failures)


def test_a_match_that_ends_while_its_writes_wait_stays_in_the_lobby(tmp_path: Path) -> None:
    """The last placement is applied, then stored: in between, the lobby lists the table as finished."""
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock, db_timeout=0.1, request_seconds=600)
    fast = {"hand_seconds": 1, "time_bank_seconds": 0, "fantasy": False}
    with TestClient(app) as client:
        table = create_table(client, seats=2, settings=fast)["id"]
        join(client, table, "ann")
        join(client, table, "bob")
        runtime = app.state.manager.tables[table]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            receive(ws)
            for _ in range(200):
                with locked(tmp_path / "ofc.db"):
                    failures = app.state.manager.db.failures
                    clock.move(5)  # the clock places the seats' cards, and the write waits on the lock
                    ws.send_json({"type": "sync"})
                    _wait_for(_failed_since(app, failures))
                    if runtime.game.status == FINISHED:
                        listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
                        assert listed == {table: FINISHED}
                        break
                until(ws, lambda m: m["type"] == "state")
            else:
                raise AssertionError("the match never ended")
            state = until(ws, lambda m: m["type"] == "state" and m["finished"])  # told once stored
        assert state["finished"]
        listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {table: FINISHED}
