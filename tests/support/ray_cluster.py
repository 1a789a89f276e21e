"""A Ray cluster of a test's own, started with the ``ray`` command on free ports.

The head runs Ray's client server (``ray://127.0.0.1:PORT``); more nodes join it with
``ray start --address``. Everything lives under a private temporary directory (short: Ray's
socket paths must stay under 108 bytes), every address is explicit, so a cluster left on the
machine is never joined. Each node runs in a session of its own, so killing a node (or the
cluster at the end) signals exactly its processes; its processes see the node's name in
``OFC_RAY_TEST_NODE``. Nodes find a lost peer within a second or two.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from support.launch import free_port
from support.server import HANG_GUARD

RAY = Path(sys.executable).parent / "ray"


def _session_processes(session: int) -> dict[int, str]:
    """The processes of ``session``: pid to command line (arguments joined by spaces)."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session:  # the fields after the name: state, ppid, pgrp, session
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    return found


class RayCluster:
    """A head with one CPU and a client server; ``add_node`` joins more; ``stop`` kills them all."""

    def __init__(self, numba_cache: Path | None = None) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="ofc-ray-", dir="/tmp"))
        self.port = free_port()
        self.client_port = free_port()
        self.sessions: dict[str, int] = {}
        self.env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"} | {
            "RAY_TMPDIR": str(self.home),
            "RAY_AUTH_MODE": "disabled",
            "RAY_USAGE_STATS_ENABLED": "0",
            # a killed node is found dead within a second or two, not Ray's default quarter of a minute
            "RAY_health_check_period_ms": "500",
            "RAY_health_check_timeout_ms": "500",
            "RAY_health_check_failure_threshold": "2",
            # the client server's process for a connection may start slowly on a loaded machine;
            # one that failed to start costs this long before the client gives up (and may try again)
            "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "60",
            # the client server forks that process while its gRPC threads run: gRPC's fork handlers
            # then broke the child now and then (it execs at once and needs none)
            "GRPC_ENABLE_FORK_SUPPORT": "false",
        }
        if numba_cache is not None:
            self.env["NUMBA_CACHE_DIR"] = str(numba_cache)

    @property
    def address(self) -> str:
        """The head's GCS address (a driver on this machine; ``--cluster auto`` with ``RAY_ADDRESS``)."""
        return f"127.0.0.1:{self.port}"

    @property
    def client_address(self) -> str:
        """The head's Ray client server."""
        return f"ray://127.0.0.1:{self.client_port}"

    def driver_env(self) -> dict[str, str]:
        """The environment of a driver process: this cluster's directory and ``RAY_ADDRESS``."""
        return self.env | {"RAY_ADDRESS": self.address}

    def start(self) -> RayCluster:
        """The head node, its client server listening."""
        self.add_node(
            "head",
            "--head",
            f"--port={self.port}",
            f"--ray-client-server-port={self.client_port}",
            f"--dashboard-port={free_port()}",
            "--include-dashboard=false",
            "--num-cpus=1",
            f"--temp-dir={self.home}",
        )
        return self

    def add_node(self, name: str, *options: str) -> None:
        """``ray start`` node ``name`` in a session of its own (a worker node: ``--address`` in ``options``)."""
        command = [str(RAY), "start", "--disable-usage-stats", f"--dashboard-agent-listen-port={free_port()}", *options]
        env = self.env | {"OFC_RAY_TEST_NODE": name}
        starting = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        self.sessions[name] = starting.pid  # the node's processes stay in this session (ray start returns)
        output, _ = starting.communicate(timeout=HANG_GUARD)
        assert starting.returncode == 0, output[-2000:]

    def join(self, name: str) -> None:
        """A worker node ``name`` with one CPU."""
        self.add_node(name, f"--address={self.address}", "--num-cpus=1")

    def processes(self, name: str) -> dict[int, str]:
        """Node ``name``'s live processes: pid to command line."""
        return _session_processes(self.sessions[name])

    def running(self, name: str, task: str) -> bool:
        """Whether a worker of node ``name`` is running a task of function ``task`` now."""
        return any(line.startswith(f"ray::{task}") for line in self.processes(name).values())

    def kill_raylet(self, name: str) -> int:
        """SIGKILL node ``name``'s raylet (its workers then end by themselves); its pid."""
        (pid,) = [pid for pid, line in self.processes(name).items() if "/raylet/raylet " in line]
        os.kill(pid, signal.SIGKILL)
        return pid

    def kill_node(self, name: str) -> None:
        """SIGKILL every process of node ``name``."""
        session = self.sessions.pop(name)
        for pid in _session_processes(session):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        """Every node killed, the directory removed."""
        for name in list(self.sessions):
            self.kill_node(name)
        shutil.rmtree(self.home, ignore_errors=True)
