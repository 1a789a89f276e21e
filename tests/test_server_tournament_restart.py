"""A real server killed with ``kill -9`` in the middle of a tournament finishes it as if never killed.

Two runs of the same tournament on fresh databases, with ``ofc serve --seed`` (the same decks
and first button) and deterministic players: the ``heuristic`` bots (their choice depends on
the view only) and a person whose move is a function of the state they see. One run is
killed mid-hand in the second hand and restarted; both must end with the same chips after
every hand, the same places and prizes, and the same balances.
"""

from __future__ import annotations

import json
import random
import urllib.request
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from support.server import ServerProcess, my_turn, random_move

SETTINGS = {"buy_in": 100, "starting_chips": 100, "level_hands": 1, "chips_per_point": "1,3,10,30,100"}
SETTINGS |= {"payouts": "0.7,0.3", "hand_seconds": 600, "time_bank_seconds": 0}


def _until(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=180))
        assert message["type"] != "error", message
        if wanted(message):
            return message


def _move(state: dict[str, Any]) -> dict[str, Any]:
    """The person's move: random-looking, but the same whenever the same state comes back."""
    hand = state["hand"]
    key = f"{state['hand_number']}/{hand['street']}/{' '.join(hand['cards'])}"
    return random_move(state, random.Random(key))


def _get(server: ServerProcess, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(server.base + path, timeout=180) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data


def _play(server: ServerProcess, table: int, token: str, kill_in_hand: int | None) -> dict[str, Any]:
    """Play the person's seat to the end; kill and restart the server at its third turn in hand ``kill_in_hand``.

    Returns the final state with ``chips_after`` (the chips after each hand, by hand number).
    """
    chips: dict[int, list[int]] = {}
    killed = False
    while True:
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            _until(ws, lambda m: m["type"] == "welcome")
            while True:
                state = _until(ws, lambda m: m["type"] == "state")
                last = state["tournament"]["last_hand"]
                if last is not None:
                    chips[state["tournament"]["hands_played"] - 1] = list(state["tournament"]["chips"])
                if state["finished"]:
                    return state | {"chips_after": chips, "killed": killed}
                if not my_turn(state):
                    continue
                if not killed and state["hand_number"] == kill_in_hand and state["hand"]["street"] >= 2:
                    killed = True
                    server.kill()
                    server.start()
                    break
                ws.send(json.dumps(_move(state) | {"token": token}))


def _run(tmp_path: Path, kill_in_hand: int | None) -> tuple[dict[str, Any], Fraction, Fraction]:
    tmp_path.mkdir()
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    with ServerProcess(url, tmp_path, "--pause", "0", "--bot-delay", "0", "--seed", "21") as server:
        body = {"kind": "tournament", "preset": "pineapple", "seats": 3, "bots": [None, "heuristic", "heuristic"]}
        table = server.post("/api/tables", body | {"settings": SETTINGS})
        seat = server.post(f"/api/tables/{table['id']}/join", {"name": "ann"})
        final = _play(server, table["id"], seat["token"], kill_in_hand)
        ann = Fraction(_get(server, "/api/players/ann")["balance"])
        house = Fraction(_get(server, "/api/house")["balance"])
    return final, ann, house


@pytest.mark.slow
def test_a_tournament_killed_mid_hand_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    plain, plain_ann, plain_house = _run(tmp_path / "plain", None)
    killed, killed_ann, killed_house = _run(tmp_path / "killed", 1)
    facts = plain["tournament"]
    assert killed["killed"]  # at ann's third street of the second hand: in the middle
    assert facts["hands_played"] > 2
    assert killed["chips_after"] == plain["chips_after"]
    assert killed["tournament"] == facts
    assert killed["previous"] == plain["previous"]
    assert (killed_ann, killed_house) == (plain_ann, plain_house)
    prizes = [Fraction(prize) for prize in facts["prizes"]]
    assert sorted(prizes) == [0, 90, 210]  # 300 paid 70% / 30%
    assert plain_ann == 900 + prizes[0]
    assert (plain_ann - 1000) + plain_house == 0
