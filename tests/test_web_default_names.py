"""Distinct default names: two bots of one kind get numbers (state.js ``seatName``), a table left
unnamed is named after its game and host (lobby.js ``defaultTableName``), and the loss-limit
field's label says what an empty field gives (the server's default with a person's seat, none
with bots only). The browser modules run under Node, with the browser globals they read stubbed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ofc.i18n.catalog import read_catalog
from ofc.i18n.language import Language
from support.node import node_json
from support.server import create_table, make_app

WEB = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web"
HARNESS = """
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.sessionStorage = globalThis.localStorage;
globalThis.navigator = { language: "en" };
globalThis.document = { documentElement: {}, getElementById: () => null, querySelector: () => null };
const state = await import(process.argv[1]);
const lobby = await import(process.argv[2]);
state.ui.state = { table: { seats: JSON.parse(process.argv[3]) } };
const names = state.ui.state.table.seats.map((_, seat) => state.seatName(seat));
names.push(state.seatName(9));
const tables = [lobby.defaultTableName("Pineapple", "ann"), lobby.defaultTableName("Classic", "")];
console.log(JSON.stringify([names, tables]));
"""


def _node(seats: list[dict[str, Any]]) -> list[list[str]]:
    result: list[list[str]] = node_json(HARNESS, str(WEB / "state.js"), str(WEB / "lobby.js"), json.dumps(seats))
    return result


def test_bots_of_one_kind_get_numbers_and_an_unnamed_table_its_game_and_host() -> None:
    seats: list[dict[str, Any]] = [
        {"bot": None, "name": "ann"},
        {"bot": "heuristic", "name": "heuristic bot"},
        {"bot": "mc:seconds=1", "name": "mc:seconds=1 bot"},
        {"bot": "heuristic", "name": "heuristic bot"},
    ]
    names, tables = _node(seats)
    assert names == ["ann", "heuristic bot 1", "mc bot", "heuristic bot 2", "seat 10"]
    assert tables == ["Pineapple, ann", "Classic, bots"]


def test_the_new_names_are_translated() -> None:
    languages: tuple[tuple[Language, str, str], ...] = (
        ("ru", "бот {kind} {number}", "{game}, боты"),
        ("uk", "бот {kind} {number}", "{game}, боти"),
    )
    for language, bot, bots in languages:
        catalog = read_catalog(language, "web")
        numbered, unnamed = catalog.get("{kind} bot {number}"), catalog.get("{game}, bots")
        assert numbered is not None
        assert numbered.string == bot
        assert unnamed is not None
        assert unnamed.string == bots


def test_the_loss_limit_label_says_what_an_empty_field_gives(tmp_path: Path) -> None:
    page = (WEB / "index.html").read_text(encoding="utf-8")
    label = re.search(r'<span data-i18n="(Loss limit[^"]*)">', page)
    assert label is not None
    assert label.group(1) == "Loss limit (points, empty: the server's default; none with bots only)"
    assert 'value="my table"' not in page
    with TestClient(make_app(tmp_path)) as client:
        person = create_table(client, name="evening", preset="classic", seats=2, bots=[None, "random"])
        bots = create_table(client, name="bots", preset="classic", seats=2, bots=["random", "random"])
    assert person["rules"]["loss_limit"] == 200  # the server's default (ServerSettings.loss_limit)
    assert bots["rules"]["loss_limit"] is None
