"""Readers of setting values: text as typed after ``--set`` (or JSON values) to typed values.

Each reader takes the setting's name (for the error) and a value, and returns the typed value
or raises ``RulesError`` naming the setting. ``Rules.with_settings`` reads through them; the
``Rules`` constructor itself takes typed values only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, TypeVar

from ofc.rules.errors import RulesError
from ofc.rules.variants import ButtonOnFantasy, FantasyCards, Scoring, StayCondition, Variant

LARGEST_NUMBER = Decimal(10) ** 12
"""Decimal settings lie strictly between -10^12 and 10^12."""
MOST_DECIMAL_PLACES = 12
"""Decimal settings have at most 12 decimal places.

Both bounds keep sums of times and exact money small: an exponent such as 1e999999999 would
overflow the decimal context in a clock or build a fraction of a billion digits in a ledger.
"""

E = TypeVar("E", bound=StrEnum)


# ---------------------------------------------------------------- value readers per setting


def _text(value: object) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def _enum(kind: type[E]) -> Callable[[str, object], E]:
    def read(name: str, value: object) -> E:
        if isinstance(value, kind):
            return value
        text = _text(value)
        if text is not None:
            for member in kind:
                if member.value == text.replace("-", "_"):
                    return member
        choices = ", ".join(m.value for m in kind)
        raise RulesError("setting {name}: {value!r} is not one of {choices}", name=name, value=value, choices=choices)

    return read


def _int(name: str, value: object) -> int:
    if isinstance(value, bool):
        raise RulesError("setting {name}: expected a whole number, got {value!r}", name=name, value=value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = _text(value)
    if text is not None:
        try:
            return int(text)
        except ValueError:
            pass
    raise RulesError("setting {name}: expected a whole number, got {value!r}", name=name, value=value)


def _scoring(name: str, value: object) -> Scoring:
    """A scoring system; None (like ``default``) for the variant's own."""
    if value is None:
        return Scoring.DEFAULT
    return _enum(Scoring)(name, value)


def _optional_int(name: str, value: object) -> int | None:
    if value is None or _text(value) in ("none", "null", "off", "unlimited", ""):
        return None
    return _int(name, value)


def _decimal(name: str, value: object) -> Decimal:
    if isinstance(value, bool):
        raise RulesError("setting {name}: expected a number, got {value!r}", name=name, value=value)
    try:
        if isinstance(value, Decimal):
            number = value
        elif isinstance(value, int | float):
            number = Decimal(str(value))
        elif isinstance(value, str):
            number = Decimal(value.strip())
        else:
            raise RulesError("setting {name}: expected a number, got {value!r}", name=name, value=value)
    except InvalidOperation:
        raise RulesError("setting {name}: expected a number, got {value!r}", name=name, value=value) from None
    if not number.is_finite():
        raise RulesError("setting {name}: expected a finite number, got {value!r}", name=name, value=value)
    if not -LARGEST_NUMBER < number < LARGEST_NUMBER:
        raise RulesError("setting {name}: too large, got {value!r} (the limit is 10^12)", name=name, value=value)
    if _decimal_places(number) > MOST_DECIMAL_PLACES:
        raise RulesError(
            "setting {name}: more than {places} decimal places, got {value!r}",
            name=name,
            places=MOST_DECIMAL_PLACES,
            value=value,
        )
    return number


def _decimal_places(number: Decimal) -> int:
    """Digits after the point once trailing zeros are dropped (read exactly, no rounding)."""
    if number == 0:
        return 0
    digits = "".join(str(d) for d in number.as_tuple().digits)
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    return max(0, -(exponent + len(digits) - len(digits.rstrip("0"))))


def _optional_decimal(name: str, value: object) -> Decimal | None:
    if value is None or _text(value) in ("none", "null", "off", ""):
        return None
    return _decimal(name, value)


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = _text(value)
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise RulesError("setting {name}: expected on or off, got {value!r}", name=name, value=value)


def _items(name: str, value: object) -> list[object]:
    if isinstance(value, str):
        return [part for part in (p.strip() for p in value.split(",")) if part]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return list(value)
    raise RulesError("setting {name}: expected a comma-separated list, got {value!r}", name=name, value=value)


def _stay_set(name: str, value: object) -> frozenset[StayCondition]:
    if _text(value) in ("none", "off"):
        return frozenset()
    read = _enum(StayCondition)
    return frozenset(read(name, item) for item in _items(name, value))


def _int_tuple(name: str, value: object) -> tuple[int, ...]:
    return tuple(_int(name, item) for item in _items(name, value))


def _decimal_tuple(name: str, value: object) -> tuple[Decimal, ...]:
    return tuple(_decimal(name, item) for item in _items(name, value))


READERS: Mapping[str, Callable[[str, object], Any]] = {
    "variant": _enum(Variant),
    "players": _int,
    "scoring": _scoring,
    "fantasy": _bool,
    "fantasy_cards": _enum(FantasyCards),
    "fantasy_stay": _stay_set,
    "fantasy_max_in_row": _optional_int,
    "button_on_fantasy": _enum(ButtonOnFantasy),
    "point_value": _decimal,
    "loss_limit": _optional_decimal,
    "hand_seconds": _decimal,
    "time_bank_seconds": _decimal,
    "buy_in": _decimal,
    "starting_chips": _int,
    "level_hands": _int,
    "chips_per_point": _int_tuple,
    "payouts": _decimal_tuple,
}


def parse_assignment(text: str) -> tuple[str, str]:
    """Split a ``KEY=VALUE`` override as typed on the command line."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError("expected KEY=VALUE, got {text!r}", text=text)
    return name.strip(), value.strip()
