"""Default settings of the heavy tools (hand analysis, the ``pro`` bot's training and weights).

They live apart from the tools, in a module that loads nothing, so the command line can show
them in its help without loading numpy or numba (``ofc --help`` stays quick).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

ANALYSIS_ROLLOUTS: Final = 600
"""Play-outs per choice priced by ``ofc analyze``."""
ANALYSIS_CANDIDATES: Final = 8
"""Choices priced per decision by ``ofc analyze``."""
ANALYSIS_FLAG: Final = 2.0
"""Losses of at least this many points are flagged by ``ofc analyze``."""

PRO_WEIGHTS_FILE: Final = Path(__file__).parent / "bots" / "weights" / "pro.npz"
"""The ``pro`` bot's shipped weights (written by ``ofc train``)."""
PRO_VARIANTS: Final = ("classic", "turbo", "pineapple")
"""The variants the ``pro`` bot is trained for."""
TRAIN_FANTASY: Final = 12.0
"""Points a fantasy entry adds to the training targets."""
TRAIN_FOUL_PENALTY: Final = 5.0
"""Points the fitted value charges per unit of estimated foul chance (``ofc.train.fit``)."""
