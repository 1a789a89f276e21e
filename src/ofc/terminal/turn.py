"""One decision of the player: read commands until the street is confirmed (or time runs out).

The screen is redrawn from ``hand.view(seat)`` before every prompt. Time is the engine's:
before each prompt and before applying, ``hand.advance(now)`` places the player's cards
automatically once their hand clock and time bank are spent; the prompt itself waits only
until that deadline, so a player who types nothing is placed for on time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text

from ofc.bots import Bot
from ofc.bots.base import fantasy_solution, solution_action
from ofc.bots.hint import hint_figures
from ofc.engine.actions import Action
from ofc.engine.clock import to_time
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.i18n import format_percent, localize_error, tr, translate
from ofc.rules.cards import format_card, format_cards
from ofc.rules.errors import ActionError, OfcError
from ofc.terminal import cardtext, render
from ofc.terminal.commands import HELP, WORDS, CommandError, Place, Simple, Undo, Verb, parse_command
from ofc.terminal.face import Face, LeaveMatch
from ofc.terminal.placing import Placing
from ofc.terminal.words import row_texts

ERROR_STYLE = "bold red"
HINT_STYLE = "cyan"


@dataclass
class Turn:
    """The player's decision in progress: the placing, notes to show, the last suggestion."""

    face: Face
    hand: Hand
    seat: int
    table: render.Table
    advisor: Callable[[], Bot]
    notes: list[Text] = field(default_factory=list)
    suggestion: Action | None = None
    placing: Placing = field(init=False)

    def __post_init__(self) -> None:
        self.placing = Placing.for_view(self.hand.view(self.seat))

    def play(self) -> bool:
        """Prompt until the player's action is applied (True) or the clock placed their cards (False)."""
        while True:
            self.hand.advance(self.face.now())
            if self.seat not in self.hand.to_act:
                self.face.drop_typed()
                return False
            view = self.hand.view(self.seat)
            self.face.show(render.screen(view, self.table, self.placing, self.notes))
            line = self._read(view)
            if line is None:
                continue
            self.notes = []
            try:
                if self._obey(line, view):
                    return True
            except OfcError as error:
                self.notes = [Text(localize_error(error), style=ERROR_STYLE)]

    def _read(self, view: HandView) -> str | None:
        """A line, or None when the time ran out or the player chose to stay after Ctrl-C."""
        clock = view.seats[self.seat].clock
        timeout = None if clock.deadline is None else float(clock.deadline) - self.face.now()
        ticking = None if clock.deadline is None else lambda: self._clock_text(view)
        try:
            return self.face.ask("> ", timeout, ticking, words=[*map(format_card, self.placing.held), *WORDS])
        except KeyboardInterrupt:
            self.face.confirm_leave()
        except EOFError:
            self.face.say(tr("Input closed."))
            raise LeaveMatch from None
        return None

    def _clock_text(self, view: HandView) -> str:
        """The player's clock now, from the view's reading: ``time 1:58 +3:00``."""
        since = to_time(self.face.now()) - view.now
        return tr("time {clock}", clock=cardtext.clock(view.seats[self.seat].clock.later(since)))

    def _obey(self, line: str, view: HandView) -> bool:
        """Carry out one line; True once the action is applied."""
        placing = self.placing
        command = parse_command(line)
        if isinstance(command, Place):
            kept = list(placing.moves)
            try:
                for card, target in command.moves:
                    placing.place(card, target)
            except CommandError:
                placing.moves = kept
                raise
            return self._confirm() if command.confirm else False
        if isinstance(command, Undo):
            card = placing.undo(command.card)
            self.notes = [Text(tr("took back {card}", card=format_cards([card])))]
            return False
        return self._verb(command, view)

    def _verb(self, command: Simple, view: HandView) -> bool:
        placing = self.placing
        verb = command.verb
        if verb is Verb.CONFIRM:
            return self._confirm()
        if verb is Verb.CLEAR:
            placing.clear()
        elif verb is Verb.HELP:
            self.notes = [Text(translate(line)) for line in HELP]
        elif verb is Verb.HINT:
            self._hint(view)
        elif verb is Verb.SOLVE:
            self._solve(view)
        elif verb is Verb.ACCEPT:
            if self.suggestion is None:
                raise CommandError("nothing to accept yet: ask for a hint (or solve a fantasy hand) first")
            placing.load(self.suggestion)
        elif verb is Verb.QUIT:
            self.face.confirm_leave()
        return False

    def _confirm(self) -> bool:
        placing = self.placing
        if not placing.moves:
            raise CommandError("place your cards first, like 'Ah b Kd m' (help lists the commands)")
        if not placing.complete:
            raise CommandError("place every card first: {cards} still to go", cards=format_cards(placing.unplaced))
        action = placing.action(self.seat)
        try:
            self.hand.check(action)
        except ActionError as error:
            raise CommandError("{problem}", problem=error) from None
        now = self.face.now()
        self.hand.advance(now)
        if self.seat not in self.hand.to_act:
            return False
        self.hand.apply(action, now)
        return True

    def _hint(self, view: HandView) -> None:
        if view.seats[self.seat].fantasy:
            self._solve(view)
            return
        advisor = self.advisor()
        decision = advisor.decide(view)
        self.suggestion = decision.action
        text = action_text(decision.action)
        figures = hint_figures(advisor, decision)
        choices = getattr(advisor, "last_choices", ())
        if figures.unsure:
            hint = tr("hint: {action}; unsure: too few play-outs to put a number on it", action=text)
        elif figures.value is None:
            hint = tr("hint: {action}; expected value not estimated", action=text)
        else:
            hint = tr("hint: {action}; expected {value} points", action=text, value=expected(figures.value))
        self.notes = [Text(hint, style=HINT_STYLE)]
        shown = figures.choices
        if shown and shown[0]["foul"] is not None:
            dead = tr("  a dead hand in {share} of its play-outs", share=format_percent(shown[0]["foul"]))
            self.notes.append(Text(dead, style=HINT_STYLE))
        for rank, (choice, figure) in enumerate(zip(choices[1:3], shown[1:3], strict=True), start=2):
            if figure["value"] is None:
                line = tr("  {rank}. {action}", rank=rank, action=action_text(choice.action))
            else:
                line = tr(
                    "  {rank}. {action}; expected {value}, fouls {share}",
                    rank=rank,
                    action=action_text(choice.action),
                    value=expected(figure["value"]),
                    share=format_percent(figure["foul"] or 0.0),  # played out: a share
                )
            self.notes.append(Text(line, style=HINT_STYLE))
        if figures.value is not None and len(shown) > 1:
            self.notes.append(
                Text(tr("  ranked by expected points less a charge for the risk of fouling"), style=HINT_STYLE)
            )
        self.notes.append(Text(tr("accept takes the first"), style=HINT_STYLE))

    def _solve(self, view: HandView) -> None:
        if not view.seats[self.seat].fantasy:
            raise CommandError("solve is for fantasy hands: try hint")
        solution = fantasy_solution(view)
        self.suggestion = solution_action(self.seat, solution)
        royalties = solution.royalties.total
        if solution.stays:
            said = tr("royalties {royalties}, stays in fantasy; accept takes it", royalties=royalties)
        else:
            said = tr("royalties {royalties}; accept takes it", royalties=royalties)
        self.notes = [
            Text(tr("solver: {action}", action=action_text(self.suggestion)), style=HINT_STYLE),
            Text(said, style=HINT_STYLE),
        ]


def action_text(action: Action) -> str:
    """``top Qs | bottom 9h 9d | discard 2c`` in the player's language."""
    parts = row_texts(action)
    if action.discards:
        parts.append(tr("discard {cards}", cards=format_cards(action.discards)))
    return " | ".join(parts)


def expected(value: float) -> str:
    """An expected value in points with its sign and two decimals: ``+1.50`` (``+1,50``)."""
    return cardtext.two_places(value)
