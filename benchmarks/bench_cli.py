"""How long the ``ofc`` command takes to start, against the interpreter and typer in the same run.

Each command is started as a fresh process ``--runs`` times; the best time is printed with
references measured the same way: the bare interpreter (``python -c pass``) and importing the
command-line framework (``import typer``; ``import typer, rich.console`` with the tables).
Commands that need no kernels, bots or server (``ofc score --help``, ``ofc rules``) should cost
little beyond the framework (target 0.3 s on a quiet machine).

Every process may write its bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped) and one unmeasured
run of each command comes first, so the figures are those of an installed package, whose
modules are compiled once, not of a checkout compiling its sources on every start.

    .venv/bin/python benchmarks/bench_cli.py [--runs 7] [--before OTHER/.venv/bin/python]

``--before`` also starts the ``ofc`` commands with another environment's interpreter (an older
checkout with its own ``.venv``), in the same rounds, for a before-and-after under one load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "import typer (reference)": [sys.executable, "-c", "import typer"],
    "import typer, rich.console (reference)": [sys.executable, "-c", "import typer, rich.console"],
    "ofc score --help": [sys.executable, "-m", "ofc", "score", "--help"],
    "ofc rules": [sys.executable, "-m", "ofc", "rules"],
    "ofc solve --help": [sys.executable, "-m", "ofc", "solve", "fantasy", "--help"],
    "ofc --help": [sys.executable, "-m", "ofc", "--help"],
}


ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def with_before(python: str) -> dict[str, list[str]]:
    """``COMMANDS`` plus each ``ofc`` command started by ``python``, named ``... (before)``."""
    before = {
        f"{name} (before)": [python, *command[1:]] for name, command in COMMANDS.items() if name.startswith("ofc")
    }
    return {**COMMANDS, **before}


def start(command: list[str]) -> float:
    """The wall time of one fresh process running ``command``."""
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=ENVIRONMENT)
    return time.perf_counter() - began


def best_starts(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The shortest time of each command over ``runs`` rounds (each round starts every command once,
    so a burst of load on a shared machine hits the references as much as the commands)."""
    for command in commands.values():
        start(command)  # unmeasured: writes the bytecode
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, command in commands.items():
            best[name] = min(best[name], start(command))
    return best


def main() -> None:
    """Time every command and print it with its excess over importing typer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", metavar="PYTHON", help="also time the commands with this interpreter")
    options = parser.parse_args()
    commands = with_before(options.before) if options.before else COMMANDS
    times = best_starts(commands, options.runs)
    framework = times["import typer (reference)"]
    print(f"best of {options.runs} fresh processes each")
    for name, seconds in times.items():
        print(f"  {name:<40} {seconds:6.3f} s   {seconds - framework:+6.3f} s over import typer")
    for name in COMMANDS:
        if f"{name} (before)" in times:
            print(f"  {name}: {times[f'{name} (before)'] / times[name]:.1f}x faster than before")


if __name__ == "__main__":
    main()
