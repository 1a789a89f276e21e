"""Hand histories for the browser (issue 14): a seat's own copies, never the full record.

``POST /api/tables/{id}/hands`` answers, for the seat's token, every finished hand as
``HandHistory.copy_for`` that seat: no deck, the bot's pineapple discards face-down, the
player's own discards in. The copies pass ``ofc.formats.history.check_copy`` (their placements build
the recorded boards, which score as recorded).
"""

from __future__ import annotations

import random
from pathlib import Path

from starlette.testclient import TestClient

from ofc.formats.history import check_copy, read
from support.server import create_table, join, make_app, my_turn, random_move, until


def test_a_seat_gets_its_own_copy_of_each_finished_hand(tmp_path: Path) -> None:
    rng = random.Random(5)
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "x"])
        token = join(client, table["id"], "ann", 0)["token"]
        before = client.post(f"/api/tables/{table['id']}/hands", json={"token": token})
        assert before.status_code == 200
        assert before.json()["hands"] == []
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": token, "id": 0})
            number = 1
            while True:
                message = until(ws, lambda m: my_turn(m) or bool(m.get("previous")))
                if message.get("previous"):
                    break
                ws.send_json(random_move(message, rng) | {"token": token, "id": number})
                number += 1
        answer = client.post(f"/api/tables/{table['id']}/hands", json={"token": token}).json()
        assert answer["seat"] == 0
        assert answer["name"] == "ann"
        assert [item["number"] for item in answer["hands"]][:1] == [0]
        doc = answer["hands"][0]["history"]
        mine = doc["seats"].index("ann")
        assert doc["viewer"] == mine
        assert doc["deck"] is None
        # pineapple: 5 streets each; streets 2-5 discard one card (RULES.md), so each seat
        # makes 5 actions, 4 of them with a discard: ann's are shown, the bot's face-down
        own = [a for a in doc["actions"] if a["seat"] == mine]
        other = [a for a in doc["actions"] if a["seat"] != mine]
        assert len(own) == len(other) == 5
        assert [len(a["discard"]) for a in own] == [0, 1, 1, 1, 1]
        assert [len(a["discard"]) for a in other] == [0, 0, 0, 0, 0]
        assert [a.get("hidden_discards", 0) for a in other] == [0, 1, 1, 1, 1]
        assert check_copy(read(doc)) is not None
        # the stats add up that one finished hand (its result as recorded, one point = 1 money)
        me = doc["result"]["players"][mine]
        stats = client.get("/api/players/ann/stats").json()["variants"]
        assert stats == {
            "pineapple": {
                "hands": 1,
                "points": me["points"],
                "money": str(me["points"]),
                "foul_rate": 1.0 if me["fouled"] else 0.0,
                "fantasy_rate": 1.0 if me["fantasy"] else 0.0,
            }
        }
        assert client.get("/api/players/nobody/stats").status_code == 404
        wrong = client.post(f"/api/tables/{table['id']}/hands", json={"token": token + "x"})
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "bad_token"
        missing = client.post("/api/tables/99/hands", json={"token": token})
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "no_table"
