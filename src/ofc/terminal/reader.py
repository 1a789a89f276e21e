"""Reading the player's lines with a timeout, and Ctrl-C that only lands at a prompt.

``LineReader`` reads whole lines straight from a file descriptor (buffered by itself, so
lines typed ahead are never lost between waits) and gives up after a timeout, which lets the
game place a player's cards automatically when their time runs out at the prompt.

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
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Protocol


class Keyboard(Protocol):
    """Where the player's lines come from."""

    def read(self, timeout: float | None) -> str | None:
        """The next line (no newline); None after ``timeout`` seconds; ``EOFError`` at the end."""
        ...


class LineReader:
    """Lines from file descriptor ``fd`` (standard input by default)."""

    def __init__(self, fd: int | None = None) -> None:
        self._fd = sys.stdin.fileno() if fd is None else fd
        self._buffer = b""
        self._ended = False

    def read(self, timeout: float | None) -> str | None:
        """The next line (no newline); None after ``timeout`` seconds; ``EOFError`` at the end."""
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
        if os.isatty(self._fd):
            import termios

            termios.tcflush(self._fd, termios.TCIFLUSH)


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
