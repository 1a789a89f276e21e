"""Session: matches and tournaments played through the hand engine."""

from __future__ import annotations

import random

import pytest

from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.rules.errors import MatchError
from ofc.rules.rulebook import Rules
from ofc.series.match import HandRecord, Match
from ofc.series.session import Session, play_hand
from ofc.series.tournament import Tournament
from support.sheets import sheet


class FirstLegal:
    """An agent that plays the first legal action of a fresh hand built from the view."""

    def __init__(self, hand_source: Session) -> None:
        self.session = hand_source

    def act(self, view: HandView) -> Action:
        assert view.seat is not None
        return self.session.hand.legal_actions(view.seat)[0]


class RandomLegal:
    def __init__(self, session: Session, seed: int) -> None:
        self.session = session
        self.rng = random.Random(seed)

    def act(self, view: HandView) -> Action:
        assert view.seat is not None
        actions = self.session.hand.legal_actions(view.seat)
        return actions[self.rng.randrange(len(actions))]


@pytest.mark.parametrize("preset", ["classic", "turbo", "pineapple", "pineapple-progressive"])
def test_match_plays_to_the_end_zero_sum(preset: str) -> None:
    rules = Rules.preset(preset).with_settings({"players": 3})
    session = Session(Match(rules, button=1))
    agent = RandomLegal(session, seed=5)
    hands = 0
    while not session.finished:
        hand = session.deal(seed=hands)
        play_hand(hand, [agent] * len(session.plan.seats))
        session.settle()
        hands += 1
    match = session.series
    assert isinstance(match, Match)
    assert hands >= 3
    assert hands == len(match.hands)
    assert sum(match.ledger.points) == 0
    fantasy_hands = sum(1 for record in match.hands if record.plan.any_fantasy)
    assert hands == 3 + fantasy_hands  # the button stays on fantasy hands


def test_loss_limit_seat_leaves_and_hands_shrink() -> None:
    rules = Rules.preset("classic").with_settings({"players": 3, "loss_limit": 5})
    session = Session(Match(rules, button=0))
    agent = RandomLegal(session, seed=1)
    gone: set[int] = set()
    left_seen = False
    for number in range(40):
        if session.finished:
            break
        hand = session.deal(seed=number + 100)
        assert hand.rules.players == len(session.plan.seats) == 3 - len(gone)
        assert gone.isdisjoint(session.plan.seats)
        play_hand(hand, [agent] * hand.rules.players)
        record = session.settle()
        assert isinstance(record, HandRecord)
        gone.update(record.left)
        left_seen = left_seen or bool(record.left)
    match = session.series
    assert isinstance(match, Match)
    assert left_seen  # with a limit of 5 points someone is capped in these seeded hands
    assert min(match.ledger.points) >= -5
    assert sum(match.ledger.points) == 0


def test_tournament_until_one_left() -> None:
    rules = Rules.preset("pineapple").with_settings(
        {"players": 3, "starting_chips": 60, "chips_per_point": "5,10", "level_hands": 2}
    )
    session = Session(Tournament(rules, button=2))
    agent = RandomLegal(session, seed=3)
    played = 0
    while not session.finished and played < 500:
        hand = session.deal(seed=played)
        play_hand(hand, [agent] * hand.rules.players)
        session.settle()
        played += 1
    tournament = session.series
    assert isinstance(tournament, Tournament)
    assert session.finished
    assert sum(tournament.chips) == 180
    assert sorted(tournament.chips, reverse=True)[1:] == [0, 0]


def test_misuse_is_refused() -> None:
    session = Session(Match(Rules(), button=0))
    with pytest.raises(MatchError, match="no hand has been dealt"):
        _ = session.hand
    hand = session.deal(seed=1)
    with pytest.raises(MatchError, match="not over yet"):
        session.settle()
    with pytest.raises(MatchError, match="settle the hand being played"):
        session.deal(seed=2)
    play_hand(hand, [FirstLegal(session)] * 2)
    session.settle()
    with pytest.raises(MatchError, match="already been settled"):
        session.settle()
    assert session.match_seat(1) == 1
    assert session.hand_seat(0) == 0
    with pytest.raises(MatchError, match="one agent per seat"):
        play_hand(session.deal(seed=3), [FirstLegal(session)])


def test_after_a_seat_leaves_the_hand_seats_keep_the_clockwise_order() -> None:
    """Seat 1 loses 6 with a limit of 5 and leaves; the button moves from 0 to 2, so match seat
    0 (left of the button) acts first, then 2. The hand numbers its seats 0, 1 for 0, 2."""
    rules = Rules.preset("classic").with_settings({"players": 3, "loss_limit": 5})
    match = Match(rules, button=0)
    result = sheet([[0, 3, 0], [-3, 0, -3], [0, 3, 0]])
    assert match.record(result).left == (1,)
    session = Session(match)
    hand = session.deal(seed=1)
    assert (session.plan.seats, session.plan.button, session.plan.order) == ((0, 2), 2, (0, 2))
    assert (hand.rules.players, hand.button, hand.play_order) == (2, 1, (0, 1))
    assert [session.match_seat(seat) for seat in hand.play_order] == [0, 2]
    assert session.hand_seat(2) == 1
    with pytest.raises(MatchError, match="seat 1 is not dealt in hand 1"):
        session.hand_seat(1)
