"""Process pools whose workers end with the process that started them.

A ``ProcessPoolExecutor``'s idle worker waits on a queue whose write end every worker holds
too (a spawned worker receives the queue whole), so when the parent is killed outright
(``kill -9``, the out-of-memory killer) the queue never closes and the workers wait for ever,
each holding its memory. Every worker of ``process_pool`` watches its parent instead and
exits once it is gone.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

PARENT_POLL_SECONDS = 0.5
"""How often a worker checks that its parent is still there."""


def follow_parent(parent: int) -> None:
    """In a worker process: exit as soon as ``parent`` (the pid of the process that started it) is gone.

    The pid is passed in, not read here: a parent killed while the worker was still starting
    has already left it to another process by the time the worker could ask.
    """

    def watch() -> None:
        while os.getppid() == parent:  # an orphan is adopted by another process
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="ofc-follow-parent", daemon=True).start()


def _start(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    follow_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def process_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that run ``initializer(*initargs)`` first and exit with this process."""
    return ProcessPoolExecutor(workers, get_context("spawn"), _start, (os.getpid(), initializer, initargs))


__all__ = ["PARENT_POLL_SECONDS", "follow_parent", "process_pool"]
