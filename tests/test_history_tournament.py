"""Hand histories of tournament hands (version 2): level and chips written, read and checked."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from ofc.bots import make_bot
from ofc.formats.history import TournamentFields, check_copy, level_of, read, replay, write, write_text
from ofc.rules.errors import HistoryError
from ofc.rules.rulebook import Rules
from ofc.series.session import Session, play_hand
from ofc.series.tournament import Tournament, TournamentHand, chip_results


def test_level_of_a_hand_worked_by_hand() -> None:
    # 8 hands a level, 10 levels: hands 1-8 are level 1, 9-16 level 2, 73-80 level 10, and the
    # last level lasts for ever.
    rules = Rules()
    assert [level_of(rules, hand) for hand in (1, 8, 9, 16, 17, 72, 73, 80, 81, 1000)] == [
        1,
        1,
        2,
        2,
        3,
        9,
        10,
        10,
        10,
        10,
    ]


def test_chip_results_worked_by_hand() -> None:
    # Seat 0 owes 8 and 4 points at 10 chips a point (120) but has 100: 200/3 and 100/3,
    # rounded by largest remainder to 67 and 33.
    vs = [[0, -8, -4], [8, 0, 0], [4, 0, 0]]
    assert chip_results(vs, 10, (100, 100, 100), (1, 2, 0)) == (-100, 67, 33)
    # 25 chips owed as 20 + 20 (12.5 each): the odd chip goes to the seat acting first.
    vs = [[0, -4, -4], [4, 0, 0], [4, 0, 0]]
    assert chip_results(vs, 5, (25, 50, 50), (2, 0, 1)) == (-25, 12, 13)
    assert chip_results(vs, 5, (25, 50, 50), (1, 2, 0)) == (-25, 13, 12)


def tournament_hands(count: int, rules: Rules) -> list[tuple[TournamentHand, Any]]:
    """The first ``count`` hands of a seeded tournament of random bots, with their hands."""
    tournament = Tournament(rules, button=1)
    session = Session(tournament)
    bots = [make_bot("random", seed=seat) for seat in range(rules.players)]
    out: list[tuple[TournamentHand, Any]] = []
    while len(out) < count and not session.finished:
        hand = session.deal(seed=40 + len(out))
        play_hand(hand, [bots[seat] for seat in session.plan.seats])
        record = session.settle()
        assert isinstance(record, TournamentHand)
        out.append((record, hand))
    return out


RULES = Rules.preset("pineapple").with_settings({"players": 3, "starting_chips": 200, "level_hands": 2})


def test_a_tournament_hand_history_carries_level_and_chips() -> None:
    hands = tournament_hands(3, RULES)
    record, hand = hands[2]
    fields = TournamentFields.of(record)
    before = tuple(c - w for c, w in zip(record.chips, record.won, strict=True))
    assert fields == TournamentFields(3, 2, 10, before, record.won)
    assert fields.chips_after == record.chips
    document = write(hand, ["ann", "bob", "cat"], tournament=fields)
    assert document["version"] == 2
    assert document["tournament"] == {
        "hand": 3, "level": 2, "chips_per_point": 10, "chips": list(before), "chips_won": list(record.won),
    }  # fmt: skip
    assert list(document)[list(document).index("start") + 1] == "tournament"
    history = read(json.loads(write_text(hand, ["ann", "bob", "cat"], tournament=fields)))
    assert history.tournament == fields
    replay(history)
    copy_ = read(write(hand, tournament=fields, viewer=0))
    assert copy_.tournament == fields
    assert check_copy(copy_) is not None


def test_a_match_hand_history_stays_version_1() -> None:
    _record, hand = tournament_hands(1, RULES)[0]
    document = write(hand)
    assert document["version"] == 1
    assert "tournament" not in document
    assert read(document).tournament is None


def _tournament_document() -> dict[str, Any]:
    record, hand = tournament_hands(1, RULES)[0]
    return write(hand, tournament=TournamentFields.of(record))


def _with(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        if path == "version":
            document["version"] = value
        else:
            document["tournament"][path] = value

    return change


def _drop_tournament(document: dict[str, Any]) -> None:
    del document["tournament"]


def _swap_won(document: dict[str, Any]) -> None:
    won = document["tournament"]["chips_won"]
    document["tournament"]["chips_won"] = won[1:] + won[:1]


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "version 1 with tournament fields",
        _with("version", 1),
        "a 'tournament' field goes with version 2, and only with it",
    ),
    ("version 2 without them", _drop_tournament, "a 'tournament' field goes with version 2, and only with it"),
    ("hand zero", _with("hand", 0), "the history's tournament 'hand' must be a whole number from 1, not 0"),
    ("level as text", _with("level", "1"), "the history's tournament 'level' must be a whole number from 1, not '1'"),
    ("wrong level", _with("level", 2), "the history's tournament hand 1 is in level 1 (2 hands a level), not 2"),
    ("later hand", _with("hand", 3), "the history's tournament hand 3 is in level 2 (2 hands a level), not 1"),
    ("wrong rate", _with("chips_per_point", 10), "the history's tournament level 1 pays 5 chips a point, not 10"),
    (
        "short chips",
        _with("chips", [200, 200]),
        "the history's tournament 'chips' must be a list of 3 whole numbers, not [200, 200]",
    ),
    (
        "empty stack",
        _with("chips", [200, 0, 400]),
        "the history's tournament 'chips': every seat dealt in holds chips, not [200, 0, 400]",
    ),
    (
        "chips made",
        _with("chips_won", [5, 0, 0]),
        "the history's tournament 'chips_won' [5, 0, 0] does not move chips between stacks",
    ),
    ("unknown field", _with("blinds", 5), "the history's 'tournament' has unknown field 'blinds'"),
]


@pytest.mark.parametrize(("label", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_tournament_fields_are_refused(label: str, change: Callable[[dict[str, Any]], None], message: str) -> None:
    document = copy.deepcopy(_tournament_document())
    change(document)
    with pytest.raises(HistoryError) as caught:
        read(document)
    assert str(caught.value) == message


def test_chips_won_must_follow_from_the_points() -> None:
    document = _tournament_document()
    won = document["tournament"]["chips_won"]
    assert len(set(won)) > 1  # the seeded hand moves chips, so a rotation of them is wrong
    _swap_won(document)
    with pytest.raises(HistoryError, match=r"the history's tournament 'chips_won' is .*, the hand's points at 5 chips"):
        replay(document)


def test_ofc_replay_prints_the_level_and_chips() -> None:
    from ofc.cli.replay_cmd import header_lines

    record, hand = tournament_hands(3, RULES)[2]
    history = read(write(hand, ["ann", "bob", "cat"], tournament=TournamentFields.of(record)))
    lines = header_lines(history)
    fields = TournamentFields.of(record)
    assert "tournament hand 3, level 2: 10 chips per point" in lines
    stacks = [
        f"{name} {a} {w:+d} = {a + w}"
        for name, a, w in zip(["ann", "bob", "cat"], fields.chips, fields.chips_won, strict=True)
    ]
    assert f"chips: {', '.join(stacks)}" in lines
