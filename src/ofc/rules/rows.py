"""The three rows of a board: their order, sizes and names (``Row.parse`` reads what people type)."""

from __future__ import annotations

from enum import IntEnum

from ofc.rules.errors import UnknownRow
from ofc.rules.terms import NC_, Term


class Row(IntEnum):
    """The three rows of a board, top first."""

    TOP = 0
    MIDDLE = 1
    BOTTOM = 2

    @property
    def size(self) -> int:
        """Cards the row holds when full."""
        return ROW_SIZES[self]

    @property
    def label(self) -> str:
        """Lower-case name: ``top``, ``middle`` or ``bottom``."""
        return self.name.lower()

    @property
    def term(self) -> Term:
        """The row's name as a word the faces translate."""
        return ROW_TERMS[self]

    @staticmethod
    def parse(text: str) -> Row:
        """Read a row name (``top``, ``middle``, ``bottom``; ``mid``/``bot`` too, any case)."""
        key = text.strip().lower()
        row = _ROW_WORDS.get(key)
        if row is None:
            raise UnknownRow("unknown row {text!r}: rows are top, middle, bottom", text=text)
        return row


ROWS: tuple[Row, Row, Row] = (Row.TOP, Row.MIDDLE, Row.BOTTOM)
ROW_TERMS: tuple[Term, Term, Term] = (NC_("row", "top"), NC_("row", "middle"), NC_("row", "bottom"))
ROW_SIZES: tuple[int, int, int] = (3, 5, 5)
ROW_INDEXES = frozenset(ROWS)
"""What a placement's row may be besides a ``Row``: its index (``Hand.check`` accepts either)."""
_ROW_WORDS = {
    "top": Row.TOP, "t": Row.TOP,
    "middle": Row.MIDDLE, "mid": Row.MIDDLE, "m": Row.MIDDLE,
    "bottom": Row.BOTTOM, "bot": Row.BOTTOM, "b": Row.BOTTOM,
}  # fmt: skip
