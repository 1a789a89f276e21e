"""One table's seats and its match or tournament, played through the engine and stored as it goes.

``TableGame`` is synchronous and knows nothing of sockets: the table manager calls it under the
table's lock. A seat's action is checked, stored, then applied (``check_act``/``apply_act``);
changes the table makes itself (placements, deals, settlements) are queued in order in
``pending`` and stored by the manager before anything is sent. ``TableGame.restore`` rebuilds
the table from its stored rows. A tournament's money is in ``ofc.server.tables.tournament``.

A person may leave a match that has started: the seat is then played by ``STAND_IN`` for the
rest of the match, while the seat stays the person's (their stake stays held, the seat's
result is settled into their balance at the end, their token still reads the seat's hand
histories).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import time_text
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.formats.history import TournamentFields, write
from ofc.rules.cards import Deck, format_card, parse_cards
from ofc.rules.errors import ActionError, OfcError
from ofc.rules.rulebook import Rules
from ofc.series.ledger import amount_text
from ofc.series.match import Match
from ofc.series.session import Session
from ofc.series.tournament import Tournament, TournamentHand
from ofc.server.db.storage import (
    DAMAGED,
    FINISHED,
    MATCH,
    PLAYING,
    TOURNAMENT,
    WAITING,
    ActionRow,
    Storage,
    TableRow,
)
from ofc.server.net.protocol import with_hand_phrases
from ofc.server.tables import tournament as tourney
from ofc.server.tables.decks import DeckSource as DeckSource
from ofc.server.tables.decks import PlayError as PlayError
from ofc.server.tables.decks import action_row, discard_due
from ofc.server.tables.decks import secure_deck as secure_deck
from ofc.server.tables.decks import seeded_decks as seeded_decks
from ofc.server.tables.money import settle_match
from ofc.server.tables.timekeeping import TableTime

log = logging.getLogger("ofc.server")


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


@dataclass(frozen=True)
class CheckedAction:
    """A checked action not yet applied: where it is stored (table, hand, sequence) and its row."""

    action: Action
    time: Decimal
    where: tuple[int, int, int]
    row: ActionRow


class TableGame:
    """A table: its seats, its match and the hand being played."""

    def __init__(
        self,
        table_id: int,
        name: str,
        rules: Rules,
        bots: Sequence[str | None],
        store: Storage,
        *,
        pause: Decimal = Decimal(0),
        decks: DeckSource = secure_deck,
        kind: str = MATCH,
        hints: bool = True,
    ) -> None:
        self.id = table_id
        self.kind = kind
        """``match`` or ``tournament``."""
        self.name = name
        self.rules = rules
        self.seats = [SeatInfo(bot) for bot in bots]
        self.store = store
        self.pause = pause
        self.decks = decks
        self.status = WAITING
        self.hints = hints
        """Whether the table's seats may ask for hints and the solver (off: a game between people)."""
        self.waiting_since: Decimal | None = None
        """Server time since which the waiting table has nobody seated (None: someone sits, or it started)."""
        self.session: Session | None = None
        self.series: Match | Tournament | None = None
        self.hand_number = -1
        self.next_deal: Decimal | None = None
        self.previous: dict[str, Any] | None = None
        self.time = TableTime()
        """Server time to table time: the downtime of the restarts so far (see ``restore``) and the holds."""
        self.rematch: int | None = None
        """The table opened for a rematch once this match is over."""
        self._stored = 0
        self.deferred = False
        """When set, writes go to ``pending`` (the table manager stores them) instead of the store."""
        self.pending: list[Callable[[], object]] = []
        """Writes that memory already holds, in order, waiting to be stored (``deferred`` only)."""
        self.settled = False
        """Whether the finished match's money is stored in the balances (until then its stakes stay held)."""

    def _write(self, call: Callable[..., object], *args: Any) -> None:
        if self.deferred:
            self.pending.append(functools.partial(call, *args))
        else:
            call(*args)

    def take_pending(self) -> list[Callable[[], object]]:
        """The writes waiting to be stored, handed over (the list is emptied)."""
        pending, self.pending = self.pending, []
        return pending

    def open_rematch(self, table_id: int) -> None:
        """Record the table opened for this finished match's rematch (stored first)."""
        self._write(self.store.set_rematch, self.id, table_id)
        self.rematch = table_id

    def start(self, button: int, now: Decimal) -> None:
        """Start the match with the button on ``button`` and deal the first hand at server time ``now``."""
        house = tourney.house_buy_ins(self.rules, self.seats) if self.kind == TOURNAMENT else None
        self._write(self.store.start_match, self.id, button, house)
        self.status = PLAYING
        self._begin(button)
        self._deal(self.time.table(now))

    def _begin(self, button: int) -> Session:
        if self.kind == TOURNAMENT:
            self.series = Tournament(self.rules, button=button)
        else:
            self.series = Match(self.rules, button=button)
        self.session = Session(self.series)
        return self.session

    # ------------------------------------------------------------------ seats

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

    # ------------------------------------------------------------------ play

    @property
    def hand(self) -> Hand | None:
        """The hand being played (or the last one)."""
        return None if self.session is None or self.hand_number < 0 else self.session.hand

    def hand_seat(self, seat: int | None) -> int | None:
        """The hand seat of table ``seat`` in the current hand (None if not dealt in)."""
        if seat is None or self.session is None or self.hand_number < 0:
            return None
        plan = self.session.plan
        return plan.index(seat) if seat in plan.seats else None

    def _deal(self, now: Decimal) -> None:
        assert self.session is not None
        number = self.hand_number + 1
        deck = self.decks(self.id, number)
        self._write(self.store.add_hand, self.id, number, [format_card(card) for card in deck.order], time_text(now))
        self.session.deal(deck=Deck(order=deck.order), now=now)
        self.hand_number = number
        self._stored = 0
        self.next_deal = None

    def _persist(self) -> None:
        """Store the automatic actions the hand has made since the last store."""
        hand = self.hand
        assert hand is not None
        new = hand.private_record().actions[self._stored :]
        self._write(self.store.add_actions, self.id, self.hand_number, self._stored, [action_row(r) for r in new])
        self._stored = hand.actions_taken

    def sync(self, now: Decimal) -> bool:
        """Bring the table to server time ``now``: placements for seats out of time, the next deal.

        Returns whether anything changed that the seats should be told.
        """
        return self._sync(self.time.table(now))

    def _sync(self, now: Decimal) -> bool:
        hand = self.hand
        if self.status != PLAYING or hand is None:
            return False
        changed = False
        if not hand.is_over:
            if hand.advance(max(now, hand.now)):
                self._persist()
                changed = True
            if hand.is_over:
                self._finish_hand()
        if self.status == PLAYING and hand.is_over and self.next_deal is not None and now >= self.next_deal:
            self._deal(now)
            changed = True
        return changed

    def act(self, seat: int, place: Any, discard: Any, now: Decimal) -> Action:
        """Check, store and apply table ``seat``'s action at server time ``now``; raises ``PlayError``."""
        checked = self.check_act(seat, place, discard, now)
        self.store.add_action(*checked.where, checked.row)
        return self.apply_act(checked, now)

    def check_act(self, seat: int, place: Any, discard: Any, now: Decimal) -> CheckedAction:
        """Bring the table to time and check table ``seat``'s action; raises ``PlayError``.

        Store ``where``/``row`` of the answer, then ``apply_act`` it (the lock held throughout).
        """
        now = self.time.table(now)
        self._sync(now)
        hand = self.hand
        if self.status != PLAYING or hand is None or hand.is_over:
            raise PlayError("table {table} has no hand in play", code="not_playing", table=self.id)
        hand_seat = self.hand_seat(seat)
        if hand_seat is None:
            raise PlayError("seat {seat} is not dealt in this hand", code="not_in_hand", seat=seat)
        try:
            action = Action.from_dict({"seat": hand_seat, "place": place, "discard": discard})
        except OfcError as error:
            raise PlayError("{problem}", code="bad_action", problem=error) from None
        try:
            hand.check(action)
        except ActionError as error:
            raise PlayError("{kind}: {problem}", code="illegal", kind=type(error).__name__, problem=error) from None
        time = max(now, hand.now)
        row = action_row(ActionRecord(action, time, False))
        return CheckedAction(action, time, (self.id, self.hand_number, self._stored), row)

    def apply_act(self, checked: CheckedAction, now: Decimal) -> Action:
        """Apply an action from ``check_act`` once it is stored."""
        hand = self.hand
        assert hand is not None
        assert checked.where == (self.id, self.hand_number, self._stored)
        hand.apply(checked.action, checked.time)
        self._stored = hand.actions_taken
        if hand.is_over:
            self._finish_hand()
            self._sync(self.time.table(now))
        return checked.action

    def _finish_hand(self, *, record: bool = True) -> None:
        session = self.session
        assert session is not None
        hand = session.hand
        result = hand.result
        assert result is not None
        plan = session.plan
        settled = session.settle()
        if record:
            names = [self.seats[seat].name for seat in plan.seats]
            fields = TournamentFields.of(settled) if isinstance(settled, TournamentHand) else None
            history = write(hand, names, tournament=fields)  # a tournament hand's: version 2
            summary = self.ledger() or self.tournament() or {}
            self._write(self.store.finish_hand, self.id, self.hand_number, history, summary)
        self.previous = {"number": self.hand_number, "hand_seats": list(plan.seats), "result": result.to_dict()}
        if session.finished:
            series = self.series
            if isinstance(series, Tournament):
                owed, house = tourney.payouts(series, self.seats)
                self._write(self.store.finish_match, self.id, owed, house)
            else:
                assert series is not None
                owed, house = settle_match(series.ledger.money, self.seats)
                self._write(self.store.finish_match, self.id, owed, house, "match")
            self._write(self._settle)  # runs once the settlement before it is stored
            self.status = FINISHED
        else:
            self.next_deal = hand.now + self.pause

    def _settle(self) -> None:
        self.settled = True

    def wake_time(self) -> Decimal | None:
        """When (server time) the table next needs ``sync``: a clock's deadline or the next deal."""
        hand = self.hand
        if self.status != PLAYING or hand is None:
            return None
        if hand.is_over:
            due = self.next_deal
        else:
            due = min((d for seat in hand.to_act if (d := hand.clock(seat).deadline) is not None), default=None)
        return None if due is None else self.time.server(due)

    # ------------------------------------------------------------------ what seats see

    def view(self, seat: int | None) -> HandView | None:
        """What table ``seat`` (None: a spectator) may know of the current hand."""
        hand = self.hand
        if hand is None:
            return None
        return hand.view(self.hand_seat(seat))

    def ledger(self) -> dict[str, Any] | None:
        """The match ledger per table seat: points and money as text (a tournament: None)."""
        if self.kind == TOURNAMENT:
            return None
        if not isinstance(self.series, Match):
            zeros = ["0"] * len(self.seats)
            return {"points": zeros, "money": zeros}
        ledger = self.series.ledger
        return {
            "points": [amount_text(p) for p in ledger.points],
            "money": [amount_text(m) for m in ledger.money],
        }

    def public(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "options": {"hints": self.hints},
            "seats": [
                {
                    "seat": i,
                    "name": info.name,
                    "bot": info.bot,
                    "open": info.bot is None and info.player is None,
                    "stand_in": info.stand_in,
                }
                for i, info in enumerate(self.seats)
            ],
            "open_seats": self.open_seats,
        }

    def state(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for table ``seat`` (None: a spectator): only what it may see."""
        view = self.view(seat)
        plan_seats = list(self.session.plan.seats) if self.session is not None and self.hand_number >= 0 else []
        state: dict[str, Any] = {
            "type": "state",
            "table": {key: value for key, value in self.public().items() if key != "rules"},
            "you": seat,
            "hand_number": self.hand_number,
            "hand_seats": plan_seats,
            "hand": None if view is None else view.to_dict(),
            "discard_due": None if seat is not None and self.seats[seat].stand_in else discard_due(view),
            "ledger": self.ledger(),
            "tournament": self.tournament(),
            "previous": self.previous,
            "next_deal": self._next_deal_text(),
            "finished": self.status == FINISHED,
            "rematch": self.rematch,
            "held": self.time.held,
        }
        if self.time.held and state["hand"] is not None:
            for entry in state["hand"]["seats"]:  # the table's time stands still: no clock runs
                entry["clock"] = entry["clock"] | {"running": False, "deadline": None}
        return with_hand_phrases(state)  # hand names also as phrases the client translates

    def _next_deal_text(self) -> str | None:
        """When (server time) the next hand is dealt, if known (not while the table is held)."""
        deal = None if self.next_deal is None else self.time.server(self.next_deal)
        return None if deal is None else time_text(deal)

    def tournament(self) -> dict[str, Any] | None:
        """A tournament's chips, level and places (``ofc.server.tables.tournament.facts``); None for a match."""
        if self.kind != TOURNAMENT:
            return None
        series = self.series if isinstance(self.series, Tournament) else Tournament(self.rules, button=0)
        return tourney.facts(series)

    # ------------------------------------------------------------------ restore

    @classmethod
    def from_row(cls, row: TableRow, store: Storage, pause: Decimal, decks: DeckSource) -> TableGame:
        """The stored table with its seats taken and its stored status, its match not replayed."""
        rules = Rules().with_settings(row.rules)
        kind, hints = row.kind, row.options.get("hints", True) is not False
        game = cls(row.id, row.name, rules, row.bots, store, pause=pause, decks=decks, kind=kind, hints=hints)
        game.status = row.status
        game.waiting_since = None if row.waiting_since is None else Decimal(row.waiting_since)
        game.settled = row.status == FINISHED  # stored finished: its money is in the balances (same transaction)
        for taken in row.seats:
            game.seats[taken.seat].player = taken.player
            game.seats[taken.seat].token_hash = taken.token_hash
            game.seats[taken.seat].stand_in = taken.stand_in
        game.rematch = row.rematch
        return game

    @classmethod
    def restore(
        cls,
        row: TableRow,
        store: Storage,
        *,
        pause: Decimal = Decimal(0),
        decks: DeckSource = secure_deck,
        now: Decimal | None = None,
    ) -> TableGame:
        """The table as stored: its seats, and its match replayed hand by hand from its actions.

        Each stored deck is dealt again and its stored actions applied again; automatic actions
        the replay makes beyond those stored are stored (they follow from the stored ones), and
        a finished hand without a stored history gets one. Stored times are table times. Given
        the server time ``now`` of the restart, the table's clocks go on from its last stored
        event: the time the server was down does not count against the seat to act, nor
        shorten the pause before the next deal. Raises whatever a damaged row makes the replay
        raise (``restore_or_damaged`` keeps such a table).
        """
        game = cls.from_row(row, store, pause, decks)
        if row.status != WAITING and row.button is not None:
            game._replay(row.button, row.status == FINISHED, now)
        return game

    @classmethod
    def restore_or_damaged(
        cls,
        row: TableRow,
        store: Storage,
        *,
        pause: Decimal = Decimal(0),
        decks: DeckSource = secure_deck,
        now: Decimal | None = None,
    ) -> TableGame:
        """``restore``; a table that cannot be replayed is kept as ``damaged`` (listed, its stakes still held)."""
        try:
            return cls.restore(row, store, pause=pause, decks=decks, now=now)
        except Exception:
            log.exception("table %s cannot be restored from the database: it is kept as damaged", row.id)
        game = cls.from_row(row, store, pause, decks)
        game.status = DAMAGED
        return game

    def _replay(self, button: int, finished: bool, now: Decimal | None) -> None:
        """Bring a table fresh from ``from_row`` to its stored match (see ``restore``)."""
        self.status = PLAYING
        session = self._begin(button)
        for stored in self.store.load_hands(self.id):
            hand = session.deal(deck=Deck(order=parse_cards(stored.deck)), now=Decimal(stored.start))
            self.hand_number = stored.number
            self.next_deal = None
            for index, action in enumerate(stored.actions):
                if hand.actions_taken > index:
                    continue
                time = Decimal(action.time)
                if action.automatic:
                    hand.advance(time)
                else:
                    data = {"seat": action.seat, "place": action.place, "discard": action.discard}
                    hand.apply(Action.from_dict(data), time)
            self._stored = len(stored.actions)
            if hand.actions_taken > self._stored:
                self._persist()
            if hand.is_over:
                self._finish_hand(record=stored.history is None)
        if finished:
            self.status = FINISHED
        last = self.hand
        if now is not None and self.status == PLAYING and last is not None:
            self.time.offset = max(Decimal(0), now - last.now)
