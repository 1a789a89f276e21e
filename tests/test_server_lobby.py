"""The lobby over HTTP: creating and listing tables, joining seats, balances and the loss limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ofc.engine.hand import Hand
from ofc.i18n import localize
from ofc.rules.rulebook import Rules
from ofc.server.db.storage import FINISHED
from ofc.server.tables.agents import fantasy_action
from support.server import app_state, create_table, join, make_app, receive


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"preset": "omaha"}, 400, "bad_table"),
        ({"preset": "pineapple", "seats": 4}, 400, "bad_table"),
        ({"settings": {"loss_limit": -5}}, 400, "bad_table"),
        ({"settings": {"colour": "red"}}, 400, "bad_table"),
        ({"seats": 3, "bots": [None, "random"]}, 400, "bad_table"),
        ({"seats": 2, "bots": [None, "bad"]}, 400, "bad_table"),
        ({"seats": 7}, 422, "bad_request"),
        ({"name": ""}, 422, "bad_request"),
        ({"tables": 1}, 422, "bad_request"),
    ],
)
def test_bad_tables_are_refused(tmp_path: Path, body: dict[str, Any], status: int, code: str) -> None:
    with TestClient(make_app(tmp_path)) as client:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status
        assert response.json()["error"]["code"] == code
        assert client.get("/api/tables").json() == {"tables": []}


def test_tables_are_listed_with_their_rules_and_seats(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(
            client, name="evening", preset="classic", seats=3, bots=[None, None, "mc"],
            settings={"point_value": 2, "loss_limit": 50, "hand_seconds": 30, "time_bank_seconds": 60},
        )  # fmt: skip
        assert table["name"] == "evening"
        assert table["rules"]["players"] == 3
        assert table["rules"]["point_value"] == 2
        assert table["rules"]["loss_limit"] == 50
        assert table["rules"]["hand_seconds"] == 30
        assert [s["open"] for s in table["seats"]] == [True, True, False]
        assert table["seats"][2]["name"] == "mc bot"
        assert client.get("/api/tables").json()["tables"] == [table]


def test_joining_gives_tokens_and_the_match_starts_when_seats_are_full(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="classic", seats=2)
        first = join(client, table["id"], "ann", seat=1)
        assert first["seat"] == 1
        assert len(first["token"]) >= 32
        refused = client.post(f"/api/tables/{table['id']}/join", json={"name": "bob", "seat": 1})
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "seat_taken")
        assert len(first["player_key"]) >= 24
        again = client.post(f"/api/tables/{table['id']}/join", json={"name": "ann", "key": first["player_key"]})
        assert (again.status_code, again.json()["error"]["code"]) == (409, "already_seated")
        assert client.get("/api/tables").json()["tables"][0]["status"] == "waiting"
        second = join(client, table["id"], "bob")
        assert second["seat"] == 0
        assert client.get("/api/tables").json()["tables"][0]["status"] == "playing"
        full = client.post(f"/api/tables/{table['id']}/join", json={"name": "cy"})
        assert (full.status_code, full.json()["error"]["code"]) == (409, "table_full")
        missing = client.post("/api/tables/99/join", json={"name": "cy"})
        assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_table")
        bad_name = client.post(f"/api/tables/{table['id']}/join", json={"name": "<script>"})
        assert bad_name.status_code == 422
        assert client.get("/api/players/ann").json()["balance"] == "1000"
        assert client.get("/api/players/zed").status_code == 404


def test_a_balance_must_cover_the_loss_limit(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=100)) as client:
        dear = create_table(client, seats=2, settings={"loss_limit": 50, "point_value": 3})
        refused = client.post(f"/api/tables/{dear['id']}/join", json={"name": "ann"})
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "balance"
        assert "150" in refused.json()["error"]["message"]
        cheap = create_table(client, seats=2, settings={"loss_limit": 50, "point_value": 2})
        assert join(client, cheap["id"], "ann")["seat"] == 0


def test_a_loss_limit_of_one_point_is_refused_in_the_singular(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=100)) as client:
        dear = create_table(client, seats=2, settings={"loss_limit": 1, "point_value": 150})
        error = client.post(f"/api/tables/{dear['id']}/join", json={"name": "ann"}).json()["error"]
        assert (
            error["message"]
            == "seat 0: balance 100 does not cover the loss limit of 1 point at 150 per point (150 needed)"
        )
        ru, uk = (localize(error["template"], error["params"], language) for language in ("ru", "uk"))
        assert ru == "место 0: баланса 100 не хватает для просчёта (просчёт 1 очко, стоимость очка 150, нужно 150)"
        assert (
            uk == "місце 0: балансу 100 не вистачає для прорахунку (прорахунок 1 бал, вартість бала 150, потрібно 150)"
        )
        cheap = create_table(client, seats=2, settings={"loss_limit": 1, "point_value": 60})
        ann = join(client, cheap["id"], "ann")  # holds 1 x 60
        body = {"name": "ann", "key": ann["player_key"]}
        error = client.post(f"/api/tables/{dear['id']}/join", json=body).json()["error"]
        assert error["message"] == (
            "seat 0: balance 100 (60 of it held at other tables) does not cover the loss limit "
            "of 1 point at 150 per point (150 needed)"
        )
        ru, uk = (localize(error["template"], error["params"], language) for language in ("ru", "uk"))
        assert ru == (
            "место 0: баланса 100 (из них 60 заняты за другими столами) не хватает для просчёта "
            "(просчёт 1 очко, стоимость очка 150, нужно 150)"
        )
        assert uk == (
            "місце 0: балансу 100 (з них 60 зайнято за іншими столами) не вистачає для прорахунку "
            "(прорахунок 1 бал, вартість бала 150, потрібно 150)"
        )


def test_a_loss_limit_holds_its_part_of_the_balance_until_the_match_ends(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=100, loss_limit=15)) as client:
        limits = {"loss_limit": 30, "point_value": 2}  # 60 at stake at each table
        first = create_table(client, seats=2, bots=[None, "random"], settings=limits)
        second = create_table(client, seats=2, bots=[None, "random"], settings=limits)
        ann = join(client, first["id"], "ann")
        body = {"name": "ann", "key": ann["player_key"]}
        refused = client.post(f"/api/tables/{second['id']}/join", json=body)
        assert refused.status_code == 409
        error = refused.json()["error"]
        assert {key: error[key] for key in ("code", "message")} == {
            "code": "balance",
            "message": "seat 0: balance 100 (60 of it held at other tables) does not cover the loss limit "
            "of 30 points at 2 per point (60 needed)",
        }
        assert error["template"].startswith("seat {seat}: balance {balance} ({held} of it held at other tables)")
        assert error["params"]["held"] == "60"  # the template and params, for the client to translate
        # A match with a person's seat created without a loss limit gets the server's (15 here):
        # it holds 15 * 1, and 100 - 60 covers it.
        unlimited = create_table(client, seats=2, bots=[None, "random"])
        assert unlimited["rules"]["loss_limit"] == 15
        assert client.post(f"/api/tables/{unlimited['id']}/join", json=body).status_code == 200
        assert join(client, second["id"], "bob")["seat"] == 0  # bob holds nothing yet
        manager = app_state(client).manager
        assert manager.store.held("ann") == 60 + 15
        game = manager.tables[first["id"]].game
        game.status = FINISHED  # the match is over in memory, its settlement not stored yet: still held
        assert manager.store.held("ann") == 60 + 15
        manager.store.finish_match(first["id"], {})  # the settlement is stored (here: nothing won): its 60 are free
        assert manager.store.held("ann") == 15
        bots_only = create_table(client, seats=2, bots=["random", "random"])
        assert bots_only["rules"]["loss_limit"] is None  # no person's balance to protect


def test_unknown_table_socket_gets_an_error_and_is_closed(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client, client.websocket_connect("/ws/tables/42") as ws:
        assert receive(ws)["code"] == "no_table"


def test_the_browser_client_is_served(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert "<html" in page.text.lower()
        for name in ("app.js", "style.css"):
            assert client.get(f"/{name}").status_code == 200


def test_the_fantasy_solver_arranges_a_fantasy_deal() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=5, fantasy=(14, 0))
    view = hand.view(0)
    action = fantasy_action(view)
    hand.check(action)
    assert len(action.discards) == 1


def test_a_known_name_needs_its_player_key(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        first = create_table(client, seats=2, bots=[None, "random"])
        second = create_table(client, seats=2, bots=[None, "random"])
        ann = join(client, first["id"], "ann")
        for key in (None, "wrong", ann["token"]):
            body = {"name": "ann"} if key is None else {"name": "ann", "key": key}
            refused = client.post(f"/api/tables/{second['id']}/join", json=body)
            assert (refused.status_code, refused.json()["error"]["code"]) == (403, "bad_key")
        assert client.get("/api/tables").json()["tables"][1]["open_seats"] == [0]
        again = client.post(f"/api/tables/{second['id']}/join", json={"name": "ann", "key": ann["player_key"]})
        assert again.status_code == 200
        assert "player_key" not in again.json()


def test_a_refused_balance_does_not_take_the_name(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=10)) as client:
        dear = create_table(client, seats=2, settings={"loss_limit": 50})
        assert client.post(f"/api/tables/{dear['id']}/join", json={"name": "ann"}).status_code == 409
        assert client.get("/api/players/ann").status_code == 404


def test_a_seat_can_be_left_before_the_match_and_frees_its_stake(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=100)) as client:
        limits = {"loss_limit": 30, "point_value": 2}
        waiting = create_table(client, seats=3, bots=[None, None, "random"], settings=limits)
        other = create_table(client, seats=2, bots=[None, "random"], settings=limits)
        ann = join(client, waiting["id"], "ann")
        again = client.post(f"/api/tables/{waiting['id']}/join", json={"name": "ann", "key": ann["player_key"]})
        assert (again.status_code, again.json()["error"]["code"]) == (409, "already_seated")
        key = {"name": "ann", "key": ann["player_key"]}
        assert client.post(f"/api/tables/{other['id']}/join", json=key).json()["error"]["code"] == "balance"
        stranger = client.post(f"/api/tables/{waiting['id']}/leave", json={"token": "x" * 32})
        assert (stranger.status_code, stranger.json()["error"]["code"]) == (403, "bad_token")
        left = client.post(f"/api/tables/{waiting['id']}/leave", json={"token": ann["token"]})
        assert left.status_code == 200
        assert left.json()["open_seats"] == [0, 1]
        seated = client.post(f"/api/tables/{other['id']}/join", json=key).json()
        assert seated["seat"] == 0  # the stake is free again; this match starts at once
        late = client.post(f"/api/tables/{other['id']}/leave", json={"token": seated["token"]})
        assert late.status_code == 200  # the match has started: a bot plays the seat (test_server_leave)
        assert late.json()["seats"][0]["stand_in"] == "heuristic"
        twice = client.post(f"/api/tables/{other['id']}/leave", json={"token": seated["token"]})
        assert (twice.status_code, twice.json()["error"]["code"]) == (409, "left_seat")
    with TestClient(make_app(tmp_path, start_balance=100)) as client:  # the leave was stored
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[waiting["id"]]["open_seats"] == [0, 1]
        assert listed[other["id"]]["status"] == "playing"


def test_the_lobby_of_other_nodes_tables_loads_only_the_tables_whose_entry_changed(tmp_path: Path) -> None:
    """The keeper's view of the tables other nodes run: a table is loaded when it first appears and
    after its lobby entry changed, never while nothing changed; a finished one leaves the lobby."""
    with TestClient(make_app(tmp_path)) as client:
        manager = app_state(client).manager
        store = manager.store
        loaded: list[list[int]] = []
        load = store.load_tables_of

        def spy(table_ids: list[int]) -> Any:
            loaded.append(sorted(table_ids))
            return load(table_ids)

        store.load_tables_of = spy
        here = create_table(client, seats=2)["id"]  # this node's own table: never loaded as another's
        store.ensure_player("ann", 1000)
        store.ensure_player("bob", 1000)
        elsewhere = store.add_table("elsewhere", Rules().to_dict(), [None, None])  # as another node made it

        def refresh() -> dict[int, dict[str, Any]]:
            assert client.portal is not None
            client.portal.call(manager._refresh_others)
            return {table["id"]: table for table in client.get("/api/tables").json()["tables"]}

        assert refresh()[elsewhere]["open_seats"] == [0, 1]
        assert refresh()[elsewhere]["open_seats"] == [0, 1]
        store.take_seat(elsewhere, 1, "ann", "a" * 64)
        assert refresh()[elsewhere]["seats"][1]["name"] == "ann"
        assert refresh()[here]["open_seats"] == [0, 1]
        store.take_seat(elsewhere, 0, "bob", "b" * 64)
        store.start_match(elsewhere, 0)
        store.finish_match(elsewhere, {"ann": 0, "bob": 0})
        assert elsewhere not in refresh()
        assert loaded == [[elsewhere], [elsewhere]]
