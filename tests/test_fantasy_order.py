"""The seeds' fantasy order over many real matches between bots (RULES.md "Fantasyland" and
"Button and match"), through ``Session`` as every face plays them:

- a hand in which anyone plays fantasy keeps the button of the hand before it;
- no street seat acts while a fantasy seat has not set its hand;
- a match has (players + hands with fantasy in them) hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ofc.bots import make_bot
from ofc.bots.base import Bot
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.rules.rulebook import Rules
from ofc.series.match import Match
from ofc.series.session import Session

MATCHES = 300


def play_checked(hand: Hand, bots: Sequence[Bot], fantasy_hands: list[int]) -> None:
    """Play ``hand`` with ``bots``, checking at every action that fantasy seats have set first."""
    fantasy_seats = [seat for seat, cards in enumerate(hand.fantasy) if cards]
    while not hand.is_over:
        seat = hand.to_act[0]
        public = hand.view(None)
        if seat not in fantasy_seats:
            assert all(public.seats[other].holding == 0 for other in fantasy_seats), "a street seat acted too early"
        else:
            assert all(other in fantasy_seats for other in hand.to_act)
        action: Action = bots[seat].act(hand.view(seat))
        hand.apply(action, 0)
    if fantasy_seats:
        fantasy_hands.append(len(fantasy_seats))


def test_three_player_pineapple_matches_follow_the_fantasy_order() -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3})
    bots = [make_bot("heuristic", seed=seat) for seat in range(3)]
    rng = random.Random(2026)
    fantasy_hands: list[int] = []
    for _ in range(MATCHES):
        session = Session(Match(rules, button=rng.randrange(3)))
        buttons: list[int] = []
        with_fantasy = 0
        while not session.finished:
            hand = session.deal(seed=rng.getrandbits(32))
            plan = session.plan
            if plan.any_fantasy:
                with_fantasy += 1
                assert buttons, "the first hand of a match has no fantasy"
                assert plan.button == buttons[-1], "a fantasy hand keeps the button of the hand before it"
            elif buttons:
                assert plan.button == (buttons[-1] + 1) % 3, "a normal hand moves the button one seat"
            buttons.append(plan.button)
            play_checked(hand, bots, fantasy_hands)
            session.settle()
        assert len(buttons) == 3 + with_fantasy
        assert sorted(set(buttons)) == [0, 1, 2]
    print(f"{len(fantasy_hands)} fantasy hands in {MATCHES} matches")
    assert len(fantasy_hands) >= 10  # the rules above were exercised, not just vacuously true
