"""A connection's unsent messages, bounded: a reader that stops reading cannot grow the server."""

from __future__ import annotations

import asyncio
from collections import deque

LIMIT = 256
"""Unsent messages a connection may have before it is closed as too slow."""


class Outbox:
    """Outgoing text in order. A new state replaces an unsent state last in line (only the latest
    matters); past
    ``limit`` unsent messages the outbox is ``overflowed``: it ends (``get`` gives None)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.overflowed = False
        self._items: deque[list[str | None]] = deque()
        self._state: list[str | None] | None = None
        self._ready = asyncio.Event()

    def put_nowait(self, text: str | None, *, state: bool = False) -> None:
        """Queue ``text`` (None: end the outbox)."""
        if self.overflowed:
            return
        if state and self._items and self._items[-1] is self._state:
            self._items[-1][0] = text  # the unsent state last in line: replaced (order kept)
            return
        if len(self._items) >= self.limit:
            self.overflowed = True
            self._items.clear()
            text, state = None, False
        box = [text]
        self._items.append(box)
        if state:
            self._state = box
        self._ready.set()

    def __len__(self) -> int:
        return len(self._items)

    async def get(self) -> str | None:
        """The next text to send, waiting for one; None once the outbox has ended."""
        while not self._items:
            self._ready.clear()
            await self._ready.wait()
        box = self._items.popleft()
        if box is self._state:
            self._state = None
        return box[0]
