"""Which language a player reads: the three we speak, and how a choice is read.

A choice comes from ``--lang``, the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG``, in gettext's order) or a browser's ``Accept-Language`` header. The current language
is a context variable, so a server can serve several at once and a test can switch freely.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Final, Literal, TypeGuard

from ofc.rules.errors import RulesError

Language = Literal["en", "ru", "uk"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "ru", "uk")
DEFAULT: Final[Language] = "en"
# Each language's own name, as a picker shows it.
LANGUAGE_NAMES: Final[dict[Language, str]] = {"en": "English", "ru": "Русский", "uk": "Українська"}

_current: ContextVar[Language] = ContextVar("ofc_language", default=DEFAULT)


def is_language(code: object) -> TypeGuard[Language]:
    """Whether ``code`` is one of the languages ofc speaks."""
    return code in LANGUAGES


def normalize(tag: str) -> Language | None:
    """The language of a tag such as ``uk_UA.UTF-8``, ``ru-RU`` or ``EN``; None if not ours."""
    primary = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return primary if is_language(primary) else None


def parse_language(text: str) -> Language:
    """Read a ``--lang`` value; a clear error names the choices."""
    language = normalize(text)
    if language is None:
        raise RulesError(f"unknown language {text!r}: choose one of {', '.join(LANGUAGES)}")
    return language


def from_environment(environ: Mapping[str, str]) -> Language:
    """The language the environment asks for, in gettext's order; English when none of ours."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        if name == "LANGUAGE":  # a colon-separated list of preferences
            for tag in value.split(":"):
                language = normalize(tag)
                if language is not None:
                    return language
            continue
        return normalize(value) or DEFAULT
    return DEFAULT


def from_accept_language(header: str | None) -> Language:
    """The best of our languages for an ``Accept-Language`` header (quality values honoured)."""
    choices: list[tuple[float, int, Language]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([^;\s]*)", rest)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                continue  # a malformed quality: the entry is ignored
        language = normalize(tag)
        if language is not None and quality > 0:
            choices.append((-quality, index, language))
    return min(choices)[2] if choices else DEFAULT


def current_language() -> Language:
    """The language texts are rendered in right now."""
    return _current.get()


def set_language(language: Language) -> None:
    """Make ``language`` current for this context (a command sets it once at start)."""
    _current.set(language)


@contextlib.contextmanager
def use_language(language: Language) -> Iterator[None]:
    """Render texts in ``language`` inside the ``with`` block."""
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)
