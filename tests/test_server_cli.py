"""``ofc serve`` on the command line: its options and the default database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ofc.cli.serve_cmd import flag_settings
from ofc.server.db.storage import default_url
from ofc.server.net.ratelimit import RULES
from ofc.server.settings import ServerSettings
from support.launch import ServerStartError, free_port, start_server


def test_serve_help_lists_its_options() -> None:
    done = subprocess.run([sys.executable, "-m", "ofc", "serve", "--help"], capture_output=True, text=True, check=True)
    for option in ("--host", "--port", "--db", "--pause", "--bot-delay"):
        assert option in done.stdout


def test_the_default_database_lives_in_ofc_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OFC_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'ofc.db'}"
    monkeypatch.delenv("OFC_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / '.local' / 'share' / 'ofc' / 'ofc.db'}"


def test_a_server_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(ServerStartError, match=r"ofc serve ended at start:\n(.|\n)*Error"):
        start_server("nosuchdb://x", free_port(), tmp_path)


def test_no_rate_limits_turns_every_limit_off_and_a_flag_not_given_keeps_the_default() -> None:
    """``--no-rate-limits`` reaches the settings (its None is a value); flags left out keep their defaults."""
    off = flag_settings({"port": 8123, "seed": None}, rate_limits=False)
    assert off.rate_limits is None
    assert off.port == 8123
    assert off.seed is None
    on = flag_settings({"port": None}, rate_limits=None)
    assert on.rate_limits == dict(RULES)
    assert on.port == ServerSettings().port
