"""Random-policy steps per second through each research interface, against the raw engine.

A step is one seat's decision. The raw engine draws from ``hand.legal_actions(seat)`` and
applies it (as ``bench_engine.py``). "engine + views, vectors" adds a whole view and
``to_array`` built from nothing per decision (the acting seat's, and every seat's at the
end): the floor of an adapter that rebuilds each observation; the environments instead keep
each seat's vector up to date from ``Hand.view_update`` (``ofc.env.observer``). PettingZoo
runs the usual ``agent_iter``/``last``/``step`` loop drawing from the action mask
(``random.randrange`` over ``np.flatnonzero(mask)``, as cheap a policy as the engine's), as
it ships (normal hands by the compiled step, ``ofc.env.fast_hand``) and with
``compiled=False`` (every hand through the engine and the observers);
the ``ParallelEnv`` asks every acting agent at once (each agent's decision counted);
Gymnasium's ``SeatEnv`` plays one seat against ``random`` bots (every seat's decision
counted; ``env.step`` calls shown too) and against ``heuristic`` bots (the learner's
``env.step`` calls counted, the bots' time included), alone and as ``--envs`` copies in a
``SyncVectorEnv`` and an ``AsyncVectorEnv`` (default next-step autoreset; the learners'
decisions counted, not the autoreset steps; with the CPU clock the asynchronous workers' CPU
time is added to this process's); OpenSpiel's ``python_ofc`` draws chance cards and
masked actions through ``apply_action`` (decisions counted, chance nodes shown). The same
OpenSpiel loop also runs, with the same seeds, on the adapter of ``--before`` (by default the
last commit whose adapter rebuilt the engine hand after every chance deal), checked out in a
temporary git worktree and driven in a child process that is timed by its own clock. Every
figure is measured in the same run, in interleaved rounds (each interface in turn, then
again) so that a shared machine's load falls on all of them alike; the ratio printed is the
median over the rounds of the engine's rate over the interface's in that round::

    .venv/bin/python benchmarks/bench_env.py [--variant pineapple] [--players 3] [--seconds 5]
        [--rounds 10] [--clock cpu] [--envs 4] [--before REV | --before none]
"""

from __future__ import annotations

import argparse
import inspect
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyspiel
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv, VectorEnv

import ofc.env.spiel  # noqa: F401  # registers python_ofc
from ofc.engine.hand import Hand
from ofc.env import SeatEnv, parallel_env, pettingzoo_env
from ofc.env.observation import to_array
from ofc.rules.rulebook import Rules

clock = time.process_time
"""This process's CPU seconds (``--clock cpu``, the default): on a shared machine, time spent
waiting for a core is not counted; ``--clock wall`` switches to ``time.perf_counter``."""


def raw_engine(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """Random legal hands through the public API."""
    rng = random.Random(1)
    steps, start, number = 0, clock(), 0
    while clock() - start < seconds:
        hand = Hand(rules, button=number % rules.players, seed=number)
        number += 1
        while not hand.is_over:
            seat = hand.to_act[0]
            hand.apply(rng.choice(hand.legal_actions(seat)), 0)
            steps += 1
    return steps, clock() - start, f"{number} hands"


def engine_and_views(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """The raw engine plus what any environment built on views must do per decision: the acting
    seat's ``Hand.view`` and ``to_array``, and every seat's once the hand is over (the floor)."""
    rng = random.Random(1)
    steps, start, number = 0, clock(), 0
    while clock() - start < seconds:
        hand = Hand(rules, button=number % rules.players, seed=number)
        number += 1
        while not hand.is_over:
            seat = hand.to_act[0]
            to_array(hand.view(seat))
            hand.apply(rng.choice(hand.legal_actions(seat)), 0)
            steps += 1
        for seat in range(rules.players):
            to_array(hand.view(seat))
    return steps, clock() - start, f"{number} hands"


def pettingzoo(rules: Rules, seconds: float, compiled: bool = True) -> tuple[int, float, str]:
    """The AEC loop with masked random actions (``compiled=False``: every hand through the engine)."""
    env = pettingzoo_env(rules, None, compiled=compiled)
    rng = random.Random(1)
    steps, start, number = 0, clock(), 0
    while clock() - start < seconds:
        env.reset(seed=number)
        number += 1
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, clock() - start, f"{number} hands"


def seat_env_hands(env: SeatEnv, seconds: float) -> tuple[int, int, float]:
    """Hands of one learning seat playing masked random actions for ``seconds``: hands, ``step`` calls, time."""
    rng = random.Random(1)
    calls, start, number = 0, clock(), 0
    while clock() - start < seconds:
        observation, _ = env.reset(seed=number)
        number += 1
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
            calls += 1
    return number, calls, clock() - start


def gymnasium(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """One learning seat with masked random actions, ``random`` bots elsewhere."""
    number, calls, elapsed = seat_env_hands(SeatEnv(rules, "random", seat=0, players=rules.players), seconds)
    per_hand = len(rules.spec.streets) * rules.players
    return number * per_hand, elapsed, f"{number} hands, {calls} env.step calls"


def parallel(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """The ``ParallelEnv`` loop: every acting agent draws from its mask, one ``step`` for all of them."""
    env = parallel_env(rules, None)
    rng = random.Random(1)
    steps, calls, start, number = 0, 0, clock(), 0
    while clock() - start < seconds:
        observations, _ = env.reset(seed=number)
        number += 1
        while env.agents:
            actions = {}
            for agent in env.acting:
                legal = np.flatnonzero(observations[agent]["action_mask"])
                actions[agent] = int(legal[rng.randrange(len(legal))])
            observations, *_ = env.step(actions)
            steps += len(actions)
            calls += 1
    return steps, clock() - start, f"{number} hands, {calls} env.step calls"


def gymnasium_heuristic(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """One learning seat with masked random actions against ``heuristic`` bots: the learner's steps."""
    number, calls, elapsed = seat_env_hands(SeatEnv(rules, "heuristic", seat=0, players=rules.players), seconds)
    return calls, elapsed, f"{number} hands"


def worker_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` (Linux ``/proc``; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


class Vector:
    """``SyncVectorEnv`` or ``AsyncVectorEnv`` of ``SeatEnv`` against ``heuristic`` bots, masked random
    actions per sub-environment, default next-step autoreset; kept across rounds (one set of workers).

    Steps are the learners' decisions (the autoreset steps, whose actions are discarded, are not
    counted). With ``--clock cpu`` the asynchronous workers' CPU time is added to this process's."""

    def __init__(self, kind: type[SyncVectorEnv] | type[AsyncVectorEnv], rules: Rules, count: int) -> None:
        self.env: VectorEnv = kind([lambda: SeatEnv(rules, "heuristic", seat=0, players=rules.players)] * count)
        self.count = count
        self.rng = np.random.default_rng(1)
        self.observations, _ = self.env.reset(seed=list(range(count)))
        self.resetting = np.zeros(count, dtype=bool)
        processes = getattr(self.env, "processes", [])
        self.pids = [process.pid for process in processes]

    def clock(self) -> float:
        """This process's clock, plus the workers' CPU seconds when the clock is CPU time."""
        return clock() + (worker_seconds(self.pids) if clock is time.process_time else 0.0)

    def run(self, rules: Rules, seconds: float) -> tuple[int, float, str]:
        """Step every sub-environment at once for ``seconds``."""
        steps, hands, calls, start = 0, 0, 0, self.clock()
        while self.clock() - start < seconds:
            masks = self.observations["action_mask"]
            actions = np.array([self.rng.choice(np.flatnonzero(mask)) for mask in masks])
            self.observations, _, terminated, truncated, _ = self.env.step(actions)
            steps += self.count - int(self.resetting.sum())
            self.resetting = terminated | truncated
            hands += int(self.resetting.sum())
            calls += 1
        return steps, self.clock() - start, f"{self.count} envs, {calls} vector steps, {hands} hands"

    def close(self) -> None:
        """End the workers."""
        self.env.close()


def openspiel(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """``python_ofc`` with uniform chance and masked random actions."""
    game = pyspiel.load_game("python_ofc", {"variant": rules.variant.value, "players": rules.players})
    rng = random.Random(1)
    steps, chance, start, number = 0, 0, clock(), 0
    while clock() - start < seconds:
        state = game.new_initial_state()
        number += 1
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps, clock() - start, f"{number} hands, {chance} chance nodes"


BEFORE = "f0dc473"
"""The last commit whose OpenSpiel adapter rebuilt the engine hand after every chance deal."""

CHILD = """
from __future__ import annotations
import random, sys, time
import pyspiel
import ofc, ofc.env.spiel
from ofc.rules.rulebook import Rules
print(ofc.__file__, flush=True)
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter
rules = Rules.preset(sys.argv[1]).with_settings({"players": int(sys.argv[2])})
%s
for line in sys.stdin:
    steps, elapsed, note = openspiel(rules, float(line))
    print(steps, elapsed, note, flush=True)
"""
"""The child's program: this file's ``openspiel`` (its source) over the worktree's ``ofc``, one run per line read."""


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """``revision`` checked out (detached) in a temporary git worktree of this repository, removed after."""
    repository = Path(__file__).resolve().parents[1]
    where = Path(tempfile.mkdtemp(prefix="ofc-before-"))
    subprocess.run(
        ["git", "-C", str(repository), "worktree", "add", "--detach", str(where), revision],
        check=True,
        capture_output=True,
    )
    try:
        yield where
    finally:
        subprocess.run(["git", "-C", str(repository), "worktree", "remove", "--force", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


class BeforeChild:
    """A child process running ``openspiel`` over the ``ofc`` checked out at ``tree``."""

    def __init__(self, tree: Path, rules: Rules, clock_name: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        program = CHILD % inspect.getsource(openspiel)
        args = [sys.executable, "-c", program, rules.variant.value, str(rules.players), clock_name]
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        loaded = self.process.stdout.readline().strip()
        if not loaded.startswith(str(tree)):
            raise SystemExit(f"the child process loaded ofc from {loaded!r}, not from the worktree {tree}")

    def run(self, rules: Rules, seconds: float) -> tuple[int, float, str]:
        """The child's ``openspiel(rules, seconds)``."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        steps, elapsed, note = self.process.stdout.readline().split(" ", 2)
        return int(steps), float(elapsed), note.strip()

    def close(self) -> None:
        """End the child (it stops when its input closes)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main() -> None:
    """Warm up, time each interface for ``--seconds`` in ``--rounds`` interleaved slices, print rates and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pineapple", choices=["classic", "turbo", "pineapple"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per interface, over all rounds")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--clock", choices=["cpu", "wall"], default="cpu", help="CPU time of this process, or wall time"
    )
    parser.add_argument("--envs", type=int, default=4, help="sub-environments of each vector environment")
    parser.add_argument(
        "--before", default=BEFORE, help="commit whose OpenSpiel adapter to measure too ('none': skip it)"
    )
    options = parser.parse_args()
    if options.before == "none":
        measure(options, None)
        return
    with worktree(options.before) as tree:
        measure(options, tree)


def measure(options: argparse.Namespace, tree: Path | None) -> None:
    """Warm up, run the rounds and print the table (OpenSpiel at ``tree`` too, unless None)."""
    global clock  # one switch for every timed loop
    clock = time.process_time if options.clock == "cpu" else time.perf_counter
    rules = Rules.preset(options.variant).with_settings({"players": options.players})
    runs: list[tuple[str, Callable[[Rules, float], tuple[int, float, str]]]] = [
        ("raw engine", raw_engine),
        ("engine + views, vectors", engine_and_views),
        ("PettingZoo AECEnv", pettingzoo),
        ("PettingZoo, engine table", lambda rules, seconds: pettingzoo(rules, seconds, compiled=False)),
        ("PettingZoo ParallelEnv", parallel),
        ("Gymnasium SeatEnv", gymnasium),
        ("SeatEnv vs heuristic", gymnasium_heuristic),
        ("OpenSpiel python_ofc", openspiel),
    ]
    vectors = [Vector(SyncVectorEnv, rules, options.envs), Vector(AsyncVectorEnv, rules, options.envs)]
    runs.append((f"SyncVectorEnv x{options.envs}", vectors[0].run))
    runs.append((f"AsyncVectorEnv x{options.envs}", vectors[1].run))
    before = f"OpenSpiel, {options.before[:8]}"
    child = BeforeChild(tree, rules, options.clock) if tree is not None else None
    if child is not None:
        runs.append((before, child.run))
    for _, run in runs:
        run(rules, 0.3)  # warm up (imports, caches)
    rounds = max(1, options.rounds)
    steps = dict.fromkeys((name for name, _ in runs), 0)
    spent = dict.fromkeys(steps, 0.0)
    notes: dict[str, list[str]] = {name: [] for name in steps}
    ratios: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(rounds):
        engine_rate = 0.0
        for name, run in runs:
            done, elapsed, note = run(rules, options.seconds / rounds)
            steps[name] += done
            spent[name] += elapsed
            notes[name].append(note)
            engine_rate = engine_rate or done / elapsed
            ratios[name].append(engine_rate / (done / elapsed))
    table = f"{options.variant}, {options.players} players"
    print(f"{table}, random policy, {options.clock} time, {rounds} interleaved rounds:")
    for name in steps:
        rate = steps[name] / spent[name]
        ratio = statistics.median(ratios[name])
        spread = f"{min(ratios[name]):.2f}-{max(ratios[name]):.2f}"
        times = f"{ratio:4.2f}x the engine's time per step, rounds {spread}"
        print(f"  {name:24} {rate:9,.0f} steps/s  ({times}; last round {notes[name][-1]})")
    for vector in vectors:
        vector.close()
    if child is not None:
        child.close()
        spiel = "OpenSpiel python_ofc"
        speedups = [was / now for was, now in zip(ratios[before], ratios[spiel], strict=True)]
        spread = f"{min(speedups):.2f}-{max(speedups):.2f}"
        speedup = statistics.median(speedups)
        print(f"OpenSpiel decisions/s now over {options.before[:8]}'s: {speedup:.2f}x (rounds {spread})")
        print(f"target: OpenSpiel at least 4x its rate before the chance step: {'met' if speedup >= 4 else 'not met'}")
    zoo = "PettingZoo AECEnv"
    met = steps[zoo] / spent[zoo] >= 20_000 and statistics.median(ratios[zoo]) <= 3
    verdict = ("met" if met else "not met") if table == "pineapple, 3 players" else "run it with pineapple, 3 players"
    target = "PettingZoo at least 20,000 steps/s and within 3x of the raw engine (pineapple, 3 players)"
    print(f"target: {target}: {verdict}")


if __name__ == "__main__":
    main()
