"""Bots' names in the player's language (issue 37): the browser's seat names for bots (state.js
``seatName``) translate the bot's kind as well as the word "bot". The modules run under Node with
the browser globals they read stubbed and the server's catalog (on standard input) handed to ``loadLanguage``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ofc.i18n.browser import catalog_document
from ofc.i18n.language import Language
from support.node import node_json

WEB = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web"
HARNESS = """
const [stateUrl, i18nUrl, seats] = process.argv.slice(1);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const catalog = Buffer.concat(chunks).toString("utf8");
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.navigator = { language: "en" };
globalThis.document = {
  documentElement: {}, getElementById: () => null, querySelector: () => null, querySelectorAll: () => [],
};
globalThis.fetch = async () => ({ ok: true, json: async () => JSON.parse(catalog) });
const i18n = await import(i18nUrl);
const state = await import(stateUrl);
await i18n.loadLanguage("xx");
state.ui.state = { table: { seats: JSON.parse(seats) } };
console.log(JSON.stringify(state.ui.state.table.seats.map((_, seat) => state.seatName(seat))));
"""

SEATS: list[dict[str, Any]] = [
    {"bot": None, "name": "аня"},
    {"bot": "heuristic", "name": "heuristic bot"},
    {"bot": "mc:seconds=1", "name": "mc bot"},
    {"bot": "heuristic", "name": "heuristic bot"},
    {"bot": "random", "name": "random bot"},
    {"bot": "pro:seconds=0.2", "name": "pro bot"},
]


def seat_names(language: Language) -> list[str]:
    catalog = json.dumps(catalog_document(language))
    names: list[str] = node_json(HARNESS, str(WEB / "state.js"), str(WEB / "i18n.js"), json.dumps(SEATS), stdin=catalog)
    return names


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["аня", "heuristic bot 1", "mc bot", "heuristic bot 2", "random bot", "pro bot"]),
        (
            "ru",
            [
                "аня",
                "бот на эвристиках 1",
                "бот Монте-Карло",
                "бот на эвристиках 2",
                "бот случайных ходов",
                "бот профи",
            ],
        ),
        (
            "uk",
            [
                "аня",
                "бот на евристиках 1",
                "бот Монте-Карло",
                "бот на евристиках 2",
                "бот випадкових ходів",
                "бот профі",
            ],
        ),
    ],
)
def test_bot_names_are_in_the_players_language(language: Language, expected: list[str]) -> None:
    names = seat_names(language)
    assert names == expected
    if language != "en":
        assert [name for name in names if re.search("[A-Za-z]", name)] == []
