"""What ``ofc`` loads before it prints anything: no kernels, database, server or pydantic for help.

How fast the commands start is measured by ``benchmarks/bench_cli.py`` (timing is no test's
business); these tests keep the reason it is fast: the modules a command loads. Each command
runs in a fresh interpreter that lists ``sys.modules`` once the command has finished.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

LIST_MODULES = """
import sys
from ofc.cli.app import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
"""

HEAVY = (
    "numba",
    "numpy",
    "sqlalchemy",
    "fastapi",
    "uvicorn",
    "pydantic",
    "ofc.server",
    "ofc.fast",
    "ofc.bots.",
    "ofc.solver.",
)
"""Packages no help text and no rules table needs (pydantic came with typer 0.29's coercion). The faces of
``ofc.bots`` and ``ofc.solver`` are light (their defaults, names loaded on first use); their modules are not."""


def loaded(*args: str) -> set[str]:
    """The modules loaded by ``ofc ARGS`` (its output is dropped)."""
    done = subprocess.run(
        [sys.executable, "-c", LIST_MODULES, *args],
        capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL, timeout=600,
    )  # fmt: skip
    return set(done.stderr.split())


def heavy(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if name.split(".")[0] in HEAVY or name.startswith(HEAVY))


@pytest.mark.parametrize(
    "args",
    [["--help"], ["score", "--help"], ["rules"], ["rules", "pineapple", "--json"], ["solve", "fantasy", "--help"]],
)
def test_help_and_rules_load_no_kernels_database_or_server(args: list[str]) -> None:
    assert heavy(loaded(*args)) == []


def test_score_help_loads_neither_the_scoring_nor_rich_nor_babel() -> None:
    modules = loaded("score", "--help")
    assert {"ofc.cli.score_cmd", "typer"} <= modules
    assert (
        sorted(m for m in modules if m.startswith(("ofc.rules.scoring", "ofc.rules.rulebook", "rich", "babel"))) == []
    )


def test_english_output_reads_no_catalog() -> None:
    """English is the message ids themselves: Babel's catalog reader stays unloaded."""
    modules = loaded("rules", "--lang", "en")
    assert "babel.messages" not in modules
    assert "babel.messages" in loaded("rules", "--lang", "uk")


def test_a_command_loads_what_it_needs(tmp_path: Path) -> None:
    """The checks above are not vacuous: ``ofc analyze`` loads the kernels when it runs (here it
    then fails on a missing file, before any kernel is compiled)."""
    assert {"numba", "numpy", "ofc.bots.analysis"} <= loaded("analyze", str(tmp_path / "missing.json"))
