"""Ray: simulations and training on a local head give exactly the local results of the same seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ofc.cli.app import main
from ofc.rules import Rules
from ofc.sim import derive_seed, simulate
from ofc.train.cluster import ClusterError, check_cluster, run_tasks
from ofc.train.run import train

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A Ray head with two worker CPUs on this machine (loopback only), for this module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        yield
    finally:
        ray.shutdown()


def _figures(result: Any) -> list[tuple[object, ...]]:
    """Every figure of a run but the decision times (wall clock)."""
    return [
        (b.name, b.points_per_hand, b.ci95, b.foul_rate, b.fantasy_rate, b.stay_rate, b.hands, b.fantasy_hands)
        for b in result.bots
    ]


def test_run_tasks_keeps_the_argument_order(local_ray: None) -> None:
    seen: list[tuple[int, int]] = []
    args = [(3, n) for n in range(7)]
    out = run_tasks(derive_seed, args, cluster="auto", done=lambda d, t: seen.append((d, t)))
    assert out == [derive_seed(3, n) for n in range(7)]
    assert seen[-1] == (7, 7)


def test_cluster_simulation_equals_the_local_run(local_ray: None) -> None:
    rules = Rules.preset("pineapple")
    local = simulate(rules, ["heuristic", "random"], 8, seed=11, workers=1)
    remote = simulate(rules, ["heuristic", "random"], 8, seed=11, cluster="auto")
    assert remote.deals == local.deals
    assert remote.blocks == local.blocks == 4
    assert _figures(remote) == _figures(local)


def test_cluster_training_equals_the_local_run(local_ray: None) -> None:
    options: dict[str, Any] = {"hands": 300, "rounds": 1, "seed": 5}
    local = train(["turbo"], workers=1, **options)
    remote = train(["turbo"], cluster="auto", **options)
    assert np.array_equal(local.for_variant("turbo"), remote.for_variant("turbo"))


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
