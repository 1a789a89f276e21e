"""Load benchmark of ``ofc serve``: many tables of WebSocket clients playing random legal moves.

Starts a real server process (SQLite in a temporary folder unless ``--db`` is given), keeps
``--tables`` tables of ``--seats`` people busy (a new match at a table as soon as one ends),
one WebSocket client per seat, each playing random legal moves after a random think time,
for ``--seconds``.
The latency of an action is the time from sending it to receiving the state update that
shows it (the first ``state`` after its ``ack``). Prints p50/p90/p99/max and throughput::

    .venv/bin/python benchmarks/bench_server.py --tables 100 --seats 3 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ofc.server.launch import free_port, post_json, start_server


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

    async def run(self, stop: float) -> None:
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


async def table_slot(base: str, port: int, number: int, args: argparse.Namespace, stop: float,
                     latencies: list[float]) -> tuple[int, int]:  # fmt: skip
    """Keep one table busy until time is up: a new match whenever one ends. Returns matches and errors."""
    settings = {"hand_seconds": 600, "time_bank_seconds": 600}
    matches = errors = 0
    while time.monotonic() < stop:
        body = {"name": f"bench {number}", "preset": args.preset, "seats": args.seats, "settings": settings}
        table = await asyncio.to_thread(post_json, base, "/api/tables", body)
        players = []
        for seat in range(args.seats):
            name = {"name": f"p{table['id']}x{seat}"}
            joined = await asyncio.to_thread(post_json, base, f"/api/tables/{table['id']}/join", name)
            url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
            players.append(Player(url, joined["token"], args.think, table["id"] * 10 + seat, latencies))
        await asyncio.gather(*(player.run(stop) for player in players))
        matches += 1
        errors += sum(player.errors for player in players)
    return matches, errors


async def play(base: str, port: int, args: argparse.Namespace) -> tuple[list[float], int, int]:
    """Run every table slot until time is up; return latencies, matches played and errors."""
    latencies: list[float] = []
    stop = time.monotonic() + args.seconds
    done = await asyncio.gather(*(table_slot(base, port, n, args, stop, latencies) for n in range(args.tables)))
    return latencies, sum(m for m, _ in done), sum(e for _, e in done)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--preset", default="pineapple")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time per action, seconds")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        db = args.db or f"sqlite:///{home / 'bench.db'}"
        port = free_port()
        server = start_server(db, port, home, "--pause", "0")  # no pause between hands, no bots
        try:
            latencies, matches, errors = asyncio.run(play(f"http://127.0.0.1:{port}", port, args))
        finally:
            server.kill()
            server.wait()
    if not latencies:
        raise SystemExit("no action was timed")
    ms = [value * 1000 for value in latencies]
    clients = args.tables * args.seats
    print(f"ofc serve load: {args.tables} tables x {args.seats} seats ({args.preset}), {clients} WebSocket clients, "
          f"think time mean {args.think} s, {args.seconds:.0f} s")  # fmt: skip
    print(f"database: {'SQLite (temporary file)' if args.db is None else args.db}")
    print(f"matches started: {matches}, actions timed: {len(ms)} ({len(ms) / args.seconds:.1f}/s), errors: {errors}")
    print(f"action -> update latency: p50 {statistics.median(ms):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
