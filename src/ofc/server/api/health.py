"""``GET /api/health``: whether the server is ready (for a balancer or a start script)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from ofc.server.api.dependencies import Manager, Ready


class HealthAnswer(BaseModel):
    """Ready, with the tables in memory; not ready (503) only ``{"ready": false}``."""

    model_config = ConfigDict(extra="forbid")

    ready: bool
    tables: int | None = None


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
        return JSONResponse({"ready": False}, status_code=503)
    return HealthAnswer(ready=True, tables=len(manager.tables))
