"""The examples in examples/ run to the end with small sizes and print what they promise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_pettingzoo_random_loop() -> None:
    lines = run("pettingzoo_random.py", "--hands", "5", "--players", "3")
    assert lines[0] == "5 hands of pineapple, 3 players, random play:"
    assert [line.split(":")[0].strip() for line in lines[1:4]] == ["player_0", "player_1", "player_2"]
    assert lines[4] == "  sum: +0 (zero-sum)"


def test_gymnasium_masked_training_loop() -> None:
    lines = run("gymnasium_masked.py", "--episodes", "20", "--opponents", "random")
    assert len(lines) == 10
    assert lines[0].startswith("episodes 1-2: mean reward ")
    assert lines[-1].startswith("episodes 19-20: mean reward ")


def test_openspiel_ismcts_match() -> None:
    lines = run("spiel_ismcts.py", "--hands", "2", "--simulations", "5")
    assert re.fullmatch(r"hand 1: ISMCTS [+-]\d+", lines[0])
    assert re.fullmatch(r"hand 2: ISMCTS [+-]\d+", lines[1])
    assert re.fullmatch(r"ISMCTS against heuristic: [+-]\d+\.\d\d points per hand over 2 hands", lines[2])
