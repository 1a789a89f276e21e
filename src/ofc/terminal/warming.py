"""The bots' kernels loaded before a match at the terminal, with a line when that takes a while.

The first time (numba's cache empty, or the game newly installed) the kernels are compiled,
which takes long enough that a silent terminal would look stuck; later they load at once and
nothing is printed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ofc.i18n import tr
from ofc.rules.rulebook import Rules
from ofc.sim.simulate import warm_up

WARM_SPEC = "pro:seconds=0.05"
"""The bot that warms the kernels: the search bots' and the hint's kernels, in little time."""

NOTICE_AFTER = 0.5
"""Seconds the warm-up may take before the player is told it is under way."""


def warm_bots(
    rules: Rules, say: Callable[[str], None], *, after: float = NOTICE_AFTER, warm: Callable[[], None] | None = None
) -> bool:
    """Load (or compile) the bots' kernels for ``rules``; ``say`` a line if it takes over ``after`` s.

    ``warm`` replaces the warm-up (tests). Returns whether the line was said (then the seconds it
    took are said at the end too).
    """
    started = time.perf_counter()
    told = threading.Event()

    def tell() -> None:
        told.set()
        say(tr("Warming up the bots\u2026 (the first time only: their compiled kernels are being prepared)"))

    timer = threading.Timer(after, tell)
    timer.daemon = True
    timer.start()
    try:
        if warm is None:
            warm_up(rules, [WARM_SPEC])
        else:
            warm()
    finally:
        timer.cancel()
        timer.join()  # a line being said is said whole before the next
    if told.is_set():
        say(tr("The bots are ready ({seconds} s).", seconds=f"{time.perf_counter() - started:.0f}"))
    return told.is_set()
