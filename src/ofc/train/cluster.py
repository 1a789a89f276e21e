"""Run independent tasks locally (processes) or on a Ray cluster, results in submission order.

``cluster`` is ``None`` for local processes, ``"auto"`` for the Ray cluster this machine
belongs to (started by ``ray start --head``), ``"local"`` for a Ray instance started for this
run on loopback, or ``ray://HOST:PORT`` for a remote cluster's client server. Results come back in the
order of the argument list whatever order tasks finish in, so a run given a seed gives the
same output on any cluster or number of workers. Ray is imported only when asked for (the
``train`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from typing import Any, TypeVar

from ofc.rules.errors import OfcError
from ofc.sim.processes import process_pool

T = TypeVar("T")
Done = Callable[[int, int], None]


class ClusterError(OfcError):
    """Ray is missing or the cluster cannot be reached."""


def check_cluster(cluster: str) -> str:
    """The cluster address, checked for form; raises ``ClusterError``."""
    text = cluster.strip()
    if text in ("auto", "local") or (text.startswith("ray://") and ":" in text[6:]):
        return text
    raise ClusterError("--cluster must be auto, local or ray://HOST:PORT, not {cluster!r}", cluster=cluster)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install -e '.[train]'") from None
    return ray


def connect(cluster: str, cpus: int | None = None) -> Any:
    """``ray`` connected to ``cluster`` (a no-op when already connected)."""
    ray = _ray()
    if not ray.is_initialized():
        address = check_cluster(cluster)
        try:
            if address == "local":
                ray.init(
                    address="local",  # its own head: never a cluster another process left on the machine
                    num_cpus=cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    _node_ip_address="127.0.0.1",
                )
            else:
                ray.init(address=address, log_to_driver=False)
        except ConnectionError as error:
            raise ClusterError(
                "cannot reach the Ray cluster {address}: {error}", address=address, error=error
            ) from None
        except ValueError as error:
            if "ray[client]" not in str(error):
                raise
            raise ClusterError(
                "a ray:// address needs Ray's client: install the cluster extra (pip install -e '.[cluster]')"
            ) from None
    return ray


def run_tasks(
    fn: Callable[..., T],
    arguments: Sequence[tuple[Any, ...]],
    *,
    cluster: str | None = None,
    workers: int = 1,
    done: Done | None = None,
) -> list[T]:
    """``[fn(*a) for a in arguments]``, run in parallel; ``done(finished, total)`` as they end."""
    total = len(arguments)
    results: dict[int, T] = {}
    finished = 0
    if cluster is not None:
        ray = connect(cluster)
        remote = ray.remote(num_cpus=1)(fn)
        pending = {remote.remote(*args): i for i, args in enumerate(arguments)}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                results[pending.pop(ref)] = ray.get(ref)
                finished += 1
                if done is not None:
                    done(finished, total)
    elif workers <= 1:
        for i, args in enumerate(arguments):
            results[i] = fn(*args)
            finished += 1
            if done is not None:
                done(finished, total)
    else:
        with process_pool(workers) as pool:
            futures = {pool.submit(fn, *args): i for i, args in enumerate(arguments)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                finished += 1
                if done is not None:
                    done(finished, total)
    return [results[i] for i in range(total)]
