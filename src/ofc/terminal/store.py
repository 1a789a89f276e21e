"""Where finished hands are saved: one hand-history JSON file per hand.

The folder is ``$OFC_HOME/hands`` when ``OFC_HOME`` is set, else ``$XDG_DATA_HOME/ofc/hands``,
else ``~/.local/share/ofc/hands``. A file is named by the match's start time (UTC) and the
hand's number, ``20261129-122301-hand01.json``, so the files sort in the order played.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from ofc.engine.hand import Hand
from ofc.formats.history import TournamentFields, write_text
from ofc.rules.errors import OfcError


class StoreError(OfcError, OSError):
    """A hand history could not be written."""


def hands_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The folder for hand histories (see the module docstring)."""
    env = os.environ if environ is None else environ
    if env.get("OFC_HOME"):
        return Path(env["OFC_HOME"]).expanduser() / "hands"
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]).expanduser() / "ofc" / "hands"
    return Path.home() / ".local" / "share" / "ofc" / "hands"


class HandStore:
    """Saves the hands of one match, started at ``started``, into ``folder``."""

    def __init__(self, folder: Path, started: datetime) -> None:
        self.folder = folder
        self.stem = started.strftime("%Y%m%d-%H%M%S")

    def save(
        self, hand: Hand, names: Sequence[str], number: int, *, viewer: int, tournament: TournamentFields | None = None
    ) -> Path:
        """Write ``viewer``'s copy of ``hand`` (hand ``number`` of the match, from 1); return its path.

        The copy holds no deck and leaves the other seats' discards face-down: they stay hidden
        from the player for ever, even in the player's own files.
        """
        text = write_text(hand, names, viewer=viewer, tournament=tournament)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for extra in range(100):
                suffix = f"-{extra + 1}" if extra else ""
                path = self.folder / f"{self.stem}-hand{number:02d}{suffix}.json"
                try:
                    with path.open("x", encoding="utf-8") as file:
                        file.write(text)
                except FileExistsError:
                    continue
                return path
        except OSError as error:
            raise StoreError(
                "cannot save the hand history in {folder}: {problem}",
                folder=self.folder,
                problem=error.strerror or error,
            ) from None
        raise StoreError(
            "cannot save the hand history in {folder}: too many files named {stem}", folder=self.folder, stem=self.stem
        )
