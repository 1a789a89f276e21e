"""The README's code runs as written: every ``python`` block, every JSON example, and every
non-interactive ``ofc`` command line of the ``sh`` blocks (issue: a README example that did
not run, ``now`` undefined). Interactive or long-running commands (``play``, ``serve``, a
200-tournament run) are listed in ``NOT_RUN`` with the reason; the keep commands run in order
on a scratch book.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from ofc.cli.app import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w*)\n(.*?)^```", README, re.S | re.M)
NOT_RUN = {  # sub-command: why the README's line is not run here
    "play": "interactive: the pexpect tests drive it",
    "serve": "a server that runs until stopped: the server tests start it",
    "tournament": "a 200-tournament run shown with its output; test_cli_tournament runs the command",
}


def blocks(kind: str) -> list[str]:
    return [text for language, text in BLOCKS if language == kind]


def ofc_lines() -> list[list[str]]:
    """Every ``ofc ...`` command of the sh blocks, as argument lists (comments and ``$`` prompts dropped)."""
    commands = []
    for text in blocks("sh"):
        for line in text.replace("\\\n", " ").splitlines():
            line = line.removeprefix("$ ").strip()
            if not re.match(r"(\.venv/bin/)?ofc ", line):
                continue
            words = shlex.split(line, comments=True)[1:]
            commands.append(words)
    return commands


def test_the_readme_has_the_blocks_this_test_reads() -> None:
    assert len(blocks("python")) >= 2
    assert len(blocks("json")) >= 1
    assert any(words[0] == "keep" for words in ofc_lines())


@pytest.mark.parametrize("number", range(len(blocks("python"))))
def test_python_blocks_run(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(blocks("python")[number], f"README python block {number + 1}", "exec"), {})


def test_json_examples_parse_and_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for number, text in enumerate(blocks("json")):
        table = tmp_path / f"table{number}.json"
        table.write_text(text, encoding="utf-8")
        json.loads(text)
        main(["score", str(table), "--json"])
        scored = json.loads(capsys.readouterr().out)
        assert sum(player["points"] for player in scored["players"]) == 0


def run(words: list[str]) -> int | str | None:
    """``ofc WORDS`` in-process; its exit status (None or 0 when it simply returns)."""
    try:
        main(words)
    except SystemExit as done:
        return done.code
    return None


def test_ofc_command_lines_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the keep commands write game.json and next.json here, in order
    ran = 0
    for words in ofc_lines():
        if words[0] in NOT_RUN or "--after" in words:  # --after needs a finished match: test_cli_keep runs it
            continue
        status = run(words)
        assert status in (0, None), (words, capsys.readouterr().err)
        ran += 1
    assert ran >= 8
