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
