"""Hand histories: the format, round trips, and corrupted or inconsistent documents."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.formats import history
from ofc.formats.history import FORMAT, VERSION, HandHistory
from ofc.rules.cards import Deck, format_card
from ofc.rules.errors import HistoryError
from ofc.rules.rulebook import Rules

RULES = Rules.preset("pineapple").with_settings({"players": 3, "hand_seconds": 20, "time_bank_seconds": 10})
NAMES = ["ann", "bob", "cat"]


def played(seed: int = 7, fantasy: tuple[int, ...] = (0, 14, 0), until: int | None = None) -> Hand:
    """A seeded hand with a fantasy seat, played by a seeded policy; slow steps time out."""
    hand = Hand(RULES, button=0, seed=seed, fantasy=fantasy, now=50)
    rng = random.Random(seed)
    now = Decimal(50)
    while not hand.is_over and (until is None or len(hand.private_record().actions) < until):
        now += rng.choice([3, 5, 31])
        hand.advance(now)
        if hand.is_over or (until is not None and len(hand.private_record().actions) >= until):
            break
        seat = rng.choice(hand.to_act)
        hand.apply(rng.choice(hand.legal_actions(seat)), now)
    return hand


def document(hand: Hand | None = None) -> dict[str, Any]:
    return history.write(hand if hand is not None else played(), NAMES)


def test_document_layout() -> None:
    hand = played()
    doc = document(hand)
    assert list(doc) == [
        "format", "version", "rules", "seats", "button", "deck", "fantasy", "fantasy_in_row",
        "time_banks", "start", "actions", "result",
    ]  # fmt: skip
    assert doc["format"] == FORMAT == "ofc-hand-history"
    assert doc["version"] == VERSION == 1
    assert doc["rules"] == RULES.to_dict()
    assert doc["seats"] == NAMES
    assert doc["deck"] == {"seed": 7, "order": [format_card(card) for card in Deck(7).order]}
    assert doc["fantasy"] == [0, 14, 0]
    assert doc["fantasy_in_row"] == [0, 1, 0]
    assert doc["time_banks"] == ["10", "10", "10"]
    assert doc["start"] == "50"
    assert len(doc["actions"]) == len(hand.private_record().actions) == 1 + 2 * 5
    first = doc["actions"][0]
    assert list(first) == ["seat", "time", "automatic", "place", "discard"]
    assert any(item["automatic"] for item in doc["actions"])
    assert hand.result is not None
    assert doc["result"] == hand.result.to_dict()


def test_text_round_trip_replays_equal() -> None:
    hand = played()
    text = history.write_text(hand, NAMES)
    assert text.startswith('{\n "format": "ofc-hand-history",\n "version": 1,\n')
    assert json.loads(text) == document(hand)
    read = history.read(text)
    assert read.names == tuple(NAMES)
    assert read.records == hand.private_record().actions
    replayed = history.replay(read)
    assert replayed.private_record().actions == hand.private_record().actions
    assert replayed.result is not None
    assert hand.result is not None
    assert replayed.result.to_dict() == hand.result.to_dict()
    assert history.write(replayed, NAMES) == document(hand)
    assert HandHistory.of(hand).name(2) == "seat 2"


def test_unseeded_hand_keeps_its_deck_order() -> None:
    deck = Deck()
    hand = Hand(RULES, button=2, deck=deck)
    while not hand.is_over:
        hand.apply(hand.legal_actions(hand.to_act[0])[-1], 1)
    doc = document(hand)
    assert doc["deck"]["seed"] is None
    assert doc["deck"]["order"] == [format_card(card) for card in deck.order]
    assert history.replay(doc).result == hand.result


def test_unfinished_hand_round_trips_without_result() -> None:
    hand = played(until=3)
    doc = document(hand)
    assert doc["result"] is None
    replayed = history.replay(json.dumps(doc))
    assert not replayed.is_over
    assert replayed.private_record().actions == hand.private_record().actions
    if replayed.now != hand.now:  # the hand was told a later time after its last action
        assert replayed.advance(hand.now) == ()
    for seat in (0, 1, 2, None):
        assert replayed.view(seat).to_dict() == hand.view(seat).to_dict()


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.pop(key) and None


def _truncate(count: int) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.update(actions=doc["actions"][:count])


def _append_action(doc: dict[str, Any]) -> None:
    doc["actions"].append(dict(doc["actions"][-1], automatic=False))


def _swap_first_two(doc: dict[str, Any]) -> None:
    doc["actions"][0], doc["actions"][1] = doc["actions"][1], doc["actions"][0]


def _mark_first_manual_automatic(doc: dict[str, Any]) -> None:
    doc["actions"][0]["automatic"] = True


def _shuffle_deck(doc: dict[str, Any]) -> None:
    order = doc["deck"]["order"]
    order[0], order[1] = order[1], order[0]


def _second_card_twice(doc: dict[str, Any]) -> None:
    doc["deck"]["order"][1] = doc["deck"]["order"][0]


CORRUPT: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong format", _set(("format",), "poker"),
     "not a hand history: 'format' must be 'ofc-hand-history', not 'poker'"),
    ("newer version", _set(("version",), 3), "unsupported hand history version 3: this reads 1 and 2"),
    ("version 2 without tournament fields", _set(("version",), 2),
     "a 'tournament' field goes with version 2, and only with it"),
    ("bad setting", _set(("rules", "players"), 9),
     "the history's rules: setting players: pineapple allows 2-3 players, not 9"),
    ("rules missing", _drop("rules"), "the history has no 'rules' (an object of settings)"),
    ("names", _set(("seats",), ["ann"]), "the history's 'seats' must be null or 3 names, not ['ann']"),
    ("a name with a terminal escape", _set(("seats",), ["ann", "\x1b[2Jbob", "cat"]),
     "the history's 'seats' must be null or 3 names, not ['ann', '\\x1b[2Jbob', 'cat']"),
    ("button missing", _drop("button"), "the history has no 'button' (a seat number)"),
    ("button as text", _set(("button",), "0"), "the history's 'button' must be a seat number, not '0'"),
    ("button out of range", _set(("button",), 3), "the hand cannot be dealt: button must be a seat from 0 to 2, not 3"),
    ("short deck", _set(("deck", "order"), ["2c"] * 51), "the history's deck order must list all 52 cards"),
    ("card twice", _second_card_twice, "the history's deck order: card "),
    ("unknown card", _set(("deck", "order", 5), "Zz"), "the history's deck order: unknown card 'Zz'"),
    ("deck and seed disagree", _shuffle_deck, "the history's deck order is not the order seed 7 gives"),
    ("seed as text", _set(("deck", "seed"), "7"),
     "the history's deck seed must be a whole number from 0 or null, not '7'"),
    ("negative seed", _set(("deck", "seed"), -7),
     "the history's deck seed must be a whole number from 0 or null, not -7"),
    ("fantasy size", _set(("fantasy",), [0, 13, 0]),
     "the hand cannot be dealt: seat 1 cannot be dealt 13 cards in fantasy: allowed 14"),
    ("fantasy length", _set(("fantasy",), [0, 14]),
     "the history's 'fantasy' must be a list of 3 whole numbers, not [0, 14]"),
    ("streak", _set(("fantasy_in_row",), [0, 0, 0]),
     "the hand cannot be dealt: seat 1 plays a fantasy hand, so fantasy_in_row cannot be 0"),
    ("bank text", _set(("time_banks", 0), "soon"), "the history's time banks: a time must be a number, not 'soon'"),
    ("bank count", _set(("time_banks",), ["1"]), "the history's 'time_banks' must list 3 times, not 1"),
    ("start missing", _drop("start"), "the history's start: a time must be decimal text or a number, not None"),
    ("actions missing", _drop("actions"), "the history has no 'actions' (a list of actions)"),
    ("action not an object", _set(("actions", 0), "x"), "action 1 must be an object, not 'x'"),
    ("unknown row", _set(("actions", 0, "place", 0, 1), "side"), "action 1: unknown row 'side'"),
    ("bad placement", _set(("actions", 0, "place", 0), "Ah"),
     "action 1: seat 1's action: a placement is [card, row], not 'Ah'"),
    ("automatic as text", _set(("actions", 0, "automatic"), "no"),
     "action 1: 'automatic' must be true or false, not 'no'"),
    ("time as text", _set(("actions", 0, "time"), "later"), "action 1: a time must be a number, not 'later'"),
    ("card not held", _set(("actions", 0, "place", 0, 0), "Kd"), "action 1 ("),  # Kd is seat 2's
    ("out of order", _swap_first_two, "action 1 ("),
    ("time runs backwards", _set(("actions", 1, "time"), "51"), "is before the hand's time"),
    ("automatic that was not", _mark_first_manual_automatic, "no seat had run out of time by then"),
    ("manual after the deadline", _set(("actions", 0, "time"), "81"), "ran out of time at 80; call advance(81)"),
    ("points changed", _set(("result", "players", 0, "points"), 99),
     "the history's result for ann says points 99, the replay gives"),
    ("extra result entry", _set(("result", "players", 0, "bonus"), 1),
     "the history's result holds entries the replay does not produce"),
    ("result wrong shape", _set(("result", "players"), []), "the history's result must list one entry per seat"),
    ("result missing", _set(("result",), None), "the actions finish the hand but the history records no result"),
    ("result not an object", _set(("result",), [1]), "the history's 'result' must be an object or null, not [1]"),
    ("actions cut short", _truncate(3), "the history records a result but its actions do not finish the hand"),
    ("action after the end", _append_action, "the hand is over"),
]  # fmt: skip

BASE = document()


@pytest.mark.parametrize(("change", "message"), [case[1:] for case in CORRUPT], ids=[case[0] for case in CORRUPT])
def test_corrupted_history_is_rejected(change: Callable[[dict[str, Any]], None], message: str) -> None:
    doc = copy.deepcopy(BASE)
    change(doc)
    with pytest.raises(HistoryError) as caught:
        history.replay(json.dumps(doc))
    assert message in str(caught.value)


def test_exact_message_for_a_card_not_held() -> None:
    doc = copy.deepcopy(BASE)
    first = doc["actions"][0]
    first["place"][0][0] = "Ah" if first["place"][0][0] != "Ah" else "Kh"
    with pytest.raises(HistoryError) as caught:
        history.replay(doc)
    action = Action.from_dict(first)
    assert str(caught.value) == (
        f"action 1 ({action} at {first['time']}): seat {first['seat']} does not hold {first['place'][0][0]}"
    )


def test_the_automatic_action_must_be_the_engines() -> None:
    doc = copy.deepcopy(BASE)
    index, item = next((i, item) for i, item in enumerate(doc["actions"]) if item["automatic"])
    item["place"][0][1] = "middle" if item["place"][0][1] == "top" else "top"
    with pytest.raises(HistoryError, match=rf"action {index + 1} \(.*\(automatic\)\): the replay gives .* instead"):
        history.replay(doc)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{", "a hand history must be JSON: Expecting property name enclosed in double quotes at line 1"),
        ("[1]", "a hand history must be a JSON object"),
        ("[" * 100_000 + "]" * 100_000, "a hand history must be JSON: it is nested too deeply"),
        ('{"button": ' + "1" * 5000 + "}", "a hand history must be JSON: a number has too many digits"),
    ],
)
def test_unreadable_documents(source: str, message: str) -> None:
    with pytest.raises(HistoryError) as caught:
        history.read(source)
    assert str(caught.value) == message


def test_numbers_are_accepted_for_times() -> None:
    doc = copy.deepcopy(BASE)
    doc["start"] = 50
    doc["time_banks"] = [10, 10, 10.0]
    for item in doc["actions"]:
        item["time"] = float(item["time"])
    assert history.replay(doc).result is not None
