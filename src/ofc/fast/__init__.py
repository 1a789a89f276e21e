"""Fast kernels (numba): batch evaluation, board keys, fouls, royalties, the fantasy search.

This package is the only place numba is imported. Every kernel mirrors the pure-Python core
(``ofc.rules.ranking``, ``ofc.rules.scoring``) and is tested equal to it.
"""

from __future__ import annotations

from ofc.fast.boards import board_keys, fouls, fouls_of_keys, royalties, royalties_of_keys
from ofc.fast.evaluate import eval3, eval5

__all__ = ["board_keys", "eval3", "eval5", "fouls", "fouls_of_keys", "royalties", "royalties_of_keys"]
