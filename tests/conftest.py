"""Test-session set-up that must happen before any test module imports numba.

Each pytest-xdist worker gets its own numba cache directory. numba's on-disk cache is not
safe when two processes compile and write the same kernels at once (numba issue #4807: the
index and data files of one function can come from different compilations, and loading them
crashes the process), so no two processes ever write the same cache. ``scripts/test`` first
compiles the kernels once, alone, into ``.numba-cache/warm`` (``tests/support/warm.py``); each
process then starts from a copy of that cache, so the workers load kernels instead of each
compiling them again, and anything the warm-up missed is compiled into that worker's copy
only. The caches are kept between runs under ``.numba-cache/`` (ignored by git).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

CACHES = Path(__file__).resolve().parent.parent / ".numba-cache"
WARM = CACHES / "warm"
"""The cache ``tests/support/warm.py`` fills before the workers start (read here, never written)."""

# Modules imported by the tests (``support.twins``, ``golden.decisions`` ...), not tests: not
# collected, not even for doctests (``--doctest-modules``).
collect_ignore = ["support", "golden"]


def seed_cache(warm: Path, own: Path) -> int:
    """Copy each kernel's cache from ``warm`` into ``own`` unless ``own`` holds a newer one; the count copied.

    A kernel's index (``.nbi``) and its data files (``.nbc``) are copied together, so an index
    never names data files of another compilation; a worker's own newer index (a kernel it
    compiled for one more signature) is kept. numba itself ignores an index whose source file
    has changed since it was written."""
    copied = 0
    for index in warm.rglob("*.nbi"):
        target = own / index.relative_to(warm)
        if target.exists() and target.stat().st_mtime >= index.stat().st_mtime:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        for data in index.parent.glob(index.stem + ".*.nbc"):
            shutil.copy2(data, target.parent / data.name)
        shutil.copy2(index, target)  # last: the index names data files already in place
        copied += 1
    return copied


def pytest_configure(config: pytest.Config) -> None:
    """Point numba at this process's own cache (runs before test modules, and so numba, are imported)."""
    if "numba" in sys.modules:  # too late to take effect: fail loudly rather than race silently
        raise pytest.UsageError("numba was imported before tests/conftest.py could set NUMBA_CACHE_DIR")
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    own = CACHES / worker
    controller = worker == "main" and bool(getattr(config.option, "numprocesses", None))
    if WARM.is_dir() and not controller:  # the xdist controller runs no tests
        seed_cache(WARM, own)
    os.environ["NUMBA_CACHE_DIR"] = str(own)
