"""The engine's quick value makers build exactly the values their classes' constructors build.

The hot path (``Hand._commit``, ``ofc.env.encoding``) sets frozen values
field by field instead of calling the dataclasses' ``__init__``; these tests hold each maker
equal to its constructor (fields, equality, hash, repr), and a random hand's score sheet
equal to one built field by field with the constructors.
"""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.engine.actions import Action, ActionRecord, action_record, sorted_action
from ofc.engine.hand import Hand
from ofc.engine.result import HandResult, hand_result
from ofc.engine.view import SeenAction, seen_action
from ofc.rules.ranking import Category, category_of, rank3, rank5
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import (
    PlayerScore,
    RowKeys,
    Royalties,
    ScoreSheet,
    next_fantasy_cards,
    settle_boards,
    settle_pair,
)


def same_value(made: object, built: object) -> None:
    assert type(made) is type(built)
    assert made == built
    assert hash(made) == hash(built)
    assert repr(made) == repr(built)
    for field in dataclasses.fields(built):  # type: ignore[arg-type]
        assert getattr(made, field.name) == getattr(built, field.name)


def test_slot_makers_equal_the_constructors() -> None:
    # Ah = 12*4+0 = 48 on top, 2c = 0 to the bottom, 7d (5*4+1 = 21) discarded: the order an
    # Action keeps (highest card first) is what sorted_action is given.
    placements = ((48, Row.TOP), (0, Row.BOTTOM))
    action = sorted_action(1, placements, (21,))
    same_value(action, Action(1, ((0, Row.BOTTOM), (48, Row.TOP)), (21,)))
    same_value(action_record(action, Decimal("2.5"), True), ActionRecord(action, Decimal("2.5"), True))
    built = SeenAction(1, placements, (21,), 1, 0, Decimal(0), False)
    same_value(seen_action(1, placements, (21,), 1, 0, Decimal(0), False), built)
    assert tuple(f.name for f in dataclasses.fields(SeenAction)) == (
        "seat", "placements", "discards", "discarded", "hidden", "time", "automatic"
    )  # fmt: skip


def test_category_of_names_every_category_and_refuses_what_is_not_a_key() -> None:
    # A key is category << 20 | ranks: 3 << 20 | 0x3000 is trips of fours (rank 2 + 1 = 3).
    assert category_of(3 << 20 | 0x30000) is Category.TRIPS
    assert [category_of(c << 20) for c in range(9)] == list(Category)
    for bad in (-1, 9 << 20):
        with pytest.raises(ValueError, match="is not a valid Category"):
            category_of(bad)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("pineapple", 3), ("classic", 4), ("turbo", 2)]), st.integers(0, 2**32))
def test_a_hands_result_equals_one_built_with_the_constructors(table: tuple[str, int], seed: int) -> None:
    variant, players = table
    rules = Rules.preset(variant).with_settings({"players": players})
    rng = random.Random(seed)
    hand = Hand(rules, button=seed % players, seed=seed)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions(hand.to_act[0])), 0)
    result = hand.result
    assert result is not None
    boards = result.boards
    keys = [RowKeys(rank3(b.top), rank5(b.middle), rank5(b.bottom)) for b in boards]
    sheet = settle_boards(boards, rules, hand.fantasy_in_row)
    lines = []
    for i, mine in enumerate(keys):
        vs = tuple(0 if i == j else settle_pair(mine, sheet.players[i].royalties.total, theirs,
                                                 sheet.players[j].royalties.total, rules)
                   for j, theirs in enumerate(keys))  # fmt: skip
        fantasy = next_fantasy_cards(mine, rules, hand.fantasy_in_row[i])
        pays = sheet.players[i].royalties
        line = PlayerScore(mine, Royalties(pays.top, pays.middle, pays.bottom), fantasy, vs)
        same_value(sheet.players[i], line)
        lines.append(line)
    same_value(sheet, ScoreSheet(tuple(lines)))
    same_value(result, HandResult(boards, sheet, result.time_banks))
    same_value(hand_result(boards, sheet, result.time_banks), HandResult(boards, sheet, result.time_banks))
