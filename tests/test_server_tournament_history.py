"""A server tournament's hands are stored as hand histories of version 2 (docs/hand-history.md).

Each stored history carries the tournament record ``ofc play --tournament`` writes: the hand's
number and level, its chips per point, each seat's chips at the start of the hand and the
chips each seat won, settled at table stakes.
"""

from __future__ import annotations

import random
import uuid
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ofc.formats.history import HandHistory, read
from ofc.rules.rulebook import Rules
from ofc.series.tournament import chip_results
from ofc.server.db.storage import FINISHED, TOURNAMENT, Storage
from ofc.server.tables.game import TableGame
from support.server import StandInBot, create_table, join, make_app, play_to_end, seeded_decks, until

SHORT = {"buy_in": 100, "starting_chips": 300, "level_hands": 1, "chips_per_point": "5,10,20,40", "payouts": "0.7,0.3"}
"""300 chips each, one hand a level: hand 1 at 5 chips a point, hand 2 at 10, hand 3 at 20, then 40."""
RATES = (5, 10, 20, 40)


def _stored(store: Storage, table_id: int) -> list[tuple[dict[str, Any], HandHistory]]:
    """Every finished hand's stored document and the history read back from it, in order."""
    numbers = [hand.number for hand in store.load_hands(table_id)]
    assert numbers == list(range(len(numbers)))
    documents = [store.history(table_id, number) for number in numbers]
    assert all(document is not None for document in documents)
    return [(document, read(document)) for document in documents if document is not None]


def _points(history: HandHistory) -> list[int]:
    assert history.result is not None
    return [int(player["points"]) for player in history.result["players"]]


def test_a_server_tournament_stores_every_hand_as_version_2_with_its_chips(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, kind="tournament", seats=3, bots=[None, "random", "mc"], settings=SHORT)
        seat = join(client, table["id"], "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            until(ws, lambda m: m["type"] == "state")
            final = play_to_end(ws, seat["token"], random.Random(3))
    names = ["ann", "random bot", "mc bot"]
    store = Storage(f"sqlite:///{tmp_path / 'ofc.db'}")
    try:
        stored = _stored(store, table["id"])
    finally:
        store.close()
    assert len(stored) == final["tournament"]["hands_played"] >= 1
    stacks = dict.fromkeys(names, 300)  # by name: a busted seat is dealt out of later hands
    capped = 0
    for number, (document, history) in enumerate(stored):
        assert (document["format"], document["version"]) == ("ofc-hand-history", 2)
        record = history.tournament
        assert record is not None
        dealt = list(history.names or ())
        assert dealt == [name for name in names if stacks[name] > 0]
        level = min(number, 3) + 1
        assert (record.hand, record.level, record.chips_per_point) == (number + 1, level, RATES[level - 1])
        assert record.chips == tuple(stacks[name] for name in dealt)
        assert sum(record.chips_won) == 0
        points = _points(history)
        exact = [p * record.chips_per_point for p in points]
        if all(won >= -stacks[name] for won, name in zip(exact, dealt, strict=True)):
            assert record.chips_won == tuple(exact)  # nobody lost more than their stack
        else:
            capped += 1  # table stakes: a stack pays at most itself, shared out as the tournament settles it
            vs = [list(player["vs"]) for player in history.result["players"]]  # type: ignore[index]
            order = [(history.button + 1 + step) % len(dealt) for step in range(len(dealt))]
            assert record.chips_won == chip_results(vs, record.chips_per_point, record.chips, order)
            assert all(before + won >= 0 for before, won in zip(record.chips, record.chips_won, strict=True))
        for name, won in zip(dealt, record.chips_won, strict=True):
            stacks[name] += won
    assert [stacks[name] for name in names] == final["tournament"]["chips"]
    assert sorted(stacks.values()) == [0, 0, 900]
    assert len(stored) >= 4  # into the fourth level, whose rate lasts
    assert capped >= 1  # at least the hand that knocks a player out


def _heads_up(store: Storage, rules: Rules) -> TableGame:
    table = store.add_table("t", rules.to_dict(), [None, None], TOURNAMENT)
    game = TableGame(table, "t", rules, [None, None], store, decks=seeded_decks, kind=TOURNAMENT)
    for seat, name in enumerate(["ann", "bob"]):
        store.ensure_player(name, Fraction(1000))
        game.sit(seat, name, f"{seat}" * 64)
    return game


def _play(game: TableGame, rng: random.Random) -> None:
    bots = [StandInBot(rng.randrange(1000)) for _ in game.seats]
    now = Decimal(0)
    while game.status != FINISHED:
        now += 1
        game.sync(now)
        hand, session = game.hand, game.session
        if hand is None or hand.is_over or session is None:
            continue
        seat = session.plan.seats[hand.to_act[0]]
        view = game.view(seat)
        assert view is not None
        data = bots[seat].act(view).to_dict()
        game.act(seat, data["place"], data["discard"], now)


def test_a_heads_up_tournaments_chips_won_are_its_points_at_the_level_within_table_stakes(tmp_path: Path) -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 2, **SHORT, "level_hands": 2})
    for seed in range(4):
        store = Storage(f"sqlite:///{tmp_path / f'{uuid.uuid4().hex}.db'}")
        try:
            game = _heads_up(store, rules)
            game.start(seed % 2, Decimal(0))
            _play(game, random.Random(seed))
            stored = _stored(store, game.id)
        finally:
            store.close()
        stacks = [300, 300]
        for number, (document, history) in enumerate(stored):
            assert document["version"] == 2
            record = history.tournament
            assert record is not None
            level = min(number // 2, 3) + 1  # two hands a level
            assert (record.hand, record.level, record.chips_per_point) == (number + 1, level, RATES[level - 1])
            assert record.chips == tuple(stacks)
            ann, bob = _points(history)
            assert ann == -bob
            # Heads-up at table stakes: the winner takes the points at the level's rate, at most the loser's stack.
            won = ann * RATES[level - 1]
            won = min(won, stacks[1]) if won > 0 else max(won, -stacks[0])
            assert record.chips_won == (won, -won)
            stacks = [stacks[0] + won, stacks[1] - won]
        assert sorted(stacks) == [0, 600]
        assert len(stored) >= 2
        assert list(game.tournament()["chips"]) == stacks  # type: ignore[index]
