"""``ofc play`` driven as a person would, in a pseudo-terminal of 80x24 (pexpect).

A small driver reads each screen, works out the hand and street from it, and types the next
line of that street's script (or a default placement that always fits). The transcript is
then checked for what each line should have shown; the saved hand histories must replay.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

from support.pty_prompts import Prompt, expect, prompt

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
INTERRUPT = "<Ctrl-C>"

Line = str | Callable[[list[str]], str]
Script = dict[tuple[int, int], list[Line]]

PROMPTS: list[Prompt] = [
    prompt("Leave the match? Finished hands are saved. [y/N] "),
    prompt("Enter: next hand > "),
    prompt("Enter: the final ledger > "),
    prompt("> "),
    pexpect.EOF,
]


def plain(text: str) -> str:
    """Terminal output without escape sequences or carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


def default_line(variant: str, street: int, cards: list[str]) -> str:
    """A placement that always fits: the same rows every hand, whatever the cards."""
    rows = {
        "turbo": ["t m m b b", "t m b b", "t m m b"],
        "pineapple": ["t m m b b", "t m x", "m b x", "t b x", "m b x"],
    }[variant][street - 1].split()
    return " ".join(f"{card} {row}" for card, row in zip(cards, rows, strict=True)) + " ok"


class Driver:
    """Plays ``ofc play`` in a pseudo-terminal, one scripted line per prompt."""

    def __init__(self, args: list[str], home: Path, variant: str, script: Script) -> None:
        env = {**os.environ, "OFC_HOME": str(home), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "ofc", "play", *args],
            env=env,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=600,  # a hang guard only: a slow or loaded machine must still pass
        )
        self.transcript = io.StringIO()
        self.child.logfile_read = self.transcript
        self.variant = variant
        self.script = script
        self.queues: dict[tuple[int, int], list[Line]] = {}
        self.cards: dict[tuple[int, int], list[str]] = {}

    def run(self) -> str:
        """Answer every prompt until the program ends; the plain transcript."""
        while True:
            which, before = expect(self.child, PROMPTS)
            screen = plain(before)
            if which == 4:
                break
            self.child.sendline(self._next(screen) if which == 3 else "n" if which == 0 else "")
        self.child.close()
        return plain(self.transcript.getvalue())

    def _next(self, screen: str) -> str:
        hand = int(re.findall(r" - hand (\d+)", screen)[-1])
        streets = re.findall(r"Street (\d+) of \d+", screen)
        key = (hand, 0 if "Fantasy: set" in screen.split(" - hand ")[-1] else int(streets[-1]))
        if key not in self.queues:
            shown = re.findall(r"To place: ([^\n]*)", screen)
            self.cards[key] = shown[-1].split() if shown else []
            self.queues[key] = list(self.script.get(key, []))
            if key[1] == 0:
                self.queues[key] += ["solve", "accept", ""]
            else:
                self.queues[key].append(default_line(self.variant, key[1], self.cards[key]))
        queue = self.queues[key]
        item = queue.pop(0) if queue else ""
        if item == INTERRUPT:
            self.child.sendintr()
            expect(self.child, PROMPTS[:1])
            item = queue.pop(0)
        return item(self.cards[key]) if callable(item) else item


def files(home: Path) -> list[Path]:
    return sorted((home / "hands").glob("*.json"))


def replay_text(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "ofc", "replay", str(path)], capture_output=True, text=True, check=True, timeout=600
    )
    return done.stdout


def test_turbo_match_start_to_finish(tmp_path: Path) -> None:
    script: Script = {
        (1, 1): [
            "Zz b",
            "help",
            lambda c: f"{c[0]} t {c[1]} m",
            "undo",
            lambda c: f"{c[1]} m {c[2]} m {c[3]} b {c[4]} b",
            "",
        ],
        (1, 3): ["hint", "accept", ""],
        (2, 2): [INTERRUPT, "n"],
    }
    args = ["--rules", "turbo", "--bots", "random", "--seed", "4", "--hint-seconds", "0.05", "--no-color"]
    driver = Driver(args, tmp_path, "turbo", script)
    out = driver.run()
    assert driver.child.exitstatus == 0, out[-2000:]
    assert "turbo, 2 players, classic scoring - hand 1" in out
    assert "'Zz' is neither a card (like Ah, Td, 10c) nor a command (help lists them)" in out
    assert "undo [CARD]      take back the last card (or CARD); clear takes back all" in out
    first = driver.cards[(1, 1)]
    assert f"took back {first[1]}" in out
    assert re.search(r"hint: top .*; expected [+-]\d+\.\d\d points", out)
    assert "All placed: Enter confirms, undo takes back" in out
    assert "Leave the match? Finished hands are saved. [y/N] n" in out
    assert "Hand 2: showdown (classic scoring)" in out
    assert "The match is over." in out
    assert re.search(r"Match after \d+ hands: points \(money at 1\.00 a point\)", out)
    assert "\x1b[31m" not in driver.transcript.getvalue()  # --no-color: no red hearts
    saved = files(tmp_path)
    assert len(saved) >= 2
    assert [p.name[-11:] for p in saved[:2]] == ["hand01.json", "hand02.json"]
    assert f"Saved: {saved[0]}" in out.replace("\n", "")
    text = replay_text(saved[0])
    assert text.startswith("turbo, 2 players, classic scoring\nseats: you, random")
    assert "Showdown" in text


def test_pineapple_discards_colours_and_leaving(tmp_path: Path) -> None:
    script: Script = {(2, 1): [INTERRUPT, "y"]}
    args = ["--rules", "pineapple", "--bots", "heuristic", "--seed", "2", "--name", "ann"]
    driver = Driver(args, tmp_path, "pineapple", script)
    out = driver.run()
    assert driver.child.exitstatus == 0, out[-2000:]
    assert "Street 2 of 5: place 2 cards, discard 1" in out
    discards = [driver.cards[(1, street)][2] for street in range(2, 5)]
    assert f"Your discards: {' '.join(discards)}" in out
    assert "You left the match after 1 finished hand." in out
    assert re.search(r"ann [+-]?\d+ \([+-]?\d+\.00\), heuristic", out)
    raw = driver.transcript.getvalue()
    assert "\x1b[31m" in raw  # hearts in red: a colour terminal gets coloured suits
    saved = files(tmp_path)
    assert [p.name[-11:] for p in saved] == ["hand01.json"]
    assert "seats: ann, heuristic" in replay_text(saved[0])


def test_a_table_size_out_of_range_names_the_setting() -> None:
    """--players 0 used to say "--bots names 0 bots for 0 players: give -1, or one for all"."""
    for players in ("0", "-3", "5"):
        done = subprocess.run(
            [sys.executable, "-m", "ofc", "play", "--players", players, "--bots", "random"],
            capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 2
        assert done.stderr == f"ofc: error: setting players: classic allows 2-4 players, not {players}\n"


def test_a_negative_seed_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ofc", "play", "--seed", "-1", "--bots", "random"],
        capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "ofc: error: Invalid value for '--seed': -1 is not in the range x>=0.\n"


def test_a_name_must_be_printable() -> None:
    """A hand history with such a name would not be read back (ofc replay prints names)."""
    import pytest

    from ofc.cli.play_cmd import seat_names
    from ofc.rules.errors import InputError

    assert seat_names("  ann \t lee ", ["random", "random"]) == ["ann lee", "random", "random2"]
    with pytest.raises(InputError) as caught:
        seat_names("ann\x1b[2J", ["random"])
    assert str(caught.value) == "--name must be printable text, not 'ann\\x1b[2J'"


def test_lines_from_a_pipe_are_read_plainly(tmp_path: Path) -> None:
    """Standard input that is no terminal gets plain lines: the prompts printed as they are, no editor."""
    done = subprocess.run(
        [sys.executable, "-m", "ofc", "play", "--rules", "turbo", "--bots", "random", "--seed", "4", "--no-color"],
        input="help\nquit\ny\n", capture_output=True, text=True, check=False, timeout=600,
        env={**os.environ, "OFC_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "\x1b[?2004h" not in out  # no prompt_toolkit: it would switch bracketed paste on
    assert "undo [CARD]      take back the last card (or CARD); clear takes back all" in out
    assert "> \nLeave the match? Finished hands are saved. [y/N] You left the match after 0 finished hands." in out
    assert files(tmp_path) == []
