"""Play money is never minted: stakes held at every table with people, the house backs the bots.

Issue 13, finding 5: a table without a loss limit held nothing (balances reached -6e12) and
bots won money from nowhere. Now a match with a person's seat always has a loss limit (the
server's default when none is given), each settled result is whole cents, and the house
takes the bot seats' side: the balances plus the house change only by the new players' grants.
"""

from __future__ import annotations

import tempfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from ofc.series.match import Match
from ofc.server.db.storage import FINISHED
from ofc.server.tables.game import SeatInfo
from ofc.server.tables.money import ROUNDING_SEAT, cents, in_cents, money_text, settle_match
from support.server import FakeClock, app_state, create_table, make_app, until

F = Fraction


def test_cents_round_toward_zero_and_text_is_decimal() -> None:
    # 10/3 = 3.333..: 3.33; -10/3: -3.33 (a loss never grows); -1/1000 rounds to nothing.
    assert [cents(F(10, 3)), cents(F(-10, 3)), cents(F(-1, 1000)), cents(F(5))] == [
        F(333, 100), F(-333, 100), F(0), F(5),
    ]  # fmt: skip
    assert [money_text(v) for v in (F(1000), F(2025, 2), F(-3, 100), F(98734, 100), F(0))] == [
        "1000", "1012.5", "-0.03", "987.34", "0",
    ]  # fmt: skip
    assert money_text(F(3001, 3)) == "1000.33"  # a balance stored as a fraction by an older version
    assert in_cents(Decimal("12.34"))
    assert not in_cents(Decimal("0.125"))


def test_a_match_settles_people_in_cents_and_the_house_takes_the_bots_and_the_rest() -> None:
    # Ledger money per table seat (sums to zero): ann +10/3, a bot -5/3, bob -5/3.
    # Rounded toward zero: ann 3.33, bot -1.66, bob -1.66; they sum to 0.01, so the house's
    # rounding entry is -0.01 and everything settled sums to zero.
    seats = [SeatInfo(None, "ann"), SeatInfo("mc"), SeatInfo(None, "bob")]
    people, house = settle_match([F(10, 3), F(-5, 3), F(-5, 3)], seats)
    assert people == {"ann": F(333, 100), "bob": F(-166, 100)}
    assert house == {1: F(-166, 100), ROUNDING_SEAT: F(-1, 100)}
    assert sum(people.values()) + sum(house.values()) == 0
    # Two bots and one person, exact in cents: no rounding entry.
    people, house = settle_match([F(-12), F(7), F(5)], [SeatInfo(None, "cy"), SeatInfo("mc"), SeatInfo("random")])
    assert (people, house) == ({"cy": F(-12)}, {1: F(7), 2: F(5)})


def test_a_table_for_people_always_holds_a_stake(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=250, loss_limit=100)) as client:
        # No loss limit given: the server's 100 points apply, at 2 a point: 200 held.
        first = create_table(client, seats=2, bots=[None, "random"], settings={"point_value": 2})
        assert first["rules"]["loss_limit"] == 100
        ann = client.post(f"/api/tables/{first['id']}/join", json={"name": "ann"}).json()
        second = create_table(client, seats=2, bots=[None, "random"])
        body = {"name": "ann", "key": ann["player_key"]}
        refused = client.post(f"/api/tables/{second['id']}/join", json=body)
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "balance")
        assert "200 of it held" in refused.json()["error"]["message"]  # 250 - 200 < 100
        assert client.get("/api/players/ann").json() == {"name": "ann", "balance": "250"}
        assert client.get("/api/house").json() == {"balance": "0"}
        cents = client.post("/api/tables", json={"kind": "tournament", "settings": {"buy_in": "0.125"}})
        error = cents.json()["error"]
        assert (error["code"], error["field"]) == ("bad_table", None)
        assert error["message"] == "setting buy_in: money is counted in whole cents, not 0.125"
        assert error["params"] == {"buy_in": "0.125"}


def _play_out(client: TestClient, clock: FakeClock, table: int) -> dict[str, Any]:
    """Let the table's clocks place every person's cards until its match ends; the last state."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        for _ in range(400):
            clock.move(5)  # past the 1 s hand clock: the server places the people's cards
            ws.send_json({"type": "sync"})
            state = until(ws, lambda m: m["type"] == "state")
            if state["finished"]:
                return state
    raise AssertionError(f"table {table} did not finish")


TABLES = st.lists(
    st.tuples(
        st.lists(st.sampled_from([None, None, "random"]), min_size=2, max_size=3),  # a person or a bot per seat
        st.sampled_from([None, "3", "10", "40"]),  # the loss limit (None: the server's default, 25)
        st.sampled_from(["1", "0.5", "0.07", "3"]),  # money per point (0.07: shares not in whole cents)
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables=TABLES, order=st.permutations(["ann", "bob", "cy"]))
def test_balances_plus_the_house_are_conserved_across_matches_with_bots_and_people(
    tables: list[tuple[list[str | None], str | None, str]], order: list[str]
) -> None:
    clock = FakeClock()
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(make_app(Path(folder), clock=clock, start_balance=90, loss_limit=25)) as client,
    ):
        manager = app_state(client).manager
        keys: dict[str, str] = {}
        started: list[int] = []
        for bots, limit, point_value in tables:
            rules = {"point_value": point_value, "hand_seconds": 1, "time_bank_seconds": 0, "fantasy": False}
            if limit is not None:
                rules["loss_limit"] = limit
            table = create_table(client, preset="pineapple", seats=len(bots), bots=bots, settings=rules)
            names = iter(order)
            for _seat in table["open_seats"]:
                for name in names:  # the first of the players (in this order) whose free balance covers the stake
                    before = client.get(f"/api/players/{name}").json().get("balance")
                    body = {"name": name} | ({"key": keys[name]} if name in keys else {})
                    answer = client.post(f"/api/tables/{table['id']}/join", json=body)
                    if answer.status_code == 200:
                        keys.setdefault(name, answer.json().get("player_key", ""))
                        break
                    assert answer.json()["error"]["code"] in ("balance", "already_seated"), answer.json()
                    assert client.get(f"/api/players/{name}").json().get("balance") == before  # nothing changed
            if manager.tables[table["id"]].game.status != "waiting":
                started.append(table["id"])
        for table_id in started:
            _play_out(client, clock, table_id)
            assert manager.tables[table_id].game.status == FINISHED
            assert manager.tables[table_id].game.settled  # its stakes are free only now
            balances = [Fraction(client.get(f"/api/players/{name}").json()["balance"]) for name in keys]
            held = Fraction(client.get("/api/house").json()["balance"])
            assert sum(balances) + held == 90 * len(keys)  # only the new players' grants came in
            assert all(balance >= 0 for balance in balances)  # nobody lost more than their stake
        store = app_state(client).store
        for table_id in started:
            game = manager.tables[table_id].game
            assert isinstance(game.series, Match)
            people, house = settle_match(game.series.ledger.money, game.seats)
            assert store.house_balance(table_id) == sum(house.values())  # the house took the bots' side
            assert all(in_cents(amount) for amount in [*people.values(), *house.values()])
