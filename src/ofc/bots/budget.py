"""Play-outs in batches until a decision's budget is spent: a number of play-outs, a time, or both.

The Monte Carlo and ``pro`` bots share this loop: batches start small and are then sized to take
about ``BATCH_SECONDS`` each, planning on at most ``SAFETY`` of the time left, so the deadline
is kept closely whatever one play-out costs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

FIRST_BATCH = 4
BATCH_SECONDS = 0.02
"""Later batches are sized to take about this long, so the deadline is kept closely."""
SAFETY = 0.8
"""Share of the time left that the next batch may plan to use (batches vary in speed)."""


def run_within_budget(
    run_batch: Callable[[int, int], None], seconds: float | None, rollouts: int | None, start: float
) -> int:
    """Call ``run_batch(first, count)`` for successive play-outs until the budget is spent.

    ``seconds`` counts from ``start`` (a ``time.perf_counter()`` reading); ``rollouts`` caps
    the play-outs. Returns how many play-outs were run (at least one batch).
    """
    done = 0
    batch = FIRST_BATCH
    while True:
        if rollouts is not None:
            batch = min(batch, rollouts - done)
        began = time.perf_counter()
        run_batch(done, batch)
        done += batch
        now = time.perf_counter()
        if rollouts is not None and done >= rollouts:
            return done
        if seconds is not None:
            left = (seconds - (now - start)) * SAFETY
            per = max((now - began) / batch, 1e-6)
            if left < per:
                return done
            batch = max(1, min(int(BATCH_SECONDS / per), int(left / per)))
        else:
            batch = max(batch, 16)
