"""Abuse refused (issue 36): limits per person and per address shared by every server process,
connections capped, hand analyses priced in play-outs and kept behind the bots, the score book
intact through database faults, reserved and look-alike names refused.

Limits move on the injected ``FakeClock`` (SQLite) or on periods far longer than a test
(PostgreSQL, the database's clock): no wall-clock bound is asserted.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ofc.server.db.limits import Want
from ofc.server.decisions.workers import DecisionPool
from ofc.server.net.ratelimit import RULES, Rule
from support.keep_books import PINEAPPLE_HANDS
from support.pg_support import Proxy, fresh_database
from support.server import (
    FakeClock,
    app_state,
    app_with,
    create_table,
    join,
    make_app,
    my_turn,
    play_to_end,
    receive,
    stand_in_factory,
    until,
)
from test_server_faults import locked

NEW_BOOK = {"players": ["ann", "bob", "cat"], "preset": "pineapple", "button": "ann"}
LONG = Decimal(3600)
"""A period far longer than any test: what was spent stays spent."""


def _answer(ws: WebSocketTestSession) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] in ("hint", "error"))


def _hint(ws: WebSocketTestSession, token: str, number: object) -> dict[str, Any]:
    ws.send_json({"type": "hint", "token": token, "id": number})
    return _answer(ws)


def _limited(what: dict[str, Any], wait: int, message: dict[str, Any]) -> None:
    """``message`` is the ``rate_limited`` refusal of ``what`` (a template and params), ``wait`` s."""
    assert message["code"] == "rate_limited"
    assert message["retry_after"] == wait
    assert message["template"] == "{what}: try again in {wait} s"
    assert message["params"] == {"what": what, "wait": wait}


def test_hints_of_one_seat_token_are_limited_over_all_its_connections(tmp_path: Path) -> None:
    clock = FakeClock()
    limits = RULES | {"hint_seat": Rule(4, Decimal(5))}  # four at once, then one every 5 s
    with TestClient(make_app(tmp_path, clock=clock, rate_limits=limits)) as client:
        table = create_table(client, seats=2, bots=[None, "random"])["id"]
        ann = join(client, table, "ann")
        sockets = [client.websocket_connect(f"/ws/tables/{table}") for _ in range(3)]
        try:
            for ws in sockets:
                ws.__enter__()
                ws.send_json({"type": "hello", "token": ann["token"]})
                state = until(ws, my_turn)
            answers = [_hint(sockets[number % 3], ann["token"], number)["type"] for number in range(4)]
            assert answers == ["hint"] * 4
            for number, ws in enumerate(sockets):  # each connection's own limit (10) is far from spent
                refused = _hint(ws, ann["token"], f"late {number}")
                assert (refused["type"], refused["id"]) == ("error", f"late {number}")
                assert refused["message"] == "too many hints asked for this seat: try again in 5 s"
                _limited({"template": "too many hints asked for this seat", "params": {}}, 5, refused)
            sockets[0].send_json({"type": "sync"})
            assert until(sockets[0], lambda m: m["type"] == "state") == state  # nothing changed
            clock.move(5)  # one hint earned (well within the seat's time to act)
            assert _hint(sockets[1], ann["token"], "again")["type"] == "hint"
            assert _hint(sockets[2], ann["token"], "more")["code"] == "rate_limited"
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


def test_connections_are_capped_per_seat_token_and_per_address(tmp_path: Path) -> None:
    app = make_app(tmp_path, connections_per_token=2, connections_per_address=3)
    with TestClient(app) as client:
        table = create_table(client, seats=2, bots=[None, "random"])["id"]
        ann = join(client, table, "ann")
        with (
            client.websocket_connect(f"/ws/tables/{table}") as first,
            client.websocket_connect(f"/ws/tables/{table}") as second,
        ):
            for ws in (first, second):
                ws.send_json({"type": "hello", "token": ann["token"]})
                until(ws, lambda m: m["type"] == "welcome")
            with client.websocket_connect(f"/ws/tables/{table}") as third:
                assert receive(third)["type"] == "state"  # a spectator may watch
                third.send_json({"type": "hello", "token": ann["token"], "id": 1})
                refused = until(third, lambda m: m["type"] == "error")
                assert refused == {
                    "type": "error",
                    "code": "too_many_connections",
                    "message": "this seat token already has 2 connections: close one first",
                    "id": None,
                    "kind": "PlayError",
                    "template": "this seat token already has {cap} connections: close one first",
                    "params": {"cap": 2},
                }
                with pytest.raises(AssertionError, match="closed the socket"):
                    receive(third)
            with client.websocket_connect(f"/ws/tables/{table}") as watcher:  # the third from this address
                assert receive(watcher)["type"] == "state"
                with client.websocket_connect(f"/ws/tables/{table}") as fourth:
                    refused = receive(fourth)
                    assert (refused["code"], refused["message"]) == (
                        "too_many_connections",
                        "this address already has 3 connections: close one first",
                    )
                    with pytest.raises(AssertionError, match="closed the socket"):
                        receive(fourth)
        shared = app_state(client).manager.limiter.shared
        assert shared.live("socket_address", "testclient") == 0  # every connection's count released
        with client.websocket_connect(f"/ws/tables/{table}") as again:  # the token's count is free again
            again.send_json({"type": "hello", "token": ann["token"]})
            assert until(again, lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"


def _finished_hand(client: TestClient) -> tuple[int, str]:
    table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"])["id"]
    ann = join(client, table, "ann")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": ann["token"]})
        play_to_end(ws, ann["token"], random.Random(3))
    return table, ann["token"]


def test_an_analysis_is_priced_in_play_outs_and_capped_per_person(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock, analysis_playouts=20_000)) as client:
        table, token = _finished_hand(client)
        url = f"/api/tables/{table}/hands/0/analysis"
        # five decisions of a pineapple hand x (8 candidates + the move played) x 600 play-outs
        refused = client.post(url, json={"token": token})
        assert refused.status_code == 400
        assert refused.json()["error"] == {
            "code": "too_costly",
            "message": "this analysis would take 27000 play-outs, more than the 20000 this server allows",
            "field": None,
            "template": "this analysis would take {cost} play-outs, more than the {cap} this server allows",
            "params": {"cost": 27000, "cap": 20000},
        }
        assert app_state(client).manager.pool.queued() == 0  # nothing was queued
    limits = RULES | {"analysis_playouts": Rule(30_000, Decimal("0.002"))}  # 30,000 a minute
    with TestClient(make_app(tmp_path / "b", clock=clock, rate_limits=limits)) as client:
        table, token = _finished_hand(client)
        shared = app_state(client).manager.limiter.shared
        assert shared.take([Want("analysis_playouts", "ann", 30_000, 0.002, 20_000)]) is None  # analyses before
        refused = client.post(f"/api/tables/{table}/hands/0/analysis", json={"token": token})
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "34"  # 17,000 play-outs short at 500 a second
        assert refused.json()["error"]["message"] == (
            "the hand analyses asked by ann need too many play-outs: try again in 34 s"
        )


def test_analyses_wait_behind_people_and_bots_in_a_lane_of_their_own() -> None:
    started: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        started.append(name)
        if name == "first":
            gate.wait(60)
        return name

    async def run() -> list[str]:
        pool = DecisionPool(stand_in_factory, 1, processes=False)
        try:
            first = asyncio.ensure_future(pool.call("t1", job, "first"))
            await asyncio.sleep(0)
            waiting = [
                asyncio.ensure_future(pool.call("t2", job, "analysis", analysis=True)),
                asyncio.ensure_future(pool.call("t3", job, "bot")),
                asyncio.ensure_future(pool.call("t4", job, "person", person=True)),
            ]
            await asyncio.sleep(0)
            assert pool.queued() == 3
            gate.set()
            return [await first, *[await task for task in waiting]]
        finally:
            pool.close()

    assert asyncio.run(run()) == ["first", "analysis", "bot", "person"]
    assert started == ["first", "person", "bot", "analysis"]  # the analysis last, after the bots


@contextmanager
def _pg_down(url: Any) -> Iterator[tuple[str, Callable[[], Any]]]:
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


@pytest.fixture(params=["sqlite", "postgresql"])
def faulty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Callable[[], Any]]]:
    """A database URL and its fault: SQLite locked by another connection, or PostgreSQL gone."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ofc.db'}", lambda: locked(tmp_path / "ofc.db")
        return
    with fresh_database() as url, _pg_down(url) as found:
        yield found


def test_the_score_book_answers_a_database_fault_with_503_storage_and_stays_as_it_was(
    faulty: tuple[str, Callable[[], Any]],
) -> None:
    url, fault = faulty
    app = app_with(url, clock=FakeClock(), db_timeout=0.2, request_seconds=1, processes=False, freeze_gc=False)
    with TestClient(app) as client:
        book = client.post("/api/keep", json=NEW_BOOK).json()
        code, key = book["code"], book["key"]
        put = client.put(f"/api/keep/{code}/hands/1", json={"key": key, "hand": PINEAPPLE_HANDS[0]})
        assert put.status_code == 200, put.text
        before = client.get(f"/api/keep/{code}").json()
        with fault():
            answers = [
                client.put(f"/api/keep/{code}/hands/2", json={"key": key, "hand": PINEAPPLE_HANDS[1]}),
                client.put(f"/api/keep/{code}/hands/1", json={"key": key, "hand": PINEAPPLE_HANDS[1]}),
                client.delete(f"/api/keep/{code}/hands/1", params={"key": key, "count": 1}),
                client.post("/api/keep", json=NEW_BOOK),
            ]
            for answer in answers:
                assert answer.status_code == 503, answer.text
                error = answer.json()["error"]
                assert error["code"] == "storage"
                assert error["template"] in (
                    "the database is unavailable ({kind}): try again",  # the book's write
                    "the database is unavailable: {kind}",  # the count of books started
                )
        assert client.get(f"/api/keep/{code}").json() == before  # one hand, as it was
        again = client.put(f"/api/keep/{code}/hands/2", json={"key": key, "hand": PINEAPPLE_HANDS[1]})
        assert again.status_code == 200, again.text
        assert len(again.json()["hands"]) == 2


@pytest.mark.parametrize(
    "name", ["heuristic", "MC", "P.R.O", "random", "House", "ad min", "System", "server!", "  pro  "]
)
def test_reserved_names_are_refused_when_first_used(tmp_path: Path, name: str) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, seats=2, bots=[None, "random"])["id"]
        refused = client.post(f"/api/tables/{table}/join", json={"name": name})
        assert refused.status_code in (400, 422)
        if refused.status_code == 400:
            error = refused.json()["error"]
            assert error["code"] == "reserved_name"
            assert error["field"] == "name"
            assert error["message"] == (
                f"the name {name.strip()} is reserved for the server's bots and accounts: choose another"
            )
        created = client.post("/api/tables", json={"seats": 2, "bots": [None, "random"], "sit": {"name": name}})
        assert created.status_code == refused.status_code
        assert len(client.get("/api/tables").json()["tables"]) == 1  # nothing created
        assert client.get(f"/api/players/{name.strip()}").status_code == 404  # nor stored


def test_look_alike_names_are_refused_and_score_book_names_stay_free(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, seats=3, bots=[None, None, "random"])["id"]
        join(client, table, "Annb2e1f")
        for name in ("An nb2e1f", "ann-b2e1f", "A.N.N.B.2.E.1.F"):
            refused = client.post(f"/api/tables/{table}/join", json={"name": name})
            assert refused.status_code == 409
            assert refused.json()["error"] == {
                "code": "similar_name",
                "message": (
                    f"the name {name} differs from the player Annb2e1f only by case, spaces or punctuation: "
                    "choose another"
                ),
                "field": "name",
                "template": (
                    "the name {name} differs from the player {other} only by case, spaces or punctuation: "
                    "choose another"
                ),
                "params": {"name": name, "other": "Annb2e1f"},
            }
        assert join(client, table, "Annb2e1g")["name"] == "Annb2e1g"  # another letter: another name
        book = client.post("/api/keep", json={"players": ["house", "pro", "An nb2e1f"], "button": "house"})
        assert book.status_code == 201, book.text  # a score book's names are free text


def test_limits_are_shared_by_two_servers_on_one_postgresql(tmp_path: Path) -> None:
    limits = RULES | {
        "create": Rule(4, LONG),
        "keep": Rule(3, LONG),
        "hint_address": Rule(3, LONG),
    }
    options: dict[str, Any] = {
        "bot_factory": stand_in_factory,
        "pause": 0,
        "bot_delay": 0,
        "processes": False,
        "freeze_gc": False,
        "rate_limits": limits,
        "connections_per_address": 3,
    }
    with fresh_database() as url:
        db_url = url.render_as_string(hide_password=False)
        first = app_with(db_url, node="first", **options)
        second = app_with(db_url, node="second", **options)
        with TestClient(first) as one, TestClient(second) as two:
            here = create_table(one, seats=2, bots=[None, "random"])["id"]
            there = create_table(two, seats=2, bots=[None, "random"])["id"]
            ann, bob = join(one, here, "ann"), join(two, there, "bob")
            with (
                one.websocket_connect(f"/ws/tables/{here}") as on_one,
                two.websocket_connect(f"/ws/tables/{there}") as on_two,
            ):
                on_one.send_json({"type": "hello", "token": ann["token"]})
                on_two.send_json({"type": "hello", "token": bob["token"]})
                until(on_one, my_turn)
                until(on_two, my_turn)
                assert _hint(on_one, ann["token"], 1)["type"] == "hint"
                assert _hint(on_two, bob["token"], 2)["type"] == "hint"
                assert _hint(on_one, ann["token"], 3)["type"] == "hint"
                for ws, token in ((on_two, bob["token"]), (on_one, ann["token"])):  # three from this address
                    refused = _hint(ws, token, "late")
                    assert (refused["code"], refused["params"]["what"]["template"]) == (
                        "rate_limited",
                        "too many hints asked from this address",
                    )
                with one.websocket_connect(f"/ws/tables/{here}") as watcher:  # the third connection
                    assert receive(watcher)["type"] == "state"
                    with two.websocket_connect(f"/ws/tables/{there}") as fourth:
                        refused = receive(fourth)
                        assert (refused["code"], refused["params"]) == ("too_many_connections", {"cap": 3})
            # tables: two created above, one more on each server, then neither creates one
            create_table(one, seats=2, bots=[None, "random"])
            create_table(two, seats=2, bots=[None, "random"])
            for client in (one, two):
                no_table = client.post("/api/tables", json={"seats": 2, "bots": [None, "random"]})
                assert no_table.status_code == 429
                assert no_table.json()["error"]["params"]["what"]["template"] == (
                    "too many tables created from this address"
                )
            # score books: three over both servers, then neither starts one
            started = [one.post("/api/keep", json=NEW_BOOK), two.post("/api/keep", json=NEW_BOOK)]
            started.append(one.post("/api/keep", json=NEW_BOOK))
            assert [answer.status_code for answer in started] == [201, 201, 201]
            for client in (two, one):
                no_book = client.post("/api/keep", json=NEW_BOOK)
                assert no_book.status_code == 429
                assert no_book.json()["error"]["params"]["what"]["template"] == (
                    "too many score books started from this address"
                )
