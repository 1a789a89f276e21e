"""``ofc simulate --cluster``: through Ray's client (``ray://``), and ``--json`` alone on stdout when a node dies.

The module starts a Ray cluster of its own (``tests/support/ray_cluster.py``: a head with one CPU
and its client server, on free ports, in a private directory) and runs ``ofc simulate`` as real
processes. Their numba cache is a copy of this worker's, and the local reference runs go first,
so Ray's workers only load kernels. Timeouts are hang guards only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.ray_cluster import RayCluster
from support.server import HANG_GUARD

CLOCKED = ("decision_seconds", "decision_max_seconds")
"""The figures of a run measured by the wall clock: all the others follow from the seed."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayCluster]:
    """The module's head node, with its client server; stopped (every node killed) at the end."""
    cache = tmp_path_factory.mktemp("numba-cache")
    mine = Path(os.environ.get("NUMBA_CACHE_DIR", cache))
    if mine.is_dir() and mine != cache:
        shutil.copytree(mine, cache, dirs_exist_ok=True)
    here = RayCluster(cache)
    try:
        yield here.start()
    finally:
        here.stop()


def simulate(env: dict[str, str], *options: str, tries: int = 1) -> subprocess.CompletedProcess[str]:
    """``ofc simulate --bots heuristic,random --json`` with ``options``, to the end.

    With ``tries`` > 1 a run that has not ended after its share of the hang guard is killed and
    made again (Ray's client has been seen never to finish connecting on a loaded machine)."""
    command = [sys.executable, "-m", "ofc", "simulate", "--bots", "heuristic,random", "--json", *options]
    for attempt in range(1, tries + 1):
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=HANG_GUARD / tries, check=False
            )
            break
        except subprocess.TimeoutExpired:
            if attempt == tries:
                raise
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def seeded(document: dict[str, Any]) -> dict[str, Any]:
    """A ``--json`` document without its wall-clock figures."""
    bots = [{key: value for key, value in bot.items() if key not in CLOCKED} for bot in document["bots"]]
    return {"hands": document["hands"], "bots": bots}


@pytest.mark.slow
def test_simulate_through_the_ray_client_equals_the_local_run(cluster: RayCluster) -> None:
    local = simulate(cluster.env, "--hands", "40", "--seed", "7", "--workers", "1")
    remote = simulate(cluster.env, "--hands", "40", "--seed", "7", "--cluster", cluster.client_address, tries=2)
    assert remote.stdout.count("\n") == local.stdout.count("\n") == 1
    figures = seeded(json.loads(remote.stdout))
    assert figures == seeded(json.loads(local.stdout))
    assert figures["hands"] == 40
    assert [bot["name"] for bot in figures["bots"]] == ["heuristic", "random"]
    assert figures["bots"][0]["points_per_hand"] == -figures["bots"][1]["points_per_hand"] != 0


@pytest.mark.slow
def test_json_is_alone_on_stdout_when_a_node_dies_mid_run(cluster: RayCluster, tmp_path: Path) -> None:
    """A second node joins; once one of its workers plays a block, its raylet is killed (SIGKILL).

    Ray runs the lost block again on the head, so the figures are the local run's; the lines
    Ray prints about the lost node go to stderr, and stdout holds the JSON document alone."""
    options = ("--hands", "600", "--seed", "7")
    local = simulate(cluster.env, *options, "--workers", "1")
    cluster.join("victim")
    try:
        out, err = tmp_path / "stdout", tmp_path / "stderr"
        command = [sys.executable, "-m", "ofc", "simulate", "--bots", "heuristic,random", "--json", *options]
        with out.open("w") as stdout, err.open("w") as stderr:
            run = subprocess.Popen(
                [*command, "--cluster", "auto"], env=cluster.driver_env(), stdout=stdout, stderr=stderr, text=True
            )
            try:
                while not cluster.running("victim", "play_block") and run.poll() is None:
                    time.sleep(0.05)  # until the victim node's first block: the run has hundreds left
                assert run.poll() is None, err.read_text()[-3000:]
                cluster.kill_raylet("victim")
                assert run.wait(HANG_GUARD) == 0, err.read_text()[-3000:]
            finally:
                if run.poll() is None:
                    run.kill()
                    run.wait()
        printed = out.read_text()
        assert printed.count("\n") == 1
        assert seeded(json.loads(printed)) == seeded(json.loads(local.stdout))
        assert json.loads(printed)["hands"] == 611  # 300 blocks; fantasies add hands
    finally:
        cluster.kill_node("victim")


SHOWN = """
import os
from ray._private.worker import print_to_stdstream
from ofc.cli.simulate_cmd import stdout_to_stderr


def lost(text):
    print_to_stdstream({"lines": [text], "pid": "raylet", "is_err": False}, ignore_prefix=False)

lost("outside")
with stdout_to_stderr():
    lost("inside")
    os.write(1, b"descriptor\\n")
    print("python")
print("after")
"""
"""Ray's own printer of a lost node's lines (the one that wrote them to stdout), outside and inside."""


def test_ray_s_lines_about_a_lost_node_go_to_stderr_inside_the_redirection() -> None:
    """Outside ``stdout_to_stderr`` Ray's printer writes on stdout (the negative control); inside,
    it, a write to file descriptor 1 and ``print`` all reach stderr; after it stdout is back."""
    done = subprocess.run(
        [sys.executable, "-c", SHOWN], capture_output=True, text=True, timeout=HANG_GUARD, check=False
    )
    assert done.returncode == 0, done.stderr
    prefix = "\x1b[33m(raylet)\x1b[0m "
    assert done.stdout == f"{prefix}outside\nafter\n"
    assert done.stderr == f"{prefix}inside\ndescriptor\npython\n"
