"""``GET /metrics``: this node's figures in Prometheus's text format (only with ``--metrics``).

Tables owned, actions stored, bots' decisions, the decision queue, lease renewals and takeovers,
and the bus's traffic and lag. Off by default: the figures are for the operator's scraper, not
the public (docs/hosting.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ofc.server.tables.manager import TableManager


class NodeFigures(Collector):
    """Reads the figures from the table manager at each scrape."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    def collect(self) -> Iterator[Metric]:
        manager = self.manager
        owned = sum(1 for runtime in manager.tables.values() if runtime.epoch is not None)
        yield GaugeMetricFamily("ofc_tables_owned", "Tables whose lease this node holds", value=owned)
        yield CounterMetricFamily("ofc_actions", "Actions stored by this node", value=manager.actions_stored)
        yield CounterMetricFamily("ofc_bot_decisions", "Bots' decisions made here", value=manager.bot_decisions)
        yield GaugeMetricFamily("ofc_decision_queue", "Decisions waiting for a worker", value=manager.pool.queued())
        yield CounterMetricFamily("ofc_lease_renewals", "Rounds of lease renewals", value=manager.renewals)
        yield CounterMetricFamily("ofc_takeovers", "Tables taken over from other nodes", value=manager.takeovers)
        if manager.cluster is not None:
            bus = manager.cluster.bus
            yield CounterMetricFamily("ofc_bus_sent", "Messages sent on the bus", value=bus.sent)
            yield CounterMetricFamily("ofc_bus_received", "Messages received from the bus", value=bus.received)
            yield GaugeMetricFamily("ofc_bus_lag_seconds", "Last bus message's lag", value=bus.lag)


router = APIRouter(tags=["metrics"])


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
async def metrics(request: Request) -> Response:
    """This node's figures in Prometheus's text format."""
    registry: CollectorRegistry = request.app.state.metrics
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
