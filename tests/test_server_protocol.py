"""Protocol tests through FastAPI's test client: whole matches, bad messages, reconnect, clocks."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ofc.rules.cards import ALL_CARDS, Deck, format_card, parse_cards
from ofc.server.decisions.workers import warm_kernels
from ofc.server.tables.agents import default_bot_factory
from ofc.server.tables.timekeeping import SystemClock
from support.server import (
    FakeClock,
    app_state,
    create_table,
    join,
    make_app,
    my_turn,
    play_to_end,
    random_move,
    receive,
    seeded_decks,
    until,
)


def test_whole_match_against_bots_settles_the_ledger_into_the_balance(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table = create_table(client, name="t", preset="pineapple", seats=3, bots=[None, "random", "heuristic"])
        assert table["status"] == "waiting"
        assert table["open_seats"] == [0]
        seat = join(client, table["id"], "ann")
        assert seat["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert receive(ws)["type"] == "state"
            ws.send_json({"type": "hello", "token": seat["token"], "id": "h"})
            welcome = until(ws, lambda m: m["type"] != "state")  # the bots' moves may come first
            assert welcome == {"type": "welcome", "id": "h", "table": table["id"], "seat": 0, "name": "ann"}
            final = play_to_end(ws, seat["token"], random.Random(3))
        points = [Fraction(p) for p in final["ledger"]["points"]]
        assert sum(points) == 0
        assert final["hand_number"] >= 2
        assert final["previous"]["number"] == final["hand_number"]
        money = Fraction(final["ledger"]["money"][0])
        assert client.get("/api/players/ann").json()["balance"] == str(1000 + money)
        listed = client.get("/api/tables").json()["tables"]
        assert [t["status"] for t in listed] == ["finished"]
        store = app.state.store
        for number in range(final["hand_number"] + 1):
            history = store.history(table["id"], number)
            assert history is not None
            assert history["result"] is not None


def test_acks_come_after_the_action_is_stored(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        table = create_table(client, preset="classic", seats=2, bots=[None, "random"])
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            state = until(ws, my_turn)
            ws.send_json(random_move(state, random.Random(1)) | {"token": seat["token"], "id": 7})
            ack = until(ws, lambda m: m["type"] == "ack")
            assert ack["id"] == 7
            stored = app.state.store.load_hands(table["id"])[-1].actions
            assert any(row.seat == ack["action"]["seat"] and row.place == ack["action"]["place"] for row in stored)


def _two_humans(client: TestClient, **settings: Any) -> tuple[int, list[dict[str, Any]]]:
    table = create_table(client, preset="pineapple", seats=2, settings=settings)
    seats = [join(client, table["id"], "ann"), join(client, table["id"], "bob")]
    return table["id"], seats


BAD_TEXT = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ("{}", "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "hello", "token": 5}', "bad_message"),
    ('{"type": "act", "place": []}', "bad_message"),
    ('{"type": "act", "token": "x", "place": [], "extra": 1}', "bad_message"),
    ('{"type": "act", "token": "x", "place": [["Ah"]]}', "bad_message"),
    ('{"type": "act", "token": "x", "place": "Ah top"}', "bad_message"),
    ('{"type": "ping", "id": [1]}', "bad_message"),
    ("x" * 9000, "bad_message"),
]


@pytest.mark.parametrize(("text", "code"), BAD_TEXT)
def test_malformed_messages_are_refused_and_the_connection_stays(tmp_path: Path, text: str, code: str) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table, _seats = _two_humans(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            before = receive(ws)
            ws.send_text(text)
            error = receive(ws)
            assert error["type"] == "error"
            assert error["code"] == code
            ws.send_json({"type": "sync"})
            assert receive(ws) == before


def _actor(state: dict[str, Any]) -> int:
    hand = state["hand"]
    return int(state["hand_seats"][hand["to_act"][0]])


def _bad_actions(state: dict[str, Any]) -> list[tuple[dict[str, Any], str, str]]:
    """Illegal or malformed actions for the first five cards of the seat to act in ``state``."""
    cards = state["hand"]["cards"]
    legal = random_move(state, random.Random(0))["place"]
    stranger = next(c for c in ("Ah", "Kd", "2c", "7s", "Tc", "9h") if c not in cards)
    return [
        ({"place": [[stranger, "top"], *legal[1:]]}, "illegal", "CardNotHeld"),
        ({"place": legal[1:], "discard": cards[:1]}, "illegal", "WrongDiscardCount"),
        ({"place": legal[:4]}, "illegal", "WrongPlacementCount"),
        ({"place": [[c, "top"] for c in cards]}, "illegal", "RowFull"),
        ({"place": [*legal[:4], [legal[0][0], "bottom"]]}, "illegal", "DuplicateCard"),
        ({"place": [["Zz", "top"]]}, "bad_action", ""),
        ({"place": [[cards[0], "side"]]}, "bad_action", ""),
    ]


def test_illegal_actions_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table, seats = _two_humans(client)
        states = {}
        sockets = [client.websocket_connect(f"/ws/tables/{table}") for _ in seats]
        with sockets[0] as ws0, sockets[1] as ws1:
            for ws, seat in zip((ws0, ws1), seats, strict=True):
                ws.send_json({"type": "hello", "token": seat["token"]})
                until(ws, lambda m: m["type"] == "welcome")
            for ws, seat in zip((ws0, ws1), seats, strict=True):  # each seat's state once both are connected
                ws.send_json({"type": "sync"})
                states[seat["seat"]] = until(
                    ws, lambda m: m["type"] == "state" and all(s["connected"] for s in m["table"]["seats"])
                )
            actor = _actor(states[0])
            ws, wso = (ws0, ws1) if actor == 0 else (ws1, ws0)
            state = states[actor]
            for body, code, reason in _bad_actions(state):
                ws.send_json({"type": "act", "token": seats[actor]["token"], **body})
                error = until(ws, lambda m: m["type"] in ("error", "ack"))
                assert error["type"] == "error", body
                assert error["code"] == code, (body, error)
                assert error["message"].startswith(reason), error
                ws.send_json({"type": "sync"})
                assert receive(ws) == state
            # Out of turn, a stranger's token, another seat's token on a bound connection.
            other = 1 - actor
            early = random_move(states[other] | {"discard_due": 0}, random.Random(3))
            wso.send_json(early | {"token": seats[other]["token"]})
            error = until(wso, lambda m: m["type"] == "error")
            assert (error["code"], error["message"].split(":")[0]) == ("illegal", "NotYourTurn")
            ws.send_json({"type": "act", "token": "nobody", "place": [], "discard": []})
            assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_token"
            ws.send_json({"type": "hint", "token": seats[other]["token"]})
            assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_token"
            ws.send_json({"type": "solve", "token": seats[actor]["token"], "id": 4})
            refused = until(ws, lambda m: m["type"] == "error")
            assert {key: refused[key] for key in ("type", "code", "id")} == {
                "type": "error", "code": "not_fantasy", "id": 4,
            }  # fmt: skip
            assert refused["kind"] == "PlayError"  # with the template and params a client translates
            wso.send_json({"type": "hint", "token": seats[other]["token"]})
            assert until(wso, lambda m: m["type"] == "error")["code"] == "not_your_turn"
            ws.send_bytes(b"\xff\xfe")
            assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_json"
            ws.send_json({"type": "ping", "id": 9})
            assert receive(ws) == {"type": "pong", "id": 9}
            ws.send_json({"type": "sync"})
            assert receive(ws) == state
            ws.send_json(random_move(state, random.Random(1)) | {"token": seats[actor]["token"]})
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_hint_gives_the_bots_action_and_value(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"])
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            state = until(ws, my_turn)
            ws.send_json({"type": "hint", "token": seat["token"], "id": 1})
            hint = until(ws, lambda m: m["type"] == "hint")
            assert hint["value"] == 1.5
            assert hint["id"] == 1
            assert sorted(card for card, _ in hint["action"]["place"]) == sorted(state["hand"]["cards"])
            chosen = {key: hint["action"][key] for key in ("place", "discard")}
            ws.send_json({"type": "act", "token": seat["token"], **chosen})
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_reconnect_with_the_token_gives_the_view_back_and_play_goes_on(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="classic", seats=3, bots=[None, "random", "random"])
        seat = join(client, table["id"], "ann")
        url = f"/ws/tables/{table['id']}"
        with client.websocket_connect(url) as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            state = until(ws, my_turn)
            ws.send_json(random_move(state, random.Random(1)) | {"token": seat["token"]})
            until(ws, lambda m: m["type"] == "ack")
            state = until(ws, my_turn)
        with client.websocket_connect(url) as ws:
            spectator = receive(ws)
            assert spectator["you"] is None
            assert spectator["hand"]["cards"] == []
            ws.send_json({"type": "hello", "token": seat["token"]})
            until(ws, lambda m: m["type"] == "welcome")
            again = receive(ws)
            assert again == state
            ws.send_json(random_move(again, random.Random(2)) | {"token": seat["token"]})
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_timeout_places_automatically_with_a_fake_clock(tmp_path: Path) -> None:
    clock = FakeClock(5000)
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        table, seats = _two_humans(client, hand_seconds=10, time_bank_seconds=5)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": seats[0]["token"]})
            until(ws, lambda m: m["type"] == "welcome")
            state = receive(ws)
            actor = _actor(state)
            clock.move(14)
            ws.send_json({"type": "sync"})
            still = until(ws, lambda m: m["type"] == "state")
            mine = still["hand"]["seats"][still["hand_seats"].index(actor)]
            assert mine["holding"] == 5
            assert mine["clock"]["hand"] == "0"
            assert mine["clock"]["bank"] == "1"
            clock.move(2)
            ws.send_json({"type": "sync"})
            after = until(ws, lambda m: m["type"] == "state" and m["hand"]["to_act"] != state["hand"]["to_act"])
            placed = after["hand"]["seats"][after["hand_seats"].index(actor)]
            assert (len(placed["bottom"]), len(placed["middle"]), len(placed["top"])) == (5, 0, 0)
            assert placed["clock"]["bank"] == "0"
        stored = client.app.state.store.load_hands(table)[0].actions  # type: ignore[attr-defined]
        assert [(row.automatic, row.time) for row in stored] == [(True, "5015")]


def test_the_server_clock_places_for_a_silent_seat(tmp_path: Path) -> None:
    app = make_app(tmp_path, clock=SystemClock())
    with TestClient(app) as client:
        table = create_table(
            client, preset="pineapple", seats=2, bots=[None, "random"],
            settings={"hand_seconds": "0.3", "time_bank_seconds": 0},
        )  # fmt: skip
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            state = until(ws, lambda m: m["type"] == "state" and m["hand"] is not None and m["hand"]["seats"][
                m["hand_seats"].index(0)]["done"])  # fmt: skip
            me = state["hand"]["seats"][state["hand_seats"].index(0)]
            assert len(me["bottom"]) == 5
            assert len(me["middle"]) == 5
            assert len(me["top"]) == 3


BOARDS = (
    {"top": "Qh Qd 2c", "middle": "Kh Kd 3c 3d 4s", "bottom": "Ah Ad Ac 5s 6s"},
    {"top": "Qs Qc 2d", "middle": "Ks Kc 3h 3s 4h", "bottom": "As 7d 7c 7h 9s"},
)


def _fantasy_decks(table: int, hand: int) -> Deck:
    """Hand 0 deals each seat of a classic heads-up table a board worth a fantasy."""
    if hand:
        return seeded_decks(table, hand)
    cards = [[c for row in ("top", "middle", "bottom") for c in board[row].split()] for board in BOARDS]
    order = cards[0][:5] + cards[1][:5]
    for street in range(8):
        order += [cards[0][5 + street], cards[1][5 + street]]
    rest = [card for card in ALL_CARDS if format_card(card) not in order]
    return Deck(order=parse_cards(order) + tuple(rest))


def test_a_fantasy_seat_gets_the_solvers_arrangement(tmp_path: Path) -> None:
    rows = {card: row for board in BOARDS for row, text in board.items() for card in text.split()}
    with TestClient(make_app(tmp_path, decks=_fantasy_decks)) as client:
        table, seats = _two_humans(client, variant="classic", scoring="classic")
        sockets = [client.websocket_connect(f"/ws/tables/{table}") for _ in seats]
        with sockets[0] as ws0, sockets[1] as ws1:
            pairs = list(zip((ws0, ws1), seats, strict=True))
            waiting: dict[int, dict[str, Any]] = {}
            for index, (ws, seat) in enumerate(pairs):
                ws.send_json({"type": "hello", "token": seat["token"]})
                until(ws, lambda m: m["type"] == "welcome")
                waiting[index] = receive(ws)
            if _actor(waiting[0]) == 1:
                pairs.reverse()
            for _ in range(9):
                for ws, seat in pairs:
                    early = waiting.pop(seat["seat"], None)
                    state = early if early is not None and my_turn(early) else until(ws, my_turn)
                    place = [[card, rows[card]] for card in state["hand"]["cards"]]
                    ws.send_json({"type": "act", "token": seat["token"], "place": place, "discard": []})
                    until(ws, lambda m: m["type"] == "ack")
            handed: dict[int, dict[str, Any]] = {}
            for ws, seat in pairs:
                state = handed.get(seat["seat"]) or until(ws, lambda m: my_turn(m) and m["hand_number"] == 1)
                handed.pop(seat["seat"], {})
                me = state["hand"]["seats"][state["hand"]["seat"]]
                assert (me["fantasy"], len(state["hand"]["cards"]), state["discard_due"]) == (13, 13, 0)
                assert state["previous"]["result"]["players"][0]["fantasy"] == 13
                ws.send_json({"type": "solve", "token": seat["token"], "id": "s"})
                solution = until(ws, lambda m: m["type"] in ("solution", "error"))
                assert solution["type"] == "solution", solution
                chosen = {key: solution["action"][key] for key in ("place", "discard")}
                ws.send_json({"type": "act", "token": seat["token"], **chosen})
                assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                if seat is pairs[0][1]:
                    other_ws, other_seat = pairs[1]
                    seen = until(other_ws, lambda m: m["type"] == "state" and m["hand_number"] == 1 and any(
                        s["hidden"] for s in m["hand"]["seats"]))  # fmt: skip
                    hidden = seen["hand"]["seats"][state["hand"]["seat"]]
                    assert (hidden["hidden"], hidden["top"], hidden["middle"], hidden["bottom"]) == (13, [], [], [])
                    handed[other_seat["seat"]] = seen
            done = until(ws0, lambda m: m["type"] == "state" and (m["previous"] or {}).get("number") == 1)
            assert [p["fouled"] for p in done["previous"]["result"]["players"]] == [False, False]


def test_a_seat_at_the_loss_limit_leaves_and_then_only_watches(tmp_path: Path) -> None:
    watched = 0
    with TestClient(make_app(tmp_path)) as client:
        for attempt in range(2):
            table = create_table(client, preset="classic", seats=4, bots=[None, "random", "random", "random"],
                                 settings={"loss_limit": 6, "point_value": 5})  # fmt: skip
            name = f"ann{attempt}"
            seat = join(client, table["id"], name)
            seen: list[dict[str, Any]] = []
            with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
                ws.send_json({"type": "hello", "token": seat["token"]})
                final = play_to_end(ws, seat["token"], random.Random(attempt), seen)
            points = [Fraction(p) for p in final["ledger"]["points"]]
            assert sum(points) == 0
            assert min(points) >= -6
            assert client.get(f"/api/players/{name}").json()["balance"] == str(1000 + 5 * points[0])
            states = [m for m in seen if m["type"] == "state" and m["hand"] is not None and m["you"] == 0]
            for message in states:
                if 0 not in message["hand_seats"]:
                    watched += 1
                    assert message["hand"]["seat"] is None
                    assert message["hand"]["cards"] == []
                    assert message["discard_due"] is None
    assert watched


def test_a_whole_match_with_the_real_bots_and_hints(tmp_path: Path) -> None:
    warm_kernels()  # as the product does before it reports ready (else the first hint compiles within its cap)
    clock = FakeClock()
    app = make_app(tmp_path, bot_factory=default_bot_factory, clock=clock)
    with TestClient(app) as client:
        table = create_table(client, preset="pineapple", seats=3, bots=[None, "mc:seconds=0.05", "heuristic"])
        seat = join(client, table["id"], "ann")
        sure = 0
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            while True:
                state = until(ws, lambda m: my_turn(m) or bool(m.get("finished")))
                if state.get("finished"):
                    break
                clock.move(3)  # a hint every 3 s is within the connection's rate limit
                ws.send_json({"type": "hint", "token": seat["token"]})
                hint = until(ws, lambda m: m["type"] in ("hint", "error"))
                assert hint["type"] == "hint", hint
                assert hint["choices"][0]["action"] == hint["action"]
                if hint["unsure"]:  # too few play-outs in its time (a loaded machine): a choice and no number
                    assert hint["value"] is None
                    assert all(c["value"] is None and c["score"] is None for c in hint["choices"])
                    chosen = {key: hint["action"][key] for key in ("place", "discard")}
                    ws.send_json({"type": "act", "token": seat["token"], **chosen})
                    assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
                    continue
                sure += 1
                assert isinstance(hint["value"], float)
                # the pro bot's best choices, best first by the score it ranks by (its mean with
                # pineapple's fantasy price, less its charges on fouls; the value is the mean with
                # the weights' fantasy price), the first being the hinted action (a fantasy hand
                # has the solver's one board), each with its share of fouled play-outs (None: not
                # played out, a fantasy set or a forced move)
                scores = [c["score"] for c in hint["choices"]]
                assert 1 <= len(scores) <= 3
                assert scores == sorted(scores, reverse=True)
                assert all(isinstance(c["value"], float) for c in hint["choices"])
                assert hint["choices"][0]["value"] == hint["value"]
                assert all(c["foul"] is None or 0 <= c["foul"] <= 1 for c in hint["choices"])
                assert hint["choices"][0]["action"] == hint["action"]
                chosen = {key: hint["action"][key] for key in ("place", "discard")}
                ws.send_json({"type": "act", "token": seat["token"], **chosen})
                assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        assert sum(Fraction(p) for p in state["ledger"]["points"]) == 0
        assert state["hand_number"] >= 2
        assert sure > 0  # later streets, with fewer choices, always get enough play-outs


def test_a_rematch_opens_one_table_like_the_old_one_after_the_match(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        settings = {"point_value": 2, "hand_seconds": 30}
        table = create_table(client, name="duel", preset="turbo", seats=2, bots=[None, "random"], settings=settings)
        seat = join(client, table["id"], "ann")
        early = client.post(f"/api/tables/{table['id']}/rematch")
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "not_finished"
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            final = play_to_end(ws, seat["token"], random.Random(5))
            assert final["rematch"] is None
            answer = client.post(f"/api/tables/{table['id']}/rematch")
            assert answer.status_code == 200
            again = answer.json()
            told = until(ws, lambda m: m["type"] == "state" and m["rematch"] is not None)
            assert told["rematch"] == again["id"] != table["id"]
        assert (again["name"], again["status"], again["open_seats"]) == ("duel", "waiting", [0])
        assert again["rules"] == table["rules"]
        assert [s["bot"] for s in again["seats"]] == [None, "random"]
        assert client.post(f"/api/tables/{table['id']}/rematch").json()["id"] == again["id"]
        assert len(client.get("/api/tables").json()["tables"]) == 2
        rejoined = client.post(f"/api/tables/{again['id']}/join", json={"name": "ann", "key": seat["player_key"]})
        assert rejoined.json()["seat"] == 0
        assert client.post("/api/tables/99/rematch").json()["error"]["code"] == "no_table"


def test_the_rematch_link_and_the_clocks_survive_a_restart(tmp_path: Path) -> None:
    """The server's clock plays ann's turns (5 s each, no bank); then the server restarts twice."""
    clock = FakeClock(1000)
    settings = {"hand_seconds": 5, "time_bank_seconds": 0}
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        table = create_table(client, preset="turbo", seats=2, bots=[None, "random"], settings=settings)
        join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            state = receive(ws)
            while not state["finished"]:
                clock.move(6)
                ws.send_json({"type": "sync"})
                state = until(ws, lambda m: m["type"] == "state")
        first = client.post(f"/api/tables/{table['id']}/rematch").json()
        rematch = join(client, first["id"], "bob")  # bob takes the open seat: the rematch starts
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        again = client.post(f"/api/tables/{table['id']}/rematch").json()
        assert again["id"] == first["id"]
        assert (again["status"], again["open_seats"]) == ("playing", [])
        with client.websocket_connect(f"/ws/tables/{first['id']}") as ws:
            ws.send_json({"type": "hello", "token": rematch["token"]})
            state = until(ws, lambda m: my_turn(m))
            left = Fraction(state["hand"]["seats"][state["hand"]["seat"]]["clock"]["hand"])
    clock.move(3600)  # an hour down: bob's clock goes on where the last stored event left it
    with TestClient(make_app(tmp_path, clock=clock)) as client:
        game = app_state(client).manager.tables[first["id"]].game
        assert game.time.offset >= 3600
        with client.websocket_connect(f"/ws/tables/{first['id']}") as ws:
            ws.send_json({"type": "hello", "token": rematch["token"]})
            state = until(ws, lambda m: my_turn(m))
            assert Fraction(state["hand"]["seats"][state["hand"]["seat"]]["clock"]["hand"]) == left
            ws.send_json({"type": "act", "token": rematch["token"], **random_move(state, random.Random(1))})
            assert until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        times = [Decimal(a.time) for h in game.store.load_hands(first["id"]) for a in h.actions]
        assert times == sorted(times)
        assert max(times) < 2000  # table time: the hour of downtime is not in it
