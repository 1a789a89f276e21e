"""Database work off the event loop: one writer thread (writes in order, retried) and a few readers.

The event loop never waits on the database itself: it awaits futures of these threads. Every
wait is bounded (see ``ofc.server.db.engine``); a failed write is retried with backoff, either
until it succeeds (writes that memory already holds: automatic placements, deals, settlements)
or until a deadline (a person's request, refused with ``StorageUnavailable`` and nothing changed).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError

from ofc.rules.errors import OfcError

log = logging.getLogger("ofc.server.db")

T = TypeVar("T")

REQUEST_SECONDS = 10.0
"""How long a person's request may keep retrying its write before it is refused."""


class StorageUnavailable(OfcError):
    """The database did not take a request's write or answer a read in time; nothing changed."""

    code = "storage"


def transient(error: BaseException) -> bool:
    """Whether retrying may help: a lost connection, a lock or statement timeout (not a broken constraint)."""
    if isinstance(error, IntegrityError):
        return False
    return isinstance(error, DBAPIError | OSError | TimeoutError)


class Database:
    """Runs storage calls on its threads: ``write`` in submission order, ``read`` concurrently."""

    def __init__(self, *, request_seconds: float = REQUEST_SECONDS, readers: int = 4) -> None:
        self.request_seconds = request_seconds
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="ofc-db-write")
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="ofc-db-read")
        self._closing = threading.Event()
        self.failures = 0
        """Failed attempts so far (each one logged and retried)."""

    async def read(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on a reader thread; raises ``StorageUnavailable`` if it fails or takes too long."""
        future = asyncio.get_running_loop().run_in_executor(self._readers, functools.partial(call, *args))
        try:
            return await asyncio.wait_for(future, self.request_seconds)
        except TimeoutError:
            raise StorageUnavailable(
                "the database did not answer in {seconds} s", seconds=f"{self.request_seconds:g}"
            ) from None
        except DBAPIError as error:
            if not transient(error):
                raise
            raise StorageUnavailable("the database is unavailable: {kind}", kind=type(error.orig).__name__) from None

    async def write(self, call: Callable[..., T], *args: Any, retry_for: float | None = None) -> T:
        """``call(*args)`` on the writer thread, after every earlier write.

        Retried with backoff while it fails transiently: for ``retry_for`` seconds (then
        ``StorageUnavailable``), or without end when None.
        """
        job = functools.partial(self._attempts, functools.partial(call, *args), retry_for)
        return await asyncio.wrap_future(self._writer.submit(job))

    async def write_all(self, calls: Sequence[Callable[[], object]]) -> None:
        """Every call in order on the writer thread, each retried until it succeeds."""
        if calls:
            await asyncio.wrap_future(self._writer.submit(self._all, list(calls)))

    def _all(self, calls: list[Callable[[], object]]) -> None:
        for call in calls:
            self._attempts(call, None)

    def _attempts(self, call: Callable[[], T], retry_for: float | None) -> T:
        start = time.monotonic()
        pause = 0.05
        while True:
            try:
                return call()
            except Exception as error:
                if not transient(error):
                    raise
                self.failures += 1
                waited = time.monotonic() - start
                if self._closing.is_set() or (retry_for is not None and waited + pause > retry_for):
                    raise StorageUnavailable(
                        "the database is unavailable ({kind}): try again", kind=type(error).__name__
                    ) from None
                log.warning("database write failed (%s); retrying in %.2f s", error, pause)
                time.sleep(pause)
                pause = min(pause * 2, 2.0)

    def close(self) -> None:
        """Stop retrying, finish the write under way and release the threads."""
        self._closing.set()
        self._writer.shutdown(wait=True, cancel_futures=True)
        self._readers.shutdown(wait=False, cancel_futures=True)
