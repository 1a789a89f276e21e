"""A connection's flood is read more slowly, never refused, and never takes the loop (issue 13)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.testclient import TestClient

from ofc.server.net.pacing import Pacer
from support.server import create_table, join, make_app, receive


def test_the_burst_is_read_at_once_then_the_rate_paces_the_rest() -> None:
    """Burst 3, rate 2 a second, six messages at one instant: waits 0, 0, 0, then 0.5, 1.0, 1.5 s of debt
    (each message past the burst owes another 1/2 s); a second later 2 tokens are back."""
    now = [0.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main() -> None:
        pacer = Pacer(2.0, 3.0, now=lambda: now[0], sleep=sleep)
        for _ in range(6):
            await pacer.turn()
        assert waits == [0.0, 0.0, 0.0, 0.5, 1.0, 1.5]
        now[0] = 10.0  # long enough for the bucket to fill again (capped at the burst)
        await pacer.turn()
        assert waits[-1] == 0.0
        assert pacer.tokens == 2.0

    asyncio.run(main())


def test_every_message_of_a_flood_is_answered_in_order(tmp_path: Path) -> None:
    """2,500 pings and broken messages sent at once (past the burst of 1,000): each gets its answer."""
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="pineapple", seats=2, bots=[None, "random"])
        join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert receive(ws)["type"] == "state"  # a spectator's first state
            for number in range(2500):
                ws.send_text(json.dumps({"type": "ping", "id": number}) if number % 2 else "{not json")
            answers = [receive(ws) for _ in range(2500)]
    pongs = [answer["id"] for answer in answers if answer["type"] == "pong"]
    assert pongs == list(range(1, 2500, 2))
    assert [answer["code"] for answer in answers if answer["type"] == "error"] == ["bad_json"] * 1250
