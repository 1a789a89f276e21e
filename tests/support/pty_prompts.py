"""Prompts of ``ofc play`` as a pseudo-terminal receives them from prompt_toolkit (for pexpect).

prompt_toolkit starts each prompt by asking the terminal where the cursor is (``ESC [6n``; a
real terminal answers at once, and the toolbar with the clock is drawn once the answer has
come), then switches bracketed paste on (``ESC [?2004h``) and draws the prompt's text, its
trailing spaces as cursor moves. ``expect`` answers the question the way a terminal does
and waits for one of the given prompts.
"""

from __future__ import annotations

import re

import pexpect

Prompt = str | bytes | re.Pattern[str] | re.Pattern[bytes] | type[pexpect.EOF] | type[pexpect.TIMEOUT]
"""What ``pexpect``'s ``expect`` takes in its list of patterns (its stubs take a list, not a sequence)."""

CURSOR_QUESTION = re.escape("\x1b[6n")
CURSOR_ANSWER = "\x1b[20;1R"
"""Row 20, column 1: room for the toolbar below the prompt."""
PROMPT_START = r"\x1b\[\?2004h(?:\x1b\[[0-9;?]*[A-Za-z])*"
"""Bracketed paste switched on, then any other escape sequences up to the prompt's first letter."""


def prompt(text: str) -> str:
    """The pattern of a prompt whose text is ``text`` (its trailing spaces are not written)."""
    return PROMPT_START + re.escape(text.rstrip())


def prompt_like(pattern: str) -> str:
    """The pattern of a prompt whose text matches the regular expression ``pattern``."""
    return PROMPT_START + pattern


def expect(child: pexpect.spawn[str], patterns: list[Prompt]) -> tuple[int, str]:
    """Wait for one of ``patterns``, answering cursor questions; (its index, the text before it)."""
    before = ""
    while True:
        which = child.expect([CURSOR_QUESTION, *patterns])
        before += child.before or ""
        if which:
            return which - 1, before
        child.send(CURSOR_ANSWER)
