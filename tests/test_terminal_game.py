"""A whole match of the terminal game in-process: scripted lines, a hand-made clock, rigged decks.

Hand 1 is dealt so that the player can set queens on top without fouling, which earns a
fantasy; hand 2 is that fantasy, set with ``solve`` and ``accept``; in hand 3 the player
presses Ctrl-C, stays, and lets the clock run out.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from ofc.bots import Decision, legal_actions, make_bot
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.formats.history import check_copy, read
from ofc.i18n import Language, use_language
from ofc.rules.cards import Deck, format_card, parse_cards
from ofc.rules.rulebook import Rules
from ofc.series.match import Match
from ofc.terminal.face import Face, LeaveMatch
from ofc.terminal.game import TIMED_OUT, Game
from ofc.terminal.reader import Ask
from ofc.terminal.render import Table
from ofc.terminal.store import HandStore
from ofc.terminal.turn import Turn

PLAYER_FIRST = "Qh Qd Kc Kd Ac"
PLAYER_SINGLES = "2c 5h 6h 7s Ad As 3c 4d"


def rigged_deck() -> Deck:
    """Classic, button on seat 1: the player gets cards 0-4, then every even card from 10 to 24."""
    wanted = parse_cards(PLAYER_FIRST + " " + PLAYER_SINGLES)
    rest = [card for card in range(52) if card not in wanted]
    order = [*wanted[:5], *rest[:5]]
    for number, card in enumerate(wanted[5:]):
        order += [card, rest[5 + number]]
    order += rest[5 + len(wanted[5:]) :]
    return Deck(order=order)


class FirstLegal:
    """A stand-in adviser: the first legal action, valued at 1.5 points."""

    name = "first-legal"

    def decide(self, view: HandView) -> Decision:
        return Decision(legal_actions(view)[0], 1.5)

    def act(self, view: HandView) -> Action:
        return self.decide(view).action


class Clock:
    """The game's ``now``: a thousandth of a second a call, plus any jumps."""

    def __init__(self) -> None:
        self.time = 0.0

    def __call__(self) -> float:
        self.time = round(self.time + 0.001, 3)
        return self.time


Item = str | type[BaseException] | Callable[[float | None], str | None]


class Script:
    """A keyboard reading scripted lines; an exception class is raised; a callable is called."""

    draws_prompt = False

    def __init__(self, items: list[Item]) -> None:
        self.items: Iterator[Item] = iter(items)
        self.timeouts: list[float | None] = []

    def read(self, ask: Ask) -> str | None:
        timeout = ask.timeout
        self.timeouts.append(timeout)
        item = next(self.items, EOFError)
        if isinstance(item, type):
            raise item
        if callable(item):
            return item(timeout)
        return item

    def drop_typed(self) -> None:
        """Nothing is typed ahead in a script."""


def test_rigged_deck_deals_the_player_what_the_script_expects() -> None:
    order = rigged_deck().order
    player = order[:5] + tuple(order[10 + 2 * i] for i in range(8))
    assert player == parse_cards(PLAYER_FIRST + " " + PLAYER_SINGLES)


def test_whole_match_with_fantasy_ctrl_c_and_timeout(tmp_path: Path) -> None:
    clock = Clock()

    def time_runs_out(timeout: float | None) -> None:
        assert timeout is not None
        clock.time += timeout + 1

    singles = [f"{card} {row} ok" for card, row in zip(PLAYER_SINGLES.split(), "tmmmbbbb", strict=True)]
    items: list[Item] = [
        "Zz b",
        "help",
        "Qh Qd t Kc Kd m Ac b",
        "undo",
        "hint",
        "Ac b",
        "",
        *singles,
        "",  # after the showdown of hand 1
        "Ah b",
        "solve",
        "accept",
        "",
        "",  # after the showdown of hand 2
        KeyboardInterrupt,
        "n",
        time_runs_out,
        "",  # after the showdown of hand 3
    ]
    out, game = run(items, tmp_path, [rigged_deck(), Deck(7), Deck(8), Deck(9)], clock)
    assert "'Zz' is neither a card (like Ah, Td, 10c) nor a command (help lists them)" in out
    assert "Ah b Kd m 7c x   Ah to the bottom, Kd middle, 7c discarded (rows: t, m, b)" in out
    assert "took back Ac" in out
    assert "hint: top Kc Qh Qd | middle Ac Kd; expected +1.50 points" in out
    assert "royalties 7; " in out
    assert "fantasy next hand: 13 cards" in out
    assert "Fantasy: set all 13 cards (solve shows the solver's board)" in out
    assert "Placed: bottom Ah" in out
    # hand 2 keeps hand 1's button (seat 1), so ann, in fantasy, is dealt Deck(7)'s first 13 cards:
    # 6d Js 9s 4h Qc 4s 2c 6s 5h Ah 6c 4c Jh; best: sixes full of jacks (6) under trip fours (2)
    assert "solver: top 9s 5h 2c | middle Ah Qc 4s 4h 4c | bottom Js Jh 6s 6d 6c" in out
    assert "Placed: top 9s 5h 2c | middle Ah Qc 4s 4h 4c | bottom Js Jh 6s 6d 6c" in out
    assert "Leave the match? Finished hands are saved. [y/N] " in out
    assert TIMED_OUT in out
    assert "The match is over." in out
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"20261129-120000-hand0{n}.json" for n in (1, 2, 3)]
    histories = [read(f.read_text(encoding="utf-8")) for f in files]
    assert [h.fantasy for h in histories] == [(0, 0), (13, 0), histories[2].fantasy]
    assert all(h.viewer == 0 and check_copy(h) is not None for h in histories)
    assert [r.automatic for r in histories[2].records if r.action.seat == 0] == [True] * 9
    assert game.match.finished


def run(items: list[Item], tmp_path: Path, decks: list[Deck], clock: Clock) -> tuple[str, Game]:
    """Play a match of classic against a random bot with ``items`` typed; the output and the game."""
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, force_terminal=False)
    face = Face(console, Script(items), now=clock)
    supply = iter(decks)
    game = Game(
        face,
        Match(Rules(), button=1),
        ["ann", "random"],
        {1: make_bot("random", seed=3)},
        store=HandStore(tmp_path, datetime(2026, 11, 29, 12, 0, tzinfo=UTC)),
        decks=lambda: next(supply),
        advisor=FirstLegal,
    )
    game.run()
    return out.getvalue(), game


def test_loss_limit_ends_the_match_after_one_hand(tmp_path: Path) -> None:
    clock = Clock()

    def time_runs_out(timeout: float | None) -> None:
        assert timeout is not None
        clock.time += timeout + 1

    out = io.StringIO()
    face = Face(Console(file=out, width=200, color_system=None), Script([time_runs_out, ""]), now=clock)
    rules = Rules().with_settings({"loss_limit": "1", "players": 3})
    bots = {1: make_bot("random", seed=1), 2: make_bot("random", seed=2)}
    store = HandStore(tmp_path, datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    game = Game(
        face, Match(rules, button=0), ["ann", "r1", "r2"], bots, store=store, decks=lambda: Deck(5), advisor=FirstLegal
    )
    game.run()
    text = out.getvalue()
    assert "Reached the loss limit and left the match: r1, r2" in text
    assert text.endswith(
        "The match is over.\nMatch after 1 hand: points (money at 1.00 a point)\n"
        f"  ann +2 (+2.00), r1 -1 (-1.00), r2 -1 (-1.00)\nHand histories are in {tmp_path}\n"
    )
    assert len(list(tmp_path.iterdir())) == 1


def test_an_illegal_bot_move_is_reported_without_naming_the_bots_cards(tmp_path: Path) -> None:
    """The engine's error names a card the bot holds; the player must not see it.

    Pineapple, seat 1 (the bot) acts first. On street 2 it places its second card, discards
    its third and leaves its first unplaced: the error names that first card, and the first
    legal action, played instead, discards exactly that card face-down.
    """

    class Sloppy:
        name = "sloppy"

        def act(self, view: HandView) -> Action:
            assert view.seat is not None
            _first, second, third = view.cards
            return Action.of(view.seat, middle=[second], discard=[third])

    out = io.StringIO()
    face = Face(Console(file=out, width=200, color_system=None), Script([]), now=Clock())
    rules = Rules.preset("pineapple")
    game = Game(
        face, Match(rules, button=0), ["ann", "sloppy"], {}, store=HandStore(tmp_path, datetime.now(UTC)),
        decks=lambda: Deck(1), advisor=FirstLegal,
    )  # fmt: skip
    hand = game.session.deal(deck=Deck(1), now=0)
    hand.apply(legal_actions(hand.view(1))[0], 0)
    hand.apply(legal_actions(hand.view(0))[0], 0)
    secret = hand.view(1).cards[0]
    game._bot_acts(hand, 1, Sloppy())  # type: ignore[arg-type]
    assert hand.view(1).discards == (secret,)
    assert out.getvalue() == "sloppy made an illegal move; it plays its first legal one\n"
    assert format_card(secret) not in out.getvalue()


def test_ok_before_every_card_is_placed_names_the_cards_left_in_the_players_language() -> None:
    rules = Rules.preset("classic")
    cases: list[tuple[Language, str]] = [
        ("en", "place every card first: {cards} still to go"),
        ("ru", "сначала разложите все карты: осталось {cards}"),
        ("uk", "спершу розкладіть усі карти: лишилося {cards}"),
    ]
    for language, expected in cases:
        hand = Hand(rules, button=1, seed=5)
        held = hand.view(0).cards
        out = io.StringIO()
        face = Face(Console(file=out, width=200, color_system=None), Script([f"{format_card(held[0])} b", "ok"]))
        turn = Turn(face, hand, 0, Table(("me", "bot"), 1, ""), advisor=lambda: make_bot("random"))
        with use_language(language), pytest.raises(LeaveMatch):
            turn.play()
        left = " ".join(format_card(card) for card in held[1:])
        assert expected.format(cards=left) in out.getvalue()
        assert hand.view(0).cards == held  # nothing was applied
