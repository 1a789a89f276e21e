"""How long the ``ofc`` command takes to start, against the interpreter and typer in the same run.

Each command is started as a fresh process ``--runs`` times; the best time is printed with two
references measured the same way: the bare interpreter (``python -c pass``) and importing the
command-line framework (``import typer, rich.console``). Commands that need no kernels, bots or
server (``ofc score --help``, ``ofc rules``) should cost little beyond the framework (target
0.3 s on a quiet machine).

    .venv/bin/python benchmarks/bench_cli.py [--runs 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "import typer, rich.console (reference)": [sys.executable, "-c", "import typer, rich.console"],
    "ofc score --help": [sys.executable, "-m", "ofc", "score", "--help"],
    "ofc rules": [sys.executable, "-m", "ofc", "rules"],
    "ofc solve --help": [sys.executable, "-m", "ofc", "solve", "fantasy", "--help"],
    "ofc --help": [sys.executable, "-m", "ofc", "--help"],
}


def best_start(command: list[str], runs: int) -> float:
    """The shortest wall time of ``runs`` fresh processes running ``command``."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Time every command and print it with its excess over the framework import."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    times = {name: best_start(command, options.runs) for name, command in COMMANDS.items()}
    framework = times["import typer, rich.console (reference)"]
    print(f"best of {options.runs} fresh processes each")
    for name, seconds in times.items():
        print(f"  {name:<40} {seconds:6.3f} s   {seconds - framework:+6.3f} s over the framework")


if __name__ == "__main__":
    main()
