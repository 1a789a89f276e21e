"""Score books in the server's database: one row per book, one row per entered hand.

Its own tables on the server's engine (SQLite or PostgreSQL, schema migrated to the head). Every
method is one transaction, committed before it returns: an acknowledged hand survives a
``kill -9``. The keeper's key is stored as a SHA-256 hash; the book's code is public (it is
the read-only share link).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update

from ofc.server.db.migrate import upgrade
from ofc.server.db.schema import keep_books, keep_hands


def key_hash(key: str) -> str:
    """The stored form of a keeper's key."""
    return hashlib.sha256(key.encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class StoredBook:
    """A book as stored: its document without hands, the hands' entries, links to other books."""

    code: str
    key_hash: str
    document: dict[str, Any]
    hands: list[dict[str, Any]]
    previous: str | None
    following: str | None

    def full_document(self) -> dict[str, Any]:
        """The book document with its hands (what ``ofc.keep.document.read_book`` reads)."""
        return self.document | {"hands": self.hands}


class KeepStore:
    """Score books over an existing engine (the server's ``Storage.engine``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        upgrade(engine)

    def add_book(self, code: str, key: str, document: dict[str, Any], previous: str | None = None) -> None:
        """Store a new book (its document without hands); link it from ``previous``."""
        body = {name: value for name, value in document.items() if name != "hands"}
        with self.engine.begin() as db:
            db.execute(
                insert(keep_books).values(
                    code=code, key_hash=key_hash(key), book=json.dumps(body), created=_now(), previous=previous
                )
            )
            if previous is not None:
                db.execute(update(keep_books).where(keep_books.c.code == previous).values(following=code))

    def load(self, code: str) -> StoredBook | None:
        """The book with its hands in order, or None."""
        with self.engine.connect() as db:
            row = db.execute(select(keep_books).where(keep_books.c.code == code)).first()
            if row is None:
                return None
            query = select(keep_hands.c.entries).where(keep_hands.c.code == code).order_by(keep_hands.c.number)
            hands = [json.loads(entries) for (entries,) in db.execute(query)]
        return StoredBook(row.code, row.key_hash, json.loads(row.book), hands, row.previous, row.following)

    def put_hand(self, code: str, number: int, entries: dict[str, Any], count: int) -> None:
        """Store hand ``number`` (from 0): a new last hand when ``number == count``, else an edit."""
        text = json.dumps(entries)
        with self.engine.begin() as db:
            if number == count:
                db.execute(insert(keep_hands).values(code=code, number=number, entries=text, stored=_now()))
            else:
                db.execute(
                    update(keep_hands)
                    .where(keep_hands.c.code == code, keep_hands.c.number == number)
                    .values(entries=text, stored=_now())
                )

    def delete_hand(self, code: str, number: int, count: int) -> None:
        """Delete hand ``number`` of ``count``; the later hands move down by one."""
        with self.engine.begin() as db:
            db.execute(delete(keep_hands).where(keep_hands.c.code == code, keep_hands.c.number == number))
            for later in range(number + 1, count):
                db.execute(
                    update(keep_hands)
                    .where(keep_hands.c.code == code, keep_hands.c.number == later)
                    .values(number=later - 1)
                )
