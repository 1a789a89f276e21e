"""Bots' decisions, hints and the fantasy solver on a bounded pool, shared fairly between tables.

Each decision is a job ``(kind, spec, seed, view)`` run by ``decide_job`` on a worker: a
process (the product: one table's search cannot hold the others' GIL) or a thread (tests with
stand-in bots). Jobs wait in one queue per table and are started round-robin across tables,
at most ``size`` at once, so a table with many slow bots delays only its own decisions. A
person's request (a hint, a fantasy solution) waits in a lane of its own served first, so a
person at the screen waits for the jobs already running, not for every bot table's turn;
``PEOPLE_RUN`` such jobs in a row at most while bots wait, so hints cannot starve the bots.
Hand analyses (long: thousands of play-outs) wait in a third lane, started only when no
person's or bot's job waits and on all but one worker at most, so they never hold back the
bots nor the hints (with a single worker, one analysis may run when nothing else waits). A
decision may take ``MAX_DECISION_SECONDS``; bot specs allowed more are refused when the table
is created, and a job still running ``GRACE_SECONDS`` after its cap (counted from its start, not
from its queueing) is given up on (the table's clock then places for the seat).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from ofc.bots.base import Decision
from ofc.bots.hint import hint_figures
from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.rules.errors import BotError
from ofc.server.tables.agents import HINT_BOT, BotFactory, fantasy_action
from ofc.sim.processes import process_pool

log = logging.getLogger("ofc.server.decisions.workers")

MAX_DECISION_SECONDS = 5.0
"""The longest one bot decision (or hint) may be allowed to think on this server."""

GRACE_SECONDS = 30.0
"""How long past its cap a job may run before its table gives up waiting for it."""


PEOPLE_RUN = 3
"""How many people's requests may start one after another while bots' jobs wait."""


def check_budget(bot: object, spec: str) -> None:
    """Refuse a bot whose time per decision is unbounded or above ``MAX_DECISION_SECONDS`` (``BotError``)."""
    if not hasattr(bot, "seconds"):
        return  # bots without a time budget decide in microseconds (random, heuristic)
    seconds = bot.seconds
    if seconds is None or seconds > MAX_DECISION_SECONDS:
        raise BotError(
            "bot {spec!r}: this server allows at most seconds={seconds} per decision (give seconds=, at most that)",
            spec=spec,
            seconds=f"{MAX_DECISION_SECONDS:g}",
        )


_bots: dict[tuple[object, str, int | None], Any] = {}
"""The worker's bots, one per owner (a table seat) and spec, kept between decisions."""


def decide_job(
    factory: BotFactory, kind: str, spec: str, seed: int | None, view: HandView, owner: object = None
) -> tuple[Action, Any]:
    """Run one job on a worker: ``act``/``decide`` of ``owner``'s bot ``spec`` or the fantasy solver."""
    if kind == "solve":
        return fantasy_action(view), None
    bot = _bots.get((owner, spec, seed))
    if bot is None:
        if len(_bots) > 10_000:
            _bots.clear()
        bot = _bots[(owner, spec, seed)] = factory(spec, seed)
    if kind == "act":
        return bot.act(view), None
    decision: Decision = bot.decide(view)
    return decision.action, hint_figures(bot, decision)


def _nothing() -> None:
    """A job that does nothing (starts the workers)."""


WARM_SPECS = (HINT_BOT, "mc:seconds=0.05")
"""The bots that warm the kernels: the hint's and the lobby's search bot (briefly: the kernels, not the search)."""


def warm_kernels() -> None:
    """Compile or load the search kernels: the hint bot and the mc bot decide once in every preset.

    (``ofc.sim.simulate.warm_up``.) The first hint and the first bot move then wait for no compiler.
    """
    from ofc.rules.rulebook import PRESETS
    from ofc.sim.simulate import warm_up

    for rules in PRESETS.values():
        warm_up(rules, list(WARM_SPECS))


WORKER_NICENESS = 10
"""How much lower a worker process's scheduling priority is than the server's: on a busy machine
the event loop (every player's actions and updates) gets the processor first, searches fill the rest."""


def _start_worker(warm: Callable[[], None] | None) -> None:
    """A worker process's start: lower its priority, then warm its kernels."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    if warm is not None:
        warm()


def _give_up(future: asyncio.Future[Any]) -> None:
    """Stop waiting for a job running far past its cap (its worker stays taken until it ends)."""
    if not future.done():
        future.set_exception(TimeoutError("a decision ran past the server's cap"))


Job = tuple[tuple[Callable[..., Any], tuple[Any, ...]], "asyncio.Future[Any]"]
"""A queued job: the function and its arguments, and the future its answer goes to."""


class _Lane:
    """Jobs waiting in one FIFO queue per table (or connection), taken round-robin."""

    def __init__(self) -> None:
        self.queues: dict[object, deque[Job]] = {}
        self.turns: deque[object] = deque()

    def push(self, table: object, job: Job) -> None:
        """Queue ``job`` behind ``table``'s earlier jobs."""
        queue = self.queues.get(table)
        if queue is None:
            queue = self.queues[table] = deque()
            self.turns.append(table)
        queue.append(job)

    def pop(self) -> Job:
        """The next table's oldest job (the lane must not be empty)."""
        table = self.turns.popleft()
        queue = self.queues[table]
        job = queue.popleft()
        if queue:
            self.turns.append(table)  # its next job waits for the other tables' turns
        else:
            del self.queues[table]
        return job

    def __len__(self) -> int:
        return sum(len(queue) for queue in self.queues.values())

    def clear(self) -> list[Job]:
        """Empty the lane; the jobs it held."""
        jobs = [job for queue in self.queues.values() for job in queue]
        self.queues.clear()
        self.turns.clear()
        return jobs


class DecisionPool:
    """A bounded pool: people's requests first, then bots' jobs, each lane round-robin across tables."""

    def __init__(
        self, factory: BotFactory, size: int = 2, *, processes: bool = True, warm: Callable[[], None] | None = None
    ) -> None:
        self.factory = factory
        self.size = max(1, size)
        self._executor: Executor
        if processes:
            self._executor = process_pool(self.size, _start_worker, (warm,))
        else:
            self._executor = ThreadPoolExecutor(self.size, "ofc-decide")
        self._people = _Lane()
        self._bots = _Lane()
        self._analyses = _Lane()
        self._analysing: set[asyncio.Future[Any]] = set()
        """The analyses started and not yet ended."""
        self._people_in_a_row = 0
        self._running = 0
        self._token = secrets.token_hex(8)
        """Part of each bot's key: a new pool (a new server) never meets an old pool's bots."""

    async def run(
        self,
        table: object,
        kind: str,
        spec: str,
        seed: int | None,
        view: HandView,
        owner: object = None,
        *,
        person: bool = False,
    ) -> tuple[Action, Any]:
        """The job's answer once a worker has run it (queued behind ``table``'s earlier jobs only).

        ``person``: asked by a person waiting for it (a hint), served before the bots' jobs.
        """
        job = (self.factory, kind, spec, seed, view, (self._token, owner))
        result: tuple[Action, Any] = await self.call(table, decide_job, *job, person=person)
        return result

    async def call(
        self, table: object, work: Callable[..., Any], *args: Any, person: bool = False, analysis: bool = False
    ) -> Any:
        """``work(*args)`` on a worker (a module-level function and picklable arguments), queued as ``run``'s jobs.

        ``analysis``: a hand analysis, in the lane served last.
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        lane = self._analyses if analysis else self._people if person else self._bots
        lane.push(table, ((work, args), future))
        self._pump()
        return await future

    async def ready(self) -> None:
        """Once every worker has started (and warmed its kernels)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _nothing) for _ in range(self.size)))

    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return len(self._people) + len(self._bots) + len(self._analyses)

    def _next(self) -> Job | None:
        """The job to start next: a person's, unless ``PEOPLE_RUN`` have started in a row while bots wait."""
        bots_wait = bool(self._bots.turns)
        if self._people.turns and not (bots_wait and self._people_in_a_row >= PEOPLE_RUN):
            self._people_in_a_row += 1
            return self._people.pop()
        self._people_in_a_row = 0
        if bots_wait:
            return self._bots.pop()
        if self._analyses.turns and len(self._analysing) < max(1, self.size - 1):
            job = self._analyses.pop()
            self._analysing.add(job[1])
            return job
        return None

    def _pump(self) -> None:
        while self._running < self.size and (chosen := self._next()) is not None:
            job, future = chosen
            if future.done():
                self._analysing.discard(future)
                continue  # its waiter gave up
            self._running += 1
            function, args = job
            work = asyncio.wrap_future(self._executor.submit(function, *args))
            # the cap counts from the job's start, not from when it was queued behind others
            give_up = asyncio.get_running_loop().call_later(
                MAX_DECISION_SECONDS + GRACE_SECONDS, functools.partial(_give_up, future)
            )
            work.add_done_callback(functools.partial(self._finished, target=future, give_up=give_up))

    def _finished(self, done: asyncio.Future[Any], target: asyncio.Future[Any], give_up: asyncio.TimerHandle) -> None:
        give_up.cancel()
        self._running -= 1
        self._analysing.discard(target)
        if not target.done():
            if done.cancelled():
                target.cancel()
            elif (error := done.exception()) is not None:
                target.set_exception(error)
            else:
                target.set_result(done.result())
        self._pump()

    def close(self) -> None:
        """Stop at once: queued jobs are dropped and worker processes ended."""
        for _job, future in self._people.clear() + self._bots.clear() + self._analyses.clear():
            future.cancel()
        processes = list(getattr(self._executor, "_processes", {}).values())
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()


def default_size() -> int:
    """Workers for the product: the machine's cores less one, at least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))
