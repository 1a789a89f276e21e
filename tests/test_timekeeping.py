"""The table's time (``TableTime``): holds stop it, releases credit the time held, and a held
table's clocks stand still in what the seats are sent."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from ofc.rules.rulebook import Rules
from ofc.server.db.storage import Storage
from ofc.server.tables.game import TableGame
from ofc.server.tables.timekeeping import TableTime

D = Decimal


def test_a_table_time_runs_with_the_server_less_its_offset() -> None:
    time = TableTime(D(100))
    assert (time.table(D(1000)), time.server(D(900)), time.held) == (D(900), D(1000), False)


def test_a_hold_stops_the_table_time_and_its_release_credits_the_time_held() -> None:
    time = TableTime(D(100))
    time.hold(D(1000))
    assert (time.held, time.table(D(1000)), time.table(D(1050)), time.server(D(950))) == (True, D(900), D(900), None)
    assert time.release(D(1050)) == D(50)
    assert (time.held, time.offset, time.table(D(1050)), time.table(D(1060))) == (False, D(150), D(900), D(910))
    assert time.server(D(910)) == D(1060)


def test_holds_nest_and_the_last_release_credits_the_whole_stop() -> None:
    time = TableTime()
    time.hold(D(10))
    time.hold(D(12))
    assert time.release(D(15)) == D(0)  # another hold still stands
    assert time.table(D(15)) == D(10)
    assert time.release(D(20)) == D(10)
    assert (time.offset, time.holds, time.table(D(21))) == (D(10), 0, D(11))


def test_a_release_without_a_hold_changes_nothing() -> None:
    time = TableTime(D(5))
    assert (time.release(D(100)), time.offset, time.held) == (D(0), D(5), False)


def test_table_times_never_go_back_across_a_hold() -> None:
    time = TableTime()
    seen = [time.table(D(1))]
    time.hold(D(2))
    seen += [time.table(D(2)), time.table(D(9))]
    time.release(D(9))
    seen += [time.table(D(9)), time.table(D(10))]
    assert seen == [D(1), D(2), D(2), D(2), D(3)]


def test_a_held_table_stops_every_clock_and_its_seat_loses_no_time(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'ofc.db'}")
    rules = Rules.preset("classic").with_settings({"players": 2, "hand_seconds": 30, "time_bank_seconds": 0})
    game = TableGame(1, "t", rules, [None, None], store)
    store.add_table("t", rules.to_dict(), [None, None], "match", options={"hints": True}, since="0")
    game.start(0, D(1000))
    hand = game.hand
    assert hand is not None
    seat = hand.to_act[0]
    due = game.wake_time()
    assert due == D(1030)
    game.sync(D(1010))
    game.time.hold(D(1010))
    assert game.wake_time() is None
    game.sync(D(1100))  # past the deadline the seat had: nothing is placed while held
    state = game.state(None)
    clock = state["hand"]["seats"][seat]["clock"]
    assert (state["held"], clock["hand"], clock["running"], clock["deadline"]) == (True, "20", False, None)
    assert hand.actions_taken == 0
    assert game.time.release(D(1100)) == D(90)
    assert (game.wake_time(), game.state(None)["held"]) == (D(1120), False)
    game.sync(D(1119))
    assert hand.clock(seat).hand == D(1)
    assert hand.actions_taken == 0
    store.close()
