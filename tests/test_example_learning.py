"""examples/learn_gymnasium.py learns: at its small size the trained agent beats masked random play
on held-out seeds by far more than the noise, and its reading of the observation is the engine's."""

from __future__ import annotations

import importlib.util
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType

import numpy as np

from ofc.env import SeatEnv
from ofc.env.encoding import decode

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "learn_gymnasium.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learn_gymnasium", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["learn_gymnasium"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_small_run_beats_random_by_more_than_four_standard_errors(tmp_path: Path) -> None:
    curve = tmp_path / "curve.png"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--size", "small", "--png", str(curve)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "pineapple heads-up against heuristic, seat 0, seed 1, size small"
    # masked random play on the 200 held-out seeds: integer points and a seeded generator, so exact
    assert lines[1] == "masked random policy, 200 held-out hands: -6.120 points per hand"
    assert [line.split(":")[0] for line in lines[2:6]] == ["round 1", "round 2", "round 3", "round 4"]
    found = re.fullmatch(
        r"margin: ([+-]\d+\.\d+) points per hand over 200 held-out hands, standard error (\d+\.\d+), .*",
        lines[8],
    )
    assert found is not None, lines[8]
    margin, error = float(found[1]), float(found[2])
    assert error > 0
    assert margin > 4 * error
    assert lines[9] == f"learning curve: {curve}"
    png = curve.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (640, 400)
    assert zlib.crc32(png[12:29]) & 0xFFFFFFFF == struct.unpack(">I", png[29:33])[0]


def test_after_states_read_from_the_observation_are_the_engines() -> None:
    example = load_example()
    env = SeatEnv("pineapple", "random", seat=0, illegal="raise")
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(4):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            ranks, suits = example.after_states(observation["observation"], legal)
            view = env.table.view(0)
            for index, number in enumerate(legal):
                rows = [list(cards) for cards in view.mine.rows]
                for card, row in decode(view, int(number)).placements:
                    rows[row].append(card)
                expected_ranks = np.zeros((3, 13))
                expected_suits = np.zeros((3, 4))
                for place, cards in enumerate(rows):
                    for card in cards:
                        expected_ranks[place, card // 4] += 1
                        expected_suits[place, card % 4] += 1
                assert (ranks[index] == expected_ranks).all()
                assert (suits[index] == expected_suits).all()
                checked += 1
            assert example.features(observation["observation"], legal).shape == (len(legal), example.FEATURES)
            observation, _, done, _, _ = env.step(int(rng.choice(legal)))
    assert checked == 1153  # every legal number of 4 hands: 232 first-deal numbers each, then the streets
