"""Bots' decisions, hints, the solver and hand analysis on a Ray cluster (``ofc serve --decisions``).

``RayPool`` is a ``DecisionPool`` whose workers are Ray tasks: the same lanes on the server's
side (people's requests first, round-robin across tables) start at most ``size`` jobs at once,
and each started job runs the same function a local worker runs (``decide_job`` for ``run``)
as one Ray task. A task lost with its worker or node (the worker process killed, the node
dead, its result lost) is submitted again, at most ``LOST_RETRIES`` times; an error the job
itself raised comes back as it is. A job still unanswered ``MAX_DECISION_SECONDS +
GRACE_SECONDS`` after it started is cancelled on the cluster and answered with
``TimeoutError``, as the local pool gives up. Ray is imported only here (the ``cluster`` extra).

Addresses: ``ray://HOST:PORT`` (the cluster's Ray client server, from any machine), ``HOST:PORT``
(the head's GCS address: this machine must be a node of the cluster), ``auto`` (the cluster
this machine's ``ray start`` joined) or ``local`` (a Ray instance started for this server).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ofc.server.decisions import workers
from ofc.server.decisions.workers import DecisionPool
from ofc.server.tables.agents import BotFactory
from ofc.train.cluster import ClusterError

log = logging.getLogger("ofc.server.decisions.ray_pool")

LOST_RETRIES = 3
"""How many times a job whose Ray worker or node was lost is submitted again before it fails."""

POLL_SECONDS = 0.2
"""How often a waiting job checks whether its pool is closing."""

RECONNECT_SECONDS = 5.0
"""How long ``ready`` waits before it tries an unreachable cluster again."""

ADDRESS = r"^(auto|local|ray://[^\s/:]+:\d{1,5}|[^\s/:]+:\d{1,5})$"
"""The address forms ``--decisions`` takes (``ServerSettings.decisions`` holds to it)."""


def check_address(address: str) -> str:
    """``address`` if it has one of the forms Ray connects to; raises ``ClusterError``."""
    if re.fullmatch(ADDRESS, address) is None:
        raise ClusterError(
            "cannot reach the Ray cluster {address}: {error}",
            address=address,
            error="not a Ray address (auto, local, HOST:PORT or ray://HOST:PORT)",
        )
    return address


def _run_job(work: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """On a Ray worker: ``work(*args)``."""
    return work(*args)


def _nothing() -> None:
    """A job that does nothing (a round trip to the cluster)."""


def _lost_kinds(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's errors for a task lost with its worker or node (not raised by the job itself)."""
    errors = ray.exceptions
    return (
        errors.WorkerCrashedError,
        errors.NodeDiedError,
        errors.LocalRayletDiedError,
        errors.ObjectLostError,
        errors.OutOfMemoryError,
    )


class RayPool(DecisionPool):
    """A ``DecisionPool`` whose jobs run as Ray tasks on the cluster at ``address``.

    ``options``: Ray options for every task (``.options(**options)``: resources, a scheduling
    strategy), e.g. to keep decisions on the nodes given a custom resource.
    """

    def __init__(
        self,
        address: str,
        factory: BotFactory,
        size: int = 2,
        *,
        warm: Callable[[], None] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(factory, size, processes=False)  # one thread per running job waits for its task
        self.address = check_address(address)
        self.warm = warm
        self.options: dict[str, Any] = dict(options or {})
        self.retried = 0
        """Jobs submitted again after their worker or node was lost."""
        self._ray: Any = None
        self._task: Any = None
        self._connected = False
        self._lock = threading.Lock()
        self._closing = threading.Event()

    async def call(self, table: object, work: Callable[..., Any], *args: Any, **where: Any) -> Any:
        """``work(*args)`` as a Ray task (a module-level function and picklable arguments), queued as ``run``'s jobs."""
        return await super().call(table, self._on_ray, work, args, **where)

    async def ready(self) -> None:
        """Once connected to the cluster and a task has run there (each of ``size`` tasks warmed, with ``warm``).

        A cluster that cannot be reached is tried again every ``RECONNECT_SECONDS`` until the pool closes.
        """
        while True:
            try:
                await asyncio.to_thread(self._ready)
                return
            except ClusterError as error:
                if self._closing.is_set():
                    raise
                log.warning("%s: trying again in %g s", error, RECONNECT_SECONDS)
            await asyncio.sleep(RECONNECT_SECONDS)

    def _ready(self) -> None:
        ray, task = self._connect()
        if self.warm is None:
            jobs = [task.options(**self.options).remote(_nothing, ())]
        else:
            spread = {"scheduling_strategy": "SPREAD", **self.options}
            jobs = [task.options(**spread).remote(self.warm, ()) for _ in range(self.size)]
        ray.get(jobs)

    def _connect(self) -> tuple[Any, Any]:
        """``ray`` (connected to ``address`` once) and the remote function that runs a job."""
        with self._lock:
            if self._task is not None:
                return self._ray, self._task
            if self._closing.is_set():
                raise ClusterError(
                    "cannot reach the Ray cluster {address}: {error}", address=self.address, error="closed"
                )
            try:
                import ray
            except ImportError:
                raise ClusterError(
                    "cannot reach the Ray cluster {address}: {error}",
                    address=self.address,
                    error="Ray is not installed: pip install -e '.[cluster]'",
                ) from None
            if not ray.is_initialized():
                try:
                    if self.address == "local":
                        ray.init(include_dashboard=False, log_to_driver=False)
                    else:
                        ray.init(address=self.address, log_to_driver=False)
                except (ConnectionError, RuntimeError, ValueError) as error:
                    raise ClusterError(
                        "cannot reach the Ray cluster {address}: {error}", address=self.address, error=error
                    ) from None
                self._connected = True
            # no retries of Ray's own: a lost task is submitted again here, counted and bounded
            self._ray = ray
            self._task = ray.remote(num_cpus=1, max_retries=0, retry_exceptions=False)(_run_job)
            return ray, self._task

    def _on_ray(self, work: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """In a pool thread: ``work(*args)`` on the cluster, submitted again when its worker is lost."""
        ray, task = self._connect()
        lost = _lost_kinds(ray)
        deadline = time.monotonic() + workers.MAX_DECISION_SECONDS + workers.GRACE_SECONDS
        tries = 0
        while True:
            tries += 1
            ref = task.options(**self.options).remote(work, args)
            try:
                return self._answer(ray, ref, deadline)
            except ray.exceptions.RayTaskError as error:
                cause = getattr(error, "cause", None)
                if not isinstance(cause, lost):
                    raise (cause if isinstance(cause, Exception) else error) from None
                failure: BaseException = cause
            except lost as error:
                failure = error
            if tries > LOST_RETRIES:
                raise ClusterError(
                    "cannot reach the Ray cluster {address}: {error}", address=self.address, error=failure
                ) from None
            with self._lock:
                self.retried += 1
            log.warning("a decision's Ray worker was lost (%s): submitting it again", type(failure).__name__)

    def _answer(self, ray: Any, ref: Any, deadline: float) -> Any:
        """The task's result; cancels it once the pool closes or its time is up."""
        while True:
            done, _ = ray.wait([ref], timeout=POLL_SECONDS)
            if done:
                return ray.get(ref)
            if self._closing.is_set() or time.monotonic() > deadline:
                ray.cancel(ref, force=True)
                raise TimeoutError("a decision ran past the server's cap")

    def close(self) -> None:
        """Stop at once: queued jobs dropped, running tasks cancelled, the connection (if this pool made it) closed."""
        self._closing.set()
        super().close()
        self._executor.shutdown(wait=True)  # each running job's thread sees the flag within POLL_SECONDS
        with self._lock:
            if self._connected and self._ray is not None:
                self._ray.shutdown()
            self._connected = False
            self._task = None
