"""The ``pro`` bot's style per variant: the charges on fouls it ranks by and the price of a fantasy.

A style's charges take points off a candidate's mean play-out value when ranking (never off
the value reported): ``safety`` per unit of its share of fouled play-outs from street
``safety_from`` on, and ``plain_safety`` more per unit of its share of *plain* fouls (a board
that fouls without a fantasy top) from street ``plain_from`` on. ``fantasy_value`` prices a
fantasy entry in the play-outs (``None``: the value the weights were trained with). Both are
points per opponent: three-handed, a charge counts twice, as a fantasy and a foul do.

Pineapple's default is the careful style: charges of 45 from street 3 and 20 on plain fouls
from street 2, a fantasy priced at 18 and the opponents played out by the static evaluation,
so the bot fouls far less than the uncharged one for as many points. Classic's default is a
charge of 7 from the second street (its play-outs are optimistic: the search fouls more than
the continuation it assumes) with the opponents played out by the static evaluation. Turbo
ranks by the plain mean. docs/research/pro-notebook.md has the measurements behind each choice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Style:
    """Charges on fouls when ranking, and the fantasy price of the play-outs."""

    safety: float = 0.0
    safety_from: int = 1
    plain_safety: float = 0.0
    plain_from: int = 1
    fantasy_value: float | None = None
    playouts: str = "learned"
    """The play-out policy: ``learned`` (every seat places by the learned value), ``static`` (by
    the hand-tuned evaluation, as ``mc`` plays out) or ``own`` (the bot's own seat by the learned
    value, the others by the static evaluation)."""


PLAIN = Style()
"""Rank by the mean alone, a fantasy priced as in training."""
CAREFUL = Style(safety=45.0, safety_from=3, plain_safety=20.0, plain_from=2, fantasy_value=18.0, playouts="own")
"""Pineapple's default: charges on fouls from the second and third streets, a fantasy priced at 18,
the bot's own seat played out by the learned value and the others by the static one."""
CLASSIC = Style(safety=7.0, safety_from=2, playouts="own")
"""Classic's default: a charge of 7 on fouled play-outs from the second street (classic's
play-outs are optimistic: the search fouls more than the continuation it assumes), the bot's own
seat played out by the learned value and the others by the static one."""
DEFAULT_STYLES = {"pineapple": CAREFUL, "classic": CLASSIC}
"""The style of each variant unless a bot's options say otherwise (``PLAIN`` for turbo)."""
STYLE_FIELDS = ("safety", "safety_from", "plain_safety", "plain_from", "fantasy_value", "playouts")
PLAYOUTS = ("learned", "static", "own")
"""The play-out policies a style can name."""


def style_for(variant: str, overrides: Style | None = None, given: frozenset[str] = frozenset()) -> Style:
    """The style of ``variant``: its default, with the fields named in ``given`` taken from ``overrides``."""
    base = DEFAULT_STYLES.get(variant, PLAIN)
    if overrides is None or not given:
        return base
    return replace(base, **{name: getattr(overrides, name) for name in given})


__all__ = ["CAREFUL", "CLASSIC", "DEFAULT_STYLES", "PLAIN", "PLAYOUTS", "STYLE_FIELDS", "Style", "style_for"]
