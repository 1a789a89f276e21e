"""PettingZoo: one hand of ofc as a ``ParallelEnv``, agents ``player_0`` .. ``player_{n-1}``.

A step takes one action number from every agent that may act now and none from the others:
the seats the engine names together (``Table.to_act``). In the rules only fantasy seats act
at once: with ``fantasy_choices=k`` every fantasy seat that has not set chooses in the same
step, before the street seats (each its number among the solver's k best boards of its own
deal, listed in ``infos[agent]["fantasy_boards"]``); otherwise (and by default, when the
solver sets fantasy hands) one street seat acts per step. Entries for agents not to act are
ignored, whatever they hold (PettingZoo's ``parallel_api_test`` sends every live agent a
number sampled from its mask, 0 when the mask is empty). An acting agent left out raises
``SetupError`` naming it. A number an acting agent may not play is, by default, replaced by a
legal one drawn uniformly from a generator seeded by ``reset(seed=...)`` and reported in
``infos[agent]["illegal_action"]``, as the Gymnasium environment does (PettingZoo's
``parallel_seed_test`` samples numbers without the mask); ``illegal="raise"`` raises the
engine's ``ActionError`` instead. Either way nothing changes until every number is checked.
``acting`` names the agents asked now; an agent's mask is all zeros unless it is one of them.

Every live agent gets an observation, a reward (its points at the showdown, 0 before), its
terminated and truncated flags and an info each step; at the showdown all are terminated and
``agents`` empties. Normal hands run on the compiled step as in the AEC environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ofc.engine.actions import Action
from ofc.env.aec import agent_name, render_text
from ofc.env.table import ILLEGAL_CHOICES, Observation, Table, board_action, random_number, read_rules
from ofc.rules.errors import SetupError
from ofc.rules.rulebook import Rules

Step = tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]


class OfcParallelEnv(ParallelEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no types
    """One hand per episode; ``fantasy`` deal sizes per seat make fantasy hands (solver-set
    unless ``fantasy_choices`` is k > 0: then the fantasy seats choose at once).

    ``compiled`` (default True) plays normal hands by the compiled step, as ``OfcAECEnv``."""

    metadata: ClassVar[dict[str, Any]] = {"name": "ofc_parallel_v0", "render_modes": ["ansi"]}

    def __init__(
        self,
        rules: Rules,
        *,
        fantasy: Sequence[int] = (),
        button: int | None = None,
        fantasy_choices: int = 0,
        render_mode: str | None = None,
        compiled: bool = True,
        illegal: str = "random",
    ) -> None:
        if illegal not in ILLEGAL_CHOICES:
            raise SetupError(
                "illegal must be one of {names}, not {illegal!r}", names=", ".join(ILLEGAL_CHOICES), illegal=illegal
            )
        self.illegal = illegal
        self._rng = np.random.default_rng()
        if render_mode not in (None, "ansi"):
            raise SetupError("render_mode must be 'ansi' or None, not {render_mode!r}", render_mode=render_mode)
        self.render_mode = render_mode
        self.table = Table(
            rules, fantasy=fantasy, button=button, fantasy_choices=fantasy_choices, fast=compiled, simultaneous=True
        )
        self.possible_agents = [agent_name(seat) for seat in range(rules.players)]
        self.agents = list(self.possible_agents)
        box = spaces.Box(0.0, 1.0, (self.table.observation_size,), dtype=np.float32)
        mask = spaces.MultiBinary(self.table.size)
        both = spaces.Dict({"observation": box, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, both)
        self.action_spaces = {agent: spaces.Discrete(self.table.size) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object each call, and for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)``: action numbers as ``ofc.env.encoding`` defines them."""
        return self.action_spaces[agent]

    @property
    def acting(self) -> list[str]:
        """The agents that must give an action number in the next step (none once the hand is over)."""
        return [self.possible_agents[seat] for seat in self.table.to_act]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new hand (``seed`` fixes it and later ones); ``options={"fantasy": [0, 14, 0]}`` deals fantasy."""
        self.table.reset(seed, (options or {}).get("fantasy"))
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def step(self, actions: Mapping[str, Any]) -> Step:
        """Play the numbers of every acting agent at once; other agents' entries are ignored."""
        table = self.table
        seats = table.to_act
        if not seats:
            raise SetupError("the hand is over: reset it before playing")
        missing = [self.possible_agents[seat] for seat in seats if self.possible_agents[seat] not in actions]
        if missing:
            raise SetupError("{agents} must act now: give each an action number", agents=", ".join(missing))
        numbers = [actions[self.possible_agents[seat]] for seat in seats]
        replaced: dict[str, object] = {}
        if self.illegal == "random":
            for index, seat in enumerate(seats):
                mask = table.mask(seat)
                if not legal_number(numbers[index], mask):
                    replaced[self.possible_agents[seat]] = numbers[index]
                    numbers[index] = random_number(mask, self._rng)
        if len(seats) == 1 and not table.choosing(seats[0]):
            table.play(numbers[0])  # checked by the table, nothing changes if refused
        else:
            chosen: list[Action] = [
                board_action(seat, table.boards(seat), number) for seat, number in zip(seats, numbers, strict=True)
            ]  # every number checked before any board is set
            for action in chosen:
                table.apply(action)
        observations = self._observations()
        agents = self.agents
        if table.to_act:
            rewards = dict.fromkeys(agents, 0.0)
            over = False
        else:
            points = table.points()
            rewards = {agent: float(points[seat]) for seat, agent in enumerate(self.possible_agents)}
            over = True
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos = self._infos()
        for agent, number in replaced.items():
            infos[agent]["illegal_action"] = number
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Observation]:
        return {agent: self.table.observe(seat) for seat, agent in enumerate(self.possible_agents)}

    def _infos(self) -> dict[str, dict[str, Any]]:
        """Empty per agent, but ``fantasy_boards`` for a fantasy agent choosing now."""
        table = self.table
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.possible_agents}
        if table.fantasy_choices:
            for seat in table.to_act:
                boards = table.boards(seat)
                if boards:
                    infos[self.possible_agents[seat]]["fantasy_boards"] = boards
        return infos

    def render(self) -> str | None:
        """The boards as text (``render_mode="ansi"``) from a spectator's view, else None."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.table.view(None))

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    rules: Rules | str = "pineapple",
    players: int | None = 3,
    *,
    fantasy: Sequence[int] = (),
    button: int | None = None,
    fantasy_choices: int = 0,
    render_mode: str | None = None,
    compiled: bool = True,
    illegal: str = "random",
    **settings: object,
) -> OfcParallelEnv:
    """A ``ParallelEnv`` for ``rules`` (a preset name or ``Rules``) with any other setting by name."""
    game = read_rules(rules, players, settings)
    return OfcParallelEnv(
        game,
        fantasy=fantasy,
        button=button,
        fantasy_choices=fantasy_choices,
        render_mode=render_mode,
        compiled=compiled,
        illegal=illegal,
    )


def legal_number(number: object, mask: npt.NDArray[np.int8]) -> bool:
    """Whether ``number`` is a whole number (not a bool) that ``mask`` marks legal."""
    if type(number) is not int and (isinstance(number, bool) or not isinstance(number, np.integer)):
        return False
    index = int(number)
    return 0 <= index < len(mask) and bool(mask[index])


__all__ = ["OfcParallelEnv", "legal_number", "parallel_env"]
