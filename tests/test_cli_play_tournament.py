"""``ofc play --tournament`` driven as a person would, in a pseudo-terminal of 80x24 (pexpect)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect

from ofc.formats.history import check_copy, read
from support.pty_prompts import Prompt, expect, prompt
from test_cli_play import PROMPTS, Driver, files, plain, replay_text

TOURNAMENT_PROMPTS: list[Prompt] = [
    prompt("Leave the tournament? Finished hands are saved. [y/N] "),
    *PROMPTS[1:4],
    prompt("Enter: the final standings > "),
    prompt("Enter: the bots play on (Ctrl-C stops them) > "),
    pexpect.EOF,
]


class TournamentDriver(Driver):
    """The match driver, answering the tournament's prompts too (Enter after each hand)."""

    def run(self) -> str:
        """Answer every prompt until the program ends; the plain transcript."""
        while True:
            which, before = expect(self.child, TOURNAMENT_PROMPTS)
            screen = plain(before)
            if which == len(TOURNAMENT_PROMPTS) - 1:
                break
            self.child.sendline(self._next(screen) if which == 3 else "n" if which == 0 else "")
        self.child.close()
        return plain(self.transcript.getvalue())


def test_a_tournament_to_the_final_standings(tmp_path: Path) -> None:
    args = [
        "--tournament", "--rules", "pineapple", "--bots", "random,random", "--seed", "4",
        "--set", "starting_chips=12", "--set", "level_hands=1", "--set", "chips_per_point=1,2,3",
        "--set", "payouts=0.7,0.3", "--set", "buy_in=10", "--no-color",
    ]  # fmt: skip
    driver = TournamentDriver(args, tmp_path, "pineapple", {})
    out = driver.run()
    assert driver.child.exitstatus == 0, out[-2000:]
    # The screen of hand 1: the level, its chips per point, the hands left in it, the chips.
    assert "pineapple, 3 players, american scoring - hand 1" in out
    assert "level 1: 1 chip a point, this hand only in the level (then 2)" in out
    assert "chips: you 12, random 12, random2 12" in out
    assert "level 2: 2 chips a point, this hand only in the level (then 3)" in out
    assert "Hand 1 at 1 chip a point: you 0, random 0, random2 0" in out
    # Hand 2 at 2 chips a point: the player owes 12 chips (all they have) and is out, 3rd.
    assert (
        "Hand 2 at 2 chips a point: you -12, random +18, random2 -6\nchips: you out (3rd), random 30, random2 6" in out
    )
    assert "You are out in 3rd place." in out
    # The bots play on at the last level, 3 chips a point, one line a hand.
    assert "hand 3 (3 chips a point): chips: you out (3rd), random 30, random2 6" in out
    assert "hand 5 (3 chips a point): chips: you out (3rd), random 36, random2 out (2nd)" in out
    # Three buy-ins of 10: 1st takes 0.7 (21.00), 2nd 0.3 (9.00).
    final = out[out.index("The tournament is over.") :]
    assert final.splitlines()[:5] == [
        "The tournament is over.",
        "Final standings after 5 hands (prize pool 30.00):",
        "  1st             random        21.00",
        "  2nd             random2        9.00  out in hand 5",
        "  3rd             you            0.00  out in hand 2",
    ]
    saved = files(tmp_path)
    assert [p.name[-11:] for p in saved] == ["hand01.json", "hand02.json"]  # the player's hands only
    for number, path in enumerate(saved, 1):
        history = read(path.read_text(encoding="utf-8"))
        assert history.tournament is not None
        assert (history.tournament.hand, history.tournament.level) == (number, min(number, 3))
        assert check_copy(history) is not None
    text = replay_text(saved[0])
    assert "tournament hand 1, level 1: 1 chip per point" in text
    assert "chips: you 12 " in text


def test_too_many_places_paid_is_refused_before_play() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ofc", "play", "--tournament", "--bots", "random", "--set", "payouts=0.5,0.3,0.2"],
        capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL, timeout=600,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "ofc: error: setting payouts: 3 places paid but 2 players\n"
