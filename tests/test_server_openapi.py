"""The HTTP API's description and its one refusal shape; the server's settings from ``OFC_*``.

With the docs on, ``/api/openapi.json`` documents an answer schema for every route and the
refusal model for its refusals; with them off it is not served. Every route is walked with a
request it refuses, and each answer carries exactly the five keys of ``RefusalBody``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from pydantic import ValidationError

from ofc.cli.serve_cmd import server_settings
from ofc.server.net.ratelimit import RULES
from ofc.server.settings import ServerSettings
from support.server import make_app

FIVE = {"code", "message", "field", "template", "params"}

ROUTES = {
    ("/api/health", "get"),
    ("/api/tables", "get"),
    ("/api/tables", "post"),
    ("/api/tables/{table_id}/join", "post"),
    ("/api/tables/{table_id}/rematch", "post"),
    ("/api/tables/{table_id}/leave", "post"),
    ("/api/tables/{table_id}/hands", "post"),
    ("/api/tables/{table_id}/hands/{number}/analysis", "post"),
    ("/api/players/{name}", "get"),
    ("/api/players/{name}/signin", "post"),
    ("/api/players/{name}/stats", "get"),
    ("/api/house", "get"),
    ("/api/i18n", "get"),
    ("/api/i18n/{code}", "get"),
    ("/api/keep", "post"),
    ("/api/keep/{code}", "get"),
    ("/api/keep/{code}/hands/{number}", "put"),
    ("/api/keep/{code}/hands/{number}", "delete"),
    ("/api/keep/{code}/qr.svg", "get"),
}
"""Every HTTP route of the API, as the OpenAPI document names it."""


def test_the_openapi_document_gives_every_route_an_answer_schema_and_the_refusal_model(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, docs=True)) as client:
        answer = client.get("/api/openapi.json")
        assert answer.status_code == 200
        document = answer.json()
    operations = {(path, method): op for path, item in document["paths"].items() for method, op in item.items()}
    assert set(operations) == ROUTES
    for (path, method), operation in operations.items():
        success = {status: body for status, body in operation["responses"].items() if status.startswith("2")}
        assert len(success) == 1, (path, method)
        (body,) = success.values()
        schemas = [media["schema"] for media in body["content"].values()]
        assert schemas, (path, method)
        assert all(schema and ("$ref" in schema or "type" in schema) for schema in schemas), (path, method)
        refusals = {status: body for status, body in operation["responses"].items() if status[0] in "45"}
        for status, refused in refusals.items():
            if path == "/api/health":
                continue  # not ready: {"ready": false}, not a refusal
            ref = refused["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/RefusalAnswer", (path, method, status)
    refusal = document["components"]["schemas"]["RefusalBody"]
    assert set(refusal["properties"]) == FIVE
    assert set(refusal["required"]) == FIVE
    assert "HTTPValidationError" not in document["components"]["schemas"]  # 422 is a refusal too
    created = operations[("/api/tables", "post")]["responses"]
    assert created["201"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CreatedTable"}
    qr = operations[("/api/keep/{code}/qr.svg", "get")]["responses"]["200"]["content"]
    assert qr == {"image/svg+xml": {"schema": {"type": "string"}}}


def test_without_the_docs_there_is_no_openapi_document(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        for path in ("/api/openapi.json", "/api/docs"):
            answer = client.get(path)
            assert answer.status_code == 404
            assert answer.json()["error"] == {
                "code": "not_found",
                "message": "Not Found",
                "field": None,
                "template": "Not Found",
                "params": {},
            }


def _refused(client: TestClient) -> list[tuple[str, str, Any, int, str, str | None]]:
    """One refused request per route: (route, method, answer, status, code, field) with what it must be."""
    table = client.post("/api/tables", json={"seats": 2, "bots": [None, "random"]}).json()["id"]
    token = {"token": "nobody"}
    hand = {"key": "nobody", "hand": {}}
    cases: list[tuple[str, str, str, dict[str, Any] | None, int, str, str | None]] = [
        ("/api/health", "get", "/api/health", None, 405, "bad_method", None),
        ("/api/tables", "get", "/api/tables", None, 405, "bad_method", None),
        ("/api/tables", "post", "/api/tables", {"seats": 9}, 422, "bad_request", "seats"),
        ("/api/tables/{table_id}/join", "post", "/api/tables/999/join", {"name": "ann"}, 404, "no_table", None),
        ("/api/tables/{table_id}/rematch", "post", f"/api/tables/{table}/rematch", None, 409, "not_finished", None),
        ("/api/tables/{table_id}/leave", "post", f"/api/tables/{table}/leave", token, 403, "bad_token", None),
        ("/api/tables/{table_id}/hands", "post", f"/api/tables/{table}/hands", token, 403, "bad_token", None),
        ("/api/tables/{table_id}/hands/{number}/analysis", "post", "/api/tables/x/hands/0/analysis", token, 422,
         "bad_request", "table_id"),
        ("/api/players/{name}", "get", "/api/players/zed", None, 404, "no_player", None),
        ("/api/players/{name}/signin", "post", "/api/players/zed/signin", {"key": "k"}, 404, "no_player", None),
        ("/api/players/{name}/stats", "get", "/api/players/zed/stats", None, 404, "no_player", None),
        ("/api/house", "get", "/api/house", None, 405, "bad_method", None),
        ("/api/i18n", "get", "/api/i18n", None, 405, "bad_method", None),
        ("/api/i18n/{code}", "get", "/api/i18n/zz", None, 404, "no_language", None),
        ("/api/keep", "post", "/api/keep", {"preset": "no-such-game"}, 422, "bad_book", "rules"),
        ("/api/keep/{code}", "get", "/api/keep/nobook", None, 404, "no_book", None),
        ("/api/keep/{code}/hands/{number}", "put", "/api/keep/nobook/hands/1", hand, 404, "no_book", None),
        ("/api/keep/{code}/hands/{number}", "delete", "/api/keep/nobook/hands/1", None, 422, "bad_request", "key"),
        ("/api/keep/{code}/qr.svg", "get", "/api/keep/nobook/qr.svg", None, 404, "no_book", None),
    ]  # fmt: skip
    answers = []
    for route, method, address, body, status, code, field in cases:
        # a route nothing refuses (405): a method it does not have
        answer = client.patch(address) if status == 405 else client.request(method.upper(), address, json=body)
        answers.append((route, method, answer, status, code, field))
    return answers


def test_every_route_refuses_in_the_one_shape(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        walked = _refused(client)
    assert {(route, method) for route, method, *_ in walked} == ROUTES
    for route, method, answer, status, code, field in walked:
        assert answer.status_code == status, (route, method, answer.text)
        error = answer.json()["error"]
        assert set(answer.json()) == {"error"}
        assert set(error) == FIVE, (route, method)
        assert (error["code"], error["field"]) == (code, field), (route, method)
        assert isinstance(error["message"], str)
        assert error["message"]
        assert isinstance(error["params"], dict)


def test_a_refusal_of_an_error_carries_its_template_and_params(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        answer = client.post("/api/tables/999/join", json={"name": "ann"})
        assert answer.json()["error"] == {
            "code": "no_table",
            "message": "there is no table 999",
            "field": None,
            "template": "there is no table {table}",
            "params": {"table": 999},
        }
        invalid = client.post("/api/tables", json={"seats": 9})
        assert invalid.json()["error"] == {
            "code": "bad_request",
            "message": "seats: Input should be less than or equal to 4",
            "field": "seats",
            "template": "seats: Input should be less than or equal to 4",
            "params": {},
        }


def test_settings_come_from_ofc_variables_and_explicit_values_win(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = ServerSettings()
    assert (defaults.port, defaults.pause, defaults.docs, defaults.rate_limits) == (8000, Decimal(3), False, RULES)
    monkeypatch.setenv("OFC_PORT", "9001")
    monkeypatch.setenv("OFC_PAUSE", "1.5")
    monkeypatch.setenv("OFC_DOCS", "true")
    monkeypatch.setenv("OFC_RATE_LIMITS", "null")
    monkeypatch.setenv("OFC_DB_URL", "sqlite:///elsewhere.db")
    read = ServerSettings()
    assert (read.port, read.pause, read.docs, read.rate_limits) == (9001, Decimal("1.5"), True, None)
    assert read.db_url == "sqlite:///elsewhere.db"
    given = ServerSettings(port=9002, pause=Decimal(0), docs=False)
    assert (given.port, given.pause, given.docs, given.rate_limits) == (9002, Decimal(0), False, None)
    from_flags = server_settings({"port": 9003, "db_url": "sqlite:///flag.db"})  # ofc serve's options
    assert (from_flags.port, from_flags.db_url, from_flags.pause) == (9003, "sqlite:///flag.db", Decimal("1.5"))


def test_bad_settings_are_refused_naming_the_variable_or_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="port"):
        ServerSettings(port=0)
    monkeypatch.setenv("OFC_PORT", "eighty")
    with pytest.raises(typer.BadParameter) as refused:
        server_settings({})
    assert refused.value.param_hint == "OFC_PORT"
    with pytest.raises(typer.BadParameter) as refused:
        server_settings({"port": 70000})
    assert refused.value.param_hint == "--port"


def test_metrics_are_served_only_when_asked_for(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        assert client.get("/metrics").status_code == 404
    with TestClient(make_app(tmp_path / "second", metrics=True)) as client:
        client.post("/api/tables", json={"preset": "pineapple", "seats": 2})
        text = client.get("/metrics").text
    assert "ofc_tables_owned 1.0" in text
    assert "ofc_actions_total 0.0" in text
    assert "ofc_takeovers_total 0.0" in text
