"""How fast the server reads one connection's messages: a flood is slowed, never refused.

Each WebSocket's messages are read through a ``Pacer``: ``burst`` messages at once, then
``rate`` a second. A client sending faster finds its messages read later (the socket's
buffers fill and its sends wait: TCP's own back-pressure), so one connection cannot take the
event loop from the others; nothing it sent is dropped. Real time, not the game clock: this is
about the processor, not the rules.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

MESSAGES_PER_SECOND = 1000.0
"""One connection's messages read per second beyond the burst (a person sends a few a minute)."""

MESSAGE_BURST = 1000.0
"""Messages one connection may send at once before its reading is paced."""


class Pacer:
    """A token bucket that waits instead of refusing."""

    def __init__(
        self,
        rate: float = MESSAGES_PER_SECOND,
        burst: float = MESSAGE_BURST,
        *,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._sleep = sleep
        self.tokens = burst
        self.at = now()

    async def turn(self) -> None:
        """Wait until one more message may be read, then count it; always lets other tasks run first."""
        now = self._now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        # a debt is paid by waiting; with none, sleep(0) still lets the other connections have their turn
        await self._sleep(max(0.0, -self.tokens / self.rate))
