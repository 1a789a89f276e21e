"""What a player's install holds: the play dependencies only; the rest are extras their commands name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def names(requirements: list[str]) -> set[str]:
    """The distribution names of pinned requirements (``name[extra]==version``)."""
    return {re.split(r"[\[=<>~ ]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


def test_a_players_install_holds_no_test_research_or_training_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    play = names(project["dependencies"])
    heavy = {"pytest", "hypothesis", "playwright", "ray", "scikit-learn", "gymnasium", "pettingzoo", "open-spiel"}
    assert play & heavy == set()
    assert {"numpy", "numba", "fastapi", "uvicorn", "sqlalchemy", "typer", "rich"} <= play
    extras = project["optional-dependencies"]
    assert {"pytest", "hypothesis", "playwright"} <= names(extras["dev"])
    assert names(extras["env"]) == {"gymnasium", "pettingzoo", "open-spiel"}
    assert {"ray", "scikit-learn"} <= names(extras["train"])


def test_every_pin_is_exact() -> None:
    """Every dependency is pinned to one version (a player's install is the tested one)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    assert [r for r in pins if "==" not in r] == []


def test_the_play_setup_installs_the_project_alone_and_the_test_setup_adds_the_extras() -> None:
    setup = (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    assert 'target="."' in setup
    assert 'target=".[dev,env,train,cluster]"' in setup
    assert "bash scripts/setup\n" in (ROOT / "scripts" / "main").read_text(encoding="utf-8")
    assert "scripts/setup --dev" in (ROOT / "scripts" / "test").read_text(encoding="utf-8")
