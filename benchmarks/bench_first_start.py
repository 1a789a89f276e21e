"""The first minute of ``ofc serve``: time to ready, the first bot move and the first hint, cold vs warm.

Starts a real ``ofc serve`` twice on a fresh SQLite database: *cold*, with ``NUMBA_CACHE_DIR``
pointing at an empty temporary folder (a fresh clone whose set-up did not compile the kernels),
then *warm*, on the cache the cold run filled (what ``scripts/setup`` leaves). For each it prints:

- *ready*: seconds from starting the process to ``/api/health`` answering 200 (tables restored,
  the decision workers' kernels compiled or loaded); until then the lobby says it is warming and
  no hand is dealt;
- *first bot move*: a table (you and an ``mc`` bot) created once the server answers; seconds
  from the bot's turn to its cards on the table;
- *first hint*: seconds from asking for a hint on the player's first turn to its answer.

    .venv/bin/python benchmarks/bench_first_start.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

HANG_GUARD = 900.0
"""Seconds any step may take at most (a hang guard, never a measure)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def status(url: str) -> int:
    """The HTTP status of ``GET url`` (0: nothing answers yet)."""
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            code: int = answer.status
            return code
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST url`` with a JSON body; the JSON answer."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=HANG_GUARD) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def wait_for(url: str, wanted: int, started: float) -> float:
    """Seconds from ``started`` until ``GET url`` answers ``wanted``."""
    while time.perf_counter() - started < HANG_GUARD:
        if status(url) == wanted:
            return time.perf_counter() - started
        time.sleep(0.05)
    raise TimeoutError(url)


def placed(state: dict[str, Any], seat: int) -> int:
    """Cards on hand seat ``seat``'s board."""
    board = state["hand"]["seats"][seat]
    return len(board["top"]) + len(board["middle"]) + len(board["bottom"])


async def first_moves(base: str, port: int) -> tuple[float, float]:
    """The first bot move's and the first hint's seconds at a new table (you and an ``mc`` bot)."""
    body = {"seats": 2, "bots": [None, "mc"], "sit": {"name": "ann"}, "settings": {"hand_seconds": 900}}
    created = post(base + "/api/tables", body)
    token = created["joined"]["token"]
    bot_move = hint = None
    bot_turn: float | None = None
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{created['id']}") as socket_:
        await socket_.send(json.dumps({"type": "hello", "token": token}))
        asked: float | None = None
        while bot_move is None or hint is None:
            message = json.loads(await asyncio.wait_for(socket_.recv(), HANG_GUARD))
            now = time.perf_counter()
            if message["type"] == "hint" and asked is not None:
                hint = now - asked
                action = {"place": message["action"]["place"], "discard": message["action"]["discard"]}
                await socket_.send(json.dumps({"type": "act", "token": token, **action, "id": 1}))
                continue
            if message["type"] == "error":
                raise RuntimeError(message)
            if message["type"] != "state" or message["hand"] is None or message["hand"]["seat"] is None:
                continue  # a spectator's state comes before the hello is answered
            hand = message["hand"]
            me = hand["seat"]
            bot = 1 - me
            if bot_move is None and bot in hand["to_act"] and bot_turn is None:
                bot_turn = now
            if bot_move is None and bot_turn is not None and placed(message, bot) > 0:
                bot_move = now - bot_turn
            if hint is None and asked is None and me in hand["to_act"] and message.get("discard_due") is not None:
                asked = time.perf_counter()
                await socket_.send(json.dumps({"type": "hint", "token": token, "id": 9}))
    assert bot_move is not None
    assert hint is not None
    return bot_move, hint


def run(label: str, cache: Path, home: Path) -> dict[str, float]:
    """One server start with numba's cache in ``cache``: its figures."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = f"sqlite:///{home / (label + '.db')}"
    env = os.environ | {"NUMBA_CACHE_DIR": str(cache), "OFC_HOME": str(home)}
    command = [sys.executable, "-m", "ofc", "serve", "--port", str(port), "--db", db, "--bot-delay", "0"]
    started = time.perf_counter()
    with (home / f"{label}.log").open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
    try:
        answering = wait_for(base + "/api/tables", 200, started)
        ready = wait_for(base + "/api/health", 200, started)
        bot_move, hint = asyncio.run(first_moves(base, port))
    finally:
        process.terminate()
        process.wait(30)
    return {"answering": answering, "ready": ready, "bot_move": bot_move, "hint": hint}


def main() -> None:
    """Cold, then warm: print each start's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ofc-first-start-") as folder:
        cache = Path(folder) / "numba-cache"
        cache.mkdir()
        print(f"workers: ofc serve's default; cores: {os.cpu_count()}")
        print(f"{'start':<6} {'answers':>9} {'ready':>9} {'1st bot move':>13} {'1st hint':>9}")
        for label in ("cold", "warm"):
            figures = run(label, cache, Path(folder))
            print(
                f"{label:<6} {figures['answering']:>8.1f}s {figures['ready']:>8.1f}s "
                f"{figures['bot_move']:>12.2f}s {figures['hint']:>8.2f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
