"""The tables every evaluation and play-out kernel reads, as one value."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]


class KernelTables(NamedTuple):
    """The evaluation tables (``ofc.fast.tables.EvalTables``) and one royalty table's arrays."""

    weight: I32
    bit: I32
    unsuited5: I32
    flush5: I32
    unsuited3: I32
    top: I32
    middle: I32
    bottom: I32
