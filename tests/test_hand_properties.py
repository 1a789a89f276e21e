"""Random legal play to the end, every variant and table size, with random clocks and fantasy.

At every step no view shows a card its seat may not know; at the end every card was dealt
once, every board holds 13 cards, the points sum to zero and the history replays equal.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc.engine.determinize import determinize
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.formats import history
from ofc.rules.cards import Card, format_card
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board, score_boards

CONFIGS = [
    *(("classic", players) for players in (2, 3, 4)),
    *(("turbo", players) for players in (2, 3, 4)),
    ("pineapple", 2),
    ("pineapple", 3),
    ("pineapple-progressive", 2),
    ("pineapple-progressive", 3),
]
STARTS: list[Decimal | float] = [0, Decimal("1000.25")]  # the hand's start time (an int and a Decimal)


@st.composite
def hands(draw: st.DrawFn, preset: str, players: int) -> tuple[Hand, int]:
    """A fresh hand with random clocks, fantasy seats, button and deck, and a policy seed."""
    rules = Rules.preset(preset).with_settings(
        {
            "players": players,
            "hand_seconds": draw(st.sampled_from([4, 60])),
            "time_bank_seconds": draw(st.sampled_from([0, 30])),
        }
    )
    deals = sorted(rules.fantasy_deals)
    fantasy = tuple(draw(st.sampled_from([0, 0, *deals])) for _ in range(players))
    hand = Hand(
        rules,
        button=draw(st.integers(0, players - 1)),
        seed=draw(st.integers(0, 2**32)),
        fantasy=fantasy,
        now=draw(st.sampled_from(STARTS)),
    )
    return hand, draw(st.integers(0, 2**32))


def knowable(hand: Hand, seat: int | None) -> set[Card]:
    """Cards ``seat`` may see: placed cards of street seats, its own cards, all boards at the end."""
    cards: set[Card] = set()
    for record in hand.private_record().actions:
        action = record.action
        if action.seat == seat or not hand.fantasy[action.seat] or hand.is_over:
            cards.update(card for card, _ in action.placements)
        if action.seat == seat:
            cards.update(action.discards)
    if seat is not None:
        cards.update(hand.view(seat).cards)
    return cards


PUBLIC_FACTS = {
    "rules", "button", "play_order", "fantasy", "fantasy_in_row", "start_time", "starting_banks", "now",
    "street", "to_act", "is_over", "actions_taken", "time_banks", "caller_deals", "deal_due",
}  # fmt: skip
"""Public attributes of ``Hand`` that hold no card at all."""
SEAT_GATED = {"view", "view_update", "legal_actions", "check", "is_legal", "clock"}
"""Public methods that answer for one seat (``view`` is the gate, ``view_update`` its incremental form;
the rest name only that seat's cards)."""
DRIVING = {"apply", "apply_unchecked", "advance", "undo", "clone", "deal", "check_deal"}
"""Public methods that drive the hand; they return actions the caller made or was told of, a hand, or the
deal the caller makes."""
ONE_DOOR = {"private_record"}
"""The one explicitly named accessor of the deck and every action (hand histories, storage)."""


def test_every_public_attribute_of_hand_is_classified() -> None:
    # A new public attribute must be classified here, so that no door to hidden cards opens unseen.
    public = {name for name in dir(Hand) if not name.startswith("_")}
    assert public == PUBLIC_FACTS | SEAT_GATED | DRIVING | ONE_DOOR | {"result"}


def check_facts(hand: Hand) -> None:
    """Public facts do not depend on hidden cards: a hand with every card a spectator cannot see
    drawn anew (a spectator's determinization) shows the same facts; no result before the end."""
    other = determinize(hand.view(None), random.Random(hand.actions_taken))
    for name in PUBLIC_FACTS:
        assert getattr(other, name) == getattr(hand, name), name
    assert (hand.result is None) != hand.is_over


def check_views(hand: Hand) -> None:
    check_facts(hand)
    for seat in [*range(hand.rules.players), None]:
        view = hand.view(seat)
        text = json.dumps(view.to_dict())
        # the JSON form carries every field of the view, so the text check below covers them all
        assert set(view.__slots__) <= set(view.to_dict())
        allowed = knowable(hand, seat)
        for card in range(52):
            if card not in allowed:
                assert f'"{format_card(card)}"' not in text, (seat, format_card(card))
        if seat is not None:
            check_update(hand, seat, view, allowed)
    spectator = json.dumps(hand.view(None).to_dict())
    for card in knowable(hand, None):
        assert f'"{format_card(card)}"' in spectator


def check_update(hand: Hand, seat: int, view: HandView, allowed: set[Card]) -> None:
    """``view_update`` is the view's incremental form: the same fields, the history from any action on."""
    whole = hand.view_update(seat, 0)
    assert (whole.seat, whole.street, whole.to_act, whole.cards) == (seat, view.street, view.to_act, view.cards)
    assert whole.holding == tuple(other.holding for other in view.seats)
    assert (whole.history, whole.seen, whole.over) == (view.history, hand.actions_taken, view.result is not None)
    for since in range(hand.actions_taken + 1):
        assert hand.view_update(seat, since).history == view.history[since:]
    shown = set(whole.cards)
    for seen in whole.history:
        shown.update(card for card, _ in seen.placements)
        shown.update(seen.discards)
    assert shown <= allowed


def play(hand: Hand, policy: int) -> None:
    rng = random.Random(policy)
    now = hand.now
    check_views(hand)
    while not hand.is_over:
        now += rng.choice([1, 2, 7, 45])
        hand.advance(now)
        if hand.is_over:
            break
        seat = rng.choice(hand.to_act)
        actions = hand.legal_actions(seat)
        action = rng.choice(actions)
        assert action in actions
        assert hand.is_legal(action)
        hand.apply(action, now)
        check_views(hand)
    check_views(hand)


def check_end(hand: Hand) -> None:
    result = hand.result
    assert result is not None
    players = hand.rules.players
    placed = [card for board in result.boards for card in board.cards]
    discarded = [card for record in hand.private_record().actions for card in record.action.discards]
    assert len(placed) == 13 * players
    street_seats = sum(1 for cards in hand.fantasy if not cards)
    dealt = sum(hand.fantasy) + street_seats * sum(street.cards for street in hand.rules.spec.streets)
    assert sorted(placed + discarded) == sorted(hand.private_record().deck[:dealt])
    assert sum(result.points) == 0
    # the engine builds its boards unchecked (dealt from one deck): the checked path agrees
    checked = [Board(board.top, board.middle, board.bottom) for board in result.boards]
    assert checked == list(result.boards)
    assert score_boards(checked, hand.rules, hand.fantasy_in_row) == result.sheet
    for i, line in enumerate(result.sheet.players):
        assert all(line.vs[j] == -result.sheet.players[j].vs[i] for j in range(players))
    assert all(bank <= start for bank, start in zip(result.time_banks, hand.starting_banks, strict=True))
    text = history.write_text(hand, [f"p{seat}" for seat in range(players)])
    replayed = history.replay(text)
    assert replayed.private_record().actions == hand.private_record().actions
    assert replayed.result is not None
    assert replayed.result.to_dict() == result.to_dict()
    assert history.write(replayed, [f"p{seat}" for seat in range(players)]) == json.loads(text)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_random_play_to_the_end(preset: str, players: int) -> None:
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(hands(preset, players))
    def run(setup: tuple[Hand, int]) -> None:
        hand, policy = setup
        play(hand, policy)
        check_end(hand)

    run()
