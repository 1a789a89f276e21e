"""Bots: legal actions from views of every variant, fantasy through the solver, the protocol."""

from __future__ import annotations

import ast
import inspect
import random
import time
from decimal import Decimal
from pathlib import Path

import pytest

import ofc.bots
from ofc.bots import Bot, Decision, HeuristicBot, MonteCarloBot, RandomBot, legal_actions, make_bot
from ofc.engine.clock import ClockReading
from ofc.engine.hand import Hand
from ofc.engine.view import HandView, SeatView, SeenAction
from ofc.rules.cards import parse_cards
from ofc.rules.errors import BotError, DeterminizeError
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules
from ofc.solver import solve_fantasy

TABLES = [
    ("classic", 2), ("classic", 3), ("classic", 4),
    ("turbo", 2), ("turbo", 3), ("turbo", 4),
    ("pineapple", 2), ("pineapple", 3),
    ("pineapple-progressive", 3),
]  # fmt: skip
SPECS = ["random", "heuristic", "mc:rollouts=2,candidates=3"]


def rules_of(preset: str, players: int) -> Rules:
    return Rules.preset(preset).with_settings({"players": players})


def fantasy_deal(rules: Rules) -> int:
    return rules.spec.fantasy_cards if rules.fantasy_cards == "fixed" else 15


def play_checking(hand: Hand, bots: list[Bot]) -> int:
    """Play ``hand`` to the end with ``bots``; every action must be legal. Returns decisions."""
    decisions = 0
    while not hand.is_over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        decision = bots[seat].decide(view)
        assert isinstance(decision, Decision)
        assert hand.is_legal(decision.action), (bots[seat].name, view, decision.action)
        hand.apply(decision.action, 0)
        decisions += 1
    return decisions


@pytest.mark.parametrize(("preset", "players"), TABLES)
@pytest.mark.parametrize("spec", SPECS)
def test_every_bot_plays_legal_actions(preset: str, players: int, spec: str) -> None:
    rules = rules_of(preset, players)
    bots = [make_bot(spec, seed=seat) for seat in range(players)]
    hand = Hand(rules, button=players - 1, seed=17)
    streets = len(rules.spec.streets)
    assert play_checking(hand, bots) == streets * players


@pytest.mark.parametrize(("preset", "players"), TABLES)
@pytest.mark.parametrize("spec", SPECS)
def test_fantasy_hands_are_played_through_the_solver(preset: str, players: int, spec: str) -> None:
    rules = rules_of(preset, players)
    fantasy = [0] * players
    fantasy[0] = fantasy_deal(rules)
    hand = Hand(rules, button=1, seed=3, fantasy=fantasy)
    bots = [make_bot(spec, seed=seat) for seat in range(players)]
    view = hand.view(0)
    decision = bots[0].decide(view)
    solution = solve_fantasy(view.cards, rules, can_stay=True)
    assert decision.action.row_cards(Row.TOP) == tuple(sorted(solution.board.top, reverse=True))
    assert decision.action.row_cards(Row.MIDDLE) == tuple(sorted(solution.board.middle, reverse=True))
    assert decision.action.row_cards(Row.BOTTOM) == tuple(sorted(solution.board.bottom, reverse=True))
    assert decision.action.discards == tuple(sorted(solution.discards, reverse=True))
    assert decision.value == solution.value
    # the others play round the hidden fantasy board, and every action stays legal
    play_checking(hand, bots)
    assert hand.result is not None
    assert not hand.result.sheet.players[0].fouled


def test_a_fantasy_seat_acting_after_the_others_is_still_solved() -> None:
    rules = Rules.preset("pineapple")
    hand = Hand(rules, button=0, seed=8, fantasy=(0, 14))
    bots: list[Bot] = [make_bot("mc:rollouts=3", seed=1), make_bot("heuristic")]
    while hand.to_act != (1,):
        hand.apply(bots[0].act(hand.view(0)), 0)
    view = hand.view(1)
    action = bots[1].act(view)
    assert hand.is_legal(action)
    assert len(action.discards) == 1


def random_states(preset: str, players: int, seed: int) -> list[Hand]:
    """Hands stopped at random points of random legal play (copies by replay)."""
    rng = random.Random(seed)
    rules = rules_of(preset, players)
    fantasy = [0] * players
    if rng.random() < 0.5:
        fantasy[rng.randrange(players)] = fantasy_deal(rules)
    states = []
    for stop in range(0, 40, 3):
        hand = Hand(rules, button=rng.randrange(players), seed=seed, fantasy=fantasy)
        moves = random.Random(seed)
        for _ in range(stop):
            if hand.is_over:
                break
            seat = hand.to_act[moves.randrange(len(hand.to_act))]
            options = hand.legal_actions(seat)
            hand.apply(options[moves.randrange(len(options))], 0)
        states.append(hand)
    return states


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_legal_actions_from_a_view_equal_the_engines(preset: str, players: int) -> None:
    for hand in random_states(preset, players, seed=players * 11):
        for seat in range(players):
            mine = legal_actions(hand.view(seat))
            engine = hand.legal_actions(seat)
            assert len(mine) == len(engine)
            if len(engine) <= 5000:
                assert set(mine) == set(engine)
            else:  # a fantasy deal: compare a sample both ways
                for index in range(0, len(engine), len(engine) // 97):
                    assert engine[index] in mine
                    assert hand.is_legal(mine[index])


def test_legal_actions_of_the_first_deal_and_a_pineapple_street() -> None:
    rules = Rules.preset("pineapple")
    hand = Hand(rules, button=1, seed=4)
    first = legal_actions(hand.view(0))
    assert len(first) == 3**5 - 11  # no more than three cards on top: 243 - C(5,4)*2 - 1
    assert len(legal_actions(hand.view(1))) == 0
    hand.apply(first[0], 0)
    hand.apply(legal_actions(hand.view(1))[0], 0)
    street = legal_actions(hand.view(0))
    assert all(len(action.discards) == 1 and len(action.placements) == 2 for action in street)


def test_mc_runs_the_rollouts_it_is_asked_for() -> None:
    bot = MonteCarloBot(seconds=None, rollouts=7, candidates=4, seed=1)
    hand = Hand(Rules.preset("pineapple"), button=1, seed=9)
    decision = bot.decide(hand.view(0))
    assert bot.last_rollouts == 7
    assert isinstance(decision.value, float)
    assert hand.is_legal(decision.action)


def test_mc_keeps_to_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget logic on a fake clock (no wall-clock bound: timing belongs to benchmarks/).

    Each play-out costs exactly 1 ms of fake time (the kernel is stubbed), so a 0.15 s budget
    allows at most 150 play-outs per candidate: the bot must stop at or before that, and not
    long before it (it plans batches to use the time left, less a safety margin of 20%)."""
    import ofc.bots.mc as mc

    clock = [0.0]

    def fake_play_out(job: object, first: int, n: int, *rest: object) -> None:
        clock[0] += n * 0.001

    monkeypatch.setattr(mc, "play_out", fake_play_out)
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])  # mc reads time.perf_counter()
    bot = make_bot("mc:seconds=0.15", seed=2)
    assert isinstance(bot, MonteCarloBot)
    hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=2, seed=10)
    bot.decide(hand.view(0))
    assert clock[0] <= 0.15 + 1e-9
    assert 100 <= bot.last_rollouts <= 150
    capped = make_bot("mc:seconds=0.15,rollouts=30", seed=2)
    assert isinstance(capped, MonteCarloBot)
    capped.decide(hand.view(0))
    assert capped.last_rollouts == 30  # a rollout cap below the budget ends the search first


def test_mc_is_reproducible_from_its_seed() -> None:
    hand = Hand(Rules.preset("classic"), button=0, seed=12)
    first = make_bot("mc:rollouts=20", seed=5).decide(hand.view(1))
    again = make_bot("mc:rollouts=20", seed=5).decide(hand.view(1))
    assert first == again


def classic_history(boards: dict[int, tuple[tuple[int, ...], ...]], order: tuple[int, ...]) -> tuple[SeenAction, ...]:
    """A public history that places ``boards`` as classic deals them: five cards, then one a street.

    Seats act in ``order`` each street; which card went on which street does not matter here,
    only that the history accounts for every card on the boards (a view the engine could make).
    """
    placements = {
        seat: [(card, Row(row)) for row, cards in enumerate(rows) for card in cards] for seat, rows in boards.items()
    }
    history: list[SeenAction] = []
    streets = max(len(cards) for cards in placements.values()) - 4
    for street in range(streets):
        for seat in order:
            cards = placements[seat][:5] if street == 0 else placements[seat][4 + street : 5 + street]
            if cards:
                history.append(SeenAction(seat, tuple(cards), (), 0, 0, Decimal(0), False))
    return tuple(history)


def seat_view(seat: int, rows: tuple[tuple[int, ...], ...], clock: ClockReading, holding: int) -> SeatView:
    return SeatView(
        seat=seat, fantasy=0, fantasy_in_row=0, rows=rows, hidden=0, holding=holding,  # type: ignore[arg-type]
        discarded=0, done=False, clock=clock,
    )  # fmt: skip


def test_mc_and_heuristic_take_the_flush_rather_than_risk_a_foul() -> None:
    """Classic, one card after this one: As to the bottom makes a flush; on top it risks a foul."""
    rules = Rules.preset("classic")
    clock = Hand(rules, button=1, seed=0).view(0).seats[0].clock
    mine = (parse_cards("2c 3d"), parse_cards("Kc Kd 7h 7s 8c"), parse_cards("Ks 9s 5s 3s"))
    theirs = (parse_cards("Qh Jd"), parse_cards("Tc Td 4c 4d"), parse_cards("6h 6d 6c 9h 9d"))
    view = HandView(
        rules=rules, seat=0, button=1, street=7, to_act=(0,), now=Decimal(0), cards=parse_cards("As"),
        discards=(),
        seats=(seat_view(0, mine, clock, holding=1), seat_view(1, theirs, clock, holding=0)),
        result=None, history=classic_history({0: mine, 1: theirs}, order=(0, 1)),
    )  # fmt: skip
    assert len(legal_actions(view)) == 2
    decision = make_bot("mc:rollouts=50", seed=1).decide(view)
    assert decision.action.placements == ((parse_cards("As")[0], Row.BOTTOM),)
    assert isinstance(decision.value, float)
    heuristic = make_bot("heuristic").decide(view)
    assert heuristic.action == decision.action
    assert heuristic.value is None


def test_bots_satisfy_the_protocol_and_take_only_a_view() -> None:
    for spec in ("random", "heuristic", "mc"):
        bot = make_bot(spec)
        assert isinstance(bot, Bot)
        for method in (bot.decide, bot.act):
            parameters = list(inspect.signature(method).parameters.values())
            assert [p.name for p in parameters] == ["view"]
            assert parameters[0].annotation in ("HandView", HandView)
    assert isinstance(RandomBot(), Bot)
    assert isinstance(HeuristicBot(), Bot)


def test_no_bot_module_imports_the_engine() -> None:
    # analysis.py is no bot: it replays a saved hand history to build each decision's view
    forbidden = {"ofc.engine.hand", "ofc.series.session", "ofc.series.match", "ofc.formats.history"}
    for path in Path(ofc.bots.__file__).parent.glob("*.py"):
        if path.name == "analysis.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in forbidden, path.name
            elif isinstance(node, ast.Import):
                assert not {alias.name for alias in node.names} & forbidden, path.name


def test_a_spectator_or_idle_seat_cannot_be_decided_for() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=1)
    with pytest.raises(BotError, match="spectator"):
        make_bot("heuristic").decide(hand.view(None))
    with pytest.raises(BotError, match="seat 1 has nothing to decide now"):
        make_bot("random").decide(hand.view(1))
    assert len(legal_actions(hand.view(1))) == 0


def test_mc_results_do_not_depend_on_how_play_outs_are_batched(monkeypatch: pytest.MonkeyPatch) -> None:
    import ofc.bots.budget

    hand = Hand(Rules.preset("pineapple"), button=0, seed=21)
    view = hand.view(1)
    first = make_bot("mc:rollouts=20", seed=8).decide(view)
    monkeypatch.setattr(ofc.bots.budget, "FIRST_BATCH", 1)
    again = make_bot("mc:rollouts=20", seed=8).decide(view)
    assert first == again


def test_a_view_whose_history_does_not_account_for_its_boards_is_refused() -> None:
    """Such a view (built by hand, not by the engine) once made the play-out kernel deal past the
    end of its card pool and corrupt memory; now it is refused with the reason."""
    rules = Rules.preset("classic")
    clock = Hand(rules, button=1, seed=0).view(0).seats[0].clock
    mine = (parse_cards("2c 3d"), parse_cards("Kc Kd 7h 7s 8c"), parse_cards("Ks 9s 5s 3s"))
    theirs = (parse_cards("Qh Jd"), parse_cards("Tc Td 4c 4d"), parse_cards("6h 6d 6c 9h 9d"))
    view = HandView(
        rules=rules, seat=0, button=1, street=7, to_act=(0,), now=Decimal(0), cards=parse_cards("As"),
        discards=(), seats=(seat_view(0, mine, clock, holding=1), seat_view(1, theirs, clock, holding=0)),
        result=None,
    )  # fmt: skip
    with pytest.raises(DeterminizeError, match="history accounts for 0 placed and 0 discarded cards of seat 0"):
        make_bot("mc:rollouts=5", seed=1).decide(view)
