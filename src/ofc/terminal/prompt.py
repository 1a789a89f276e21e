"""The keyboard of a terminal: prompt_toolkit's line editor, with a time limit and a ticking clock.

``PromptReader`` answers each ``Ask`` with a prompt_toolkit prompt: the usual line editing
(arrows, Home/End, Ctrl-W...), the history of the lines typed this session (Up, Ctrl-R), Tab
completing the words the game offers (the cards to place, the commands) and, when the ask
has a clock, a toolbar under the prompt redrawn every ``TICK`` seconds. When the time is up
the prompt ends unanswered (``read`` returns None) and what was half typed is dropped.

Ctrl-C at the prompt raises ``KeyboardInterrupt`` and Ctrl-D on an empty line ``EOFError``,
as they do for ``input()``. The game uses this reader only when standard input and output
are both terminals (``ofc play``); pipes get ``ofc.terminal.reader.LineReader``.
"""

from __future__ import annotations

import asyncio
import sys

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.shortcuts import CompleteStyle

from ofc.terminal.reader import Ask, flush_typed

TICK = 1.0
"""Seconds between redraws of a prompt's clock."""


class TimeUp(Exception):
    """The ask's time ran out before the player pressed Enter."""


class PromptReader:
    """Lines typed at a terminal (``input``/``output`` default to standard input and output)."""

    draws_prompt = True

    def __init__(self, *, input: Input | None = None, output: Output | None = None, color: bool = True) -> None:
        self._words: tuple[str, ...] = ()
        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            completer=WordCompleter(lambda: list(self._words), ignore_case=True, WORD=True),
            complete_style=CompleteStyle.READLINE_LIKE,  # choices listed above the prompt, like bash
            reserve_space_for_menu=0,  # the screen above stays where it is
            input=input,
            output=output,
            color_depth=None if color else ColorDepth.MONOCHROME,
            erase_when_done=False,
        )

    def read(self, ask: Ask) -> str | None:
        """The line typed (no newline); None when ``ask.timeout`` seconds pass first."""
        self._words = ask.words
        session = self.session
        clock = ask.clock
        session.bottom_toolbar = None if clock is None else (lambda: f" {clock()} ")
        session.refresh_interval = TICK if clock is not None else 0
        timeout = ask.timeout

        def start_timer() -> None:
            if timeout is not None:
                session.app.create_background_task(_end_after(session, max(0.0, timeout)))

        try:
            return session.prompt(ask.prompt, pre_run=start_timer)
        except TimeUp:
            return None

    def drop_typed(self) -> None:
        """Forget what was typed after the prompt ended (the prompt drops its own half line)."""
        if sys.stdin.isatty():
            flush_typed(sys.stdin.fileno())


async def _end_after(session: PromptSession[str], seconds: float) -> None:
    await asyncio.sleep(seconds)
    session.app.exit(exception=TimeUp())
