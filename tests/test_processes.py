"""Workers of ``ofc.sim.processes.process_pool`` end when the process that started them is killed outright.

Before, a server killed with ``kill -9`` left its decision workers waiting for ever (each with
its kernels in memory): a test run left about thirty of them behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HANG_GUARD = 120.0
"""Seconds to wait for the workers to go (a hang guard: they check their parent twice a second)."""

PARENT = """
import asyncio, json, multiprocessing, os, signal, sys, time
from ofc.sim.processes import process_pool

if __name__ == "__main__":
    if sys.argv[1] == "early":  # killed before its workers have started
        pool = process_pool(2)
        pool.submit(time.sleep, 0)
        print(json.dumps([child.pid for child in multiprocessing.active_children()]), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    if sys.argv[1] == "pool":
        pool = process_pool(2)
        list(pool.map(time.sleep, [0.2, 0.2, 0.2, 0.2]))
    else:
        from ofc.server.decisions.workers import DecisionPool

        decisions = DecisionPool(lambda spec, seed: None, 2, processes=True)
        asyncio.run(decisions.call("table", time.sleep, 0.2))
    print(json.dumps([child.pid for child in multiprocessing.active_children()]), flush=True)
    time.sleep(3600)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not; Linux's ``/proc``, as CI)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.parametrize("kind", ["pool", "decisions", "early"])
def test_workers_exit_once_their_parent_is_killed(tmp_path: Path, kind: str) -> None:
    """Killed once its workers run jobs, or (``early``) while they are still starting."""
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen([sys.executable, str(script), kind], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        workers = json.loads(parent.stdout.readline())
        assert workers, "the pool started no worker"
        if kind != "early":  # the early parent kills itself at once: its workers may start after
            assert all(alive(pid) for pid in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + HANG_GUARD
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # do not leave them behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == []
