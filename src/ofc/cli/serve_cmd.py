"""``ofc serve``: run the game server and its browser client.

Every option is also an environment variable (``OFC_PORT``, ``OFC_PAUSE``...: see
``ofc.server.settings``); an option given on the command line wins over the environment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ofc.cli.app import app

if TYPE_CHECKING:
    from ofc.server.settings import ServerSettings


@app.command("serve")
def serve_command(
    host: Annotated[str | None, typer.Option(help="Address to listen on [default: 127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on [default: 8000]")] = None,
    db: Annotated[
        str | None, typer.Option(help="Database URL (sqlite:///... or postgresql://...) [default: $OFC_HOME/ofc.db]")
    ] = None,
    pause: Annotated[
        float | None, typer.Option(help="Seconds between a showdown and the next deal [default: 3]")
    ] = None,
    bot_delay: Annotated[float | None, typer.Option(help="Seconds a bot waits before acting [default: 0.5]")] = None,
    loss_limit: Annotated[
        float | None,
        typer.Option(min=0.01, help="Loss limit (points) of a match with people created without one [default: 200]"),
    ] = None,
    rate_limits: Annotated[
        bool | None,
        typer.Option(
            "--rate-limits/--no-rate-limits",
            help="Limit wrong player keys, tables created and hints per client (off: load tests) [default: on]",
        ),
    ] = None,
    waiting_expiry: Annotated[
        float | None,
        typer.Option(min=1, help="Seconds a waiting table may have nobody seated before it expires [default: 600]"),
    ] = None,
    hint_bot: Annotated[
        str | None,
        typer.Option(
            help="The bot spec that works out hints (at most seconds=5 per decision) [default: pro:seconds=0.2]"
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Decision worker processes [default: the cores less one, at most 4]")
    ] = None,
    decisions: Annotated[
        str | None,
        typer.Option(
            help="A Ray cluster for bots, hints and analyses: ray://HOST:PORT, HOST:PORT, auto [default: local workers]"
        ),
    ] = None,
    docs: Annotated[
        bool | None,
        typer.Option("--docs/--no-docs", help="Serve the API's docs page and OpenAPI document [default: off]"),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Reproducible decks and first buttons (tests and demos: never for real stakes)")
    ] = None,
    metrics: Annotated[
        bool | None,
        typer.Option("--metrics/--no-metrics", help="Serve /metrics in Prometheus's format [default: off]"),
    ] = None,
    node: Annotated[
        str | None, typer.Option(help="This server's name among the servers on one database [default: HOSTNAME:PORT]")
    ] = None,
    bus: Annotated[
        str | None,
        typer.Option(help="Redis URL of the bus to the other servers on the same PostgreSQL database [default: none]"),
    ] = None,
    lease_seconds: Annotated[
        float | None,
        typer.Option(
            min=0.5, help="Seconds a table's lease lasts unless renewed (a dead server's tables move) [default: 5]"
        ),
    ] = None,
) -> None:
    """Serve the lobby, the tables and the browser client (open http://HOST:PORT/)."""
    import asyncio

    import uvicorn

    from ofc.bots import make_bot
    from ofc.rules.errors import OfcError
    from ofc.server.app import create_app
    from ofc.server.db.engine import SharedFile, hold_alone
    from ofc.server.db.storage import default_url
    from ofc.server.decisions.workers import check_budget
    from ofc.server.net.bus import BusAddressError, BusUnreachable, RedisAddress, ping
    from ofc.server.net.limits import MAX_FRAME

    given: dict[str, Any] = {
        "host": host,
        "port": port,
        "db_url": db,
        "pause": None if pause is None else str(pause),
        "bot_delay": bot_delay,
        "loss_limit": None if loss_limit is None else str(loss_limit),
        "waiting_expiry": None if waiting_expiry is None else str(waiting_expiry),
        "hint_bot": hint_bot,
        "workers": workers,
        "decisions": decisions,
        "docs": docs,
        "seed": seed,
        "node": node,
        "metrics": metrics,
        "bus_url": bus,
        "lease_seconds": lease_seconds,
    }
    settings = flag_settings(given, rate_limits=rate_limits)
    try:
        check_budget(make_bot(settings.hint_bot), settings.hint_bot)
    except OfcError as error:
        raise typer.BadParameter(str(error), param_hint="--hint-bot") from None
    url = settings.db_url or default_url()
    try:
        alone = hold_alone(url)
    except SharedFile as error:
        raise typer.BadParameter(str(error), param_hint="--db") from None
    if alone is not None and settings.bus_url is not None:
        raise typer.BadParameter("several servers need PostgreSQL: SQLite serves one process", param_hint="--bus")
    if settings.bus_url is not None:
        try:
            asyncio.run(ping(RedisAddress.parse(settings.bus_url)))
        except (BusAddressError, BusUnreachable) as error:
            raise typer.BadParameter(str(error), param_hint="--bus") from None
    where = f"http://{settings.host}:{settings.port}/"
    typer.echo(f"ofc serve: node {settings.node_name()}; database {url}; open {where} in a browser")
    uvicorn.run(
        create_app(settings.model_copy(update={"db_url": url})),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME,  # a larger frame closes the socket before it is read in full
        timeout_graceful_shutdown=2,  # SIGTERM: open connections get 2 s, then the server stops
    )


def server_settings(given: dict[str, Any]) -> ServerSettings:
    """The settings from the environment (``OFC_*``) with the options ``given`` on top; a bad value is a usage error."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from ofc.server.settings import ServerSettings

    try:
        return ServerSettings(**given)
    except SettingsError as error:  # an environment variable that is not the JSON its field needs
        raise typer.BadParameter(str(error), param_hint="OFC_*") from None
    except ValidationError as error:
        problem = error.errors()[0]
        name = str(problem["loc"][0]) if problem["loc"] else "settings"
        where = f"--{name.replace('_', '-')}" if name in given else f"OFC_{name.upper()}"
        raise typer.BadParameter(str(problem["msg"]), param_hint=where) from None


def flag_settings(given: dict[str, Any], *, rate_limits: bool | None) -> ServerSettings:
    """The server's settings: the flags given (None: not given) over the environment's and the defaults.

    ``rate_limits=False`` (``--no-rate-limits``) turns every limit off: its None is a value, not "not given".
    """
    flags = {key: value for key, value in given.items() if value is not None}
    if rate_limits is False:
        flags["rate_limits"] = None
    return server_settings(flags)
