"""A table's seats: who sits where, joining and leaving, and the bot that plays a seat left mid-match.

A person may leave a match that has started: the seat is then played by ``STAND_IN`` for the
rest of the match, while the seat stays the person's (their stake stays held, the seat's
result is settled into their balance at the end, their token still reads the seat's hand
histories). ``Seating`` is the part of ``TableGame`` that keeps the seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ofc.rules.rulebook import Rules
from ofc.server.db.storage import FINISHED, PLAYING, TOURNAMENT, WAITING, Storage
from ofc.server.tables import tournament as tourney
from ofc.server.tables.decks import PlayError

STAND_IN = "heuristic"
"""The bot that plays the seat of a person who left a running match."""


@dataclass
class SeatInfo:
    """A seat of the table: a bot spec, or a person once someone has joined."""

    bot: str | None
    player: str | None = None
    token_hash: str | None = None
    stand_in: str | None = None
    """The bot playing a person's seat since they left the running match (None: they play it)."""

    @property
    def name(self) -> str:
        """What the table shows for the seat."""
        if self.bot is not None:
            return f"{self.bot} bot"
        return self.player or "(empty)"

    @property
    def played_by(self) -> str | None:
        """The bot spec that decides for the seat: its own bot, or the stand-in of a person who left."""
        return self.bot if self.bot is not None else self.stand_in


class Seating:
    """The seats of a table and the requests that change them (mixed into ``TableGame``)."""

    id: int
    kind: str
    status: str
    rules: Rules
    store: Storage
    seats: list[SeatInfo]

    @property
    def open_seats(self) -> list[int]:
        """Seats waiting for a person."""
        return [i for i, seat in enumerate(self.seats) if seat.bot is None and seat.player is None]

    @property
    def empty(self) -> bool:
        """Whether nobody sits at the table (every person's seat open)."""
        return all(seat.player is None for seat in self.seats)

    def seat_of(self, token_hash: str) -> int | None:
        """The seat holding the token with this hash, if any (a seat left mid-match too)."""
        found = (
            i for i, info in enumerate(self.seats) if info.token_hash is not None and info.token_hash == token_hash
        )
        return next(found, None)

    def has_player(self, name: str) -> bool:
        """Whether ``name`` sits at this table (or left it mid-match: the seat is still theirs)."""
        return any(info.player == name for info in self.seats)

    def check_open(self, seat: int, player: str) -> None:
        """Raise ``PlayError`` unless ``player`` may sit down at ``seat``."""
        if seat not in self.open_seats:
            raise PlayError("seat {seat} of table {table} is not open", code="seat_taken", seat=seat, table=self.id)
        if self.has_player(player):
            raise PlayError(
                "{player} already sits at table {table}", code="already_seated", player=player, table=self.id
            )

    def sit(self, seat: int, player: str, token_hash: str, *, stored: bool = False) -> None:
        """Give an open seat to ``player`` (stored first, unless the caller has ``stored`` it)."""
        self.check_open(seat, player)
        if not stored:
            self.store.take_seat(self.id, seat, player, token_hash, self.stake())
        self.seats[seat].player = player
        self.seats[seat].token_hash = token_hash

    def leave(self, seat: int, *, stored: bool = False) -> None:
        """Give up a person's seat before the match starts (stored first, unless the caller has)."""
        self.check_leave(seat)
        if not stored:
            self.store.free_seat(self.id, seat, self.stake())
        self.seats[seat].player = None
        self.seats[seat].token_hash = None

    def hand_over(self, seat: int, *, stored: bool = False) -> str:
        """Let ``STAND_IN`` play a person's seat for the rest of the running match or tournament; the bot spec.

        Stored first, unless the caller has ``stored`` it.
        """
        self.check_leave(seat)
        if not stored:
            self.store.hand_over_seat(self.id, seat, STAND_IN)
        self.seats[seat].stand_in = STAND_IN
        return STAND_IN

    def check_leave(self, seat: int) -> None:
        """Raise ``PlayError`` unless the person at ``seat`` may leave now (before the end, once)."""
        info = self.seats[seat]
        if info.stand_in is not None:
            raise PlayError(
                "{player} has already left table {table}", code="left_seat", player=info.name, table=self.id
            )
        if self.status == FINISHED:
            raise PlayError(
                "table {table}'s match is over: its seats can no longer be left", code="not_playing", table=self.id
            )
        if self.status != WAITING and self.status != PLAYING:
            raise PlayError(
                "table {table} is not being played: its seats cannot be left", code="not_playing", table=self.id
            )

    def check_playing(self, seat: int) -> None:
        """Raise ``PlayError`` when the person at ``seat`` has left it to a bot (their token only watches)."""
        info = self.seats[seat]
        if info.stand_in is not None:
            raise PlayError(
                "{player} left table {table}: the {bot} bot plays the seat until the match ends",
                code="left_seat",
                player=info.name,
                table=self.id,
                bot=info.stand_in,
            )

    def stake(self) -> Fraction:
        """What sitting down takes from a person's balance: a tournament's buy-in (a match: nothing)."""
        return tourney.buy_in(self.rules) if self.kind == TOURNAMENT else Fraction(0)
