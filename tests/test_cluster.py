"""Ray: simulations and training on a local head give exactly the local results of the same seed.

The Ray session runs in a process of its own (``tests/support/ray_checks.py``, a two-CPU head on
loopback), so Ray's workers and threads never share a process or a numba cache with the
other tests; the timeout is a hang guard only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ofc.cli.app import main
from ofc.train.cluster import ClusterError, check_cluster

pytest.importorskip("ray")
CHECKS = Path(__file__).parent / "support" / "ray_checks.py"


@pytest.fixture(scope="module")
def ray_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The JSON document printed by ``tests/support/ray_checks.py``."""
    cache = tmp_path_factory.mktemp("numba-cache")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, str(CHECKS)], capture_output=True, text=True, env=env, timeout=1800, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_run_tasks_keeps_the_argument_order(ray_results: dict[str, Any]) -> None:
    assert ray_results["ordered"] == ray_results["expected_order"]
    assert ray_results["done"][-1] == [7, 7]
    assert [d for d, _ in ray_results["done"]] == list(range(1, 8))


def test_cluster_simulation_equals_the_local_run(ray_results: dict[str, Any]) -> None:
    local, remote = ray_results["sim"]["local"], ray_results["sim"]["ray"]
    assert local[1] == remote[1] == 4  # 8 deals at a 2-seat table: 4 blocks
    assert remote == local


def test_cluster_training_equals_the_local_run(ray_results: dict[str, Any]) -> None:
    assert ray_results["train"]["ray"] == ray_results["train"]["local"]


@pytest.mark.parametrize("address", ["", "ray:/x", "http://1.2.3.4:10001", "ray://"])
def test_a_malformed_cluster_address_is_refused(address: str) -> None:
    with pytest.raises(ClusterError, match="--cluster must be auto, local or ray://HOST:PORT"):
        check_cluster(address)


def test_cli_names_a_bad_cluster_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--bots", "heuristic,random", "--hands", "2", "--cluster", "nowhere"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "nowhere" in err[0]
