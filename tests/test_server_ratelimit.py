"""Rate limits (issue 13, finding 6): key guesses, tables created, hints; on an injected clock.

Every refusal is ``rate_limited`` with when to try again, and changes nothing. Time only
moves when the test moves the ``FakeClock``: no wall-clock bound is asserted.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ofc.server.net.ratelimit import RULES, Bucket, Limiter, RateLimited, Rule
from support.server import FakeClock, app_state, create_table, join, make_app, my_turn, receive, until


def test_a_bucket_allows_a_burst_then_one_attempt_per_period() -> None:
    clock = FakeClock()
    limiter = Limiter(clock, {"key_name": Rule(5, Decimal(60))})
    for _ in range(5):
        limiter.check("key_name", "ann")
        limiter.spend("key_name", "ann")
    with pytest.raises(RateLimited) as refused:
        limiter.check("key_name", "ann")
    # Empty bucket, one attempt earned every 60 s: 60 s to wait.
    assert (refused.value.code, refused.value.retry_after) == ("rate_limited", 60)
    assert str(refused.value) == "too many wrong player keys for ann: try again in 60 s"
    limiter.check("key_name", "bob")  # another name has its own bucket
    clock.move(30)  # half an attempt earned: 30 s more
    with pytest.raises(RateLimited) as again:
        limiter.check("key_name", "ann")
    assert again.value.retry_after == 30
    clock.move(30)
    limiter.check("key_name", "ann")
    off = Limiter(clock, None)  # limits turned off
    for _ in range(100):
        off.spend("key_name", "ann")
    off.check("key_name", "ann")


def test_full_buckets_are_forgotten_so_memory_stays_bounded() -> None:
    clock = FakeClock()
    limiter = Limiter(clock, {"create": Rule(2, Decimal(10))}, keep=50)
    for number in range(50):
        limiter.spend("create", f"10.0.0.{number}")
    clock.move(10)  # every bucket has refilled its one spent attempt
    limiter.spend("create", "10.0.1.1")
    assert len(limiter) == 1
    bucket = Bucket(Rule(2, Decimal(10)), clock)
    assert bucket.full


def _refused(answer: Any, wait: int) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.headers["retry-after"] == str(wait)
    error = answer.json()["error"]
    assert (error["code"], error["params"]["wait"]) == ("rate_limited", wait)


def test_wrong_player_keys_are_limited_per_name_and_then_even_the_right_key_waits(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        first = create_table(client, seats=2, bots=[None, "random"])
        key = join(client, first["id"], "ann")["player_key"]
        second = create_table(client, seats=2, bots=[None, "random"])
        join_second = f"/api/tables/{second['id']}/join"
        for guess in range(5):  # the default: 5 wrong keys per name, then one a minute
            wrong = client.post(join_second, json={"name": "ann", "key": f"guess-{guess}"})
            assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "bad_key")
        _refused(client.post(join_second, json={"name": "ann", "key": key}), 60)
        _refused(client.post("/api/players/ann/signin", json={"key": key}), 60)
        _refused(client.post("/api/players/ANN/signin", json={"key": key}), 60)  # names regardless of case
        assert client.get("/api/tables").json()["tables"][1]["open_seats"] == [0]  # nothing changed
        clock.move(59)
        _refused(client.post(join_second, json={"name": "ann", "key": key}), 1)
        clock.move(1)
        assert client.post("/api/players/ann/signin", json={"key": key}).status_code == 200
        assert client.post(join_second, json={"name": "ann", "key": key}).status_code == 200


def test_wrong_player_keys_are_limited_per_client_address(tmp_path: Path) -> None:
    clock = FakeClock()
    rules = RULES | {"key_address": Rule(3, Decimal(20))}
    with TestClient(make_app(tmp_path, clock=clock, rate_limits=rules)) as client:
        names = ["ann", "bob", "cy", "dee"]
        for name in names:
            join(client, create_table(client, seats=2, bots=[None, "random"])["id"], name)
        for name in names[:3]:  # one wrong key for each of three names: the address has used its three
            assert client.post(f"/api/players/{name}/signin", json={"key": "wrong"}).status_code == 403
        refused = client.post("/api/players/dee/signin", json={"key": "wrong"})
        _refused(refused, 20)
        assert refused.json()["error"]["message"] == ("too many wrong player keys from this address: try again in 20 s")
        clock.move(20)
        assert client.post("/api/players/dee/signin", json={"key": "wrong"}).status_code == 403


def test_tables_created_are_limited_per_client_address(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        bad = client.post("/api/tables", json={"preset": "omaha"})
        assert bad.json()["error"]["code"] == "bad_table"  # a refused table costs nothing
        # the default: 20 at once, then one every 15 s; each table waits for a person, so none
        # finishes (and leaves the live listing) while the test counts them
        for _ in range(20):
            create_table(client, seats=2, bots=["random", None])
        refused = client.post("/api/tables", json={"seats": 2})
        _refused(refused, 15)
        assert refused.json()["error"]["message"] == "too many tables created from this address: try again in 15 s"
        assert len(client.get("/api/tables").json()["tables"]) == 20  # nothing was created
        clock.move(15)
        create_table(client, seats=2)
        _refused(client.post("/api/tables", json={"seats": 2}), 15)


def test_hints_are_limited_per_connection(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        table = create_table(client, seats=2, bots=[None, "random"])
        seat = join(client, table["id"], "ann")
        manager = app_state(client).manager
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            state = until(ws, my_turn)
            for number in range(10):  # the default: 10 at once, then one every 3 s
                ws.send_json({"type": "hint", "token": seat["token"], "id": number})
                assert until(ws, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
            ws.send_json({"type": "hint", "token": seat["token"], "id": "late"})
            refused = until(ws, lambda m: m["type"] in ("hint", "error"))
            assert refused["message"] == "too many hints asked for this seat: try again in 3 s"  # the seat's limit
            assert (refused["code"], refused["id"], refused["retry_after"]) == ("rate_limited", "late", 3)
            ws.send_json({"type": "sync"})
            assert until(ws, lambda m: m["type"] == "state") == state  # nothing changed
            clock.move(3)
            ws.send_json({"type": "hint", "token": seat["token"], "id": "again"})
            assert until(ws, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        with client.websocket_connect(f"/ws/tables/{table['id']}") as other:  # a new connection: the seat's limit
            assert receive(other)["type"] == "state"
            other.send_json({"type": "hint", "token": seat["token"], "id": 1})
            assert until(other, lambda m: m["type"] in ("hint", "error"))["code"] == "rate_limited"
            clock.move(3)
            other.send_json({"type": "hint", "token": seat["token"], "id": 2})
            assert until(other, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        assert manager.tables[table["id"]].game.hand_number == 0
