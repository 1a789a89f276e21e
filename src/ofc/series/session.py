"""Matches and tournaments played hand by hand through the engine.

``Session`` joins the two halves of the game: a ``Match`` or ``Tournament`` (button, fantasy
carry-over, time banks, ledger) plans each hand, a ``Hand`` plays it, and the result goes back
to the series. Hand seats are numbered ``0..k-1`` over the seats dealt in (``plan.seats``), so
a seat that has left a match simply is not dealt; ``match_seat`` and ``hand_seat`` translate.

Anything that decides actions from a view is an ``Agent``; ``play_hand`` drives one hand with
one agent per hand seat (bots, or a face that asks a person)::

    session = Session(Match(rules, button=0))
    while not session.finished:
        hand = session.deal(seed=hand_seed)
        play_hand(hand, [agents[seat] for seat in session.plan.seats])
        session.settle()
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ofc.engine.agent import Agent
from ofc.engine.hand import Hand
from ofc.rules.cards import Deck
from ofc.rules.errors import MatchError
from ofc.series.match import HandRecord, Match
from ofc.series.rotation import DealPlan
from ofc.series.tournament import Tournament, TournamentHand


class Session:
    """A match or tournament whose hands are played by the hand engine."""

    def __init__(self, series: Match | Tournament) -> None:
        self.series = series
        self._plan: DealPlan | None = None
        self._hand: Hand | None = None
        self._settled = True

    @property
    def finished(self) -> bool:
        """Whether the series is over (no hand may be dealt)."""
        return self.series.finished

    @property
    def plan(self) -> DealPlan:
        """The plan of the hand being played."""
        if self._plan is None:
            raise MatchError("no hand has been dealt yet")
        return self._plan

    @property
    def hand(self) -> Hand:
        """The hand being played (or the last one, once settled)."""
        if self._hand is None:
            raise MatchError("no hand has been dealt yet")
        return self._hand

    def deal(self, *, deck: Deck | None = None, seed: int | None = None, now: Decimal | float = 0) -> Hand:
        """Start the next hand from ``deck``, ``seed`` or a secure shuffle."""
        if self._hand is not None and not self._settled:
            raise MatchError("settle the hand being played before dealing another")
        plan = self.series.next_deal()
        rules = self.series.rules
        if len(plan.seats) != rules.players:
            rules = rules.with_settings({"players": len(plan.seats)})
        self._hand = Hand(
            rules,
            button=plan.button_index,
            deck=deck,
            seed=seed,
            fantasy=plan.fantasy,
            fantasy_in_row=plan.fantasy_in_row,
            time_banks=plan.time_banks,
            now=now,
        )
        self._plan = plan
        self._settled = False
        return self._hand

    def settle(self) -> HandRecord | TournamentHand:
        """Record the finished hand in the series and return the series' record of it."""
        hand = self.hand
        result = hand.result
        if result is None:
            raise MatchError("the hand is not over yet")
        if self._settled:
            raise MatchError("this hand has already been settled")
        record = self.series.record(result.sheet, result.time_banks)
        self._settled = True
        return record

    def match_seat(self, hand_seat: int) -> int:
        """The series seat playing ``hand_seat`` in the current hand."""
        return self.plan.seats[hand_seat]

    def hand_seat(self, match_seat: int) -> int:
        """The hand seat of ``match_seat`` in the current hand."""
        return self.plan.index(match_seat)


def play_hand(hand: Hand, agents: Sequence[Agent], now: Decimal | float = 0) -> None:
    """Play ``hand`` to the end, asking ``agents[seat]`` for each seat's actions at time ``now``."""
    if len(agents) != hand.rules.players:
        raise MatchError(
            "play_hand needs one agent per seat ({players}), got {n_agents}",
            players=hand.rules.players,
            n_agents=len(agents),
        )
    while not hand.is_over:
        seat = hand.to_act[0]
        hand.apply(agents[seat].act(hand.view(seat)), now)
