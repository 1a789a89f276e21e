"""Hints and fantasy solutions for a seat, worked out on the decision pool."""

from __future__ import annotations

from typing import Protocol

from ofc.bots.hint import HintFigures
from ofc.engine.view import HandView
from ofc.rules.errors import OfcError
from ofc.server.decisions.workers import DecisionPool
from ofc.server.net.protocol import Hint, Solve
from ofc.server.tables.agents import HINT_BOT
from ofc.server.tables.game import PlayError


class Sender(Protocol):
    """Where the answer goes (a table connection)."""

    def send(self, message: dict[str, object]) -> None:
        """Queue a message."""
        ...


async def advise(
    pool: DecisionPool, connection: Sender, message: Hint | Solve, view: HandView | None, bot: str = HINT_BOT
) -> None:
    """Answer a ``hint`` (the hint ``bot``'s choice, the score it ranked by, its best choices and whether
    too few play-outs back them: ``ofc.bots.hint``) or a ``solve``; raises ``PlayError``."""
    if view is None or view.seat is None or view.seat not in view.to_act:
        raise PlayError("there is nothing for this seat to decide now", code="not_your_turn")
    if isinstance(message, Solve) and not view.seats[view.seat].fantasy:
        raise PlayError("this seat is not playing a fantasy hand", code="not_fantasy")
    kind = "solve" if isinstance(message, Solve) else "decide"
    try:
        action, value = await pool.run(connection, kind, bot, None, view, person=True)
    except TimeoutError:
        raise PlayError("the hint took too long: try again", code="unavailable") from None
    except OfcError as error:
        if isinstance(error, PlayError):
            raise
        raise PlayError("{problem}", code="unavailable", problem=error) from None
    if kind == "solve":
        connection.send({"type": "solution", "id": message.id, "action": action.to_dict()})
        return
    figures: HintFigures = value  # the score it ranked by, its best few choices, unsure (``decide_job``)
    hint: dict[str, object] = {
        "type": "hint",
        "id": message.id,
        "action": action.to_dict(),
        "value": figures.value,
        "choices": figures.choices,
        "unsure": figures.unsure,
    }
    connection.send(hint)
