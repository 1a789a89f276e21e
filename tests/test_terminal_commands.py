"""The terminal's command parser: placements, one-word commands, and one-line reasons."""

from __future__ import annotations

import pytest

from ofc.rules.cards import parse_card
from ofc.rules.rows import Row
from ofc.terminal.commands import DISCARD, CommandError, Place, Simple, Undo, Verb, parse_command


def c(text: str) -> int:
    return parse_card(text)


def test_placement_with_discard() -> None:
    assert parse_command("Ah b Kd m 7c x") == Place(((c("Ah"), Row.BOTTOM), (c("Kd"), Row.MIDDLE), (c("7c"), DISCARD)))


def test_several_cards_to_one_row_any_case_and_ten() -> None:
    assert parse_command("ah 10D  BOT qs Top") == Place(
        ((c("Ah"), Row.BOTTOM), (c("Td"), Row.BOTTOM), (c("Qs"), Row.TOP))
    )


def test_long_row_names_and_discard_words() -> None:
    assert parse_command("2c middle 3c bottom 4c discard 5c d") == Place(
        ((c("2c"), Row.MIDDLE), (c("3c"), Row.BOTTOM), (c("4c"), DISCARD), (c("5c"), DISCARD))
    )


def test_trailing_ok_confirms() -> None:
    assert parse_command("Ah t ok") == Place(((c("Ah"), Row.TOP),), confirm=True)
    assert parse_command("Ah t done").confirm  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "verb"),
    [
        ("", Verb.CONFIRM),
        ("   ", Verb.CONFIRM),
        ("ok", Verb.CONFIRM),
        ("OK", Verb.CONFIRM),
        ("clear", Verb.CLEAR),
        ("hint", Verb.HINT),
        ("h", Verb.HINT),
        ("solve", Verb.SOLVE),
        ("accept", Verb.ACCEPT),
        ("help", Verb.HELP),
        ("?", Verb.HELP),
        ("quit", Verb.QUIT),
        ("exit", Verb.QUIT),
    ],
)
def test_one_word_commands(line: str, verb: Verb) -> None:
    assert parse_command(line) == Simple(verb)


def test_undo_last_or_named() -> None:
    assert parse_command("undo") == Undo()
    assert parse_command("back") == Undo()
    assert parse_command("u Kd") == Undo(c("Kd"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Ah", "say where Ah should go: add t, m, b (or x to discard) after it"),
        ("Ah Kd", "say where Ah Kd should go: add t, m, b (or x to discard) after it"),
        ("Ah b Kd", "say where Kd should go: add t, m, b (or x to discard) after it"),
        ("b Ah", "'b' needs cards before it: write the card first, as in 'Ah b'"),
        ("Zz b", "'Zz' is neither a card (like Ah, Td, 10c) nor a command (help lists them)"),
        ("hello", "'hello' is neither a card (like Ah, Td, 10c) nor a command (help lists them)"),
        ("help me", "help takes nothing after it, got 'me'"),
        ("undo Ah Kd", "undo takes back one card at a time, got 'Ah Kd'"),
        ("undo x", "'x' is neither a card (like Ah, Td, 10c) nor a command (help lists them)"),
    ],
)
def test_errors_are_one_line_reasons(line: str, message: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(line)
    assert str(caught.value) == message


def test_ok_alone_after_cards_is_not_a_row() -> None:
    with pytest.raises(CommandError, match="say where Ah"):
        parse_command("Ah ok")
