"""Finished tables leave memory and are not replayed at start (issue 13, finding 6).

Before, every table ever created was replayed at each start and listed in the lobby (1,000
tables: 6.7 s, 710 KB). Now the start replays only the unfinished tables, the lobby lists
those and the last few finished ones, and a finished table is loaded from the database when
someone opens it, asks for its hands or its rematch; at most so many stay in memory.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ofc.rules.rulebook import Rules
from ofc.server.db.storage import FINISHED, Storage
from ofc.server.tables.game import TableGame
from support.server import FakeClock, app_state, create_table, join, make_app, receive, until

FAST = {"hand_seconds": 1, "time_bank_seconds": 0, "fantasy": False}
"""Hands the server's clock places at once when the fake clock moves."""


def _play_out(client: TestClient, clock: FakeClock, table: int) -> dict[str, Any]:
    """Let the clock place every card until the match ends; the last state a spectator sees."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        for _ in range(200):
            clock.move(5)
            ws.send_json({"type": "sync"})
            state = until(ws, lambda m: m["type"] == "state")
            if state["finished"]:
                return state
    raise AssertionError(f"table {table} did not finish")


def _finished_tables(url: str, count: int) -> list[int]:
    """``count`` finished matches stored straight into the database (no hands), as a long-lived server leaves them."""
    store = Storage(url)
    try:
        store.ensure_player("old", Fraction(1000))
        ids = []
        for number in range(count):
            table = store.add_table(f"old {number}", Rules().to_dict(), ["random", "random"])
            store.start_match(table, 0)
            store.finish_match(table, {})
            ids.append(table)
        return ids
    finally:
        store.close()


def test_the_start_replays_only_unfinished_tables_and_the_lobby_stays_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        played = create_table(client, seats=2, settings=FAST)
        ann = join(client, played["id"], "ann")
        join(client, played["id"], "bob")
        final = _play_out(client, clock, played["id"])
        hands_played = final["hand_number"] + 1
    old = _finished_tables(url, 300)
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        waiting = create_table(client, seats=2)["id"]
        playing = create_table(client, seats=2, settings=FAST)["id"]
        join(client, playing, "cy")
        join(client, playing, "dee")
        assert app_state(client).manager.tables[playing].game.status == "playing"

    replayed: list[int] = []
    restore = TableGame.restore.__func__  # type: ignore[attr-defined]

    def counting(cls: type[TableGame], row: Any, *args: Any, **kwargs: Any) -> TableGame:
        replayed.append(row.id)
        game: TableGame = restore(cls, row, *args, **kwargs)
        return game

    monkeypatch.setattr(TableGame, "restore", classmethod(counting))
    with TestClient(make_app(tmp_path, clock=clock, finished_kept=3, recent_listed=20)) as client:
        manager = app_state(client).manager
        assert replayed == [waiting, playing]  # 302 finished tables, none replayed
        assert sorted(manager.tables) == [waiting, playing]
        listed = client.get("/api/tables").json()["tables"]
        # the two unfinished tables and the 20 finished ones created last (old[-20:]), by id
        assert [t["id"] for t in listed] == sorted([*old[-20:], waiting, playing])
        assert all(t["status"] == FINISHED for t in listed if t["id"] in old)

        # An old finished match opened: loaded from the database, as it ended.
        with client.websocket_connect(f"/ws/tables/{played['id']}") as ws:
            state = receive(ws)
        assert replayed[-1] == played["id"]
        assert (state["finished"], state["ledger"], state["hand_number"]) == (True, final["ledger"], hands_played - 1)
        hands = client.post(f"/api/tables/{played['id']}/hands", json={"token": ann["token"]}).json()["hands"]
        assert [hand["number"] for hand in hands] == list(range(hands_played))
        stats = client.get("/api/players/ann/stats").json()["variants"]["pineapple"]
        assert stats["hands"] == hands_played

        # Opening more old tables: at most 3 finished ones stay in memory (those nobody watches go).
        for table in old[:5]:
            with client.websocket_connect(f"/ws/tables/{table}") as ws:
                assert receive(ws)["finished"] is True
        in_memory = [t for t, rt in manager.tables.items() if rt.game.status == FINISHED]
        assert in_memory == old[2:5]
        assert sorted(set(manager.tables) - set(in_memory)) == [waiting, playing]

        # A rematch of a table no longer in memory: opened once, the same table for later requests.
        first = client.post(f"/api/tables/{played['id']}/rematch").json()
        again = client.post(f"/api/tables/{played['id']}/rematch").json()
        assert first["id"] == again["id"]
        assert first["status"] == "waiting"
        missing = client.post("/api/tables/99999/rematch")
        assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_table")
        with client.websocket_connect("/ws/tables/99999") as ws:
            assert receive(ws)["code"] == "no_table"
