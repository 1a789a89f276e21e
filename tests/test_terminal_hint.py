"""The terminal's hint speaks with the bot's one voice (issue 37): the numbers it prints are the
ones its choices are ranked by, said in one line; below the floor of play-outs it is unsure and
prints no number."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from ofc.bots.hint import HINT_FLOOR
from ofc.bots.pro import ProBot
from ofc.engine.hand import Hand
from ofc.i18n import Language, use_language
from ofc.rules.rulebook import Rules
from ofc.terminal.face import Face, LeaveMatch
from ofc.terminal.render import Table
from ofc.terminal.turn import Turn
from test_terminal_game import Script

NUMBER = re.compile(r"[+-]\d+[.,]\d\d")


def hint_screen(rollouts: int, language: Language = "en") -> tuple[str, ProBot]:
    """What the screen shows after ``hint`` on the first street of a pineapple hand, the adviser
    playing ``rollouts`` play-outs a choice."""
    hand = Hand(Rules.preset("pineapple"), button=1, seed=5)
    out = io.StringIO()
    face = Face(Console(file=out, width=200, color_system=None), Script(["hint"]))
    adviser = ProBot(rollouts=rollouts, seconds=None, seed=1)
    turn = Turn(face, hand, 0, Table(("me", "bot"), 1, ""), advisor=lambda: adviser)
    with use_language(language), pytest.raises(LeaveMatch):
        turn.play()
    return out.getvalue(), adviser


def test_the_hint_prints_the_numbers_it_ranks_by_and_says_so() -> None:
    screen, adviser = hint_screen(HINT_FLOOR)
    shown = [f"{choice.score:+.2f}" for choice in adviser.last_choices[:3]]
    hint = next(line for line in screen.splitlines() if line.startswith("hint: "))
    assert hint.endswith(f"; expected {shown[0]} points")
    assert [line.split("; expected ")[1].split(",")[0] for line in screen.splitlines() if line.startswith("  2. ")] == [
        shown[1]
    ]
    assert [line.split("; expected ")[1].split(",")[0] for line in screen.splitlines() if line.startswith("  3. ")] == [
        shown[2]
    ]
    assert shown == sorted(shown, key=float, reverse=True)
    assert "  ranked by expected points less a charge for the risk of fouling" in screen.splitlines()


@pytest.mark.parametrize(
    ("language", "unsure"),
    [
        ("en", "; unsure: too few play-outs to put a number on it"),
        ("ru", "; без уверенности: слишком мало розыгрышей для оценки"),
        ("uk", "; без певності: замало розіграшів для оцінки"),
    ],
)
def test_below_the_floor_the_hint_is_unsure_and_prints_no_number(language: Language, unsure: str) -> None:
    screen, _ = hint_screen(HINT_FLOOR - 1, language)
    lines = [line for line in screen.splitlines() if line.strip()]
    first = next(i for i, line in enumerate(lines) if unsure in line)
    notes = lines[first : first + 3]
    assert [NUMBER.findall(line) for line in notes] == [[], [], []]
    assert re.fullmatch(r"  2\. .+", notes[1])
    assert re.fullmatch(r"  3\. .+", notes[2])
