"""Message schemas of docs/protocol.md, validated with pydantic.

Client messages over the table WebSocket are JSON objects with a ``type``; anything that is
not valid JSON, not an object, of an unknown type or of the wrong shape is refused with an
``error`` message naming the fault, and changes nothing. Lobby requests are JSON bodies.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from ofc.rules.errors import OfcError
from ofc.rules.terms import Phrase

MAX_MESSAGE = 8192
"""Longest client message accepted, in characters."""

Token = Annotated[str, StringConstraints(min_length=1, max_length=100)]
CardText = Annotated[str, StringConstraints(min_length=2, max_length=3)]
RowText = Annotated[str, StringConstraints(min_length=1, max_length=6)]
RequestId = int | Annotated[str, StringConstraints(max_length=64)] | None
PlayerName = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z0-9_.\- ]{1,24}$"), AfterValidator(lambda name: clean_name(name))
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: RequestId = None
    """Any id the client likes; replies to this message carry it back."""


class Hello(_Message):
    """Take a seat on this connection with its token, or watch (no token)."""

    type: Literal["hello"]
    token: Token | None = None


class Act(_Message):
    """A seat's decision: ``place`` as [card, row] pairs and the ``discard`` cards."""

    type: Literal["act"]
    token: Token
    place: Annotated[list[tuple[CardText, RowText]], Field(max_length=17)]
    discard: Annotated[list[CardText], Field(max_length=4)] = []


class Hint(_Message):
    """Ask what the ``mc`` bot would do in the seat's place, with its expected points."""

    type: Literal["hint"]
    token: Token


class Solve(_Message):
    """Ask the fantasy solver for the best arrangement of the seat's fantasy deal."""

    type: Literal["solve"]
    token: Token


class Sync(_Message):
    """Ask for the current state again."""

    type: Literal["sync"]


class Ping(_Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | Hint | Solve | Sync | Ping, Field(discriminator="type")]
_CLIENT = TypeAdapter[ClientMessage](ClientMessage)
TYPES = ("hello", "act", "hint", "solve", "sync", "ping")


class ProtocolError(Exception):
    """A message that cannot be read: ``code`` is ``bad_json``, ``bad_text``, ``unknown_type`` or ``bad_message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def bad_text(value: Any) -> str | None:
    """What is wrong with the first text in a JSON value (keys too) that no database can store, or None.

    NUL characters (PostgreSQL refuses them) and lone surrogates (not Unicode) are refused
    everywhere, on every database, before anything is looked up or stored. Walked without
    recursion, so any depth the JSON reader accepted is fine.
    """
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return f"{where or 'text'}: text may not contain NUL characters"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"{where or 'text'}: text must be Unicode (a lone surrogate is not)"
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                shown = ascii(key)[1:-1]  # a key's own NUL is shown escaped
                place = f"{where}.{shown}" if where else shown
                stack += [(place, inner), (place, key)]
        elif isinstance(item, list):
            stack += [
                (f"{where}.{index}" if where else str(index), inner) for index, inner in reversed(list(enumerate(item)))
            ]
    return None


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"][1:]) or "message"
    return f"{where}: {problem['msg']}"


def parse_message(text: str | bytes) -> Hello | Act | Hint | Solve | Sync | Ping:
    """Read one client message; raises ``ProtocolError`` naming what is wrong."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("bad_message", f"a message may hold at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    except ValueError:  # a number of thousands of digits
        raise ProtocolError("bad_json", "a number in the message is too long") from None
    except RecursionError:
        raise ProtocolError("bad_json", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    problem = bad_text(data)
    if problem is not None:
        raise ProtocolError("bad_text", problem)
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}: expected one of {', '.join(TYPES)}")
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as error:
        raise ProtocolError("bad_message", f"{kind}: {_first_problem(error)}") from None


def error_message(code: str, message: str, request: Any = None, error: OfcError | None = None) -> dict[str, Any]:
    """The ``error`` message sent back for a refused message.

    With the ``OfcError`` at fault it also carries the error's language-neutral ``kind``,
    ``template`` and ``params`` (``OfcError.to_json``), so a client words it in its language.
    """
    return {"type": "error", "code": code, "message": message, "id": request, **error_fields(error)}


def error_fields(error: OfcError | None) -> dict[str, Any]:
    """``kind``, ``template`` and ``params`` of ``error`` (nothing without one); ``message`` stays English."""
    if error is None:
        return {}
    return {key: value for key, value in error.to_json().items() if key != "message"}


def with_hand_phrases(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``hand_phrases`` beside every list of English ``hands`` names.

    A hand name is a ``Phrase`` (``ofc.rules.ranking.hand_name``): the English text stays in
    ``hands`` for compatibility, its template and params go in ``hand_phrases`` (None where
    a name is plain text), so a client names the hands in the player's language.
    """
    phrased: dict[str, Any] = _phrased(document)
    return phrased


def _phrased(document: Any) -> Any:
    if isinstance(document, list):
        return [_phrased(item) for item in document]
    if not isinstance(document, dict):
        return document
    copy = {key: _phrased(value) for key, value in document.items()}
    hands = document.get("hands")
    if isinstance(hands, list | tuple) and any(isinstance(name, Phrase) for name in hands):
        copy["hand_phrases"] = [name.to_json() if isinstance(name, Phrase) else None for name in hands]
    return copy


# ---------------------------------------------------------------------- lobby requests


class CreateTable(BaseModel):
    """``POST /api/tables``: a table from a preset and settings, with bots for some seats."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, StringConstraints(min_length=1, max_length=60)] = "table"
    kind: Literal["match", "tournament"] = "match"
    """A match (money per point), or a sit-and-go tournament (buy-in, chips, levels, prizes)."""
    preset: Annotated[str, StringConstraints(max_length=40)] = "pineapple"
    settings: dict[str, str | int | float | bool | None] = {}
    seats: Annotated[int, Field(ge=2, le=4)] = 2
    bots: Annotated[list[str | None], Field(max_length=4)] = []
    """One entry per seat: a bot spec (``random``, ``heuristic``, ``mc``...) or null for a person."""
    hints: bool = True
    """Whether the seats may ask for hints and the fantasy solver (false: a game between people)."""
    sit: JoinTable | None = None
    """A player sitting down at the new table in the same step (as ``/join``): both happen or neither."""


def clean_name(text: str) -> str:
    """A player's name as stored: spaces trimmed and single; never blank, never a bot's (``mc bot``)."""
    name = " ".join(text.split())
    if not name:
        raise ValueError("a name cannot be blank")
    if name.lower() == "bot" or name.lower().endswith(" bot") or name.lower() == "(empty)":
        raise ValueError(f"{name!r} reads like a bot's seat: choose another name")
    return name


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: sit a named player at an open seat (any, if none given)."""

    model_config = ConfigDict(extra="forbid")

    name: PlayerName
    seat: Annotated[int, Field(ge=0, le=3)] | None = None
    key: Token | None = None
    """The player key given when the name was first used (needed to play as that name again)."""


class LeaveTable(BaseModel):
    """``POST /api/tables/{id}/leave``: give up a seat before the match starts."""

    model_config = ConfigDict(extra="forbid")

    token: Token


CreateTable.model_rebuild()  # ``sit`` names ``JoinTable``, defined after it
