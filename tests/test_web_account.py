"""Accounts that travel (issue 14): sign in with the player key on another browser.

The route on its own (``POST /api/players/{name}/signin``), then two chromium contexts (two
browsers' storages): ann joins in the first, copies her key, signs in on the second, sees
her balance and her table under "Your tables", and joins a new table there under her name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from support.server import create_table, join, make_app
from test_web_e2e import _create_table, _lobby_as_ann, _status, second_player


def test_sign_in_answers_balance_and_tables_only_for_the_right_key(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        table = create_table(client, preset="classic", seats=2, bots=[None, "x"])
        key = join(client, table["id"], "ann", 0)["player_key"]
        wrong = client.post("/api/players/ann/signin", json={"key": key + "x"})
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "bad_key"
        missing = client.post("/api/players/bob/signin", json={"key": key})
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "no_player"
        assert client.post("/api/players/ann/signin", json={}).status_code == 422
        right = client.post("/api/players/ann/signin", json={"key": key})
        assert right.status_code == 200
        body = right.json()
        # a new player starts with 1000; a table without a loss limit holds nothing back
        assert body["name"] == "ann"
        assert body["balance"] == "1000"
        assert [(t["id"], t["your_seats"]) for t in body["tables"]] == [(table["id"], [0])]
        assert "key" not in body
        assert key not in right.text


@pytest.mark.slow
def test_sign_in_with_the_key_on_a_second_browser(tmp_path: Path) -> None:
    errors: list[str] = []
    with _lobby_as_ann(tmp_path, errors, "--pause", "60", "--bot-delay", "0") as page:
        _create_table(page, preset="classic", seats="2", seat1="random", fantasy="off")
        page.wait_for_url("**/#/table/1")
        _status(page, "your turn")
        base = page.url.split("#")[0]
        page.goto(base + "#/")
        page.wait_for_selector("#lobby:not([hidden])")
        key = page.input_value("#my-key")
        assert len(key) > 10
        assert page.is_enabled("#copy-key")
        second = second_player(page, "ann", errors)
        assert second.input_value("#my-key") == ""
        # without the key the name is someone else's
        second.fill("#signin-key", key + "nope")
        second.click("#signin button[type=submit]")
        second.wait_for_selector("#key-note:text-matches('not the player key of ann')")
        second.fill("#signin-key", key)
        second.click("#signin button[type=submit]")
        second.wait_for_selector("#key-note:text-matches('Signed in as ann')")
        assert "1 table with your seat" in (second.text_content("#key-note") or "")
        assert second.input_value("#my-key") == key
        second.wait_for_selector("#balance:text-matches('balance 1,000.00')")
        second.click("#lobby-views button[data-view=mine]")
        assert second.locator(".table-row").count() == 1
        # with the key, joining a new table under the name works on the second browser
        _create_table(second, preset="classic", seats="2", seat1="random", fantasy="off")
        second.wait_for_url("**/#/table/2")
        _status(second, "your turn")
        second.context.close()
    assert errors == []
