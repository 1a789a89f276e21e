"""Golden playthroughs: seeded hands played by a fixed policy, every step pinned in JSON lines.

Each line of ``tests/golden/<case>.jsonl`` is one step: the time, the automatic actions the
clock made by then, the seat to act with its whole view, and the action it chose. The last line
holds the score sheet and the spectator's view. ``tests/test_hand_golden.py`` replays every
case and compares line by line. After an intended change of the engine, regenerate on purpose::

    .venv/bin/python -m tests.golden.regen

and review the diff before committing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ofc.engine.clock import time_text
from ofc.engine.hand import Hand
from ofc.rules.rulebook import Rules

GOLDEN_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """A seeded hand and the policy that plays it."""

    name: str
    preset: str
    players: int
    button: int
    seed: int
    fantasy: tuple[int, ...] = ()
    settings: dict[str, object] = field(default_factory=dict)
    steps: tuple[int, ...] = (7, 3, 11)
    """Seconds between steps, used in turn (long ones make the clock place automatically)."""


CASES = (
    Case("classic", "classic", players=2, button=0, seed=101),
    Case("turbo", "turbo", players=3, button=2, seed=202),
    Case("pineapple", "pineapple", players=3, button=1, seed=303),
    Case(
        "fantasy",
        "pineapple",
        players=3,
        button=0,
        seed=404,
        fantasy=(0, 14, 0),
        settings={"hand_seconds": 20, "time_bank_seconds": 15},
        steps=(9, 4, 30),
    ),
    Case("progressive", "pineapple-progressive", players=2, button=1, seed=505, fantasy=(16, 0)),
)


def playthrough(case: Case) -> Iterator[dict[str, object]]:
    """The steps of ``case`` as JSON-ready dicts, the result last."""
    rules = Rules.preset(case.preset).with_settings({"players": case.players, **case.settings})
    hand = Hand(rules, button=case.button, seed=case.seed, fantasy=case.fantasy)
    policy = random.Random(case.seed)
    now = 0
    step = 0
    while True:
        now += case.steps[step % len(case.steps)]
        before = len(hand.private_record().actions)
        hand.advance(now)
        automatic = [{"time": time_text(r.time), **r.action.to_dict()} for r in hand.private_record().actions[before:]]
        if hand.is_over:
            if automatic:
                yield {"step": step, "time": now, "automatic": automatic}
            break
        seat = hand.to_act[-1] if step % 3 == 2 else hand.to_act[0]
        view = hand.view(seat).to_dict()
        action = policy.choice(hand.legal_actions(seat))
        hand.apply(action, now)
        yield {"step": step, "time": now, "automatic": automatic, "seat": seat, "view": view,
               "action": action.to_dict()}  # fmt: skip
        step += 1
    result = hand.result
    assert result is not None
    yield {"result": result.to_dict(), "spectator": hand.view(None).to_dict()}


def lines(case: Case) -> list[str]:
    """The golden file's lines for ``case``."""
    return [json.dumps(item, sort_keys=True) for item in playthrough(case)]


def path(case: Case) -> Path:
    """Where the golden file of ``case`` lives."""
    return GOLDEN_DIR / f"{case.name}.jsonl"


def main() -> None:
    """Rewrite every golden file and say which ones changed."""
    for case in CASES:
        text = "\n".join(lines(case)) + "\n"
        target = path(case)
        old = target.read_text(encoding="utf-8") if target.exists() else None
        target.write_text(text, encoding="utf-8")
        state = "unchanged" if old == text else "REWRITTEN"
        print(f"{target}: {state}")


if __name__ == "__main__":
    main()
