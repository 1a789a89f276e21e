"""The showdown's line against each opponent adds up in every scoring (RULES.md "Scoring"):
classic pays 2 a row and no scoop bonus, american 1 a row and +3 more for a scoop. Negative
numbers are written with the typographic minus (U+2212), as everywhere on the page.

``showdown.js``'s ``breakdownText`` and ``rows.js``'s ``pairPoints`` run under Node, with the few
browser globals ``i18n.js`` reads stubbed (English, no catalogue).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.node import node_json

WEB = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web"
HARNESS = """
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.navigator = { language: "en" };
globalThis.document = { documentElement: {} };
const showdown = await import(process.argv[1]);
const rows = await import(process.argv[2]);
const cases = JSON.parse(process.argv[3]);
const line = ([a, b, rules]) => [showdown.breakdownText(a, b, rules), rules && rows.pairPoints(a, b, rules)];
console.log(JSON.stringify(cases.map(line)));
"""


def _player(top: str, middle: str, bottom: str, royalties: int = 0, *, fouled: bool = False) -> dict[str, Any]:
    board = {"top": top.split(), "middle": middle.split(), "bottom": bottom.split()}
    return {"fouled": fouled, "royalties": {"total": royalties}, "board": board}


# ann: K pair on top, trip nines in the middle, 9-high at the bottom (royalties given as 4)
ANN = _player("Ks Kd 2c", "9h 9d 9c 3s 4s", "2s 3d 4s 5d 9h", 4)
# bob: Q pair, trip eights, trip aces: loses top and middle, wins the bottom
BOB = _player("Qs Qd 3c", "8h 8d 8c 5s 6s", "Ac Ah Ad 7c 3h")
# cat: loses every row to ann (8-high at the bottom)
CAT = _player("Qs Qd 3c", "8h 8d 8c 5s 6s", "2c 3c 4d 5h 8s")
DEAD = _player("As Ad Ah", "2c 3c 4d 5h 8s", "Qs Qd 3c 7h 8h", fouled=True)
CLASSIC = {"scoring": "classic"}
AMERICAN = {"scoring": "american"}


def _run(cases: list[tuple[dict[str, Any], dict[str, Any], dict[str, str] | None]]) -> list[list[Any]]:
    result: list[list[Any]] = node_json(HARNESS, str(WEB / "showdown.js"), str(WEB / "rows.js"), json.dumps(cases))
    return result


def test_the_breakdown_adds_up_in_classic_and_american_scoring() -> None:
    assert _run(
        [
            (ANN, BOB, CLASSIC),
            (BOB, ANN, CLASSIC),
            (ANN, BOB, AMERICAN),
            (ANN, CAT, AMERICAN),
            (CAT, ANN, AMERICAN),
            (ANN, CAT, CLASSIC),
            (DEAD, CAT, CLASSIC),
            (DEAD, CAT, AMERICAN),
            (CAT, DEAD, AMERICAN),
            (DEAD, DEAD, CLASSIC),
        ]
    ) == [
        ["top +2 mid +2 bot \u22122, roy +4", 6],  # 2 + 2 - 2 + 4
        ["top \u22122 mid \u22122 bot +2, roy \u22124", -6],
        ["top +1 mid +1 bot \u22121, roy +4", 5],  # 1 + 1 - 1 + 4
        ["top +1 mid +1 bot +1, scoop +3, roy +4", 10],  # 3 rows + 3 bonus + 4
        ["top \u22121 mid \u22121 bot \u22121, scooped \u22123, roy \u22124", -10],
        ["top +2 mid +2 bot +2, scoop, roy +4", 10],  # classic: 6, no bonus, + 4
        ["top \u22122 mid \u22122 bot \u22122, scooped", -6],
        ["top \u22121 mid \u22121 bot \u22121, scooped \u22123", -6],
        ["top +1 mid +1 bot +1, scoop +3", 6],
        ["top 0 mid 0 bot 0", 0],
    ]


def test_without_the_rules_the_rows_show_won_or_lost() -> None:
    assert _run([(ANN, BOB, None)])[0][0] == "top +1 mid +1 bot \u22121"
