"""Golden playthroughs: every step of five seeded hands must match the pinned files.

Regenerate on purpose with ``.venv/bin/python -m tests.golden.regen`` (see that module).
"""

from __future__ import annotations

import json

import pytest

from golden.regen import CASES, Case, lines, path
from ofc.engine.hand import Hand
from ofc.formats import history
from ofc.rules.rulebook import Rules


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_playthrough_matches_golden_file(case: Case) -> None:
    pinned = path(case).read_text(encoding="utf-8").splitlines()
    fresh = lines(case)
    for number, (want, got) in enumerate(zip(pinned, fresh, strict=False), 1):
        assert json.loads(got) == json.loads(want), f"{path(case).name} line {number} differs"
    assert len(fresh) == len(pinned)


def test_golden_files_cover_every_variant_fantasy_and_progressive() -> None:
    variants = {Rules.preset(case.preset).variant.value for case in CASES}
    assert variants == {"classic", "turbo", "pineapple"}
    assert any(case.fantasy for case in CASES if case.preset == "pineapple")
    assert any(case.fantasy for case in CASES if case.preset == "pineapple-progressive")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_golden_steps_replay_from_their_actions(case: Case) -> None:
    """The pinned actions, re-applied at their times to a fresh hand, give the pinned result."""
    items = [json.loads(line) for line in path(case).read_text(encoding="utf-8").splitlines()]
    rules = Rules.preset(case.preset).with_settings({"players": case.players, **case.settings})
    hand = Hand(rules, button=case.button, seed=case.seed, fantasy=case.fantasy)
    records = []
    for item in items[:-1]:
        for auto in item["automatic"]:
            records.append({**auto, "automatic": True})
        if "action" in item:
            records.append({**item["action"], "time": str(item["time"]), "automatic": False})
    document = history.write(hand)
    document["actions"] = records
    document["result"] = items[-1]["result"]
    replayed = history.replay(document)
    assert replayed.result is not None
    assert replayed.result.to_dict() == items[-1]["result"]
    assert sum(replayed.result.points) == 0
