"""``GET /api/health``: whether the server is ready (for a balancer or a start script)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from ofc.server.api.dependencies import Manager, Ready


class HealthAnswer(BaseModel):
    """Ready: the node's name, the tables in memory and those it runs; not ready (503): ``ready``, ``warming``."""

    model_config = ConfigDict(extra="forbid")

    ready: bool
    node: str | None = None
    tables: int | None = None
    owned: list[int] | None = None
    """The tables whose lease this node holds (it runs their clocks, bots and writes)."""
    warming: float | None = None
    """Not ready: whole seconds the decision workers have been warming so far."""


router = APIRouter(prefix="/api/health", tags=["health"])


@router.get(
    "",
    response_model=HealthAnswer,
    response_model_exclude_unset=True,
    responses={503: {"model": HealthAnswer, "description": "Not ready yet: tables restored, kernels warming"}},
)
async def healthy(manager: Manager, health: Ready) -> HealthAnswer | JSONResponse:
    """Whether the server is ready: tables restored and the bots' kernels warm (503 until then)."""
    if not health.ready:
        warming = manager.warming()
        return JSONResponse({"ready": False, "warming": int(warming or 0)}, status_code=503)
    owned = sorted(table for table, runtime in manager.tables.items() if runtime.epoch is not None)
    return HealthAnswer(ready=True, node=manager.node, tables=len(manager.tables), owned=owned)
