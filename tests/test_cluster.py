"""Ray: simulations and training on a local head give exactly the local results of the same seed.

The Ray session runs in a process of its own (``tests/support/ray_checks.py``, a two-CPU head on
loopback), so Ray's workers and threads never share a process or a numba cache with the
other tests; the timeout is a hang guard only. The head is always a new one of the test's own
(``ray.init(address="local")``): Ray's current-cluster file, planted stale here, is never joined.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ofc.cli.app import main
from ofc.train.cluster import ClusterError, check_cluster, connect

pytest.importorskip("ray")
CHECKS = Path(__file__).parent / "support" / "ray_checks.py"


STALE = "127.0.0.1:9"
"""The address a stale current-cluster file names: nothing listens there (the discard port)."""


@pytest.fixture(scope="module")
def ray_tmpdir() -> Iterator[Path]:
    """A private ``RAY_TMPDIR`` whose current-cluster file names a dead cluster (as a crashed
    ``ray start`` leaves it). Short, under /tmp: Ray's socket paths must stay under 108 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="ofc-stale-ray-", dir="/tmp"))
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text(STALE + "\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def ray_env(ray_tmpdir: Path, cache: Path) -> dict[str, str]:
    """The environment of a Ray process: the stale ``RAY_TMPDIR``, no ``RAY_ADDRESS``, its own numba cache."""
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    return env | {"RAY_TMPDIR": str(ray_tmpdir), "NUMBA_CACHE_DIR": str(cache)}


@pytest.fixture(scope="module")
def ray_results(tmp_path_factory: pytest.TempPathFactory, ray_tmpdir: Path) -> dict[str, Any]:
    """The JSON document printed by ``tests/support/ray_checks.py``, run beside the stale cluster file.

    Its numba cache starts as a copy of this worker's (warmed by scripts/test), so Ray's two
    workers only load kernels; the checks' local runs compile anything missing first, alone."""
    cache = tmp_path_factory.mktemp("numba-cache")
    mine = Path(os.environ.get("NUMBA_CACHE_DIR", cache))
    if mine.is_dir() and mine != cache:
        shutil.copytree(mine, cache, dirs_exist_ok=True)
    done = subprocess.run(
        [sys.executable, str(CHECKS)],
        capture_output=True,
        text=True,
        env=ray_env(ray_tmpdir, cache),
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_the_checks_start_their_own_head_beside_a_stale_cluster_file(
    ray_results: dict[str, Any], ray_tmpdir: Path
) -> None:
    _host, port = ray_results["gcs_address"].rsplit(":", 1)
    assert port != STALE.rsplit(":", 1)[1]  # Ray names the host by this machine's address, either way
    assert (ray_tmpdir / "ray" / "ray_current_cluster").read_text() == STALE + "\n"


def test_a_plain_ray_init_would_join_the_stale_cluster(ray_tmpdir: Path, tmp_path: Path) -> None:
    """Negative control: Ray reads the planted file, so ``ray.init()`` without ``address="local"``
    takes it for a running cluster (and refuses a CPU count for it)."""
    code = "import ray; ray.init(num_cpus=1, include_dashboard=False)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=ray_env(ray_tmpdir, tmp_path),
        timeout=600,
        check=False,
    )
    assert done.returncode == 1
    assert "ValueError: When connecting to an existing cluster, num_cpus and num_gpus must not be provided" in (
        done.stderr
    )


@pytest.mark.slow
def test_run_tasks_keeps_the_argument_order(ray_results: dict[str, Any]) -> None:
    assert ray_results["ordered"] == ray_results["expected_order"]
    assert ray_results["done"][-1] == [7, 7]
    assert [d for d, _ in ray_results["done"]] == list(range(1, 8))


@pytest.mark.slow
def test_cluster_simulation_equals_the_local_run(ray_results: dict[str, Any]) -> None:
    local, remote = ray_results["sim"]["local"], ray_results["sim"]["ray"]
    assert local[1] == remote[1] == 4  # 8 deals at a 2-seat table: 4 blocks
    assert remote == local


@pytest.mark.slow
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


class _RayWithoutClient:
    """A stand-in for ``ray`` installed without its client, as ``ray.init`` then refuses a ray:// address."""

    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def init(**_options: object) -> None:
        raise ValueError("Ray Client requires pip package `ray[client]`. If you installed the minimal Ray ...")


def test_a_ray_address_without_the_client_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ofc.train.cluster._ray", lambda: _RayWithoutClient)
    with pytest.raises(ClusterError, match=r"a ray:// address needs Ray's client: install the cluster extra"):
        connect("ray://127.0.0.1:10001")
