"""``python -m ofc``: the same as the ``ofc`` command."""

from __future__ import annotations

from ofc.cli.app import main

main()
