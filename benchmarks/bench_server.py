"""Load benchmark of ``ofc serve``: many tables of WebSocket clients playing random legal moves.

Starts a real server process (SQLite in a temporary folder unless ``--db`` is given), keeps
``--tables`` tables of ``--seats`` people busy (a new match at a table as soon as one ends),
one WebSocket client per seat, each playing random legal moves after a random think time,
for ``--seconds``.
The latency of an action is the time from sending it to receiving the state update that
shows it (the first ``state`` after its ``ack``). Prints p50/p90/p99/max and throughput.
With ``--bots mc`` the last seat of every table is that bot and a separate client asks for
hints one after another; ``--flood N`` has one more client send N messages (pings, broken
JSON, impossible actions, deep nesting) as fast as the server takes them, and the server's
memory (with its worker processes) is read before the flood, once every table is running,
and at the end::

    .venv/bin/python benchmarks/bench_server.py --tables 100 --seats 3 --seconds 60
    .venv/bin/python benchmarks/bench_server.py --bots mc --flood 100000 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test helpers: support.launch

from support.launch import free_port, post_json, start_server

MOVED = 4012
"""The close code of a socket whose table moved to another server (``ofc.server.tables.cluster.MOVED``)."""


def random_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action for the seat of a state message that asks it to act."""
    hand = state["hand"]
    mine = hand["seats"][hand["seat"]]
    cards = list(hand["cards"])
    rng.shuffle(cards)
    due = state["discard_due"]
    slots = [row for row, size in (("top", 3), ("middle", 5), ("bottom", 5)) for _ in range(size - len(mine[row]))]
    rng.shuffle(slots)
    kept = cards[: len(cards) - due]
    return {"type": "act", "place": [[card, slots[i]] for i, card in enumerate(kept)], "discard": cards[len(kept) :]}


class Player:
    """One seat's client: acts when asked, times action -> update."""

    def __init__(self, url: str, token: str, think: float, seed: int, latencies: list[float]) -> None:
        self.url = url
        self.token = token
        self.think = think
        self.rng = random.Random(seed)
        self.latencies = latencies
        self.sent: float | None = None
        self.acked = False
        self.errors = 0
        self.moved = 0
        """Times its table moved to another server (close code 4012) and it connected again."""

    async def run(self, stop: float) -> None:
        """Play until time is up or the match ends, connecting again when the table moves."""
        while True:
            try:
                await self._session(stop)
                return
            except ConnectionClosed as closed:
                if closed.rcvd is None or closed.rcvd.code != MOVED or time.monotonic() >= stop:
                    raise
                self.moved += 1
                self.sent = None  # that action's answer went with the socket
                await asyncio.sleep(0.2)

    async def _session(self, stop: float) -> None:
        async with connect(self.url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    break
                message = json.loads(text)
                if message.get("finished"):
                    break
                await self._on(ws, message, stop)

    async def _on(self, ws: ClientConnection, message: dict[str, Any], stop: float) -> None:
        kind = message["type"]
        if kind == "ack":
            self.acked = True
        elif kind == "error":
            self.errors += 1
            self.sent = None
        elif kind == "state":
            if self.sent is not None and self.acked:
                self.latencies.append(time.perf_counter() - self.sent)
                self.sent = None
            if message.get("discard_due") is not None and self.sent is None:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                if time.monotonic() < stop:
                    body = random_move(message, self.rng) | {"token": self.token}
                    self.acked = False
                    self.sent = time.perf_counter()
                    await ws.send(json.dumps(body))


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def table_slot(
    base: str,
    port: int,
    number: int,
    args: argparse.Namespace,
    stop: float,
    latencies: list[float],
    sockets: Callable[[int], int] | None = None,
) -> tuple[int, int, int]:
    """Keep one table busy until time is up: a new match whenever one ends. Returns matches, errors, moves.

    ``sockets``: the port a table's sockets connect to, given its id (default ``port``).
    """
    settings = {"hand_seconds": 600, "time_bank_seconds": 600}
    matches = errors = moved = 0
    while time.monotonic() < stop:
        bots = [None] * (args.seats - 1) + [args.bots] if args.bots else []
        body = {"name": f"bench {number}", "preset": args.preset, "seats": args.seats, "settings": settings}
        table = await asyncio.to_thread(post_json, base, "/api/tables", body | {"bots": bots})
        players = []
        socket_port = port if sockets is None else await asyncio.to_thread(sockets, table["id"])
        for seat in range(args.seats - (1 if args.bots else 0)):
            name = {"name": f"p{table['id']}x{seat}"}
            joined = await asyncio.to_thread(post_json, base, f"/api/tables/{table['id']}/join", name)
            url = f"ws://127.0.0.1:{socket_port}/ws/tables/{table['id']}"
            players.append(Player(url, joined["token"], args.think, table["id"] * 10 + seat, latencies))
        await asyncio.gather(*(player.run(stop) for player in players))
        matches += 1
        errors += sum(player.errors for player in players)
        moved += sum(player.moved for player in players)
    return matches, errors, moved


async def hint_flood(base: str, port: int, stop: float, latencies: list[float]) -> None:
    """A separate client asking for hints one after another at its own table (a person and a random bot)."""
    settings = {"hand_seconds": 3600, "time_bank_seconds": 3600}
    body = {"name": "hints", "preset": "pineapple", "seats": 2, "bots": [None, "random"], "settings": settings}
    table = await asyncio.to_thread(post_json, base, "/api/tables", body)
    joined = await asyncio.to_thread(post_json, base, f"/api/tables/{table['id']}/join", {"name": "hinter"})
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": joined["token"]}))
        asked: float | None = None
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic())))
            except TimeoutError:
                break
            if message["type"] in ("hint", "error") and asked is not None:
                if message["type"] == "hint":
                    latencies.append(time.perf_counter() - asked)
                asked = None
            if message["type"] == "state" and message.get("discard_due") is None:
                continue
            if asked is None and message["type"] in ("state", "hint", "error"):
                asked = time.perf_counter()
                await ws.send(json.dumps({"type": "hint", "token": joined["token"]}))


FLOOD_MESSAGES = (
    '{"type": "ping", "id": 1}',
    "{not json",
    '{"type": "act", "place": [["Zz", "top"]], "discard": []}',
    '{"type": "nonsense"}',
    '{"type": "ping", "id": "' + "x" * 4000 + '"}',
    "[" * 5000 + "]" * 5000,
)
"""What the flooding client sends, in turn: pings, broken JSON, an impossible action, an unknown
type, a long field, deep nesting; each is answered (pong or a specific error)."""


async def message_flood(port: int, table: int, count: int, replies: list[int]) -> None:
    """Send ``count`` messages as fast as the connection takes them to ``table`` as a spectator,
    reading every answer at the same time; ``replies`` gets the number of answers read."""
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", max_size=None) as ws:
        answered = 0

        async def read() -> None:
            nonlocal answered
            async for _ in ws:
                answered += 1

        reader = asyncio.create_task(read())
        for number in range(count):
            await ws.send(FLOOD_MESSAGES[number % len(FLOOD_MESSAGES)])
        waited = time.monotonic() + 60  # the last answers (the server reads a flood at its own pace)
        while answered < count and time.monotonic() < waited:
            await asyncio.sleep(0.1)
        reader.cancel()
        replies.append(answered)


def _flood_main(port: int, table: int, count: int, answers: Any) -> None:
    replies: list[int] = []
    asyncio.run(message_flood(port, table, count, replies))
    answers.put(sum(replies))


def flood_in_process(port: int, table: int, count: int) -> int:
    """``message_flood`` run by a separate process; the number of answers it read."""
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    process = context.Process(target=_flood_main, args=(port, table, count, answers))
    process.start()
    read: int = answers.get()
    process.join()
    return read


async def play(base: str, port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    """Run every table slot (and the hint and message floods) until time is up; the figures."""
    latencies: list[float] = []
    hints: list[float] = []
    stop = time.monotonic() + args.seconds
    slots = asyncio.gather(*(table_slot(base, port, n, args, stop, latencies) for n in range(args.tables)))
    hinting = [asyncio.create_task(hint_flood(base, port, stop, hints))] if args.bots else []
    replies: list[int] = []
    await asyncio.sleep(args.seconds * 0.25)  # every table running before memory is first read
    rss_start = rss_mb(pid)
    if args.flood:  # from a process of its own, so the flood does not slow this one's clients
        replies.append(await asyncio.to_thread(flood_in_process, port, 1, args.flood))
    done = await slots
    await asyncio.gather(*hinting)
    return {
        "latencies": latencies,
        "matches": sum(m for m, _, _ in done),
        "errors": sum(e for _, e, _ in done),
        "hints": hints,
        "flood_replies": sum(replies),
        "rss_start": rss_start,
        "rss_end": rss_mb(pid),
    }


def rss_mb(pid: int) -> float:
    """Resident memory of the process and its children (the decision workers), in MB."""
    pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    total = 0
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def wait_ready(base: str) -> None:
    """Wait until ``/api/health`` says the kernels are warm (so no decision is timed compiling)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the server never became ready")


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--preset", default="pineapple")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time per action, seconds")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--bots", default=None, help="a bot spec for the last seat of each table (e.g. mc)")
    parser.add_argument("--flood", type=int, default=0, help="messages one spectator floods the server with")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        db = args.db or f"sqlite:///{home / 'bench.db'}"
        port = free_port()
        # no pauses; no rate limits (every client of the load test comes from one address)
        server = start_server(db, port, home, "--pause", "0", "--bot-delay", "0", "--no-rate-limits")
        try:
            wait_ready(f"http://127.0.0.1:{port}")
            run = asyncio.run(play(f"http://127.0.0.1:{port}", port, server.pid, args))
        finally:
            server.kill()
            server.wait()
    latencies, hints, rss_start, rss_end = run["latencies"], run["hints"], run["rss_start"], run["rss_end"]
    if not latencies:
        raise SystemExit("no action was timed")
    ms = [value * 1000 for value in latencies]
    hint_ms = [value * 1000 for value in hints]
    if args.json:
        figures = {"tables": args.tables, "seconds": args.seconds, "actions": len(ms)}
        figures |= {"p50_ms": round(statistics.median(ms), 1), "p99_ms": round(percentile(ms, 0.99), 1)}
        figures |= {"hint_p99_ms": round(percentile(hint_ms, 0.99), 1) if hint_ms else None}
        figures |= {"rss_mb_start": round(rss_start, 1), "rss_mb_end": round(rss_end, 1)}
        figures |= {"flood_messages": args.flood, "flood_replies": run["flood_replies"]}
        print(json.dumps(figures | {"db": "sqlite" if args.db is None else args.db.split(":")[0]}))
        return
    clients = args.tables * args.seats
    print(f"ofc serve load: {args.tables} tables x {args.seats} seats ({args.preset}), {clients} WebSocket clients, "
          f"think time mean {args.think} s, {args.seconds:.0f} s")  # fmt: skip
    print(f"database: {'SQLite (temporary file)' if args.db is None else args.db}")
    print(f"matches started: {run['matches']}, actions timed: {len(ms)} ({len(ms) / args.seconds:.1f}/s), "
          f"errors: {run['errors']}")  # fmt: skip
    print(f"action -> update latency: p50 {statistics.median(ms):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")  # fmt: skip
    if args.bots:
        spread = f", p50 {statistics.median(hint_ms):.0f} ms, p99 {percentile(hint_ms, 0.99):.0f} ms" if hint_ms else ""
        print(f"bots: {args.bots} at the last seat of each table; hints answered: {len(hint_ms)}{spread}")
    if args.flood:
        print(f"message flood: {args.flood} messages from one spectator, {run['flood_replies']} answers read")
    print(f"server memory (with its workers): {rss_start:.1f} MB with every table running (before the flood), "
          f"{rss_end:.1f} MB at the end")  # fmt: skip


if __name__ == "__main__":
    main()
