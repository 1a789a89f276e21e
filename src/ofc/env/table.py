"""One hand driven for the environments: seeded decks, fantasy boards, numbered actions.

The environments see the hand only through the seat's view: observations, masks and the
decoding of an action number come from each seat's ``ofc.env.observer.Observer``, which keeps the
seat's ``to_array`` vector, held cards and row rooms up to date through
``Hand.view_update(seat, since)`` (the view's incremental form: what the seat saw since its
last look), so a step costs microseconds rather than a view and a vector built from nothing;
bots and ``render`` get whole views (``view``, kept until the hand changes). A number decoded
from the acting seat's own cards and rooms is legal by construction (``decode_held`` checks
it against the rooms), so it is applied without the engine checking it again. Time never
passes (every action is applied at time 0), so no clock runs out. Decks are drawn by
``shuffled`` from the table's seeded ``random.Random``.

With ``fast=True`` (the PettingZoo environment's choice) a hand with no seat in fantasy is
played as an ``ofc.env.fast_hand.FastHand``: the same deal, numbers and vectors, one compiled
call a step. The first call that needs the engine's objects (``hand``, ``view``, ``apply``, a
number that cannot be played, whose error the engine words) replays the hand into a ``Hand``,
and the table goes on with the engine until the next deal.

Fantasy seats are set by the exact solver by default, as soon as they may act and before any
street seat is asked for a decision, so ``to_play`` is then always a street seat (or None
once the hand is over). With ``fantasy_choices=k`` a fantasy seat is asked instead: its
action number ``i`` (0 <= i < k, masked to the boards there are) sets the solver's
``i``-th best board (``ofc.solver.solve_fantasy_top``, 0 being the solver's own choice).
Fantasy seats set their hands simultaneously in the rules: with ``simultaneous=True`` (the
parallel environment's choice) every fantasy seat that has not set is choosing at once
(``to_act``), otherwise one at a time, in seat order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc.bots.base import fantasy_decision, solution_action
from ofc.engine.actions import Action
from ofc.engine.deals import play_order
from ofc.engine.hand import Hand, read_fantasy
from ofc.engine.view import HandView
from ofc.env.encoding import action_space_size, deal_mask, decode_held
from ofc.env.fast_hand import FastHand, setup_for
from ofc.env.observation import observation_size
from ofc.env.observer import Observer, StreetDeal
from ofc.rules.cards import ALL_CARDS, DECK_SIZE, Card, Deck
from ofc.rules.errors import ActionError, SetupError
from ofc.rules.rulebook import Rules
from ofc.solver import FantasySolution, solve_fantasy_top

Observation = dict[str, npt.NDArray[Any]]
ILLEGAL_CHOICES = ("random", "raise")
"""What an environment does with a number that is not legal: replace it by a random legal one, or raise."""
I8 = npt.NDArray[np.int8]


def read_rules(rules: Rules | str, players: int | None, settings: Mapping[str, object]) -> Rules:
    """A preset name or a ``Rules``, with ``players`` and other settings applied (validated)."""
    base = Rules.preset(rules) if isinstance(rules, str) else rules
    extra = dict(settings)
    if players is not None:
        extra["players"] = players
    return base.with_settings(extra) if extra else base


def check_fantasy_choices(choices: object, size: int) -> int:
    """``fantasy_choices`` as a number of boards: 0 (the solver sets fantasy hands) to ``size``."""
    if isinstance(choices, bool) or not isinstance(choices, int) or not 0 <= choices <= size:
        raise SetupError(
            "fantasy_choices must be a whole number from 0 (the solver sets fantasy hands) to {most}, not {value}",
            most=size,
            value=repr(choices),
        )
    return choices


def fantasy_boards(view: HandView, k: int) -> tuple[FantasySolution, ...]:
    """The solver's ``k`` best boards for the viewer's fantasy deal, best first.

    As ``ofc.bots.base.fantasy_solution``: a repeat fantasy is priced only while the seat's
    streak (public in the view) is below ``fantasy_max_in_row``.
    """
    limit = view.rules.fantasy_max_in_row
    seat = view.seat
    can_stay = seat is None or limit is None or view.seats[seat].fantasy_in_row < limit
    return solve_fantasy_top(view.cards, view.rules, k, can_stay=can_stay)


def board_action(seat: int, boards: Sequence[FantasySolution], number: object) -> Action:
    """The action setting ``boards[number]``; ``ActionError`` names the count if there is no such board."""
    index = number if type(number) is int or isinstance(number, np.integer) else None
    if index is None or not 0 <= index < len(boards):
        raise ActionError(
            "seat {seat} sets its fantasy hand: action {number} is not one of the solver's {count} boards (0-{last})",
            seat=seat,
            number=repr(number),
            count=len(boards),
            last=len(boards) - 1,
        )
    return solution_action(seat, boards[int(index)])


def shuffled(rng: random.Random) -> list[Card]:
    """The 52 cards in an order drawn uniformly by ``rng``, from one 320-bit draw.

    Fisher-Yates with each swap's index taken from the draw in mixed radix: 52! < 2^226, so
    each order's chance is off by less than 2^-94 of itself, and it is quicker than
    ``rng.shuffle`` (one draw, not 51).
    """
    draw = rng.getrandbits(320)
    cards = list(ALL_CARDS)
    for last in range(DECK_SIZE - 1, 0, -1):
        draw, pick = divmod(draw, last + 1)
        cards[last], cards[pick] = cards[pick], cards[last]
    return cards


@cache
def _first(count: int, size: int) -> I8:
    """A read-only mask of ``size`` numbers with the first ``count`` set."""
    mask = np.zeros(size, dtype=np.int8)
    mask[:count] = 1
    mask.flags.writeable = False
    return mask


class Table:
    """A hand of ``rules`` for environment play; ``reset`` deals a new one."""

    def __init__(
        self,
        rules: Rules,
        *,
        fantasy: Sequence[int] = (),
        button: int | None = None,
        fantasy_choices: int = 0,
        fast: bool = False,
        simultaneous: bool = False,
    ) -> None:
        self.rules = rules
        self.simultaneous = simultaneous
        self.fantasy = tuple(fantasy)
        self.button = button
        self.size = action_space_size(rules)
        self.fantasy_choices = check_fantasy_choices(fantasy_choices, self.size)
        self.observation_size = observation_size(rules)
        self._rng = random.Random()
        self._observers: list[Observer] = []
        self._views: dict[int | None, HandView] = {}
        self._boards: dict[int, tuple[FantasySolution, ...]] = {}
        self._masks: dict[StreetDeal | None, I8] = {}
        self._setup = setup_for(rules) if fast else None
        self._fast: FastHand | None = None
        self._fast_masks: dict[int, I8] = {}
        self._begin(self._deal(self.fantasy))

    @property
    def hand(self) -> Hand:
        """The hand being played (a fast hand is replayed into the engine's, which then plays on)."""
        fast = self._fast
        if fast is not None:
            self.hand = fast.replay()
        return self._hand

    @hand.setter
    def hand(self, hand: Hand) -> None:
        """Play ``hand`` from now on, as it stands (``reset`` deals and sets fantasy seats)."""
        self._fast = None
        self._hand = hand
        self._fantasy_hand = any(hand.fantasy)
        observers = self._observers
        if len(observers) != hand.rules.players:
            self._observers = [Observer(hand, seat) for seat in range(hand.rules.players)]
        else:
            for observer in observers:
                observer.follow(hand)
        self._changed()

    def _changed(self) -> None:
        """Forget what was built for the state before (observers read what changed themselves)."""
        if self._views:
            self._views = {}
        if self._boards:
            self._boards = {}

    def _begin(self, dealt: Hand | FastHand) -> None:
        if isinstance(dealt, FastHand):
            self._fast = dealt
            self._fantasy_hand = False
            self._changed()
        else:
            self.hand = dealt

    def _deal(self, fantasy: Sequence[int]) -> Hand | FastHand:
        players = self.rules.players
        button = self.button if self.button is not None else self._rng.randrange(players)
        order = shuffled(self._rng)
        if self._setup is not None and not any(read_fantasy(self.rules, fantasy)):
            return FastHand(self._setup, button, order, self._fast_masks)
        hand = Hand(self.rules, button=button, deck=Deck(order=order), fantasy=fantasy)
        if any(hand.fantasy) and not self.fantasy_choices:
            self._set_fantasy(hand)
        return hand

    def reset(self, seed: int | None = None, fantasy: Sequence[int] | None = None) -> None:
        """Deal a new hand (``seed`` fixes the button and deck of this and later hands)."""
        if seed is not None:
            self._rng.seed(seed)
        if fantasy is not None and len(fantasy) != self.rules.players:
            raise SetupError(
                "fantasy needs one deal size per seat ({players}), got {n_fantasy}",
                players=self.rules.players,
                n_fantasy=len(fantasy),
            )
        self._begin(self._deal(self.fantasy if fantasy is None else tuple(fantasy)))

    @staticmethod
    def _set_fantasy(hand: Hand) -> None:
        """Apply the solver's board for every fantasy seat that may act now."""
        while not hand.is_over:
            seats = [seat for seat in hand.to_act if hand.fantasy[seat]]
            if not seats:
                break
            hand.apply(fantasy_decision(hand.view(seats[0])).action, 0)

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        fast = self._fast
        if fast is not None:
            return fast.to_play
        to_act = self._hand.to_act  # empty exactly when the hand is over
        return to_act[0] if to_act else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """Every seat that may act now: fantasy seats choosing their boards, else the street's seat (none once over)."""
        fast = self._fast
        if fast is not None:
            seat = fast.to_play
            return () if seat is None else (seat,)
        return self._hand.to_act

    def view(self, seat: int | None) -> HandView:
        """``seat``'s view of the hand (kept until the hand changes)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.hand.view(seat)
        return view

    def choosing(self, seat: int) -> bool:
        """Whether ``seat`` is a fantasy seat to choose among the solver's boards now."""
        if not (self.fantasy_choices and self._fantasy_hand) or self._fast is not None:
            return False
        if not self._hand.fantasy[seat]:
            return False
        return seat in self._hand.to_act if self.simultaneous else self.to_play == seat

    def boards(self, seat: int) -> tuple[FantasySolution, ...]:
        """The boards a choosing fantasy ``seat`` picks from, best first (empty for other seats)."""
        boards = self._boards.get(seat)
        if boards is None:
            choosing = self.choosing(seat)
            boards = self._boards[seat] = fantasy_boards(self.view(seat), self.fantasy_choices) if choosing else ()
        return boards

    def mask(self, seat: int) -> I8:
        """1 for every number ``seat`` may play now (shared and read-only: copy it to change it)."""
        fast = self._fast
        if fast is not None:
            return fast.mask(seat)
        if self.fantasy_choices and self.choosing(seat):
            return _first(len(self.boards(seat)), self.size)
        deal = self._observers[seat].street_deal()
        mask = self._masks.get(deal)
        return self._new_mask(deal) if mask is None else mask

    def _new_mask(self, deal: StreetDeal | None) -> I8:
        mask = self._masks[deal] = deal_mask(deal, self.size)  # kept: a table meets few (cards, rooms)
        return mask

    def observe(self, seat: int) -> Observation:
        """``{"observation": vector, "action_mask": 0/1 per action number}`` for ``seat``."""
        fast = self._fast
        if fast is not None:
            return fast.observe(seat)
        vector, deal = self._observers[seat].look()  # the mask below is ``mask(seat)``, from the same look
        if self.fantasy_choices and self.choosing(seat):
            return {"observation": vector, "action_mask": _first(len(self.boards(seat)), self.size).copy()}
        mask = self._masks.get(deal)
        if mask is None:
            mask = self._new_mask(deal)
        return {"observation": vector, "action_mask": mask.copy()}

    def apply(self, action: Action) -> None:
        """Apply ``action`` (a bot's) at time 0, then set any fantasy seat that may act."""
        self.hand.apply(action, 0)
        self._after()

    def _after(self) -> None:
        self._changed()
        if self._fantasy_hand and not self.fantasy_choices:
            self._set_fantasy(self._hand)

    def play(self, number: int) -> None:
        """Apply action ``number`` for the seat to act (``ActionError`` if it is not legal)."""
        fast = self._fast
        if fast is not None and not fast.over and _plain_number(number, self.size) and fast.play(int(number)):
            return
        hand = self.hand
        to_act = hand.to_act
        if not to_act:
            raise SetupError("the hand is over: reset it before playing")
        seat = to_act[0]
        if self.fantasy_choices and self.choosing(seat):
            self.apply(self._fantasy_action(seat, number))
            return
        observer = self._observers[seat]
        deal = observer.street_deal()  # the seat's own cards and rooms, read through its view
        hand.apply_unchecked(decode_held(seat, observer.cards, deal, number))
        self._after()

    @property
    def compiled(self) -> bool:
        """Whether the hand is being played by the compiled step (``fast=True``, a normal hand, not replayed)."""
        return self._fast is not None

    @property
    def play_order(self) -> tuple[int, ...]:
        """Every seat in order of play, the button last."""
        fast = self._fast
        return play_order(fast.button, self.rules.players) if fast is not None else self._hand.play_order

    def _fantasy_action(self, seat: int, number: object) -> Action:
        return board_action(seat, self.boards(seat), number)

    def points(self) -> tuple[int, ...]:
        """Each seat's points at the showdown (zeros before)."""
        fast = self._fast
        if fast is not None:
            return fast.points() if fast.over else (0,) * self.rules.players
        result = self._hand.result
        return result.points if result is not None else (0,) * self.rules.players


def _plain_number(number: object, size: int) -> bool:
    """Whether ``number`` is a whole number (not a bool) from 0 to ``size`` - 1, as the compiled step takes."""
    kind = type(number)
    if kind is not int and (kind is bool or not isinstance(number, np.integer)):
        return False
    return 0 <= number < size  # type: ignore[operator]  # an int or numpy integer here


def random_number(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> int:
    """A uniformly drawn legal action number from a mask."""
    return int(rng.choice(np.flatnonzero(mask)))


__all__ = [
    "ILLEGAL_CHOICES",
    "Observation",
    "Table",
    "board_action",
    "check_fantasy_choices",
    "fantasy_boards",
    "random_number",
    "read_rules",
]
