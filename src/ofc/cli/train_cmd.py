"""``ofc train``: self-play data and the fit of the ``pro`` bot's value, locally or on Ray.

The training (numpy, numba, Ray) loads when the command runs, not with ``ofc --help``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ofc.bots import PRO_VARIANTS, PRO_WEIGHTS_FILE
from ofc.cli.app import app
from ofc.train import TRAIN_FANTASY, TRAIN_FOUL_PENALTY


@app.command("train")
def train_command(
    variants: Annotated[str, typer.Option("--variants", help="Comma list of variants")] = ",".join(PRO_VARIANTS),
    hands: Annotated[int, typer.Option("--hands", help="Heads-up self-play hands per round and variant")] = 20000,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds of policy iteration")] = 2,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", help="Local processes (default: all cores)")] = None,
    cluster: Annotated[
        str | None, typer.Option("--cluster", help="Ray cluster: auto, local or ray://HOST:PORT")
    ] = None,
    fantasy: Annotated[float, typer.Option("--fantasy", help="Points a fantasy entry adds")] = TRAIN_FANTASY,
    foul_penalty: Annotated[
        float, typer.Option("--foul-penalty", help="Points the value charges per unit of estimated foul chance")
    ] = TRAIN_FOUL_PENALTY,
    hidden: Annotated[
        int, typer.Option("--hidden", help="ReLU units per stage beside the linear model (0: linear only)")
    ] = 0,
    pool_rounds: Annotated[
        bool, typer.Option("--pool-rounds", help="Fit each round on the records of every round so far")
    ] = False,
    out: Annotated[Path, typer.Option("--out", help="Weights file to write")] = PRO_WEIGHTS_FILE,
) -> None:
    """Train the pro bot's value from self-play and write its weights."""
    from ofc.bots.pro_weights import ProWeights, read_weights
    from ofc.train.fit import TrainError
    from ofc.train.run import train

    names = [v.strip() for v in variants.split(",") if v.strip()]
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise TrainError("--workers must be at least 1, not {count}", count=count)
    if hidden < 0:
        raise TrainError("--hidden must be at least 0, not {hidden}", hidden=hidden)
    weights = train(
        names, hands=hands, rounds=rounds, seed=seed, workers=count, cluster=cluster, fantasy_value=fantasy,
        foul_penalty=foul_penalty, hidden=hidden, pool_rounds=pool_rounds,
        log=lambda line: typer.echo(line, err=True),
    )  # fmt: skip
    if out.exists():  # keep the variants this run did not train
        old = read_weights(out)
        weights = ProWeights({**old.by_variant, **weights.by_variant}, weights.fantasy_value)
    weights.save(out)
    typer.echo(f"wrote {out} ({', '.join(names)})")
