"""Bounded memory and malformed input (issue 13, findings 4 and 6): outboxes, body limits, odd JSON."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.testclient import TestClient

from ofc.server.limits import MAX_BODY
from ofc.server.outbox import Outbox
from test_server_support import make_app, receive


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
        assert refused.json()["error"] == {
            "code": "too_large",
            "message": f"a request body may hold at most {MAX_BODY} bytes",
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
        for name in ("ann\x00", "ann\nlee"):
            refused = client.post(f"/api/tables/{tables[1]}/join", json={"name": name})
            assert refused.status_code == 422
