"""Finding every translatable text in the sources and keeping the ``.po`` files in step.

Run ``python -m ofc.i18n.extract`` after changing texts: it adds new messages (untranslated)
to each language's catalogs, drops those no longer used, and prints what still needs a
translation. ``check_catalogs()`` is what the test suite runs: a message missing or untranslated
in a language, or a placeholder that differs from the English, is a failure.

Domains, by where a text lives: ``web`` (the browser client: ``tr()``-family calls in ``.js``
and ``data-i18n*`` attributes in ``.html``), ``cli`` (``cli/``, ``terminal/``, ``keep/``),
``errors`` (the template of every ``raise`` of an ``OfcError`` class) and ``core`` (the rest).
"""

from __future__ import annotations

import ast
import json
import re
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po

from ofc.i18n.catalog import DOMAINS, po_path, read_catalog
from ofc.i18n.language import LANGUAGE_NAMES, LANGUAGES, Language
from ofc.i18n.text import KEYWORDS

PACKAGE: Final[Path] = Path(__file__).resolve().parent.parent
TRANSLATED: Final[tuple[Language, ...]] = tuple(code for code in LANGUAGES if code != "en")
_CLI_DIRS: Final[tuple[str, ...]] = ("cli", "terminal", "keep")
_HTML_MARK = re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]+)"')
_ERRORS_MODULE = PACKAGE / "rules" / "errors.py"
_HEADER: Final[dict[str, Any]] = {
    "project": "ofc",
    "version": "0.1",
    "copyright_holder": "the ofc developers",
    "msgid_bugs_address": "",
    "creation_date": datetime(2026, 12, 1, tzinfo=UTC),
    "revision_date": datetime(2026, 12, 1, tzinfo=UTC),
}


@dataclass(frozen=True)
class Found:
    """One message found in a source file."""

    id: str | tuple[str, str]
    context: str | None
    where: str


def _python_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "i18n" not in path.relative_to(PACKAGE).parts[:1])


def _domain_of(path: Path) -> str:
    return "cli" if path.relative_to(PACKAGE).parts[0] in _CLI_DIRS else "core"


def _from_keywords(path: Path, method: str) -> Iterator[Found]:
    where = str(path.relative_to(PACKAGE))
    options = {"parse_template_string": True} if method == "javascript" else {}
    found = extract_from_file(method, str(path), keywords=KEYWORDS, options=options)  # type: ignore[arg-type]
    for line, message, _comments, context in found:
        text = message if isinstance(message, str) else (str(message[0]), str(message[1]))
        yield Found(text, context, f"{where}:{line}")


def _from_html(path: Path) -> Iterator[Found]:
    where = str(path.relative_to(PACKAGE))
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in _HTML_MARK.finditer(line):
            yield Found(match.group(1), None, f"{where}:{number}")


def error_classes() -> set[str]:
    """Names of ``OfcError`` and every class derived from it anywhere in the package."""
    bases: dict[str, set[str]] = {}
    for path in [_ERRORS_MODULE, *_python_files()]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases}
                bases.setdefault(node.name, set()).update(names)
    found = {"OfcError"}
    while True:
        grown = found | {name for name, parents in bases.items() if parents & found}
        if grown == found:
            return found
        found = grown


def _raised_name(node: ast.Raise) -> tuple[str, ast.Call] | None:
    call = node.exc
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name, call


def error_templates(path: Path, classes: set[str]) -> Iterator[tuple[int, str | None]]:
    """Each ``raise`` of an error class in ``path``: its line and literal template (None if not literal)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Raise):
            continue
        raised = _raised_name(node)
        if raised is None or raised[0] not in classes:
            continue
        args = raised[1].args
        if not args:
            yield node.lineno, None
        elif isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            yield node.lineno, args[0].value
        else:
            yield node.lineno, None


def non_literal_calls(path: Path) -> Iterator[int]:
    """Lines where a translation function is called with something other than literal strings."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        spec = KEYWORDS.get(node.func.id, False)
        if spec is False:
            continue
        count = 1 if spec is None else len(spec) if isinstance(spec, tuple) else 1
        texts = node.args[:count]
        if len(texts) < count or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in texts):
            yield node.lineno


_JS_CALL = re.compile(r"(?<![\w.$])(trn|trc|tr)\(\s*([^\s)])")


def non_literal_js_calls(path: Path) -> Iterator[int]:
    """Lines of a ``.js`` file where ``tr``/``trn``/``trc`` is called without a literal string first."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in _JS_CALL.finditer(line):
            if match.group(2) not in "\"'":
                yield number


def found_messages() -> dict[str, list[Found]]:
    """Every message of every domain, in source order."""
    result: dict[str, list[Found]] = {domain: [] for domain in DOMAINS}
    classes = error_classes()
    for path in _python_files():
        result[_domain_of(path)].extend(_from_keywords(path, "python"))
        where = str(path.relative_to(PACKAGE))
        for line, template in error_templates(path, classes):
            if template is not None:
                result["errors"].append(Found(template, None, f"{where}:{line}"))
    web = PACKAGE / "web"
    for path in sorted(web.glob("*.js")):
        result["web"].extend(_from_keywords(path, "javascript"))
    for path in sorted(web.glob("*.html")):
        result["web"].extend(_from_html(path))
    return _first_domain_only(result)


def _first_domain_only(result: dict[str, list[Found]]) -> dict[str, list[Found]]:
    """A message lives in the first domain that uses it (``core`` before the faces), once."""
    seen: set[tuple[str, str | None]] = set()
    kept: dict[str, list[Found]] = {}
    for domain in DOMAINS:
        kept[domain] = []
        for found in result[domain]:
            key = _key(found.id, found.context)
            if key not in seen:
                seen.add(key)
                kept[domain].append(found)
    return kept


def template_catalog(domain: str, messages: Iterable[Found]) -> Catalog:
    """A catalog of the domain's message ids (no translations)."""
    catalog = Catalog(domain=domain, **_HEADER)
    for found in messages:
        catalog.add(found.id, string=("", "") if isinstance(found.id, tuple) else "", context=found.context)
    return catalog


def _key(message_id: object, context: str | None) -> tuple[str, str | None]:
    """A message's identity: its (singular) id and context."""
    return (str(message_id[0]) if isinstance(message_id, tuple | list) else str(message_id), context)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a text fills in."""
    try:
        return {field for _text, field, _spec, _conv in string.Formatter().parse(text) if field is not None}
    except ValueError:
        return {"<malformed braces>"}


def check_catalogs() -> list[str]:
    """Every problem of the catalogs against the sources, in words (empty when all is well)."""
    problems: list[str] = []
    messages = found_messages()
    for domain in DOMAINS:
        wanted = {_key(found.id, found.context): found for found in messages[domain]}
        for language in TRANSLATED:
            catalog = read_catalog(language, domain)
            if catalog.num_plurals != 3:
                problems.append(f"{language}/{domain}: Plural-Forms must have 3 forms, not {catalog.num_plurals}")
            have = {_key(message.id, message.context): message for message in catalog if message.id}
            for key, found in wanted.items():
                label = f"{language}/{domain}: {key[0]!r} ({found.where})"
                if key not in have:
                    problems.append(f"{label}: missing")
                    continue
                problems.extend(_message_problems(label, found, have[key]))
            problems.extend(f"{language}/{domain}: {key[0]!r} is no longer used" for key in have.keys() - wanted.keys())
    return problems


def _message_problems(label: str, found: Found, message: Any) -> list[str]:
    problems = []
    if message.fuzzy:
        problems.append(f"{label}: marked fuzzy")
    ids = found.id if isinstance(found.id, tuple) else (found.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if isinstance(found.id, tuple) != isinstance(message.id, tuple):
        problems.append(f"{label}: plural in one place and not the other")
    if len(ids) == 2 and len(strings) != 3:
        problems.append(f"{label}: needs 3 plural forms, has {len(strings)}")
    expected = set().union(*(placeholders(text) for text in ids))
    for form in strings:
        if not form:
            problems.append(f"{label}: not translated")
        elif placeholders(form) - expected or (len(ids) == 1 and placeholders(form) != expected):
            problems.append(f"{label}: placeholders {sorted(placeholders(form))} differ from {sorted(expected)}")
    return problems


def _stamp(catalog: Catalog, language: Language) -> None:
    """A fixed header, so regenerating a catalog changes nothing but its messages."""
    for key, value in _HEADER.items():
        setattr(catalog, key, value)
    catalog.language_team = LANGUAGE_NAMES[language]
    catalog.last_translator = "the ofc developers"
    catalog.fuzzy = False


def update_catalogs() -> None:
    """Bring every ``.po`` file in step with the sources (new messages empty, unused ones dropped)."""
    messages = found_messages()
    for domain in DOMAINS:
        template = template_catalog(domain, messages[domain])
        for language in TRANSLATED:
            catalog = read_catalog(language, domain)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            _stamp(catalog, language)
            path = po_path(language, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, catalog, width=0, no_location=True, sort_output=True, omit_header=False)


def fill_catalog(language: Language, domain: str, translations: dict[str, str | list[str]]) -> int:
    """Set translations of one catalog from ``{id: text}`` (``"context\x04id"`` under a context;
    a list of forms for a plural). Returns how many messages were set; unknown ids are errors."""
    catalog = read_catalog(language, domain)
    by_key = {_key(message.id, message.context): message for message in catalog if message.id}
    unknown = []
    for key_text, value in translations.items():
        context, _glue, message_id = key_text.rpartition("\x04")
        message = by_key.get((message_id, context or None))
        if message is None:
            unknown.append(key_text)
            continue
        message.string = tuple(value) if isinstance(value, list) else value
        message.flags.discard("fuzzy")
    if unknown:
        raise ValueError(f"not in {language}/{domain}: {unknown}")
    with po_path(language, domain).open("wb") as handle:
        write_po(handle, catalog, width=0, no_location=True, sort_output=True)
    return len(translations)


def main(argv: list[str] | None = None) -> int:
    """Update the catalogs and list what still needs a translation.

    ``--fill LANG DOMAIN FILE.json`` first sets translations from a JSON object.
    """
    args = sys.argv[1:] if argv is None else argv
    update_catalogs()
    if args[:1] == ["--fill"]:
        language, domain, source = args[1], args[2], Path(args[3])
        assert language in TRANSLATED, f"language must be one of {TRANSLATED}"
        fill_catalog(language, domain, json.loads(source.read_text(encoding="utf-8")))
    problems = check_catalogs()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
