"""Golden bot decisions: seeded hands played by seeded bots, every decision pinned in JSON lines.

Each line of ``tests/golden/decisions-<case>.jsonl`` is one decision: the seat, the bot, the
action, its value, the play-outs run and (``pro``) every candidate's mean and half-width;
the last line holds the hand's result. A last file pins a digest of seeded self-play records
(``ofc.train``). Values are written as ``float.hex`` so a change in the last bit shows. They
pin the kernels' behaviour across refactors that must not change it (``tests/test_bots_golden.py``).
After an intended change of a bot or a kernel, regenerate on purpose::

    .venv/bin/python -m tests.golden.decisions

and review the diff before committing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ofc.bots import make_bot
from ofc.bots.pro import ProBot
from ofc.bots.pro_weights import shipped_weights
from ofc.engine.hand import Hand
from ofc.rules.rulebook import Rules
from ofc.train.selfplay import selfplay_chunk

GOLDEN_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """A seeded hand and the bots (by spec, seeded by seat) that play it."""

    name: str
    preset: str
    bots: tuple[str, ...]
    seed: int
    fantasy: tuple[int, ...] = ()


MC = "mc:rollouts=6,candidates=4"
PRO = "pro:rollouts=6,candidates=4"
CASES = (
    Case("pineapple", "pineapple", (MC, PRO, "heuristic"), seed=11),
    Case("pineapple-fantasy", "pineapple", (PRO, MC, "heuristic"), seed=12, fantasy=(0, 0, 14)),
    Case("classic", "classic", (PRO, MC), seed=13),
    Case("turbo", "turbo", (MC, PRO), seed=14),
    Case("progressive", "pineapple-progressive", (PRO, MC), seed=15, fantasy=(16, 0)),
)
SELFPLAY = (("pineapple", 2, 21), ("classic", 3, 22), ("turbo", 2, 23))
"""Self-play chunks pinned by digest: variant, players, seed (six hands, learned weights on seat 0)."""


def _hex(value: float | None) -> str | None:
    return None if value is None else float(value).hex()


def playthrough(case: Case) -> Iterator[dict[str, object]]:
    """The decisions of ``case`` as JSON-ready dicts, the result last."""
    rules = Rules.preset(case.preset).with_settings({"players": len(case.bots)})
    hand = Hand(rules, button=len(case.bots) - 1, seed=case.seed, fantasy=case.fantasy, now=0)
    bots = [make_bot(spec, seed=case.seed * 10 + seat) for seat, spec in enumerate(case.bots)]
    now = 0
    while not hand.is_over:
        now += 1
        seat = hand.to_act[0]
        bot = bots[seat]
        decision = bot.decide(hand.view(seat))
        item: dict[str, object] = {
            "seat": seat,
            "bot": case.bots[seat],
            "action": decision.action.to_dict(),
            "value": _hex(decision.value),
            "rollouts": getattr(bot, "last_rollouts", None),
        }
        if isinstance(bot, ProBot):
            item["choices"] = [[c.action.to_dict(), _hex(c.value), _hex(c.ci95)] for c in bot.last_choices]
        hand.apply(decision.action, now)
        yield item
    assert hand.result is not None
    yield {"result": hand.result.to_dict()}


def selfplay_digests() -> dict[str, str]:
    """SHA-256 of the features, stages and targets of each ``SELFPLAY`` chunk."""
    out = {}
    for variant, players, seed in SELFPLAY:
        weights = shipped_weights().for_variant(variant)
        records = selfplay_chunk(variant, players, seed, 0, 6, weights, 12.0, learned_seats=1)
        digest = hashlib.sha256()
        for array in (records.x, records.stage, records.target):
            digest.update(np.ascontiguousarray(array).tobytes())
        out[f"{variant}-{players}-{seed}"] = digest.hexdigest()
    return out


def lines(case: Case) -> list[str]:
    """The golden file's lines for ``case``."""
    return [json.dumps(item, sort_keys=True) for item in playthrough(case)]


def path(case: Case) -> Path:
    """Where the golden file of ``case`` lives."""
    return GOLDEN_DIR / f"decisions-{case.name}.jsonl"


SELFPLAY_PATH = GOLDEN_DIR / "decisions-selfplay.json"


def main() -> None:
    """Rewrite every golden file and say which ones changed."""
    texts = {path(case): "\n".join(lines(case)) + "\n" for case in CASES}
    texts[SELFPLAY_PATH] = json.dumps(selfplay_digests(), indent=1, sort_keys=True) + "\n"
    for target, text in texts.items():
        old = target.read_text(encoding="utf-8") if target.exists() else None
        target.write_text(text, encoding="utf-8")
        state = "unchanged" if old == text else "REWRITTEN"
        print(f"{target}: {state}")


if __name__ == "__main__":
    main()
