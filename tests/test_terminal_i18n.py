"""``ofc play --lang uk`` (and ``--lang ru``) played to the showdown in a pseudo-terminal of 80x24.

The issue's must-show: a Ukrainian player reads the whole hand in Ukrainian (the table, the
streets, help, a hint, the showdown with hand names and points in their plural form, the
ledger, leaving), while the commands typed stay the same and the saved history stays English.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from support.pty_prompts import Prompt, expect, prompt, prompt_like

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROWS = {
    "turbo": ["t m m b b", "t m b b", "t m m b"],
    "pineapple": ["t m m b b", "t m x", "m b x", "t b x", "m b x"],
}


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def plural_form(n: int, forms: tuple[str, str, str]) -> str:
    """The CLDR rule of Russian and Ukrainian, written out: 1, 21 -> one; 2-4, 22 -> few; else many."""
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


class Player:
    """Plays hand 1 of ``ofc play`` in a pseudo-terminal, then leaves at the next-hand prompt.

    ``extra`` maps a street to lines typed before the placement (``help``, ``hint``...);
    ``to_place`` is the label of the cards still to place and ``yes`` the answer to leaving.
    """

    def __init__(self, args: list[str], home: Path, variant: str, words: dict[str, str]) -> None:
        env = {**os.environ, "OFC_HOME": str(home), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
        for name in ("NO_COLOR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
            env.pop(name, None)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "ofc", "play", "--rules", variant, *args],
            env=env,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=600,  # a hang guard only
        )
        self.transcript = io.StringIO()
        self.child.logfile_read = self.transcript
        self.rows = ROWS[variant]
        self.words = words
        self.cards: dict[int, list[str]] = {}
        self.extra: dict[int, list[str]] = {}

    def run(self) -> str:
        prompts: list[Prompt] = [prompt("> "), prompt(self.words["next"]), prompt_like(r"[^\x1b]*\[y/N\]"), pexpect.EOF]
        while True:
            which, before = expect(self.child, prompts)
            if which == 3:
                break
            if which == 0:
                self.child.sendline(self._line(plain(before)))
            elif which == 1:
                self.child.sendintr()
            else:
                self.child.sendline(self.words["yes"])
        self.child.close()
        return plain(self.transcript.getvalue())

    def _line(self, screen: str) -> str:
        street = int(re.findall(self.words["street"], screen)[-1])
        if street not in self.cards:
            self.cards[street] = re.findall(self.words["to place"] + r"([^\n]*)", screen)[-1].split()
            rows = self.rows[street - 1].split()
            placing = " ".join(f"{card} {row}" for card, row in zip(self.cards[street], rows, strict=True))
            self.extra[street] = [*self.extra.get(street, []), placing + " ok"]
        queue = self.extra[street]
        return queue.pop(0) if queue else ""


UK = {
    "next": "Enter: наступна роздача > ",
    "yes": "т",
    "street": r"Вулиця (\d+) з \d+",
    "to place": "Розкласти: ",
}


def test_a_hand_in_ukrainian_to_the_showdown(tmp_path: Path) -> None:
    args = ["--lang", "uk", "--bots", "random", "--seed", "4", "--hint-seconds", "1", "--no-color"]
    player = Player(args, tmp_path, "turbo", UK)
    player.extra = {1: ["help"], 3: ["hint"]}
    out = player.run()
    assert player.child.exitstatus == 0, out[-3000:]
    lines = out.splitlines()
    # the table, the board headings and the streets
    assert "турбо, 2 гравці, класичні правила — роздача 1" in lines
    assert "матч: ви 0, випадковий 0" in lines  # the bot's name in Ukrainian (its history keeps "random")
    assert any(re.fullmatch(r"   (ви \(Б\) +випадковий|ви +випадковий \(Б\))", line) for line in lines)
    # the rows' letters in Ukrainian at the left of the boards
    assert any(line.startswith("В  ") for line in lines)
    assert any(line.startswith("С  ") for line in lines)
    assert any(line.startswith("Н  ") for line in lines)
    assert "Вулиця 1 з 3: покладіть 5 карт" in lines
    assert "Вулиця 2 з 3: покладіть 4 карти" in lines
    assert "Вулиця 3 з 3: покладіть 4 карти" in lines
    first = player.cards[1]
    assert f"Розкласти: {' '.join(first)}" in lines
    # help, in Ukrainian, the commands themselves unchanged
    assert "Ah b Kd m 7c x   Ah у нижній, Kd у середній, 7c у відбій (бокси: t/в, m/с, b/н)" in lines
    assert "undo [КАРТА]     повернути останню карту (або КАРТУ); clear повертає всі" in lines
    assert "help             цей список; quit (або Ctrl-C) — вийти з матчу" in lines
    # a hint from the pro bot: rows named in Ukrainian, the value with a decimal comma
    assert re.search(r"підказка: (верхній|середній|нижній) .*; очікується [+-]?\d+,\d\d бала", out), out
    assert "  порядок — за очікуваними балами мінус штраф за ризик мертвої руки" in lines
    assert "accept приймає перший" in lines
    # the showdown: rows, hand names, points in the plural form their number takes
    assert "Роздача 1: розкриття (класичні правила)" in lines
    start = lines.index("Роздача 1: розкриття (класичні правила)")
    showdown = lines[start + 1 : start + 9]
    assert re.fullmatch(r"ви {11}верхній  (\S\S ){3}\s*\S.*", showdown[0]), showdown
    assert re.fullmatch(r"[+-]?\d+ \S+ +середній (\S\S ){5}\S.*", showdown[1]), showdown
    assert re.fullmatch(r"(МЕРТВА)? +нижній   (\S\S ){5}\S.*", showdown[2]), showdown
    assert showdown[3].startswith(" " * 13 + "бонуси ")
    fantasy = "(; далі фантазія: 1\\d карт)?"
    assert re.fullmatch(r" {13}бонуси \d+; з суперниками: випадковий [+-]?\d+" + fantasy, showdown[3]), showdown
    assert re.fullmatch(r" {13}бонуси \d+; з суперниками: ви [+-]?\d+" + fantasy, showdown[7]), showdown
    assert showdown[4].startswith("випадковий   верхній  ")
    hand_names = ("Старша карта", "Пара", "Дві пари", "Сет", "Стріт", "Флеш", "Фул-хаус", "Каре")
    for line in (*showdown[0:3], *showdown[4:7]):
        assert any(name in line for name in hand_names), line
    for line in (showdown[1], showdown[5]):
        number, word = line.split()[:2]
        assert word == plural_form(abs(int(number)), ("бал", "бали", "балів")), line
    # the ledger, leaving, and where the history went
    assert "Матч після 1 роздачі: бали (гроші: 1,00 за бал)" in lines
    assert "Вийти з матчу? Зіграні роздачі збережено. [y/N] т" in out  # the prompt line is redrawn as typed
    assert "Ви вийшли з матчу після 1 зіграної роздачі." in lines
    assert f"Історії роздач: {tmp_path / 'hands'}" in out.replace("\n", "")
    # the saved history stays English (the player's name is theirs)
    saved = sorted((tmp_path / "hands").glob("*.json"))
    assert len(saved) == 1
    replayed = subprocess.run(
        [sys.executable, "-m", "ofc", "replay", str(saved[0]), "--lang", "en"],
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    assert replayed.stdout.startswith("turbo, 2 players, classic scoring\nseats: ви, random")
    assert not re.search("[А-Яа-яІіЇїЄє]", saved[0].read_text(encoding="utf-8").replace("ви", ""))


RU = {
    "next": "Enter: следующая раздача > ",
    "yes": "д",
    "street": r"Улица (\d+) из \d+",
    "to place": "Разложить: ",
}


def test_a_pineapple_hand_in_russian(tmp_path: Path) -> None:
    args = ["--lang", "ru", "--bots", "heuristic", "--seed", "2", "--name", "аня", "--hint-seconds", "0.05"]
    player = Player(args, tmp_path, "pineapple", RU)
    out = player.run()
    assert player.child.exitstatus == 0, out[-3000:]
    lines = out.splitlines()
    assert "ананас, 2 игрока, американские правила — раздача 1" in lines
    assert "Улица 1 из 5: положите 5 карт" in lines
    assert "Улица 2 из 5: положите 2 карты, в отбой 1" in lines
    discards = [player.cards[street][2] for street in range(2, 5)]
    assert f"Ваш отбой: {' '.join(discards)}" in lines
    assert "Раздача 1: вскрытие (американские правила)" in lines
    assert "Выйти из матча? Сыгранные раздачи сохранены. [y/N] д" in out
    assert "Вы вышли из матча после 1 сыгранной раздачи." in lines
    assert "Матч после 1 раздачи: очки (деньги: 1,00 за очко)" in lines
    # the bot's name and the rows' letters in Russian: no English word of them left on the screen
    assert "матч: аня 0, эвристик 0" in lines
    assert "heuristic" not in out
    assert [line[:3] for line in lines if re.match(r"[ВСН]  ", line)][:3] == ["В  ", "С  ", "Н  "]
    assert not any(re.match(r"[TMB]  ", line) for line in lines)
    start = lines.index("Раздача 1: вскрытие (американские правила)")
    for line in (lines[start + 2], lines[start + 6]):
        number, word = line.split()[:2]
        assert word == plural_form(abs(int(number)), ("очко", "очка", "очков")), line
