"""A hint's figures: the number each choice is ranked by, and whether enough play-outs back them.

A hint shows the choices a bot ranked, best first, each with the **score** it ranked them by
(``ofc.bots.pro.Choice.score``: the expected points less the style's charge on the risk of
fouling), so the list always reads in the order of its numbers, and the share of play-outs that
fouled. The analysis (``ofc.bots.analysis``) prices moves by the same score. A hint whose values
come from fewer than ``HINT_FLOOR`` play-outs (say the kernels were still compiling and the time
ran out) is **unsure**: it names its choice but no number. Values counted exactly (the last
street) or a choice with no alternative are never unsure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ofc.bots.base import Decision

HINT_FLOOR = 32
"""The fewest play-outs a hint's numbers rest on; below it the hint says it is unsure."""


@dataclass(frozen=True)
class HintFigures:
    """What a hint shows: the first choice's score (None if unsure or not estimated), the best
    choices as protocol dicts and whether the play-outs were too few to print numbers."""

    value: float | None
    choices: list[dict[str, Any]]
    unsure: bool


def is_unsure(bot: object) -> bool:
    """Whether ``bot``'s last ranking rests on fewer than ``HINT_FLOOR`` play-outs (never for a
    bot that does not play out, an exact ranking or a single choice)."""
    choices = getattr(bot, "last_choices", ())
    if len(choices) < 2 or getattr(bot, "last_exact", False):
        return False
    done = getattr(bot, "last_rollouts", None)
    return isinstance(done, int) and done < HINT_FLOOR


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def hint_figures(bot: object, decision: Decision, shown: int = 3) -> HintFigures:
    """The figures of ``decision``, just made by ``bot``: its ``shown`` best choices, each
    ``{"action", "value", "score", "points", "foul"}`` where ``value`` is the score it ranked by
    (``points``: the plain expected points), none of them numbers when the hint is unsure."""
    unsure = is_unsure(bot)
    choices: list[dict[str, Any]] = []
    for choice in getattr(bot, "last_choices", ())[:shown]:
        score = None if unsure else _number(float(choice.score))
        choices.append(
            {
                "action": choice.action.to_dict(),
                "value": score,
                "score": score,
                "points": None if unsure else _number(float(choice.value)),
                "foul": None if unsure or choice.foul is None else float(choice.foul),
            }
        )
    if choices:
        return HintFigures(choices[0]["value"], choices, unsure)
    return HintFigures(None if decision.value is None else float(decision.value), choices, unsure)
