"""The README's and docs/cli.md's code runs as written: every ``python`` block, every JSON
example (scored by ``ofc score``), and every non-interactive ``ofc`` command line of the ``sh``
blocks (issue: a README example that did not run, ``now`` undefined). Interactive or
long-running commands (``play``, ``serve``, a 200-tournament run) are listed in ``NOT_RUN``
with the reason; the keep commands of each document run in order on a scratch book.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from ofc.cli.app import main

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ("README.md", "docs/cli.md")
NOT_RUN = {  # sub-command: why a document's line is not run here
    "play": "interactive: the pexpect tests drive it",
    "serve": "a server that runs until stopped: the server tests start it",
    "tournament": "a 200-tournament run shown with its output; test_cli_tournament runs the command",
}


def blocks(document: str, kind: str) -> list[str]:
    """The fenced blocks of ``kind`` (``python``, ``json``, ``sh``) in ``document``, in order."""
    text = (ROOT / document).read_text(encoding="utf-8")
    return [body for language, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M) if language == kind]


def ofc_lines(document: str) -> list[list[str]]:
    """Every ``ofc ...`` command of the sh blocks, as argument lists (comments and ``$`` prompts dropped)."""
    commands = []
    for text in blocks(document, "sh"):
        for line in text.replace("\\\n", " ").splitlines():
            line = line.removeprefix("$ ").strip()
            if not re.match(r"(\.venv/bin/)?ofc ", line):
                continue
            commands.append(shlex.split(line, comments=True)[1:])
    return commands


def runnable(document: str) -> list[list[str]]:
    """The ``ofc`` lines run here: all but ``NOT_RUN`` and ``keep new --after`` (it needs a finished match)."""
    return [words for words in ofc_lines(document) if words[0] not in NOT_RUN and "--after" not in words]


def test_the_documents_have_the_blocks_this_test_reads() -> None:
    assert len(blocks("README.md", "python")) >= 1
    assert len(blocks("README.md", "json")) >= 1
    assert [words[:2] for words in runnable("README.md")] == [["keep", "new"], ["keep", "add"], ["keep", "show"]]
    assert {words[0] for words in runnable("docs/cli.md")} >= {"rules", "keep", "solve"}


PYTHON_BLOCKS = [(document, number) for document in DOCUMENTS for number in range(len(blocks(document, "python")))]


@pytest.mark.parametrize(("document", "number"), PYTHON_BLOCKS)
def test_python_blocks_run(document: str, number: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = blocks(document, "python")[number]
    exec(compile(code, f"{document} python block {number + 1}", "exec"), {})


@pytest.mark.parametrize("document", DOCUMENTS)
def test_json_examples_parse_and_score(document: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for number, text in enumerate(blocks(document, "json")):
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


@pytest.mark.parametrize("document", DOCUMENTS)
def test_ofc_command_lines_run(
    document: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the keep commands write game.json here, in order
    for words in runnable(document):
        status = run(words)
        assert status in (0, None), (words, capsys.readouterr().err)


def test_the_readme_example_scores_as_worked_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's book and JSON table hold the same hand: ann wins top (QQ) and middle (trips),
    bob the bottom (the higher flush), so rows +1 for ann (no scoop); royalties 7 + 2 + 4 = 13
    against 4: ann +10, at 0.5 a point 5.00; QQ on top earns ann a 14-card fantasy."""
    monkeypatch.chdir(tmp_path)
    for words in runnable("README.md"):
        run(words)
    capsys.readouterr()
    main(["keep", "score", "game.json", "--json"])
    book = json.loads(capsys.readouterr().out)
    assert book["hands"][0]["points"] == {"ann": 10, "bob": -10}
    assert book["totals"]["money"] == {"ann": 5, "bob": -5}
    assert book["next"]["fantasy"] == {"ann": 14}
    table = tmp_path / "table.json"
    table.write_text(blocks("README.md", "json")[0], encoding="utf-8")
    main(["score", str(table), "--json"])
    scored = json.loads(capsys.readouterr().out)
    assert [(player["name"], player["royalties"]["total"], player["points"]) for player in scored["players"]] == [
        ("ann", 13, 10),
        ("bob", 4, -10),
    ]


def test_scripts_main_passes_its_flags_to_ofc_serve() -> None:
    """The README says ``bash scripts/main --port 8080`` works: the script hands ``"$@"`` to ``ofc serve``."""
    script = (ROOT / "scripts" / "main").read_text(encoding="utf-8")
    assert 'exec .venv/bin/ofc serve "$@"' in script
