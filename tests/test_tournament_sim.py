"""Bot tournaments: invariants over many seeded tournaments, and the run statistics."""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.bots.spec import bot_names
from ofc.engine.hand import Hand
from ofc.formats.history import TournamentFields, read, replay, write
from ofc.rules.errors import BotError, RulesError
from ofc.rules.rulebook import Rules
from ofc.series.tournament import Tournament, TournamentHand
from ofc.sim.tournaments import (
    Standing,
    TournamentRun,
    bot_record,
    place_weights,
    play_tournament,
    repeat,
    wilson,
)

PAYOUTS = ["1", "0.7,0.3", "0.5,0.3,0.2", "0.6,0.4"]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Rules, list[str], int]:
    """Small tournaments of the fast bots: short stacks and quick levels, so each ends fast."""
    variant = draw(st.sampled_from(["classic", "turbo", "pineapple"]))
    players = draw(st.integers(2, 3 if variant == "pineapple" else 4))
    levels = sorted(draw(st.lists(st.integers(1, 30), min_size=1, max_size=4)))
    payouts = draw(st.sampled_from([p for p in PAYOUTS if len(p.split(",")) <= players]))
    rules = Rules.preset(variant).with_settings(
        {
            "players": players,
            "starting_chips": draw(st.integers(1, 120)),
            "level_hands": draw(st.integers(1, 3)),
            "chips_per_point": ",".join(map(str, levels)),
            "payouts": payouts,
            "buy_in": draw(st.sampled_from(["100", "33.33", "0", "7.01"])),
            "fantasy": draw(st.booleans()),
        }
    )
    bots = draw(st.lists(st.sampled_from(["random", "heuristic"]), min_size=players, max_size=players))
    return rules, bots, draw(st.integers(0, 2**31))


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_chips_levels_places_and_prizes_hold_in_every_bot_tournament(case: tuple[Rules, list[str], int]) -> None:
    rules, bots, seed = case
    total = rules.starting_chips * rules.players
    last = len(rules.chips_per_point) - 1

    def check_hand(tournament: Tournament, record: TournamentHand, hand: Hand) -> None:
        number = record.plan.hand
        # Chips are conserved every hand, and nobody holds fewer than none.
        assert sum(record.chips) == total
        assert min(record.chips) >= 0
        assert sum(record.won) == 0
        # Levels change every level_hands hands; the last level lasts for ever.
        assert record.level == min(number // rules.level_hands, last)
        assert record.chips_per_point == rules.chips_per_point[record.level]
        # Those out are exactly those left without chips.
        assert set(record.busted) == {s for s in record.plan.seats if record.chips[s] == 0}
        # The hand's history carries level and chips, and its check agrees with the tournament.
        fields = TournamentFields.of(record)
        document = write(hand, tournament=fields)
        assert document["version"] == 2
        assert read(document).tournament == fields
        replay(document)

    run = play_tournament(rules, bots, seed=seed, on_hand=check_hand)
    # Places are a permutation of 1..players once each tied group takes the places it shares.
    groups = {s.place: [o for o in run.standings if o.place == s.place] for s in run.standings}
    assert all(len(group) == s.tied for group in groups.values() for s in group)
    places = sorted(place + k for place, group in groups.items() for k in range(len(group)))
    assert places == list(range(1, rules.players + 1))
    assert sum(s.prize for s in run.standings) == rules.buy_in * rules.players
    assert all(s.prize == s.prize.quantize(Decimal("0.01")) and s.prize >= 0 for s in run.standings)
    assert [s.place for s in run.standings if s.out_in_hand is None] == [1]
    assert sum(level.hands for level in run.levels) == run.hands
    assert [level.level for level in run.levels] == list(range(1, len(run.levels) + 1))
    assert max(s.hands_played for s in run.standings) == run.hands


def test_a_run_is_reproducible_whatever_the_number_of_workers() -> None:
    rules = Rules.preset("pineapple").with_settings({"starting_chips": 40, "level_hands": 2})
    one = repeat(rules, ["random", "heuristic"], 6, seed=11, workers=1, chunk=2)
    two = repeat(rules, ["random", "heuristic"], 6, seed=11, workers=2, chunk=2)
    assert one == two
    assert play_tournament(rules, ["random", "heuristic"], seed=11, index=3) == play_tournament(
        rules, ["random", "heuristic"], seed=11, index=3
    )


def test_bots_change_seats_from_one_tournament_to_the_next() -> None:
    rules = Rules.preset("classic").with_settings({"starting_chips": 5})
    seats = [[s.seat for s in play_tournament(rules, ["random"] * 3, seed=1, index=k).standings] for k in range(3)]
    assert seats == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]


def test_bots_are_named_for_their_kind_and_numbered_when_repeated() -> None:
    assert bot_names(["mc:seconds=0.1", "random", "random", "mc"]) == ("mc", "random", "random2", "mc2")


def standing(place: int, tied: int = 1, prize: str = "0") -> Standing:
    return Standing("bot", 0, place, tied, Decimal(prize), 10, None if place == 1 else 10)


def test_a_shared_place_counts_a_share_of_each_place_it_covers() -> None:
    assert place_weights(standing(2, 2), 4) == [0, Fraction(1, 2), Fraction(1, 2), 0]
    assert place_weights(standing(1), 3) == [1, 0, 0]


def test_wilson_interval_worked_by_hand() -> None:
    # 5 of 10, z = 1.96: centre (0.5 + 0.19208) / 1.38415 = 0.5, half-width
    # 1.96 * sqrt(0.025 + 0.0096040) / 1.38415 = 0.26340: 0.23660 .. 0.76340.
    low, high = wilson(0.5, 10)
    assert low == pytest.approx(0.23660, abs=1e-5)
    assert high == pytest.approx(0.76340, abs=1e-5)
    # 0 of 8: centre 0.48016 / 8 / 1.48016 ... the interval is 0 .. z^2 / (n + z^2) = 3.84146 / 11.84146.
    assert wilson(0.0, 8) == (0.0, pytest.approx(3.841459 / 11.841459, abs=1e-6))


def test_a_bot_record_over_three_tournaments() -> None:
    # Prizes 300, 0, 150 (a tie for first of two): mean 150; sample deviation 150, so the 95%
    # half-width is 1.96 * 150 / sqrt(3) = 169.74. Places: first 1 + 0 + 1/2, second 0 + 0 + 1/2,
    # third 0 + 1 + 0, each over 3 tournaments.
    runs = [
        TournamentRun(k, Decimal(300), 9, (standing(*finish),), ())
        for k, finish in enumerate([(1, 1, "300"), (3, 1, "0"), (1, 2, "150")])
    ]
    runs = [TournamentRun(r.index, r.pool, r.hands, (r.standings[0], standing(2), standing(3)), ()) for r in runs]
    record = bot_record(0, runs)
    assert record.mean_prize == 150
    assert record.ci95 == pytest.approx(1.959964 * 150 / 3**0.5, abs=1e-3)
    assert [p.share for p in record.places] == pytest.approx([0.5, 1 / 6, 1 / 3])
    assert record.mean_hands == 10


def test_bad_runs_are_refused_before_anything_is_played() -> None:
    rules = Rules.preset("pineapple")
    with pytest.raises(BotError, match="unknown bot 'robot'"):
        repeat(rules, ["random", "robot"], 2, seed=1)
    with pytest.raises(RulesError, match="--repeat must be at least 1, not 0"):
        repeat(rules, ["random", "random"], 0, seed=1)
    with pytest.raises(RulesError, match="setting payouts: 3 places paid but 2 players"):
        repeat(rules.with_settings({"payouts": "0.5,0.3,0.2"}), ["random", "random"], 2, seed=1)
