"""The player's side of the terminal: the screen, the keyboard, the clock and leaving.

Everything the game shows goes through ``show`` (a whole screen, redrawn) and every line it
reads through ``ask``; Ctrl-C at any prompt, ``quit``, or the end of input lead to
``confirm_leave``, which raises ``LeaveMatch`` when the player means it.

On a terminal, a prompt given a clock shows it at the right end of the prompt line and
redraws it every second while the player types (the cursor and the typed text stay put).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from ofc.i18n import tr
from ofc.terminal.reader import Interrupts, Keyboard

TICK = 1.0
"""Seconds between redraws of a prompt's clock."""
CLOCK_WIDTH = 18
"""Columns kept for the clock at the right end of the prompt line (more if its text is longer)."""


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

    def ask(self, prompt: str, timeout: float | None = None, clock: Callable[[], str] | None = None) -> str | None:
        """Print ``prompt`` and read a line; None after ``timeout`` seconds.

        ``clock`` gives the text of a clock to show and keep current on a terminal.
        Raises ``KeyboardInterrupt`` on Ctrl-C (now or since the last prompt) and
        ``EOFError`` when the input has ended.
        """
        self.console.print(prompt, end="", markup=False, highlight=False)
        ticking = clock is not None and self.console.is_terminal and not self.console.is_dumb_terminal
        if clock is not None and ticking:
            self._draw_clock(clock())
        self.console.file.flush()
        with self.interrupts.prompt():
            if clock is None or not ticking:
                return self.keyboard.read(timeout)
            return self._read_ticking(timeout, clock)

    def _read_ticking(self, timeout: float | None, clock: Callable[[], str]) -> str | None:
        deadline = None if timeout is None else self.now() + timeout
        while True:
            wait = TICK if deadline is None else min(TICK, max(0.0, deadline - self.now()))
            line = self.keyboard.read(wait)
            if line is not None:
                return line
            if deadline is not None and self.now() >= deadline:
                return None
            self._draw_clock(clock())

    def _draw_clock(self, text: str) -> None:
        """Write ``text`` at the right end of the cursor's line, leaving the cursor where it was."""
        width = max(CLOCK_WIDTH, len(text))
        column = max(1, self.console.width - width + 1)
        self.console.file.write(f"\x1b7\x1b[{column}G{text:>{width}}\x1b8")
        self.console.file.flush()

    def drop_typed(self) -> None:
        """Forget a line half typed when the time ran out, if the keyboard can."""
        drop = getattr(self.keyboard, "drop_typed", None)
        if drop is not None:
            drop()

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
