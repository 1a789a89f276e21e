"""Hand-worked score books shared by the keep tests (core, CLI, server, browser).

Every value below is worked out by hand from RULES.md; the working is in the comments.
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------- pineapple, 3 players, 5 hands
#
# Pineapple, american scoring (row 1, scoop +6 in all, royalties top 66=1..AA=9, trips 10+;
# middle trips 2, flush 8, full house 12; bottom straight 2, flush 4, full house 6, quads 10).
# ann, bob, cat in seats 0, 1, 2; button ann; point value 0.5.
#
# Hand 1, button ann (order bob, cat, ann):
#   ann  Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c   K high / 99 / JJJ          royalties 0
#   bob  Ac 8d 3h / Tc Td 4c 5d 7s / 2c 2d 2s 6d 6h   A high / TT / 222-66 (6)   royalties 6
#   cat  Qc Qd 5h / Ks Kh 8h 8s 4d / As Ah Ad 7c 3c   QQ (7) / KK88 / AAA        royalties 7, fantasy 14
#   ann v bob: bob wins 3 rows, scoop 6, royalties 6 -> ann -12
#   ann v cat: cat wins 3 rows, scoop 6, royalties 7 -> ann -13
#   bob v cat: top cat, middle cat, bottom bob -> -1; royalties 6 - 7 -> bob -2
#   ann -25, bob +10, cat +15
# Hand 2: cat plays fantasy (14 cards); a fantasy hand keeps the button of the hand before: ann.
#   ann  6c 6d 2h / 8c 8d 8h 3s 4s / 9s Ts Js Qs 2s   66 (1) / 888 (2) / flush (4)   royalties 7
#   bob  Ac Kd 3h / 5c 5d 7c 7d 9c / Tc Td Th Jc Jd   A high / 7755 / TTT-JJ (6)     royalties 6
#   cat  Qh Qd 4h / Kc Kh 2c 2d 5h / Ah Ad As 9d 9h   QQ (7) / KK22 / AAA-99 (6)     royalties 13, no stay
#   ann v bob: top ann, middle ann, bottom bob -> +1; royalties 7 - 6 -> ann +2
#   ann v cat: top cat, middle ann, bottom cat -> -1; royalties 7 - 13 -> ann -7
#   bob v cat: cat scoops -6; royalties 6 - 13 -> bob -13
#   ann -5, bob -15, cat +20
# Hand 3, button bob (order cat, ann, bob); bob did not finish (dead = fouled):
#   ann  7c 7d 2h / 9c 9d 9h 3s 4s / Tc Jc Qc Kc 2c   77 (2) / 999 (2) / flush K (4)   royalties 8
#   cat  Ah Kh 5d / Ts Td 6c 6d 8s / 3h 4h 5h 6h 8h   A high / TT66 / flush 8 (4)     royalties 4
#   ann v bob: +6 + 8 = +14; cat v bob: +6 + 4 = +10
#   ann v cat: ann wins 3 rows (flush K beats flush 8), scoop 6, royalties 8 - 4 -> +10
#   ann +24, bob -24, cat 0
# Hand 4, button cat (order ann, bob, cat); the button has now been on every seat:
#   ann  Kc Kd 2h / Ac Ad 3c 4d 5s / 6c 6d 6h 7c 7d   KK (8) / AA / 666-77 (6)     royalties 14, fantasy 14
#   bob  2c 3d 4h / 8c 8d 9h Ts Js / 9c Tc Jc Qc 8h   4 high / 88 / straight (2)   royalties 2
#   cat  Qh Jh 5c / 2s 2d 9s 9d Kh / As Ah 3s 3h Ks   Q high / 9922 / AA33        royalties 0
#   ann v bob: ann scoops 6, royalties 14 - 2 -> +18
#   ann v cat: top ann, middle cat, bottom ann -> +1; royalties 14 -> +15
#   bob v cat: top cat, middle cat, bottom bob -> -1; royalties 2 -> bob +1
#   ann +33, bob -17, cat -16
# Hand 5: ann's fantasy, earned in the hand that closed the circle, is still played; button cat.
#   ann  5c 5d 2h / 9c 9d Jc Jd 4s / Tc Td Th Kc Kd   55 (0) / JJ99 / TTT-KK (6)   royalties 6, no stay
#   bob  Jh Js 7h / 8s 8h 8d 2c 2d / 3c 3d 3h 3s 6c   JJ (6) / 888-22 (12) / quad 3s (10)  royalties 28
#   cat  Ah Qd 7c / 5h 6h 9h Qh 4h / 5s 6s 9s Qs Ks   A high / flush Q (8) / flush K (4)   royalties 12
#   ann v bob: bob scoops 6, royalties 6 - 28 -> ann -28
#   ann v cat: top ann (55 beats A high), middle cat, bottom ann -> +1; royalties 6 - 12 -> ann -5
#   bob v cat: bob scoops 6, royalties 28 - 12 -> bob +22
#   ann -33, bob +50, cat -17; nobody earns fantasy: the match is over.
# Totals: ann -25 -5 +24 +33 -33 = -6; bob +10 -15 -24 -17 +50 = +4; cat +15 +20 +0 -16 -17 = +2.
# Money at 0.5 a point: ann -3, bob +2, cat +1: ann pays bob 2 and cat 1 (two transfers).

PINEAPPLE_HANDS: list[dict[str, str]] = [
    {
        "ann": "Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c",
        "bob": "Ac 8d 3h / Tc Td 4c 5d 7s / 2c 2d 2s 6d 6h",
        "cat": "Qc Qd 5h / Ks Kh 8h 8s 4d / As Ah Ad 7c 3c",
    },
    {
        "ann": "6c 6d 2h / 8c 8d 8h 3s 4s / 9s Ts Js Qs 2s",
        "bob": "Ac Kd 3h / 5c 5d 7c 7d 9c / Tc Td Th Jc Jd",
        "cat": "Qh Qd 4h / Kc Kh 2c 2d 5h / Ah Ad As 9d 9h",
    },
    {
        "ann": "7c 7d 2h / 9c 9d 9h 3s 4s / Tc Jc Qc Kc 2c",
        "bob": "dead",
        "cat": "Ah Kh 5d / Ts Td 6c 6d 8s / 3h 4h 5h 6h 8h",
    },
    {
        "ann": "Kc Kd 2h / Ac Ad 3c 4d 5s / 6c 6d 6h 7c 7d",
        "bob": "2c 3d 4h / 8c 8d 9h Ts Js / 9c Tc Jc Qc 8h",
        "cat": "Qh Jh 5c / 2s 2d 9s 9d Kh / As Ah 3s 3h Ks",
    },
    {
        "ann": "5c 5d 2h / 9c 9d Jc Jd 4s / Tc Td Th Kc Kd",
        "bob": "Jh Js 7h / 8s 8h 8d 2c 2d / 3c 3d 3h 3s 6c",
        "cat": "Ah Qd 7c / 5h 6h 9h Qh 4h / 5s 6s 9s Qs Ks",
    },
]
PINEAPPLE_POINTS = [
    {"ann": -25, "bob": 10, "cat": 15},
    {"ann": -5, "bob": -15, "cat": 20},
    {"ann": 24, "bob": -24, "cat": 0},
    {"ann": 33, "bob": -17, "cat": -16},
    {"ann": -33, "bob": 50, "cat": -17},
]
PINEAPPLE_BUTTONS = ["ann", "ann", "bob", "cat", "cat"]
PINEAPPLE_FANTASY: list[dict[str, int]] = [{}, {"cat": 14}, {}, {}, {"ann": 14}]
PINEAPPLE_FOULED: list[list[str]] = [[], [], ["bob"], [], []]
PINEAPPLE_TOTALS = {"ann": -6, "bob": 4, "cat": 2}
PINEAPPLE_MONEY = {"ann": -3, "bob": 2, "cat": 1}
PINEAPPLE_SETTLEMENT = [{"from": "ann", "to": "bob", "amount": 2}, {"from": "ann", "to": "cat", "amount": 1}]


def pineapple_book(hands: int = 5) -> dict[str, Any]:
    """The pineapple book with its first ``hands`` hands."""
    return {
        "rules": {"preset": "pineapple", "point_value": "0.5"},
        "players": ["ann", "bob", "cat"],
        "button": "ann",
        "hands": PINEAPPLE_HANDS[:hands],
    }


# ---------------------------------------------------------------- classic, 4 players, loss limit
#
# Classic scoring (2 a row, no scoop bonus; royalties: top as above, bottom full house 6,
# middle trips 2 ...). ann, bob, cat, dan; button ann; loss limit 40 points; 0.25 a point.
#
# Hand 1, button ann: ann, bob, cat hold the boards of pineapple hand 1; dan did not finish.
#   ann v bob -6 rows -6 royalties = -12; ann v cat -6 - 7 = -13; bob v cat -2 rows, 6 - 7 -> -3
#   v dan (dead): ann +6, bob +6 + 6 = +12, cat +6 + 7 = +13
#   ann -19, bob +21, cat +29, dan -31 (above the limit of -40: no cap); cat earns fantasy (13).
# Hand 2: cat in fantasy, button stays ann. Nobody has a royalty; dan fouls (JJ over TT).
#   ann  2c 2d 3h / 4c 4d 9h Ts Js / 8c 8d 8h 5s 6s    22 / 44 / 888
#   bob  3c 3d 2h / 5c 5d 9s Tc Jc / 9c 9d Kh Ks 7c    33 / 55 / KK99
#   cat  4h 4s 2s / 6c 6d Qh Qs 7d / Ac Ad Ah Kc Qc    44 / QQ66 / AAA   (no stay)
#   dan  Jd Jh 3s / Td Th 5h 6h 7h / As Kd Qd 8s 7s    fouled
#   ann v bob: bob, bob, ann -> -2; ann v cat: -6; bob v cat: -6; each v dan: +6
#   before the limit: ann -2, bob +2, cat +18, dan -18. dan may lose 40 - 31 = 9 more: he pays
#   9 of the 18 he owes, pro rata 6:6:6, so 3 each. ann -2 -6 +3 = -5, bob +2 -6 +3 = -1,
#   cat +6 +6 +3 = +15, dan -9. dan is at -40 and leaves the match.
# Hand 3, button bob (dan not dealt): ann, bob, cat as in hand 2: ann -2 -6 = -8, bob +2 -6 = -4, cat +12.
# Hand 4, button cat: ann takes cat's board of hand 2 and cat ann's; bob as in hand 2:
#   ann v bob +6, ann v cat +6, bob v cat: top bob, middle bob, bottom cat -> +2
#   ann +12, bob -4, cat -8. The button has been on every seat still playing: the match is over.
# Totals: ann -19 -5 -8 +12 = -20; bob 21 -1 -4 -4 = +12; cat 29 +15 +12 -8 = +48; dan -40.
# Money at 0.25: ann -5, bob +3, cat +12, dan -10. No group of them adds up to zero, so three
# transfers, the largest debt paid to the largest credit first: dan pays cat 10 (cat is owed 2
# more), then ann (owing 5) pays bob 3 (the larger credit left) and cat 2.

CLASSIC_HAND_2 = {
    "ann": "2c 2d 3h / 4c 4d 9h Ts Js / 8c 8d 8h 5s 6s",
    "bob": "3c 3d 2h / 5c 5d 9s Tc Jc / 9c 9d Kh Ks 7c",
    "cat": "4h 4s 2s / 6c 6d Qh Qs 7d / Ac Ad Ah Kc Qc",
    "dan": "Jd Jh 3s / Td Th 5h 6h 7h / As Kd Qd 8s 7s",
}
CLASSIC_HANDS: list[dict[str, str]] = [
    PINEAPPLE_HANDS[0] | {"dan": "dead"},
    CLASSIC_HAND_2,
    {name: CLASSIC_HAND_2[name] for name in ("ann", "bob", "cat")},
    {"ann": CLASSIC_HAND_2["cat"], "bob": CLASSIC_HAND_2["bob"], "cat": CLASSIC_HAND_2["ann"]},
]
CLASSIC_POINTS = [
    {"ann": -19, "bob": 21, "cat": 29, "dan": -31},
    {"ann": -5, "bob": -1, "cat": 15, "dan": -9},
    {"ann": -8, "bob": -4, "cat": 12, "dan": 0},
    {"ann": 12, "bob": -4, "cat": -8, "dan": 0},
]
CLASSIC_BUTTONS = ["ann", "ann", "bob", "cat"]
CLASSIC_TOTALS = {"ann": -20, "bob": 12, "cat": 48, "dan": -40}
CLASSIC_MONEY = {"ann": -5, "bob": 3, "cat": 12, "dan": -10}
CLASSIC_SETTLEMENT = [
    {"from": "dan", "to": "cat", "amount": 10},
    {"from": "ann", "to": "bob", "amount": 3},
    {"from": "ann", "to": "cat", "amount": 2},
]


def classic_book(hands: int = 4) -> dict[str, Any]:
    """The classic book with its first ``hands`` hands."""
    return {
        "rules": {"preset": "classic", "loss_limit": 40, "point_value": "0.25"},
        "players": ["ann", "bob", "cat", "dan"],
        "button": "ann",
        "hands": CLASSIC_HANDS[:hands],
    }


# ---------------------------------------------------------------- turbo, 2 players, repeat fantasy
#
# Turbo, classic scoring; ann and bob, button bob; 2 a point; fantasy_max_in_row 2 (default).
# Hand 1, button bob: ann holds cat's board of pineapple hand 1 (QQ / KK88 / AAA: royalties 7,
#   fantasy 13), bob his own (A high / TT / 222-66: royalties 6).
#   top ann, middle ann, bottom bob -> +2; royalties 7 - 6 -> ann +3.
# Hand 2: ann in fantasy, button stays bob:
#   ann  7c 7d 7h / 8c 8d 8h 8s 2c / 9c 9d 9h 9s 3c   777 (15) / quad 8s (16) / quad 9s (8)  = 39, stays
#   bob  Ac Kd 2d / Tc Td Th 4c 5d / Jc Jd Jh Qc Qd   A high / TTT (2) / JJJ-QQ (6)          = 8
#   ann scoops: +6, royalties 39 - 8 -> ann +37
# Hand 3: ann's repeat fantasy (second in a row), button still bob:
#   ann  5c 5d 5h / 6c 6d 6h 6s 2h / Kc Kd Kh Ks 3d   555 (13) / quad 6s (16) / quad Ks (8) = 37
#   bob  Ah Qh 2c / Tc Td 4c 4d 9c / Ac Ad As Jc Jd   A high / TT44 / AAA-JJ (6)             = 6
#   ann scoops: +6 + 31 = +37. ann meets the stay rule again, but two in a row is the limit.
# Hand 4, button ann: ann did not finish; bob 2c 3d 4h / 5c 5d 7h 8s 9c / Tc Td Th 2s 3s has no
#   royalty: bob +6. The button has been on both seats: the match is over.
# Totals: ann +3 +37 +37 -6 = +71, bob -71; money at 2: bob pays ann 142.

TURBO_HANDS: list[dict[str, str]] = [
    {"ann": PINEAPPLE_HANDS[0]["cat"], "bob": PINEAPPLE_HANDS[0]["bob"]},
    {"ann": "7c 7d 7h / 8c 8d 8h 8s 2c / 9c 9d 9h 9s 3c", "bob": "Ac Kd 2d / Tc Td Th 4c 5d / Jc Jd Jh Qc Qd"},
    {"ann": "5c 5d 5h / 6c 6d 6h 6s 2h / Kc Kd Kh Ks 3d", "bob": "Ah Qh 2c / Tc Td 4c 4d 9c / Ac Ad As Jc Jd"},
    {"ann": "dead", "bob": "2c 3d 4h / 5c 5d 7h 8s 9c / Tc Td Th 2s 3s"},
]
TURBO_POINTS = [{"ann": 3, "bob": -3}, {"ann": 37, "bob": -37}, {"ann": 37, "bob": -37}, {"ann": -6, "bob": 6}]
TURBO_BUTTONS = ["bob", "bob", "bob", "ann"]
TURBO_FANTASY: list[dict[str, int]] = [{}, {"ann": 13}, {"ann": 13}, {}]


def turbo_book(hands: int = 4) -> dict[str, Any]:
    """The turbo book with its first ``hands`` hands."""
    return {
        "rules": {"preset": "turbo", "point_value": 2},
        "players": ["ann", "bob"],
        "button": "bob",
        "hands": TURBO_HANDS[:hands],
    }
