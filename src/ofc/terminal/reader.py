"""Reading the player's lines, and Ctrl-C that only lands at a prompt.

What the game asks is an ``Ask``: the prompt, how long the player has (the engine places their
cards once it is over), a clock to show while they type and the words worth completing. A
``Keyboard`` answers it. On a terminal that is ``ofc.terminal.prompt.PromptReader``
(prompt_toolkit: line editing, history, completion, a toolbar with the ticking clock); when
standard input is a pipe or a file it is ``LineReader``, which reads plain lines with a
timeout (buffered by itself, so lines sent ahead are never lost between waits).

``Interrupts`` replaces Python's Ctrl-C handler: at a prompt Ctrl-C raises
``KeyboardInterrupt`` at once; anywhere else (a bot thinking, the engine applying an action)
it is remembered and raised at the next prompt, so no action is ever cut in half.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Protocol


@dataclass(frozen=True)
class Ask:
    """One prompt: its text, the seconds left (None: no limit), a clock to show, words to complete."""

    prompt: str
    timeout: float | None = None
    clock: Callable[[], str] | None = None
    words: tuple[str, ...] = ()


class Keyboard(Protocol):
    """Where the player's lines come from."""

    draws_prompt: bool
    """Whether ``read`` shows the prompt itself (else the face prints it first)."""

    def read(self, ask: Ask) -> str | None:
        """The next line (no newline); None after ``ask.timeout`` seconds; ``EOFError`` at the end."""
        ...

    def drop_typed(self) -> None:
        """Forget whatever was typed but not read (after the time ran out)."""
        ...


class LineReader:
    """Plain lines from file descriptor ``fd`` (standard input by default): for pipes and files."""

    draws_prompt = False

    def __init__(self, fd: int | None = None) -> None:
        self._fd = sys.stdin.fileno() if fd is None else fd
        self._buffer = b""
        self._ended = False

    def read(self, ask: Ask) -> str | None:
        """The next line (no newline); None after ``ask.timeout`` seconds; ``EOFError`` at the end."""
        timeout = ask.timeout
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while b"\n" not in self._buffer:
            if self._ended:
                if not self._buffer:
                    raise EOFError
                line, self._buffer = self._buffer, b""
                return _text(line)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self._fd, 4096)
            self._ended = not chunk
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return _text(line)

    def drop_typed(self) -> None:
        """Forget whatever was typed but not read (after the time ran out)."""
        self._buffer = b""
        flush_typed(self._fd)


def flush_typed(fd: int) -> None:
    """Drop what was typed on terminal ``fd`` and not read yet (nothing to do for a pipe)."""
    if os.isatty(fd):
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r")


class Interrupts:
    """Ctrl-C raised at prompts only (see the module docstring)."""

    def __init__(self) -> None:
        self.pending = False
        self._armed = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self._armed:
            self._armed = False
            raise KeyboardInterrupt
        self.pending = True

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Use this handler for Ctrl-C inside the block (main thread only)."""
        previous = signal.signal(signal.SIGINT, self._handle)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    @contextmanager
    def prompt(self) -> Iterator[None]:
        """A prompt: a Ctrl-C remembered since the last prompt, or one pressed now, raises here."""
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt
        self._armed = True
        try:
            yield
        finally:
            self._armed = False
