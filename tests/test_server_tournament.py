"""Sit-and-go tournaments on the server: the lobby, the state, and where the money goes.

Money rules (docs/server.md): a person's buy-in leaves their balance when they sit and comes
back if they leave before the start; the house account pays the bots' buy-ins at the start
and receives their prizes; the prizes (the buy-ins of every seat, split by ``payouts``) go
into the balances when the tournament ends.
"""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

import random
import uuid
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from ofc.rules.rulebook import Rules
from ofc.server.db.storage import FINISHED, TOURNAMENT, Storage
from ofc.server.tables.game import TableGame
from support.server import StandInBot, create_table, join, make_app, play_to_end, seeded_decks, until
from test_server_storage import db_url  # noqa: F401  (the sqlite + postgresql fixture)

SHORT = {"buy_in": 100, "starting_chips": 30, "level_hands": 1, "chips_per_point": "5,10,20,40", "payouts": "0.7,0.3"}
"""A short tournament: 30 chips each, one hand per level, 5 then 10, 20, 40 chips a point."""


def _balance(client: TestClient, name: str) -> Fraction:
    return Fraction(client.get(f"/api/players/{name}").json()["balance"])


def _house(client: TestClient) -> Fraction:
    return Fraction(client.get("/api/house").json()["balance"])


def _prize(places: list[dict[str, int] | None], seat: int) -> Fraction:
    """Seat's prize of a 300 pool paid 70% / 30%, worked out by hand.

    Untied: 1st 210, 2nd 90, 3rd 0. Tied players share their places' prizes: two tied for
    2nd share (90 + 0) / 2 = 45 each; three tied cannot happen (the last one left wins).
    """
    finish = places[seat]
    assert finish is not None
    table = {(1, 1): 210, (2, 1): 90, (3, 1): 0, (2, 2): 45}
    return Fraction(table[finish["place"], finish["tied"]])


def test_one_person_and_two_bots_play_a_tournament_and_the_money_adds_up(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, kind="tournament", seats=3, bots=[None, "random", "random"], settings=SHORT)
        assert table["kind"] == "tournament"
        seat = join(client, table["id"], "ann")
        # 1000 to start, the buy-in of 100 taken at the seat; the house paid the bots' 2 x 100.
        assert _balance(client, "ann") == 900
        assert _house(client) == -200
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            first = until(ws, lambda m: m["type"] == "state")
            facts = first["tournament"]
            assert first["ledger"] is None
            assert facts["chips"] == [30, 30, 30]
            assert (facts["level"], facts["chips_per_point"], facts["next_chips_per_point"]) == (0, 5, 10)
            assert (facts["hands_left"], facts["hands_played"]) == (1, 0)
            assert (facts["buy_in"], facts["prize_pool"], facts["payouts"]) == ("100", "300", ["0.7", "0.3"])
            assert facts["places"] == [None, None, None]
            assert facts["prizes"] is None
            final = play_to_end(ws, seat["token"], random.Random(3))
        facts = final["tournament"]
        played = facts["hands_played"]
        assert played >= 1
        assert facts["level"] == min(played, 3)  # one hand per level, the fourth level lasts
        assert facts["hands_left"] is None or facts["hands_left"] == 1
        assert sorted(facts["chips"]) == [0, 0, 90]  # the winner holds every chip
        places = facts["places"]
        assert all(place is not None for place in places)
        prizes = [Fraction(prize) for prize in facts["prizes"]]
        assert prizes == [_prize(places, s) for s in range(3)]
        assert sum(prizes) == 300
        ann, house = _balance(client, "ann"), _house(client)
        assert ann == 900 + prizes[0]
        assert house == -200 + prizes[1] + prizes[2]
        assert (ann - 1000) + house == 0  # nothing appeared, nothing vanished
        again = client.post(f"/api/tables/{table['id']}/rematch").json()
        assert (again["kind"], again["rules"]["buy_in"], again["open_seats"]) == ("tournament", 100, [0])
        assert _balance(client, "ann") == ann  # nobody has bought in yet


def test_a_buy_in_is_taken_at_the_seat_and_given_back_only_when_leaving_before_the_start(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, kind="tournament", seats=2, bots=[None, None], settings={"buy_in": 250})
        seat = join(client, table["id"], "ann")
        assert _balance(client, "ann") == 750
        left = client.post(f"/api/tables/{table['id']}/leave", json={"token": seat["token"]})
        assert left.status_code == 200, left.text
        assert _balance(client, "ann") == 1000
        assert _house(client) == 0  # no bot, nothing from the house
        body = {"name": "ann", "seat": 1, "key": seat["player_key"]}
        again = client.post(f"/api/tables/{table['id']}/join", json=body).json()
        assert _balance(client, "ann") == 750
        join(client, table["id"], "bob")  # the tournament starts: leaving no longer gives the buy-in back
        late = client.post(f"/api/tables/{table['id']}/leave", json={"token": again["token"]})
        assert late.status_code == 200, late.text
        assert late.json()["seats"][1]["stand_in"] == "heuristic"  # the bot plays ann's seat on
        assert (_balance(client, "ann"), _balance(client, "bob")) == (750, 750)


def test_a_balance_too_small_for_the_buy_in_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, start_balance=50)) as client:
        table = create_table(client, kind="tournament", seats=2, bots=[None, "random"], settings={"buy_in": 60})
        answer = client.post(f"/api/tables/{table['id']}/join", json={"name": "ann"})
        assert answer.status_code == 409
        error = answer.json()["error"]
        assert error["code"] == "balance"
        assert error["message"] == "seat 0: ann's balance 50 does not cover the buy-in of 60"
        assert client.get("/api/players/ann").status_code == 404  # not even created
        assert client.get("/api/tables").json()["tables"][0]["open_seats"] == [0]
        assert _house(client) == 0


def test_what_a_loss_limited_match_holds_cannot_pay_a_buy_in(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        match = create_table(client, seats=2, bots=[None, None], settings={"loss_limit": 60, "point_value": 10})
        seat = join(client, match["id"], "ann")  # holds 60 x 10 = 600 of 1000
        tournament = create_table(client, kind="tournament", seats=2, bots=[None, "random"], settings={"buy_in": 401})
        answer = client.post(f"/api/tables/{tournament['id']}/join", json={"name": "ann", "key": seat["player_key"]})
        assert answer.json()["error"]["message"] == (
            "seat 0: ann's balance 1000 (600 of it held at other tables) does not cover the buy-in of 401"
        )
        tournament = create_table(client, kind="tournament", seats=2, bots=[None, "random"], settings={"buy_in": 400})
        answer = client.post(f"/api/tables/{tournament['id']}/join", json={"name": "ann", "key": seat["player_key"]})
        assert answer.status_code == 200, answer.text
        assert _balance(client, "ann") == 600  # 400 bought in, 600 still held by the match
        other = create_table(client, seats=2, bots=[None, None], settings={"loss_limit": 1, "point_value": 1})
        short = client.post(f"/api/tables/{other['id']}/join", json={"name": "ann", "key": seat["player_key"]})
        assert short.json()["error"]["code"] == "balance"  # 600 - 600 held leaves nothing


def test_impossible_tournaments_are_refused(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        cases: list[tuple[dict[str, Any], str]] = [
            ({"seats": 2, "settings": {"payouts": "0.5,0.3,0.2"}}, "setting payouts: 3 places paid but 2 players"),
            ({"seats": 4, "preset": "pineapple"}, "players"),
            ({"seats": 2, "settings": {"chips_per_point": "10,5"}}, "chips_per_point: levels must not decrease"),
            ({"seats": 2, "settings": {"starting_chips": 0}}, "starting_chips"),
        ]
        for body, words in cases:
            answer = client.post("/api/tables", json={"kind": "tournament", **body})
            assert answer.status_code == 400, body
            assert words in answer.json()["error"]["message"], answer.json()
        kind = client.post("/api/tables", json={"kind": "league"})
        assert (kind.status_code, kind.json()["error"]["code"]) == (422, "bad_request")
        assert client.get("/api/tables").json()["tables"] == []


# ---------------------------------------------------------------------- the table itself


def _drive(game: TableGame, rng: random.Random, now: Decimal, stop: int | None = None) -> Decimal:
    """Play random legal moves for every seat until the end (or until hand ``stop`` is dealt)."""
    bots = {seat: StandInBot(rng.randrange(1000)) for seat in range(len(game.seats))}
    while game.status != FINISHED and (stop is None or game.hand_number < stop):
        now += 1
        game.sync(now)
        hand, session = game.hand, game.session
        if hand is None or hand.is_over or session is None:
            continue
        seat = session.plan.seats[hand.to_act[0]]
        view = game.view(seat)
        assert view is not None
        data = bots[seat].act(view).to_dict()
        game.act(seat, data["place"], data["discard"], now)
    return now


def _tournament(store: Storage, rules: Rules, kinds: list[str | None], names: list[str]) -> TableGame:
    table = store.add_table("t", rules.to_dict(), kinds, TOURNAMENT)
    game = TableGame(table, "t", rules, kinds, store, decks=seeded_decks, kind=TOURNAMENT)
    people = iter(names)
    for seat, kind in enumerate(kinds):
        if kind is None:
            name = next(people)
            store.ensure_player(name, Fraction(1000))
            game.sit(seat, name, f"{seat}" * 64)
    return game


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    players=st.integers(2, 3),
    bots=st.lists(st.booleans(), min_size=3, max_size=3),
    payouts=st.sampled_from(["1", "0.6,0.4", "0.5,0.3,0.2", "0.75,0.25"]),
    buy_in=st.sampled_from(["0", "10", "33.33", "100"]),
    seed=st.integers(0, 10_000),
)
def test_a_finished_tournament_changes_the_balances_and_the_house_by_zero_in_all(
    tmp_path: Path, players: int, bots: list[bool], payouts: str, buy_in: str, seed: int
) -> None:
    if len(payouts.split(",")) > players:
        payouts = "1"
    settings_ = {"players": players, "buy_in": buy_in, "payouts": payouts, "starting_chips": 20}
    rules = Rules.preset("pineapple").with_settings(settings_ | {"level_hands": 1, "chips_per_point": "5,20,80"})
    store = Storage(f"sqlite:///{tmp_path / f'{uuid.uuid4().hex}.db'}")  # one database per example
    try:
        kinds: list[str | None] = ["random" if bot else None for bot in bots[:players]]
        names = [f"p{seat}" for seat in range(players)]
        game = _tournament(store, rules, kinds, names)
        game.start(seed % players, Decimal(0))
        _drive(game, random.Random(seed), Decimal(0))
        people = names[: kinds.count(None)]
        changes = sum((store.balance(name) or Fraction(0)) - 1000 for name in people)
        assert changes + store.house_balance() == 0
        prizes = [Fraction(prize) for prize in game.tournament()["prizes"]]  # type: ignore[index]
        seated = [s for s, kind in enumerate(kinds) if kind is None]
        for name, s in zip(people, seated, strict=True):
            assert store.balance(name) == 1000 - Fraction(Decimal(buy_in)) + prizes[s]
        assert sum(prizes) == Fraction(Decimal(buy_in)) * players
        assert store.house_balance(game.id) == sum(
            prizes[s] - Fraction(Decimal(buy_in)) for s, kind in enumerate(kinds) if kind is not None
        )
    finally:
        store.close()


def test_a_tournament_restored_from_storage_is_the_same_and_pays_once(db_url: str) -> None:  # noqa: F811
    rules = Rules.preset("classic").with_settings({"players": 3, **SHORT, "level_hands": 2, "starting_chips": 300})
    store = Storage(db_url)
    try:
        game = _tournament(store, rules, [None, "random", None], ["ann", "bob"])
        game.start(1, Decimal(0))
        rng = random.Random(11)
        now = _drive(game, rng, Decimal(0), stop=2)
        assert game.status != FINISHED
        again = TableGame.restore(store.load_tables()[0], store, decks=seeded_decks)
        assert again.kind == TOURNAMENT
        assert again.state(0) == game.state(0)
        facts = again.state(None)["tournament"]
        # Two hands a level at 5, 10, 20, 40 chips a point: the third hand opens level 1 (10
        # chips a point) with both its hands to play, then 20.
        assert (facts["hands_played"], facts["level"], facts["chips_per_point"]) == (2, 1, 10)
        assert (facts["hands_left"], facts["next_chips_per_point"]) == (2, 20)
        assert facts["last_hand"]["level"] == 0
        assert facts["last_hand"]["chips_per_point"] == 5
        _drive(again, rng, now)
        prizes = [Fraction(prize) for prize in again.state(None)["tournament"]["prizes"]]
        balances = [store.balance("ann"), store.balance("bob")]
        assert balances == [900 + prizes[0], 900 + prizes[2]]
        assert store.house_balance() == prizes[1] - 100
        final = TableGame.restore(store.load_tables()[0], store)
        assert final.status == FINISHED
        assert final.state(None)["tournament"] == again.state(None)["tournament"]
        assert [store.balance("ann"), store.balance("bob")] == balances  # paid once, not again
        assert store.house_balance() == prizes[1] - 100
    finally:
        store.close()
