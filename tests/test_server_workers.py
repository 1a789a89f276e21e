"""Bots, hints and the solver on the bounded decision pool (issue 13, finding 2)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

from ofc.engine.view import HandView
from ofc.server.decisions import workers
from ofc.server.tables.agents import default_bot_factory
from support.server import HANG_GUARD, ServerProcess, make_app, my_turn


def test_a_bot_allowed_more_than_the_servers_cap_per_decision_is_refused(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_factory=default_bot_factory)) as client:
        for spec in ("mc:seconds=3600", "mc:rollouts=1000000"):  # the second has no time bound at all
            body = {"preset": "pineapple", "seats": 2, "bots": [spec, "random"]}
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == "bad_table"
            assert "at most seconds=5 per decision" in refused.json()["error"]["message"]
        assert client.get("/api/tables").json()["tables"] == []
        accepted = client.post("/api/tables", json={"preset": "pineapple", "seats": 2, "bots": ["mc:seconds=5", None]})
        assert accepted.status_code == 201


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=HANG_GUARD) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.slow
def test_a_hint_is_answered_beside_busy_bot_tables_and_sigterm_stops_the_server(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'ofc.db'}", tmp_path, "--bot-delay", "0") as server:
        deadline = time.monotonic() + HANG_GUARD
        while _get(server.base + "/api/health")[0] != 200:
            assert time.monotonic() < deadline, "the server never became ready"
            time.sleep(0.2)
        assert _get(server.base + "/api/health")[0] == 200
        health = _get(server.base + "/api/health")[1]
        assert health == {"ready": True, "node": f"{socket.gethostname()}:{server.port}", "tables": 0, "owned": []}
        for _ in range(3):  # bot-only tables deciding as slowly as the server allows
            server.post("/api/tables", {"preset": "pineapple", "seats": 3, "bots": ["mc:seconds=5"] * 3})
        table = server.post("/api/tables", {"preset": "pineapple", "seats": 2, "bots": [None, "random"]})
        seat = server.post(f"/api/tables/{table['id']}/join", {"name": "ann"})
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            while not my_turn(message := json.loads(ws.recv(timeout=HANG_GUARD))):
                pass
            ws.send(json.dumps({"type": "hint", "token": seat["token"], "id": "h"}))
            ws.send(json.dumps({"type": "ping", "id": "p"}))  # not held up by the hint being worked out
            answers: list[dict[str, Any]] = []
            while len(answers) < 2:
                reply = json.loads(ws.recv(timeout=HANG_GUARD))
                if reply["type"] != "state":
                    answers.append(reply)
            assert [a["type"] for a in answers] == ["pong", "hint"]
            assert [a["id"] for a in answers] == ["p", "h"]
            assert answers[1]["action"]["seat"] == message["hand"]["seat"]
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        # uvicorn shuts down, then re-raises the signal: the process ends by SIGTERM (a hang guard only:
        # the figure is printed by benchmarks/bench_server.py)
        assert server.process.wait(HANG_GUARD) == -signal.SIGTERM
        assert "Traceback" not in (tmp_path / "server.log").read_text()


class _Sleeper:
    """A stand-in bot that thinks for ``seconds`` (a sleep) and answers with its spec."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view: object) -> str:
        time.sleep(self.seconds)
        return f"slept {self.seconds:g}"


def test_the_decision_cap_counts_from_the_jobs_start_not_from_its_queueing(monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker, cap + grace 1 s: a 0.5 s job queued 0.8 s behind another is answered; a 3 s job is given up."""
    monkeypatch.setattr(workers, "MAX_DECISION_SECONDS", 0.5)
    monkeypatch.setattr(workers, "GRACE_SECONDS", 0.5)

    def factory(spec: str, seed: int | None) -> _Sleeper:
        return _Sleeper(float(spec))

    async def main() -> list[object]:
        pool = workers.DecisionPool(factory, 1, processes=False)  # type: ignore[arg-type]
        view = cast(HandView, None)
        try:
            jobs = [pool.run(table, "act", spec, None, view) for table, spec in (("a", "0.8"), ("b", "0.5"))]
            answered = await asyncio.gather(*jobs, return_exceptions=True)
            late = await asyncio.gather(pool.run("c", "act", "3", None, view), return_exceptions=True)
            return [*answered, *late]
        finally:
            pool.close()

    first, queued, late = asyncio.run(main())
    assert first == ("slept 0.8", None)
    assert queued == ("slept 0.5", None)  # waited 0.8 s for the worker, then ran 0.5 s: within its cap
    assert isinstance(late, TimeoutError)


class _Recorder:
    """A stand-in bot noting the order its jobs ran in; the first job holds the worker until released."""

    def __init__(self, spec: str, ran: list[str], release: threading.Event) -> None:
        self.spec, self.ran, self.release = spec, ran, release

    def act(self, view: object) -> str:
        if self.spec == "first":
            self.release.wait(HANG_GUARD)
        self.ran.append(self.spec)
        return self.spec

    def decide(self, view: object) -> object:
        return type("Decided", (), {"action": self.act(view), "value": None})()


def test_people_s_requests_start_before_bot_tables_but_cannot_starve_them() -> None:
    """One worker busy; bot jobs at tables b..f, then four hints from connections p1..p4.

    Worked by hand with PEOPLE_RUN = 3: people first, three in a row while bots wait, then one
    bot job (round-robin: table b), then the last hint, then the bots in table order.
    """
    assert workers.PEOPLE_RUN == 3
    ran: list[str] = []
    release = threading.Event()

    def factory(spec: str, seed: int | None) -> _Recorder:
        return _Recorder(spec, ran, release)

    async def main() -> None:
        pool = workers.DecisionPool(factory, 1, processes=False)  # type: ignore[arg-type]
        view = cast(HandView, None)
        try:
            jobs = [asyncio.ensure_future(pool.run("a", "act", "first", None, view))]
            await asyncio.sleep(0)
            jobs += [asyncio.ensure_future(pool.run(t, "act", t, None, view)) for t in "bcdef"]
            jobs += [
                asyncio.ensure_future(pool.run(p, "decide", p, None, view, person=True))
                for p in ("p1", "p2", "p3", "p4")
            ]
            await asyncio.sleep(0)
            assert pool.queued() == 9
            release.set()
            await asyncio.wait_for(asyncio.gather(*jobs), HANG_GUARD)
        finally:
            pool.close()

    asyncio.run(main())
    assert ran == ["first", "p1", "p2", "p3", "b", "p4", "c", "d", "e", "f"]


def test_once_ready_the_server_freezes_its_start_up_objects_out_of_the_garbage_collector(tmp_path: Path) -> None:
    """A full collection over what start-up made (~170,000 objects with the kernels loaded) takes
    ~130 ms, a pause of every table; frozen, they are never scanned again."""
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        with TestClient(make_app(tmp_path, freeze_gc=True)) as client:
            deadline = time.monotonic() + HANG_GUARD
            while client.get("/api/health").status_code != 200:
                assert time.monotonic() < deadline, "the server never became ready"
                time.sleep(0.05)
            assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


class _Niceness:
    """A stand-in bot answering with its process's scheduling niceness."""

    def act(self, view: object) -> int:
        return os.nice(0)


def _niceness_factory(spec: str, seed: int | None) -> _Niceness:
    return _Niceness()


def test_worker_processes_run_at_a_lower_priority_than_the_server() -> None:
    """The event loop gets the processor first: a worker's niceness is the server's plus 10 (at most 19)."""

    async def main() -> tuple[object, object]:
        pool = workers.DecisionPool(_niceness_factory, 1)  # type: ignore[arg-type]
        try:
            return await pool.run("t", "act", "nice", None, cast(HandView, None))
        finally:
            pool.close()

    assert asyncio.run(main()) == (min(19, os.nice(0) + workers.WORKER_NICENESS), None)
