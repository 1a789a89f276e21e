"""``ofc simulate``: bad input exits 2 with one line on stderr."""

from __future__ import annotations

import pytest

from ofc.bots import BOT_NAMES, make_bot, parse_spec, split_specs
from ofc.cli.app import main
from ofc.rules.errors import BotError, OfcError

BAD = [
    (["--bots", "mc,alphago"], "unknown bot 'alphago': choose one of random, heuristic, mc"),
    (["--bots", "mc:depth=3,random"], "bot mc has no option 'depth' (options: seconds, rollouts, candidates, fantasy)"),
    (["--bots", "mc:seconds=fast,random"], "bot mc: option seconds must be a number of seconds above 0"),
    (["--bots", "mc:rollouts=0,random"], "bot mc: option rollouts must be a whole number of play-outs from 1"),
    (["--bots", "random:seed=1,heuristic"], "bot random has no option 'seed' (options: none)"),
    (["--bots", "heuristic"], "a simulation needs at least two bots"),
    (["--bots", "random,random,random,random"], "setting players: pineapple allows 2-3 players, not 4"),
    (["--bots", "random,random", "--hands", "0"], "--hands must be at least 1, not 0"),
    (["--bots", "random,random", "--workers", "0"], "--workers must be at least 1, not 0"),
    (["--bots", "random,random", "--rules", "omaha"], "unknown preset 'omaha'"),
    (["--bots", "random,random", "--set", "players=5"], "setting players"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["simulate", "--hands", "1", *args] if "--hands" not in args else ["simulate", *args])
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ofc: error: ")
    assert message in lines[0]


def test_bot_names() -> None:
    assert BOT_NAMES == ("random", "heuristic", "mc", "pro")


def test_spec_parsing() -> None:
    assert parse_spec("mc") == ("mc", {})
    assert parse_spec(" MC : seconds=0.2 , rollouts=400 ") == ("mc", {"seconds": 0.2, "rollouts": 400})
    assert parse_spec("heuristic:fantasy=12.5") == ("heuristic", {"fantasy": 12.5})
    assert split_specs("mc:seconds=0.2,rollouts=9,heuristic,random") == [
        "mc:seconds=0.2,rollouts=9", "heuristic", "random",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "unknown bot ''"),
        ("mcts", "unknown bot 'mcts'"),
        ("mc:seconds", "bot mc: expected key=value, got 'seconds'"),
        ("mc:seconds=0.1,seconds=0.2", "bot mc: option seconds given twice"),
        ("mc:seconds=-1", "option seconds must be a number of seconds above 0 (at most 3600), got '-1'"),
        ("mc:seconds=nan", "option seconds must be"),
        ("mc:rollouts=2.5", "option rollouts must be a whole number of play-outs from 1, got '2.5'"),
        ("mc:candidates=0", "option candidates must be a whole number of actions from 1, got '0'"),
        ("heuristic:fantasy=-3", "option fantasy must be a number of points >= 0, got '-3'"),
    ],
)
def test_spec_errors_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=None) as raised:
        make_bot(spec)
    assert message in str(raised.value)
    assert isinstance(raised.value, OfcError)


def test_make_bot_names_and_options() -> None:
    bot = make_bot("mc:seconds=0.2,rollouts=400,candidates=5,fantasy=8")
    assert bot.name == "mc:seconds=0.2,rollouts=400,candidates=5,fantasy=8"
    assert (bot.seconds, bot.rollouts, bot.candidates, bot.fantasy_value) == (0.2, 400, 5, 8.0)  # type: ignore[attr-defined]
    default = make_bot("mc")
    assert (default.seconds, default.rollouts, default.candidates) == (0.5, None, 12)  # type: ignore[attr-defined]
    only_rollouts = make_bot("mc:rollouts=50")
    assert (only_rollouts.seconds, only_rollouts.rollouts) == (None, 50)  # type: ignore[attr-defined]
    assert make_bot("heuristic").name == "heuristic"
    assert make_bot("random", seed=3).name == "random"
