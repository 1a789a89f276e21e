"""The ``pro`` bot's shipped weights: one ``(STAGES, N_FEATURES + HIDDEN_BLOCK * units)`` array per variant.

The file is ``ofc/bots/weights/pro.npz`` (written by ``ofc train``): arrays named after the
variants (``classic``, ``turbo``, ``pineapple``) plus ``fantasy_value``, the points a fantasy
entry was worth in the training targets. Reading needs numpy only. A file whose weights cover
the ``BOARD_FEATURES`` alone is widened on reading (``ofc.fast.pro_value.widen``): the live-card
features weigh 0, so it plays as it was fitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc.bots import PRO_VARIANTS, PRO_WEIGHTS_FILE
from ofc.fast.pro_value import BOARD_FEATURES, HIDDEN_BLOCK, N_FEATURES, STAGES, hidden_units, widen
from ofc.rules.errors import BotError

WEIGHTS_FILE = PRO_WEIGHTS_FILE
VARIANTS = PRO_VARIANTS


@dataclass(frozen=True)
class ProWeights:
    """Learned weights per variant and the fantasy value they were trained with."""

    by_variant: dict[str, npt.NDArray[np.float64]]
    fantasy_value: float

    def for_variant(self, variant: str) -> npt.NDArray[np.float64]:
        """The weights of ``variant``; raises ``BotError`` if the file has none."""
        if variant not in self.by_variant:
            raise BotError("the pro weights hold no model for the {variant} variant (run ofc train)", variant=variant)
        return self.by_variant[variant]

    def save(self, path: Path) -> None:
        """Write the weights as an ``.npz`` file."""
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {k: np.asarray(v, dtype=np.float64) for k, v in self.by_variant.items()}
        arrays["fantasy_value"] = np.float64(self.fantasy_value)
        with path.open("wb") as out:
            np.savez(out, **arrays)


def read_weights(path: Path) -> ProWeights:
    """Read and check a weights file; raises ``BotError`` naming the fault."""
    try:
        with np.load(path) as data:
            arrays = {name: np.array(data[name], dtype=np.float64) for name in data.files}
    except (OSError, ValueError) as error:
        raise BotError("cannot read pro weights {path}: {error}", path=path, error=error) from None
    fantasy = arrays.pop("fantasy_value", None)
    if fantasy is None:
        raise BotError("pro weights {path} lack fantasy_value", path=path)
    for name, array in arrays.items():
        if name not in VARIANTS:
            raise BotError("pro weights {path}: unknown variant {name!r}", path=path, name=name)
        staged = array.ndim == 2 and array.shape[0] == STAGES
        if staged and hidden_units(array.shape[1]) < 0 and hidden_units(array.shape[1], BOARD_FEATURES) >= 0:
            arrays[name] = widen(array)  # written before the live-card features
        elif not staged or hidden_units(array.shape[1]) < 0:
            raise BotError(
                "pro weights {path}: {name} has shape {shape}, not {value}",
                path=path,
                name=name,
                shape=array.shape,
                value=f"({STAGES}, {N_FEATURES} + {HIDDEN_BLOCK} per hidden unit)",
            )
    return ProWeights(arrays, float(fantasy))


@lru_cache(maxsize=4)
def shipped_weights(path: Path = WEIGHTS_FILE) -> ProWeights:
    """The weights shipped in the package (cached)."""
    return read_weights(path)
