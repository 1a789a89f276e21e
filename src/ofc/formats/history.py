"""Hand histories: a versioned JSON record of one hand that replays to the same result.

The format (``"format": "ofc-hand-history", "version": 1``, or 2 for a tournament hand,
which adds the ``"tournament"`` field: ``TournamentFields``) is documented in
docs/hand-history.md. ``write`` turns a hand into a JSON-ready dict (``write_text`` into
text), ``read`` checks a document and returns a ``HandHistory``, and ``replay`` deals the hand
again, re-applies every action at its time and checks that the recorded result is the one the
rules give. Anything malformed or inconsistent raises ``HistoryError`` saying what and where.

A seat's copy (``write(..., viewer=seat)``) is what a player may keep: no deck, and other
seats' discards face-down for ever; ``check_copy`` checks it from its placements.

A hand whose seats all ran out of time (every card placed automatically), written and replayed:

>>> from ofc.rules.rulebook import Rules
>>> hand = Hand(Rules.preset("classic"), button=0, seed=3)
>>> _ = hand.advance(100_000)
>>> document = write(hand, ["ann", "bob"])
>>> document["format"], document["version"], read(document).names
('ofc-hand-history', 1, ('ann', 'bob'))
>>> replay(document).result == hand.result
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import time_text, to_time
from ofc.engine.hand import Hand
from ofc.engine.result import HandResult
from ofc.rules.cards import Card, Deck, format_card, parse_cards
from ofc.rules.errors import HistoryError, OfcError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board, score_boards
from ofc.series.tournament import TournamentHand, chip_results

# ---------------------------------------------------------------- reading fields, each checked


def get_field(document: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """The value of ``key``, checked to be a ``kind`` (``what`` says it in words)."""
    if key not in document:
        raise HistoryError("the history has no {key!r} ({what})", key=key, what=what)
    value = document[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise HistoryError("the history's {key!r} must be {what}, not {value!r}", key=key, what=what, value=value)
    return value


def seat_ints(document: Mapping[str, Any], key: str, players: int) -> tuple[int, ...]:
    """One whole number per seat."""
    values = get_field(document, key, list, f"a list of {players} whole numbers")
    if len(values) != players or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise HistoryError(
            "the history's {key!r} must be a list of {players} whole numbers, not {values!r}",
            key=key,
            players=players,
            values=values,
        )
    return tuple(values)


def time_field(value: object, where: str) -> Decimal:
    """A time, as decimal text or a number."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise HistoryError("{where}: a time must be decimal text or a number, not {value!r}", where=where, value=value)
    try:
        return to_time(value)
    except OfcError as error:
        raise HistoryError("{where}: {error}", where=where, error=error) from None


def deck_field(document: Mapping[str, Any]) -> tuple[tuple[Card, ...], int | None]:
    """The deck's order (all 52 cards) and its seed, which must give that order."""
    deck = get_field(document, "deck", dict, "an object with the deck's order and seed")
    order = deck.get("order")
    seed = deck.get("seed")
    if not isinstance(order, list) or len(order) != 52:
        raise HistoryError("the history's deck order must list all 52 cards")
    try:
        cards = parse_cards(order)
    except OfcError as error:
        raise HistoryError("the history's deck order: {error}", error=error) from None
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise HistoryError("the history's deck seed must be a whole number from 0 or null, not {seed!r}", seed=seed)
    if seed is not None and Deck(seed).order != cards:
        raise HistoryError("the history's deck order is not the order seed {seed} gives", seed=seed)
    return cards, seed


def hidden_counts(document: Mapping[str, Any], copy: bool) -> tuple[int, ...]:
    """Per action, the face-down discards a seat's copy leaves out (always 0 in a full record)."""
    counts = []
    for number, item in enumerate(get_field(document, "actions", list, "a list of actions"), 1):
        count = item.get("hidden_discards", 0) if isinstance(item, dict) else 0
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 52:
            raise HistoryError(
                "action {number}: 'hidden_discards' must be a count of cards, not {count!r}", number=number, count=count
            )
        if count and not copy:
            raise HistoryError("action {number}: only a seat's copy may leave discards face-down", number=number)
        counts.append(count)
    return tuple(counts)


def action_records(document: Mapping[str, Any]) -> tuple[ActionRecord, ...]:
    """Every action with its time and whether it was automatic."""
    items = get_field(document, "actions", list, "a list of actions")
    records = []
    for number, item in enumerate(items, 1):
        where = f"action {number}"
        if not isinstance(item, dict):
            raise HistoryError("{where} must be an object, not {item!r}", where=where, item=item)
        automatic = item.get("automatic", False)
        if not isinstance(automatic, bool):
            raise HistoryError(
                "{where}: 'automatic' must be true or false, not {automatic!r}", where=where, automatic=automatic
            )
        try:
            action = Action.from_dict(item)
        except OfcError as error:
            raise HistoryError("{where}: {error}", where=where, error=error) from None
        records.append(ActionRecord(action, time_field(item.get("time"), where), automatic))
    return tuple(records)


# ---------------------------------------------------------------- the tournament field (version 2)
# A tournament hand's history carries the hand's number and level in the tournament, its chips
# per point, each seat's chips at the start of the hand and the whole chips each seat won.
# Reading checks the field against the rules (the level follows from the hand number and
# ``level_hands``, the chips per point from the level); ``check`` checks the chips won against
# the hand's recorded points (table stakes and rounding as ``Tournament`` settles them).


KEYS = ("hand", "level", "chips_per_point", "chips", "chips_won")


def level_of(rules: Rules, hand: int) -> int:
    """The level (from 1) of tournament hand ``hand`` (from 1): the last level lasts for ever."""
    return min((hand - 1) // rules.level_hands, len(rules.chips_per_point) - 1) + 1


@dataclass(frozen=True)
class TournamentFields:
    """A tournament hand's place in its tournament; tuples are per seat of the hand."""

    hand: int
    """Number of the hand in the tournament, from 1."""
    level: int
    """Level of the hand, from 1."""
    chips_per_point: int
    chips: tuple[int, ...]
    """Each seat's chips at the start of the hand."""
    chips_won: tuple[int, ...]
    """Whole chips each seat won in the hand (negative: lost)."""

    @staticmethod
    def of(record: TournamentHand) -> TournamentFields:
        """The fields of a hand as ``Tournament.record`` settled it (hand seats: ``plan.seats``)."""
        seats = record.plan.seats
        return TournamentFields(
            hand=record.plan.hand + 1,
            level=record.level + 1,
            chips_per_point=record.chips_per_point,
            chips=tuple(record.chips[seat] - record.won[seat] for seat in seats),
            chips_won=tuple(record.won[seat] for seat in seats),
        )

    @property
    def chips_after(self) -> tuple[int, ...]:
        """Each seat's chips at the end of the hand."""
        return tuple(before + won for before, won in zip(self.chips, self.chips_won, strict=True))

    def to_dict(self) -> dict[str, object]:
        """The JSON object of the history's ``"tournament"`` field."""
        return {
            "hand": self.hand,
            "level": self.level,
            "chips_per_point": self.chips_per_point,
            "chips": list(self.chips),
            "chips_won": list(self.chips_won),
        }

    def check(self, vs: Sequence[Sequence[int]], button: int) -> None:
        """Raise ``HistoryError`` unless ``chips_won`` is the settlement of the points ``vs``."""
        players = len(self.chips)
        order = [(button + 1 + step) % players for step in range(players)]
        try:
            won = chip_results(vs, self.chips_per_point, self.chips, order)
        except OfcError as error:
            raise HistoryError("the history's tournament chips cannot be settled: {error}", error=error) from None
        if won != self.chips_won:
            raise HistoryError(
                "the history's tournament 'chips_won' is {chips_won}, the hand's points at "
                "{chips_per_point} chips a point give {won}",
                chips_won=list(self.chips_won),
                chips_per_point=self.chips_per_point,
                won=list(won),
            )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_fields(value: object, rules: Rules) -> TournamentFields:
    """Check a history's ``"tournament"`` object against ``rules``; raise ``HistoryError``."""
    if not isinstance(value, Mapping):
        raise HistoryError("the history's 'tournament' must be an object, not {value!r}", value=value)
    extra = sorted(set(value) - set(KEYS))
    if extra:
        raise HistoryError("the history's 'tournament' has unknown field {key!r}", key=extra[0])
    document: Mapping[str, Any] = value
    numbers: dict[str, int] = {}
    for key in ("hand", "level", "chips_per_point"):
        number = document.get(key)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise HistoryError(
                "the history's tournament {key!r} must be a whole number from 1, not {number!r}", key=key, number=number
            )
        numbers[key] = number
    lists = {}
    for key, least in (("chips", 1), ("chips_won", None)):
        items = document.get(key)
        if not isinstance(items, list) or len(items) != rules.players or not all(_whole(v) for v in items):
            raise HistoryError(
                "the history's tournament {key!r} must be a list of {players} whole numbers, not {items!r}",
                key=key,
                players=rules.players,
                items=items,
            )
        if least is not None and min(items) < least:
            raise HistoryError(
                "the history's tournament {key!r}: every seat dealt in holds chips, not {items!r}", key=key, items=items
            )
        lists[key] = tuple(items)
    fields = TournamentFields(
        numbers["hand"], numbers["level"], numbers["chips_per_point"], lists["chips"], lists["chips_won"]
    )
    level = level_of(rules, fields.hand)
    if fields.level != level:
        raise HistoryError(
            "the history's tournament hand {hand} is in level {level} ({level_hands} hands a level), not {given}",
            hand=fields.hand,
            level=level,
            level_hands=rules.level_hands,
            given=fields.level,
        )
    rate = rules.chips_per_point[level - 1]
    if fields.chips_per_point != rate:
        raise HistoryError(
            "the history's tournament level {level} pays {rate} chips a point, not {chips_per_point}",
            level=level,
            rate=rate,
            chips_per_point=fields.chips_per_point,
        )
    if sum(fields.chips_won) != 0 or min(fields.chips_after) < 0:
        won = list(fields.chips_won)
        raise HistoryError("the history's tournament 'chips_won' {won} does not move chips between stacks", won=won)
    return fields


# ---------------------------------------------------------------- the history

FORMAT = "ofc-hand-history"
VERSION = 1
TOURNAMENT_VERSION = 2
"""The version of a history with a ``"tournament"`` field; other histories stay version 1."""
Fields = TournamentFields | None


@dataclass(frozen=True)
class HandHistory:
    """A hand's inputs, every action with its time, and the recorded result (None if unfinished)."""

    rules: Rules
    names: tuple[str, ...] | None
    button: int
    deck: tuple[Card, ...]
    seed: int | None
    fantasy: tuple[int, ...]
    fantasy_in_row: tuple[int, ...]
    time_banks: tuple[Decimal, ...]
    start: Decimal
    records: tuple[ActionRecord, ...]
    result: Mapping[str, Any] | None
    viewer: int | None = None
    """The seat whose copy this is (see ``copy_for``); None for the full record."""
    hidden: tuple[int, ...] = ()
    """In a seat's copy: per action, how many of its discards are face-down (not recorded)."""
    tournament: Fields = None
    """A tournament hand's level and chips (version 2); None for any other hand."""

    @property
    def is_copy(self) -> bool:
        """Whether this is one seat's copy, without the deck or other seats' discards."""
        return self.viewer is not None

    def copy_for(self, seat: int) -> HandHistory:
        """The copy ``seat`` may keep: no deck, and every other seat's discards face-down.

        Pineapple discards (and a fantasy hand's extra cards) stay hidden from opponents for
        ever, so a player's own file of the hand must not hold them; everything placed is
        public at the showdown and stays in.
        """
        if self.is_copy:
            raise HistoryError("this history is already a seat's copy")
        if not 0 <= seat < self.rules.players:
            raise HistoryError("no seat {seat} at a {players}-seat table", seat=seat, players=self.rules.players)
        records = []
        hidden = []
        for record in self.records:
            action = record.action
            mine = action.seat == seat
            hidden.append(0 if mine else len(action.discards))
            if not mine and action.discards:
                action = Action(action.seat, action.placements, ())
            records.append(ActionRecord(action, record.time, record.automatic))
        return replace(self, deck=(), seed=None, records=tuple(records), viewer=seat, hidden=tuple(hidden))

    @staticmethod
    def of(hand: Hand, names: Sequence[str] | None = None, tournament: Fields = None) -> HandHistory:
        """The history of ``hand`` so far, with optional seat ``names`` and ``tournament`` fields."""
        result = hand.result
        record = hand.private_record()
        return HandHistory(
            rules=hand.rules,
            names=None if names is None else tuple(names),
            button=hand.button,
            deck=record.deck,
            seed=record.seed,
            fantasy=hand.fantasy,
            fantasy_in_row=hand.fantasy_in_row,
            time_banks=hand.starting_banks,
            start=hand.start_time,
            records=record.actions,
            result=None if result is None else result.to_dict(),
            tournament=tournament,
        )

    def name(self, seat: int) -> str:
        """The name of ``seat``, or ``seat N`` when the history names nobody."""
        return self.names[seat] if self.names is not None else f"seat {seat}"

    def to_dict(self) -> dict[str, object]:
        """The JSON document of docs/hand-history.md."""
        actions = [_record_dict(record) for record in self.records]
        for item, count in zip(actions, self.hidden, strict=False):
            if count:
                item["hidden_discards"] = count
        document: dict[str, object] = {
            "format": FORMAT,
            "version": VERSION if self.tournament is None else TOURNAMENT_VERSION,
            "rules": self.rules.to_dict(),
            "seats": None if self.names is None else list(self.names),
            "button": self.button,
            "deck": {"seed": self.seed, "order": [format_card(card) for card in self.deck]},
            "fantasy": list(self.fantasy),
            "fantasy_in_row": list(self.fantasy_in_row),
            "time_banks": [time_text(bank) for bank in self.time_banks],
            "start": time_text(self.start),
            **({} if self.tournament is None else {"tournament": self.tournament.to_dict()}),
            "actions": actions,
            "result": None if self.result is None else dict(self.result),
        }
        if self.is_copy:
            document["viewer"] = self.viewer
            document["deck"] = None
        return document

    def deal(self) -> Hand:
        """A fresh hand dealt from this history's inputs, before any action."""
        try:
            return Hand(
                self.rules,
                button=self.button,
                deck=Deck(self.seed, order=self.deck),
                fantasy=self.fantasy,
                fantasy_in_row=self.fantasy_in_row,
                time_banks=self.time_banks,
                now=self.start,
            )
        except OfcError as error:
            raise HistoryError("the hand cannot be dealt: {error}", error=error) from None


def _record_dict(record: ActionRecord) -> dict[str, object]:
    action = record.action.to_dict()
    return {
        "seat": action["seat"],
        "time": time_text(record.time),
        "automatic": record.automatic,
        "place": action["place"],
        "discard": action["discard"],
    }


def write(
    hand: Hand, names: Sequence[str] | None = None, *, viewer: int | None = None, tournament: Fields = None
) -> dict[str, object]:
    """The history document of ``hand`` (finished or not) as a JSON-ready dict.

    With ``viewer`` it is that seat's copy (``HandHistory.copy_for``): what a player may keep;
    with ``tournament`` a tournament hand's history (version 2).
    """
    history = HandHistory.of(hand, names, tournament)
    return (history if viewer is None else history.copy_for(viewer)).to_dict()


def write_text(
    hand: Hand, names: Sequence[str] | None = None, *, viewer: int | None = None, tournament: Fields = None
) -> str:
    """The history document of ``hand`` as JSON text: one line per field, action and result."""
    lines = []
    for key, value in write(hand, names, viewer=viewer, tournament=tournament).items():
        if key == "actions" and isinstance(value, list) and value:
            items = ",\n  ".join(json.dumps(item) for item in value)
            lines.append(f'"actions": [\n  {items}\n ]')
        elif key == "result" and isinstance(value, dict):
            items = ",\n  ".join(json.dumps(item) for item in value["players"])
            lines.append(f'"result": {{"players": [\n  {items}\n ]}}')
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n " + ",\n ".join(lines) + "\n}\n"


# ---------------------------------------------------------------------- reading


def read(source: str | Mapping[str, Any]) -> HandHistory:
    """Read and check a history document (JSON text or its parsed dict)."""
    if isinstance(source, str):
        try:
            document = json.loads(source)
        except json.JSONDecodeError as error:
            raise HistoryError(
                "a hand history must be JSON: {problem} at line {line}", problem=error.msg, line=error.lineno
            ) from None
        except RecursionError:
            raise HistoryError("a hand history must be JSON: it is nested too deeply") from None
        except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
            raise HistoryError("a hand history must be JSON: a number has too many digits") from None
    else:
        document = source
    if not isinstance(document, Mapping):
        raise HistoryError("a hand history must be a JSON object")
    if document.get("format") != FORMAT:
        raise HistoryError(
            "not a hand history: 'format' must be {expected!r}, not {found!r}",
            expected=FORMAT,
            found=document.get("format"),
        )
    version = document.get("version")
    if version not in (VERSION, TOURNAMENT_VERSION) or isinstance(version, bool):
        raise HistoryError(
            "unsupported hand history version {version!r}: this reads {current} and 2", version=version, current=VERSION
        )
    settings = get_field(document, "rules", dict, "an object of settings")
    try:
        rules = Rules().with_settings(settings)
    except OfcError as error:
        raise HistoryError("the history's rules: {error}", error=error) from None
    players = rules.players
    names = document.get("seats")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(n, str) and n.isprintable() for n in names)  # ofc replay prints them
    ):
        raise HistoryError(
            "the history's 'seats' must be null or {players} names, not {names!r}", players=players, names=names
        )
    viewer = document.get("viewer")
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < players):
        raise HistoryError(
            "the history's 'viewer' must be null or a seat from 0 to {last}, not {viewer!r}",
            last=players - 1,
            viewer=viewer,
        )
    if viewer is None:
        deck, seed = deck_field(document)
    elif document.get("deck") is not None:
        raise HistoryError("a seat's copy of a hand must not hold the deck ('deck' must be null)")
    else:
        deck, seed = (), None
    hidden = hidden_counts(document, viewer is not None)
    banks = get_field(document, "time_banks", list, f"a list of {players} times")
    if len(banks) != players:
        raise HistoryError(
            "the history's 'time_banks' must list {players} times, not {count}", players=players, count=len(banks)
        )
    result = document.get("result")
    if result is not None and not isinstance(result, dict):
        raise HistoryError("the history's 'result' must be an object or null, not {result!r}", result=result)
    if (version == TOURNAMENT_VERSION) != ("tournament" in document):
        raise HistoryError(
            "a 'tournament' field goes with version {version}, and only with it",
            version=TOURNAMENT_VERSION,
        )
    tournament = read_fields(document["tournament"], rules) if "tournament" in document else None
    return HandHistory(
        rules=rules,
        names=None if names is None else tuple(names),
        button=get_field(document, "button", int, "a seat number"),
        deck=deck,
        seed=seed,
        fantasy=seat_ints(document, "fantasy", players),
        fantasy_in_row=seat_ints(document, "fantasy_in_row", players),
        time_banks=tuple(time_field(bank, "the history's time banks") for bank in banks),
        start=time_field(document.get("start"), "the history's start"),
        records=action_records(document),
        result=result,
        viewer=viewer,
        hidden=hidden if viewer is not None else (),
        tournament=tournament,
    )


# ---------------------------------------------------------------------- replay


def describe(record: ActionRecord) -> str:
    """One line for an action record: who did what, when, and whether automatically."""
    how = " (automatic)" if record.automatic else ""
    return f"{record.action} at {time_text(record.time)}{how}"


def replay(history: HandHistory | str | Mapping[str, Any]) -> Hand:
    """Deal the hand again, re-apply every action and check the recorded result.

    Returns the replayed hand; raises ``HistoryError`` at the first action the rules reject
    or the engine would not have made, or when the result differs from the recorded one.
    """
    if not isinstance(history, HandHistory):
        history = read(history)
    if history.is_copy:
        raise HistoryError(
            "this is {name}'s copy of the hand: it holds no deck, so it cannot be dealt again (check_copy checks it)",
            name=history.name(history.viewer or 0),
        )
    hand = history.deal()
    for index, record in enumerate(history.records):
        where = f"action {index + 1} ({describe(record)})"
        if hand.actions_taken <= index:
            try:
                if record.automatic:
                    hand.advance(record.time)
                else:
                    hand.apply(record.action, record.time)
            except OfcError as error:
                raise HistoryError("{where}: {error}", where=where, error=error) from None
        log = hand.private_record().actions
        if len(log) <= index:
            raise HistoryError("{where}: no seat had run out of time by then", where=where)
        if log[index] != record:
            raise HistoryError("{where}: the replay gives {made} instead", where=where, made=describe(log[index]))
    if hand.actions_taken > len(history.records):
        extra = hand.private_record().actions[-1]
        raise HistoryError("the replay makes an action the history lacks: {extra}", extra=describe(extra))
    _check_result(history, hand.result)
    return hand


def check_copy(history: HandHistory) -> HandResult | None:
    """Check a seat's copy without a deck: its placements must build the recorded boards, and
    those boards must score as recorded. Returns the result (None for an unfinished hand)."""
    players = history.rules.players
    rows: list[tuple[list[Card], list[Card], list[Card]]] = [([], [], []) for _ in range(players)]
    seen: set[Card] = set()
    for number, record in enumerate(history.records, 1):
        action = record.action
        if not 0 <= action.seat < players:
            raise HistoryError("action {number}: there is no seat {seat}", number=number, seat=action.seat)
        if action.discards and action.seat != history.viewer:
            raise HistoryError("action {number}: a seat's copy holds only its own discards", number=number)
        for card in [card for card, _ in action.placements] + list(action.discards):
            if card in seen:
                raise HistoryError(
                    "action {number}: card {card} was already dealt", number=number, card=format_card(card)
                )
            seen.add(card)
        for card, row in action.placements:
            rows[action.seat][row].append(card)
    if history.result is None:
        return None
    try:
        boards = tuple(Board(tuple(top), tuple(middle), tuple(bottom)) for top, middle, bottom in rows)
        sheet = score_boards(boards, history.rules, history.fantasy_in_row)
    except OfcError as error:
        raise HistoryError("the copy's placements do not make finished boards: {error}", error=error) from None
    players_recorded = history.result.get("players")
    if not isinstance(players_recorded, list) or len(players_recorded) != players:
        raise HistoryError("the history's result must list one entry per seat")
    banks = []
    for entry in players_recorded:
        bank = entry.get("time_bank") if isinstance(entry, dict) else None
        banks.append(time_field(bank, "the result's time banks"))
    result = HandResult(boards, sheet, tuple(banks))
    _check_result(history, result)
    return result


def _check_result(history: HandHistory, result: HandResult | None) -> None:
    recorded = history.result
    if result is None:
        if recorded is not None:
            raise HistoryError("the history records a result but its actions do not finish the hand")
        if history.tournament is not None:
            raise HistoryError("the history's tournament chips are for a finished hand")
        return
    if recorded is None:
        raise HistoryError("the actions finish the hand but the history records no result")
    if recorded == result.to_dict():
        if history.tournament is not None:
            history.tournament.check([line.vs for line in result.sheet.players], history.button)
        return
    replayed = result.player_dicts()
    players = recorded.get("players")
    if not isinstance(players, list) or len(players) != len(replayed):
        raise HistoryError("the history's result must list one entry per seat")
    for seat, (mine, theirs) in enumerate(zip(players, replayed, strict=True)):
        for key, value in theirs.items():
            found = mine.get(key) if isinstance(mine, dict) else mine
            if found != value:
                raise HistoryError(
                    "the history's result for {name} says {key} {found!r}, the replay gives {value!r}",
                    name=history.name(seat),
                    key=key,
                    found=found,
                    value=value,
                )
    raise HistoryError("the history's result holds entries the replay does not produce")
