"""One room on many servers: real ``ofc serve`` processes on one PostgreSQL database, a Redis bus,
HAProxy in front (round robin, no stickiness). Kill -9, SIGSTOP and SIGCONT are real signals.

No test asserts a time: waits are hang guards.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from support.cluster import Player, Room
from support.pg_support import PrivateCluster, fresh_database
from support.server import HANG_GUARD, ServerProcess, my_turn, random_move
from test_server_faults import _kept, _play, _recv

pytestmark = pytest.mark.slow

LEASE = "2"
"""Seconds a lease lasts in these tests: a dead node's tables move after about this long."""
OPTIONS = ("--lease-seconds", LEASE, "--bot-delay", "0", "--pause", "0.2", "--no-rate-limits", "--seed", "11")


@pytest.fixture
def db_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url.render_as_string(hide_password=False)


def ws_base(http: str) -> str:
    return http.replace("http://", "ws://", 1)


def stored_actions(room: Room, table: int) -> list[tuple[int, int, int, str, str]]:
    """The table's action log: (hand, seq, seat, place, discard) in order."""
    rows = room.sql(
        "SELECT hand, seq, seat, place, discard FROM actions WHERE table_id = :t ORDER BY hand, seq", t=table
    )
    return [(int(h), int(q), int(s), str(p), str(d)) for h, q, s, p, d in rows]


def acked_in_log(player: Player, log: list[tuple[int, int, int, str, str]]) -> list[dict[str, Any]]:
    """The player's acknowledged actions that the log does not hold (should be none)."""
    stored = {
        (seat, json.loads(place).__repr__(), json.loads(discard).__repr__()) for _h, _q, seat, place, discard in log
    }
    missing = []
    for ack in player.acks:
        action = ack["action"]
        key = (action["seat"], repr(action["place"]), repr(action["discard"]))
        if key not in stored:
            missing.append(action)
    return missing


def in_order(states: list[dict[str, Any]]) -> bool:
    """Whether a client's states never go back: hand number, then actions seen in the hand."""
    marks = [(s["hand_number"], len((s.get("hand") or {}).get("history", []))) for s in states]
    return all(a <= b for a, b in itertools.pairwise(marks))


def no_hidden_cards(state: dict[str, Any]) -> bool:
    """A seat's state shows no other seat's held cards or discards (the leak rule of docs/protocol.md)."""
    hand = state.get("hand")
    if not hand:
        return True
    mine = hand.get("seat")
    for number, seat in enumerate(hand["seats"]):
        if number != mine and (seat.get("cards") or seat.get("discards")):
            return False
    return True


def test_the_lobby_of_another_node_follows_seats_and_status_and_equals_the_owner_s(db_url: str, tmp_path: Path) -> None:
    """A table run by one node: the other node lists it exactly as the owner does after a seat is
    taken (through the other node), freed, and taken again until the match starts."""
    with Room(db_url, tmp_path, 2, *OPTIONS) as room:
        owner, other = room.nodes
        table = owner.post("/api/tables", {"preset": "classic", "seats": 3, "bots": [None, None, "heuristic"]})
        table_id = int(table["id"])

        def entry(node: ServerProcess) -> dict[str, Any] | None:
            listed = json.loads(_get(node.base + "/api/tables"))["tables"]
            return next((t for t in listed if t["id"] == table_id), None)

        def alike(check: Any) -> None:
            room.wait(
                lambda: (mine := entry(owner)) is not None and check(mine) and entry(other) == mine,
                "the other node's lobby never matched the owner's",
            )

        alike(lambda mine: mine["open_seats"] == [0, 1])
        ann = other.post(f"/api/tables/{table_id}/join", {"name": "ann"})  # forwarded to the owner
        alike(lambda mine: mine["open_seats"] == [1] and mine["seats"][0]["name"] == "ann")
        other.post(f"/api/tables/{table_id}/leave", {"token": ann["token"]})
        alike(lambda mine: mine["open_seats"] == [0, 1])
        other.post(f"/api/tables/{table_id}/join", {"name": "bob"})
        owner.post(f"/api/tables/{table_id}/join", {"name": "cy"})
        alike(lambda mine: mine["status"] == "playing" and mine["open_seats"] == [])


def test_a_match_through_three_servers_plays_to_its_end(db_url: str, tmp_path: Path) -> None:
    """Three people, each on a different server, and a bot: the whole match, every update in order,
    the same messages a one-server room sends (hidden cards included), one owner throughout."""
    with Room(db_url, tmp_path, 3, *OPTIONS) as room:
        bots = [None, None, None, "heuristic"]
        table = room.post(
            "/api/tables", {"preset": "classic", "seats": 4, "bots": bots, "settings": {"loss_limit": 20}}
        )
        table_id = int(table["id"])
        joined = [room.post(f"/api/tables/{table_id}/join", {"name": name}) for name in ("ann", "bob", "cy")]
        assert sorted(j["seat"] for j in joined) == [0, 1, 2]
        room.wait(
            lambda: all(
                table_id in [t["id"] for t in json.loads(_get(n.base + "/api/tables"))["tables"]] for n in room.nodes
            ),
            "the lobby of some node never listed the table",
        )
        owner = room.owner(table_id)
        assert owner is not None
        players = [
            Player(ws_base(room.nodes[i].base), table_id, joined[i]["token"], seed=i) for i in range(3)
        ]  # each person on a different node: two of them relayed to the owner

        async def play() -> None:
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), HANG_GUARD)

        asyncio.run(play())
        assert all(p.finished for p in players)
        assert all(in_order(p.states) for p in players)
        assert all(no_hidden_cards(s) for p in players for s in p.states)
        assert room.owner(table_id) == owner  # nobody died: one owner throughout
        log = stored_actions(room, table_id)
        assert all(acked_in_log(p, log) == [] for p in players)
        status = room.sql("SELECT status FROM tables WHERE id = :t", t=table_id)
        assert status == [("finished",)]
        many = stored_histories(room.engine, table_id)
    one = one_process_histories(tmp_path / "alone", bots)
    assert len(many) >= 2  # the loss limit ends the match after a few hands
    assert many == one  # the same decks and moves make the same hands, to the card and the point


def stored_histories(engine: Any, table: int) -> list[Any]:
    """The table's stored hand histories, clock readings left out."""
    with engine.connect() as db:
        rows = db.execute(text("SELECT history FROM hands WHERE table_id = :t ORDER BY number"), {"t": table})
        return [timeless(json.loads(history)) for (history,) in rows]


def timeless(value: Any) -> Any:
    """``value`` without its clock readings (``time``, ``start``), which differ between runs."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in ("time", "start")}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def one_process_histories(home: Path, bots: list[str | None]) -> list[Any]:
    """The three-server match again on one process and a fresh database: same seed, same players."""
    home.mkdir()
    with fresh_database() as url, ServerProcess(url.render_as_string(hide_password=False), home, *OPTIONS[2:]) as one:
        table = one.post("/api/tables", {"preset": "classic", "seats": 4, "bots": bots, "settings": {"loss_limit": 20}})
        table_id = int(table["id"])
        joined = [one.post(f"/api/tables/{table_id}/join", {"name": name}) for name in ("ann", "bob", "cy")]
        players = [Player(ws_base(one.base), table_id, joined[i]["token"], seed=i) for i in range(3)]

        async def play() -> None:
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), HANG_GUARD)

        asyncio.run(play())
        engine = create_engine(url)
        try:
            return stored_histories(engine, table_id)
        finally:
            engine.dispose()


def test_kill_9_of_the_owner_mid_hand_loses_nothing_acknowledged(db_url: str, tmp_path: Path) -> None:
    """The owner killed again and again while two people play through the balancer: the table is
    taken over each time, every acknowledged action is kept, no action is stored twice, and the
    clients see the hand go on."""
    with Room(db_url, tmp_path, 3, *OPTIONS) as room:
        table = room.post(
            "/api/tables",
            {"preset": "pineapple", "seats": 3, "bots": [None, None, "heuristic"], "settings": {"loss_limit": 1000}},
        )
        table_id = int(table["id"])
        joined = [room.post(f"/api/tables/{table_id}/join", {"name": name}) for name in ("ann", "bob")]
        players = [Player(ws_base(room.base), table_id, j["token"], seed=7 + i) for i, j in enumerate(joined)]
        owners: list[str] = []
        kills = 0

        async def scenario() -> None:
            nonlocal kills
            games = [asyncio.ensure_future(p.play()) for p in players]
            restarts: list[asyncio.Future[Any]] = []

            async def until(condition: Any, failure: str) -> None:
                """Wait for ``condition()``; fail at once if a player's play broke, or after the hang guard."""
                deadline = time.monotonic() + HANG_GUARD
                while not condition():
                    for game in games:
                        if game.done() and game.exception() is not None:
                            raise AssertionError(f"a player's play broke: {game.exception()!r}")
                    assert time.monotonic() < deadline, failure
                    await asyncio.sleep(0.01)

            for after in (3, 9, 16):  # acknowledged actions before each kill: different points of play
                await until(lambda a=after: sum(len(p.acks) for p in players) >= a, "play stopped before a kill")
                assert not any(p.finished for p in players), "the match ended before the kills"
                lease = room.owner(table_id)
                assert lease is not None
                owners.append(lease[0])
                victim = room.node(lease[0])
                victim.kill()
                kills += 1
                await until(lambda v=lease: (room.owner(table_id) or ("", 0))[1] > v[1], "nobody took the table over")
                # the killed node comes back while play goes on (its start is slow: kernels to warm)
                restarts.append(asyncio.ensure_future(asyncio.to_thread(victim.start)))
            played = [len(p.acks) for p in players]
            await until(
                lambda: (
                    all(p.finished for p in players)
                    or all(len(p.acks) >= count + 3 for p, count in zip(players, played, strict=True))
                ),
                "play stopped after the last takeover",
            )  # each person acts three more times after the last takeover
            for player in players:
                player.stop.set()
            await asyncio.wait_for(asyncio.gather(*games, *restarts), HANG_GUARD)

        asyncio.run(scenario())
        assert kills == 3
        assert all(len(p.acks) >= 6 for p in players)  # play went on after every takeover
        log = stored_actions(room, table_id)
        assert len({(h, q) for h, q, *_ in log}) == len(log)  # no sequence number written twice
        assert all(acked_in_log(p, log) == [] for p in players)  # every acknowledged action kept
        assert all(p.connections > 1 for p in players)  # the clients reconnected and went on
        final = room.owner(table_id)
        assert final is not None
        assert final[1] >= 4  # a new epoch at each takeover
        assert room.sql("SELECT status FROM tables WHERE id = :t", t=table_id) in ([("playing",)], [("finished",)])


def test_a_crashed_database_a_flood_and_a_kill_9_of_the_owner_lose_nothing_acknowledged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person plays through the node that does not run the table (relayed). PostgreSQL crashes
    while a move is on its way and the socket floods pings, and the owner is killed with SIGKILL
    before the database comes back. After it does: the other node takes the table over, every
    acknowledged action is stored once, the restarted node lists the table as its runner does,
    and the match plays to its end."""
    monkeypatch.setenv("OFC_DB_TIMEOUT", "0.5")  # the nodes' waits on the database: short, so calls fail and retry
    rng = random.Random(36)
    acks: list[tuple[int, dict[str, Any]]] = []
    with PrivateCluster() as database, Room(database.url, tmp_path, 2, *OPTIONS) as room:
        owner, other = room.nodes
        table = owner.post("/api/tables", {"preset": "pineapple", "seats": 3, "bots": [None, "random", "random"]})
        table_id = int(table["id"])
        seat = other.post(f"/api/tables/{table_id}/join", {"name": "ann"})
        first = room.owner(table_id)
        assert first is not None
        assert first[0] == room.names[0]
        socket_url = f"{ws_base(other.base)}/ws/tables/{table_id}"
        with connect(socket_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 3)
            while not my_turn(state := _recv(ws)):
                pass
            database.crash()
            ws.send(json.dumps(random_move(state, rng) | {"token": seat["token"]}))  # its write fails, retrying
            for number in range(500):
                ws.send(json.dumps({"type": "ping", "id": number}))
            time.sleep(0.5)  # let the calls fail and retry while the database is down (not a timing assertion)
            owner.kill()
        assert "retrying" in (tmp_path / "node0" / "server.log").read_text()  # the writes did meet the crash
        database.start()
        room.engine.dispose()  # the test's own connections died with the database
        _kept(database.url, table_id, acks)
        room.wait(lambda: (room.owner(table_id) or ("", 0))[0] == room.names[1], "the table was never taken over")
        owner.start()

        def entry(node: ServerProcess) -> dict[str, Any] | None:
            listed = json.loads(_get(node.base + "/api/tables"))["tables"]
            return next((t for t in listed if t["id"] == table_id), None)

        room.wait(lambda: entry(other) is not None and entry(owner) == entry(other), "the lobbies never agreed")
        with connect(socket_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            _play(ws, seat["token"], rng, acks, 10_000)  # to the end of the match
        _kept(database.url, table_id, acks)
        twice = room.sql(
            "SELECT hand, seq FROM actions WHERE table_id = :t GROUP BY hand, seq HAVING count(*) > 1", t=table_id
        )
        assert twice == []
        assert room.sql("SELECT status FROM tables WHERE id = :t", t=table_id)[0][0] == "finished"


def test_a_paused_owner_cannot_write_after_another_took_over(db_url: str, tmp_path: Path) -> None:
    """SIGSTOP the owner of a bots-only table past its lease; another node takes the table over and
    plays on; after SIGCONT the old owner drops the table and its late writes are refused."""
    with Room(db_url, tmp_path, 2, *OPTIONS) as room:
        first = room.nodes[0]
        table = first.post("/api/tables", {"preset": "pineapple", "seats": 2, "bots": ["heuristic", "heuristic"]})
        table_id = int(table["id"])
        assert room.owner(table_id) == (room.names[0], 1)
        room.wait(lambda: len(stored_actions(room, table_id)) >= 2, "the bots never played")
        assert first.process is not None
        first.process.send_signal(signal.SIGSTOP)
        try:
            room.wait(lambda: (room.owner(table_id) or ("", 0))[0] == room.names[1], "node1 never took the table over")
            played = len(stored_actions(room, table_id))
            room.wait(lambda: len(stored_actions(room, table_id)) > played + 2, "node1 never played on")
        finally:
            first.process.send_signal(signal.SIGCONT)
        room.wait(lambda: table_id not in room.health(first)["owned"], "node0 still believes it runs the table")
        room.wait(lambda: len(stored_actions(room, table_id)) > played + 6, "the table stopped after SIGCONT")
        log = stored_actions(room, table_id)
        assert len({(h, q) for h, q, *_ in log}) == len(log)
        assert table_id in room.health(room.nodes[1])["owned"]
        assert (room.owner(table_id) or ("", 0))[0] == room.names[1]
        node0_log = (first.home / "server.log").read_text()
        assert "lost table" in node0_log or table_id not in room.health(first)["owned"]


def test_parallel_joins_through_two_servers_keep_money_exact(db_url: str, tmp_path: Path) -> None:
    """One player joins many matches at once through two servers: the stakes held never exceed the
    balance, and every cent is where it should be."""
    with Room(db_url, tmp_path, 2, *OPTIONS) as room:
        a, b = room.nodes
        first = a.post("/api/tables", {"preset": "pineapple", "seats": 2, "settings": {"loss_limit": 300}})
        ann = a.post(f"/api/tables/{first['id']}/join", {"name": "ann"})
        key = ann["player_key"]
        tables = [
            (a if i % 2 else b).post(
                "/api/tables", {"preset": "pineapple", "seats": 2, "settings": {"loss_limit": 300}}
            )["id"]
            for i in range(8)
        ]

        async def join(table: int, node: ServerProcess) -> int:
            def call() -> int:
                try:
                    node.post(f"/api/tables/{table}/join", {"name": "ann", "key": key})
                    return 1
                except Exception:
                    return 0

            return await asyncio.to_thread(call)

        async def everyone() -> list[int]:
            return await asyncio.gather(*(join(t, (a, b)[i % 2]) for i, t in enumerate(tables)))

        joined = sum(asyncio.run(everyone()))
        seats = room.sql("SELECT count(*) FROM seats WHERE player = 'ann'")[0][0]
        balance = room.sql("SELECT balance FROM players WHERE name = 'ann'")[0][0]
        assert float(balance) == 1000  # joining a match takes nothing: its loss limit is held
        assert seats == 1 + joined
        assert seats * 300 <= 1000  # 300 held per match: at most three of them on 1,000
        assert seats == 3


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ofc.db'}"
    with ServerProcess(url, tmp_path):
        second = ServerProcess(url, tmp_path / "second")
        (tmp_path / "second").mkdir()
        import subprocess
        import sys

        finished = subprocess.run(
            [sys.executable, "-m", "ofc", "serve", "--port", str(second.port), "--db", url],
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
        )
        assert finished.returncode == 2
        error = " ".join(finished.stderr.split())
        assert "is already served by process" in error
        assert "SQLite serves one process" in error
        assert "use PostgreSQL (--db postgresql://...)" in error
        assert "Traceback" not in finished.stderr


def _get(url: str) -> str:
    import urllib.request

    deadline = time.monotonic() + HANG_GUARD
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return str(response.read().decode())
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.2)
