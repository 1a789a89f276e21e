"""The keep page's API on SQLite and PostgreSQL: a hand-worked book, resends, edits, errors, QR."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ofc.server.app import create_app
from ofc.server.settings import ServerSettings
from support.keep_books import (
    CLASSIC_BUTTONS,
    CLASSIC_HANDS,
    CLASSIC_MONEY,
    CLASSIC_POINTS,
    CLASSIC_SETTLEMENT,
    CLASSIC_TOTALS,
    PINEAPPLE_BUTTONS,
    PINEAPPLE_HANDS,
    PINEAPPLE_MONEY,
    PINEAPPLE_POINTS,
    PINEAPPLE_SETTLEMENT,
    PINEAPPLE_TOTALS,
)
from test_server_storage import db_url  # noqa: F401  (the sqlite / postgresql fixture)

NEW = {"players": ["ann", "bob", "cat"], "preset": "pineapple", "settings": {"point_value": "0.5"}, "button": "ann"}


def _client(url: str) -> TestClient:
    return TestClient(create_app(ServerSettings(db_url=url, pause=Decimal(0), bot_delay=0)))


def _put(client: TestClient, book: dict[str, Any], number: int, hand: dict[str, str]) -> Any:
    return client.put(f"/api/keep/{book['code']}/hands/{number}", json={"key": book["key"], "hand": hand})


def test_a_book_kept_through_the_api(db_url: str) -> None:  # noqa: F811
    with _client(db_url) as client:
        response = client.post("/api/keep", json=NEW)
        assert response.status_code == 201, response.text
        book = response.json()
        assert book["next"] == {
            "number": 1,
            "button": "ann",
            "order": ["bob", "cat", "ann"],
            "fantasy": {},
            "discards": {"bob": 4, "cat": 4, "ann": 4},
        }
        for number, hand in enumerate(PINEAPPLE_HANDS, start=1):
            response = _put(client, book, number, hand)
            assert response.status_code == 200, response.text
            if number == 1:
                # Resending hand 1 (its answer lost) changes nothing.
                assert _put(client, book, 1, hand).json()["hands"] == response.json()["hands"]
                assert response.json()["next"]["fantasy"] == {"cat": 14}
                assert response.json()["next"]["discards"]["cat"] == 1
        state = client.get(f"/api/keep/{book['code']}").json()
        assert [hand["points"] for hand in state["hands"]] == PINEAPPLE_POINTS
        assert [hand["button"] for hand in state["hands"]] == PINEAPPLE_BUTTONS
        assert state["totals"] == {"points": PINEAPPLE_TOTALS, "money": PINEAPPLE_MONEY}
        assert state["settlement"] == PINEAPPLE_SETTLEMENT
        assert state["over"] is True
        assert state["hands"][0]["players"]["cat"]["royalties"]["top"] == 7
        names = ["Pair, queens", "Two pair, kings and eights", "Trips, aces"]
        assert state["hands"][0]["players"]["cat"]["hands"] == names
        assert {"a": "bob", "b": "cat", "rows": [-1, -1, 1], "scoop": 0, "royalties": -1, "total": -2} in (
            state["hands"][0]["pairs"]
        )
        # The book is over: a sixth hand is refused, a new book follows with the button moved on.
        refused = _put(client, book, 6, PINEAPPLE_HANDS[0])
        assert refused.status_code == 422
        assert refused.json()["error"]["message"] == "hand 6: the match is over after 5 hands; start a new book"
        following = client.post("/api/keep", json={"after": book["code"], "key": book["key"]}).json()
        assert following["book"]["button"] == "ann"
        assert following["previous"] == book["code"]
        assert client.get(f"/api/keep/{book['code']}").json()["following"] == following["code"]


def test_edits_deletes_keys_and_bad_hands(tmp_path: Path) -> None:
    with _client(f"sqlite:///{tmp_path / 'ofc.db'}") as client:
        book = client.post("/api/keep", json=NEW).json()
        code = book["code"]
        for number, hand in enumerate(PINEAPPLE_HANDS[:3], start=1):
            assert _put(client, book, number, hand).status_code == 200
        # A card on two boards: a 422 naming it, with the field for the page, nothing stored.
        bad = dict(PINEAPPLE_HANDS[3]) | {"bob": "Kc 3d 4h / 8c 8d 9h Ts Js / 9c Tc Jc Qc 8h"}
        refused = _put(client, book, 4, bad)
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert {key: error[key] for key in ("code", "message", "field")} == {
            "code": "bad_book",
            "message": "hand 4: card Kc is entered for both ann and bob",
            "field": "bob",
        }
        assert error["template"] == "hand {hand}: card {card} is entered for both {first} and {name}"
        assert error["params"] == {"hand": 4, "card": "Kc", "first": "ann", "name": "bob"}  # for the page to translate
        short = _put(client, book, 4, dict(PINEAPPLE_HANDS[3]) | {"cat": "Qh Jh / 2s 2d 9s 9d Kh / As Ah 3s 3h Ks"})
        assert short.json()["error"]["field"] == "cat.top"
        assert len(client.get(f"/api/keep/{code}").json()["hands"]) == 3
        # The share link's code reads but cannot write.
        assert client.put(f"/api/keep/{code}/hands/4", json={"key": "nope", "hand": {}}).status_code == 403
        assert _put(client, book, 9, PINEAPPLE_HANDS[3]).status_code == 409
        # Edit hand 3 (bob fouled instead of dead): same points; then undo the last hand.
        fouled = dict(PINEAPPLE_HANDS[2]) | {"bob": "Ac Ad 2d / Kd Ks 3c 4c 5c / Qd Qs 7h 8c 9s"}
        edited = _put(client, book, 3, fouled).json()
        assert edited["hands"][2]["players"]["bob"]["dead"] is False
        assert [hand["points"] for hand in edited["hands"]] == PINEAPPLE_POINTS[:3]
        stale = client.delete(f"/api/keep/{code}/hands/3", params={"key": book["key"], "count": 2})
        assert stale.status_code == 409
        after = client.delete(f"/api/keep/{code}/hands/3", params={"key": book["key"], "count": 3}).json()
        assert len(after["hands"]) == 2
        assert after["next"]["button"] == "bob"
        # Deleting hand 1 would leave hand 2 (cat's fantasy board, scored as a normal hand) in
        # place: allowed, and everything after it is scored again.
        again = client.delete(f"/api/keep/{code}/hands/1", params={"key": book["key"], "count": 2}).json()
        assert [hand["points"] for hand in again["hands"]] == [PINEAPPLE_POINTS[1]]
        assert again["hands"][0]["fantasy"] == {}
        assert again["next"]["fantasy"] == {"cat": 14}


def test_new_book_errors_and_the_qr_code(tmp_path: Path) -> None:
    with _client(f"sqlite:///{tmp_path / 'ofc.db'}") as client:
        refused = client.post("/api/keep", json=NEW | {"players": ["ann", "bob", "cat", "dan"]})
        assert refused.status_code == 422
        assert refused.json()["error"]["message"] == "pineapple is played by 2-3 players, got 4"
        refused = client.post("/api/keep", json=NEW | {"settings": {"loss_limit": "-3"}})
        assert refused.json()["error"]["field"] == "rules"
        book = client.post("/api/keep", json=NEW).json()
        assert client.post("/api/keep", json={"after": book["code"], "key": book["key"]}).status_code == 409
        svg = client.get(f"/api/keep/{book['code']}/qr.svg")
        assert svg.status_code == 200
        assert svg.headers["content-type"] == "image/svg+xml"
        assert svg.text.startswith("<svg")
        assert client.get("/api/keep/nothing").status_code == 404
        page = client.get("/keep")
        assert page.status_code == 200
        assert "keep.js" in page.text


def test_the_classic_book_with_its_loss_limit(tmp_path: Path) -> None:
    with _client(f"sqlite:///{tmp_path / 'ofc.db'}") as client:
        new = {
            "players": ["ann", "bob", "cat", "dan"],
            "preset": "classic",
            "button": "ann",
            "settings": {"loss_limit": 40, "point_value": "0.25"},
        }
        book = client.post("/api/keep", json=new).json()
        for number, hand in enumerate(CLASSIC_HANDS[:2], start=1):
            state = _put(client, book, number, hand).json()
        assert state["left"] == ["dan"]
        assert state["next"]["order"] == ["cat", "ann", "bob"]
        assert state["hands"][1]["players"]["dan"]["before_limit"] == -18
        assert state["hands"][1]["players"]["dan"]["points"] == -9
        refused = _put(client, book, 3, CLASSIC_HANDS[1])
        assert refused.json()["error"]["message"] == "hand 3: dan left the match at the loss limit and is not dealt in"
        for number, hand in enumerate(CLASSIC_HANDS[2:], start=3):
            state = _put(client, book, number, hand).json()
        assert [hand["points"] for hand in state["hands"]] == CLASSIC_POINTS
        assert [hand["button"] for hand in state["hands"]] == CLASSIC_BUTTONS
        assert state["totals"] == {"points": CLASSIC_TOTALS, "money": CLASSIC_MONEY}
        assert state["settlement"] == CLASSIC_SETTLEMENT
        assert state["over"] is True
