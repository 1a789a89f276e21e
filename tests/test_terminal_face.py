"""The player's keyboard: the face's prompt for plain lines, and prompt_toolkit's at a terminal.

``PromptReader`` is driven through prompt_toolkit's pipe input (keys as a terminal sends them)
and an output that says it is a terminal, so what it draws can be read back.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.console import Console

from ofc.terminal.face import Face
from ofc.terminal.prompt import PromptReader
from ofc.terminal.reader import Ask

UP, TAB, ENTER, CTRL_C, CTRL_D = "\x1b[A", "\t", "\r", "\x03", "\x04"
CURSOR_ANSWER = "\x1b[20;1R"
"""What a terminal answers when prompt_toolkit asks where the cursor is (row 20, column 1)."""


class Recorder:
    """A plain keyboard that records what it is asked and answers ``line``."""

    draws_prompt = False

    def __init__(self, line: str) -> None:
        self.line = line
        self.asked: list[Ask] = []

    def read(self, ask: Ask) -> str | None:
        self.asked.append(ask)
        return self.line

    def drop_typed(self) -> None:
        """Nothing is typed ahead."""


class Terminal(io.StringIO):
    """What prompt_toolkit draws, kept as text; it says it is a terminal (so it asks for the cursor)."""

    def isatty(self) -> bool:
        return True


@contextmanager
def reader(cpr: bool = False) -> Iterator[tuple[PromptReader, PipeInput, Terminal]]:
    """A ``PromptReader`` on an 80x24 terminal whose keys are sent through a pipe.

    With ``cpr`` it asks where the cursor is (the test answers); without, it does not ask (else
    it would wait for an answer at the end of each prompt)."""
    screen = Terminal()
    with create_pipe_input() as keys:
        output = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm", enable_cpr=cpr)
        yield PromptReader(input=keys, output=output), keys, screen


def test_a_plain_keyboard_gets_the_prompt_from_the_face_and_everything_asked() -> None:
    out = io.StringIO()
    keyboard = Recorder("Ah b")
    face = Face(Console(file=out, width=80, force_terminal=False), keyboard)

    def clock() -> str:
        return "time 1:58"

    assert face.ask("> ", 30.0, clock, words=["Ah", "ok"]) == "Ah b"
    assert out.getvalue() == "> "
    assert keyboard.asked == [Ask("> ", 30.0, clock, ("Ah", "ok"))]


def test_a_terminal_line_is_edited_and_remembered() -> None:
    with reader() as (keyboard, keys, _):
        keys.send_text("Ah bx\x7f" + ENTER)  # \x7f: backspace takes the x back
        assert keyboard.read(Ask("> ")) == "Ah b"
        keys.send_text("hint" + ENTER)
        assert keyboard.read(Ask("> ")) == "hint"
        keys.send_text(UP + UP + ENTER)  # the line before the last
        assert keyboard.read(Ask("> ")) == "Ah b"


def test_tab_completes_the_cards_and_commands_offered() -> None:
    words = ("Ah", "Kd", "7c", "ok", "hint", "help")
    with reader() as (keyboard, keys, _):
        keys.send_text("k" + TAB + " b 7" + TAB + " m" + ENTER)  # in any case, as cards are typed
        assert keyboard.read(Ask("> ", words=words)) == "Kd b 7c m"
        keys.send_text("hi" + TAB + ENTER)
        assert keyboard.read(Ask("> ", words=words)) == "hint"
        keys.send_text("hi" + TAB + ENTER)  # nothing offered: nothing completed
        assert keyboard.read(Ask("> ")) == "hi"


def test_the_clock_is_shown_in_a_toolbar_below_the_prompt() -> None:
    with reader(cpr=True) as (keyboard, keys, screen):
        keys.send_text(CURSOR_ANSWER)  # the toolbar is drawn once the terminal has told the room below

        def enter_once_drawn() -> None:
            while " time 1:58 +3:00 " not in screen.getvalue():
                time.sleep(0.01)
            keys.send_text("ok" + ENTER)

        threading.Thread(target=enter_once_drawn, daemon=True).start()
        # 600 s: a hang guard only (the prompt would end unanswered if the toolbar were never drawn)
        assert keyboard.read(Ask("> ", 600.0, lambda: "time 1:58 +3:00")) == "ok"


def test_the_prompt_ends_unanswered_when_the_time_is_up() -> None:
    with reader() as (keyboard, keys, _):
        keys.send_text("Ah")  # typed, never confirmed
        assert keyboard.read(Ask("> ", 0.2)) is None
        keys.send_text("ok" + ENTER)  # the next prompt starts empty
        assert keyboard.read(Ask("> ")) == "ok"


def test_ctrl_c_and_ctrl_d_at_the_prompt() -> None:
    with reader() as (keyboard, keys, _):
        keys.send_text("Ah" + CTRL_C)
        with pytest.raises(KeyboardInterrupt):
            keyboard.read(Ask("> "))
        keys.send_text(CTRL_D)
        with pytest.raises(EOFError):
            keyboard.read(Ask("> "))
