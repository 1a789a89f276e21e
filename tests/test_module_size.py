"""Small modules with one job: no source file of the package over 450 lines (issue 17)."""

from __future__ import annotations

from pathlib import Path

import ofc

LIMIT = 450
PACKAGE = Path(ofc.__file__).resolve().parent


def test_no_source_file_is_over_the_limit() -> None:
    sources = [path for pattern in ("*.py", "*.js") for path in PACKAGE.rglob(pattern)]
    assert len(sources) > 100  # the whole package is looked at, not an empty folder
    sizes = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines()) for path in sources}
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
