"""The ``ofc`` command: one module per command, all registered on ``ofc.cli.app.app``."""

from __future__ import annotations

import ofc.cli.keep_cmd  # registers `ofc keep`
import ofc.cli.play_cmd  # registers `ofc play`
import ofc.cli.replay_cmd  # registers `ofc replay`
import ofc.cli.serve_cmd  # registers `ofc serve`
import ofc.cli.simulate_cmd  # registers `ofc simulate`
import ofc.cli.solve_cmd  # registers `ofc solve`
import ofc.cli.tournament_cmd  # noqa: F401  (registers `ofc tournament`)
from ofc.cli import rules_cmd, score_cmd
from ofc.cli.app import app, main

__all__ = ["app", "main", "rules_cmd", "score_cmd"]
