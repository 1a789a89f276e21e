"""Golden bot decisions: seeded bots on seeded hands must decide exactly as pinned.

The files were written by ``tests/golden/decisions.py`` (regenerate on purpose with
``.venv/bin/python -m tests.golden.decisions``). They pin every kernel a bot runs (the static
evaluation, greedy placement, the Monte Carlo and ``pro`` play-outs, the learned value, the
exact last street, the fantasy solver) and self-play's records, to the last bit of each value.
"""

from __future__ import annotations

import json

import pytest

from golden.decisions import CASES, SELFPLAY_PATH, Case, lines, path, selfplay_digests


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_decisions_match_golden_file(case: Case) -> None:
    pinned = path(case).read_text(encoding="utf-8").splitlines()
    fresh = lines(case)
    for number, (want, got) in enumerate(zip(pinned, fresh, strict=False), 1):
        assert json.loads(got) == json.loads(want), f"{path(case).name} line {number} differs"
    assert len(fresh) == len(pinned)


def test_golden_decisions_cover_every_bot_and_search_path() -> None:
    items = [json.loads(line) for case in CASES for line in path(case).read_text(encoding="utf-8").splitlines()]
    bots = {item["bot"].split(":")[0] for item in items if "bot" in item}
    assert bots == {"mc", "pro", "heuristic"}
    # a fantasy hand set by the solver (13+ cards placed at once), and a pro last street counted
    # exactly (more deals than the 6 play-outs asked for)
    assert any(len(item["action"]["place"]) >= 13 for item in items if "action" in item)
    assert any(item.get("rollouts", 0) and item["rollouts"] > 6 for item in items if "pro" in item.get("bot", ""))


def test_selfplay_records_match_golden_digests() -> None:
    assert selfplay_digests() == json.loads(SELFPLAY_PATH.read_text(encoding="utf-8"))
