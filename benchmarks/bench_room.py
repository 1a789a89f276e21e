"""One room on N servers: latency, throughput and CPU per action for N = 1, 2, 3 in one run, and
the takeover time after kill -9.

Each N runs ``--tables`` tables of people (random moves after a think time) behind HAProxy
(round robin, so most sockets are relayed to their table's owner) on a fresh PostgreSQL database
with the Redis bus, the same load for every N. CPU is the servers' own (user + system seconds of
every ``ofc serve`` process, and of its decision workers) per 1,000 actions, and its ratio to
N = 1 is the cost of spreading the room over N processes. With ``--direct`` each room of more
than one node is also loaded with every table's sockets straight to the table's owner (no relays,
no play over the bus): the difference between the two is the cost of crossing processes, the
rest that of running N processes on this machine. Every size's room is started once and kept;
``--rounds`` times the load runs ``--seconds`` on each in turn (1, 2, 3, then 3, 2, 1, ...),
because this machine is shared and its speed drifts over minutes more than the cost measured:
each round gives a ratio of two runs close in time, and the CPU figure pools every round. Then ``--kills`` times the
owner of a bots-only table is killed with SIGKILL: the takeover time runs from the kill to the
next action stored by the new owner. The load runs with the nodes' default lease
(``--lease-seconds``), the kills with a short one.

    eval "$(bash scripts/services)"
    .venv/bin/python benchmarks/bench_room.py --servers 1,2,3 --tables 100 --bots heuristic \
        --seconds 40 --kills 10 --rounds 4 --direct
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test helpers: support.*

from bench_server import percentile, table_slot
from ofc.server.db.storage import FINISHED
from support.cluster import Room
from support.pg_support import fresh_database

OPTIONS = ("--bot-delay", "0", "--no-rate-limits")


def _process_seconds(pid: int) -> float:
    """User and system seconds of one process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """User and system seconds so far of these processes, and of their children (the decision workers)."""
    own = children = 0.0
    for pid in pids:
        own += _process_seconds(pid)
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            children += _process_seconds(int(child))
    return own, children


def owner_port(room: Room, table: int) -> int:
    """The port of ``table``'s owner (the balancer's while it has none)."""
    owner = room.owner(table)
    return room.port if owner is None else room.node(owner[0]).port


async def load(room: Room, args: argparse.Namespace, direct: bool) -> tuple[list[float], int, int]:
    """The table slots until time is up (their sockets through the balancer, or ``direct`` to each
    table's owner): the latencies, the errors and the moves."""
    latencies: list[float] = []
    stop = time.monotonic() + args.seconds
    sockets = (lambda table: owner_port(room, table)) if direct else None
    slots = [table_slot(room.base, room.port, n, args, stop, latencies, sockets) for n in range(args.tables)]
    done = await asyncio.gather(*slots)
    return latencies, sum(errors for _, errors, _ in done), sum(moved for _, _, moved in done)


@dataclass
class Segment:
    """One load segment on one room: its latencies, the CPU seconds of its nodes' own processes and
    of their decision workers, errors and moved sockets."""

    latencies: list[float]
    nodes_cpu: float
    workers_cpu: float
    errors: int
    moved: int

    @property
    def cpu(self) -> float:
        """The room's CPU seconds: nodes and workers."""
        return self.nodes_cpu + self.workers_cpu


def segment(room: Room, args: argparse.Namespace, direct: bool = False) -> Segment:
    """``--seconds`` of load on ``room``, with the CPU its nodes and their workers used meanwhile."""
    pids = [node.process.pid for node in room.nodes if node.process is not None]
    nodes_before, workers_before = cpu_seconds(pids)
    latencies, errors, moved = asyncio.run(load(room, args, direct))
    nodes_after, workers_after = cpu_seconds(pids)
    return Segment(latencies, nodes_after - nodes_before, workers_after - workers_before, errors, moved)


@dataclass(frozen=True)
class Variant:
    """A room size, and whether its sockets go straight to each table's owner (no relays)."""

    servers: int
    direct: bool = False

    def __str__(self) -> str:
        return f"N={self.servers}" + (" direct" if self.direct else "")


def in_turn(variants: list[Variant], args: argparse.Namespace) -> dict[Variant, list[Segment]]:
    """Every room size started once, then loaded in turn, round after round (1, 2, 3, then 3, 2, 1, ...):
    a drift of the shared machine's speed hits each size alike, and each round gives each size's
    CPU beside N = 1's a minute away. A direct variant loads the same room as its size."""
    with contextlib.ExitStack() as stack:
        rooms: dict[int, Room] = {}
        for servers in dict.fromkeys(variant.servers for variant in variants):
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            url = stack.enter_context(fresh_database()).render_as_string(hide_password=False)
            options = (*OPTIONS, "--pause", "0", "--lease-seconds", str(args.lease_seconds))
            rooms[servers] = stack.enter_context(Room(url, Path(folder), servers, *options))
        segments: dict[Variant, list[Segment]] = {variant: [] for variant in variants}
        for number in range(args.rounds):
            for variant in variants if number % 2 == 0 else variants[::-1]:
                segments[variant].append(segment(rooms[variant.servers], args, variant.direct))
                done = segments[variant][-1]
                cpu = 1000 * done.cpu / max(1, len(done.latencies))
                print(f"round {number + 1}, {variant}: CPU {cpu:.2f} s per 1,000 actions", file=sys.stderr, flush=True)
        return segments


def figures_of(variant: Variant, segments: list[Segment], base: list[Segment], seconds: float) -> dict[str, Any]:
    """One variant's figures over its segments, and its CPU per action as a ratio to N = 1's (``base``)."""

    def per_action(segment: Segment) -> float:
        return 1000 * segment.cpu / max(1, len(segment.latencies))

    def pooled(runs: list[Segment], part: Callable[[Segment], float] = lambda run: run.cpu) -> float:
        return 1000 * sum(part(run) for run in runs) / max(1, sum(len(run.latencies) for run in runs))

    def nodes(run: Segment) -> float:
        return run.nodes_cpu

    def workers(run: Segment) -> float:
        return run.workers_cpu

    ms = [value * 1000 for run in segments for value in run.latencies]
    each_round = [round(per_action(mine) / per_action(first), 2) for mine, first in zip(segments, base, strict=True)]
    return {
        "servers": variant.servers,
        "direct": variant.direct,
        "actions": len(ms),
        "actions_per_s": round(len(ms) / (seconds * len(segments)), 1),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(percentile(ms, 0.99), 1),
        "cpu_s_per_1000_actions": round(pooled(segments), 2),
        "cpu_ratio_to_first": round(pooled(segments) / pooled(base), 2),
        "cpu_ratio_each_round": each_round,
        "cpu_ratio_median_of_rounds": round(statistics.median(each_round), 2),
        "nodes_cpu_s_per_1000_actions": round(pooled(segments, nodes), 2),
        "nodes_cpu_ratio_to_first": round(pooled(segments, nodes) / pooled(base, nodes), 2),
        "workers_cpu_s_per_1000_actions": round(pooled(segments, workers), 2),
        "workers_cpu_ratio_to_first": round(pooled(segments, workers) / pooled(base, workers), 2),
        "errors": sum(run.errors for run in segments),
        "tables_moved": sum(run.moved for run in segments),
    }


def takeovers(kills: int, lease_seconds: float) -> list[float]:
    """Seconds from each kill -9 of a table's owner to the next action stored by the new owner.

    A kill that lands after the bots' match ended measures nothing and is made again on a new table.
    """
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder, fresh_database() as url:
        # hands a little apart, so that a match outlives a kill
        options = (*OPTIONS, "--pause", "0.5", "--lease-seconds", str(lease_seconds))
        room = Room(url.render_as_string(hide_password=False), Path(folder), 3, *options)
        with room:
            body = {"preset": "pineapple", "seats": 2, "bots": ["heuristic", "heuristic"]}

            def stored(table: int) -> int:
                return int(room.sql("SELECT count(*) FROM actions WHERE table_id = :t", t=table)[0][0])

            def over(table: int) -> bool:
                return bool(room.sql("SELECT status FROM tables WHERE id = :t", t=table)[0][0] == FINISHED)

            def epoch(table: int) -> int:
                return (room.owner(table) or ("", 0))[1]

            for _ in range(3 * kills):  # a new bots' table each time (a match may end)
                if len(times) == kills:
                    break
                live = next(node for node in room.nodes if node.process is not None and node.process.poll() is None)
                table = live.post("/api/tables", body)["id"]
                room.wait(lambda t=table: stored(t) >= 2, "the bots never played")
                owner = room.owner(table)
                assert owner is not None
                victim = room.node(owner[0])
                victim.kill()
                killed = time.monotonic()
                actions = stored(table)
                room.wait(lambda t=table, e=owner[1]: epoch(t) > e or over(t), "no takeover")
                room.wait(lambda t=table, a=actions: stored(t) > a or over(t), "no action after the takeover")
                if over(table):
                    print(f"table {table}: its match ended before the kill; another table", file=sys.stderr)
                else:
                    times.append(time.monotonic() - killed)
                    print(f"takeover {len(times)}: {times[-1]:.2f} s", file=sys.stderr, flush=True)
                victim.start()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", default="1,2,3", help="the room sizes to run, in one run")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--preset", default="pineapple")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--bots", default=None)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--lease-seconds", type=float, default=5, help="the nodes' lease under load (the default)")
    parser.add_argument("--takeover-lease-seconds", type=float, default=2, help="the nodes' lease in the kill runs")
    parser.add_argument("--rounds", type=int, default=4, help="load the sizes in turn this many times")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="also load each room of more than one node with every table's sockets straight to its owner "
        "(no relays): the cost of spreading the load over N processes without that of crossing them",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.servers.split(",")]
    variants = [Variant(servers) for servers in counts]
    if args.direct:
        variants += [Variant(servers, direct=True) for servers in counts if servers > 1]
    segments = in_turn(variants, args)
    sizes = [figures_of(variant, segments[variant], segments[variants[0]], args.seconds) for variant in variants]
    for size in sizes:
        size["p99_ratio_to_first"] = round(size["p99_ms"] / sizes[0]["p99_ms"], 2)
    times = takeovers(args.kills, args.takeover_lease_seconds) if args.kills else []
    figures: dict[str, Any] = {"tables": args.tables, "seconds": args.seconds, "rounds": args.rounds, "sizes": sizes}
    if times:
        figures |= {"kills": len(times), "takeover_median_s": round(statistics.median(times), 2)}
        figures |= {"takeover_max_s": round(max(times), 2)}
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"one room: {args.tables} tables x {args.seats} seats ({args.preset}), {args.seconds:.0f} s per size, "
        f"{args.rounds} round(s), sizes in turn; CPU over all rounds, and each round's ratio"
    )
    for size in sizes:
        print(
            f"N={size['servers']}{' direct' if size['direct'] else ''}: {size['actions_per_s']} actions/s, "
            f"p50 {size['p50_ms']} ms, p99 {size['p99_ms']} ms "
            f"({size['p99_ratio_to_first']}x N=1), CPU {size['cpu_s_per_1000_actions']} s per 1,000 actions "
            f"({size['cpu_ratio_to_first']}x N=1; rounds {', '.join(map(str, size['cpu_ratio_each_round']))}, "
            f"median {size['cpu_ratio_median_of_rounds']}x; nodes {size['nodes_cpu_s_per_1000_actions']} s "
            f"({size['nodes_cpu_ratio_to_first']}x), workers {size['workers_cpu_s_per_1000_actions']} s "
            f"({size['workers_cpu_ratio_to_first']}x)), "
            f"errors {size['errors']}, "
            f"sockets moved {size['tables_moved']}"
        )
    if times:
        median, most = figures["takeover_median_s"], figures["takeover_max_s"]
        print(f"takeover after kill -9 ({len(times)} kills): median {median} s, max {most} s")


if __name__ == "__main__":
    main()
