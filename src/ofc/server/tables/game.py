"""One table's match or tournament, played through the engine and stored as it goes.

``TableGame`` is synchronous and knows nothing of sockets: the table manager calls it under the
table's lock. A seat's action is checked, stored, then applied (``check_act``/``apply_act``);
changes the table makes itself (placements, deals, settlements) are queued in order in
``pending`` and stored by the manager before anything is sent. ``restore`` (``ofc.server.tables.replay``)
rebuilds the match from storage. A tournament's money is in ``ofc.server.tables.tournament``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import time_text
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.formats.history import write
from ofc.rules.cards import Deck, format_card
from ofc.rules.errors import ActionError, OfcError
from ofc.rules.rulebook import Rules
from ofc.series.ledger import amount_text
from ofc.series.match import Match
from ofc.series.session import Session
from ofc.series.tournament import Tournament
from ofc.server.db.storage import FINISHED, MATCH, PLAYING, TOURNAMENT, WAITING, ActionRow, Storage, TableRow
from ofc.server.net.protocol import with_hand_phrases
from ofc.server.tables import tournament as tourney
from ofc.server.tables.decks import DeckSource as DeckSource
from ofc.server.tables.decks import PlayError as PlayError
from ofc.server.tables.decks import action_row, discard_due
from ofc.server.tables.decks import secure_deck as secure_deck
from ofc.server.tables.decks import seeded_decks as seeded_decks
from ofc.server.tables.money import settle_match
from ofc.server.tables.seating import SeatInfo as SeatInfo
from ofc.server.tables.seating import Seating


@dataclass(frozen=True)
class CheckedAction:
    """A checked action not yet applied: where it is stored (table, hand, sequence) and its row."""

    action: Action
    time: Decimal
    where: tuple[int, int, int]
    row: ActionRow


class TableGame(Seating):
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
        self.offset = Decimal(0)
        """Server time minus table time: the downtime of the restarts so far (see ``restore``)."""
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
        self._deal(now - self.offset)

    def _begin(self, button: int) -> Session:
        if self.kind == TOURNAMENT:
            self.series = Tournament(self.rules, button=button)
        else:
            self.series = Match(self.rules, button=button)
        self.session = Session(self.series)
        return self.session

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
        return self._sync(now - self.offset)

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
        now -= self.offset
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
            self._sync(now - self.offset)
        return checked.action

    def _finish_hand(self, *, record: bool = True) -> None:
        session = self.session
        assert session is not None
        hand = session.hand
        result = hand.result
        assert result is not None
        plan = session.plan
        session.settle()
        if record:
            names = [self.seats[seat].name for seat in plan.seats]
            summary = self.ledger() or self.tournament() or {}
            self._write(self.store.finish_hand, self.id, self.hand_number, write(hand, names), summary)
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
        return None if due is None else due + self.offset

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
        state = {
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
            "next_deal": None if self.next_deal is None else time_text(self.next_deal + self.offset),
            "finished": self.status == FINISHED,
            "rematch": self.rematch,
        }
        return with_hand_phrases(state)  # hand names also as phrases the client translates

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
        """The table as stored: seats, and the match replayed hand by hand from its actions.

        Stored times are table times. Given the server time ``now`` of the restart, the table's
        clocks go on from its last stored event: the time the server was down does not count
        against the seat to act, nor shorten the pause before the next deal.
        """
        from ofc.server.tables.replay import replay_match  # the replay needs this module

        game = cls.from_row(row, store, pause, decks)
        if row.status != WAITING and row.button is not None:
            replay_match(game, row, now)
        return game
