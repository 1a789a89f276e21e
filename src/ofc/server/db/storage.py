"""The server's database: players, tables, seats, hands and the append-only action log.

SQLAlchemy Core over SQLite (the default) or PostgreSQL (``postgresql://`` URLs use the
pure-Python pg8000 driver). Every method is one transaction. The deck order of each hand is
kept here so a hand can be dealt again after a restart; it never leaves the server. Seat
tokens and player keys are stored as SHA-256 hashes. Amounts of money are whole cents stored as
decimal text (``ofc.server.tables.money``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import Select, String, cast, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.functions import aggregate_strings

from ofc.rules.rulebook import Rules
from ofc.series.match import join_cost
from ofc.server.db.engine import default_url as default_url
from ofc.server.db.engine import make_engine
from ofc.server.db.leases import check as check_lease
from ofc.server.db.leases import db_now
from ofc.server.db.migrate import upgrade
from ofc.server.db.schema import (
    DAMAGED,
    EXPIRED,
    FINISHED,
    MATCH,
    MOST_ID,
    PLAYING,
    TOURNAMENT,
    WAITING,
    ActionRow,
    HandRow,
    SeatRow,
    TableRow,
    actions,
    hands,
    house,
    leases,
    players,
    seats,
    tables,
)
from ofc.server.tables.money import money_text

__all__ = [
    "DAMAGED", "EXPIRED", "FINISHED", "MATCH", "PLAYING", "TOURNAMENT", "WAITING",
    "ActionRow", "Admission", "Fence", "HandRow", "SeatRow", "Sitter", "Storage", "TableRow", "default_url",
]  # fmt: skip
"""The repository, and the schema's statuses and rows its callers use."""


@dataclass(frozen=True)
class Fence:
    """The lease a table's writes are made under: ``node`` holds ``table`` with ``epoch``."""

    table: int
    node: str
    epoch: int


Admission = Callable[[Fraction | None, Fraction], None]
"""A check made inside the transaction that seats a player, the player's row locked: given the
balance (None: a new player) and what the player's unfinished matches hold of it, it raises to
refuse. Two servers seating one player at once so see each other's seats: no balance is counted twice."""

FENCE: ContextVar[Fence | None] = ContextVar("FENCE", default=None)
"""The fence of the writes made in this context (``Storage.fenced``); None: unfenced."""


@dataclass(frozen=True)
class Sitter:
    """A person sitting down at a table created for them, in the same transaction (``add_table``)."""

    seat: int
    player: str
    token_hash: str
    start: Fraction
    """The balance of the player when the name is new."""
    key_hash: str | None = None
    """The hash of a new name's player key."""
    stake: Fraction = Fraction(0)
    """What sitting down takes from the balance (a tournament's buy-in)."""


class Storage:
    """Repository over one database; each method runs in its own transaction.

    Opening it brings the database's schema to the newest revision (``ofc.server.db.migrate``).
    """

    def __init__(self, url: str, timeout: float | None = None) -> None:
        self.url = url
        self.engine = make_engine(url, timeout)
        upgrade(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    @staticmethod
    @contextlib.contextmanager
    def fenced(fence: Fence | None) -> Iterator[None]:
        """Make the table writes inside fenced by ``fence``: each checks the lease in its own transaction."""
        token = FENCE.set(fence)
        try:
            yield
        finally:
            FENCE.reset(token)

    @contextlib.contextmanager
    def _writing(self, table_id: int) -> Iterator[Connection]:
        """A write transaction of ``table_id``: first, when fenced, the check that the lease is still held.

        A node that lost the table's lease gets ``LeaseLost`` and writes nothing.
        """
        with self.engine.begin() as db:
            fence = FENCE.get()
            if fence is not None and fence.table == table_id:
                check_lease(db, table_id, fence.node, fence.epoch)
            yield db

    # ------------------------------------------------------------------ players

    def balance(self, name: str) -> Fraction | None:
        """The player's balance, or None for an unknown player."""
        with self.engine.connect() as db:
            value = db.execute(select(players.c.balance).where(players.c.name == name)).scalar()
        return None if value is None else Fraction(value)

    def ensure_player(self, name: str, start: Fraction, key_hash: str | None = None) -> Fraction:
        """The player's balance, creating the player with ``start`` (and the key's hash) when new."""
        with self.engine.begin() as db:
            value = db.execute(select(players.c.balance).where(players.c.name == name)).scalar()
            if value is not None:
                return Fraction(value)
            db.execute(insert(players).values(name=name, balance=money_text(start), key_hash=key_hash))
        return start

    def held(self, name: str) -> Fraction:
        """What ``name``'s unfinished matches hold of the balance: each one's loss limit times its point value."""
        with self.engine.connect() as db:
            return _held(db, name)

    def known_name(self, name: str) -> str | None:
        """The stored name equal to ``name`` regardless of case, if any (names are unique so)."""
        query = select(players.c.name).where(func.lower(players.c.name) == name.lower()).order_by(players.c.name)
        with self.engine.connect() as db:
            value = db.execute(query).scalars().first()
        return None if value is None else str(value)

    def key_hash(self, name: str) -> str | None:
        """The hash of the player's key (None for an unknown player or one without a key)."""
        with self.engine.connect() as db:
            value = db.execute(select(players.c.key_hash).where(players.c.name == name)).scalar()
        return None if value is None else str(value)

    # ------------------------------------------------------------------ tables

    def add_table(
        self,
        name: str,
        rules: dict[str, Any],
        bots: Sequence[str | None],
        kind: str = MATCH,
        *,
        options: dict[str, Any] | None = None,
        since: str | None = None,
        sitter: Sitter | None = None,
        lease: tuple[str, float] | None = None,
        admit: Admission | None = None,
    ) -> int:
        """Store a new waiting table (a ``match`` or a ``tournament``) and return its id.

        ``since``: the server time it was created (it expires when nobody sits at it for a
        while). With a ``sitter``, the table is stored with that person seated, in one
        transaction: either both happen or neither does. With a ``lease`` (node, seconds), the
        node holds the new table's lease from the start (epoch 1), so no other node can claim it.
        """
        values: dict[str, str | None] = {"name": name, "rules": json.dumps(rules), "bots": json.dumps(list(bots))}
        values |= {"status": WAITING, "kind": kind, "options": json.dumps(options or {}), "waiting_since": since}
        with self.engine.begin() as db:
            table_id = int(db.execute(insert(tables).values(**values).returning(tables.c.id)).scalar_one())
            if lease is not None:
                node, seconds = lease
                db.execute(insert(leases).values(table_id=table_id, owner=node, epoch=1, expires=db_now(db) + seconds))
            if sitter is not None:
                if admit is not None:
                    _admit(db, sitter.player, admit)
                found = db.execute(select(players.c.name).where(players.c.name == sitter.player)).scalar()
                if found is None:
                    new = {"name": sitter.player, "balance": money_text(sitter.start), "key_hash": sitter.key_hash}
                    db.execute(insert(players).values(**new))
                seat = {"table_id": table_id, "seat": sitter.seat, "player": sitter.player}
                db.execute(insert(seats).values(**seat, token_hash=sitter.token_hash))
                if sitter.stake:
                    _credit(db, sitter.player, -sitter.stake)
        return table_id

    def expire_table(self, table_id: int) -> bool:
        """Mark a waiting table with nobody seated ``expired``; whether it was (a seat taken meanwhile: no)."""
        with self._writing(table_id) as db:
            taken = db.execute(select(func.count()).select_from(seats).where(seats.c.table_id == table_id)).scalar()
            where = (tables.c.id == table_id, tables.c.status.in_([WAITING, EXPIRED]))
            return not taken and db.execute(update(tables).where(*where).values(status=EXPIRED)).rowcount == 1

    def take_seat(
        self,
        table_id: int,
        seat: int,
        player: str,
        token_hash: str,
        stake: Fraction = Fraction(0),
        admit: Admission | None = None,
    ) -> None:
        """Give ``seat`` of the table to ``player``, taking ``stake`` (a buy-in) from their balance.

        ``admit`` checks the balance first, in the same transaction. Safe to repeat after a
        failure whose commit may have gone through (the seat is then taken once).
        """
        try:
            with self._writing(table_id) as db:
                if admit is not None:
                    _admit(db, player, admit)
                db.execute(insert(seats).values(table_id=table_id, seat=seat, player=player, token_hash=token_hash))
                if stake:
                    _credit(db, player, -stake)
        except IntegrityError:
            where = (seats.c.table_id == table_id, seats.c.seat == seat, seats.c.token_hash == token_hash)
            with self.engine.connect() as db:
                if db.execute(select(seats.c.player).where(*where)).scalar() != player:
                    raise

    def free_seat(self, table_id: int, seat: int, refund: Fraction = Fraction(0), since: str | None = None) -> None:
        """Give up ``seat`` of the table (before its match starts), paying ``refund`` back to its player.

        ``since``: the server time now, when the table is left with nobody seated (its expiry counts from it).
        """
        with self._writing(table_id) as db:
            where = (seats.c.table_id == table_id, seats.c.seat == seat)
            player = db.execute(select(seats.c.player).where(*where)).scalar()
            if player is None:
                return  # already freed (a repeated call)
            db.execute(delete(seats).where(*where))
            if refund:
                _credit(db, player, refund)
            if since is not None:
                db.execute(update(tables).where(tables.c.id == table_id).values(waiting_since=since))

    def hand_over_seat(self, table_id: int, seat: int, bot: str) -> None:
        """Record that ``bot`` plays ``seat`` for the rest of the match (its person left; the seat stays theirs)."""
        with self._writing(table_id) as db:
            where = (seats.c.table_id == table_id, seats.c.seat == seat)
            db.execute(update(seats).where(*where).values(stand_in=bot))

    def set_rematch(self, table_id: int, rematch: int) -> None:
        """Link a finished table to the table opened for its rematch."""
        with self._writing(table_id) as db:
            db.execute(update(tables).where(tables.c.id == table_id).values(rematch=rematch))

    def start_match(self, table_id: int, button: int, house_pays: dict[int, Fraction] | None = None) -> None:
        """Mark the table playing with its first button; the house pays its bots' buy-ins (per seat)."""
        with self._writing(table_id) as db:
            status = db.execute(select(tables.c.status).where(tables.c.id == table_id)).scalar_one()
            if status != WAITING:
                return  # already stored (a repeated call)
            db.execute(update(tables).where(tables.c.id == table_id).values(status=PLAYING, button=button))
            _house(db, table_id, {seat: -amount for seat, amount in (house_pays or {}).items()}, "buy_in")

    def load_tables(self, *, unfinished: bool = False) -> list[TableRow]:
        """Every table (only those not finished, when ``unfinished``) with its seats, oldest first."""
        query = select(tables).order_by(tables.c.id)
        if unfinished:
            query = query.where(tables.c.status.not_in([FINISHED, EXPIRED]))
        return self._rows(query)

    def lobby_marks(self) -> dict[int, tuple[str, ...]]:
        """A mark of each unfinished table's lobby entry, by table: its status, name, bots, options and
        seats. An entry whose mark is unchanged is unchanged, so only changed tables need loading."""
        seat = cast(seats.c.seat, String) + ":" + seats.c.player + ":" + func.coalesce(seats.c.stand_in, "")
        query = (
            select(
                tables.c.id,
                tables.c.status,
                tables.c.name,
                tables.c.bots,
                func.coalesce(tables.c.options, ""),
                func.coalesce(aggregate_strings(seat, ","), ""),
            )
            .select_from(tables.outerjoin(seats, seats.c.table_id == tables.c.id))
            .where(tables.c.status.not_in([FINISHED, EXPIRED]))
            .group_by(tables.c.id)
        )
        with self.engine.connect() as db:
            return {int(row[0]): tuple(str(value) for value in row[1:]) for row in db.execute(query)}

    def load_tables_of(self, table_ids: Sequence[int]) -> list[TableRow]:
        """These tables (those that exist) with their seats, oldest first."""
        found: list[TableRow] = []
        ordered = sorted(table_ids)
        for start in range(0, len(ordered), 500):
            chunk = tables.c.id.in_(ordered[start : start + 500])
            found += self._rows(select(tables).where(chunk).order_by(tables.c.id))
        return found

    def recent_finished(self, count: int) -> list[TableRow]:
        """The ``count`` finished tables created last, oldest first."""
        query = select(tables).where(tables.c.status == FINISHED).order_by(tables.c.id.desc()).limit(count)
        return self._rows(query)[::-1]

    def load_table(self, table_id: int) -> TableRow | None:
        """One table with its seats (None: no such table)."""
        found = self._rows(select(tables).where(tables.c.id == table_id))
        return found[0] if found else None

    def _rows(self, query: Select[Any]) -> list[TableRow]:
        with self.engine.connect() as db:
            found = list(db.execute(query))
            taken: dict[int, list[SeatRow]] = {}
            ids = [row.id for row in found]
            for start in range(0, len(ids), 500):  # the seats of these tables only
                where = seats.c.table_id.in_(ids[start : start + 500])
                for row in db.execute(select(seats).where(where).order_by(seats.c.table_id, seats.c.seat)):
                    taken.setdefault(row.table_id, []).append(
                        SeatRow(row.seat, row.player, row.token_hash, row.stand_in)
                    )
            return [
                TableRow(
                    id=row.id,
                    name=row.name,
                    rules=json.loads(row.rules),
                    bots=json.loads(row.bots),
                    status=row.status,
                    button=row.button,
                    ledger=None if row.ledger is None else json.loads(row.ledger),
                    seats=taken.get(row.id, []),
                    rematch=row.rematch,
                    kind=row.kind or MATCH,
                    options=json.loads(row.options) if row.options else {},
                    waiting_since=row.waiting_since,
                )
                for row in found
            ]

    # ------------------------------------------------------------------ hands

    def add_hand(self, table_id: int, number: int, deck: Sequence[str], start: str) -> None:
        """Store a newly dealt hand: its whole deck order (server-side only) and start time."""
        where = (hands.c.table_id == table_id, hands.c.number == number)
        with self._writing(table_id) as db:
            if db.execute(select(hands.c.deck).where(*where)).scalar() == json.dumps(list(deck)):
                return  # already stored (a repeated call)
            db.execute(insert(hands).values(table_id=table_id, number=number, deck=json.dumps(list(deck)), start=start))

    def add_action(self, table_id: int, hand: int, seq: int, action: ActionRow) -> None:
        """Append one action to a hand's log."""
        self.add_actions(table_id, hand, seq, [action])

    def add_actions(self, table_id: int, hand: int, first: int, rows: Sequence[ActionRow]) -> None:
        """Append actions numbered from ``first`` to a hand's log, in one transaction."""
        if not rows:
            return
        values = [
            {
                "table_id": table_id,
                "hand": hand,
                "seq": first + offset,
                "seat": row.seat,
                "place": json.dumps(row.place),
                "discard": json.dumps(row.discard),
                "time": row.time,
                "automatic": row.automatic,
                "prev": None if first + offset == 0 else first + offset - 1,
            }
            for offset, row in enumerate(rows)
        ]
        try:
            with self._writing(table_id) as db:
                db.execute(insert(actions), values)
        except IntegrityError:
            if not self._stored_already(table_id, hand, values):
                raise

    def _stored_already(self, table_id: int, hand: int, values: list[dict[str, Any]]) -> bool:
        """Whether exactly these actions are stored (a repeat of a write whose commit went through)."""
        seqs = [value["seq"] for value in values]
        where = (actions.c.table_id == table_id, actions.c.hand == hand, actions.c.seq.in_(seqs))
        with self.engine.connect() as db:
            have = {row.seq: (row.seat, row.place, row.discard) for row in db.execute(select(actions).where(*where))}
        return all(have.get(v["seq"]) == (v["seat"], v["place"], v["discard"]) for v in values)

    def finish_hand(self, table_id: int, hand: int, history: dict[str, Any], ledger: dict[str, Any]) -> None:
        """Store a finished hand's history and the match ledger after it."""
        with self._writing(table_id) as db:
            db.execute(
                update(hands)
                .where(hands.c.table_id == table_id, hands.c.number == hand)
                .values(history=json.dumps(history))
            )
            db.execute(update(tables).where(tables.c.id == table_id).values(ledger=json.dumps(ledger)))

    def finish_match(
        self,
        table_id: int,
        money: dict[str, Fraction],
        house_gets: dict[int, Fraction] | None = None,
        reason: str = "prize",
    ) -> None:
        """Mark the table finished and add each player's result (a tournament: prize) to their balance.

        ``house_gets`` (per seat) go to the house: a tournament's bot seats' prizes, or a
        match's bot seats' results and its rounding (``reason`` ``match``). Only once.
        """
        with self._writing(table_id) as db:
            status = db.execute(select(tables.c.status).where(tables.c.id == table_id)).scalar_one()
            if status == FINISHED:
                return
            for name, amount in money.items():
                _credit(db, name, amount)
            _house(db, table_id, house_gets or {}, reason)
            db.execute(update(tables).where(tables.c.id == table_id).values(status=FINISHED))

    def house_balance(self, table_id: int | None = None) -> Fraction:
        """What the house account holds: the sum of its entries (of one table, if given)."""
        query = select(house.c.amount)
        if table_id is not None:
            query = query.where(house.c.table_id == table_id)
        with self.engine.connect() as db:
            return sum((Fraction(value) for value in db.execute(query).scalars()), Fraction(0))

    def load_hands(self, table_id: int) -> list[HandRow]:
        """Every hand of the table in order, each with its actions in order."""
        with self.engine.connect() as db:
            logged: dict[int, list[ActionRow]] = {}
            query = select(actions).where(actions.c.table_id == table_id).order_by(actions.c.hand, actions.c.seq)
            for row in db.execute(query):
                logged.setdefault(row.hand, []).append(
                    ActionRow(row.seat, json.loads(row.place), json.loads(row.discard), row.time, bool(row.automatic))
                )
            query = select(hands).where(hands.c.table_id == table_id).order_by(hands.c.number)
            return [
                HandRow(
                    number=row.number,
                    deck=json.loads(row.deck),
                    start=row.start,
                    history=None if row.history is None else json.loads(row.history),
                    actions=logged.get(row.number, []),
                )
                for row in db.execute(query)
            ]

    def player_histories(self, name: str) -> list[tuple[str, dict[str, Any]]]:
        """The table kind (``match``/``tournament``) and history of each finished hand at a table where ``name`` sat."""
        query = (
            select(tables.c.kind, hands.c.history)
            .select_from(seats.join(tables, tables.c.id == seats.c.table_id))
            .join(hands, hands.c.table_id == seats.c.table_id)
            .where(seats.c.player == name, hands.c.history.is_not(None))
            .order_by(hands.c.table_id, hands.c.number)
        )
        with self.engine.connect() as db:
            return [(row.kind or MATCH, dict(json.loads(row.history))) for row in db.execute(query)]

    def history(self, table_id: int, hand: int) -> dict[str, Any] | None:
        """A finished hand's history document (None while it is being played, or never dealt)."""
        if not 0 <= hand <= MOST_ID:
            return None  # nor asked of the database: its integer columns stop there
        with self.engine.connect() as db:
            value = db.execute(
                select(hands.c.history).where(hands.c.table_id == table_id, hands.c.number == hand)
            ).scalar()
        return None if value is None else dict(json.loads(value))


def _credit(db: Connection, name: str, amount: Fraction) -> None:
    """Add ``amount`` (negative: take it) to the player's balance, inside the transaction ``db``."""
    value = db.execute(select(players.c.balance).where(players.c.name == name)).scalar_one()
    new = money_text(Fraction(value) + amount)
    db.execute(update(players).where(players.c.name == name).values(balance=new))


def _house(db: Connection, table_id: int, amounts: dict[int, Fraction], reason: str) -> None:
    """Record house entries (per bot seat) inside the transaction ``db``; zero amounts are skipped."""
    rows = [
        {"table_id": table_id, "seat": seat, "amount": money_text(amount), "reason": reason}
        for seat, amount in sorted(amounts.items())
        if amount
    ]
    if rows:
        db.execute(insert(house), rows)


def _held(db: Connection, name: str) -> Fraction:
    """What ``name``'s matches not yet settled hold of the balance (their loss limits at their point values)."""
    query = (
        select(tables.c.rules)
        .select_from(tables.join(seats, seats.c.table_id == tables.c.id))
        .where(seats.c.player == name, tables.c.status.in_([WAITING, PLAYING]))
        .where(or_(tables.c.kind == MATCH, tables.c.kind.is_(None)))
    )
    total = Fraction(0)
    for (rules,) in db.execute(query):
        cost = join_cost(Rules().with_settings(json.loads(rules)))
        total += Fraction(cost) if cost is not None else 0
    return total


def _admit(db: Connection, player: str, admit: Admission) -> None:
    """Lock ``player``'s row (if any) and run ``admit`` on its balance and what its matches hold."""
    balance = db.execute(select(players.c.balance).where(players.c.name == player).with_for_update()).scalar()
    admit(None if balance is None else Fraction(balance), _held(db, player))
