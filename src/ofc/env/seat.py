"""Gymnasium: one learning seat against ofc bots, one hand per episode (``ofc/Seat-v0``).

The other seats are played by bots (``ofc.bots.make_bot`` specs), each deciding from its own
seat's view; the learner observes ``{"observation": Box, "action_mask": MultiBinary}`` from
its seat's view and is rewarded its points at the showdown (0 before). Bots are seeded from
the episode seed and the default opponents (``DEFAULT_OPPONENTS``) are bounded by play-outs,
not by time, so a seeded reset followed by the same actions replays exactly. A bot bounded by
time (an ``mc`` or ``pro`` spec that gives ``seconds``, or no ``rollouts``) is used only when
named, and then breaks exact replays (its work depends on the clock and the machine's load).

Vector environments: at the showdown (``terminated``) the observation's mask has exactly
number 0 set (``final_mask``): no action is left, and 0 is the placeholder action that
Gymnasium's default next-step autoreset discards (it resets the sub-environment instead of
stepping it), so a masked policy always has a number to draw. The final observation's vector
is the seat's view at the showdown, as every other observation.

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
import numpy.typing as npt
from gymnasium import spaces

from ofc.bots import Bot, make_bot, split_specs
from ofc.env.aec import render_text
from ofc.env.table import ILLEGAL_CHOICES, Observation, Table, random_number, read_rules
from ofc.rules.errors import ActionError, SetupError
from ofc.rules.rulebook import Rules

DEFAULT_OPPONENTS = "mc:rollouts=16,heuristic"
"""Bounded by play-outs, so a seed fixes every decision."""


def final_mask(size: int) -> npt.NDArray[np.int8]:
    """The mask of the showdown's observation: number 0 alone, the placeholder an autoreset discards."""
    mask = np.zeros(size, dtype=np.int8)
    mask[0] = 1
    return mask


class SeatEnv(gymnasium.Env[Observation, int]):
    """``seat`` learns; ``opponents`` (bot specs, taken in turn for the other seats in seat order) play.

    Without ``players`` the table has the learner plus one seat per named bot. The default
    opponents are bounded by play-outs (a seed replays exactly); ``"mc:seconds=0.05"`` and
    the like bound a bot by time instead, on request only, and replays then differ."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  # as gymnasium declares it

    def __init__(
        self,
        rules: Rules | str = "pineapple",
        opponents: str = DEFAULT_OPPONENTS,
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
        if table.to_play is not None:
            return table.observe(self.seat), 0.0, False, False, info | self._info()
        final = table.observe(self.seat)
        final["action_mask"] = final_mask(table.size)
        return final, float(table.points()[self.seat]), True, False, info

    def render(self) -> str | None:
        """The boards as text from a spectator's view (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.table.view(None))


__all__ = ["DEFAULT_OPPONENTS", "SeatEnv", "final_mask"]
