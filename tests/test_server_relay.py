"""The cluster's relay bookkeeping, with a recording bus and a lease table in memory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection
from typing import Any

from ofc.server.db.leases import Lease
from ofc.server.net.bus import RESUBSCRIBED
from ofc.server.net.outbox import Outbox
from ofc.server.tables.cluster import Cluster, Relay


class RecordingBus:
    """A bus that keeps what is sent."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send(self, node: str, message: dict[str, Any]) -> None:
        self.sent.append((node, message))


class Leases:
    def __init__(self) -> None:
        self.held: dict[int, Lease] = {}

    def leases_of(self, tables: Collection[int]) -> dict[int, Lease]:
        return {table: self.held[table] for table in tables if table in self.held}


class Host:
    def __init__(self) -> None:
        self.tables: dict[int, Any] = {}
        self.leases = Leases()


def cluster() -> tuple[Cluster, RecordingBus, Host]:
    bus, host = RecordingBus("a"), Host()
    return Cluster(host, bus), bus, host  # type: ignore[arg-type]


def test_a_message_for_a_relay_the_owner_does_not_know_ends_that_relay() -> None:
    """An owner that restarted knows none of its old relays: it tells the relaying node to end the socket."""
    node, bus, _host = cluster()
    asyncio.run(node._receive({"k": "in", "n": "b", "c": "c1", "p": '{"type":"sync"}'}))
    assert bus.sent == [("b", {"k": "end", "c": "c1"})]


def test_a_relay_ends_when_its_owner_came_back_under_a_new_epoch() -> None:
    """Same owner name, new epoch: the relay began under the old process and ends; a current one stays."""
    node, _bus, host = cluster()
    old, current = Outbox(), Outbox()
    node.relays = {"c1": Relay(7, "b", 1, old), "c2": Relay(7, "b", 2, current)}
    host.leases.held[7] = Lease(7, "b", 2, True)
    asyncio.run(node.check_relays())
    assert list(node.relays) == ["c2"]
    assert len(old) == 1
    assert asyncio.run(old.get()) is None  # the socket is told to close (the client reconnects)
    assert len(current) == 0


def test_every_relay_of_a_table_whose_lease_ran_out_ends() -> None:
    node, _bus, host = cluster()
    node.relays = {"c1": Relay(7, "b", 2, Outbox()), "c2": Relay(8, "b", 1, Outbox())}
    host.leases.held[7] = Lease(7, "b", 2, False)
    host.leases.held[8] = Lease(8, "b", 1, True)
    asyncio.run(node.check_relays())
    assert list(node.relays) == ["c2"]


def test_subscribed_again_every_relay_ends_and_its_owner_is_told() -> None:
    """The bus lost its subscription for a while: what the owners sent meanwhile is gone, so each
    relayed client reconnects for a fresh state, and each owner drops its side of the relay."""
    node, bus, _host = cluster()
    first, second = Outbox(), Outbox()
    node.relays = {"c1": Relay(7, "b", 2, first), "c2": Relay(8, "c", 1, second)}
    asyncio.run(node._receive(json.loads(RESUBSCRIBED)))
    assert node.relays == {}
    assert asyncio.run(first.get()) is None
    assert asyncio.run(second.get()) is None
    assert sorted(bus.sent, key=str) == [
        ("b", {"k": "close", "c": "c1", "n": "a"}),
        ("c", {"k": "close", "c": "c2", "n": "a"}),
    ]
