"""The test machinery itself: doctests run by default, helpers are not collected, numba caches seed safely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import seed_cache

ROOT = Path(__file__).resolve().parent.parent


def collect(*paths: str) -> subprocess.CompletedProcess[str]:
    """``pytest --collect-only -q`` of ``paths`` from the repository root, with pyproject's options only."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_examples_in_src_ofc_are_collected_as_doctests_by_default() -> None:
    done = collect("src/ofc/rules")
    assert done.returncode == 0, done.stdout + done.stderr
    items = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(items) >= 1
    for item in items:  # a doctest item: the file, then the dotted name of the object documented
        path, name = item.split("::")
        assert path.startswith("src/ofc/rules/")
        assert name.startswith("ofc.rules." + Path(path).stem)


def test_the_helpers_in_tests_support_are_not_collected() -> None:
    done = collect("tests/support")
    assert done.returncode == 5  # pytest's "no tests collected"
    assert "::" not in done.stdout


def _kernel(folder: Path, index: str, data: dict[str, str], mtime: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {index: "index", **data}.items():
        (folder / name).write_text(text)
        os.utime(folder / name, (mtime, mtime))


def test_seed_cache_copies_each_kernel_whole_and_keeps_a_newer_own_index(tmp_path: Path) -> None:
    warm, own = tmp_path / "warm", tmp_path / "gw0"
    _kernel(warm / "fast_1", "a-10.py311.nbi", {"a-10.py311.1.nbc": "warm a1", "a-10.py311.2.nbc": "warm a2"}, 2000)
    _kernel(warm / "fast_1", "b-20.py311.nbi", {"b-20.py311.1.nbc": "warm b1"}, 2000)
    _kernel(warm / "fast_1", "c-30.py311.nbi", {"c-30.py311.1.nbc": "warm c1"}, 2000)
    _kernel(own / "fast_1", "b-20.py311.nbi", {"b-20.py311.1.nbc": "own b1", "b-20.py311.2.nbc": "own b2"}, 3000)
    _kernel(own / "fast_1", "c-30.py311.nbi", {"c-30.py311.1.nbc": "own c1"}, 1000)

    assert seed_cache(warm, own) == 2  # a (missing) and c (older); b is the worker's own, newer
    names = sorted(path.name for path in (own / "fast_1").iterdir())
    assert names == [
        "a-10.py311.1.nbc",
        "a-10.py311.2.nbc",
        "a-10.py311.nbi",
        "b-20.py311.1.nbc",
        "b-20.py311.2.nbc",
        "b-20.py311.nbi",
        "c-30.py311.1.nbc",
        "c-30.py311.nbi",
    ]
    assert (own / "fast_1" / "a-10.py311.2.nbc").read_text() == "warm a2"
    assert (own / "fast_1" / "b-20.py311.1.nbc").read_text() == "own b1"
    assert (own / "fast_1" / "c-30.py311.1.nbc").read_text() == "warm c1"
    assert (own / "fast_1" / "c-30.py311.nbi").stat().st_mtime == 2000
    assert seed_cache(warm, own) == 0  # copies keep their times: a second seeding copies nothing
