"""No clock runs while the server cannot serve: a full table waits for the warm workers, the lobby,
the table and ``/api/health`` say how long the server has been warming; a hint past its budget
holds the table, so the seat's clock loses none of the time the server took."""

from __future__ import annotations

import dataclasses
import random
import threading
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ofc.bots.base import Decision
from ofc.engine.actions import Action
from ofc.engine.view import HandView
from support.server import (
    HANG_GUARD,
    FakeClock,
    StandInBot,
    make_app,
    my_turn,
    random_move,
    receive,
    stand_in_factory,
    until,
)


def test_a_full_table_deals_its_first_hand_only_once_the_workers_are_warm(tmp_path: Path) -> None:
    gate = tmp_path / "warming"
    gate.write_text("")
    clock = FakeClock(1000)
    app = make_app(tmp_path, warm_gate=str(gate), clock=clock)
    with TestClient(app) as client:
        clock.move(7)
        assert client.get("/api/tables").json() == {"tables": [], "warming": 7}
        health = client.get("/api/health")
        assert (health.status_code, health.json()) == (503, {"ready": False, "warming": 7})
        body = {"seats": 2, "bots": [None, "random"], "sit": {"name": "ann"}}
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table, token = created.json()["id"], created.json()["joined"]["token"]
        assert (created.json()["status"], created.json()["open_seats"]) == ("waiting", [])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            state = until(ws, lambda m: m["type"] == "state" and m["you"] == 0)
            assert (state["hand"], state["hand_number"], state["warming"], state["table"]["status"]) == (
                None,
                -1,
                "7",
                "waiting",
            )
            gate.unlink()  # the workers warm now
            dealt = until(ws, lambda m: m["type"] == "state" and m["hand"] is not None)
            assert (dealt["hand_number"], dealt["warming"], dealt["table"]["status"]) == (0, None, "playing")
        assert "warming" not in client.get("/api/tables").json()
        assert client.get("/api/health").json()["ready"] is True


class GatedBot(StandInBot):
    """The hint bot of these tests: its ``decide`` waits until the test opens ``GATE``."""

    def decide(self, view: HandView) -> Decision:
        assert GATE.wait(HANG_GUARD)
        return super().decide(view)


GATE = threading.Event()


def gated_factory(spec: str, seed: int | None) -> StandInBot:
    """``gated`` gives the gated hint bot, any other spec a stand-in."""
    return GatedBot(0) if spec == "gated" else stand_in_factory(spec, seed)


def my_clock(state: dict[str, Any]) -> dict[str, Any]:
    hand = state["hand"]
    clock: dict[str, Any] = hand["seats"][hand["seat"]]["clock"]
    return clock


def test_a_hint_past_its_budget_holds_the_table_and_costs_the_seat_no_time(tmp_path: Path) -> None:
    GATE.clear()
    clock = FakeClock(1000)
    app = make_app(tmp_path, clock=clock, bot_factory=gated_factory, hint_bot="gated", hint_budget=0)
    with TestClient(app) as client:
        body = {"seats": 2, "bots": [None, "random"], "sit": {"name": "ann"}, "settings": {"hand_seconds": 60}}
        created = client.post("/api/tables", json=body).json()
        table, token = created["id"], created["joined"]["token"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            turn = until(ws, my_turn)
            clock.move(10)
            ws.send_json({"type": "sync"})
            before = until(ws, my_turn)
            assert my_clock(before) == my_clock(turn) | {"hand": "50"}  # the 10 s before asking are charged
            ws.send_json({"type": "hint", "token": token, "id": 5})
            held = until(ws, lambda m: m["type"] == "state" and m["held"])
            assert my_clock(held) == {"hand": "50", "bank": my_clock(turn)["bank"], "running": False, "deadline": None}
            clock.move(500)  # far past the seat's deadline: the server took that time, not the player
            ws.send_json({"type": "sync"})
            assert receive(ws)["held"] is True
            GATE.set()
            seen: list[dict[str, Any]] = []
            hint = until(ws, lambda m: m["type"] == "hint", seen)
            assert (hint["id"], hint["held"]) == (5, "500")
            after = [m for m in seen if m["type"] == "state"][-1]
            assert after["held"] is False
            assert my_clock(after) == my_clock(before)  # running again from the same 50 s
            mine = after["hand"]["seats"][after["hand"]["seat"]]
            assert mine["top"] + mine["middle"] + mine["bottom"] == []  # nothing was placed for the seat


class GatedActor(StandInBot):
    """A table's bot whose ``act`` waits until the test opens ``GATE``."""

    def act(self, view: HandView) -> Action:
        assert GATE.wait(HANG_GUARD)
        return super().act(view)


def gated_actor_factory(spec: str, seed: int | None) -> StandInBot:
    """``gated`` gives the gated bot, any other spec a stand-in."""
    return GatedActor(0) if spec == "gated" else stand_in_factory(spec, seed)


def test_a_slow_bot_decision_holds_the_table_and_charges_no_one(tmp_path: Path) -> None:
    GATE.clear()
    clock = FakeClock(1000)
    app = make_app(tmp_path, clock=clock, bot_factory=gated_actor_factory)
    manager = app.state.manager
    manager.settings = dataclasses.replace(manager.settings, bot_budget=0)  # every bot decision past its budget
    with TestClient(app) as client:
        body = {"seats": 2, "bots": [None, "gated"], "sit": {"name": "ann"}, "settings": {"hand_seconds": 60}}
        created = client.post("/api/tables", json=body).json()
        table, token = created["id"], created["joined"]["token"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            held = until(ws, lambda m: m["type"] == "state" and (m["held"] or my_turn(m)))
            if not held["held"]:  # the player acts first, then the bot
                ws.send_json(random_move(held, random.Random(1)) | {"token": token})
                held = until(ws, lambda m: m["type"] == "state" and m["held"])
            bot = next(s for s, table_seat in enumerate(held["hand_seats"]) if table_seat == 1)
            assert bot in held["hand"]["to_act"]
            assert held["hand"]["seats"][bot]["clock"]["running"] is False
            waited = held["hand"]["seats"][bot]["clock"]["hand"]
            clock.move(500)  # far past the bot's deadline: its slowness is the server's, charged to no one
            GATE.set()
            acted = until(ws, lambda m: m["type"] == "state" and not m["held"] and bot not in m["hand"]["to_act"])
            board = acted["hand"]["seats"][bot]
            assert (board["clock"]["hand"], board["clock"]["running"]) == (waited, False)
            assert len(board["top"] + board["middle"] + board["bottom"]) == 5  # its own move, not a timed-out one
