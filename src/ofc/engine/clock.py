"""Per-seat clocks: the hand clock, then the match time bank, with time passed in.

A seat's clock runs only while the seat may act. Time spent comes off the hand clock first and
off the time bank once the hand clock is empty; when both are empty the seat has run out.
Times are ``Decimal`` seconds on any scale the caller likes (a match's start, the epoch...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ofc.rules.errors import ClockError, OutOfTime

ZERO = Decimal(0)
LATEST = Decimal(10) ** 18
"""Times lie within 10^18 seconds of 0 (nanoseconds since the epoch fit), so a deadline, a
time plus at most 2 x 10^12 seconds of settings, never overflows the decimal context."""


@dataclass(frozen=True, slots=True)
class ClockReading:
    """What a seat's clock shows: seconds left on the hand clock and in the bank."""

    hand: Decimal
    bank: Decimal
    running: bool
    deadline: Decimal | None
    """When both run out, if the clock is running."""

    def later(self, seconds: Decimal) -> ClockReading:
        """The reading ``seconds`` after this one: a running clock spends its hand clock, then the bank."""
        if not self.running or seconds <= 0:
            return self
        hand = self.hand - seconds
        if hand >= 0:
            return ClockReading(hand, self.bank, True, self.deadline)
        return ClockReading(ZERO, max(ZERO, self.bank + hand), True, self.deadline)

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form; times as decimal text."""
        return {
            "hand": time_text(self.hand),
            "bank": time_text(self.bank),
            "running": self.running,
            "deadline": None if self.deadline is None else time_text(self.deadline),
        }


class SeatClock:
    """One seat's hand clock and time bank (mutable; owned by the hand)."""

    __slots__ = ("bank", "hand", "since")

    def __init__(self, hand: Decimal, bank: Decimal) -> None:
        self.hand = hand
        self.bank = bank
        self.since: Decimal | None = None

    def copy(self) -> SeatClock:
        """An independent copy (for ``Hand.clone``)."""
        twin = SeatClock.__new__(SeatClock)
        twin.hand, twin.bank, twin.since = self.hand, self.bank, self.since
        return twin

    def start(self, now: Decimal) -> None:
        """Start running at ``now``."""
        self.since = now

    def stop(self, now: Decimal) -> None:
        """Stop at ``now``, charging the time spent to the hand clock, then the bank."""
        if self.since is None:
            return
        spent = now - self.since
        self.since = None
        if spent <= self.hand:
            self.hand -= spent
        else:
            self.bank = max(ZERO, self.bank - (spent - self.hand))
            self.hand = ZERO

    @property
    def deadline(self) -> Decimal | None:
        """When hand clock and bank are both empty, if running."""
        if self.since is None:
            return None
        return self.since + self.hand + self.bank

    def read(self, now: Decimal) -> ClockReading:
        """The reading at ``now``."""
        if self.since is None:
            return ClockReading(self.hand, self.bank, False, None)
        return ClockReading(self.hand, self.bank, True, self.deadline).later(now - self.since)


def first_deadline(clocks: Sequence[SeatClock], seats: Sequence[int]) -> tuple[Decimal, int] | None:
    """The earliest deadline among ``seats``' running clocks, with its seat (the first on a tie)."""
    best: tuple[Decimal, int] | None = None
    for seat in seats:
        deadline = clocks[seat].deadline
        if deadline is not None and (best is None or deadline < best[0]):
            best = (deadline, seat)
    return best


def check_not_before(time: Decimal, now: Decimal) -> None:
    """Raise ``ClockError`` if ``time`` lies before the hand's time ``now``."""
    if time < now:
        raise ClockError("time {time} is before the hand's time {now}", time=time_text(time), now=time_text(now))


def check_in_time(time: Decimal, now: Decimal, clocks: Sequence[SeatClock], seats: Sequence[int]) -> None:
    """Raise unless a hand at ``now`` may act at ``time``: not before ``now``, nor after a running deadline."""
    check_not_before(time, now)
    due = first_deadline(clocks, seats)
    if due is not None and due[0] < time:
        when, late = time_text(due[0]), time_text(time)
        raise OutOfTime(
            "seat {seat} ran out of time at {when}; call advance({late}) before acting at {late}",
            seat=due[1],
            when=when,
            late=late,
        )


def to_time(value: Decimal | float | int | str) -> Decimal:
    """A time passed in by the caller, as a ``Decimal`` (floats by their shortest text)."""
    if isinstance(value, bool):
        raise ClockError("a time must be a number, not {value!r}", value=value)
    try:
        number = value if isinstance(value, Decimal) else Decimal(repr(value) if isinstance(value, float) else value)
    except (InvalidOperation, TypeError, ValueError):
        raise ClockError("a time must be a number, not {value!r}", value=value) from None
    if not number.is_finite():
        raise ClockError("a time must be a finite number, not {value!r}", value=value)
    if not -LATEST <= number <= LATEST:
        raise ClockError("a time must lie within 10^18 seconds of 0, not {value!r}", value=value)
    return number


def time_text(value: Decimal) -> str:
    """Exact decimal text of a time without exponent: ``120``, ``12.5``."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text
