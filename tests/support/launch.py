"""``ofc serve`` as a child process: start it, wait until its lobby answers, call the lobby.

Used by the load benchmark and the tests that need a real server (restart, browser).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from ofc.rules.errors import OfcError

START_SECONDS = 180.0
"""How long a server may take to answer its first request (a hang guard: generous for loaded machines)."""


class ServerStartError(OfcError):
    """The server process ended or did not answer in time; the message holds its log."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(db_url: str, port: int, home: Path, *options: str) -> subprocess.Popen[bytes]:
    """``ofc serve`` on ``port`` over ``db_url`` (``OFC_HOME`` = ``home``, its log in
    ``home/server.log``), returned once ``/api/tables`` answers; raises ``ServerStartError``."""
    command = [sys.executable, "-m", "ofc", "serve", "--port", str(port), "--db", db_url, *options]
    log_path = home / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log, env=os.environ | {"OFC_HOME": str(home)})
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1):
                return process
        except OSError:
            if process.poll() is not None:
                raise ServerStartError("ofc serve ended at start:\n{log}", log=log_path.read_text()) from None
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise ServerStartError(
        "ofc serve did not answer in {seconds} s:\n{log}",
        seconds=f"{START_SECONDS:.0f}",
        log=log_path.read_text(),
    )


def post_json(base: str, path: str, body: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
    """POST ``body`` as JSON to ``base + path`` and return the JSON answer."""
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data
