"""Gymnasium: one learning seat against ofc bots, one hand per episode (``ofc/Seat-v0``).

The other seats are played by bots (``ofc.bots.make_bot`` specs), each deciding from its own
seat's view; the learner observes ``{"observation": Box, "action_mask": MultiBinary}`` from
its seat's view and is rewarded its points at the showdown (0 before). Bots are seeded from
the episode seed, so a seeded reset replays exactly, except for an ``mc`` bot given
``seconds`` (its work depends on the clock; give it ``rollouts`` alone for exact replays).

With ``fantasy_choices=k`` a fantasy seat chooses among the solver's k best boards (the
learner by action number, listed in ``info["fantasy_boards"]``; a bot as it plays fantasy
hands); by default the solver sets every fantasy hand.

An action number that is not legal now is, by default, replaced by a uniformly drawn legal
one and ``info["illegal_action"]`` is set (so unmasked learners can run); ``illegal="raise"``
raises ``ActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ofc.bots import Bot, make_bot, split_specs
from ofc.env.aec import render_text
from ofc.env.table import Observation, Table, random_number, read_rules
from ofc.rules.errors import ActionError, SetupError
from ofc.rules.rulebook import Rules

ILLEGAL_CHOICES = ("random", "raise")


class SeatEnv(gymnasium.Env[Observation, int]):
    """``seat`` learns; ``opponents`` (bot specs, taken in turn for the other seats in seat order) play.

    Without ``players`` the table has the learner plus one seat per named bot."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  # as gymnasium declares it

    def __init__(
        self,
        rules: Rules | str = "pineapple",
        opponents: str = "mc:seconds=0.05,heuristic",
        seat: int = 0,
        *,
        players: int | None = None,
        fantasy: Sequence[int] = (),
        button: int | None = None,
        fantasy_choices: int = 0,
        illegal: str = "random",
        render_mode: str | None = None,
        **settings: object,
    ) -> None:
        specs = split_specs(opponents)
        if players is None and "players" not in settings:
            players = len(specs) + 1  # the learner and one seat per named bot
        game = read_rules(rules, players, settings)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise SetupError("seat must be a seat from 0 to {last}, not {seat!r}", last=game.players - 1, seat=seat)
        if illegal not in ILLEGAL_CHOICES:
            raise SetupError(
                "illegal must be one of {names}, not {illegal!r}", names=", ".join(ILLEGAL_CHOICES), illegal=illegal
            )
        if render_mode not in (None, "ansi"):
            raise SetupError("render_mode must be 'ansi' or None, not {render_mode!r}", render_mode=render_mode)
        others = game.players - 1
        if len(specs) > others:
            if others > 1:
                raise SetupError(
                    "opponents names {count} bots for {others} other seats", count=len(specs), others=others
                )
            raise SetupError("opponents names {count} bots for {others} other seat", count=len(specs), others=others)
        specs = [specs[i % len(specs)] for i in range(others)]
        for spec in specs:
            make_bot(spec)  # names a bad spec now, not at the first reset
        self.seat = seat
        self.specs = tuple(specs)
        self.illegal = illegal
        self.render_mode = render_mode
        self.table = Table(game, fantasy=fantasy, button=button, fantasy_choices=fantasy_choices)
        box = spaces.Box(0.0, 1.0, (self.table.observation_size,), dtype=np.float32)
        mask = spaces.MultiBinary(self.table.size)
        self.observation_space = spaces.Dict({"observation": box, "action_mask": mask})  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.table.size)  # type: ignore[assignment]
        self._bots = self._make_bots(None)

    def _make_bots(self, seed: int | None) -> dict[int, Bot]:
        rng = random.Random(seed)
        seats = [s for s in range(self.table.rules.players) if s != self.seat]
        return {s: make_bot(spec, seed=rng.getrandbits(32)) for s, spec in zip(seats, self.specs, strict=True)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new hand and play the bots up to the learner's first decision."""
        super().reset(seed=seed)
        self.table.reset(int(self.np_random.integers(2**62)), (options or {}).get("fantasy"))
        self._bots = self._make_bots(int(self.np_random.integers(2**62)))
        self._play_bots()
        return self.table.observe(self.seat), self._info()

    def _info(self) -> dict[str, Any]:
        """``fantasy_boards`` when the learner is to choose its fantasy board, else nothing."""
        boards = self.table.boards(self.seat) if self.table.to_play == self.seat else ()
        return {"fantasy_boards": boards} if boards else {}

    def _play_bots(self) -> None:
        table = self.table
        while (seat := table.to_play) is not None and seat != self.seat:
            table.apply(self._bots[seat].act(table.view(seat)))

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action number, then the bots until the learner acts again or the hand ends."""
        table = self.table
        if table.to_play != self.seat:
            raise SetupError("the hand is over: call reset() before step()")
        info: dict[str, Any] = {}
        mask = table.mask(self.seat)
        number = int(action)
        if not (0 <= number < len(mask) and mask[number]):
            if self.illegal == "raise":
                raise ActionError(
                    "seat {seat}: action {number} is not legal now (see the action mask)", seat=self.seat, number=number
                )
            info["illegal_action"] = number
            number = random_number(mask, self.np_random)
        table.play(number)
        self._play_bots()
        over = table.to_play is None
        reward = float(table.points()[self.seat]) if over else 0.0
        return table.observe(self.seat), reward, over, False, info | self._info()

    def render(self) -> str | None:
        """The boards as text from a spectator's view (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.table.view(None))


__all__ = ["SeatEnv"]
