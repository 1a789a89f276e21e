"""The terminal's warming line: said while the bots' kernels take a while to load, not otherwise."""

from __future__ import annotations

import threading

from ofc.rules.rulebook import Rules
from ofc.terminal.warming import warm_bots


def test_a_slow_warm_up_is_announced_and_its_end_said() -> None:
    said: list[str] = []
    heard = threading.Event()

    def say(text: str) -> None:
        said.append(text)
        heard.set()

    def slow_warm() -> None:  # ends only once the line was said
        assert heard.wait(300)

    assert warm_bots(Rules(), say, after=0, warm=slow_warm) is True
    assert said[0] == "Warming up the bots\u2026 (the first time only: their compiled kernels are being prepared)"
    assert said[1].startswith("The bots are ready (")
    assert len(said) == 2


def test_a_quick_warm_up_says_nothing() -> None:
    said: list[str] = []
    assert warm_bots(Rules(), said.append, after=300, warm=lambda: None) is False
    assert said == []
