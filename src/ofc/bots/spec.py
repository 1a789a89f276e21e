"""Bots by name: ``make_bot("mc:seconds=0.2,rollouts=400")``.

A spec is ``name`` or ``name:key=value[,key=value...]``. Each bot declares its options with
a reader and a check; anything unknown or out of range raises ``BotError`` naming it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ofc.bots.base import Bot
from ofc.bots.heuristic import HeuristicBot
from ofc.bots.mc import MonteCarloBot
from ofc.bots.pro_style import PLAYOUTS
from ofc.bots.random_bot import RandomBot
from ofc.rules.errors import BotError
from ofc.rules.terms import NC_, Term


@dataclass(frozen=True)
class Option:
    """One option: how to read its text, what it must satisfy, and that rule in words."""

    read: Callable[[str], Any]
    valid: Callable[[Any], bool]
    rule: Term
    """The rule as a phrase the faces translate when it is filled into an error."""


def _positive_seconds(value: float) -> bool:
    return math.isfinite(value) and 0 < value <= 3600


POINTS = Option(float, lambda v: math.isfinite(v) and v >= 0, NC_("bot option", "a number of points >= 0"))
SEARCH_OPTIONS: Mapping[str, Option] = {
    "seconds": Option(float, _positive_seconds, NC_("bot option", "a number of seconds above 0 (at most 3600)")),
    "rollouts": Option(int, lambda v: 1 <= v <= 10**7, NC_("bot option", "a whole number of play-outs from 1")),
    "candidates": Option(int, lambda v: 1 <= v <= 10**4, NC_("bot option", "a whole number of actions from 1")),
    "fantasy": POINTS,
}
"""The options of the searching bots (``mc`` and ``pro``)."""
STREET = Option(int, lambda v: 1 <= v <= 13, NC_("bot option", "a street number from 1 to 13"))
PRO_OPTIONS: Mapping[str, Option] = {
    **SEARCH_OPTIONS,
    "safety": POINTS,
    "safety_from": STREET,
    "plain_safety": POINTS,
    "plain_from": STREET,
    "playouts": Option(str.lower, lambda v: v in PLAYOUTS, NC_("bot option", "learned, static or own")),
}
"""``pro`` also takes ``safety``: points charged per unit of a candidate's foul share when ranking,
on the streets from ``safety_from`` on, and ``plain_safety``: points more per unit of its share of
plain fouls (a board that fouls without a fantasy top), from the street ``plain_from`` on. Each one
not given comes from the variant's default style (``ofc.bots.pro_style``: in pineapple 45 from
street 3, 20 from street 2, ``fantasy`` 18 and ``playouts`` own; in classic 7 from street 2 and
``playouts`` own; in turbo no charge and every seat learned). ``playouts`` names the play-out
policy: ``learned``, ``static`` (the hand-tuned evaluation, like ``mc``) or ``own`` (the bot's own
seat learned, the others static)."""
OPTIONS: Mapping[str, Mapping[str, Option]] = {
    "random": {},
    "heuristic": {"fantasy": POINTS},
    "mc": SEARCH_OPTIONS,
    "pro": PRO_OPTIONS,
}
BOT_NAMES: tuple[str, ...] = tuple(OPTIONS)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The bot name and its typed options, checked; raises ``BotError``."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in OPTIONS:
        raise BotError("unknown bot {name!r}: choose one of {names}", name=name or spec, names=", ".join(BOT_NAMES))
    allowed = OPTIONS[name]
    values: dict[str, Any] = {}
    for item in (part.strip() for part in rest.split(",")) if rest.strip() else ():
        key, sep, raw = item.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise BotError("bot {name}: expected key=value, got {item!r}", name=name, item=item)
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise BotError("bot {name} has no option {key!r} (options: {known})", name=name, key=key, known=known)
        if key in values:
            raise BotError("bot {name}: option {key} given twice", name=name, key=key)
        option = allowed[key]
        try:
            value = option.read(raw.strip())
            fits = option.valid(value)
        except ValueError:
            fits = False
        if not fits:
            raise BotError(
                "bot {name}: option {key} must be {rule}, got {given!r}",
                name=name,
                key=key,
                rule=option.rule,
                given=raw.strip(),
            )
        values[key] = value
    return name, values


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs: ``"mc:seconds=0.2,rollouts=9,heuristic"``.

    A piece with ``=`` but no ``:`` continues the options of the spec before it.
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += "," + piece
        elif piece:
            specs.append(piece)
    if not specs:
        raise BotError("no bots given: name them like mc,heuristic")
    return specs


def bot_names(specs: Sequence[str], taken: Sequence[str] = ()) -> tuple[str, ...]:
    """Each bot named for its kind, numbered when repeated (``mc``, ``random``, ``random2``),
    never one of the names already ``taken`` (a person's at the same table)."""
    names = list(taken)
    for spec in specs:
        kind = parse_spec(spec)[0]
        label, number = kind, 1
        while label in names:
            number += 1
            label = f"{kind}{number}"
        names.append(label)
    return tuple(names[len(taken) :])


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """The bot named by ``spec`` (see the module docstring), seeded with ``seed`` if given."""
    name, options = parse_spec(spec)
    label = spec.strip()
    if name == "random":
        return RandomBot(seed=seed, name=label)
    if name == "heuristic":
        return HeuristicBot(fantasy_value=options.get("fantasy", HeuristicBot.DEFAULT_FANTASY), name=label)
    seconds = options.get("seconds")
    rollouts = options.get("rollouts")
    if name == "pro":
        from ofc.bots.pro import ProBot

        return ProBot(
            seconds=ProBot.DEFAULT_SECONDS if seconds is None and rollouts is None else seconds,
            rollouts=rollouts,
            candidates=options.get("candidates", ProBot.DEFAULT_CANDIDATES),
            fantasy_value=options.get("fantasy"),
            seed=seed,
            name=label,
            safety=options.get("safety"),
            safety_from=options.get("safety_from"),
            plain_safety=options.get("plain_safety"),
            plain_from=options.get("plain_from"),
            playouts=options.get("playouts"),
        )
    if seconds is None and rollouts is None:
        seconds = MonteCarloBot.DEFAULT_SECONDS
    return MonteCarloBot(
        seconds=seconds,
        rollouts=rollouts,
        candidates=options.get("candidates", MonteCarloBot.DEFAULT_CANDIDATES),
        fantasy_value=options.get("fantasy", MonteCarloBot.DEFAULT_FANTASY),
        seed=seed,
        name=label,
    )
