"""The worth of a repeat fantasy in points: the solver's default stay value (no heavy imports).

Kept apart from ``ofc.solver`` so that the command line can show it without loading the
solver's kernels.
"""

from __future__ import annotations

DEFAULT_STAY_VALUE = 12.0
"""Points a repeat fantasy is worth, by default.

Measured by simulation (``benchmarks/bench_bots.py --part stay``, docs/bots.md): each deal is
played twice from the same deck, once by a player in fantasy and once by the same player in a
normal hand, against the same opponent; the difference is what one fantasy hand is worth.
Against the ``mc`` bot it came to 12.2 +/- 0.8 points in pineapple, 11.4 +/- 0.8 in classic and
10.5 +/- 0.8 in turbo (14.2, 12.7 and 11.0 against ``heuristic``), so 12. Pass ``stay_value``
(``--stay-value``) to price a repeat differently.
"""
