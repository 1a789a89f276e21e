"""House rules for the kernels: numba lives only in ``ofc.fast``, and its code is cached."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

from ofc.fast import boards, evaluate, fantasy

SRC = Path(__file__).resolve().parents[1] / "src" / "ofc"
IMPORTS_NUMBA = re.compile(r"^\s*(import numba|from numba)\b", re.MULTILINE)


def test_numba_is_imported_only_under_fast() -> None:
    outside = [
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if path.parent.name != "fast" and IMPORTS_NUMBA.search(path.read_text(encoding="utf-8"))
    ]
    assert outside == []


@pytest.mark.parametrize("module", [evaluate, boards, fantasy])
def test_every_kernel_is_cached_on_disk(module: object) -> None:
    kernels = [value for value in vars(module).values() if isinstance(value, CPUDispatcher)]
    assert kernels
    # numba's public ``stats.cache_path`` is None for a kernel without cache=True (its NullCache)
    assert [k.py_func.__name__ for k in kernels if k.stats.cache_path is None] == []
