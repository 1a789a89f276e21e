"""The player's side of the terminal: the screen, the keyboard, the clock and leaving.

Everything the game shows goes through ``show`` (a whole screen, redrawn) and every line it
reads through ``ask``; Ctrl-C at any prompt, ``quit``, or the end of input lead to
``confirm_leave``, which raises ``LeaveMatch`` when the player means it.

On a terminal the keyboard (``ofc.terminal.prompt``) draws the prompt and shows a prompt's
clock in a toolbar below it, ticking while the player types.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from rich.console import Console
from rich.text import Text

from ofc.i18n import tr
from ofc.terminal.reader import Ask, Interrupts, Keyboard


class LeaveMatch(Exception):
    """The player chose to leave the match."""


def monotonic_clock() -> Callable[[], float]:
    """Seconds since now, in milliseconds (the game's ``now`` for the engine)."""
    start = time.monotonic()
    return lambda: round(time.monotonic() - start, 3)


class Face:
    """Screen, keyboard and clock of one player."""

    def __init__(
        self,
        console: Console,
        keyboard: Keyboard,
        *,
        interrupts: Interrupts | None = None,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.console = console
        self.keyboard = keyboard
        self.interrupts = interrupts or Interrupts()
        self.now = now or monotonic_clock()
        self.leaving = "match"
        """What Ctrl-C offers to leave: ``match`` or ``tournament``."""

    def show(self, lines: Sequence[Text] | Text) -> None:
        """Clear the screen (on a terminal) and draw ``lines``."""
        self.console.clear()
        self.console.print(lines if isinstance(lines, Text) else Text("\n").join(lines))

    def say(self, text: str, style: str = "") -> None:
        """Print one line below what is on the screen."""
        self.console.print(Text(text, style=style))

    def ask(
        self,
        prompt: str,
        timeout: float | None = None,
        clock: Callable[[], str] | None = None,
        words: Iterable[str] = (),
    ) -> str | None:
        """Show ``prompt`` and read a line; None after ``timeout`` seconds.

        ``clock`` gives the text of a clock to keep current while the player types, ``words``
        what to complete (a terminal's keyboard shows the one and offers the others).
        Raises ``KeyboardInterrupt`` on Ctrl-C (now or since the last prompt) and
        ``EOFError`` when the input has ended.
        """
        if not self.keyboard.draws_prompt:
            self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        with self.interrupts.prompt():
            return self.keyboard.read(Ask(prompt, timeout, clock, tuple(words)))

    def drop_typed(self) -> None:
        """Forget a line half typed when the time ran out."""
        self.keyboard.drop_typed()

    def confirm_leave(self) -> None:
        """Ask whether to leave the match (or tournament); raise ``LeaveMatch`` on yes (or a second Ctrl-C)."""
        self.console.print()
        try:
            if self.leaving == "tournament":
                answer = self.ask(tr("Leave the tournament? Finished hands are saved. [y/N] "))
            else:
                answer = self.ask(tr("Leave the match? Finished hands are saved. [y/N] "))
        except (KeyboardInterrupt, EOFError):
            answer = "y"
        if answer is not None and answer.strip().lower() in yes_words():
            raise LeaveMatch


def yes_words() -> set[str]:
    """What answers yes: ``y``/``yes`` always, and the language's own (``д``/``да``, ``т``/``так``)."""
    return {"y", "yes", *tr("y|yes").lower().split("|")}
