"""One voice for the bot (issue 37): the hint ranks by the number it shows, is unsure below a floor
of play-outs, and the analysis never calls the hint's own first choice a mistake.

Every bot here is bounded by play-outs, not time, so each run is the same.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ofc.bots import make_bot
from ofc.bots.analysis import Analyzer, DecisionReport
from ofc.bots.base import Decision
from ofc.bots.hint import HINT_FLOOR, hint_figures, is_unsure
from ofc.bots.pro import ProBot
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.formats import history
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules

ANALYSIS_ROLLOUTS = 100


def hinted_hand(preset: str, seed: int) -> Hand:
    """A heads-up hand in which seat 0 plays the hint's first choice on every street (the hint bot
    as the server runs it, on ``HINT_FLOOR`` play-outs), seat 1 the heuristic bot."""
    hint = ProBot(rollouts=HINT_FLOOR, seconds=None, seed=seed)
    other = make_bot("heuristic")
    hand = Hand(Rules.preset(preset), button=1, seed=1000 + seed)
    while not hand.is_over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        hand.apply((hint if seat == 0 else other).act(view), 0)
    return hand


@pytest.mark.parametrize(
    ("preset", "hands", "decisions", "within_noise"),
    [("pineapple", 16, 80, 37), ("classic", 6, 54, 8), ("turbo", 8, 24, 5)],
)
def test_the_hints_first_choice_is_never_called_a_mistake(
    preset: str, hands: int, decisions: int, within_noise: int
) -> None:
    """The hint's first choice played on every street of seeded hands: the analysis, pricing by the
    same evaluation, flags none of them; the losses it finds are within the noise of the hint's own
    play-outs or below the flag, and each is labelled so."""
    analyser = Analyzer(rollouts=ANALYSIS_ROLLOUTS, seed=3)
    verdicts: Counter[str] = Counter()
    for seed in range(hands):
        hand = hinted_hand(preset, seed)
        for report in analyser.analyse(history.read(history.write(hand)), [0]):
            if report.kind != "street":
                continue
            assert report.loss is not None
            assert report.noise is not None
            assert report.ci95 is not None
            assert not report.flagged, (preset, seed, report.street, report.loss, report.noise)
            assert report.noise >= report.ci95
            if report.loss == 0:
                verdicts["best"] += 1
            elif report.within_noise:
                verdicts["within noise"] += 1
            else:
                assert report.loss < analyser.flag  # beyond the noise but under the flag: no label
                verdicts["small"] += 1
    assert sum(verdicts.values()) == decisions
    assert verdicts["within noise"] == within_noise


def street_view(preset: str, seed: int, street: int) -> HandView:
    """Seat 0's view on ``street`` (from 0) of a heads-up hand both seats play heuristically."""
    bot = make_bot("heuristic")
    hand = Hand(Rules.preset(preset), button=1, seed=seed)
    while True:
        seat = hand.to_act[0]
        view = hand.view(seat)
        if seat == 0 and view.street == street:
            return view
        hand.apply(bot.act(view), 0)


def test_a_hint_below_the_floor_is_unsure_and_shows_no_numbers() -> None:
    view = street_view("pineapple", 5, 1)
    shy = ProBot(rollouts=HINT_FLOOR - 1, seconds=None, seed=1)
    decision = shy.decide(view)
    figures = hint_figures(shy, decision)
    assert figures.unsure
    assert figures.value is None
    assert len(figures.choices) == 3
    assert figures.choices[0]["action"] == decision.action.to_dict()
    assert [(c["value"], c["score"], c["points"], c["foul"]) for c in figures.choices] == [(None, None, None, None)] * 3


def test_a_hint_at_the_floor_shows_the_numbers_it_ranks_by() -> None:
    view = street_view("pineapple", 5, 1)
    bot = ProBot(rollouts=HINT_FLOOR, seconds=None, seed=1)
    decision = bot.decide(view)
    figures = hint_figures(bot, decision)
    assert not figures.unsure
    values = [c["value"] for c in figures.choices]
    # the numbers shown are the scores ranked by (foul risk charged): they read best first
    assert values == [c.score for c in bot.last_choices[:3]]
    assert values == sorted(values, reverse=True)
    assert figures.value == values[0]
    assert [c["points"] for c in figures.choices] == [c.value for c in bot.last_choices[:3]]


def test_an_exact_last_street_is_never_unsure() -> None:
    view = street_view("pineapple", 5, 4)
    bot = ProBot(rollouts=2, seconds=None, seed=1)
    decision = bot.decide(view)
    assert bot.last_exact
    figures = hint_figures(bot, decision)
    assert not figures.unsure
    assert figures.value == bot.last_choices[0].score


class StandIn:
    """A bot that keeps no ranking of play-outs (as the heuristic bot): only its name."""

    name = "stand-in"


def test_a_bot_without_play_outs_is_never_unsure() -> None:
    action = Action(0, ((0, Row.TOP),), ())
    assert not is_unsure(StandIn())
    figures = hint_figures(StandIn(), Decision(action, 1.5))
    assert (figures.value, figures.choices, figures.unsure) == (1.5, [], False)


@pytest.mark.parametrize(
    ("loss", "noise", "within"),
    [(0.0, 0.0, False), (0.0, 1.0, False), (0.5, 1.0, True), (1.0, 1.0, True), (1.5, 1.0, False), (None, None, False)],
)
def test_within_noise_is_a_loss_no_larger_than_the_noise(loss: float | None, noise: float | None, within: bool) -> None:
    report = DecisionReport(0, 0, 0, Action(0, ((0, Row.TOP),), ()), "street", loss=loss, noise=noise)
    assert report.within_noise is within
    assert report.to_dict()["within_noise"] is within
