"""Hand histories in the browser: a seated player's own copies of a table's finished hands.

``POST /api/tables/{id}/hands`` with ``{"token"}`` (the seat's secret) answers
``{"seat", "name", "hands": [{"number", "history"}]}``: every finished hand the seat was dealt
in, each as ``HandHistory.copy_for`` that seat (docs/hand-history.md): no deck, the other
seats' discards face-down. Never the full record. A token holding no seat there is
``403 bad_token``; an unknown table ``404 no_table``.

``POST /api/tables/{id}/hands/{number}/analysis`` with ``{"token"}`` answers ``{"seat",
"decisions", "total_loss"}``: ``ofc.bots.analysis.analyse_seat`` of that seat in the finished hand
``number`` (each decision's loss against the ``pro`` analysis's best choice, from the seat's own
view), worked out on the decision pool and kept for the next ask. At a table
without hints only once the match is over (``409 no_hints``); a hand not finished is ``404
no_hand``; analyses asked per address and per player are rate limited (``429``). An analysis
costs its play-outs (``analysis_cost``): one costing more than the server's ``analysis_playouts``
is refused (400 ``too_costly``), and each player's play-outs are limited per minute (``429``).
It runs in the pool's analysis lane, after the bots' decisions.

``GET /api/players/{name}/stats`` answers ``{"name", "variants": {variant: {"hands",
"points", "money", "foul_rate", "fantasy_rate"}}}`` from the finished hands' results.
"""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from ofc.bots import ANALYSIS_CANDIDATES, ANALYSIS_ROLLOUTS
from ofc.bots.analysis import analyse_seat
from ofc.formats.history import read
from ofc.rules.errors import OfcError
from ofc.server.api.dependencies import Kept, Manager, Seated, Settings, Store
from ofc.server.api.refusals import Refusal, refusals
from ofc.server.db.storage import FINISHED, Storage
from ofc.server.net.ratelimit import client_address
from ofc.server.tables.decks import PlayError
from ofc.server.tables.money import money_text

log = logging.getLogger("ofc.server.history")


class HandCopy(BaseModel):
    """A finished hand as the seat may see it: its number and ``HandHistory.copy_for`` the seat."""

    number: int
    history: dict[str, Any]
    """The hand history document (docs/hand-history.md)."""


class SeatHands(BaseModel):
    """The seat's copies of the table's finished hands."""

    seat: int
    name: str
    hands: list[HandCopy]


class ActionAnswer(BaseModel):
    """An action as the protocol writes it: the seat, ``[card, row]`` pairs and the discards."""

    seat: int
    place: list[list[str]]
    discard: list[str]


class Decision(BaseModel):
    """One decision of the seat against the analysis's best choice (actions as protocol dicts)."""

    index: int
    street: int
    kind: str
    played: ActionAnswer
    played_value: float | None
    best: ActionAnswer | None
    best_value: float | None
    loss: float | None
    ci95: float | None
    noise: float | None = None
    """The loss a hint's own play-outs may show by chance (95%): a loss within it is not a mistake."""
    within_noise: bool = False
    flagged: bool


class SeatAnalysis(BaseModel):
    """The seat's decisions in a finished hand and their summed loss."""

    seat: int
    decisions: list[Decision]
    total_loss: float


class VariantStats(BaseModel):
    """A player's results in one variant (money from matches only)."""

    hands: int
    points: int
    money: str
    foul_rate: float
    fantasy_rate: float


class PlayerStats(BaseModel):
    """A player's results per variant."""

    name: str
    variants: dict[str, VariantStats]


def seat_copies(store: Storage, table_id: int, last: int, name: str) -> list[dict[str, Any]]:
    """The copies for player ``name`` of the table's finished hands 0..``last``."""
    hands: list[dict[str, Any]] = []
    for number in range(last + 1):
        document = store.history(table_id, number)
        if document is None:
            continue
        history = read(document)
        names = list(history.names or ())
        if name not in names:
            continue  # not dealt in (out of a tournament, or left at the loss limit)
        hands.append({"number": number, "history": history.copy_for(names.index(name)).to_dict()})
    return hands


def seat_in_hand(document: dict[str, Any], name: str) -> int | None:
    """The seat ``name`` played in a stored hand (None: not dealt in)."""
    names = document.get("seats") or []
    return names.index(name) if name in names else None


def analysis_cost(document: dict[str, Any], seat: int) -> int:
    """The play-outs analysing ``seat`` of a stored hand may take: its decisions (automatic placements
    are not priced) x the candidates and the move played x the play-outs of each."""
    actions = document.get("actions") or []
    decisions = sum(1 for action in actions if action.get("seat") == seat and not action.get("automatic"))
    return decisions * (ANALYSIS_CANDIDATES + 1) * ANALYSIS_ROLLOUTS


def _new_line() -> dict[str, Any]:
    return {"hands": 0, "points": 0, "money": Fraction(0), "fouls": 0, "fantasies": 0}


def player_stats(store: Storage, name: str) -> dict[str, dict[str, Any]]:
    """Per variant: hands, net points and money (matches only), foul and fantasy rates.

    Counted from the stored finished hands of every table where ``name`` holds a seat (in
    memory or not); the money of a tournament hand is chips, not money, so only matches add money."""
    lines: dict[str, dict[str, Any]] = {}
    for kind, document in store.player_histories(name):
        if document.get("result") is None:
            continue
        history = read(document)
        names = list(history.names or ())
        if name not in names:
            continue  # not dealt in (out of a tournament, or left at the loss limit)
        player = document["result"]["players"][names.index(name)]
        line = lines.setdefault(history.rules.variant.value, _new_line())
        line["hands"] += 1
        line["points"] += int(player["points"])
        if kind == "match":
            line["money"] += Fraction(str(history.rules.point_value)) * int(player["points"])
            line["fouls"] += 1 if player["fouled"] else 0
            line["fantasies"] += 1 if player["fantasy"] else 0
    return {
        variant: {
            "hands": line["hands"],
            "points": line["points"],
            "money": money_text(line["money"]),
            "foul_rate": line["fouls"] / line["hands"],
            "fantasy_rate": line["fantasies"] / line["hands"],
        }
        for variant, line in sorted(lines.items())
    }


router = APIRouter(tags=["histories"], responses=refusals(503))


@router.post("/api/tables/{table_id}/hands", response_model=SeatHands, responses=refusals(403, 404))
async def table_hands(table_id: int, holder: Seated, manager: Manager, store: Store) -> dict[str, Any]:
    """The seat's copies of every finished hand at the table."""
    name = holder.name
    copies = await manager.db.read(seat_copies, store, table_id, holder.game.hand_number, name)
    return {"seat": holder.seat, "name": name, "hands": copies}


@router.post(
    "/api/tables/{table_id}/hands/{number}/analysis",
    response_model=SeatAnalysis,
    responses=refusals(403, 404, 409, 429),
)
async def analyse_hand(
    table_id: int,
    number: int,
    holder: Seated,
    http: Request,
    manager: Manager,
    store: Store,
    analyses: Kept,
    settings: Settings,
) -> dict[str, Any]:
    """The seat's decisions in a finished hand, each against the best choice (a person's job on the pool)."""
    game = holder.game
    if not game.hints and game.status != FINISHED:
        message = f"table {table_id} is played without hints: its hands can be analysed once the match is over"
        raise Refusal(409, "no_hints", message)
    name = holder.name
    key = (table_id, number, name)
    kept = analyses.get(key)
    if kept is not None:
        return kept
    document = await manager.db.read(store.history, table_id, number) if number >= 0 else None
    played = None if document is None else seat_in_hand(document, name)
    if document is None or played is None:
        raise Refusal(404, "no_hand", f"{name} has no finished hand {number + 1} at table {table_id}")
    cost = analysis_cost(document, played)
    if cost > settings.analysis_playouts:
        raise PlayError(
            "this analysis would take {cost} play-outs, more than the {cap} this server allows",
            code="too_costly",
            cost=cost,
            cap=settings.analysis_playouts,
        )
    person = name.lower()
    asks = [("analysis", client_address(http), 1), ("analysis_person", person, 1), ("analysis_playouts", person, cost)]
    await manager.limiter.take(manager.db, asks)
    try:
        answer: dict[str, Any] = await manager.pool.call(key, analyse_seat, document, played, analysis=True)
    except (TimeoutError, OfcError) as error:
        log.warning("analysis of table %s hand %s failed: %s", table_id, number, error)
        raise Refusal(503, "unavailable", "the analysis could not be worked out just now: try again") from None
    analyses.put(key, answer)
    return answer


@router.get("/api/players/{name}/stats", response_model=PlayerStats, responses=refusals(404))
async def stats(name: str, manager: Manager, store: Store) -> dict[str, Any]:
    """The player's results per variant (what every showdown made public)."""
    if await manager.db.read(store.balance, name) is None:
        raise Refusal(404, "no_player", f"there is no player {name!r}")
    return {"name": name, "variants": await manager.db.read(player_stats, store, name)}
