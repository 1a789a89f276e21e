"""Rate limits: wrong player keys, tables created, hints asked (issue 13).

Each limit is a token bucket on the server's injectable clock: ``burst`` attempts at once,
then one more every ``every`` seconds. A refused attempt raises ``RateLimited`` (code
``rate_limited``) saying when to try again, before anything is looked up or changed.

- ``key_name``: wrong player keys per name (sign-in and joining); when spent, even the right
  key waits, or guessing would go on. ``key_address``: wrong keys per client address.
- ``create``: tables created per client address.
- ``hint``: hints and fantasy solutions per connection.
- ``analysis``: finished hands analysed per client address (an answer already worked out is free).

Buckets that have filled up again are forgotten, so memory stays bounded by the clients
active in the last few minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from starlette.requests import HTTPConnection

from ofc.rules.terms import N_, Phrase
from ofc.server.tables.decks import PlayError
from ofc.server.tables.timekeeping import Clock


@dataclass(frozen=True)
class Rule:
    """``burst`` attempts at once, then one more every ``every`` seconds."""

    burst: int
    every: Decimal


RULES = {
    "key_name": Rule(5, Decimal(60)),
    "key_address": Rule(20, Decimal(30)),
    "create": Rule(20, Decimal(15)),
    "hint": Rule(10, Decimal(3)),
    "analysis": Rule(10, Decimal(20)),
}
"""The server's limits (``create_app(rate_limits=...)`` replaces them; None turns them off)."""

WHAT = {
    "key_name": N_("too many wrong player keys for {key}"),
    "key_address": N_("too many wrong player keys from this address"),
    "create": N_("too many tables created from this address"),
    "hint": N_("too many hints asked on this connection"),
    "analysis": N_("too many hand analyses asked from this address"),
}
"""Each limit's reason, a template the faces translate (``{key}``: the name it counts)."""


class RateLimited(PlayError):
    """An attempt over a limit; nothing was changed. ``retry_after``: whole seconds to wait."""

    def __init__(self, template: str, /, *, retry_after: int, **params: object) -> None:
        super().__init__(template, code="rate_limited", **params)
        self.retry_after = retry_after


class Bucket:
    """One token bucket: the attempts left and when they were counted."""

    def __init__(self, rule: Rule, clock: Clock) -> None:
        self.rule = rule
        self.clock = clock
        self.tokens = Fraction(rule.burst)
        self.at = Fraction(clock.now())

    def _refill(self) -> Fraction:
        now = Fraction(self.clock.now())  # exact: the wait is not off by a rounding
        gained = max(Fraction(0), now - self.at) / Fraction(self.rule.every)
        self.tokens = min(Fraction(self.rule.burst), self.tokens + gained)
        self.at = now
        return self.tokens

    def wait(self) -> int:
        """Whole seconds until one attempt is allowed (0: now)."""
        tokens = self._refill()
        return 0 if tokens >= 1 else max(1, math.ceil((1 - tokens) * Fraction(self.rule.every)))

    def spend(self) -> None:
        """Count one attempt."""
        self._refill()
        self.tokens = max(Fraction(0), self.tokens - 1)

    @property
    def full(self) -> bool:
        """Whether the bucket has refilled completely (and can be forgotten)."""
        return self._refill() >= self.rule.burst


class Limiter:
    """The server's buckets by limit and key (a name, an address)."""

    def __init__(self, clock: Clock, rules: dict[str, Rule] | None = RULES, keep: int = 10_000) -> None:
        self.clock = clock
        self.rules = rules
        self.keep = keep
        self._buckets: dict[tuple[str, str], Bucket] = {}

    def bucket(self, kind: str) -> Bucket | None:
        """A fresh bucket of the ``kind`` limit (one connection's own), or None when limits are off."""
        return None if self.rules is None else Bucket(self.rules[kind], self.clock)

    def _get(self, kind: str, key: str) -> Bucket | None:
        if self.rules is None:
            return None
        found = self._buckets.get((kind, key))
        if found is None:
            if len(self._buckets) >= self.keep:
                self._buckets = {where: b for where, b in self._buckets.items() if not b.full}
            found = self._buckets[(kind, key)] = Bucket(self.rules[kind], self.clock)
        return found

    def check(self, kind: str, key: str) -> None:
        """Raise ``RateLimited`` when the ``kind`` limit of ``key`` allows no attempt now (counts nothing)."""
        check(self._get(kind, key), Phrase(WHAT[kind], key=key))

    def spend(self, kind: str, key: str) -> None:
        """Count one attempt against the ``kind`` limit of ``key``."""
        bucket = self._get(kind, key)
        if bucket is not None:
            bucket.spend()

    def __len__(self) -> int:
        return len(self._buckets)


def client_address(http: HTTPConnection) -> str:
    """The client's address as the server sees it (behind a proxy: the proxy's, so one limit for all)."""
    return http.client.host if http.client is not None else "unknown"


def check(bucket: Bucket | None, what: Phrase) -> None:
    """Raise ``RateLimited`` (``what``, and when to try again) when ``bucket`` allows no attempt now."""
    if bucket is None:
        return
    wait = bucket.wait()
    if wait:
        raise RateLimited("{what}: try again in {wait} s", retry_after=wait, what=what, wait=wait)
