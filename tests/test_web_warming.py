"""The browser while the server cannot serve: the lobby and a full table say the server is warming
up and no hand is dealt before it is warm; a hint slower than its budget shows "Thinking… N s",
stops the table's clocks and costs the player's clock nothing.

Real ``ofc serve`` processes and Debian's chromium driven by Playwright (see test_web_e2e). The
warm-up is made controllably slow by ``OFC_WARM_GATE``: the server warms once the test removes
the gate file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from test_web_e2e import _create_table, _lobby_as_ann, _status
from test_web_leave import _frames, _wait_for

pytestmark = pytest.mark.slow  # every test drives Chromium against a server process


def test_the_lobby_shows_the_warm_up_and_no_hand_starts_before_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = tmp_path / "warming"
    gate.write_text("")
    monkeypatch.setenv("OFC_WARM_GATE", str(gate))
    errors: list[str] = []
    seen: list[dict[str, Any]] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _frames(page, seen)
        base = page.url.split("#")[0]
        page.wait_for_selector("#warming:not([hidden]):text-matches('^Warming up, [0-9]+ s: tables can be set up now')")
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off")
        page.wait_for_url("**/#/table/1")
        _status(page, "^Warming up, \\d+ s: the first hand is dealt once the bots are ready; no clock runs meanwhile")
        listing = page.request.get(base + "api/tables").json()
        assert [(t["status"], t["open_seats"]) for t in listing["tables"]] == [("waiting", [])]
        assert isinstance(listing["warming"], int)
        states = [m for m in seen if m["type"] == "state"]
        assert states
        assert all(m["hand"] is None and m["warming"] is not None for m in states)
        assert page.request.get(base + "api/health").status == 503
        gate.unlink()  # now the server warms its workers
        _status(page, "your turn|waiting for")
        assert page.request.get(base + "api/tables").json()["tables"][0]["status"] == "playing"
        first = next(m for m in seen if m["type"] == "state" and m["hand"] is not None)
        assert (first["warming"], first["hand_number"]) == (None, 0)
        page.goto(base + "#/")
        page.wait_for_selector("#lobby:not([hidden])")
        page.wait_for_selector("#warming", state="hidden")  # warm: the lobby's line is gone
    assert errors == []


def test_a_hint_slower_than_its_budget_shows_thinking_and_costs_no_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OFC_HINT_BUDGET", "0")  # every hint holds the table at once
    errors: list[str] = []
    seen: list[dict[str, Any]] = []
    slow = ("--hint-bot", "pro:seconds=2")  # each hint thinks 2 s on the server
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0", *slow) as page:
        _frames(page, seen)
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off", hand_seconds="900")
        page.wait_for_url("**/#/table/1")
        _status(page, "your turn")
        seen.clear()
        page.click("#hint")
        page.wait_for_selector("#advice:text-matches('^Thinking\u2026 [0-9]+ s: your clock is stopped meanwhile[.]$')")
        hint = _wait_for(seen, page, "hint")
        assert float(hint["held"]) > 0
        states = [m for m in seen if m["type"] == "state"]
        held = next(m for m in states if m["held"])
        after = [m for m in states if not m["held"] and seen.index(m) > seen.index(held)][-1]
        mine = held["hand"]["seat"]
        stopped, running = held["hand"]["seats"][mine]["clock"], after["hand"]["seats"][mine]["clock"]
        assert (stopped["running"], running["running"]) == (False, True)
        assert (running["hand"], running["bank"]) == (stopped["hand"], stopped["bank"])  # no second charged
        page.wait_for_selector("#notice:text-matches('^The answer took longer than usual: no clock ran for')")
        assert not (page.text_content("#advice") or "").startswith("Thinking")
    assert errors == []
