"""Nothing hidden is ever sent: every message a seat or a spectator gets, checked card by card."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from support.server import FakeClock, create_table, join, make_app, my_turn, random_move, receive, until

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def cards_in(value: Any) -> set[str]:
    """Every card text anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def _rows(seat: dict[str, Any]) -> set[str]:
    return set(seat["top"]) | set(seat["middle"]) | set(seat["bottom"])


class Truth:
    """What each hand seat was dealt, placed and discarded, from the stored histories."""

    def __init__(self, histories: list[dict[str, Any]]) -> None:
        self.placed: list[dict[int, set[str]]] = []
        self.discarded: list[dict[int, set[str]]] = []
        for history in histories:
            placed: dict[int, set[str]] = {}
            discarded: dict[int, set[str]] = {}
            for action in history["actions"]:
                placed.setdefault(action["seat"], set()).update(card for card, _ in action["place"])
                discarded.setdefault(action["seat"], set()).update(action["discard"])
            self.placed.append(placed)
            self.discarded.append(discarded)

    def dealt(self, hand: int, seat: int) -> set[str]:
        return self.placed[hand].get(seat, set()) | self.discarded[hand].get(seat, set())

    def others_discards(self, hand: int, seat: int | None) -> set[str]:
        return set().union(*(cards for s, cards in self.discarded[hand].items() if s != seat))


def check_state(message: dict[str, Any], table_seat: int | None, truth: Truth) -> None:
    number = message["hand_number"]
    hand = message["hand"]
    me = None if table_seat is None else message["hand_seats"].index(table_seat)
    assert hand["seat"] == me
    shown: set[str] = set()
    for seat in hand["seats"]:
        rows = _rows(seat)
        if seat["seat"] != me:
            assert rows <= truth.placed[number][seat["seat"]]
        shown |= rows
    own = set() if me is None else truth.dealt(number, me)
    if me is None:
        assert hand["cards"] == []
        assert hand["discards"] == []
    assert set(hand["cards"]) | set(hand["discards"]) <= own
    assert cards_in(hand) <= own | shown
    assert not cards_in(hand) & truth.others_discards(number, me)
    previous = message["previous"]
    if previous is not None:
        boards = set().union(*truth.placed[previous["number"]].values())
        assert cards_in(previous) <= boards
        assert not cards_in(previous) & truth.others_discards(previous["number"], None)


def test_no_message_to_a_seat_or_a_spectator_holds_a_hidden_card(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(tmp_path, clock=clock)
    rng = random.Random(11)
    seen: list[dict[str, Any]] = []
    watched: list[dict[str, Any]] = []
    with TestClient(app) as client:
        table = create_table(client, preset="pineapple", seats=3, bots=[None, "random", "random"])
        seat = join(client, table["id"], "ann")
        url = f"/ws/tables/{table['id']}"
        with client.websocket_connect(url) as ws, client.websocket_connect(url) as spectator:
            ws.send_json({"type": "hello", "token": seat["token"]})
            while True:
                message = until(ws, lambda m: my_turn(m) or bool(m.get("finished")), seen)
                if message.get("finished"):
                    break
                clock.move(3)  # a hint every 3 s is within the connection's rate limit
                ws.send_json({"type": "hint", "token": seat["token"]})
                until(ws, lambda m: m["type"] == "hint", seen)
                ws.send_json(random_move(message, rng) | {"token": seat["token"]})
            watched.append(receive(spectator))
            while not watched[-1].get("finished"):
                watched.append(receive(spectator))
        final = seen[-1]["hand_number"]
        truth = Truth([app.state.store.history(table["id"], n) for n in range(final + 1)])
    states = [m for m in seen if m["type"] == "state" and m["hand"] is not None]
    assert len(states) > 20
    welcome = next(i for i, m in enumerate(seen) if m["type"] == "welcome")
    # before the welcome the connection is a spectator's (the bots may move meanwhile), then seat 0's
    assert all(m["you"] is None for m in seen[:welcome] if m["type"] == "state")
    assert all(m["you"] == 0 for m in seen[welcome:] if m["type"] == "state")
    for message in states:
        check_state(message, message["you"], truth)
    for message in seen:
        if message["type"] in ("ack", "hint"):
            number = max(m["hand_number"] for m in states if m is not message and seen.index(m) < seen.index(message))
            assert cards_in(message) <= truth.dealt(number, message["action"]["seat"])
    spectated = [m for m in watched if m["type"] == "state" and m["hand"] is not None]
    assert len(spectated) > 20
    for message in spectated:
        check_state(message, None, truth)
