"""Node.js for the browser client's modules: a harness script run on them, its JSON answer read."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest


def node_json(harness: str, *arguments: str, stdin: str | None = None) -> Any:
    """Run ES module code ``harness`` under Node with ``arguments`` (``process.argv[1:]``) and
    ``stdin``; what it prints, read as JSON. Fails the test when Node is missing or the script fails."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: apt-get install nodejs")
    done = subprocess.run(
        [node, "--input-type=module", "-e", harness, *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)
