"""Scoring: every royalty, fouls, fantasy entry and stay, settlement paths worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.rules.cards import parse_cards
from ofc.rules.errors import BoardError, CardError, RulesError
from ofc.rules.ranking import rank3, rank5
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import (
    Board,
    Royalties,
    bottom_royalty,
    is_fouled,
    middle_royalty,
    next_fantasy_cards,
    row_keys,
    royalties,
    score_boards,
    top_royalty,
)

CLASSIC = Rules.preset("classic")
PINEAPPLE = Rules.preset("pineapple")
PROGRESSIVE = Rules.preset("pineapple-progressive")


def board(top: str, middle: str, bottom: str) -> Board:
    return Board(parse_cards(top), parse_cards(middle), parse_cards(bottom))


# ------------------------------------------------------------------ royalties, row by row

BOTTOM_CASES = [
    ("2h 3d 4c 5s 6h", 2, 2),  # straight
    ("Ah 2d 3c 4s 5h", 2, 2),  # the wheel
    ("Ah 9h 7h 4h 2h", 4, 4),  # flush
    ("Kh Kd Kc 9s 9h", 6, 6),  # full house
    ("6h 6d 6c 6s 2h", 8, 10),  # quads
    ("9h 8h 7h 6h 5h", 10, 15),  # straight flush
    ("5h 4h 3h 2h Ah", 10, 15),  # steel wheel
    ("Ah Kh Qh Jh Th", 15, 25),  # royal flush
    ("Jh Jd Jc 9s 2h", 0, 0),  # trips pay nothing at the bottom
    ("Jh Jd 9c 9s 2h", 0, 0),
    ("Ah Ad 9c 8s 2h", 0, 0),
    ("Ah Kd 9c 8s 2h", 0, 0),
]


@pytest.mark.parametrize(("cards", "classic", "american"), BOTTOM_CASES)
def test_bottom_royalties(cards: str, classic: int, american: int) -> None:
    key = rank5(parse_cards(cards))
    assert bottom_royalty(key, CLASSIC.royalty_table) == classic
    assert bottom_royalty(key, PINEAPPLE.royalty_table) == american


MIDDLE_CASES = [
    ("Jh Jd Jc 9s 2h", 2, 2),  # trips
    ("2h 3d 4c 5s 6h", 4, 4),
    ("Ah 9h 7h 4h 2h", 8, 8),
    ("Kh Kd Kc 9s 9h", 12, 12),
    ("6h 6d 6c 6s 2h", 16, 20),
    ("9h 8h 7h 6h 5h", 20, 30),
    ("Ah Kh Qh Jh Th", 30, 50),
    ("Jh Jd 9c 9s 2h", 0, 0),
    ("Ah Ad 9c 8s 2h", 0, 0),
]


@pytest.mark.parametrize(("cards", "classic", "american"), MIDDLE_CASES)
def test_middle_royalties(cards: str, classic: int, american: int) -> None:
    key = rank5(parse_cards(cards))
    assert middle_royalty(key, CLASSIC.royalty_table) == classic
    assert middle_royalty(key, PINEAPPLE.royalty_table) == american


TOP_CASES = [
    ("Ah Kd Qc", 0),
    ("2h 2d Ac", 0),
    ("5h 5d Ac", 0),
    ("6h 6d 2c", 1),
    ("7h 7d 2c", 2),
    ("8h 8d 2c", 3),
    ("9h 9d 2c", 4),
    ("Th Td 2c", 5),
    ("Jh Jd 2c", 6),
    ("Qh Qd 2c", 7),
    ("Kh Kd 2c", 8),
    ("Ah Ad 2c", 9),
    ("2h 2d 2c", 10),
    ("3h 3d 3c", 11),
    ("4h 4d 4c", 12),
    ("5h 5d 5c", 13),
    ("6h 6d 6c", 14),
    ("7h 7d 7c", 15),
    ("8h 8d 8c", 16),
    ("9h 9d 9c", 17),
    ("Th Td Tc", 18),
    ("Jh Jd Jc", 19),
    ("Qh Qd Qc", 20),
    ("Kh Kd Kc", 21),
    ("Ah Ad Ac", 22),
]


@pytest.mark.parametrize(("cards", "value"), TOP_CASES)
def test_top_royalties(cards: str, value: int) -> None:
    key = rank3(parse_cards(cards))
    assert top_royalty(key, CLASSIC.royalty_table) == value
    assert top_royalty(key, PINEAPPLE.royalty_table) == value


def test_board_royalties_and_foul_zero() -> None:
    live = board("Kh Kd 2c", "Ah Ad Ac 5s 4s", "7h 8h 9h Th Jh")
    assert royalties(live, CLASSIC) == Royalties(8, 2, 10)
    assert royalties(live, PINEAPPLE) == Royalties(8, 2, 15)
    assert royalties(live, PINEAPPLE).total == 25
    dead = board("Qs Qc 3d", "Js 9s 6d 4d 2d", "Ks Kc 8s 8c 3c")
    assert is_fouled(dead)
    assert royalties(dead, CLASSIC) == Royalties(0, 0, 0)


# ------------------------------------------------------------------ fouls


@pytest.mark.parametrize(
    ("top", "middle", "bottom", "fouled"),
    [
        ("Qh Qd Kc", "Qs Qc Kd 3h 2h", "Ah Ad As 4c 5c", False),  # RULES.md: legal
        ("Qh Qd Ac", "Qs Qc Kd 3h 2h", "Jh Jd Js 4c 5c", True),  # RULES.md: a foul
        ("Ah Qd 3c", "Kh Kd 9c 9s 2h", "Kc Ks 9d 9h 2d", False),  # middle ties bottom
        ("Ah Qd 3c", "Kh Kd 9c 9s 2h", "Qc Qs 9d 9h 2d", True),  # middle beats bottom
        ("2h 2d 2c", "Ah Ad Kc Ks Qh", "3h 4h 5h 6h 7h", True),  # trips over two pair
        ("2h 2d 2c", "3c 3d 3h Ks Qh", "3s 4s 5s 6s 7s", False),
    ],
)
def test_fouls(top: str, middle: str, bottom: str, fouled: bool) -> None:
    assert is_fouled(board(top, middle, bottom)) is fouled


def test_board_shape_errors() -> None:
    with pytest.raises(BoardError, match="the top row needs 3 cards, got 4"):
        board("Ah Kd 4c 5c", "Qh Qd 9c 8s 7s", "5h 5d 5s 2h 3h")
    with pytest.raises(BoardError, match="the bottom row needs 5 cards, got 4"):
        board("Ah Kd 4c", "Qh Qd 9c 8s 7s", "5h 5d 5s 2h")
    with pytest.raises(CardError, match="card Ah appears twice"):
        board("Ah Kd 4c", "Qh Qd 9c 8s Ah", "5h 5d 5s 2h 3h")
    with pytest.raises(BoardError, match="not a card"):
        Board((0, 1, 52), (2, 3, 4, 5, 6), (7, 8, 9, 10, 11))
    with pytest.raises(BoardError, match="unknown row 'side'"):
        board("Ah Kd 4c", "Qh Qd 9c 8s 7s", "5h 5d 5s 2h 3h").row("side")


# ------------------------------------------------------------------ fantasy

TRIPS_TOP = board("2h 2d 2c", "3h 3d 3c 9s 8s", "Ah Kh Qh Jh 9h")
QUADS_BOTTOM = board("Ah Kd 4c", "Qh Qd 9c 8s 7s", "5h 5d 5c 5s 2h")
QUADS_MIDDLE = board("Ah Kd 4c", "5h 5d 5c 5s 2h", "9h 9d 9c 9s 3c")
FULL_HOUSE_MIDDLE = board("Ah Kd 4c", "5h 5d 5c 2s 2h", "9h 9d 9c 3s 3h")
QUEENS_TOP = board("Qh Qd 2c", "9h 9d 9c 3s 4s", "As Ks Js 8s 2s")
KINGS_TOP = board("Kh Kd 2c", "Ah Ad Ac 5s 4s", "7h 8h 9h Th Jh")
ACES_TOP = board("Ah Ad 2c", "Kh Kd Kc 5s 4s", "7h 8h 9h Th Jh")
JACKS_TOP = board("Jh Jd 2c", "Ah Ad Ac 5s 4s", "7h 8h 9h Th 6h")
FOULED_QUEENS = board("Qs Qc 3d", "Js 9s 6d 4d 2d", "Ks Kc 8s 8c 3c")


@pytest.mark.parametrize(
    ("rules", "hand", "cards"),
    [
        (CLASSIC, QUEENS_TOP, 13),
        (Rules.preset("turbo"), QUEENS_TOP, 13),
        (PINEAPPLE, QUEENS_TOP, 14),
        (PINEAPPLE, KINGS_TOP, 14),
        (PINEAPPLE, TRIPS_TOP, 14),
        (PROGRESSIVE, QUEENS_TOP, 14),
        (PROGRESSIVE, KINGS_TOP, 15),
        (PROGRESSIVE, ACES_TOP, 16),
        (PROGRESSIVE, TRIPS_TOP, 17),
        (CLASSIC, JACKS_TOP, 0),
        (PROGRESSIVE, JACKS_TOP, 0),
        (CLASSIC, FOULED_QUEENS, 0),
        (CLASSIC.with_settings({"fantasy": "off"}), QUEENS_TOP, 0),
        (CLASSIC, QUADS_BOTTOM, 0),  # quads do not enter, they only keep fantasy
    ],
)
def test_fantasy_entry(rules: Rules, hand: Board, cards: int) -> None:
    assert next_fantasy_cards(row_keys(hand), rules, fantasy_in_row=0) == cards


ALL_STAY = "top_trips,bottom_quads_plus,middle_quads_plus,middle_full_house_plus"


@pytest.mark.parametrize(
    ("rules", "hand", "in_row", "cards"),
    [
        (CLASSIC, TRIPS_TOP, 1, 13),
        (CLASSIC, QUADS_BOTTOM, 1, 13),
        (CLASSIC, QUEENS_TOP, 1, 0),  # QQ does not keep fantasy
        (CLASSIC, FULL_HOUSE_MIDDLE, 1, 0),  # not enabled by default
        (CLASSIC, QUADS_MIDDLE, 1, 13),  # bottom quads too
        (CLASSIC.with_settings({"fantasy_stay": "middle_quads_plus"}), QUADS_MIDDLE, 1, 13),
        (CLASSIC.with_settings({"fantasy_stay": "middle_quads_plus"}), QUADS_BOTTOM, 1, 0),
        (CLASSIC.with_settings({"fantasy_stay": "middle_quads_plus"}), TRIPS_TOP, 1, 0),
        (CLASSIC.with_settings({"fantasy_stay": "middle_full_house_plus"}), FULL_HOUSE_MIDDLE, 1, 13),
        (CLASSIC.with_settings({"fantasy_stay": "middle_full_house_plus"}), QUADS_MIDDLE, 1, 13),
        (CLASSIC.with_settings({"fantasy_stay": "none"}), TRIPS_TOP, 1, 0),
        (CLASSIC, TRIPS_TOP, 2, 0),  # default limit: two fantasy hands in a row
        (CLASSIC.with_settings({"fantasy_max_in_row": "1"}), TRIPS_TOP, 1, 0),
        (CLASSIC.with_settings({"fantasy_max_in_row": "none"}), TRIPS_TOP, 7, 13),
        (CLASSIC.with_settings({"fantasy_max_in_row": "3"}), TRIPS_TOP, 2, 13),
        (PINEAPPLE, TRIPS_TOP, 1, 14),
        (PROGRESSIVE, TRIPS_TOP, 1, 14),  # a repeat progressive fantasy is 14
        (PROGRESSIVE.with_settings({"fantasy_stay": ALL_STAY}), FULL_HOUSE_MIDDLE, 1, 14),
        (CLASSIC.with_settings({"fantasy": "off"}), TRIPS_TOP, 1, 0),
    ],
)
def test_fantasy_stay(rules: Rules, hand: Board, in_row: int, cards: int) -> None:
    assert next_fantasy_cards(row_keys(hand), rules, fantasy_in_row=in_row) == cards


def test_negative_streak_is_an_error() -> None:
    with pytest.raises(RulesError, match="fantasy_in_row"):
        next_fantasy_cards(row_keys(TRIPS_TOP), CLASSIC, fantasy_in_row=-1)


# ------------------------------------------------------------------ settlement

TIE_A = board("Ah Kd 3c", "Qh Qd 7c 5s 4h", "9h 9d 8h 8d 2h")
TIE_B = board("Ac Kh 3d", "Qc Qs 7d 5h 4d", "9c 9s 8c 8s 2d")
SCOOPER = KINGS_TOP  # royalties: classic 8+2+10 = 20, american 8+2+15 = 25
SCOOPED = board("Qh Jd 2d", "Ks 9s 8s 6s 3d", "Qc Qd 4c 4d 5c")
FOULED_VS_TIE_A = board("Kc Ks 2d", "Jc Tc 6d 5d 3d", "As Ad 7s 6s 2s")
FOULED_B = board("Ah Ad 2h", "Kh Qd 9c 7d 4c", "Jd Jc 5h 5c 3h")


@pytest.mark.parametrize("rules", [CLASSIC, PINEAPPLE])
def test_all_rows_tied(rules: Rules) -> None:
    sheet = score_boards([TIE_A, TIE_B], rules)
    assert sheet.points == (0, 0)
    assert [p.vs for p in sheet.players] == [(0, 0), (0, 0)]


@pytest.mark.parametrize(("rules", "points"), [(CLASSIC, 26), (PINEAPPLE, 31)])
def test_scoop(rules: Rules, points: int) -> None:
    """Classic: 3 rows x 2 + 20 royalties = 26. American: 3 + 3 scoop bonus + 25 = 31."""
    sheet = score_boards([SCOOPER, SCOOPED], rules)
    assert sheet.points == (points, -points)
    assert sheet.players[0].vs == (0, points)
    assert sheet.players[1].royalties.total == 0


@pytest.mark.parametrize("rules", [CLASSIC, PINEAPPLE])
def test_fouled_against_live_without_royalties(rules: Rules) -> None:
    """A fouled board is scooped (6 either way) and its KK on top pays nothing."""
    sheet = score_boards([TIE_A, FOULED_VS_TIE_A], rules)
    assert sheet.points == (6, -6)
    assert sheet.players[1].fouled
    assert sheet.players[1].royalties == Royalties()
    assert sheet.players[1].fantasy == 0


@pytest.mark.parametrize(("rules", "points"), [(CLASSIC, 26), (PINEAPPLE, 31)])
def test_fouled_against_live_with_royalties(rules: Rules, points: int) -> None:
    sheet = score_boards([SCOOPER, FOULED_QUEENS], rules)
    assert sheet.points == (points, -points)


@pytest.mark.parametrize("rules", [CLASSIC, PINEAPPLE])
def test_both_fouled(rules: Rules) -> None:
    sheet = score_boards([FOULED_QUEENS, FOULED_B], rules)
    assert sheet.points == (0, 0)
    assert all(p.fouled for p in sheet.players)


ANN = board("Qh Qd 2c", "9h 9d 9c 3s 4s", "As Ks Js 8s 2s")
BOB = board("Ah Kd 2d", "Th Td 5c 6s 7s", "Ac Kc Qc Jc 3c")
CAT = board("8c 8d 7h", "5h 5d 4h 4d 6h", "Jh Jd 3h 3d 7c")
DAN = board("Tc Ts Ad", "6c 6d Kh Qs 9s", "2h 4c 5s 7d 8h")  # fouled: TT over a pair of sixes


def test_three_players_american() -> None:
    """ann-bob 2-1 in rows (+1) and 13-4 royalties; ann scoops cat (+6) and 13-3; bob-cat 0."""
    sheet = score_boards([ANN, BOB, CAT], PINEAPPLE.with_settings({"players": 3}))
    assert [p.vs for p in sheet.players] == [(0, 10, 16), (-10, 0, 0), (-16, 0, 0)]
    assert sheet.points == (26, -10, -16)
    assert [p.royalties.total for p in sheet.players] == [13, 4, 3]
    assert [p.fantasy for p in sheet.players] == [14, 0, 0]


def test_three_players_classic() -> None:
    """Same boards at 2 a row, no scoop bonus: ann-bob 2+9, ann-cat 6+10, bob-cat -2+1."""
    sheet = score_boards([ANN, BOB, CAT], CLASSIC)
    assert [p.vs for p in sheet.players] == [(0, 11, 16), (-11, 0, -1), (-16, 1, 0)]
    assert sheet.points == (27, -12, -15)
    assert [p.fantasy for p in sheet.players] == [13, 0, 0]


def test_four_players_classic_with_a_foul() -> None:
    """Everyone scoops the fouled dan: 6 plus their own royalties (13, 4, 3)."""
    sheet = score_boards([ANN, BOB, CAT, DAN], CLASSIC.with_settings({"players": 4}))
    assert [p.vs for p in sheet.players] == [
        (0, 11, 16, 19),
        (-11, 0, -1, 10),
        (-16, 1, 0, 9),
        (-19, -10, -9, 0),
    ]
    assert sheet.points == (46, -2, -6, -38)
    assert sheet.players[3].royalties == Royalties()


def test_four_players_are_too_many_for_pineapple() -> None:
    with pytest.raises(RulesError, match="pineapple is played by 2-3 players, got 4 boards"):
        score_boards([ANN, BOB, CAT, DAN], PINEAPPLE)
    with pytest.raises(RulesError, match="got 1 boards"):
        score_boards([ANN], PINEAPPLE)


def test_card_on_two_boards() -> None:
    with pytest.raises(BoardError, match="card Ah is on two boards"):
        score_boards([BOB, ACES_TOP], CLASSIC)


def test_streaks_must_match_boards() -> None:
    with pytest.raises(RulesError, match="fantasy_in_row has 1 entries for 2 boards"):
        score_boards([ANN, BOB], CLASSIC, fantasy_in_row=[0])


def test_streaks_decide_repeat_fantasy() -> None:
    sheet = score_boards([QUADS_BOTTOM, board("Qc Qs 3d", "Kh Kc 6c 7c 8c", "Ac Ad As 4d 4h")], CLASSIC, [1, 1])
    assert [p.fantasy for p in sheet.players] == [13, 0]


# ------------------------------------------------------------------ properties

RULE_SETS = [CLASSIC, PINEAPPLE, PROGRESSIVE, Rules.preset("turbo")]


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, list[Board]]:
    rules = draw(st.sampled_from(RULE_SETS))
    players = draw(st.integers(min_value=2, max_value=rules.spec.max_players))
    deck = draw(st.permutations(range(52)))
    boards = []
    for seat in range(players):
        cards = deck[13 * seat : 13 * seat + 13]
        top, middle, bottom = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
        if draw(st.booleans()) and rank5(middle) > rank5(bottom):
            middle, bottom = bottom, middle  # tidy some boards so live ones are common
        boards.append(Board(top, middle, bottom))
    return rules.with_settings({"players": players}), boards


@settings(max_examples=300, deadline=None)
@given(tables())
def test_zero_sum_and_antisymmetric(table: tuple[Rules, list[Board]]) -> None:
    rules, boards = table
    sheet = score_boards(boards, rules)
    assert sum(sheet.points) == 0
    for i, mine in enumerate(sheet.players):
        assert mine.vs[i] == 0
        for j, theirs in enumerate(sheet.players):
            assert mine.vs[j] == -theirs.vs[i]


@settings(max_examples=300, deadline=None)
@given(tables())
def test_fouled_board_never_gains_from_a_live_one(table: tuple[Rules, list[Board]]) -> None:
    rules, boards = table
    sheet = score_boards(boards, rules)
    for mine in sheet.players:
        if mine.fouled:
            assert mine.royalties.total == 0
            assert mine.fantasy == 0
            for j, theirs in enumerate(sheet.players):
                if not theirs.fouled:
                    assert mine.vs[j] <= -3 * rules.row_points - rules.scoop_bonus
                elif theirs is not mine:
                    assert mine.vs[j] == 0


@settings(max_examples=200, deadline=None)
@given(tables(), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_player_order(table: tuple[Rules, list[Board]], rng: object) -> None:
    rules, boards = table
    order = list(range(len(boards)))
    rng.shuffle(order)  # type: ignore[attr-defined]
    sheet = score_boards(boards, rules)
    shuffled = score_boards([boards[i] for i in order], rules)
    for position, original in enumerate(order):
        moved, kept = shuffled.players[position], sheet.players[original]
        assert (moved.points, moved.royalties, moved.fantasy) == (kept.points, kept.royalties, kept.fantasy)
        assert [moved.vs[k] for k in range(len(order))] == [kept.vs[order[k]] for k in range(len(order))]
