"""Bounded memory and malformed input (issue 13, findings 4 and 6): outboxes, body limits, odd JSON."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ofc.server.net.limits import MAX_BODY
from ofc.server.net.outbox import Outbox
from support.pg_support import fresh_database
from support.server import app_with, make_app, receive, stand_in_factory


def test_a_new_state_replaces_an_unsent_one_and_a_reader_too_slow_is_cut_off() -> None:
    async def scenario() -> tuple[list[str | None], list[str | None], bool]:
        box = Outbox(limit=4)
        box.put_nowait("welcome")
        for number in range(1000):  # a spectator that reads nothing while 1000 states are made
            box.put_nowait(json.dumps({"type": "state", "n": number}), state=True)
        box.put_nowait("pong")
        box.put_nowait(json.dumps({"type": "state", "n": 1000}), state=True)  # after the pong: a new one
        first = [await box.get() for _ in range(len(box))]
        slow = Outbox(limit=4)
        for number in range(5):  # the fifth unsent message is one too many
            slow.put_nowait(f"hint {number}")
        second = [await slow.get()]
        return first, second, slow.overflowed

    first, second, overflowed = asyncio.run(scenario())
    assert first == ["welcome", '{"type": "state", "n": 999}', "pong", '{"type": "state", "n": 1000}']
    assert second == [None]  # the outbox ended: the writer closes the socket with a reason
    assert overflowed


def test_malformed_messages_are_answered_and_the_connection_kept(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = client.post("/api/tables", json={"preset": "pineapple", "seats": 2}).json()["id"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert receive(ws)["type"] == "state"
            bad = [
                ('{"type": "ping", "id": ' + "7" * 5000 + "}", "a number in the message is too long"),
                ('{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}", "the message is nested too deeply"),
            ]
            for text, problem in bad:
                ws.send_text(text)
                assert receive(ws) == {"type": "error", "code": "bad_json", "message": problem, "id": None}
            ws.send_json({"type": "ping", "id": 1})
            assert receive(ws) == {"type": "pong", "id": 1}


def test_a_body_over_the_limit_is_refused_unread_and_answers_carry_security_headers(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        body = json.dumps({"preset": "pineapple", "seats": 2, "name": "x" * MAX_BODY})
        refused = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert refused.status_code == 413
        message = f"a request body may hold at most {MAX_BODY} bytes"
        assert refused.json()["error"] == {
            "code": "too_large",
            "message": message,
            "field": None,
            "template": message,
            "params": {},
        }
        assert client.get("/api/tables").json()["tables"] == []
        for path in ("/", "/api/tables"):
            headers = client.get(path).headers
            assert headers["x-frame-options"] == "DENY"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "default-src 'self'" in headers["content-security-policy"]
        assert client.get("/api/docs").status_code == 404  # no docs page pulling scripts from a CDN


def test_names_are_trimmed_unique_regardless_of_case_never_blank_nor_a_bots(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        tables = [client.post("/api/tables", json={"preset": "pineapple", "seats": 2}).json()["id"] for _ in range(2)]
        first = client.post(f"/api/tables/{tables[0]}/join", json={"name": "  Ann   Lee "}).json()
        assert first["name"] == "Ann Lee"
        # the same name in other case and spacing is the same player: its key is needed
        again = client.post(f"/api/tables/{tables[1]}/join", json={"name": "ann lee"})
        assert again.status_code == 403
        assert again.json()["error"]["code"] == "bad_key"
        keyed = client.post(f"/api/tables/{tables[1]}/join", json={"name": "ANN  LEE", "key": first["player_key"]})
        assert keyed.json()["name"] == "Ann Lee"
        for name, problem in (("   ", "a name cannot be blank"), ("mc bot", "reads like a bot's seat")):
            refused = client.post(f"/api/tables/{tables[1]}/join", json={"name": name})
            assert refused.status_code == 422
            assert problem in refused.json()["error"]["message"]
        refused = client.post(f"/api/tables/{tables[1]}/join", json={"name": "ann\nlee"})
        assert refused.status_code == 422


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    with fresh_database() as url:
        yield url.render_as_string(hide_password=False)


def test_nul_characters_and_lone_surrogates_are_refused_on_every_database(db_url: str) -> None:
    # PostgreSQL cannot store a NUL character (a 500 before); SQLite could. Both now answer
    # 400 bad_text naming the field, before any route runs, and nothing is stored.
    app = app_with(db_url, bot_factory=stand_in_factory, pause=0, bot_delay=0, processes=False)
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"seats": 2}).json()["id"]
        cases = [
            ("/api/tables", {"name": "t\x00"}, "name: text may not contain NUL characters"),
            ("/api/tables", {"settings": {"fantasy\x00": True}}, "settings.fantasy\\x00: text may not contain NUL"),
            (f"/api/tables/{table}/join", {"name": "ann\x00"}, "name: text may not contain NUL characters"),
            ("/api/keep", {"players": ["ann", "b\x00b"]}, "players.1: text may not contain NUL characters"),
            ("/api/players/ann/signin", {"key": "k\x00"}, "key: text may not contain NUL characters"),
        ]
        for path, body, problem in cases:
            refused = client.post(path, json=body)
            assert (refused.status_code, refused.json()["error"]["code"]) == (400, "bad_text"), path
            assert problem in refused.json()["error"]["message"]
        surrogate = client.post(
            "/api/tables", content='{"name": "\\ud800"}', headers={"content-type": "application/json"}
        )
        message = "name: text must be Unicode (a lone surrogate is not)"
        assert surrogate.json()["error"] == {
            "code": "bad_text",
            "message": message,
            "field": None,
            "template": message,
            "params": {},
        }
        for path in ("/api/players/a%00b", "/api/players/a%00b/stats", "/api/keep/ab%00"):
            refused = client.get(path)
            assert (refused.status_code, refused.json()["error"]["code"]) == (400, "bad_text"), path
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table]
        assert client.get("/api/players/ann").status_code == 404
        # The six characters backslash, u, 0, 0, 0, 0 are ordinary text, not a NUL.
        literal = client.post("/api/tables", json={"name": "t\\u0000"})
        assert (literal.status_code, literal.json()["name"]) == (201, "t\\u0000")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert receive(ws)["type"] == "state"
            ws.send_json({"type": "hello", "token": "a\x00", "id": 3})
            problem = "token: text may not contain NUL characters"
            assert receive(ws) == {"type": "error", "code": "bad_text", "message": problem, "id": None}
            ws.send_json({"type": "ping", "id": 4})
            assert receive(ws) == {"type": "pong", "id": 4}  # the connection is kept
