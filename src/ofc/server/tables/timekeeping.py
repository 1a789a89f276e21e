"""The server's clock: seconds as ``Decimal``, injectable (the tests bring a clock they move by hand).

Hands read no clock of their own; the server passes ``clock.now()`` in. ``SystemClock`` counts
with ``time.monotonic()`` (never goes back while the process runs) from a wall-clock origin,
so the times stored in the database still mean something after a restart.
"""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Protocol

_MS = Decimal("0.001")


class Clock(Protocol):
    """Anything that tells the time in seconds."""

    def now(self) -> Decimal:
        """The current time."""
        ...


class SystemClock:
    """Wall-clock seconds at start-up plus monotonic time since, to the millisecond."""

    def __init__(self) -> None:
        self._wall = time.time()
        self._mono = time.monotonic()

    def now(self) -> Decimal:
        """Seconds since the epoch, moving monotonically."""
        return Decimal(self._wall + (time.monotonic() - self._mono)).quantize(_MS)


class TableTime:
    """Server time to a table's time: an offset that grows while the table is held.

    The offset is the time the table did not count: the downtime of restarts and the holds. While
    held (a hint or a bot decision running past its budget, the workers still warming), the table's
    time stands still, so no seat's clock runs; it goes on from the same instant once released.
    Table times never go back.
    """

    __slots__ = ("held_since", "holds", "offset")

    def __init__(self, offset: Decimal = Decimal(0)) -> None:
        self.offset = offset
        self.held_since: Decimal | None = None
        """Server time since which the table is held (None: its time runs)."""
        self.holds = 0

    @property
    def held(self) -> bool:
        """Whether the table's time stands still."""
        return self.held_since is not None

    def table(self, now: Decimal) -> Decimal:
        """The table's time at server time ``now``."""
        if self.held_since is not None:
            now = min(now, self.held_since)
        return now - self.offset

    def server(self, time: Decimal) -> Decimal | None:
        """The server time at which the table reaches its time ``time`` (None while held: never, until released)."""
        return None if self.held_since is not None else time + self.offset

    def hold(self, now: Decimal) -> None:
        """Stop the table's time at server time ``now`` (holds nest: each ``hold`` has its ``release``)."""
        if self.holds == 0:
            self.held_since = now
        self.holds += 1

    def release(self, now: Decimal) -> Decimal:
        """End one hold at server time ``now``; the seconds the table's time stood still when the last ends, else 0."""
        if self.holds == 0 or self.held_since is None:
            return Decimal(0)
        self.holds -= 1
        if self.holds:
            return Decimal(0)
        stood = max(Decimal(0), now - self.held_since)
        self.offset += stood
        self.held_since = None
        return stood
