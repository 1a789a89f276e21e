"""Start-up and lobby size of ``ofc serve`` over a database of many finished matches.

Fills a temporary SQLite database with ``--tables`` finished two-seat pineapple matches
(random bots, every hand stored as the server stores it) and ``--open`` tables still
waiting, then measures in the same run:

- *every table replayed* (what the start did before issue 13): load every table and replay
  its match; the lobby listing every table;
- *unfinished only* (now): load and replay the unfinished tables, list the last 20 finished
  ones without replaying them; and the real server's start (``create_app`` under the test
  client) with its ``GET /api/tables``.

    .venv/bin/python benchmarks/bench_server_start.py --tables 1000
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from starlette.testclient import TestClient

from ofc.bots import make_bot
from ofc.rules.rulebook import Rules
from ofc.server.app import create_app
from ofc.server.db.storage import FINISHED, Storage
from ofc.server.settings import ServerSettings
from ofc.server.tables.game import TableGame, secure_deck


def fill(store: Storage, tables: int, waiting: int) -> None:
    """``tables`` finished matches between two random bots (stored hand by hand) and ``waiting`` open tables."""
    rules = Rules.preset("pineapple").with_settings({"players": 2})
    for number in range(tables):
        bots: list[str | None] = ["random", "random"]
        table = store.add_table(f"t{number}", rules.to_dict(), bots)
        game = TableGame(table, f"t{number}", rules, bots, store)
        players = [make_bot("random", seed=number * 2 + seat) for seat in range(2)]
        now = Decimal(0)
        game.start(number % 2, now)
        while game.status != FINISHED:
            now += 1
            game.sync(now)
            hand, session = game.hand, game.session
            if hand is None or hand.is_over or session is None:
                continue
            seat = session.plan.seats[hand.to_act[0]]
            view = game.view(seat)
            assert view is not None
            data = players[seat].act(view).to_dict()
            game.act(seat, data["place"], data["discard"], now)
    for number in range(waiting):
        store.add_table(f"open {number}", rules.to_dict(), [None, None])


def timed(label: str, work: Callable[[], str]) -> tuple[float, int]:
    """Run ``work`` (returning the lobby's JSON) and print its time and the lobby's size."""
    start = time.perf_counter()
    lobby = work()
    seconds = time.perf_counter() - start
    size = len(lobby.encode())
    print(f"{label:<34} {seconds:8.3f} s   lobby {size / 1024:8.1f} KiB")
    return seconds, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="finished matches stored")
    parser.add_argument("--open", type=int, default=5, help="tables still waiting for players")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'ofc.db'}"
        store = Storage(url)
        made = time.perf_counter()
        fill(store, args.tables, args.open)
        print(
            f"{args.tables} finished matches and {args.open} open tables stored in {time.perf_counter() - made:.1f} s"
        )
        now, pause = Decimal(10**9), Decimal(3)

        def before() -> str:
            games = [
                TableGame.restore_or_damaged(row, store, pause=pause, decks=secure_deck, now=now)
                for row in store.load_tables()
            ]
            return json.dumps({"tables": [game.public() for game in games]})

        def after() -> str:
            games = [
                TableGame.restore_or_damaged(row, store, pause=pause, decks=secure_deck, now=now)
                for row in store.load_tables(unfinished=True)
            ]
            recent = [TableGame.from_row(row, store, pause, secure_deck) for row in store.recent_finished(20)]
            return json.dumps({"tables": [game.public() for game in games + recent]})

        def server() -> str:
            with TestClient(create_app(ServerSettings(db_url=url, processes=False, workers=1))) as client:
                return client.get("/api/tables").text

        old_seconds, old_size = timed("every table replayed (before)", before)
        new_seconds, new_size = timed("unfinished only (now)", after)
        timed("ofc serve start + GET /api/tables", server)
        print(f"ratio before/now: start {old_seconds / new_seconds:.0f}x, lobby {old_size / new_size:.0f}x")
        store.close()


if __name__ == "__main__":
    main()
