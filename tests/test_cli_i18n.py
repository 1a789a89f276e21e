"""The command line in Russian and Ukrainian (issue 18): ``--lang``, the environment, exact lines
of ``ofc score``, ``ofc replay`` and ``ofc keep``, plural forms of points, and ``--json`` output
that is the same in every language. The terminal game is driven in ``test_terminal_i18n``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ofc.cli.app import main
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.formats import history
from ofc.i18n import current_language
from ofc.i18n.extract import check_catalogs
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.rulebook import Rules
from support.keep_books import pineapple_book
from test_cli_replay import fantasy_hand

ANN = {"name": "ann", "top": "Qh Qd 2c", "middle": "9h 9d 9c 3s 4s", "bottom": "As Ks Js 8s 2s"}
BOB = {"name": "bob", "top": "Ah Kd 2d", "middle": "Th Td 5c 6s 7s", "bottom": "Ac Kc Qc Jc 3c"}
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No language from the machine running the tests: only what a test sets."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def table_file(tmp_path: Path) -> str:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"rules": "classic", "players": [ANN, BOB]}), encoding="utf-8")
    return str(path)


def test_the_cli_catalogs_are_complete() -> None:
    assert [problem for problem in check_catalogs() if "/cli:" in problem] == []


def test_an_unknown_language_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["score", table_file(tmp_path), "--lang", "fr"], capsys)
    assert (code, out) == (2, "")
    assert err == "ofc: error: unknown language 'fr': choose one of en, ru, uk\n"


def test_a_command_leaves_the_callers_language_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert current_language() == "en"
    assert run(["score", table_file(tmp_path), "--lang", "uk"], capsys)[0] == 0
    assert current_language() == "en"


# ------------------------------------------------------------------------------ ofc score

# ann: QQ on top (7), nines in the middle (trips: 2), ace-high flush on the bottom (4): 13.
# bob: A-K high on top, tens in the middle, ace-high flush on the bottom (4): 4.
# Classic scoring, 2 a row: top ann (QQ beats A high), middle ann (trips beat a pair), bottom
# bob (two flushes: A = A, K = K, then Q beats J). Rows +2 +2 -2 = +2; royalties 13 - 4 = 9:
# ann +11, bob -11.
# ann earns fantasy with QQ: 13 cards in classic.
SCORE_RU = """\
                   классический, классические правила
┏━━━━━━━┳━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┓
┃ игрок ┃ бокс    ┃ карты          ┃ комбинация                ┃ бонус ┃
┡━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━┩
│ ann   │ верхний │ Qh Qd 2c       │ Пара: дамы                │     7 │
│       │ средний │ 9h 9d 9c 3s 4s │ Сет: девятки              │     2 │
│       │ нижний  │ As Ks Js 8s 2s │ Флеш, старшая карта — туз │     4 │
├───────┼─────────┼────────────────┼───────────────────────────┼───────┤
│ bob   │ верхний │ Ah Kd 2d       │ Старшая карта: туз        │     0 │
│       │ средний │ Th Td 5c 6s 7s │ Пара: десятки             │     0 │
│       │ нижний  │ Ac Kc Qc Jc 3c │ Флеш, старшая карта — туз │     4 │
└───────┴─────────┴────────────────┴───────────────────────────┴───────┘
     результаты в очках (столбец на каждого соперника)
┏━━━━━━━┳━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━┳━━━━━┳━━━━━━━┓
┃ игрок ┃ мёртвая ┃ бонусы ┃ фантазия ┃ ann ┃ bob ┃ итого ┃
┡━━━━━━━╇━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━╇━━━━━╇━━━━━━━┩
│ ann   │ нет     │ 13     │ 13 карт  │     │ +11 │   +11 │
│ bob   │ нет     │ 4      │ -        │ -11 │     │   -11 │
└───────┴─────────┴────────┴──────────┴─────┴─────┴───────┘
"""


def test_score_in_russian_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["score", table_file(tmp_path), "--lang", "ru"], capsys)
    assert (code, err) == (0, "")
    assert [line.rstrip() for line in out.splitlines()] == SCORE_RU.splitlines()  # titles are centred


def test_lang_uk_from_the_environment(tmp_path: Path) -> None:
    """LANG=uk_UA.UTF-8 alone picks Ukrainian (a real process, as a shell would start it)."""
    env = {key: value for key, value in os.environ.items() if key not in LANGUAGE_VARIABLES}
    env.update({"LANG": "uk_UA.UTF-8", "COLUMNS": "100"})
    done = subprocess.run(
        [sys.executable, "-m", "ofc", "score", table_file(tmp_path)],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0].strip() == "класичний, класичні правила"
    assert "результати в балах (стовпець на кожного суперника)" in done.stdout
    assert "Пара: дами" in done.stdout
    english = subprocess.run(
        [sys.executable, "-m", "ofc", "score", table_file(tmp_path), "--lang", "en"],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )  # fmt: skip
    assert english.stdout.splitlines()[0].strip() == "classic, classic scoring"  # --lang wins over LANG


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "uk_UA.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "ru_RU.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "fr:uk", "LANG": "ru_RU.UTF-8"}, "uk"),
    ],
)
def test_the_environment_picks_the_language(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    environment: dict[str, str],
    language: str,
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    first = {
        "en": "classic, classic scoring",
        "ru": "классический, классические правила",
        "uk": "класичний, класичні правила",
    }
    assert run(["score", table_file(tmp_path)], capsys)[1].splitlines()[0].strip() == first[language]


# ------------------------------------------------------------------------------ --json


def json_commands(tmp_path: Path) -> list[list[str]]:
    book = tmp_path / "book.json"
    book.write_text(json.dumps(pineapple_book()), encoding="utf-8")
    return [
        ["score", table_file(tmp_path), "--json"],
        ["keep", "score", str(book), "--json"],
        ["rules", "pineapple", "--json"],
        ["tournament", "--bots", "random,random", "--seed", "3", "--set", "starting_chips=20", "--json"],
    ]


def test_json_output_is_the_same_in_every_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in json_commands(tmp_path):
        outputs = {lang: run([*args, "--lang", lang], capsys) for lang in ("en", "ru", "uk")}
        assert outputs["en"][0] == 0, (args, outputs["en"])
        json.loads(outputs["en"][1])
        assert outputs["ru"] == outputs["en"] == outputs["uk"], args


def test_a_saved_hand_history_is_english_whatever_the_language(tmp_path: Path) -> None:
    from ofc.i18n import use_language

    with use_language("uk"):
        text = history.write_text(fantasy_hand(), ["ann", "bob"])
    assert text == history.write_text(fantasy_hand(), ["ann", "bob"])


# ------------------------------------------------------------------------------ ofc replay

REPLAY_RU = """\
ананас, 2 игрока, американские правила
места: ann, bob; баттон: ann
колода: перемешана (без seed)
фантазия: ann получает 14 карт

Руки в фантазии (раскладываются первыми, закрыты до вскрытия)
  ann  фантазия: верхний Qh Qd 4s | средний Qc 9h 9d 9c 3s | нижний As Ks Js 8s 2s; в отбой 7c  (на 2 с)

Улица 1 (5 карт: положить 5)
  bob  верхний Ah Kd 3d | средний Th Td  (на 4 с)

Улица 2 (3 карты: положить 2, в отбой 1)
  bob  средний 6s 5c; в отбой 2h  (на 9 с)

Улица 3 (3 карты: положить 2, в отбой 1)
  bob  нижний Jh 7s; в отбой 8h  (на 17 с, автоматически: время вышло)

Улица 4 (3 карты: положить 2, в отбой 1)
  bob  нижний Ac Kc; в отбой 2d  (на 17 с, автоматически: время вышло)

Улица 5 (3 карты: положить 2, в отбой 1)
  bob  средний Jc | нижний Qs; в отбой 3c  (на 17 с, автоматически: время вышло)

Вскрытие
  ann  верхний Qh Qd 4s       Пара: дамы, бонус 7
       средний Qc 9h 9d 9c 3s Сет: девятки, бонус 2
       нижний  As Ks Js 8s 2s Флеш, старшая карта — туз, бонус 4
       бонусы 13
  bob  верхний Ah Kd 3d       Старшая карта: туз
       средний Th Td 6s 5c Jc Пара: десятки
       нижний  Jh 7s Ac Kc Qs Старшая карта: туз
       МЁРТВАЯ, бонусы 0

Очки
  ann  +19 очков  (с соперниками: bob +19)
  bob  -19 очков  (с соперниками: ann -19)
"""


def test_replay_in_russian_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """test_cli_replay's hand worked out by hand (ann scoops +6 and has 13 royalties: +19), in Russian."""
    path = tmp_path / "hand.json"
    path.write_text(history.write_text(fantasy_hand(), ["ann", "bob"]), encoding="utf-8")
    code, out, err = run(["replay", str(path), "--lang", "ru"], capsys)
    assert (code, err) == (0, "")
    assert out == REPLAY_RU


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(card for card in ALL_CARDS if card not in top))


# Pineapple, american scoring (a row won +1, a scoop +6 in all; royalties: top 66=1 ... 99=4 ...
# AA=9; middle trips 2; bottom straight 2, flush 4). Both players play a 14-card fantasy, so each
# board is set whole; bob (seat 1, left of the button) is dealt first. Nobody fouls:
#   bob1: J high / 77 / AAA, royalties 0.    bob0: J high / 77 / 8855, royalties 0.
#   +1:  ann K high / 99 / TTT, 0: top ann, middle ann, bottom bob (AAA)  -> +1.
#   +2:  ann 66 (1) / 99 / TTT: the same rows, royalties 1 - 0            -> +2.
#   +5:  ann 99 (4) / KK / TTT: the same rows, royalties 4 - 0            -> +5.
#   +21: ann AA (9) / QQQ (2) / K-high flush (4) v bob0: a scoop, 6 + 15  -> +21.
#   +11: ann 66 (1) / QQQ (2) / straight 9-K (2) v bob0: a scoop, 6 + 5   -> +11.
BOB1 = ("Jh 8d 3c", "7s 7d 6c 4h 2s", "As Ac Ah 8s 5c", "3h")
BOB0 = ("Jh 8d 3c", "7s 7d 6c 4h 2s", "8s 8c 5c 5d 2d", "4d")
BOARDS = {
    1: (("Kh Qd 4c", "9s 9d 7c 5h 3d", "Tc Td Ts 6d 2h", "2c"), BOB1),
    2: (("6h 6s 4c", "9s 9d 7c 5h 3d", "Tc Td Ts 6d 2h", "2c"), BOB1),
    5: (("9h 9c 4c", "Kh Kd 7c 5h 3d", "Tc Td Ts 6d 2h", "2c"), BOB1),
    21: (("As Ad Kc", "Qs Qd Qh 9c 3d", "Kh Th 9h 6h 3h", "2c"), BOB0),
    11: (("6s 6d Kc", "Qs Qd Qh 9c 3d", "9h Ts Jc Qc Kd", "2c"), BOB0),
}
POINTS = {  # the Points lines, worked out above: (ru, uk) for ann and bob
    1: ("+1 очко", "-1 очко", "+1 бал", "-1 бал"),
    2: ("+2 очка", "-2 очка", "+2 бали", "-2 бали"),
    5: ("+5 очков", "-5 очков", "+5 балів", "-5 балів"),
    21: ("+21 очко", "-21 очко", "+21 бал", "-21 бал"),
    11: ("+11 очков", "-11 очков", "+11 балів", "-11 балів"),
}


def set_hand(points: int) -> Hand:
    ann, bob = BOARDS[points]
    deck = stacked(" ".join(bob) + " " + " ".join(ann))
    hand = Hand(Rules.preset("pineapple"), button=0, deck=deck, fantasy=(14, 14))
    hand.apply(Action.of(1, top=bob[0], middle=bob[1], bottom=bob[2], discard=bob[3]), 1)
    hand.apply(Action.of(0, top=ann[0], middle=ann[1], bottom=ann[2], discard=ann[3]), 2)
    assert hand.is_over
    return hand


@pytest.mark.parametrize("points", sorted(POINTS))
def test_points_take_the_plural_form_of_their_number(
    points: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(history.write_text(set_hand(points), ["ann", "bob"]), encoding="utf-8")
    ru_ann, ru_bob, uk_ann, uk_bob = POINTS[points]
    out = run(["replay", str(path), "--lang", "ru"], capsys)[1].splitlines()
    assert out[-3:] == [
        "Очки",
        f"  ann  {ru_ann}  (с соперниками: bob +{points})",
        f"  bob  {ru_bob}  (с соперниками: ann -{points})",
    ]
    out = run(["replay", str(path), "--lang", "uk"], capsys)[1].splitlines()
    assert out[-3:] == [
        "Бали",
        f"  ann  {uk_ann}  (з суперниками: bob +{points})",
        f"  bob  {uk_bob}  (з суперниками: ann -{points})",
    ]
    english = run(["replay", str(path)], capsys)[1].splitlines()
    assert english[-2] == f"  ann  +{points} {'pt' if points == 1 else 'pts'}  (+{points} vs bob)"


# ------------------------------------------------------------------------------ ofc keep


def test_keep_in_russian_exact_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """keep_books' pineapple book (worked there by hand): after hand 1 ann -25, bob +10, cat +15
    at 0.5 a point, so money -12.5, +5, +7.5; hand 2 is cat's fantasy, so the button stays with
    ann (order bob, cat, ann). ann pays the larger credit first: 7.50 to cat, then 5 to bob.
    After all 5 hands: ann -6, bob +4, cat +2 points; ann pays bob 2 and cat 1."""
    book = tmp_path / "book.json"
    book.write_text(json.dumps(pineapple_book(1)), encoding="utf-8")
    code, out, err = run(["keep", "settle", str(book), "--lang", "ru"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].strip() == "после 1 раздачи"
    assert "Дальше: раздача 2, баттон ann, порядок хода: bob, cat, ann." in lines
    assert lines[-3:] == ["Расчёт на сейчас (матч не окончен):", "  ann платит cat 7,50", "  ann платит bob 5"]
    assert lines[1:8] == [
        "┏━━━━━━━┳━━━━━┳━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━┓",
        "┃ игрок ┃   1 ┃ очки ┃ деньги (x0,5) ┃                    ┃",
        "┡━━━━━━━╇━━━━━╇━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━┩",
        "│ ann   │ -25 │  -25 │        -12,50 │                    │",
        "│ bob   │ +10 │  +10 │            +5 │                    │",
        "│ cat   │ +15 │  +15 │         +7,50 │ далее фантазия: 14 │",
        "└───────┴─────┴──────┴───────────────┴────────────────────┘",
    ]
    book.write_text(json.dumps(pineapple_book()), encoding="utf-8")
    code, out, err = run(["keep", "score", str(book), "--lang", "ru"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "раздача 1: ананас, американские правила, баттон ann" in out
    words = " ".join(out.split())  # a title longer than its table is wrapped
    assert "раздача 2: ананас, американские правила, баттон ann; cat в фантазии (14 карт)" in words
    assert "│ bob   │         │ МЁРТВАЯ (не доиграна) │                                 │     0 │" in lines
    # hand 3: bob is dead; ann takes 6 + 8 royalties from him, cat 6 + 4
    assert "│ bob   │ не доиграна │ 0      │ -              │ -10 │ -14 │     │   -24 │" in lines
    assert lines[-4:] == [
        "Матч окончен после 5 раздач.",
        "Итоговый расчёт:",
        "  ann платит bob 2",
        "  ann платит cat 1",
    ]
    code, out, err = run(["keep", "show", str(book), "--lang", "uk"], capsys)
    assert out.splitlines()[-1] == "Матч завершено після 5 роздач."


# ------------------------------------------------------------------------------ properties

FORMS = {"ru": ("очко", "очка", "очков"), "uk": ("бал", "бали", "балів"), "en": ("pt", "pts", "pts")}


def plural_form(language: str, n: int) -> str:
    """The CLDR rules written out: Russian and Ukrainian one (1, 21, 101 but not 11), few (2-4,
    22-24 but not 12-14), many (the rest, 0 too); English one (1) and other."""
    forms = FORMS[language]
    if language == "en":
        return forms[0] if n == 1 else forms[1]
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


@given(st.integers(min_value=-(10**7), max_value=10**7), st.sampled_from(["en", "ru", "uk"]))
def test_points_always_take_their_numbers_form(points: int, language: str) -> None:
    from ofc.i18n import use_language
    from ofc.terminal.words import points_text

    with use_language(language):  # type: ignore[arg-type]
        text = points_text(points)
    number, word = text.rsplit(" ", 1)
    assert word == plural_form(language, abs(points))
    digits = number.replace("\u00a0", "").replace(",", "").replace(" ", "")
    assert int(digits) == points
    assert number.startswith("+") == (points > 0)


@given(st.fractions(min_value=-(10**6), max_value=10**6), st.sampled_from(["en", "ru", "uk"]))
def test_money_reads_back_as_the_amount_to_the_cent(value: Fraction, language: str) -> None:
    from ofc.i18n import use_language
    from ofc.terminal.cardtext import money

    with use_language(language):  # type: ignore[arg-type]
        text = money(value)
    if language == "en":
        plain = text.replace(",", "")
    else:
        assert "." not in text
        plain = text.replace("\u00a0", "").replace(",", ".")
    assert Decimal(plain) == Decimal(round(value * 100)) / 100
    cents = plain.split(".")[1]
    assert cents.isdigit()
    assert len(cents) == 2


# ------------------------------------------------------------------------------ ofc rules

RULES_VALUES = {
    "ru": {
        "variant": "ананас",
        "scoring": "американские",
        "fantasy": "вкл.",
        "fantasy_cards": "прогрессивное",
        "fantasy_stay": "каре и выше в нижнем боксе, сет в верхнем боксе",
        "button_on_fantasy": "остаётся",
        "point_value": "0,5",
        "loss_limit": "нет",
        "starting_chips": "1\u00a0000",
    },
    "uk": {
        "variant": "ананас",
        "scoring": "американські",
        "fantasy": "увімк.",
        "fantasy_cards": "прогресивна",
        "fantasy_stay": "каре й вище в нижньому боксі, сет у верхньому боксі",
        "button_on_fantasy": "лишається",
        "point_value": "0,5",
        "loss_limit": "немає",
        "starting_chips": "1\u00a0000",
    },
}


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_rules_values_are_in_the_players_language(
    language: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ofc rules --lang ru`` (and uk): every value in the settings table is in the language (the
    setting names stay the keys ``--set`` takes); no English word is left among the values."""
    monkeypatch.setenv("COLUMNS", "200")  # one line a setting
    args = ["rules", "pineapple-progressive", "--set", "point_value=0.5", "--lang", language]
    code, out, err = run(args, capsys)
    assert (code, err) == (0, "")
    values: dict[str, str] = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip("│ ").split("│")]
        if len(cells) == 2 and cells[0] in Rules().to_dict():
            values[cells[0]] = cells[1]
    assert set(values) == set(Rules().to_dict())
    assert {name: values[name] for name in RULES_VALUES[language]} == RULES_VALUES[language]
    english = [value for value in values.values() if re.search("[A-Za-z]", value)]
    assert english == []
