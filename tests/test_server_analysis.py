"""A seat's analysis of its finished hands on the server (issue 15: the browser's hand history
shows the same analysis as ``ofc analyze``).

``POST /api/tables/{id}/hands/{number}/analysis`` answers ``ofc.bots.analysis.analyse_seat`` of the
asking seat, worked out on the decision pool; only that seat's decisions, priced from its own
views, so the answer names no card it could not see.
"""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ofc.bots.analysis import analyse_seat
from ofc.server.decisions.workers import warm_kernels
from ofc.server.net.ratelimit import RULES, Rule
from support.server import FakeClock, app_state, create_table, join, make_app, play_to_end

FIRST = "/api/tables/{table}/hands/{hand}/analysis"


def _cards(action: dict[str, Any]) -> set[str]:
    return {card for card, _row in action["place"]} | set(action["discard"])


def _play(client: TestClient, table: int, token: str, seed: int) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": token})
        return play_to_end(ws, token, random.Random(seed))


@pytest.mark.slow
def test_a_seat_analyses_its_own_finished_hands_and_nothing_else(tmp_path: Path) -> None:
    warm_kernels()  # as the product does before it reports ready
    clock = FakeClock()
    limits = RULES | {"analysis": Rule(1, Decimal(20))}  # one analysis, then one every 20 s
    with TestClient(make_app(tmp_path, clock=clock, rate_limits=limits)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"])["id"]
        ann = join(client, table, "ann")
        final = _play(client, table, ann["token"], 3)
        assert final["hand_number"] >= 1  # two hands or more to analyse
        store = app_state(client).store
        document = store.history(table, 0)

        answer = client.post(FIRST.format(table=table, hand=0), json={"token": ann["token"]})
        assert answer.status_code == 200, answer.text
        analysis = answer.json()
        # exactly what the analysis gives for ann's seat of the full record (seeded: reproducible)
        assert analysis == analyse_seat(document, 0)
        # her five decisions of a pineapple hand, in order, each the move she played
        mine = [a for a in document["actions"] if a["seat"] == 0]
        assert len(analysis["decisions"]) == len(mine) == 5
        for decision, action in zip(analysis["decisions"], mine, strict=True):
            assert _cards(decision["played"]) == _cards(action)
            assert decision["street"] == analysis["decisions"].index(decision)
            if decision["kind"] == "street":
                assert decision["loss"] >= 0.0
                assert decision["ci95"] >= 0.0
                # the best choice holds her own cards of that street and nothing else
                assert _cards(decision["best"]) == _cards(action)
        assert analysis["total_loss"] == sum(d["loss"] or 0.0 for d in analysis["decisions"])

        # the second hand: over the limit (one, then one every 20 s), nothing worked out
        later = client.post(FIRST.format(table=table, hand=1), json={"token": ann["token"]})
        assert (later.status_code, later.json()["error"]["code"]) == (429, "rate_limited")
        assert later.headers["Retry-After"] == "20"
        # an answer already worked out is free
        assert client.post(FIRST.format(table=table, hand=0), json={"token": ann["token"]}).json() == analysis
        clock.move(20)
        again = client.post(FIRST.format(table=table, hand=1), json={"token": ann["token"]})
        assert again.status_code == 200
        assert again.json() == analyse_seat(store.history(table, 1), 0)

        # refusals name what is wrong
        wrong = client.post(FIRST.format(table=table, hand=0), json={"token": "not-a-seat"})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "bad_token")
        for hand in (final["hand_number"] + 1, -1, 2**31, 10**30):  # past any database integer: no query
            missing = client.post(FIRST.format(table=table, hand=hand), json={"token": ann["token"]})
            assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_hand")
        for table_id in (9999, 2**31, 10**30):
            nowhere = client.post(FIRST.format(table=table_id, hand=0), json={"token": ann["token"]})
            assert (nowhere.status_code, nowhere.json()["error"]["code"]) == (404, "no_table")
            for other in (
                client.post(f"/api/tables/{table_id}/rematch"),
                client.post(f"/api/tables/{table_id}/hands", json={"token": ann["token"]}),
            ):
                assert (other.status_code, other.json()["error"]["code"]) == (404, "no_table")


@pytest.mark.slow
def test_a_table_without_hints_is_analysed_only_once_its_match_is_over(tmp_path: Path) -> None:
    warm_kernels()
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"], hints=False)["id"]
        bob = join(client, table, "bob")
        running = client.post(FIRST.format(table=table, hand=0), json={"token": bob["token"]})
        assert (running.status_code, running.json()["error"]["code"]) == (409, "no_hints")
        _play(client, table, bob["token"], 4)
        over = client.post(FIRST.format(table=table, hand=0), json={"token": bob["token"]})
        assert over.status_code == 200
        assert over.json() == analyse_seat(app_state(client).store.history(table, 0), 0)
