"""Unconfirmed placements kept in local storage (state.js), by table and seat (issue 37): a page
opened again on the same decision finds them; the next decision replaces them; once the hand
moves on they are forgotten. The module runs under Node with a local storage stand-in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.node import node_json

WEB = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web"
HARNESS = """
const store = new Map(JSON.parse(process.argv[2]));
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};
globalThis.navigator = { language: "en" };
globalThis.document = { documentElement: {}, getElementById: () => null, querySelector: () => null };
const state = await import(process.argv[1]);
state.ui.tableId = 7;
state.ui.state = JSON.parse(process.argv[3]);
state.keepDecision();
console.log(JSON.stringify({ pending: state.ui.pending, order: state.ui.order, store: [...store.entries()] }));
"""

CARDS = ["Ah", "Kd", "7c", "2s", "9h"]
KEY = "3/0/2s,7c,9h,Ah,Kd"
"""Hand 3, street 0, the cards sorted: the decision the stored placements belong to."""


def my_turn(hand_number: int, you: int = 1) -> dict[str, Any]:
    return {"you": you, "hand_number": hand_number, "discard_due": 0, "hand": {"street": 0, "cards": CARDS}}


def run(stored: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    entries = [[key, json.dumps(value)] for key, value in stored.items()]
    result: dict[str, Any] = node_json(HARNESS, str(WEB / "state.js"), json.dumps(entries), json.dumps(message))
    result["store"] = {key: json.loads(value) for key, value in result["store"]}
    return result


SAVED = {"key": KEY, "pending": {"Ah": "bottom", "Kd": "top"}, "order": ["Kd", "Ah"]}


def test_the_same_decision_finds_its_placements_again() -> None:
    result = run({"ofc-pending-7-1": SAVED}, my_turn(3))
    assert (result["pending"], result["order"]) == (SAVED["pending"], SAVED["order"])
    assert result["store"] == {"ofc-pending-7-1": SAVED}


def test_another_seat_or_table_does_not() -> None:
    for key in ("ofc-pending-7-0", "ofc-pending-8-1", "ofc-pending-7"):
        result = run({key: SAVED}, my_turn(3))
        assert result["pending"] == {}
        assert result["store"][key] == SAVED  # left alone
        assert result["store"]["ofc-pending-7-1"] == {"key": KEY, "pending": {}, "order": []}


def test_the_next_decision_replaces_them() -> None:
    result = run({"ofc-pending-7-1": SAVED}, my_turn(4))
    assert result["pending"] == {}
    assert result["store"] == {"ofc-pending-7-1": {"key": "4/0/2s,7c,9h,Ah,Kd", "pending": {}, "order": []}}


def test_they_are_forgotten_once_the_hand_moves_on_and_kept_while_it_lasts() -> None:
    waiting = {"you": 1, "hand_number": 4, "discard_due": None, "hand": {"street": 0, "cards": []}}
    assert run({"ofc-pending-7-1": SAVED}, waiting)["store"] == {}
    same_hand = {**waiting, "hand_number": 3}  # a resync in the same hand, nothing to decide this moment
    assert run({"ofc-pending-7-1": SAVED}, same_hand)["store"] == {"ofc-pending-7-1": SAVED}
