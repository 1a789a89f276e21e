"""A match at the terminal: one player against bots, hand after hand, until the match ends.

The match seat of the player is 0; the others are bots. Each hand is dealt by the session,
played through the engine (bots act at once, the player through ``Turn``), settled, saved as
a hand history and shown at the showdown with the match ledger. Leaving (Ctrl-C and yes, or
``quit``) ends the match where it is: finished hands are already saved, and the ledger of the
hands played is printed.

``Series`` holds what a match and a tournament share (dealing, the player's turns, the bots,
saving, the showdown); ``Game`` adds the match ledger, ``ofc.terminal.tournament.TournamentGame``
the chips, levels and places of a tournament.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from rich.text import Text

from ofc.bots import Bot
from ofc.engine.hand import Hand
from ofc.formats.history import TournamentFields
from ofc.i18n import N_, localize_error, tr, translate, trn
from ofc.rules.cards import Deck
from ofc.rules.errors import ActionError
from ofc.series.match import HandRecord, Match
from ofc.series.session import Session
from ofc.series.tournament import Tournament, TournamentHand
from ofc.terminal import render
from ofc.terminal.cardtext import signed
from ofc.terminal.face import Face, LeaveMatch
from ofc.terminal.showdown import ledger_lines, showdown_lines
from ofc.terminal.store import HandStore, StoreError
from ofc.terminal.turn import Turn
from ofc.terminal.words import bot_name_text

PLAYER = 0
"""The player's match seat."""
TIMED_OUT = N_("Your time ran out: your last cards were placed automatically.")

Played = TypeVar("Played", Match, Tournament)
"""What a series plays: a match or a tournament."""


class Series(ABC, Generic[Played]):
    """Hands against bots: ``names`` and ``bots`` by seat (seat 0, the player, has no bot).

    ``Game`` (a match) and ``TournamentGame`` (a tournament) say what is shown under the title
    and after each hand."""

    finale = N_("the final ledger")
    """Where the prompt after the last hand leads (translated where shown)."""
    leaving = "match"
    """What Ctrl-C offers to leave (``Face.leaving``)."""

    def __init__(
        self,
        face: Face,
        series: Played,
        names: Sequence[str],
        bots: Mapping[int, Bot],
        *,
        store: HandStore,
        decks: Callable[[], Deck],
        advisor: Callable[[], Bot],
    ) -> None:
        self.face = face
        face.leaving = self.leaving
        self.series: Played = series
        self.session = Session(series)
        self.record_names = tuple(names)
        """The seats' names as the hand histories keep them (the bots' in English)."""
        self.names = tuple(bot_name_text(name) if seat in bots else name for seat, name in enumerate(names))
        """The seats' names as the screen shows them (the bots' in the player's language)."""
        self.bots = dict(bots)
        self.store = store
        self.decks = decks
        self.advisor = advisor
        self.saved: list[Path] = []

    def run(self) -> None:
        """Play to the end, or until the player leaves; then print the ledger or the places."""
        try:
            while not self.session.finished and self.play_next():
                pass
        except LeaveMatch:
            self.face.say(self.left_text(len(self.series.hands)), "bold")
        else:
            self.face.say(self.over_text(), "bold")
        self.face.console.print(Text("\n").join(self.final_lines()))
        if self.saved:
            self.face.say(tr("Hand histories are in {folder}", folder=self.store.folder))

    # ------------------------------------------------------------------ what a series adds

    @abstractmethod
    def play_next(self) -> bool:
        """Play the next hand; False when the player's series ends without it."""

    @abstractmethod
    def left_text(self, done: int) -> str:
        """What is said when the player leaves after ``done`` finished hands."""

    @abstractmethod
    def over_text(self) -> str:
        """What is said when the series has ended."""

    @abstractmethod
    def final_lines(self) -> list[Text]:
        """The ledger or the places, printed last."""

    @abstractmethod
    def status(self) -> str | tuple[str, ...]:
        """The line (a match) or lines (a tournament) under the title of the table screen."""

    @abstractmethod
    def summary(self, record: HandRecord | TournamentHand) -> list[Text]:
        """Lines after a hand's showdown: the ledger or the chips, and who left."""

    def next_step(self) -> str:
        """What Enter leads to after a hand's showdown."""
        return tr("next hand") if not self.session.finished else translate(self.finale)

    def fields(self, record: HandRecord | TournamentHand) -> TournamentFields | None:
        """What the hand's history adds: a tournament hand's level and chips."""
        return None

    # ------------------------------------------------------------------ one hand

    def _play_hand(self) -> None:
        number = len(self.session.series.hands) + 1
        hand = self.session.deal(deck=self.decks(), now=self.face.now())
        plan = self.session.plan
        names = tuple(self.names[seat] for seat in plan.seats)
        me = plan.index(PLAYER)
        status = self.status()
        if isinstance(status, str):
            table = render.Table(names, number, status)
        else:
            table = render.Table(names, number, "", status)
        late: list[Text] = []
        while not hand.is_over:
            hand.advance(self.face.now())
            if hand.is_over:
                break
            seat = next_seat(hand, me)
            if seat == me:
                turn = Turn(self.face, hand, me, table, self.advisor, notes=late)
                late = [] if turn.play() else [Text(translate(TIMED_OUT), style="bold red")]
            else:
                waiting = Text(tr("{name} is thinking...", name=names[seat]), style="dim")
                self.face.show(render.screen(hand.view(me), table, None, [*late, waiting]))
                self._bot_acts(hand, seat, self.bots[plan.seats[seat]])
        record = self.session.settle()
        recorded = tuple(self.record_names[seat] for seat in plan.seats)
        notes = [*late, self._save(hand, recorded, number, me, self.fields(record))]
        view = hand.view(me)
        lines = showdown_lines(view, names, number)
        lines.append(Text())
        lines.extend(self.summary(record))
        lines.extend(notes)
        self.face.show(lines)
        self._pause(tr("Enter: {step} > ", step=self.next_step()))

    def _bot_acts(self, hand: Hand, seat: int, bot: Bot) -> None:
        """The bot's action for ``seat``, applied now unless its time has run out meanwhile."""
        action = bot.act(hand.view(seat))
        now = self.face.now()
        hand.advance(now)
        if seat not in hand.to_act:
            return
        try:
            hand.apply(action, now)
        except ActionError:
            # The engine's message may name a card the bot holds (one it may discard face-down):
            # the player must not read it.
            self.face.say(tr("{name} made an illegal move; it plays its first legal one", name=bot.name))
            hand.apply(hand.legal_actions(seat)[0], now)

    def _save(self, hand: Hand, names: Sequence[str], number: int, me: int, fields: TournamentFields | None) -> Text:
        try:
            path = self.store.save(hand, names, number, viewer=me, tournament=fields)
        except StoreError as error:
            return Text(localize_error(error), style="bold red")
        self.saved.append(path)
        return Text(tr("Saved: {path}", path=path), style="dim")

    def _pause(self, prompt: str) -> None:
        while True:
            try:
                self.face.ask(prompt)
            except KeyboardInterrupt:
                self.face.confirm_leave()
                continue
            except EOFError:
                raise LeaveMatch from None
            return


class Game(Series[Match]):
    """One match: ``names`` and ``bots`` by match seat (seat 0, the player, has no bot)."""

    @property
    def match(self) -> Match:
        """The match being played."""
        return self.series

    def play_next(self) -> bool:
        """The next hand, unless the player has reached the loss limit."""
        if PLAYER not in self.match.active:
            self.face.say(tr("You reached the loss limit and leave the match."), "bold")
            return False
        self._play_hand()
        return True

    def left_text(self, done: int) -> str:
        """``You left the match after 3 finished hands.``"""
        return trn("You left the match after {n} finished hand.", "You left the match after {n} finished hands.", done)

    def over_text(self) -> str:
        """``The match is over.``"""
        return tr("The match is over.")

    def final_lines(self) -> list[Text]:
        """The match ledger."""
        return self._ledger()

    def status(self) -> str:
        """The match so far in points, one seat after another."""
        points = self.match.ledger.points
        return ", ".join(f"{render.short_name(name)} {signed(p)}" for name, p in zip(self.names, points, strict=True))

    def summary(self, record: HandRecord | TournamentHand) -> list[Text]:
        """The match ledger; who reached the loss limit comes first among the notes."""
        lines = self._ledger()
        if isinstance(record, HandRecord) and record.left:
            gone = ", ".join(self.names[seat] for seat in record.left)
            lines.append(Text(tr("Reached the loss limit and left the match: {names}", names=gone), style="bold"))
        return lines

    def _ledger(self) -> list[Text]:
        ledger = self.match.ledger
        return ledger_lines(self.names, ledger.points, ledger.money, len(self.match.hands), ledger.point_value)


def next_seat(hand: Hand, player: int) -> int:
    """Who acts next: bots in fantasy first (they set at once), then the player's fantasy, then the street."""
    waiting = hand.to_act
    fantasy = [seat for seat in waiting if hand.fantasy[seat]]
    bots = [seat for seat in fantasy if seat != player]
    if bots:
        return bots[0]
    if player in fantasy:
        return player
    return waiting[0]
