"""Decisions on a Ray cluster (``ofc serve --decisions``, issue 36): lanes, a lost node, the Ray client.

The module starts its own cluster (``tests/support/ray_cluster.py``: a head node, and a second
node labelled with the custom resource ``victim`` where a test needs one to kill), always by
explicit address: a cluster left on the machine is never touched. The bots here are stand-ins
that leave a mark file per decision naming the node it ran on; on the ``victim`` node a decision
holds until its node is killed.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import ray as ray_module
from starlette.testclient import TestClient

from ofc.bots.base import Decision
from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.server.decisions import workers
from ofc.server.decisions.ray_pool import RayPool
from support.ray_cluster import RayCluster
from support.server import HANG_GUARD, StandInBot, create_table, join, make_app, my_turn, receive, until

ray: Any = ray_module  # parts of Ray are untyped
TESTS = Path(__file__).resolve().parent


class MarkedBot(StandInBot):
    """A stand-in that marks each decision with the node it ran on; on the ``victim`` node it holds."""

    seconds = 2.0  # within the server's cap (its budget is checked when the table is created)

    def __init__(self, spec: str, seed: int | None) -> None:
        super().__init__(0 if seed is None else seed)
        self.spec = spec

    def _mark(self) -> None:
        marks = os.environ.get("OFC_RAY_TEST_MARKS")
        if marks is None:
            return  # not on the test cluster
        node = os.environ.get("OFC_RAY_TEST_NODE", "server")
        (Path(marks) / f"{node}-{self.spec}-{os.getpid()}-{time.monotonic_ns()}").touch()
        if node == "victim":
            time.sleep(HANG_GUARD)  # a decision that runs until its node is killed

    def act(self, view: HandView) -> Action:
        self._mark()
        return super().act(view)

    def decide(self, view: HandView) -> Decision:
        self._mark()
        return Decision(super().act(view), 1.5)


def marked_factory(spec: str, seed: int | None) -> MarkedBot:
    """Every spec gives a ``MarkedBot``."""
    return MarkedBot(spec, seed)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A head node with one CPU and a Ray client server, private to this module; its bots mark their decisions."""
    here = RayCluster()
    (here.home / "marks").mkdir()
    here.env |= {
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "OFC_RAY_TEST_MARKS": str(here.home / "marks"),
    }
    with pytest.MonkeyPatch.context() as patch:
        for name in ("RAY_TMPDIR", "RAY_AUTH_MODE"):
            patch.setenv(name, here.env[name])  # this process's drivers join the same way
        try:
            yield here.start()
        finally:
            here.stop()


def _marked(cluster: RayCluster) -> list[str]:
    """The marks so far: ``node-spec`` per decision, in no particular order."""
    return sorted("-".join(path.name.split("-")[:2]) for path in (cluster.home / "marks").iterdir())


def _alive_with(resource: str) -> list[str]:
    """The ids of the live nodes that have ``resource`` (this process connected to the cluster)."""
    return [node["NodeID"] for node in ray.nodes() if node["Alive"] and resource in node["Resources"]]


@pytest.mark.slow  # the module's cluster starts with the first of these
def test_people_s_requests_start_first_on_the_cluster_too(cluster: RayCluster) -> None:
    """The lanes of ``test_server_workers`` with one Ray task at a time: the same order, worked by hand.

    The first job holds the only slot while bot jobs of tables b..f and four hints (p1..p4) queue;
    with ``PEOPLE_RUN`` = 3 they start p1, p2, p3, b, p4, c, d, e, f, and one at a time they finish
    in that order.
    """
    finished: list[str] = []

    async def main() -> None:
        pool = RayPool(cluster.address, marked_factory, 1)
        try:
            await pool.ready()
            jobs = [asyncio.ensure_future(pool.call("a", str, "first"))]
            await asyncio.sleep(0)
            jobs += [asyncio.ensure_future(pool.call(t, str, t)) for t in "bcdef"]
            jobs += [asyncio.ensure_future(pool.call(p, str, p, person=True)) for p in ("p1", "p2", "p3", "p4")]
            await asyncio.sleep(0)
            assert pool.queued() == 9
            for job in jobs:
                job.add_done_callback(lambda done: finished.append(done.result()))
            await asyncio.wait_for(asyncio.gather(*jobs), HANG_GUARD)
            assert pool.retried == 0
        finally:
            pool.close()
        assert not ray.is_initialized()  # the pool made the connection, and closed it

    asyncio.run(main())
    assert finished == ["first", "p1", "p2", "p3", "b", "p4", "c", "d", "e", "f"]


def _placed(state: dict[str, Any]) -> int:
    """Cards placed on every board of a state message's hand."""
    hand = state.get("hand") or {"seats": []}
    return sum(len(seat["top"]) + len(seat["middle"]) + len(seat["bottom"]) for seat in hand["seats"])


def _ready(client: TestClient) -> None:
    """Wait until the server has connected to the cluster and run a first task there."""
    deadline = time.monotonic() + HANG_GUARD
    while client.get("/api/health").status_code != 200:
        assert time.monotonic() < deadline, "the server never became ready"
        time.sleep(0.1)


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions given up only after the hang guard: a loaded machine's Ray worker may take long to start."""
    monkeypatch.setattr(workers, "GRACE_SECONDS", HANG_GUARD)


@pytest.mark.slow  # the module's cluster starts with the first of these
@pytest.mark.usefixtures("patient")
def test_a_decision_whose_node_is_killed_is_retried_and_the_bot_acts(cluster: RayCluster, tmp_path: Path) -> None:
    """A bot's decision held on the ``victim`` node; the node killed: the decision runs again on the head."""
    cluster.add_node("victim", f"--address={cluster.address}", "--num-cpus=1", '--resources={"victim": 1}')
    ray.init(address=cluster.address, log_to_driver=False)  # the pool uses this connection
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not (victims := _alive_with("victim")):
            assert time.monotonic() < deadline, "the victim node never joined"
            time.sleep(0.2)
        app = make_app(tmp_path, bot_factory=marked_factory, decisions=cluster.address, workers=1)
        pool = cast(RayPool, app.state.manager.pool)
        strategy = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(victims[0], soft=True)
        pool.options = {"scheduling_strategy": strategy}  # first on the victim node, while it lives
        with TestClient(app) as client:
            _ready(client)
            table = create_table(client, preset="pineapple", seats=2, bots=["held", "held"])
            while "victim-held" not in _marked(cluster):
                assert time.monotonic() < deadline, "no decision reached the victim node"
                time.sleep(0.05)
            with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
                assert _placed(receive(spectator)) == 0  # the first decision is held on the victim node
                cluster.kill_node("victim")
                acted = until(spectator, lambda message: message["type"] == "state" and _placed(message) >= 5)
            assert acted["hand_number"] == 0
            assert pool.retried == 1
            marks = _marked(cluster)
            assert marks.count("victim-held") == 1
            assert "head-held" in marks
            assert not [mark for mark in marks if mark.startswith("server")]  # no decision ran in the server
    finally:
        ray.shutdown()


@pytest.mark.slow  # the module's cluster starts with the first of these
@pytest.mark.usefixtures("patient")
def test_a_hint_through_the_ray_client(cluster: RayCluster, tmp_path: Path) -> None:
    """``--decisions ray://HOST:PORT``: a person's hint worked out on the cluster through Ray's client."""
    app = make_app(tmp_path, bot_factory=marked_factory, decisions=cluster.client_address, workers=1)
    with TestClient(app) as client:
        _ready(client)
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "opponent"])
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": seat["token"]}))
            state = until(ws, my_turn)
            ws.send_text(json.dumps({"type": "hint", "token": seat["token"], "id": "h"}))
            hint = until(ws, lambda message: message["type"] != "state")
    assert (hint["type"], hint["id"], hint["value"], hint["choices"]) == ("hint", "h", 1.5, [])
    assert hint["action"]["seat"] == state["hand"]["seat"]
    marks = _marked(cluster)
    assert "head-pro:seconds=0.2" in marks  # the hint bot's decision ran on the cluster
    assert not [mark for mark in marks if mark.startswith("server")]
    assert not ray.is_initialized()  # the server's pool closed its client connection


class _Outcomes:
    """A stand-in for the ``ray`` module: each task submitted ends with the next of ``outcomes``."""

    exceptions = ray.exceptions

    def __init__(self, *outcomes: object) -> None:
        self.outcomes = list(outcomes)
        self.submitted = 0

    def options(self, **_options: object) -> _Outcomes:
        return self

    def remote(self, work: object, args: object) -> object:
        self.submitted += 1
        return self.outcomes.pop(0)

    def wait(self, refs: list[object], timeout: float) -> tuple[list[object], list[object]]:
        return refs, []

    def get(self, ref: object) -> object:
        if isinstance(ref, BaseException):
            raise ref
        return ref


class _StubbedPool(RayPool):
    """A ``RayPool`` whose cluster is ``_Outcomes``."""

    def __init__(self, outcomes: _Outcomes) -> None:
        super().__init__("127.0.0.1:1", marked_factory, 1)
        self.stub = outcomes

    def _connect(self) -> tuple[Any, Any]:
        return self.stub, self.stub


def _lost() -> BaseException:
    """What ``ray.get`` raises for a task whose node died."""
    died: BaseException = ray.exceptions.NodeDiedError("the node died")
    return died


def test_a_job_lost_again_and_again_fails_after_its_retries_and_a_job_s_own_error_comes_back_as_it_is() -> None:
    """Three losses then an answer: answered; four losses: ``ClusterError``; a job's ``BotError``: that error."""
    from ofc.rules.errors import BotError
    from ofc.server.decisions import ray_pool
    from ofc.train.cluster import ClusterError

    assert ray_pool.LOST_RETRIES == 3
    crashed = ray.exceptions.RayTaskError("_run_job", "", ray.exceptions.WorkerCrashedError())
    refused = ray.exceptions.RayTaskError("_run_job", "", BotError("unknown bot {spec!r}", spec="bad"))

    async def main(outcomes: _Outcomes) -> object:
        pool = _StubbedPool(outcomes)
        try:
            answer = await asyncio.gather(pool.call("t", str, "x"), return_exceptions=True)
            return answer[0], pool.retried, outcomes.submitted
        finally:
            pool.close()

    assert asyncio.run(main(_Outcomes(_lost(), crashed, _lost(), "answer"))) == ("answer", 3, 4)
    failed, retried, submitted = cast(tuple[object, int, int], asyncio.run(main(_Outcomes(*[_lost()] * 4))))
    assert isinstance(failed, ClusterError)
    assert str(failed) == "cannot reach the Ray cluster 127.0.0.1:1: the node died"
    assert (retried, submitted) == (3, 4)
    own, retried, submitted = cast(tuple[object, int, int], asyncio.run(main(_Outcomes(refused))))
    assert type(own) is BotError
    assert str(own) == "unknown bot 'bad'"
    assert (retried, submitted) == (0, 1)


def test_a_decisions_address_that_is_no_ray_address_is_refused() -> None:
    """By ``RayPool``, by the settings and by ``ofc serve --decisions`` (a usage error, before anything starts)."""
    from ofc.server.decisions.ray_pool import check_address
    from ofc.server.settings import ServerSettings
    from ofc.train.cluster import ClusterError

    for good in ("auto", "local", "ray://head.example:10001", "10.0.0.5:6379"):
        assert check_address(good) == good
        assert ServerSettings(decisions=good).decisions == good
    for bad in ("ray://head", "http://head:80", "head", "ray://a b:1", ""):
        with pytest.raises(ClusterError, match="not a Ray address"):
            check_address(bad)
        with pytest.raises(ValueError, match="String should match pattern"):
            ServerSettings(decisions=bad)
    command = [sys.executable, "-m", "ofc", "serve", "--decisions", "ray://head"]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD, check=False)
    assert refused.returncode == 2
    assert "Invalid value for --decisions: String should match pattern" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_cluster_unreachable_at_start_is_tried_again_until_it_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from ofc.server.decisions import ray_pool
    from ofc.train.cluster import ClusterError

    monkeypatch.setattr(ray_pool, "RECONNECT_SECONDS", 0)
    tries: list[int] = []

    class Unreachable(_StubbedPool):
        def _ready(self) -> None:
            tries.append(len(tries) + 1)
            if len(tries) < 3:
                raise ClusterError("cannot reach the Ray cluster {address}: {error}", address="x:1", error="down")

    async def main() -> None:
        pool = Unreachable(_Outcomes())
        try:
            await asyncio.wait_for(pool.ready(), HANG_GUARD)
        finally:
            pool.close()

    asyncio.run(main())
    assert tries == [1, 2, 3]
