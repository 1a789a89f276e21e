"""The prompt's ticking clock: drawn at the right end of the prompt line, redrawn each second."""

from __future__ import annotations

import io

from rich.console import Console

from ofc.terminal.face import CLOCK_WIDTH, TICK, Face

SAVE, RESTORE = "\x1b7", "\x1b8"


class Timer:
    """A clock that moves only when the keyboard waits."""

    def __init__(self) -> None:
        self.time = 100.0

    def __call__(self) -> float:
        return self.time


class Waits:
    """A keyboard that lets ``waits`` reads time out (moving the timer) before giving ``line``."""

    def __init__(self, timer: Timer, waits: int, line: str | None) -> None:
        self.timer = timer
        self.waits = waits
        self.line = line
        self.timeouts: list[float | None] = []

    def read(self, timeout: float | None) -> str | None:
        self.timeouts.append(timeout)
        if self.waits:
            self.waits -= 1
            assert timeout is not None
            self.timer.time += timeout
            return None
        return self.line


def clock_text(timer: Timer) -> str:
    return f"time {200 - timer.time:.0f}"


def drawn(text: str) -> str:
    column = 80 - CLOCK_WIDTH + 1
    return f"{SAVE}\x1b[{column}G{text:>{CLOCK_WIDTH}}{RESTORE}"


def test_the_clock_is_redrawn_each_second_on_a_terminal() -> None:
    timer = Timer()
    out = io.StringIO()
    keyboard = Waits(timer, 3, "Ah b")
    face = Face(Console(file=out, width=80, force_terminal=True, color_system=None), keyboard, now=timer)
    assert face.ask("> ", 30.0, lambda: clock_text(timer)) == "Ah b"
    assert out.getvalue() == "> " + "".join(drawn(f"time {left}") for left in (100, 99, 98, 97))
    assert keyboard.timeouts == [TICK, TICK, TICK, TICK]


def test_the_last_wait_ends_at_the_deadline() -> None:
    timer = Timer()
    keyboard = Waits(timer, 99, None)
    face = Face(Console(file=io.StringIO(), width=80, force_terminal=True), keyboard, now=timer)
    assert face.ask("> ", 2.5, lambda: clock_text(timer)) is None
    assert keyboard.timeouts == [TICK, TICK, 0.5]
    assert timer.time == 102.5


def test_no_clock_is_drawn_off_a_terminal() -> None:
    timer = Timer()
    out = io.StringIO()
    keyboard = Waits(timer, 0, "ok")
    face = Face(Console(file=out, width=80, force_terminal=False), keyboard, now=timer)
    assert face.ask("> ", 30.0, lambda: clock_text(timer)) == "ok"
    assert out.getvalue() == "> "
    assert keyboard.timeouts == [30.0]


def test_a_long_clock_is_shown_whole() -> None:
    timer = Timer()
    out = io.StringIO()
    face = Face(Console(file=out, width=80, force_terminal=True), Waits(timer, 0, "ok"), now=timer)
    text = "time 100:00 +100:00"
    assert face.ask("> ", 30.0, lambda: text) == "ok"
    assert out.getvalue() == f"> {SAVE}\x1b[{80 - len(text) + 1}G{text}{RESTORE}"


def test_no_clock_is_drawn_on_a_dumb_terminal() -> None:
    timer = Timer()
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, _environ={"TERM": "dumb"})
    face = Face(console, Waits(timer, 0, "ok"), now=timer)
    assert face.ask("> ", 30.0, lambda: clock_text(timer)) == "ok"
    assert out.getvalue() == "> "
