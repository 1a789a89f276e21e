"""PostgreSQL really stopped (``pg_ctl stop -m immediate``) with the server killed by SIGKILL meanwhile.

Issue 13's fault tests: the relay of tests/test_server_faults.py plays a PostgreSQL gone away;
here a private cluster of the test's own crashes for real, while the table's writes retry,
and the server is killed with ``kill -9`` before the database comes back. After both come
back, every acknowledged action is stored and the match plays to its end.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from websockets.sync.client import connect

from support.pg_support import PrivateCluster
from support.server import ServerProcess, my_turn, random_move
from test_server_faults import _kept, _play, _recv


@pytest.mark.slow
def test_postgresql_crashed_and_a_kill_9_lose_no_acknowledged_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OFC_DB_TIMEOUT", "0.5")  # the server's waits on the database: short, so writes fail and retry
    rng = random.Random(13)
    acks: list[tuple[int, dict[str, Any]]] = []
    with (
        PrivateCluster() as cluster,
        ServerProcess(cluster.url, tmp_path, "--pause", "0", "--bot-delay", "0") as server,
    ):
        url = cluster.url
        table = server.post("/api/tables", {"preset": "pineapple", "seats": 3, "bots": [None, "random", "random"]})
        seat = server.post(f"/api/tables/{table['id']}/join", {"name": "ann"})
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 3)
            while not my_turn(state := _recv(ws)):
                pass
            cluster.crash()
            ws.send(json.dumps(random_move(state, rng) | {"token": seat["token"]}))  # its write fails, retrying
            time.sleep(0.5)  # let writes fail and retry while the database is down (not a timing assertion)
            server.kill()
        assert "retrying" in (tmp_path / "server.log").read_text()  # the writes did meet the crash
        cluster.start()  # crash recovery: what was committed is there
        _kept(url, table["id"], acks)
        server.start()
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 10_000)  # to the end of the match
        listed = {t["id"]: t["status"] for t in json.loads(urlopen(server.base + "/api/tables").read())["tables"]}
        assert listed[table["id"]] == "finished"
        _kept(url, table["id"], acks)
