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
Gymnasium's ``SeatEnv`` plays one seat against ``random`` bots (every seat's decision
counted; ``env.step`` calls shown too); OpenSpiel's ``python_ofc`` draws chance cards and
masked actions through ``apply_action`` (decisions counted, chance nodes shown). Every
figure is measured in the same run, in interleaved rounds (each interface in turn, then
again) so that a shared machine's load falls on all of them alike; the ratio printed is the
median over the rounds of the engine's rate over the interface's in that round::

    .venv/bin/python benchmarks/bench_env.py [--variant pineapple] [--players 3] [--seconds 5]
        [--rounds 10] [--clock cpu]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import ofc.env.spiel  # noqa: F401  # registers python_ofc
from ofc.engine.hand import Hand
from ofc.env import SeatEnv, pettingzoo_env
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


def gymnasium(rules: Rules, seconds: float) -> tuple[int, float, str]:
    """One learning seat with masked random actions, ``random`` bots elsewhere."""
    env = SeatEnv(rules, "random", seat=0, players=rules.players)
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
    per_hand = len(rules.spec.streets) * rules.players
    return number * per_hand, clock() - start, f"{number} hands, {calls} env.step calls"


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
    options = parser.parse_args()
    global clock  # one switch for every timed loop
    clock = time.process_time if options.clock == "cpu" else time.perf_counter
    rules = Rules.preset(options.variant).with_settings({"players": options.players})
    runs: list[tuple[str, Callable[[Rules, float], tuple[int, float, str]]]] = [
        ("raw engine", raw_engine),
        ("engine + views, vectors", engine_and_views),
        ("PettingZoo AECEnv", pettingzoo),
        ("PettingZoo, engine table", lambda rules, seconds: pettingzoo(rules, seconds, compiled=False)),
        ("Gymnasium SeatEnv", gymnasium),
        ("OpenSpiel python_ofc", openspiel),
    ]
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
    zoo = "PettingZoo AECEnv"
    met = steps[zoo] / spent[zoo] >= 20_000 and statistics.median(ratios[zoo]) <= 3
    verdict = ("met" if met else "not met") if table == "pineapple, 3 players" else "run it with pineapple, 3 players"
    target = "PettingZoo at least 20,000 steps/s and within 3x of the raw engine (pineapple, 3 players)"
    print(f"target: {target}: {verdict}")


if __name__ == "__main__":
    main()
