"""``ofc serve``: run the game server and its browser client."""

from __future__ import annotations

from typing import Annotated

import typer

from ofc.cli.app import app


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(help="Database URL (sqlite:///... or postgresql://...)")] = None,
    pause: Annotated[float, typer.Option(help="Seconds between a showdown and the next deal")] = 3.0,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before acting")] = 0.5,
    loss_limit: Annotated[
        float, typer.Option(min=0.01, help="Loss limit (points) of a match with people created without one")
    ] = 200.0,
    rate_limits: Annotated[
        bool, typer.Option(help="Limit wrong player keys, tables created and hints per client (off: load tests)")
    ] = True,
    waiting_expiry: Annotated[
        float, typer.Option(min=1, help="Seconds a waiting table may have nobody seated before it expires")
    ] = 600.0,
    hint_bot: Annotated[
        str, typer.Option(help="The bot spec that works out hints (at most seconds=5 per decision)")
    ] = "pro:seconds=0.2",
    seed: Annotated[
        int | None, typer.Option(help="Reproducible decks and first buttons (tests and demos: never for real stakes)")
    ] = None,
) -> None:
    """Serve the lobby, the tables and the browser client (open http://HOST:PORT/)."""
    import random
    from decimal import Decimal

    import uvicorn

    from ofc.bots import make_bot
    from ofc.rules.errors import OfcError
    from ofc.server.app import create_app
    from ofc.server.db.storage import default_url
    from ofc.server.decisions.workers import check_budget
    from ofc.server.net.limits import MAX_FRAME
    from ofc.server.net.ratelimit import RULES
    from ofc.server.tables.game import secure_deck, seeded_decks

    try:
        check_budget(make_bot(hint_bot), hint_bot)
    except OfcError as error:
        raise typer.BadParameter(str(error), param_hint="--hint-bot") from None
    url = db or default_url()
    typer.echo(f"ofc serve: database {url}; open http://{host}:{port}/ in a browser")
    decks = secure_deck if seed is None else seeded_decks(seed)
    buttons = None if seed is None else random.Random(seed)
    limit = Decimal(str(loss_limit))
    limits = RULES if rate_limits else None
    application = create_app(
        url,
        pause=pause,
        bot_delay=bot_delay,
        decks=decks,
        buttons=buttons,
        loss_limit=limit,
        rate_limits=limits,
        waiting_expiry=waiting_expiry,
        hint_bot=hint_bot,
    )
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME,  # a larger frame closes the socket before it is read in full
        timeout_graceful_shutdown=2,  # SIGTERM: open connections get 2 s, then the server stops
    )
