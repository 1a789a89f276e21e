"""The ``ofc`` command: one module per command, each registering itself on ``ofc.cli.app.app``.

``ofc.cli.app.main`` imports only the module of the command being run (see ``COMMAND_MODULES``).
"""

from __future__ import annotations

from ofc.cli.app import COMMAND_MODULES, app, main, register

__all__ = ["COMMAND_MODULES", "app", "main", "register"]
