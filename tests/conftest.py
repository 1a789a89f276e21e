"""Test-session set-up that must happen before any test module imports numba.

Each pytest-xdist worker gets its own numba cache directory. numba's on-disk cache is not
safe when two processes compile and write the same kernels at once (numba issue #4807: the
index and data files of one function can come from different compilations, and loading them
crashes the process). On a fresh checkout both workers compile every kernel at the same time,
so a shared cache crashed a worker now and then; separate caches cannot race. The caches are
kept between runs under ``.numba-cache/`` (ignored by git).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

CACHES = Path(__file__).resolve().parent.parent / ".numba-cache"

collect_ignore = ["support"]  # helper modules imported by the tests (``support.twins`` ...), not tests


def pytest_configure(config: pytest.Config) -> None:
    """Point numba at this process's own cache (runs before test modules, and so numba, are imported)."""
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    os.environ["NUMBA_CACHE_DIR"] = str(CACHES / worker)
    if "numba" in sys.modules:  # too late to take effect: fail loudly rather than race silently
        raise pytest.UsageError("numba was imported before tests/conftest.py could set NUMBA_CACHE_DIR")
