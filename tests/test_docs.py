"""The docs say what the code does: links lead somewhere, ``ofc.`` names import, the royalty
tables of docs/rules.md are the ones scoring uses, and the README's layout is the package's.

The research notebooks (docs/research/) are kept as they were written, so their links and
names are not checked.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from ofc.rules.ranking import Category
from ofc.rules.royalties import ROYALTY_TABLES
from ofc.rules.variants import Scoring

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
NOT_MODULES = {"ofc.db", "ofc.example.org", "ofc.language"}
"""Words that look like ``ofc.`` names but are a file, a host name and a browser storage key."""


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_relative_links_lead_to_files(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [target for target in targets if "://" not in target and not (document.parent / target).exists()]
    assert missing == []


def resolves(name: str) -> bool:
    """Whether ``name`` is a module, or a module followed by attributes, that exists."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                value = getattr(value, attribute)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_ofc_names_exist(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    found = {name.rstrip(".") for name in re.findall(r"(?<![\w/.-])ofc\.[A-Za-z_][\w.]*", text)}
    assert sorted(name for name in found - NOT_MODULES if not resolves(name)) == []


def table(markdown: str, heading: str) -> dict[str, tuple[int, int]]:
    """The rows ``hand | classic | american`` of the first table after ``heading``."""
    after = markdown[markdown.index(heading) :]
    block = after[: after.index("\n\n", after.index("|"))]
    rows = re.findall(r"^\| ([a-z ]+) \| (\d+) \| (\d+) \|$", block, re.M)
    return {hand: (int(classic), int(american)) for hand, classic, american in rows}


def royalty(scoring: Scoring, row: str, hand: str) -> int:
    royalties = ROYALTY_TABLES[scoring]
    if hand == "royal flush":
        return royalties.bottom_royal if row == "bottom" else royalties.middle_royal
    category = {
        "three of a kind": Category.TRIPS,
        "straight": Category.STRAIGHT,
        "flush": Category.FLUSH,
        "full house": Category.FULL_HOUSE,
        "four of a kind": Category.QUADS,
        "straight flush": Category.STRAIGHT_FLUSH,
    }[hand]
    return (royalties.bottom if row == "bottom" else royalties.middle)[category]


RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("row", ["bottom", "middle"])
def test_rules_md_five_card_royalties_are_the_scoring_tables(row: str) -> None:
    printed = table(RULES_MD, "Bottom row:" if row == "bottom" else "Middle row (")
    assert len(printed) == (6 if row == "bottom" else 7)
    for hand, (classic, american) in printed.items():
        assert (classic, american) == (royalty(Scoring.CLASSIC, row, hand), royalty(Scoring.AMERICAN, row, hand))
    assert printed["royal flush"] == ((15, 25) if row == "bottom" else (30, 50))


def test_rules_md_top_royalties_are_the_scoring_tables() -> None:
    pairs = re.search(r"^\| royalty \| 1 \|.*$", RULES_MD, re.M)
    trips = re.search(r"^\| royalty \| 10 \|.*$", RULES_MD, re.M)
    assert pairs is not None
    assert trips is not None
    for scoring in (Scoring.CLASSIC, Scoring.AMERICAN):
        royalties = ROYALTY_TABLES[scoring]
        assert [int(value) for value in pairs.group(0).strip("|").split("|")[1:]] == list(royalties.top_pair[4:])
        assert [int(value) for value in trips.group(0).strip("|").split("|")[1:]] == list(royalties.top_trips)


def test_readme_layout_is_the_package() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("src/ofc/\n") : readme.index("tests/ ")]
    listed = re.findall(r"^  (\w+)/", layout, re.M)
    packages = sorted(
        path.name for path in (ROOT / "src" / "ofc").iterdir() if path.is_dir() and path.name != "__pycache__"
    )
    assert sorted(listed) == packages
    servers = sorted(
        path.name
        for path in (ROOT / "src" / "ofc" / "server").iterdir()
        if path.is_dir() and path.name != "__pycache__"
    )
    assert servers == ["api", "db", "decisions", "net", "tables"]
    assert all(f"{name}/ (" in layout for name in servers)
