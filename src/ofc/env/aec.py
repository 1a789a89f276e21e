"""PettingZoo: one hand of ofc as an ``AECEnv``, agents ``player_0`` .. ``player_{n-1}``.

Each agent observes ``{"observation": Box, "action_mask": MultiBinary}`` built from its own
seat's view (``ofc.env.observation``, ``ofc.env.encoding``); the agent to act is the seat the
engine names (a street seat, or with ``fantasy_choices=k`` a fantasy seat choosing among the
solver's k best boards, listed in its ``infos[agent]["fantasy_boards"]``). At the showdown
every agent is rewarded its points (zero-sum) and all are terminated. ``render_mode="ansi"``
returns the boards as the terminal draws them, from a spectator's view (nothing hidden is
shown).

``metadata["is_parallelizable"]`` is False, truthfully: PettingZoo's ``aec_to_parallel``
steps the agents in list order once per cycle, but here the turn follows the order of play
(from the button's left, a fantasy seat skipping the streets), so the wrapper would refuse
the first step whose seat is not next in list order. ``ofc.env.parallel`` is the parallel
form (fantasy seats choosing at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ofc.engine.view import HandView
from ofc.env.table import Observation, Table, read_rules
from ofc.rules.cards import Card, format_card
from ofc.rules.errors import SetupError
from ofc.rules.rows import ROW_SIZES
from ofc.rules.rulebook import Rules


def agent_name(seat: int) -> str:
    """``player_<seat>``."""
    return f"player_{seat}"


def render_text(view: HandView) -> str:
    """The boards of ``view`` (the places a row still has drawn ``--``) and the street, as plain English text."""
    names = [agent_name(seat.seat) + (" (D)" if seat.seat == view.button else "") for seat in view.seats]
    rows = [[_row_text(seat.rows[row], size) for seat in view.seats] for row, size in enumerate(ROW_SIZES)]
    width = max(len(text) for line in [names, *rows] for text in line) + 2
    lines = [
        f"{label}  " + "".join(text.ljust(width) for text in line).rstrip()
        for label, line in zip(" TMB", [names, *rows], strict=True)
    ]
    if view.result is None:
        lines.append(_street_text(view))
    else:
        points = view.result.points
        lines.append("points: " + ", ".join(f"{agent_name(s)} {p:+d}" for s, p in enumerate(points)))
    return "\n".join(lines)


def _row_text(cards: tuple[Card, ...], size: int) -> str:
    return " ".join([format_card(card) for card in cards] + ["--"] * (size - len(cards)))


def _street_text(view: HandView) -> str:
    """What the deal asks of the seat to act (or of everyone, on a spectator's view)."""
    streets = view.rules.spec.streets
    street = streets[min(view.street, len(streets) - 1)]
    place = f"place {street.place} card" + ("s" if street.place != 1 else "")
    if street.discards:
        place += f", discard {street.discards}"
    return f"Street {view.street + 1} of {len(streets)}: {place}"


class OfcAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no types
    """One hand per episode; ``fantasy`` deal sizes per seat make fantasy hands (solver-set
    unless ``fantasy_choices`` is k > 0: then the seat picks one of the solver's k best boards).

    ``compiled`` (default True) plays normal hands by the compiled step (``ofc.env.fast_hand``,
    held equal to the engine); False plays every hand through the engine: the same numbers,
    observations and rewards, slower."""

    metadata: ClassVar[dict[str, Any]] = {"name": "ofc_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules,
        *,
        fantasy: Sequence[int] = (),
        button: int | None = None,
        fantasy_choices: int = 0,
        render_mode: str | None = None,
        compiled: bool = True,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise SetupError("render_mode must be 'ansi' or None, not {render_mode!r}", render_mode=render_mode)
        self.render_mode = render_mode
        self.table = Table(rules, fantasy=fantasy, button=button, fantasy_choices=fantasy_choices, fast=compiled)
        self.possible_agents = [agent_name(seat) for seat in range(rules.players)]
        self._seats = {name: seat for seat, name in enumerate(self.possible_agents)}
        box = spaces.Box(0.0, 1.0, (self.table.observation_size,), dtype=np.float32)
        mask = spaces.MultiBinary(self.table.size)
        both = spaces.Dict({"observation": box, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, both)
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)``: action numbers as ``ofc.env.encoding`` defines them."""
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_play()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``options={"fantasy": [0, 14, 0]}`` deals fantasy to some seats."""
        fantasy = (options or {}).get("fantasy")
        self.table.reset(seed, fantasy)
        self._start()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (its mask is all zeros unless it is to act)."""
        return self.table.observe(self._seats[agent])

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for the selected agent (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise SetupError("{agent} is to act: give an action number, not None", agent=agent)
        self._cumulative_rewards[agent] = 0.0
        self.table.play(action)
        self._after_play()

    def _after_play(self) -> None:
        table = self.table
        seat = table.to_play
        if seat is None:
            for agent, points in zip(self.possible_agents, table.points(), strict=True):
                self.rewards[agent] = float(points)
                self.terminations[agent] = True
            self.agent_selection = self.possible_agents[table.play_order[0]]
            self._accumulate_rewards()
            return
        agent = self.agent_selection = self.possible_agents[seat]
        if table.fantasy_choices:
            self._note_boards(seat, agent)

    def _note_boards(self, seat: int, agent: str) -> None:
        """Put a choosing fantasy seat's boards in its info (and take them out once set)."""
        for info in self.infos.values():
            info.pop("fantasy_boards", None)
        if self.table.choosing(seat):
            self.infos[agent]["fantasy_boards"] = self.table.boards(seat)

    def render(self) -> str | None:
        """The boards as text (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.table.view(None))

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(
    rules: Rules | str = "pineapple",
    players: int | None = 3,
    *,
    fantasy: Sequence[int] = (),
    button: int | None = None,
    fantasy_choices: int = 0,
    render_mode: str | None = None,
    compiled: bool = True,
    **settings: object,
) -> OfcAECEnv:
    """An ``AECEnv`` for ``rules`` (a preset name or ``Rules``) with any other setting by name."""
    game = read_rules(rules, players, settings)
    return OfcAECEnv(
        game,
        fantasy=fantasy,
        button=button,
        fantasy_choices=fantasy_choices,
        render_mode=render_mode,
        compiled=compiled,
    )


__all__ = ["OfcAECEnv", "agent_name", "pettingzoo_env", "render_text"]
