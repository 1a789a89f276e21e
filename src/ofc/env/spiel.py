"""OpenSpiel: importing this module registers the python game ``python_ofc``.

One game is one hand. Parameters: ``variant`` (default pineapple), ``players`` (3), ``button``
(0), ``fantasy_deals`` (per-seat fantasy deal sizes, ``"0,14,0"``; empty for none),
``fantasy_choices`` (0: the solver sets fantasy hands; k: a fantasy seat's action i sets the
solver's i-th best board of k) and every rules setting by its name as text (``scoring``,
``fantasy_stay``, ...; empty for the variant's default)::

    import pyspiel, ofc.env.spiel
    game = pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2, "scoring": "american"})

Chance deals every card (``OfcState``, below); actions are the numbers of
``ofc.env.encoding``; returns are the showdown's points. The information state (perfect
recall: every action in order) and the observation (the current position) come from the
player's view through ``ofc.env.observation``, as strings and tensors.

The state: explicit chance nodes over the engine's chance step.

The engine hand is made with ``caller_deals=True``: whenever it has a deal due
(``Hand.deal_due``: the first deal of every seat in order of play at the start, then each
street's cards when the seat's turn comes) the state is a chance node, and each chance action
draws one card of that deal. Once the deal's cards are all drawn they go to ``Hand.deal``;
until then the views given out show the cards drawn so far as the seat's held cards. Fantasy
seats are set by the exact solver as soon as their cards are dealt, or, with
``fantasy_choices`` k, act first: action i sets the solver's i-th best board of k.
Observations come from ``Hand.view(player)`` only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pyspiel

from ofc.bots.base import fantasy_decision, solution_action
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.env.encoding import StreetDeal, action_space_size, deal_mask, decode, decode_held, encode
from ofc.env.observation import history_array, information_state, layout, observation_text, to_array
from ofc.env.table import board_action, check_fantasy_choices, fantasy_boards
from ofc.rules.cards import DECK_SIZE, Card, format_card, format_cards
from ofc.rules.errors import ActionError, SetupError
from ofc.rules.rulebook import HAND_CARDS, SETTING_NAMES, Rules
from ofc.solver import FantasySolution

GAME_NAME = "python_ofc"
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE = int(pyspiel.PlayerId.CHANCE)
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


@cache
def legal_numbers(deal: StreetDeal | None, size: int) -> tuple[int, ...]:
    """The action numbers ``deal_mask(deal, size)`` allows, in ascending order (kept: few deals recur)."""
    return tuple(int(n) for n in np.flatnonzero(deal_mask(deal, size)))


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


Step = tuple[str, int | Action]
"""One move of the history: ``("card", card)`` for a chance deal, ``("act", action)`` for a seat's,
``("board", i)`` for a fantasy seat's choice of the solver's i-th board."""

T = TypeVar("T")


class Moves(list[T]):
    """A list of immutable moves: a state's copy shares the moves and copies only the list."""

    def __deepcopy__(self, memo: dict[int, object]) -> Moves[T]:
        return Moves(self)


class Views(dict[int | None, HandView]):
    """The views a state has given out since it last changed: a state's copy starts without them."""

    def __deepcopy__(self, memo: dict[int, object]) -> Views:
        return Views()


class Engine:
    """The engine hand of a state: a state's copy gets ``Hand.clone()``, not a deep copy."""

    __slots__ = ("hand",)

    def __init__(self, hand: Hand) -> None:
        self.hand = hand

    def __deepcopy__(self, memo: dict[int, object]) -> Engine:
        return Engine(self.hand.clone())


class OfcState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """One hand of ``python_ofc``."""

    def __init__(self, game: OfcGame) -> None:
        super().__init__(game)
        self._ofc = game.settings
        self._cards: Moves[int] = Moves()
        self._steps: Moves[Step] = Moves()
        self._drawn: Moves[int] = Moves()
        """The cards drawn so far of the deal the hand has due."""
        self._left: Moves[int] = Moves(range(DECK_SIZE))
        """The cards chance has not drawn yet, in ascending order."""
        self._boards: Moves[FantasySolution] | None = None
        self._views = Views()
        settings = self._ofc
        self._engine = Engine(Hand(settings.rules, button=settings.button, fantasy=settings.fantasy, caller_deals=True))
        self._player = int(pyspiel.PlayerId.CHANCE)
        self._size = action_space_size(settings.rules)
        self._solver_sets = any(settings.fantasy) and not settings.fantasy_choices
        self._deal_now: tuple[int, tuple[Card, ...], StreetDeal | None] | None = None
        """The seat to act, its cards and its ``street_deal``, once asked for (forgotten on any change)."""

    # ------------------------------------------------------------------ the engine hand

    def _settle(self) -> None:
        """Set fantasy seats by the solver, unless they choose (the hand has no deal due)."""
        self._boards = None
        if not self._solver_sets:
            return
        hand = self._engine.hand
        while not hand.is_over:
            seats = [seat for seat in hand.to_act if hand.fantasy[seat]]
            if not seats:
                break
            hand.apply(fantasy_decision(hand.view(seats[0])).action, 0)

    def view(self, player: int | None) -> HandView:
        """``player``'s view (None: a spectator's), with the cards drawn so far of a deal not yet made."""
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self._view(player)
        return view

    def _view(self, player: int | None) -> HandView:
        view = self._hand.view(player)
        drawn = self._drawn
        if not drawn:
            return view
        due = self._hand.deal_due
        assert due is not None  # cards are drawn only while a deal is due
        seats = list(view.seats)
        seats[due.seat] = dataclasses.replace(seats[due.seat], holding=len(drawn))
        cards = tuple(drawn) if due.seat == player else view.cards
        return dataclasses.replace(view, seats=tuple(seats), cards=cards)

    @property
    def _hand(self) -> Hand:
        return self._engine.hand

    @property
    def hand(self) -> Hand:
        """The engine hand (full state: for tests and the game's own bookkeeping)."""
        return self._engine.hand

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        """The seat to act, or the chance or terminal marker."""
        return self._player

    def _changed(self) -> None:
        """Forget the views and deal given out and find the player to act, after any change of the hand."""
        self._views.clear()  # a copy of the state has its own (empty) Views
        self._deal_now = None
        hand = self._engine.hand
        if hand.is_over:
            self._player = TERMINAL
        else:
            to_act = hand.to_act
            self._player = to_act[0] if to_act else CHANCE

    def _choosing(self, player: int) -> bool:
        """Whether ``player`` is a fantasy seat to pick one of the solver's boards now."""
        hand = self._hand
        if not self._ofc.fantasy_choices or not hand.to_act:
            return False
        return hand.fantasy[player] > 0 and hand.to_act[0] == player

    def fantasy_boards(self, player: int) -> tuple[FantasySolution, ...]:
        """The solver's boards a choosing fantasy ``player`` picks from, best first (else empty)."""
        if not self._choosing(player):
            return ()
        if self._boards is None:
            self._boards = Moves(fantasy_boards(self.view(player), self._ofc.fantasy_choices))
        return tuple(self._boards)

    def _street_deal(self, player: int) -> tuple[tuple[Card, ...], StreetDeal | None]:
        """The cards ``player`` holds and its ``street_deal`` (from its legal actions: no view needed)."""
        known = self._deal_now
        if known is not None and known[0] == player:
            return known[1], known[2]
        hand = self._engine.hand
        legal = hand.legal_actions(player)
        held = legal.held
        deal = None if not held or hand.fantasy[player] else (len(held), legal.discards, legal.rooms)
        self._deal_now = (player, held, deal)
        return held, deal

    def _legal_actions(self, player: int) -> list[int]:
        if self._choosing(player):
            return list(range(len(self.fantasy_boards(player))))
        return list(legal_numbers(self._street_deal(player)[1], self._size))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, equally likely."""
        left = self._left
        chance = 1.0 / len(left)
        return [(card, chance) for card in left]

    def _apply_action(self, action: int) -> None:
        seat = self._player
        if seat < 0:
            self._deal(int(action))
            return
        if self._choosing(seat):
            self._choose(seat, int(action))
        else:
            # decode_held returns only an action legal for the seat's cards and rows now
            self._play(decode_held(seat, *self._street_deal(seat), int(action)), checked=False)
        self._changed()

    def _choose(self, seat: int, number: int) -> None:
        self._play(board_action(seat, self.fantasy_boards(seat), number), ("board", number))

    def _deal(self, card: int) -> None:
        hand = self._engine.hand
        due = hand.deal_due
        left = self._left
        if due is None or card not in left:
            raise ActionError("card {card} cannot be dealt: it is dealt already or not a card", card=card)
        left.remove(card)
        self._cards.append(card)
        self._steps.append(("card", card))
        drawn = self._drawn
        drawn.append(card)
        if len(drawn) == due.cards:
            hand.deal(drawn)
            self._drawn = Moves()
            self._settle()
            self._changed()
        elif self._views:
            self._views.clear()

    def _play(self, action: Action, step: Step | None = None, checked: bool = True) -> None:
        if checked:
            self._hand.apply(action, 0)
        else:
            self._hand.apply_unchecked(action)
        self._steps.append(step or ("act", action))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_card(action)}"
        if self._choosing(player):
            boards = self.fantasy_boards(player)
            if 0 <= action < len(boards):
                return f"{solution_action(player, boards[action])} (board {action}, worth {boards[action].value:g})"
        view = self.view(player)
        if view.may_act:
            try:
                return str(decode(view, action))
            except ActionError:
                pass
        return f"seat {player}: action {action}"

    def is_terminal(self) -> bool:
        """Whether the showdown is done."""
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        """Each seat's points at the showdown (zeros before)."""
        result = self._hand.result
        return [float(p) for p in result.points] if result is not None else [0.0] * self._ofc.rules.players

    def __str__(self) -> str:
        """The whole state (every card dealt and every action), for debugging."""
        moves = [format_card(v) if isinstance(v, int) else str(v) for _, v in self._steps]
        return f"button {self._ofc.button}; dealt {format_cards(self._cards)}; " + "; ".join(moves)

    # ------------------------------------------------------------------ determinization

    def resample_from_infostate(self, player: int, sampler: Callable[[], float] | Any) -> OfcState:
        """A state ``player`` cannot tell from this one, the cards it cannot see drawn afresh.

        Cards hidden from ``player`` (others' held cards and discards, face-down fantasy
        boards) are replaced by a random draw from every card it has not seen; the other
        seats' discards follow their cards, and fantasy boards are set again by the solver
        (a chosen board as the same choice among the solver's boards of the new deal).
        """
        view = self.view(player)
        seen = set(view.cards) | set(view.discards)
        for seat in view.seats:
            for row in seat.rows:
                seen.update(row)
        hidden = [card for card in self._cards if card not in seen]
        pool = [card for card in range(DECK_SIZE) if card not in seen]
        rng = random.Random(int(sampler() * 2**52) if callable(sampler) else None)
        drawn = rng.sample(pool, len(hidden))
        swap = dict(zip(hidden, drawn, strict=True))
        state: OfcState = self.get_game().new_initial_state()
        for kind, value in self._steps:
            if kind == "card":
                assert isinstance(value, int)
                state.apply_action(swap.get(value, value))
            elif kind == "board":
                assert isinstance(value, int)
                state.apply_action(value)
            else:
                assert isinstance(value, Action)
                moved = Action(value.seat, value.placements, tuple(swap.get(c, c) for c in value.discards))
                state.apply_action(encode(state.view(value.seat), moved))
        return state


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


B = TypeVar("B")


def restartable(bot: B) -> B:
    """``bot`` with a ``restart_at`` that does nothing, so ``evaluate_bots`` can start it at any state.

    Only for bots that keep nothing between decisions: OpenSpiel's Python ``ISMCTSBot`` and
    ``MCTSBot`` search afresh from the state given at every ``step``, but leave ``restart_at``
    to ``pyspiel.Bot``'s, which raises "RestartAt(state) not implemented".
    """

    def restart_at(state: object) -> None:
        del state  # nothing is kept between decisions

    bot.restart_at = restart_at  # type: ignore[attr-defined]
    return bot


def register() -> None:
    """Register ``python_ofc`` with OpenSpiel (once)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(), OfcGame)


register()

__all__ = [
    "DEFAULTS",
    "GAME_NAME",
    "HAND_CARDS",
    "GameSettings",
    "OfcGame",
    "OfcObserver",
    "OfcState",
    "Step",
    "most_points",
    "register",
    "restartable",
]
