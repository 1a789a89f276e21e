"""One minus sign on every page (issue 37): ``i18n.js`` writes every negative number it formats
with the typographic minus (U+2212), whatever ``Intl`` writes for the language, and the signs
of points, amounts and the showdown's breakdown follow. Run under Node with the few browser
globals ``i18n.js`` reads stubbed (English, no catalogue).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.node import node_json

WEB = Path(__file__).resolve().parent.parent / "src" / "ofc" / "web"
HARNESS = """
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.navigator = { language: "en" };
globalThis.document = { documentElement: {} };
const i18n = await import(process.argv[1]);
const util = await import(process.argv[2]);
console.log(JSON.stringify([
  [-12, 0, 7, 1234.5].map(i18n.formatNumber),
  [-12, 0, 7].map(i18n.formatSigned),
  ["-3.50", "0", "12.25", "-1"].map(i18n.formatAmount),
  ["-3.50", "0", "12.25"].map(i18n.formatSignedAmount),
  [-4, "-1", 2].map(util.signed),
  ["-5", "\\u22125", "\\u200e-5", "5", "a-b"].map(i18n.withMinus),
]));
"""


def _run() -> list[list[Any]]:
    result: list[list[Any]] = node_json(HARNESS, str(WEB / "i18n.js"), str(WEB / "util.js"))
    return result


def test_every_negative_number_takes_the_typographic_minus() -> None:
    m = "\u2212"
    assert _run() == [
        [f"{m}12", "0", "7", "1,234.5"],
        [f"{m}12", "0", "+7"],
        [f"{m}3.50", "0", "12.25", f"{m}1"],
        [f"{m}3.50", "0", "+12.25"],
        [f"{m}4", f"{m}1", "+2"],
        [f"{m}5", f"{m}5", f"{m}5", "5", "a-b"],
    ]
