"""Rate limits: wrong player keys, tables created, hints, analyses and score books asked.

Each limit is a token bucket: ``burst`` attempts at once, then one more every ``every``
seconds. A refused attempt raises ``RateLimited`` (code ``rate_limited``) saying when to try
again, before anything is looked up or changed. The limits per person and per address are
counted in the database (``Limiter.take``, ``ofc.server.db.limits``), so every server process
on it shares them; the wrong keys and each connection's own hints are counted in memory.

- ``key_name``: wrong player keys per name (sign-in and joining); when spent, even the right
  key waits, or guessing would go on. ``key_address``: wrong keys per client address.
- ``create``, ``create_person``: tables created per client address and per player seated.
- ``hint``: hints and fantasy solutions per connection; ``hint_seat`` per seat token (over
  all its connections and servers), ``hint_address`` per client address.
- ``analysis``, ``analysis_person``: finished hands analysed per client address and per
  player (an answer already worked out is free); ``analysis_playouts``: their play-outs per player.
- ``keep``: score books started per client address; ``keep_book``: books started after one book.

Buckets that have filled up again are forgotten, so memory stays bounded by the clients
active in the last few minutes.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from ofc.rules.terms import N_, Phrase
from ofc.server.db.limits import SharedCounts, Want
from ofc.server.db.work import Database
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
    "hint_seat": Rule(10, Decimal(3)),
    "hint_address": Rule(40, Decimal(1)),
    "create_person": Rule(10, Decimal(30)),
    "analysis_person": Rule(5, Decimal(30)),
    "analysis_playouts": Rule(120_000, Decimal("0.001")),
    "keep": Rule(10, Decimal(60)),
    "keep_book": Rule(3, Decimal(60)),
}
"""The server's limits (``create_app(rate_limits=...)`` replaces them; None turns them off)."""

WHAT = {
    "key_name": N_("too many wrong player keys for {key}"),
    "key_address": N_("too many wrong player keys from this address"),
    "create": N_("too many tables created from this address"),
    "hint": N_("too many hints asked on this connection"),
    "analysis": N_("too many hand analyses asked from this address"),
    "hint_seat": N_("too many hints asked for this seat"),
    "hint_address": N_("too many hints asked from this address"),
    "create_person": N_("too many tables created by {key}"),
    "analysis_person": N_("too many hand analyses asked by {key}"),
    "analysis_playouts": N_("the hand analyses asked by {key} need too many play-outs"),
    "keep": N_("too many score books started from this address"),
    "keep_book": N_("too many score books started after this book"),
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


Ask = tuple[str, str, int]
"""One attempt to count: the limit, its key (a name, a token's hash, an address) and its cost."""

FORGET_EVERY = 1000
"""About one shared count in so many also forgets the buckets that have filled up again."""


class Limiter:
    """The server's buckets by limit and key (a name, an address); with ``engine``, those every process counts."""

    def __init__(
        self,
        clock: Clock,
        rules: dict[str, Rule] | None = RULES,
        keep: int = 10_000,
        engine: Engine | None = None,
    ) -> None:
        self.clock = clock
        self.rules = rules
        self.keep = keep
        self.shared = None if engine is None else SharedCounts(engine, clock)
        """The counts every process on the database shares (None: this process's memory)."""
        self._buckets: dict[tuple[str, str], Bucket] = {}

    async def take(self, db: Database, asks: Sequence[Ask], *, check: bool = True, spend: bool = True) -> None:
        """Count every attempt of ``asks``, or none and raise ``RateLimited`` for the first limit spent.

        Counted in the database when shared (one transaction on ``db``'s threads; it raises
        ``StorageUnavailable`` when the database does not answer), else in memory. Limits the
        rules do not name are not counted. ``spend=False`` only checks; ``check=False`` counts
        what was done (an attempt checked before and only counted once it succeeded).
        """
        if self.rules is None:
            return
        rules = self.rules
        asks = [ask for ask in asks if ask[0] in rules]
        if self.shared is None:
            for kind, key, _cost in asks if check else ():
                self.check(kind, key)
            for kind, key, _cost in asks if spend else ():
                self.spend(kind, key)
            return
        wants = [
            Want(kind, key, rules[kind].burst, float(rules[kind].every), min(cost, rules[kind].burst))
            for kind, key, cost in asks
        ]
        refused = await db.read(functools.partial(self.shared.take, wants, check=check, spend=spend))
        if random.random() * FORGET_EVERY < 1:
            for kind, rule in rules.items():
                await db.read(self.shared.forget_full, kind, float(rule.every) * rule.burst)
        if refused is not None:
            kind, key, _cost = asks[refused.index]
            raise RateLimited(
                "{what}: try again in {wait} s", retry_after=refused.wait, what=phrase(kind, key), wait=refused.wait
            )

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
        check(self._get(kind, key), phrase(kind, key))

    def spend(self, kind: str, key: str) -> None:
        """Count one attempt against the ``kind`` limit of ``key``."""
        bucket = self._get(kind, key)
        if bucket is not None:
            bucket.spend()

    def __len__(self) -> int:
        return len(self._buckets)


def phrase(kind: str, key: str) -> Phrase:
    """The reason of limit ``kind``; the key is named only where its template shows it (never a token)."""
    template = WHAT[kind]
    return Phrase(template, key=key) if "{key}" in template else Phrase(template)


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
