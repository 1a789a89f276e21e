"""A real ``ofc serve`` killed with ``kill -9`` right after acknowledging a hand still has it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from support.keep_books import PINEAPPLE_HANDS, PINEAPPLE_POINTS
from support.server import ServerProcess


def _request(server: ServerProcess, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data, {"Content-Type": "application/json"}, method=method)
    with urllib.request.urlopen(request, timeout=180) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_acknowledged_hands_survive_kill_9(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    new = {"players": ["ann", "bob", "cat"], "preset": "pineapple", "settings": {"point_value": "0.5"}, "button": "ann"}
    with ServerProcess(url, tmp_path) as server:
        book = server.post("/api/keep", new)
        path = f"/api/keep/{book['code']}/hands"
        for number, hand in enumerate(PINEAPPLE_HANDS[:2], start=1):
            answer = _request(server, "PUT", f"{path}/{number}", {"key": book["key"], "hand": hand})
            assert len(answer["hands"]) == number
        server.kill()  # SIGKILL straight after the second acknowledgement
        server.start()
        state = _request(server, "GET", f"/api/keep/{book['code']}")
        assert [hand["points"] for hand in state["hands"]] == PINEAPPLE_POINTS[:2]
        assert state["book"]["hands"] == [
            {
                name: dict(zip(("top", "middle", "bottom"), (row.strip() for row in board.split("/")), strict=True))
                if board != "dead"
                else "dead"
                for name, board in hand.items()
            }
            for hand in PINEAPPLE_HANDS[:2]
        ]
        # The keeper goes on where they left off.
        answer = _request(server, "PUT", f"{path}/3", {"key": book["key"], "hand": PINEAPPLE_HANDS[2]})
        assert [hand["points"] for hand in answer["hands"]] == PINEAPPLE_POINTS[:3]
