"""Sit-and-go tournaments at a server table: buy-ins, what the state shows, prizes.

The table plays an ``ofc.series.tournament.Tournament`` hand by hand like a match. The money moves
three times, each in one database transaction:

- a person's buy-in leaves their balance when they sit (and comes back if they leave before
  the start);
- at the start, the house account pays the buy-in of every bot seat;
- at the end, each person's prize goes into their balance and each bot seat's prize to the
  house account.

The prize pool is the buy-ins of every seat and the prizes add up to it exactly, so a finished
tournament changes the people's balances and the house account by amounts summing to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from ofc.rules.errors import BalanceError, RulesError
from ofc.rules.rulebook import Rules
from ofc.series.ledger import amount_text
from ofc.series.tournament import Tournament, TournamentHand
from ofc.server.tables.money import in_cents


class Seat(Protocol):
    """What the money needs to know of a seat: a bot spec, or the person sitting there."""

    bot: str | None
    player: str | None


def check_rules(rules: Rules) -> None:
    """Raise ``RulesError`` when ``rules`` cannot run a tournament (more places paid than players,
    a buy-in that is not a whole number of cents)."""
    if not in_cents(rules.buy_in):
        raise RulesError("setting buy_in: money is counted in whole cents, not {buy_in}", buy_in=rules.buy_in)
    Tournament(rules, button=0)


def check_buy_in(seat: int, player: str, balance: Fraction, rules: Rules, held: Fraction) -> None:
    """Raise ``BalanceError`` naming the seat when ``player`` cannot pay the buy-in.

    ``held`` is what the player's unfinished loss-limited matches hold of the balance.
    """
    free = balance - held
    if free < Fraction(rules.buy_in):
        if held:
            raise BalanceError(
                "seat {seat}: {player}'s balance {balance} ({held} of it held at other tables) "
                "does not cover the buy-in of {buy_in}",
                seat=seat,
                player=player,
                balance=amount_text(balance),
                held=amount_text(held),
                buy_in=amount_text(rules.buy_in),
            )
        raise BalanceError(
            "seat {seat}: {player}'s balance {balance} does not cover the buy-in of {buy_in}",
            seat=seat,
            player=player,
            balance=amount_text(balance),
            buy_in=amount_text(rules.buy_in),
        )


def buy_in(rules: Rules) -> Fraction:
    """The buy-in as an exact amount."""
    return Fraction(rules.buy_in)


def house_buy_ins(rules: Rules, seats: Sequence[Seat]) -> dict[int, Fraction]:
    """The buy-ins the house pays at the start: one per bot seat."""
    return {index: buy_in(rules) for index, seat in enumerate(seats) if seat.bot is not None}


def payouts(tournament: Tournament, seats: Sequence[Seat]) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """The prizes of a finished tournament: per person's name, and per bot seat (the house's)."""
    prizes = tournament.prizes()
    people = {seat.player: Fraction(prizes[i]) for i, seat in enumerate(seats) if seat.player is not None}
    house = {i: Fraction(prizes[i]) for i, seat in enumerate(seats) if seat.bot is not None}
    return people, house


def facts(tournament: Tournament) -> dict[str, Any]:
    """The ``tournament`` part of a table's state (docs/protocol.md); every list is by table seat.

    The level and hands left are those of the hand being played or, between hands, of the next.
    """
    rules = tournament.rules
    played = len(tournament.hands)
    level = tournament.level
    last = len(rules.chips_per_point) - 1
    hands_left = None if level == last else (level + 1) * rules.level_hands - played
    finishes = tournament.finishes
    places = [
        None if seat not in finishes else {"place": finishes[seat].place, "tied": finishes[seat].tied}
        for seat in range(tournament.entrants)
    ]
    hands = tournament.hands
    return {
        "buy_in": amount_text(rules.buy_in),
        "prize_pool": amount_text(tournament.prize_pool),
        "payouts": [str(share) for share in rules.payouts],
        "starting_chips": rules.starting_chips,
        "hands_played": played,
        "level": level,
        "level_hands": rules.level_hands,
        "hands_left": hands_left,
        "chips_per_point": tournament.chips_per_point,
        "next_chips_per_point": None if level == last else rules.chips_per_point[level + 1],
        "chips": list(tournament.chips),
        "places": places,
        "prizes": _prizes(tournament),
        "last_hand": None if not hands else _last(hands[-1]),
    }


def _prizes(tournament: Tournament) -> list[str] | None:
    if not tournament.finished:
        return None
    return [amount_text(prize) for prize in tournament.prizes()]


def _last(hand: TournamentHand) -> dict[str, Any]:
    """The chips of the last settled hand: its level, rate and each seat's net chips."""
    return {
        "level": hand.level,
        "chips_per_point": hand.chips_per_point,
        "won": list(hand.won),
        "busted": list(hand.busted),
    }
