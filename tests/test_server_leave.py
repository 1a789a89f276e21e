"""Issue 14: leaving a running match, tables without hints, seats' connection state, waiting
tables that expire and a table created with its player seated in one step."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from ofc.server.db.storage import EXPIRED
from ofc.server.tables.agents import default_bot_factory
from support.server import FakeClock, app_state, create_table, join, make_app, my_turn, receive, until

# Loss limit 1 point at 2 a point: RULES.md caps a player's loss at the limit, and with two
# seats the match ends when one of them reaches it; points are whole numbers, so the first hand
# that is not a tie ends the match with the loser at -1 point (-2) and the winner at +2.
QUICK = {"loss_limit": 1, "point_value": 2, "hand_seconds": 1, "time_bank_seconds": 0, "fantasy": False}


def _hello(ws: WebSocketTestSession, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    return until(ws, lambda m: m["type"] == "welcome")


def _seat_entry(state: dict[str, Any], seat: int) -> dict[str, Any]:
    entry: dict[str, Any] = state["table"]["seats"][seat]
    return entry


def _play_out(client: TestClient, clock: FakeClock, table: int) -> dict[str, Any]:
    """Move the clock on until the match is over (bob's cards placed for him at each deadline)."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        for _ in range(200):
            clock.move(2)  # past bob's 1 s hand clock (no bank): the server places his cards
            ws.send_json({"type": "sync"})
            state = until(ws, lambda m: m["type"] == "state")
            if state["finished"]:
                return state
    raise AssertionError(f"table {table} did not finish")


def test_a_seat_left_mid_match_is_played_by_the_bot_and_settled_to_its_player(tmp_path: Path) -> None:
    clock = FakeClock()
    options: dict[str, Any] = {"clock": clock, "start_balance": 100, "bot_factory": default_bot_factory}
    with TestClient(make_app(tmp_path, **options)) as client:
        table = create_table(client, preset="pineapple", seats=2, settings=QUICK)["id"]
        ann, bob = join(client, table, "ann"), join(client, table, "bob")
        manager = app_state(client).manager
        path = f"/ws/tables/{table}"
        with client.websocket_connect(path) as wa, client.websocket_connect(path) as wb:
            _hello(wa, ann["token"])
            _hello(wb, bob["token"])
            seen = until(wb, lambda m: m["type"] == "state" and _seat_entry(m, ann["seat"])["connected"] is True)
            assert _seat_entry(seen, bob["seat"])["connected"] is True
            left = client.post(f"/api/tables/{table}/leave", json={"token": ann["token"]})
            assert left.status_code == 200, left.text
            assert left.json()["seats"][ann["seat"]] | {"connected": None} == {
                "seat": ann["seat"], "name": "ann", "bot": None, "open": False, "stand_in": "heuristic",
                "connected": None,
            }  # fmt: skip
            # bob sees it: the seat is ann's still, the heuristic bot plays it, no connection state
            told = until(wb, lambda m: m["type"] == "state" and _seat_entry(m, ann["seat"])["stand_in"] is not None)
            assert _seat_entry(told, ann["seat"])["stand_in"] == "heuristic"
            assert _seat_entry(told, ann["seat"])["connected"] is None
            # ann's token only watches her seat now: no act, no hint, not asked to act
            mine = until(wa, lambda m: m["type"] == "state" and _seat_entry(m, ann["seat"])["stand_in"] is not None)
            assert mine["discard_due"] is None
            for message in ({"type": "hint"}, {"type": "act", "place": [], "discard": []}):
                wa.send_json(message | {"token": ann["token"]})
                refused = until(wa, lambda m: m["type"] == "error")
                assert refused["code"] == "left_seat", refused
                assert refused["message"] == "ann left table 1: the heuristic bot plays the seat until the match ends"
            twice = client.post(f"/api/tables/{table}/leave", json={"token": ann["token"]})
            assert (twice.status_code, twice.json()["error"]["code"]) == (409, "left_seat")
        # her stake stays held until the match is settled: 1 point x 2
        assert manager.store.held("ann") == 2
        assert manager.tables[table].game.status == "playing"
    with TestClient(make_app(tmp_path, **options)) as client:  # a restart keeps the seat with the bot
        manager = app_state(client).manager
        runtime = manager.tables[table]
        assert runtime.game.seats[ann["seat"]].stand_in == "heuristic"
        assert runtime.bots == {ann["seat"]: "heuristic"}
        assert manager.store.held("ann") == 2
        final = _play_out(client, clock, table)
        points = [Fraction(p) for p in final["ledger"]["points"]]
        money = [Fraction(m) for m in final["ledger"]["money"]]
        assert sorted(points) == [-1, 1]  # see QUICK: this run's one hand was not a tie
        assert money == [2 * p for p in points]
        balances = {name: client.get(f"/api/players/{name}").json()["balance"] for name in ("ann", "bob")}
        assert balances == {
            "ann": str(100 + money[ann["seat"]]),
            "bob": str(100 + money[bob["seat"]]),
        }
        assert sorted(balances.values()) == ["102", "98"]
        assert client.get("/api/house").json() == {"balance": "0"}  # two people: the house takes nothing
        assert manager.store.held("ann") == 0
        # ann's token still reads the seat's hand histories
        hands = client.post(f"/api/tables/{table}/hands", json={"token": ann["token"]})
        assert hands.status_code == 200
        assert hands.json()["name"] == "ann"


SHORT = {"buy_in": 100, "starting_chips": 30, "level_hands": 1, "chips_per_point": "5,10,20,40", "payouts": "0.7,0.3"}
"""A short tournament (as test_server_tournament): 30 chips each, 5 then 10, 20, 40 chips a point."""


def test_a_seat_left_mid_tournament_is_played_by_the_bot_and_its_prize_paid_to_its_player(tmp_path: Path) -> None:
    """ann buys in (100 of her 1,000), the house pays the two bots' buy-ins; she leaves after the
    start. The heuristic bot plays her seat to the end; the pool of 300 is paid 70% / 30%, and her
    seat's prize goes to her balance: ann + house change by zero in all (docs/server.md)."""
    options: dict[str, Any] = {"bot_factory": default_bot_factory}
    with TestClient(make_app(tmp_path, **options)) as client:
        table = create_table(client, kind="tournament", seats=3, bots=[None, "random", "random"], settings=SHORT)
        ann = join(client, table["id"], "ann")
        path = f"/ws/tables/{table['id']}"
        with client.websocket_connect(path) as ws:
            _hello(ws, ann["token"])
            left = client.post(f"/api/tables/{table['id']}/leave", json={"token": ann["token"]})
            assert left.status_code == 200, left.text
            assert left.json()["seats"][ann["seat"]]["stand_in"] == "heuristic"
            final = until(ws, lambda m: m["type"] == "state" and bool(m["finished"]))
        prizes = [Fraction(prize) for prize in final["tournament"]["prizes"]]
        # a pool of 300 paid 70% / 30%: 1st 210, 2nd 90, 3rd 0; two busted at once share 2nd and
        # 3rd, (90 + 0) / 2 = 45 each (worked by hand as in test_server_tournament)
        by_place = {(1, 1): 210, (2, 1): 90, (3, 1): 0, (2, 2): 45}
        places = final["tournament"]["places"]
        assert prizes == [by_place[place["place"], place["tied"]] for place in places]
        ann_balance = Fraction(client.get("/api/players/ann").json()["balance"])
        house = Fraction(client.get("/api/house").json()["balance"])
        assert ann_balance == 900 + prizes[ann["seat"]]
        assert house == -200 + sum(prizes) - prizes[ann["seat"]]
        assert (ann_balance - 1000) + house == 0
        # a finished tournament's seat can no longer be left
        late = client.post(f"/api/tables/{table['id']}/leave", json={"token": ann["token"]})
        assert (late.status_code, late.json()["error"]["code"]) == (409, "left_seat")


def test_a_table_without_hints_refuses_hints_and_the_solver(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"], hints=False)
        assert table["options"] == {"hints": False}
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            _hello(ws, seat["token"])
            until(ws, my_turn)
            for kind in ("hint", "solve"):
                ws.send_json({"type": kind, "token": seat["token"], "id": kind})
                refused = until(ws, lambda m: m["type"] in ("error", "hint", "solution"))
                assert (refused["type"], refused["code"], refused["id"]) == ("error", "no_hints", kind)
                assert refused["template"] == (
                    "table {table} is played without hints: neither hints nor the solver can be asked for"
                )
        assert create_table(client, seats=2, bots=[None, "random"])["options"] == {"hints": True}
    with TestClient(make_app(tmp_path)) as client:  # stored with the table
        listed = client.get("/api/tables").json()["tables"]
        assert [t["options"] for t in listed] == [{"hints": False}, {"hints": True}]


def test_the_others_see_a_seat_disconnect_and_come_back(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=3, bots=[None, None, "random"])["id"]
        ann, bob = join(client, table, "ann"), join(client, table, "bob")
        with client.websocket_connect(f"/ws/tables/{table}") as wa:
            _hello(wa, ann["token"])
            state = until(wa, lambda m: m["type"] == "state")
            # bob has no connection; the bot's seat has no connection state
            assert [s["connected"] for s in state["table"]["seats"]] == [True, False, None]
            with client.websocket_connect(f"/ws/tables/{table}") as wb:
                _hello(wb, bob["token"])
                until(wa, lambda m: m["type"] == "state" and _seat_entry(m, 1)["connected"] is True)
            gone = until(wa, lambda m: m["type"] == "state" and _seat_entry(m, 1)["connected"] is False)
            assert _seat_entry(gone, 0)["connected"] is True


def test_waiting_tables_with_nobody_seated_expire(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(tmp_path, clock=clock, waiting_expiry=600)) as client:
        empty = create_table(client, seats=2)["id"]
        left = create_table(client, seats=2)["id"]
        seated = create_table(client, seats=2)["id"]
        clock.move(500)
        ann = join(client, left, "ann")
        join(client, seated, "bob")
        assert client.post(f"/api/tables/{left}/leave", json={"token": ann["token"]}).status_code == 200
        clock.move(100)  # 600 s since the first was created: it expires; the one ann left counts from 1500
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [left, seated]
        refused = client.post(f"/api/tables/{empty}/join", json={"name": "cy"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (410, "expired")
        assert client.get("/api/players/cy").status_code == 404  # nothing changed
        clock.move(500)  # 600 s since ann left
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [seated]
        manager = app_state(client).manager
        runtime = manager.tables[left]
        with client.websocket_connect(f"/ws/tables/{left}") as ws:  # a watcher brings it to time
            receive(ws)
            ws.send_json({"type": "sync"})
            assert until(ws, lambda m: m["type"] == "state")["table"]["status"] == EXPIRED
        assert runtime.game.status == EXPIRED
    with TestClient(make_app(tmp_path, clock=clock, waiting_expiry=600)) as client:  # stored as expired
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [seated]
        rows = {row.id: row.status for row in app_state(client).store.load_tables()}
        assert rows == {empty: EXPIRED, left: EXPIRED, seated: "waiting"}


def test_create_and_sit_down_is_one_step_that_leaves_nothing_when_refused(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=100)) as client:
        small = {"loss_limit": 20}  # 20 held of the 100 each new player starts with
        made = client.post(
            "/api/tables", json={"seats": 2, "bots": [None, "random"], "settings": small, "sit": {"name": "ann"}}
        )
        assert made.status_code == 201, made.text
        joined = made.json()["joined"]
        assert (joined["table"], joined["seat"], joined["name"]) == (made.json()["id"], 0, "ann")
        assert joined["token"]
        assert joined["player_key"]
        assert made.json()["status"] == "playing"  # every seat taken: the match started
        store = app_state(client).store

        def tables() -> int:
            return len(store.load_tables())

        before = tables()
        body: dict[str, Any] = {"seats": 2, "bots": [None, None], "settings": small}
        # ann (any case) without her key; a wrong key; a stake over the balance; a bot's seat
        for sit, status, code in (
            ({"name": "ANN"}, 403, "bad_key"),
            ({"name": "ann", "key": "wrong"}, 403, "bad_key"),
            ({"name": "bob"}, 409, "balance"),
            ({"name": "cy", "seat": 1}, 409, "seat_taken"),
        ):
            settings = {"loss_limit": 60, "point_value": 2} if sit["name"] == "bob" else small
            bots = [None, "random"] if sit["name"] == "cy" else body["bots"]
            refused = client.post("/api/tables", json=body | {"bots": bots, "settings": settings, "sit": sit})
            assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), refused.text
            assert tables() == before  # no table left behind
        assert client.get("/api/players/bob").status_code == 404  # nor a player
        again = client.post(
            "/api/tables", json=body | {"sit": {"name": "Ann", "key": joined["player_key"], "seat": 1}}
        ).json()
        assert again["joined"]["name"] == "ann"  # the stored spelling of the name
        assert again["seats"][1]["name"] == "ann"
        assert again["open_seats"] == [0]
        assert "player_key" not in again["joined"]
