"""OpenSpiel: importing this module registers the python game ``python_ofc``.

One game is one hand. Parameters: ``variant`` (default pineapple), ``players`` (3), ``button``
(0), ``fantasy_deals`` (per-seat fantasy deal sizes, ``"0,14,0"``; empty for none),
``fantasy_choices`` (0: the solver sets fantasy hands; k: a fantasy seat's action i sets the
solver's i-th best board of k) and every rules setting by its name as text (``scoring``,
``fantasy_stay``, ...; empty for the variant's default)::

    import pyspiel, ofc.env.spiel
    game = pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2, "scoring": "american"})

Chance deals every card (``ofc.env.spiel_state``); actions are the numbers of
``ofc.env.encoding``; returns are the showdown's points. The information state (perfect
recall: every action in order) and the observation (the current position) come from the
player's view through ``ofc.env.observation``, as strings and tensors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ofc.env.encoding import action_space_size
from ofc.env.observation import history_array, information_state, layout, observation_text, to_array
from ofc.env.spiel_state import OfcState
from ofc.env.table import check_fantasy_choices
from ofc.rules.cards import DECK_SIZE
from ofc.rules.errors import SetupError
from ofc.rules.rulebook import HAND_CARDS, SETTING_NAMES, Rules

GAME_NAME = "python_ofc"
DEFAULTS: dict[str, Any] = {
    "variant": "pineapple",
    "players": 3,
    "button": 0,
    "fantasy_deals": "",
    "fantasy_choices": 0,
}
DEFAULTS.update({name: "" for name in SETTING_NAMES if name not in DEFAULTS})


@dataclass(frozen=True)
class GameSettings:
    """The rules, button, fantasy deals and fantasy choices of a ``python_ofc`` game."""

    rules: Rules
    button: int
    fantasy: tuple[int, ...]
    fantasy_choices: int = 0

    def __deepcopy__(self, memo: dict[int, object]) -> GameSettings:
        return self  # immutable: a state's copy shares it

    @staticmethod
    def read(params: Mapping[str, Any]) -> GameSettings:
        """Settings from OpenSpiel parameters (unknown names and bad values raise ``OfcError``)."""
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise SetupError(
                "python_ofc has no parameter {unknown!r} (parameters: {names})",
                unknown=unknown[0],
                names=", ".join(DEFAULTS),
            )
        values = {**DEFAULTS, **params}
        settings = {"players": values["players"]}
        settings.update({name: values[name] for name in SETTING_NAMES if name != "variant" and values[name] != ""})
        rules = Rules.preset(str(values["variant"])).with_settings(settings)
        text = str(values["fantasy_deals"]).strip()
        fantasy = tuple(int(part) for part in text.split(",")) if text else (0,) * rules.players
        if len(fantasy) != rules.players:
            raise SetupError(
                "parameter fantasy_deals needs one deal size per seat ({players}), got {text!r}",
                players=rules.players,
                text=text,
            )
        button = int(values["button"])
        if not 0 <= button < rules.players:
            raise SetupError(
                "parameter button must be a seat from 0 to {last}, not {button}",
                last=rules.players - 1,
                button=button,
            )
        choices = check_fantasy_choices(values["fantasy_choices"], action_space_size(rules))
        return GameSettings(rules, button, fantasy, choices)


def most_points(rules: Rules) -> float:
    """A bound on what one seat can win or lose in a hand: every row, scoop and royalty against everyone."""
    table = rules.royalty_table
    royalties = max(table.top_trips) + max(*table.middle, table.middle_royal) + max(*table.bottom, table.bottom_royal)
    return float((rules.players - 1) * (3 * rules.row_points + rules.scoop_bonus + royalties))


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Open Face Chinese Poker (ofc)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


class OfcGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The game ``python_ofc`` for one set of parameters."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.settings = GameSettings.read(dict(params or {}))
        rules = self.settings.rules
        players = rules.players
        cards = sum(self.settings.fantasy) + sum(s.cards for s in rules.spec.streets) * players
        bound = most_points(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space_size(rules),
            max_chance_outcomes=DECK_SIZE,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=min(cards, DECK_SIZE) + len(rules.spec.streets) * players,
        )
        super().__init__(_game_type(), info, dict(params or {}))

    def new_initial_state(self) -> OfcState:
        """A hand before the first card is dealt."""
        return OfcState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OfcObserver:
        """The observer OpenSpiel uses for observations (and, with perfect recall, information states)."""
        if params:
            raise SetupError("python_ofc observers take no parameters, got {params!r}", params=params)
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return OfcObserver(self.settings.rules, kind)


class OfcObserver:
    """Tensors and strings of a state from one player's view (``ofc.env.observation``).

    With perfect recall: ``history_array`` and ``information_state``; without: ``to_array`` and
    ``observation_text``. An observer without private information uses a spectator's view.
    """

    def __init__(self, rules: Rules, kind: Any) -> None:
        self.perfect_recall = bool(kind.perfect_recall)
        self.private = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        where = layout(rules)
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            where.history_size if self.perfect_recall else where.size, dtype=np.float32
        )
        self.dict = {"observation": self.tensor}

    def _view(self, state: OfcState, player: int) -> Any:
        return state.view(player if self.private else None)

    def set_from(self, state: OfcState, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it."""
        view = self._view(state, player)
        self.tensor[:] = history_array(view) if self.perfect_recall else to_array(view)

    def string_from(self, state: OfcState, player: int) -> str:
        """``state`` as ``player`` sees it, as text."""
        view = self._view(state, player)
        return information_state(view) if self.perfect_recall else observation_text(view)


def register() -> None:
    """Register ``python_ofc`` with OpenSpiel (once)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(), OfcGame)


register()

__all__ = ["DEFAULTS", "GAME_NAME", "HAND_CARDS", "GameSettings", "OfcGame", "OfcObserver", "most_points", "register"]
