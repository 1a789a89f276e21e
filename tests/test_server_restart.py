"""A real server killed with ``kill -9`` in the middle of a hand resumes it from the database."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from support.server import HANG_GUARD, ServerProcess, my_turn, random_move


def _until(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=HANG_GUARD))
        assert message["type"] != "error", message
        if wanted(message):
            return message


def _socket(server: ServerProcess, table: int) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}")


def _hello(ws: ClientConnection, token: str) -> None:
    ws.send(json.dumps({"type": "hello", "token": token}))
    _until(ws, lambda m: m["type"] == "welcome")


def _lasting(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what time changes (clock readings and the hand's time)."""
    hand = dict(state["hand"])
    hand.pop("now")
    hand["seats"] = [{k: v for k, v in seat.items() if k != "clock"} for seat in hand["seats"]]
    return state | {"hand": hand}


@pytest.mark.slow
def test_a_server_killed_mid_hand_resumes_the_hand(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    rng = random.Random(5)
    options = ("--pause", "0.5", "--bot-delay", "0")
    with ServerProcess(url, tmp_path, *options) as server:
        table = server.post("/api/tables", {"preset": "pineapple", "seats": 3, "bots": [None, "random", "heuristic"]})
        seat = server.post(f"/api/tables/{table['id']}/join", {"name": "ann"})
        with _socket(server, table["id"]) as ws:
            _hello(ws, seat["token"])
            for _ in range(2):
                state = _until(ws, my_turn)
                ws.send(json.dumps(random_move(state, rng) | {"token": seat["token"]}))
                _until(ws, lambda m: m["type"] == "ack")
            before = _until(ws, my_turn)
            assert before["hand"]["street"] == 2
            server.kill()
        server.start()
        with _socket(server, table["id"]) as ws:
            _hello(ws, seat["token"])
            # the restored hand is held (its clocks stopped) until the restarted server's workers are warm
            after = _until(ws, lambda m: m["type"] == "state" and m["warming"] is None)
            assert _lasting(after) == _lasting(before)
            while not after["finished"] and after["hand_number"] == before["hand_number"]:
                ws.send(json.dumps(random_move(after, rng) | {"token": seat["token"]}))
                _until(ws, lambda m: m["type"] == "ack")
                after = _until(ws, lambda m: my_turn(m) or m["hand_number"] > before["hand_number"])
        assert after["previous"]["number"] == before["hand_number"]
        assert len(after["previous"]["result"]["players"]) == 3
