"""The keep page's routes: ``/keep`` and ``/api/keep/...`` (score books kept from a phone).

A book is read by its public code (the share link) and changed only with the keeper's key.
Every change is checked by replaying the whole book through the engine, stored, and only
then answered. Writes are idempotent where a page may resend them after a lost answer: a hand
sent again with the same number and entries changes nothing; a deletion names the number of
hands the page saw, and is refused when the book has moved on.

Books started are limited per client address and, for a next book, per book it follows
(``keep``, ``keep_book`` of ``ofc.server.net.ratelimit``, shared by every server process). When
the database does not answer (locked, down), a route is refused with 503 ``storage`` as the
game's routes are, and the book stays as it was: each change is one transaction.
"""

from __future__ import annotations

import hmac
import io
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from ofc.keep.book import Book
from ofc.keep.document import book_document, read_book
from ofc.keep.entries import BookError
from ofc.keep.replay import Keeping, replay
from ofc.keep.report import keeping_report
from ofc.rules.errors import OfcError
from ofc.rules.rulebook import Rules
from ofc.server.api.dependencies import Keep, Locks, Manager
from ofc.server.api.refusals import Refusal, refusals
from ofc.server.db.keep_store import KeepStore, StoredBook, key_hash
from ofc.server.db.work import StorageUnavailable, transient
from ofc.server.net.protocol import with_hand_phrases
from ofc.server.net.ratelimit import client_address

WEB = Path(__file__).resolve().parents[2] / "web"


class NewBook(BaseModel):
    """A new book: players in seat order, a preset and settings, the first button.

    With ``after`` (a book's code) and its ``key``: the same players and rules, the button
    one seat on from that book's last hand.
    """

    players: list[str] = Field(default_factory=list, max_length=4)
    preset: str = Field("pineapple", max_length=40)
    settings: dict[str, bool | int | float | str | None] = Field(default_factory=dict)
    button: str | None = Field(None, max_length=40)
    after: str | None = Field(None, max_length=32)
    key: str | None = Field(None, max_length=64)


class HandBody(BaseModel):
    """A hand's entries by player name (board text or object, or ``"dead"``) and the key."""

    key: str = Field(max_length=64)
    hand: dict[str, Any]


class Transfer(BaseModel):
    """One payment of the settlement."""

    model_config = ConfigDict(populate_by_name=True)

    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    amount: int | float


class Totals(BaseModel):
    """Points and money per player."""

    points: dict[str, int | float]
    money: dict[str, int | float]


class BookAnswer(BaseModel):
    """A book as the page shows it (``ofc.keep.report.keeping_report``), its code and links.

    ``key`` (the keeper's key) only in the answer that started the book.
    """

    model_config = ConfigDict(extra="allow")

    book: dict[str, Any]
    """The book document (docs/keep.md)."""
    variant: str
    scoring: str
    point_value: str
    loss_limit: str | None
    hands: list[dict[str, Any]]
    """Every settled hand: button, order, each player's rows and every pair."""
    next: dict[str, Any] | None
    """The next hand's number, button, order, fantasies and discards (null once the match is over)."""
    over: bool
    left: list[str]
    totals: Totals
    settlement: list[Transfer]
    code: str
    previous: str | None
    following: str | None
    key: str | None = None


def load(keep: KeepStore, code: str) -> tuple[StoredBook, Keeping]:
    """The stored book ``code`` and its replay (404 ``no_book``)."""
    stored = keep.load(code)
    if stored is None:
        raise Refusal(404, "no_book", f"there is no book {code!r}")
    return stored, replay(read_book(stored.full_document()))


def check_key(stored: StoredBook, key: str | None) -> None:
    """Refuse (403 ``bad_key``) unless ``key`` is the keeper's."""
    if key is None or not hmac.compare_digest(stored.key_hash, key_hash(key)):
        raise Refusal(403, "bad_key", "this link only shows the book: changes need the keeper's key")


def answer(stored: StoredBook, keeping: Keeping) -> dict[str, Any]:
    """The book as the page shows it."""
    report = with_hand_phrases(keeping_report(keeping))
    return report | {"code": stored.code, "previous": stored.previous, "following": stored.following}


@contextmanager
def book_refusals() -> Iterator[None]:
    """A book the engine refuses as a refusal: 422 ``bad_book`` with the field at fault; a database
    that does not answer as 503 ``storage`` (nothing changed)."""
    try:
        yield
    except DBAPIError as error:
        if not transient(error):
            raise
        fault = StorageUnavailable("the database is unavailable ({kind}): try again", kind=type(error.orig).__name__)
        raise Refusal.of(503, fault.code, fault) from None
    except BookError as error:
        raise Refusal.of(422, "bad_book", error, error.field) from None
    except Refusal:
        raise
    except OfcError as error:
        raise Refusal.of(422, "bad_book", error) from None


def guarded(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``work()``, its book errors refused."""
    with book_refusals():
        return work()


router = APIRouter(tags=["keep"], responses=refusals(404, 503))


@router.get("/keep", include_in_schema=False)
def page() -> FileResponse:
    """The keep page."""
    return FileResponse(WEB / "keep.html", media_type="text/html")


@router.post(
    "/api/keep",
    status_code=201,
    response_model=BookAnswer,
    response_model_exclude_unset=True,
    responses=refusals(403, 409, 429),
)
async def create(body: NewBook, http: Request, keep: Keep, manager: Manager) -> dict[str, Any]:
    """Start a book; the answer holds its code and the keeper's key (so many per address and per book followed)."""
    asks = [("keep", client_address(http), 1)]
    if body.after is not None:
        asks.append(("keep_book", body.after, 1))
    await manager.limiter.take(manager.db, asks, spend=False)  # counted once started: a refused book is free

    def work() -> dict[str, Any]:
        if body.after is not None:
            old, keeping = load(keep, body.after)
            check_key(old, body.key)
            if not keeping.over:
                raise Refusal(409, "not_over", "the match of that book is not over yet")
            book = keeping.next_book()
        else:
            try:
                rules = Rules.preset(body.preset).with_settings(dict(body.settings))
            except OfcError as error:
                raise BookError("{problem}", field="rules", problem=error) from None
            names = body.players
            book = Book.new(rules, names, body.button if body.button is not None else (names or [""])[0])
        code, key = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        keep.add_book(code, key, book_document(book), body.after)
        stored, keeping = load(keep, code)
        return answer(stored, keeping) | {"key": key}

    started = await run_in_threadpool(guarded, work)
    await manager.limiter.take(manager.db, asks, check=False)
    return started


@router.get("/api/keep/{code}", response_model=BookAnswer, response_model_exclude_unset=True)
def read(code: str, keep: Keep) -> dict[str, Any]:
    """The book as the page shows it (no key needed: this is what the share link reads)."""
    return guarded(lambda: answer(*load(keep, code)))


@router.put(
    "/api/keep/{code}/hands/{number}",
    response_model=BookAnswer,
    response_model_exclude_unset=True,
    responses=refusals(403, 409),
)
def put_hand(code: str, number: int, body: HandBody, keep: Keep, locks: Locks) -> dict[str, Any]:
    """Enter hand ``number`` (from 1): the next hand, or an edit of a past one."""

    def work() -> dict[str, Any]:
        with locks.held(code):
            stored, keeping = load(keep, code)
            check_key(stored, body.key)
            book = keeping.book
            count = len(book.hands)
            if not 1 <= number <= count + 1:
                raise Refusal(409, "out_of_order", f"hand {count + 1} is the next hand, not hand {number}")
            hand = book.read_hand(body.hand)
            hands = list(book.hands)
            if number <= count and hands[number - 1] == hand:
                return answer(stored, keeping)  # sent again: already stored
            if number <= count:
                hands[number - 1] = hand
            else:
                hands.append(hand)
            try:
                changed = replay(book.with_hands(hands))
            except BookError as error:
                if number <= count:
                    raise BookError(
                        "changing hand {number} is refused, {error}", field=error.field, number=number, error=error
                    ) from None
                raise
            entries = {name: entry.to_json() for name, entry in hand.items()}
            keep.put_hand(code, number - 1, entries, count)
            return answer(stored, changed)

    return guarded(work)


@router.delete(
    "/api/keep/{code}/hands/{number}",
    response_model=BookAnswer,
    response_model_exclude_unset=True,
    responses=refusals(403, 409),
)
def delete_hand(code: str, number: int, key: str, count: int, keep: Keep, locks: Locks) -> dict[str, Any]:
    """Delete hand ``number`` (from 1) of a book the page saw with ``count`` hands."""

    def work() -> dict[str, Any]:
        with locks.held(code):
            stored, keeping = load(keep, code)
            check_key(stored, key)
            book = keeping.book
            if count != len(book.hands) or not 1 <= number <= count:
                raise Refusal(409, "stale", f"the book now holds {len(book.hands)} hands: look again")
            hands = [hand for position, hand in enumerate(book.hands) if position != number - 1]
            try:
                changed = replay(book.with_hands(hands))
            except BookError as error:
                raise BookError(
                    "deleting hand {number} is refused, {error}", field=error.field, number=number, error=error
                ) from None
            keep.delete_hand(code, number - 1, count)
            return answer(stored, changed)

    return guarded(work)


@router.get(
    "/api/keep/{code}/qr.svg",
    response_class=Response,
    responses={
        200: {
            "description": "The share link as a QR code",
            "content": {"image/svg+xml": {"schema": {"type": "string"}}},
        }
    },
)
def qr(code: str, request: Request, keep: Keep) -> Response:
    """The share link (read-only) as a QR code in SVG."""
    with book_refusals():
        stored = keep.load(code)
    if stored is None:
        raise Refusal(404, "no_book", f"there is no book {code!r}")
    link = f"{str(request.base_url).rstrip('/')}/keep#view={code}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False)
    return Response(out.getvalue(), media_type="image/svg+xml")
