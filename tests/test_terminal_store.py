"""Where ``ofc play`` saves hand histories, how the files are named, and the timed line reader."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ofc.engine.hand import Hand
from ofc.formats.history import HandHistory, check_copy, read, replay
from ofc.rules.rulebook import Rules
from ofc.terminal.reader import Ask, LineReader
from ofc.terminal.store import HandStore, StoreError, hands_folder

STARTED = datetime(2026, 11, 29, 12, 23, 1, tzinfo=UTC)


def test_folder_from_environment() -> None:
    assert hands_folder({"OFC_HOME": "/x/ofc", "XDG_DATA_HOME": "/y"}) == Path("/x/ofc/hands")
    assert hands_folder({"XDG_DATA_HOME": "/y"}) == Path("/y/ofc/hands")
    assert hands_folder({}) == Path.home() / ".local" / "share" / "ofc" / "hands"


def finished_hand(seed: int) -> Hand:
    hand = Hand(Rules.preset("turbo"), button=0, seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        seat = hand.to_act[0]
        hand.apply(rng.choice(hand.legal_actions(seat)), 1)
    return hand


def test_save_names_sort_and_replay(tmp_path: Path) -> None:
    store = HandStore(tmp_path / "hands", STARTED)
    first = store.save(finished_hand(1), ["ann", "bot"], 1, viewer=0)
    again = store.save(finished_hand(2), ["ann", "bot"], 1, viewer=0)
    second = store.save(finished_hand(3), ["ann", "bot"], 2, viewer=0)
    assert [p.name for p in (first, again, second)] == [
        "20261129-122301-hand01.json",
        "20261129-122301-hand01-2.json",
        "20261129-122301-hand02.json",
    ]
    history = read(second.read_text(encoding="utf-8"))
    assert history.names == ("ann", "bot")
    assert history.viewer == 0
    assert history.deck == ()
    result = check_copy(history)
    full = replay(HandHistory.of(finished_hand(3))).result
    assert result is not None
    assert full is not None
    assert result.points == full.points


def test_save_failure_is_one_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot save the hand history in"):
        HandStore(blocker / "hands", STARTED).save(finished_hand(1), ["a", "b"], 1, viewer=0)


def test_reader_lines_typed_ahead_timeout_and_end() -> None:
    read_end, write_end = os.pipe()
    reader = LineReader(read_end)
    os.write(write_end, b"Ah b\nok\r\nhalf")
    assert reader.read(Ask("> ", 1)) == "Ah b"
    assert reader.read(Ask("> ", 1)) == "ok"
    assert reader.read(Ask("> ", 0.05)) is None
    os.write(write_end, "\xe9 line\n".encode())
    assert reader.read(Ask("> ", None)) == "half\xe9 line"
    os.write(write_end, b"last")
    os.close(write_end)
    assert reader.read(Ask("> ", None)) == "last"
    with pytest.raises(EOFError):
        reader.read(Ask("> ", None))
    os.close(read_end)
