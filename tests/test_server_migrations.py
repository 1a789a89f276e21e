"""Schema migrations (ofc.server.db.migrate) on SQLite and PostgreSQL, from the schemas releases shipped.

Each old database is made here from the schema as that release had it, filled with a player, a
table, its seats, a hand, its actions, a house entry and a score book, then opened by today's
``Storage``: it must be at the head revision with every row as it was. The PostgreSQL cases fail
(they do not skip) when ``OFC_TEST_POSTGRES_URL`` is missing: the README's test command starts it.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Engine,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    inspect,
    text,
)
from sqlalchemy.exc import DBAPIError

from ofc.server.db.keep_store import KeepStore
from ofc.server.db.migrate import SchemaError, add_revision, config, current, head, legacy_revision, main, upgrade
from ofc.server.db.schema import metadata
from ofc.server.db.storage import MATCH, PLAYING, TOURNAMENT, ActionRow, SeatRow, Storage
from support.pg_support import fresh_database

HEAD = "0004"
EVERY_TABLE = {
    "players",
    "tables",
    "seats",
    "hands",
    "actions",
    "house",
    "keep_books",
    "keep_hands",
    "table_leases",
    "shared_limits",
}


def oldest_schema() -> MetaData:
    """The oldest shape the old hand list of added columns upgraded: none of those columns, no house, no books."""
    old = MetaData()
    Table(
        "players",
        old,
        Column("name", String(40), primary_key=True),
        Column("balance", String(80), nullable=False),
        Column("key_hash", String(64)),
    )
    Table(
        "tables",
        old,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(80), nullable=False),
        Column("rules", Text, nullable=False),
        Column("bots", Text, nullable=False),
        Column("status", String(16), nullable=False),
        Column("button", Integer),
        Column("ledger", Text),
    )
    Table(
        "seats",
        old,
        Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("player", String(40), ForeignKey("players.name"), nullable=False),
        Column("token_hash", String(64), nullable=False, unique=True),
    )
    Table(
        "hands",
        old,
        Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("deck", Text, nullable=False),
        Column("start", String(40), nullable=False),
        Column("history", Text),
    )
    Table(
        "actions",
        old,
        Column("table_id", Integer, primary_key=True),
        Column("hand", Integer, primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("place", Text, nullable=False),
        Column("discard", Text, nullable=False),
        Column("time", String(40), nullable=False),
        Column("automatic", Boolean, nullable=False),
    )
    return old


def previous_schema() -> MetaData:
    """The previous release's schema (commit fb28df8: schema.py and keep_store.py), as its create_all made it."""
    old = MetaData()
    Table(
        "players",
        old,
        Column("name", String(40), primary_key=True),
        Column("balance", String(80), nullable=False),
        Column("key_hash", String(64)),
    )
    Table(
        "tables",
        old,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(80), nullable=False),
        Column("rules", Text, nullable=False),
        Column("bots", Text, nullable=False),
        Column("status", String(16), nullable=False),
        Column("button", Integer),
        Column("ledger", Text),
        Column("rematch", Integer),
        Column("kind", String(16)),
        Column("options", Text),
        Column("waiting_since", String(40)),
    )
    Table(
        "seats",
        old,
        Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("player", String(40), ForeignKey("players.name"), nullable=False),
        Column("token_hash", String(64), nullable=False, unique=True),
        Column("stand_in", String(40)),
    )
    Table(
        "hands",
        old,
        Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("deck", Text, nullable=False),
        Column("start", String(40), nullable=False),
        Column("history", Text),
    )
    Table(
        "actions",
        old,
        Column("table_id", Integer, primary_key=True),
        Column("hand", Integer, primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("place", Text, nullable=False),
        Column("discard", Text, nullable=False),
        Column("time", String(40), nullable=False),
        Column("automatic", Boolean, nullable=False),
        Column("prev", Integer),
        CheckConstraint("(seq = 0 AND prev IS NULL) OR prev = seq - 1", name="actions_in_sequence"),
        ForeignKeyConstraint(["table_id", "hand"], ["hands.table_id", "hands.number"]),
        ForeignKeyConstraint(["table_id", "hand", "prev"], ["actions.table_id", "actions.hand", "actions.seq"]),
    )
    Table(
        "house",
        old,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("amount", String(80), nullable=False),
        Column("reason", String(16), nullable=False),
    )
    Table(
        "keep_books",
        old,
        Column("code", String(32), primary_key=True),
        Column("key_hash", String(64), nullable=False),
        Column("book", Text, nullable=False),
        Column("created", String(40), nullable=False),
        Column("previous", String(32)),
        Column("following", String(32)),
    )
    Table(
        "keep_hands",
        old,
        Column("code", String(32), primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("entries", Text, nullable=False),
        Column("stored", String(40), nullable=False),
    )
    return old


HAND_LIST = (
    ("tables", "rematch", "INTEGER"),
    ("tables", "kind", "VARCHAR(16)"),
    ("tables", "options", "TEXT"),
    ("tables", "waiting_since", "VARCHAR(40)"),
    ("actions", "prev", "INTEGER"),
    ("seats", "stand_in", "VARCHAR(40)"),
)
"""The previous release's ``Storage._add_missing_columns``: what it added to an older database."""


def make_old(url: str, shape: str) -> None:
    """A database of ``shape``: ``previous`` (fb28df8 made it), ``oldest``, ``hand_migrated`` (the
    oldest, then opened by fb28df8: its missing tables created, the hand list's columns added), or
    ``partial`` (the oldest ``tables`` table alone)."""
    engine = create_engine(url)
    try:
        if shape == "partial":
            oldest_schema().create_all(engine, tables=[oldest_schema().tables["tables"]])
        elif shape == "previous":
            previous_schema().create_all(engine)
        else:
            oldest_schema().create_all(engine)
        if shape == "hand_migrated":
            previous_schema().create_all(engine)  # what create_all did: the missing tables only
            with engine.begin() as db:
                for table, name, kind in HAND_LIST:
                    db.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))
    finally:
        engine.dispose()


DECK = '["Ah", "Kd", "2c"]'
PLACE_0 = '[["Ah"], [], []]'
PLACE_1 = '[[], ["Kd"], []]'


def fill(url: str, shape: str) -> dict[str, list[tuple[Any, ...]]]:
    """Rows of every kind that ``shape`` holds, inserted as its release stored them; returns every row, sorted."""
    engine = create_engine(url)
    old = oldest_schema() if shape == "oldest" else previous_schema()
    t = old.tables
    full = shape != "oldest"
    try:
        with engine.begin() as db:
            db.execute(insert(t["players"]), [{"name": "ann", "balance": "12.5", "key_hash": "k" * 64}])
            db.execute(insert(t["players"]), [{"name": "bob", "balance": "-3", "key_hash": None}])
            table = {"name": "old", "rules": "{}", "bots": "[null, null]", "status": PLAYING, "button": 1}
            table["ledger"] = '{"points": [0, 0]}'
            if full:
                table |= {"kind": TOURNAMENT, "options": '{"hints": false}', "waiting_since": "0.5"}
            table_id = db.execute(insert(t["tables"]).values(**table).returning(t["tables"].c.id)).scalar_one()
            for seat, player in enumerate(("ann", "bob")):
                row = {"table_id": table_id, "seat": seat, "player": player, "token_hash": player[0] * 64}
                db.execute(insert(t["seats"]).values(**row))
            hand = {"table_id": table_id, "number": 0, "deck": DECK, "start": "1.0", "history": None}
            db.execute(insert(t["hands"]).values(**hand))
            for seq, place in enumerate((PLACE_0, PLACE_1)):
                action = {"table_id": table_id, "hand": 0, "seq": seq, "seat": 1 - seq, "place": place}
                action |= {"discard": "[]", "time": f"{seq + 2}.0", "automatic": seq == 1}
                if full:
                    action["prev"] = None if seq == 0 else seq - 1
                db.execute(insert(t["actions"]).values(**action))
            if "house" in t:
                house = {"table_id": table_id, "seat": 1, "amount": "-10", "reason": "buy_in"}
                db.execute(insert(t["house"]).values(**house))
            if shape == "previous":
                book = {"code": "c" * 32, "key_hash": "h" * 64, "book": '{"variant": "pineapple"}', "created": "2"}
                db.execute(insert(t["keep_books"]).values(**book))
                db.execute(insert(t["keep_hands"]).values(code="c" * 32, number=0, entries='{"ann": 1}', stored="3"))
        return snapshot(engine)
    finally:
        engine.dispose()


def snapshot(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (by column name, sorted), the migrations' bookkeeping aside."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as db:
        for name in sorted(set(inspect(db).get_table_names()) - {"alembic_version"}):
            columns = sorted(column["name"] for column in inspect(db).get_columns(name))
            rows = db.execute(text(f"SELECT {', '.join(columns)} FROM {name}"))
            found[name] = sorted(tuple(zip(columns, row, strict=True)) for row in rows)
    return found


def differences(engine: Engine) -> list[Any]:
    """What the database's schema has other than ``ofc.server.db.schema`` (alembic's autogenerate)."""
    with engine.connect() as db:
        return list(compare_metadata(MigrationContext.configure(db, opts={"compare_type": True}), metadata))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    with fresh_database() as url:
        yield url.render_as_string(hide_password=False)


@pytest.fixture
def opened() -> Iterator[list[Storage]]:
    """Storages a test opens, closed after it."""
    stores: list[Storage] = []
    yield stores
    for store in stores:
        store.close()


def open_storage(url: str, stores: list[Storage]) -> Storage:
    store = Storage(url)
    stores.append(store)
    return store


def stamped(engine: Engine) -> str | None:
    with engine.connect() as db:
        return current(db)


def test_head_is_the_second_revision() -> None:
    assert head() == HEAD


@pytest.mark.parametrize(
    ("shape", "revision"), [("previous", "0002"), ("oldest", "0001"), ("hand_migrated", "0001"), ("partial", None)]
)
def test_a_database_made_before_alembic_is_recognised(db_url: str, shape: str, revision: str | None) -> None:
    make_old(db_url, shape)
    engine = create_engine(db_url)
    try:
        with engine.connect() as db:
            assert current(db) is None
            assert legacy_revision(db) == revision
    finally:
        engine.dispose()


@pytest.mark.parametrize("shape", ["previous", "oldest", "hand_migrated"])
def test_an_old_database_is_upgraded_in_place_with_every_row_intact(
    db_url: str, shape: str, opened: list[Storage]
) -> None:
    make_old(db_url, shape)
    before = fill(db_url, shape)
    store = open_storage(db_url, opened)
    assert stamped(store.engine) == HEAD
    assert differences(store.engine) == []
    after = snapshot(store.engine)
    assert set(after) == EVERY_TABLE
    assert after.pop("table_leases") == []  # added since the previous release: no node has run a table yet
    assert after.pop("shared_limits") == []  # added since the previous release: nothing counted yet
    if shape != "oldest":
        assert after == before
    else:
        added = {
            "tables": ("kind", "options", "rematch", "waiting_since"),
            "seats": ("stand_in",),
            "actions": ("prev",),
        }
        for name, rows in before.items():
            nulls = tuple((column, None) for column in added.get(name, ()))
            assert after[name] == sorted(tuple(sorted(row + nulls)) for row in rows)
        assert (after["house"], after["keep_books"], after["keep_hands"]) == ([], [], [])
    # the server reads it all back
    assert store.balance("ann") == Fraction(25, 2)
    assert store.balance("bob") == -3
    assert store.key_hash("ann") == "k" * 64
    (table,) = store.load_tables(unfinished=True)
    assert (table.name, table.status, table.button, table.ledger) == ("old", PLAYING, 1, {"points": [0, 0]})
    assert table.seats == [SeatRow(0, "ann", "a" * 64), SeatRow(1, "bob", "b" * 64)]
    if shape == "oldest":
        assert (table.kind, table.options, table.waiting_since, table.rematch) == (MATCH, {}, None, None)
    else:
        assert (table.kind, table.options, table.waiting_since) == (TOURNAMENT, {"hints": False}, "0.5")
    (hand,) = store.load_hands(table.id)
    assert (hand.number, hand.deck, hand.start, hand.history) == (0, ["Ah", "Kd", "2c"], "1.0", None)
    assert hand.actions == [
        ActionRow(1, [["Ah"], [], []], [], "2.0", False),
        ActionRow(0, [[], ["Kd"], []], [], "3.0", True),
    ]
    assert store.house_balance() == (0 if shape == "oldest" else -10)
    # ... and goes on writing: the next action, a new table, a rematch link, a score book
    store.add_action(table.id, 0, 2, ActionRow(1, [[], [], ["2c"]], [], "4.0", False))
    assert [action.time for action in store.load_hands(table.id)[0].actions] == ["2.0", "3.0", "4.0"]
    new = store.add_table("new", {}, [None, None])
    assert new == table.id + 1
    store.set_rematch(table.id, new)
    assert store.load_table(table.id) is not None
    assert store.load_table(table.id).rematch == new  # type: ignore[union-attr]
    books = KeepStore(store.engine)
    books.add_book("d" * 32, "key", {"variant": "classic", "hands": []})
    assert books.load("d" * 32) is not None
    if shape == "previous":
        old_book = books.load("c" * 32)
        assert old_book is not None
        assert (old_book.document, old_book.hands) == ({"variant": "pineapple"}, [{"ann": 1}])


@pytest.mark.parametrize("shape", ["previous", "oldest", "hand_migrated"])
def test_an_upgraded_database_keeps_the_action_log_in_sequence(db_url: str, shape: str, opened: list[Storage]) -> None:
    make_old(db_url, shape)
    fill(db_url, shape)
    store = open_storage(db_url, opened)
    table = store.load_tables()[0].id
    for hand, seq, prev in ((0, 2, 0), (0, 3, 2), (7, 0, None)):  # out of sequence, after a gap, no such hand
        with pytest.raises(DBAPIError):  # IntegrityError, or pg8000's ProgrammingError for a failed check
            insert_action(store.engine, table, hand, seq, prev)
    insert_action(store.engine, table, 0, 2, 1)
    assert [action.seat for action in store.load_hands(table)[0].actions] == [1, 0, 0]


def insert_action(engine: Engine, table: int, hand: int, seq: int, prev: int | None) -> None:
    row = {"table_id": table, "hand": hand, "seq": seq, "prev": prev, "seat": 0, "place": "[]", "discard": "[]"}
    with engine.begin() as db:
        db.execute(insert(metadata.tables["actions"]).values(**row, time="9", automatic=False))


def test_a_database_with_some_of_the_baseline_tables_gets_the_others(db_url: str, opened: list[Storage]) -> None:
    make_old(db_url, "partial")
    engine = create_engine(db_url)
    with engine.begin() as db:
        db.execute(text("INSERT INTO tables (name, rules, bots, status) VALUES ('t', '{}', '[null]', 'waiting')"))
    engine.dispose()
    store = open_storage(db_url, opened)
    assert stamped(store.engine) == HEAD
    assert differences(store.engine) == []
    (row,) = store.load_tables()
    assert (row.id, row.name, row.bots, row.status, row.kind, row.rematch) == (1, "t", [None], "waiting", MATCH, None)
    assert store.ensure_player("ann", Fraction(5)) == 5
    store.take_seat(1, 0, "ann", "a" * 64)
    assert store.load_tables()[0].seats == [SeatRow(0, "ann", "a" * 64)]


def test_upgrading_again_changes_nothing(db_url: str, opened: list[Storage]) -> None:
    make_old(db_url, "oldest")
    fill(db_url, "oldest")
    store = open_storage(db_url, opened)
    before = snapshot(store.engine)
    statements: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        statements.append(statement.strip().split()[0].upper())

    upgrade(store.engine)
    open_storage(db_url, opened)
    assert stamped(store.engine) == HEAD
    assert snapshot(store.engine) == before
    assert {"CREATE", "ALTER", "DROP", "INSERT", "UPDATE", "DELETE"} & set(statements) == set()


def test_a_fresh_database_goes_to_the_head(db_url: str, opened: list[Storage]) -> None:
    store = open_storage(db_url, opened)
    assert stamped(store.engine) == HEAD
    assert set(inspect(store.engine).get_table_names()) == EVERY_TABLE | {"alembic_version"}
    assert differences(store.engine) == []
    assert snapshot(store.engine) == {name: [] for name in EVERY_TABLE}
    assert store.ensure_player("ann", Fraction(100)) == 100
    assert store.add_table("t", {}, [None]) == 1


def test_the_revisions_go_down_to_nothing_and_up_again(db_url: str, opened: list[Storage]) -> None:
    store = open_storage(db_url, opened)
    with store.engine.begin() as db:
        command.downgrade(config(db), "base")
    assert set(inspect(store.engine).get_table_names()) == {"alembic_version"}
    upgrade(store.engine)
    assert stamped(store.engine) == HEAD
    assert differences(store.engine) == []


def test_a_database_of_an_unknown_revision_is_refused(db_url: str, opened: list[Storage]) -> None:
    store = open_storage(db_url, opened)
    with store.engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(SchemaError) as refused:
        upgrade(store.engine)
    assert str(refused.value) == (
        f"the database is at schema revision '0099', unknown to this ofc (newest '{HEAD}'): "
        "was it made by a newer version?"
    )


def test_a_new_revision_is_numbered_after_the_head(tmp_path: Path) -> None:
    written = add_revision("nothing changed", tmp_path)
    assert written == tmp_path / "r0005_nothing_changed.py"
    source = written.read_text(encoding="utf-8")
    assert "revision = '0005'" in source
    assert "down_revision = '0004'" in source
    nothing = "    # ### commands auto generated by Alembic - please adjust! ###\n    pass\n"
    nothing += "    # ### end Alembic commands ###\n"
    assert f"def upgrade() -> None:\n{nothing}\n\ndef downgrade() -> None:\n{nothing}" in source


def test_a_revision_without_a_message_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["revision", " "])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == "error: a revision needs a message saying what changed\n"
