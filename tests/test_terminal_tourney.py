"""The tournament at the terminal: status lines worked by hand, and whole tournaments in-process."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console

from ofc.bots import make_bot
from ofc.formats.history import check_copy, read
from ofc.rules.cards import Deck
from ofc.rules.rulebook import Rules
from ofc.series.tournament import Finish, Tournament
from ofc.terminal.face import Face
from ofc.terminal.reader import Ask
from ofc.terminal.store import HandStore
from ofc.terminal.tournament import TournamentGame, chips_line, level_line, ordinal, place_text, standings_lines
from support.sheets import sheet
from test_terminal_game import Clock, FirstLegal, Item, Script

HINTED: list[Item] = ["hint", "accept", ""]
"""The player's lines for one deal: the adviser's move, taken and confirmed."""


def test_ordinals_and_shared_places() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    assert place_text(Finish(3)) == "3rd"
    assert place_text(Finish(2, 2)) == "2nd-3rd (tied)"


def test_level_chips_and_places_worked_by_hand() -> None:
    # 2 hands a level at 1, 2, 4 chips a point; 4 players with 10 chips, button on seat 0.
    rules = Rules.of(players=4, starting_chips=10, level_hands=2, chips_per_point=(1, 2, 4), payouts=("0.7", "0.3"))
    names = ["ann", "bob", "cat", "dan"]
    tournament = Tournament(rules, button=0)
    assert level_line(tournament) == "level 1: 1 chip a point, 2 hands left in the level (then 2)"
    # Hand 1 at 1 a point: bob loses 10 points to ann, and is out in 4th.
    tournament.record(sheet([[0, 10, 0, 0], [-10, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]))
    assert tournament.chips == (20, 0, 10, 10)
    assert level_line(tournament) == "level 1: 1 chip a point, this hand only in the level (then 2)"
    assert chips_line(tournament, names) == "chips: ann 20, bob out (4th), cat 10, dan 10"
    # Hand 2 (seats 0, 2, 3): nothing moves. Hand 3 is level 2, at 2 a point: cat and dan each
    # lose 5 points (10 chips, all they have) to ann: equal stacks share 2nd-3rd.
    tournament.record(sheet([[0, 0, 0], [0, 0, 0], [0, 0, 0]]))
    assert level_line(tournament) == "level 2: 2 chips a point, 2 hands left in the level (then 4)"
    tournament.record(sheet([[0, 5, 5], [-5, 0, 0], [-5, 0, 0]]))
    assert tournament.finished
    assert (
        chips_line(tournament, names)
        == "chips: ann 40, bob out (4th), cat out (2nd-3rd (tied)), dan out (2nd-3rd (tied))"
    )
    # Pool 400: 1st 280; 2nd and 3rd share 0.3 + 0 = 120, 60 each; 4th nothing.
    assert [line.plain for line in standings_lines(tournament, names)] == [
        "Final standings after 3 hands (prize pool 400.00):",
        "  1st             ann      280.00",
        "  2nd-3rd (tied)  cat       60.00  out in hand 3",
        "  2nd-3rd (tied)  dan       60.00  out in hand 3",
        "  4th             bob        0.00  out in hand 1",
    ]


def test_the_last_level_says_so() -> None:
    tournament = Tournament(Rules.of(players=2, level_hands=1, chips_per_point=(3, 6)), button=0)
    tournament.record(sheet([[0, 0], [0, 0]]))
    assert level_line(tournament) == "level 2: 6 chips a point (the last level)"


def test_places_so_far_when_the_player_leaves() -> None:
    tournament = Tournament(Rules.of(players=3, starting_chips=10, chips_per_point=(1,)), button=0)
    tournament.record(sheet([[0, 10, 0], [-10, 0, 0], [0, 0, 0]]))
    assert [line.plain for line in standings_lines(tournament, ["ann", "bob", "cat"])] == [
        "Places so far after 1 hand (no prizes: the tournament is not over):",
        "  3rd             bob  out in hand 1",
        "  still in        ann  20 chips",
        "  still in        cat  10 chips",
    ]


def play(rules: Rules, items: list[Item], tmp_path: Path, width: int = 200) -> tuple[str, TournamentGame]:
    """A tournament of the player against random bots, the player's cards placed by the clock."""
    clock = Clock()
    out = io.StringIO()
    face = Face(Console(file=out, width=width, color_system=None), Script(items), now=clock)
    bots = {seat: make_bot("random", seed=seat) for seat in range(1, rules.players)}
    names = ["ann", *(f"r{seat}" for seat in range(1, rules.players))]
    decks = iter(range(1000))
    game = TournamentGame(
        face,
        Tournament(rules, button=0),
        names,
        bots,
        store=HandStore(tmp_path, datetime(2026, 12, 1, 9, 0, tzinfo=UTC)),
        decks=lambda: Deck(next(decks)),
        advisor=FirstLegal,
    )
    game.run()
    return out.getvalue(), game


def test_a_whole_tournament_in_process(tmp_path: Path) -> None:
    # One-hand levels at 1, 2, 3 chips a point and 30 chips each. The player plays the adviser's
    # first legal action (hint, accept, Enter) and presses Enter after every showdown. With
    # these decks and bots the player is out in hand 3; the bots play on until hand 19.
    rules = Rules.preset("classic").with_settings(
        {"players": 3, "starting_chips": 30, "level_hands": 1, "chips_per_point": "1,2,3", "payouts": "0.7,0.3"}
    )
    out, game = play(rules, HINTED * 100, tmp_path)
    assert game.tournament.finished
    assert len(game.tournament.hands) == 19
    assert "classic, 3 players, classic scoring - hand 1" in out
    assert "level 1: 1 chip a point, this hand only in the level (then 2)" in out
    assert "chips: ann 30, r1 30, r2 30" in out
    assert "Hand 1 at 1 chip a point: " in out
    assert "level 3: 3 chips a point (the last level)" in out
    # Hand 3 at 3 chips a point: ann pays all 30 chips (21 to r1, 9 to r2) and is out in 3rd.
    assert "Hand 3 at 3 chips a point: ann -30, r1 +21, r2 +9\nchips: ann out (3rd), r1 33, r2 57\n" in out
    assert "You are out in 3rd place." in out
    assert (
        "Enter: the bots play on (Ctrl-C stops them) > hand 4 (3 chips a point): chips: ann out (3rd), r1 33, r2 57"
        in out
    )
    assert "hand 19 (3 chips a point): chips: ann out (3rd), r1 out (2nd), r2 90\n" in out
    # Pool 300 at 0.7 / 0.3: 210 and 90.
    assert out.endswith(
        "The tournament is over.\n"
        "Final standings after 19 hands (prize pool 300.00):\n"
        "  1st             r2       210.00\n"
        "  2nd             r1        90.00  out in hand 19\n"
        "  3rd             ann        0.00  out in hand 3\n"
        f"Hand histories are in {tmp_path}\n"
    )
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"20261201-090000-hand0{n}.json" for n in (1, 2, 3)]
    for number, path in enumerate(files, 1):
        history = read(path.read_text(encoding="utf-8"))
        assert history.tournament is not None
        assert (history.tournament.hand, history.tournament.level, history.tournament.chips_per_point) == (
            number, number, number,
        )  # fmt: skip
        assert check_copy(history) is not None
    assert history.tournament is not None
    assert history.tournament.chips_won == (-30, 21, 9)


def test_equal_stacks_out_together_share_their_places(tmp_path: Path) -> None:
    # Four seats with 1 chip each at 100 chips a point. In hand 1 r1 wins 6 points from each of
    # the three others, who all fouled: each pays their one chip and the three are out together
    # on equal stacks, sharing 2nd-4th. Pool 400 at 0.5 / 0.3 / 0.2: the three share 0.3 + 0.2
    # = 200, 66.666... each, rounded down to 66.66; the 2 cents left go to the winner (200.02).
    rules = Rules.preset("classic").with_settings(
        {"players": 4, "starting_chips": 1, "chips_per_point": "100", "payouts": "0.5,0.3,0.2"}
    )
    out, game = play(rules, HINTED * 20, tmp_path)
    assert game.tournament.chips == (0, 4, 0, 0)
    assert "Hand 1 at 100 chips a point: ann -1, r1 +3, r2 -1, r3 -1\n" in out
    assert "You are out in 2nd-4th (tied) place.\nr2 is out in 2nd-4th (tied) place.\n" in out
    assert "Enter: the final standings > " in out
    assert out.endswith(
        "The tournament is over.\n"
        "Final standings after 1 hand (prize pool 400.00):\n"
        "  1st             r1       200.02\n"
        "  2nd-4th (tied)  ann       66.66  out in hand 1\n"
        "  2nd-4th (tied)  r2        66.66  out in hand 1\n"
        "  2nd-4th (tied)  r3        66.66  out in hand 1\n"
        f"Hand histories are in {tmp_path}\n"
    )


class Prompted:
    """A keyboard answering by the prompt on the screen: Ctrl-C once the bots play on, then yes."""

    def __init__(self, out: io.StringIO, face: list[Face]) -> None:
        self.out = out
        self.face = face
        self.lines = iter(HINTED * 100)

    draws_prompt = False

    def read(self, ask: Ask) -> str | None:
        screen = self.out.getvalue()
        if screen.endswith("Enter: the bots play on (Ctrl-C stops them) > "):
            self.face[0].interrupts.pending = True  # Ctrl-C pressed while the bots play
            return ""
        if screen.endswith("[y/N] "):
            return "y"
        line = next(self.lines)
        assert isinstance(line, str)  # HINTED holds key lines only
        return line

    def drop_typed(self) -> None:
        """Nothing is typed ahead."""


def test_ctrl_c_stops_the_bots_and_shows_the_places_so_far(tmp_path: Path) -> None:
    rules = Rules.preset("classic").with_settings(
        {"players": 3, "starting_chips": 30, "level_hands": 1, "chips_per_point": "1,2,3", "payouts": "0.7,0.3"}
    )
    out = io.StringIO()
    faces: list[Face] = []
    face = Face(Console(file=out, width=200, color_system=None), Prompted(out, faces), now=Clock())
    faces.append(face)
    decks = iter(range(1000))
    game = TournamentGame(
        face,
        Tournament(rules, button=0),
        ["ann", "r1", "r2"],
        {seat: make_bot("random", seed=seat) for seat in (1, 2)},
        store=HandStore(tmp_path, datetime(2026, 12, 1, 9, 0, tzinfo=UTC)),
        decks=lambda: Deck(next(decks)),
        advisor=FirstLegal,
    )
    game.run()
    # The same tournament as above: the player is out in hand 3; Ctrl-C comes before hand 4.
    assert out.getvalue().endswith(
        "Leave the tournament? Finished hands are saved. [y/N] "
        "You left the tournament after 3 finished hands.\n"
        "Places so far after 3 hands (no prizes: the tournament is not over):\n"
        "  3rd             ann  out in hand 3\n"
        "  still in        r1   33 chips\n"
        "  still in        r2   57 chips\n"
        f"Hand histories are in {tmp_path}\n"
    )
