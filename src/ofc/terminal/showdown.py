"""The showdown after a hand and the match ledger (pure: view and numbers in, text out).

Each seat gets three lines, one a row, and a line of results::

    you         top    Qh Qd 2c        Pair, queens                   7
    +12         middle 9h 9d 9c 3s 4s  Trips, nines                   2
                bottom As Ks Js 8s 2s  Flush, ace high                4
                royalties 13; +12 vs heuristic; fantasy next hand: 13 cards
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.text import Text

from ofc.engine.view import HandView
from ofc.i18n import tr, trn
from ofc.rules.rows import ROWS
from ofc.rules.scoring import PlayerScore
from ofc.terminal import cardtext
from ofc.terminal.render import short_name
from ofc.terminal.words import hand_text, points_text, row_word, scoring_text

NAME = 13
CARDS = 15
HAND = 31


def showdown_lines(view: HandView, names: Sequence[str], hand_number: int) -> list[Text]:
    """The boards with hand names and royalties, then each seat's results."""
    result = view.result
    if result is None:
        return [Text(tr("Hand {number} is not over yet.", number=hand_number))]
    heading = tr("Hand {number}: showdown ({scoring})", number=hand_number, scoring=scoring_text(view.rules))
    lines = [Text(heading, style="bold")]
    width = max(len(row_word(row)) for row in ROWS) + 1  # "middle " in English, "середній " in Ukrainian
    for seat, (board, line) in enumerate(zip(result.boards, result.sheet.players, strict=True)):
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        pays = (line.royalties.top, line.royalties.middle, line.royalties.bottom)
        left = (short_name(names[seat]), points_text(line.points), tr("FOULED") if line.fouled else "")
        for row in ROWS:
            text = Text(left[row].ljust(NAME), style="bold red" if row == 2 and line.fouled else "bold")
            text.append(row_word(row).ljust(width))
            cells = cardtext.cards(sorted(board.row(row.label), reverse=True))
            text.append_text(cells)
            text.append(" " * (CARDS - cells.cell_len))
            text.append(hand_text(keys[row]).ljust(HAND), style="dim" if line.fouled else "")
            text.append(f"{pays[row]:>2}" if pays[row] else "")
            text.rstrip()
            lines.append(text)
        lines.append(Text(" " * NAME + results_text(seat, line, names)))
    return lines


def results_text(seat: int, line: PlayerScore, names: Sequence[str]) -> str:
    """``royalties 13; +12 vs bob, -3 vs cat; fantasy next hand: 14 cards``."""
    versus = ", ".join(
        tr("{points} vs {name}", points=cardtext.signed(points), name=short_name(names[other]))
        for other, points in enumerate(line.vs)
        if other != seat
    )
    text = tr("royalties {royalties}; {versus}", royalties=line.royalties.total, versus=versus)
    if line.fantasy:
        text += trn("; fantasy next hand: {n} card", "; fantasy next hand: {n} cards", line.fantasy)
    return text


def ledger_text(names: Sequence[str], points: Sequence[Fraction], money: Sequence[Fraction]) -> str:
    """``you +12 (+12.00), bob -12 (-12.00)``: points, then money in brackets."""
    return ", ".join(
        f"{short_name(name)} {cardtext.signed(p)} ({cardtext.money(m)})"
        for name, p, m in zip(names, points, money, strict=True)
    )


def ledger_lines(
    names: Sequence[str], points: Sequence[Fraction], money: Sequence[Fraction], hands: int, point_value: Fraction
) -> list[Text]:
    """The match ledger after ``hands`` hands, in points and money."""
    value = cardtext.money(point_value).lstrip("+")
    heading = trn(
        "Match after {n} hand: points (money at {value} a point)",
        "Match after {n} hands: points (money at {value} a point)",
        hands,
        value=value,
    )
    return [Text(heading, style="bold"), Text("  " + ledger_text(names, points, money))]
