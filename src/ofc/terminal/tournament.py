"""A tournament at the terminal: one player against bots until one player has all the chips.

The table screen shows, under its title, the level, its chips per point and the hands left in
it, then each seat's chips and the places of those knocked out. After each hand come the chips
won, the stacks and who is out; at the end the places and prizes. When the player is knocked
out, the bots play on (a line a hand, Ctrl-C stops them) until the last places are decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ofc.formats.history import TournamentFields
from ofc.i18n import N_, format_number, tr, trn
from ofc.series.match import HandRecord
from ofc.series.tournament import Finish, Tournament, TournamentHand
from ofc.terminal import render
from ofc.terminal.cardtext import signed
from ofc.terminal.game import PLAYER, Series
from ofc.terminal.words import money_text


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``21st`` (``1-е`` in Russian and Ukrainian)."""
    last = place % 10
    if 10 <= place % 100 <= 20 or last not in (1, 2, 3):
        return tr("{n}th", n=place)
    if last == 1:
        return tr("{n}st", n=place)
    if last == 2:
        return tr("{n}nd", n=place)
    return tr("{n}rd", n=place)


def place_text(finish: Finish) -> str:
    """``2nd``, or ``2nd-3rd (tied)`` for a shared place."""
    if finish.tied == 1:
        return ordinal(finish.place)
    return tr("{first}-{last} (tied)", first=ordinal(finish.place), last=ordinal(finish.place + finish.tied - 1))


def hands_text(count: int) -> str:
    """``1 hand``, ``3 hands``."""
    return trn("{n} hand", "{n} hands", count)


def rate_text(chips: int) -> str:
    """``5 chips a point``, ``1 chip a point``."""
    return trn("{n} chip a point", "{n} chips a point", chips)


def level_line(tournament: Tournament) -> str:
    """``level 2: 10 chips a point, 3 hands left in the level (then 15)`` for the next hand."""
    rules = tournament.rules
    level = tournament.level
    text = tr("level {level}: {rate}", level=level + 1, rate=rate_text(tournament.chips_per_point))
    if level == len(rules.chips_per_point) - 1:
        return text + tr(" (the last level)")
    left = rules.level_hands - len(tournament.hands) % rules.level_hands
    then = rules.chips_per_point[level + 1]
    if left == 1:
        return text + tr(", this hand only in the level (then {chips})", chips=then)
    return text + trn(
        ", {n} hand left in the level (then {chips})", ", {n} hands left in the level (then {chips})", left, chips=then
    )


def chips_line(tournament: Tournament, names: Sequence[str]) -> str:
    """``chips: you 1130, mc 870, random out (3rd)``."""
    finishes = tournament.finishes
    parts = []
    for seat, name in enumerate(names):
        short = render.short_name(name)
        if seat in finishes and seat not in tournament.active:
            parts.append(tr("{name} out ({place})", name=short, place=place_text(finishes[seat])))
        else:
            parts.append(f"{short} {format_number(tournament.chips[seat])}")
    return tr("chips: {stacks}", stacks=", ".join(parts))


def standings_lines(tournament: Tournament, names: Sequence[str]) -> list[Text]:
    """The places (and prizes, once the tournament is over), best first."""
    finishes = tournament.finishes
    if tournament.finished:
        prizes = tournament.prizes()
        heading = trn(
            "Final standings after {n} hand (prize pool {pool}):",
            "Final standings after {n} hands (prize pool {pool}):",
            len(tournament.hands),
            pool=money_text(tournament.prize_pool),
        )
    else:
        heading = trn(
            "Places so far after {n} hand (no prizes: the tournament is not over):",
            "Places so far after {n} hands (no prizes: the tournament is not over):",
            len(tournament.hands),
        )
    out = {seat: number for number, hand in enumerate(tournament.hands, 1) for seat in hand.busted}
    width = max(len(render.short_name(name)) for name in names)
    lines = [Text(heading, style="bold")]
    still = tr("still in")
    places = max([15, len(still) + 1, *(len(place_text(finish)) + 1 for finish in finishes.values())])
    for seat in sorted(finishes, key=lambda s: (finishes[s].place, s)):
        text = f"  {place_text(finishes[seat]):<{places}} {render.short_name(names[seat]):<{width}}"
        if tournament.finished:
            text += f"  {money_text(prizes[seat]):>10}"
        if seat in out:
            text += "  " + tr("out in hand {number}", number=out[seat])
        lines.append(Text(text.rstrip()))
    for seat in tournament.active if not tournament.finished else ():
        chips = trn("{n} chip", "{n} chips", tournament.chips[seat])
        lines.append(Text(f"  {still:<{places}} {render.short_name(names[seat]):<{width}}  {chips}"))
    return lines


class TournamentGame(Series[Tournament]):
    """One tournament: ``names`` and ``bots`` by seat (seat 0, the player, has no bot)."""

    finale = N_("the final standings")
    leaving = "tournament"

    @property
    def tournament(self) -> Tournament:
        """The tournament being played."""
        return self.series

    def play_next(self) -> bool:
        """The player's next hand, or, once the player is out, a hand between the bots."""
        if PLAYER in self.tournament.active:
            self._play_hand()
        else:
            self._bots_hand()
        return True

    def left_text(self, done: int) -> str:
        """``You left the tournament after 3 finished hands.``"""
        return trn(
            "You left the tournament after {n} finished hand.",
            "You left the tournament after {n} finished hands.",
            done,
        )

    def over_text(self) -> str:
        """``The tournament is over.``"""
        return tr("The tournament is over.")

    def final_lines(self) -> list[Text]:
        """The places (and prizes)."""
        return standings_lines(self.tournament, self.names)

    def status(self) -> tuple[str, ...]:
        """The level of this hand, then the chips and places."""
        return level_line(self.tournament), chips_line(self.tournament, self.names)

    def summary(self, record: HandRecord | TournamentHand) -> list[Text]:
        """Chips won in the hand, the stacks after it, and who is out."""
        assert isinstance(record, TournamentHand)
        won = ", ".join(
            f"{render.short_name(self.names[seat])} {signed(record.won[seat])}" for seat in record.plan.seats
        )
        lines = [
            Text(
                tr(
                    "Hand {number} at {rate}: {won}",
                    number=record.plan.hand + 1,
                    rate=rate_text(record.chips_per_point),
                    won=won,
                ),
                style="bold",
            ),
            Text(chips_line(self.tournament, self.names)),
        ]
        finishes = self.tournament.finishes
        for seat in record.busted:
            place = place_text(finishes[seat])
            if seat == PLAYER:
                text = tr("You are out in {place} place.", place=place)
            else:
                text = tr("{name} is out in {place} place.", name=self.names[seat], place=place)
            lines.append(Text(text, style="bold"))
        return lines

    def next_step(self) -> str:
        """After the player's last hand the bots play on."""
        if not self.session.finished and PLAYER not in self.tournament.active:
            return tr("the bots play on (Ctrl-C stops them)")
        return super().next_step()

    def fields(self, record: HandRecord | TournamentHand) -> TournamentFields | None:
        """The hand's level and chips, for its history."""
        assert isinstance(record, TournamentHand)
        return TournamentFields.of(record)

    def _bots_hand(self) -> None:
        """A hand between bots once the player is out: one line of chips after it."""
        if self.face.interrupts.pending:
            self.face.interrupts.pending = False
            self.face.confirm_leave()
        hand = self.session.deal(deck=self.decks(), now=self.face.now())
        plan = self.session.plan
        while not hand.is_over:
            hand.advance(self.face.now())
            if not hand.is_over:
                seat = hand.to_act[0]
                self._bot_acts(hand, seat, self.bots[plan.seats[seat]])
        record = self.session.settle()
        assert isinstance(record, TournamentHand)
        text = tr(
            "hand {number} ({rate}): {chips}",
            number=plan.hand + 1,
            rate=rate_text(record.chips_per_point),
            chips=chips_line(self.tournament, self.names),
        )
        self.face.say(text)
