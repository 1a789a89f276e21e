"""Storage and resume, on SQLite and on the real PostgreSQL server that scripts/services starts.

The PostgreSQL cases fail (they do not skip) when ``OFC_TEST_POSTGRES_URL`` is missing or the
server does not answer: the README's test command starts it.
"""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from ofc.rules.rulebook import Rules
from ofc.server.db.storage import FINISHED, ActionRow, Storage
from ofc.server.tables.game import TableGame
from support.pg_support import fresh_database
from support.server import (
    StandInBot,
    app_with,
    create_table,
    join,
    play_to_end,
    seeded_decks,
    stand_in_factory,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    with fresh_database() as url:
        yield url.render_as_string(hide_password=False)


def test_players_and_balances_are_exact_and_settle_once(db_url: str) -> None:
    store = Storage(db_url)
    try:
        assert store.balance("ann") is None
        assert store.ensure_player("ann", Fraction(1000)) == 1000
        assert store.ensure_player("ann", Fraction(5)) == 1000
        store.ensure_player("bob", Fraction(1000))
        table = store.add_table("t", Rules().to_dict(), [None, None])
        store.take_seat(table, 0, "ann", "a" * 64)
        store.take_seat(table, 1, "bob", "b" * 64)
        store.start_match(table, 1)
        # A match's results come settled to whole cents (ofc.server.tables.money.settle_match).
        store.finish_match(table, {"ann": Fraction(333, 100), "bob": Fraction(-333, 100)})
        store.finish_match(table, {"ann": Fraction(333, 100), "bob": Fraction(-333, 100)})
        assert store.balance("ann") == Fraction(100333, 100)
        assert store.balance("bob") == Fraction(99667, 100)
        with store.engine.connect() as db:  # stored as decimal text, never a float or a fraction
            stored = {row[0]: row[1] for row in db.execute(text("SELECT name, balance FROM players"))}
        assert stored == {"ann": "1003.33", "bob": "996.67"}
        [row] = store.load_tables()
        assert (row.status, row.button, row.bots) == (FINISHED, 1, [None, None])
        assert [(s.seat, s.player) for s in row.seats] == [(0, "ann"), (1, "bob")]
    finally:
        store.close()


def test_hands_and_actions_come_back_in_order(db_url: str) -> None:
    store = Storage(db_url)
    try:
        table = store.add_table("t", Rules().to_dict(), [None, "random"])
        store.add_hand(table, 0, ["Ah", "Kd"], "12.5")
        rows = [ActionRow(1, [["Ah", "top"]], [], "13", False), ActionRow(0, [["Kd", "bottom"]], ["2c"], "14.25", True)]
        store.add_actions(table, 0, 0, rows)
        store.add_action(table, 0, 2, rows[0])
        [hand] = store.load_hands(table)
        assert (hand.number, hand.deck, hand.start, hand.history) == (0, ["Ah", "Kd"], "12.5", None)
        assert hand.actions == [*rows, rows[0]]
        store.finish_hand(table, 0, {"result": 1}, {"points": ["1", "-1"]})
        assert store.history(table, 0) == {"result": 1}
        assert store.load_tables()[0].ledger == {"points": ["1", "-1"]}
    finally:
        store.close()


def _step(game: TableGame, rng: random.Random, now: Decimal) -> None:
    """One random legal action by the first seat to act."""
    hand = game.hand
    assert hand is not None
    hand_seat = hand.to_act[0]
    seat = game.session.plan.seats[hand_seat] if game.session else 0
    action = StandInBot(rng.randrange(10**6)).act(hand.view(hand_seat)).to_dict()
    game.act(seat, action["place"], action["discard"], now)


def _states(game: TableGame) -> list[dict[str, object]]:
    return [game.state(seat) for seat in (None, *range(len(game.seats)))]


def test_a_table_restored_from_storage_is_the_same_table(db_url: str) -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3, "hand_seconds": 20, "time_bank_seconds": 10})
    store = Storage(db_url)
    try:
        table = store.add_table("t", rules.to_dict(), [None, None, None])
        game = TableGame(table, "t", rules, [None, None, None], store, pause=Decimal(2), decks=seeded_decks)
        for seat, name in enumerate(("ann", "bob", "cy")):
            store.ensure_player(name, Fraction(1000))
            game.sit(seat, name, f"{seat}" * 64)
        game.start(2, Decimal(100))
        rng = random.Random(4)
        now = Decimal(100)
        for step in range(40):
            now += Decimal("1.5")
            if step == 7:
                now += 40
                assert game.sync(now)
            game.sync(now)
            if game.hand is not None and not game.hand.is_over:
                _step(game, rng, now)
        assert game.hand_number >= 1
        again = TableGame.restore(store.load_tables()[0], store, pause=Decimal(2), decks=seeded_decks)
        again.sync(now)
        assert _states(again) == _states(game)
        game = again  # the restored table plays on; the old one is gone, as after a restart
        while game.status != FINISHED:
            now += 1
            game.sync(now)
            if game.hand is not None and not game.hand.is_over:
                _step(game, rng, now)
        balances = [store.balance(name) for name in ("ann", "bob", "cy")]
        assert sum(b for b in balances if b is not None) == 3000
        ledger = game.ledger()
        assert ledger is not None  # a match, not a tournament
        assert balances[0] == 1000 + Fraction(ledger["money"][0])
        final = TableGame.restore(store.load_tables()[0], store)
        assert final.status == FINISHED
        assert final.ledger() == game.ledger()
        assert [store.balance(name) for name in ("ann", "bob", "cy")] == balances
    finally:
        store.close()


def test_downtime_does_not_count_against_the_seat_to_act(db_url: str) -> None:
    rules = Rules.preset("pineapple").with_settings({"hand_seconds": 20, "time_bank_seconds": 10})
    store = Storage(db_url)
    try:
        table = store.add_table("t", rules.to_dict(), [None, None])
        game = TableGame(table, "t", rules, [None, None], store, decks=seeded_decks)
        for seat, name in enumerate(("ann", "bob")):
            store.ensure_player(name, Fraction(1000))
            game.sit(seat, name, f"{seat}" * 64)
        game.start(0, Decimal(100))
        _step(game, random.Random(1), Decimal(105))
        due = game.wake_time()
        assert due is not None
        assert due > Decimal(105)
        hour = Decimal(3600)
        # Restarted an hour later: the clocks go on from the last stored event (105).
        again = TableGame.restore(store.load_tables()[0], store, now=Decimal(105) + hour)
        assert again.time.offset == hour
        assert again.wake_time() == due + hour
        assert not again.sync(due + hour - Decimal("0.5"))
        assert again.hand is not None
        assert not again.hand.private_record().actions[-1].automatic
        # Without a restart time the table keeps server time: the seat would be placed at once.
        plain = TableGame.restore(store.load_tables()[0], store)
        assert (plain.time.offset, plain.wake_time()) == (0, due)
        assert again.sync(due + hour)
        assert again.hand.private_record().actions[-1].automatic
        assert again.hand.private_record().actions[-1].time == due  # stored in table time
        replayed = TableGame.restore(store.load_tables()[0], store, now=due + hour + 5)
        assert replayed.hand is not None
        assert replayed.hand.private_record().actions == again.hand.private_record().actions
        assert replayed.time.offset == hour + 5
    finally:
        store.close()


def test_a_whole_match_on_each_database(db_url: str) -> None:
    app = app_with(db_url, bot_factory=stand_in_factory, pause=0, bot_delay=0, decks=seeded_decks)
    rng = random.Random(8)
    with TestClient(app) as client:
        table = create_table(client, preset="classic", seats=2, bots=[None, "random"])
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            message = play_to_end(ws, seat["token"], rng)
        money = Fraction(message["ledger"]["money"][0])
        assert client.get("/api/players/ann").json()["balance"] == str(1000 + money)


def test_a_database_from_before_the_rematch_column_is_brought_up_to_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text("CREATE TABLE tables (id INTEGER PRIMARY KEY, name VARCHAR(80) NOT NULL, rules TEXT NOT NULL, "
                        "bots TEXT NOT NULL, status VARCHAR(16) NOT NULL, button INTEGER, ledger TEXT)"))  # fmt: skip
        db.execute(text("""INSERT INTO tables VALUES (1, 't', '{}', '[null, "random"]', 'waiting', NULL, NULL)"""))
    engine.dispose()
    store = Storage(url)
    try:
        (row,) = store.load_tables()
        assert (row.id, row.rematch, row.kind) == (1, None, "match")
        store.set_rematch(1, 7)
        assert store.load_tables()[0].rematch == 7
    finally:
        store.close()


def test_a_lobby_mark_changes_with_the_lobby_entry_and_only_then(db_url: str) -> None:
    """The lobby's marks: one per unfinished table, changed by a seat taken, freed or handed to a
    bot and by the status, unchanged by hands, actions and the ledger; a finished table has none."""
    store = Storage(db_url)
    try:
        for name in ("ann", "bob"):
            store.ensure_player(name, Fraction(1000))
        first = store.add_table("first", Rules().to_dict(), [None, None])
        second = store.add_table("second", Rules().to_dict(), [None, "random"])
        empty = store.lobby_marks()
        assert sorted(empty) == [first, second]
        assert empty[first][0] == "waiting"
        assert empty[first][-1] == ""
        store.take_seat(first, 0, "ann", "a" * 64)
        seated = store.lobby_marks()
        assert seated[first][-1] == "0:ann:"
        assert seated[second] == empty[second]
        store.take_seat(second, 0, "bob", "c" * 64)
        assert store.lobby_marks()[second][-1] == "0:bob:"
        store.free_seat(second, 0)
        assert store.lobby_marks() == seated
        store.take_seat(first, 1, "bob", "b" * 64)
        store.start_match(first, 0)
        playing = store.lobby_marks()
        assert playing[first][0] == "playing"
        assert sorted(playing[first][-1].split(",")) == ["0:ann:", "1:bob:"]
        store.add_hand(first, 0, ["Ah", "Kd"], "12.5")
        store.add_action(first, 0, 0, ActionRow(0, [["Ah", "top"]], [], "13", False))
        store.finish_hand(first, 0, {"result": 1}, {"points": ["1", "-1"]})
        assert store.lobby_marks() == playing  # play changes no lobby entry
        store.hand_over_seat(first, 1, "heuristic")
        handed = store.lobby_marks()
        assert sorted(handed[first][-1].split(",")) == ["0:ann:", "1:bob:heuristic"]
        store.finish_match(first, {"ann": Fraction(1), "bob": Fraction(-1)})
        assert sorted(store.lobby_marks()) == [second]
        assert [row.id for row in store.load_tables_of([second, first, 999])] == [first, second]
        assert store.load_tables_of([]) == []
    finally:
        store.close()
