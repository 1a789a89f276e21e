"""Run by tests/test_cluster.py in a process of its own: Ray runs against local runs, as JSON.

Ray starts worker processes and threads of its own; keeping them out of the pytest worker
(and its numba cache, see tests/conftest.py) means nothing Ray leaves behind can touch other
tests. Local runs go first, so the kernels are compiled and cached by this process before the
two Ray workers load them (numba's cache is not safe for concurrent writers).
"""

from __future__ import annotations

import json
from typing import Any

import ray

from ofc.engine.deals import derive_seed
from ofc.rules.rulebook import Rules
from ofc.sim.simulate import simulate
from ofc.train.cluster import run_tasks
from ofc.train.run import train


def figures(result: Any) -> list[list[object]]:
    """Every figure of a run but the decision times (wall clock)."""
    return [
        [b.name, b.points_per_hand, b.ci95, b.foul_rate, b.fantasy_rate, b.stay_rate, b.hands, b.fantasy_hands]
        for b in result.bots
    ]


def main() -> None:
    """Print one JSON document: each check's local and Ray results."""
    rules = Rules.preset("pineapple")
    local_sim = simulate(rules, ["heuristic", "random"], 8, seed=11, workers=1)
    options: dict[str, Any] = {"hands": 300, "rounds": 1, "seed": 5}
    local_train = train(["turbo"], workers=1, **options)
    # address="local": always a new head of our own, never a cluster named by RAY_ADDRESS or by
    # Ray's current-cluster file (a stale one makes a plain ray.init() fail or hang).
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        seen: list[list[int]] = []
        ordered = run_tasks(derive_seed, [(3, n) for n in range(7)], cluster="auto",
                            done=lambda d, t: seen.append([d, t]))  # fmt: skip
        remote_sim = simulate(rules, ["heuristic", "random"], 8, seed=11, cluster="auto")
        remote_train = train(["turbo"], cluster="auto", **options)
        gcs = ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
    print(
        json.dumps(
            {
                "ordered": ordered,
                "expected_order": [derive_seed(3, n) for n in range(7)],
                "done": seen,
                "gcs_address": gcs,
                "sim": {
                    "local": [local_sim.deals, local_sim.blocks, figures(local_sim)],
                    "ray": [remote_sim.deals, remote_sim.blocks, figures(remote_sim)],
                },
                "train": {
                    "local": local_train.for_variant("turbo").tolist(),
                    "ray": remote_train.for_variant("turbo").tolist(),
                },
            }
        )
    )


if __name__ == "__main__":
    main()
