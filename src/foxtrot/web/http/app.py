"""HTTP and WebSocket routes (FastAPI): parse, authenticate, hand to a table; no rules here.

``create_app`` builds the application around a ``Lobby``; ``foxtrot serve``
runs it on uvicorn.  A seat token travels only in a request body, in the
``Authorization: Bearer`` header or in the WebSocket ``hello``: never in a URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from ...i18n import catalog
from ..cluster.bus import Bucket, Connection
from ..daily.routes import Daily, daily_router
from ..lobby import (
    COMPUTER_TABLES,
    COMPUTER_TABLES_PER_ADDRESS,
    EXPERT_TABLES_PER_ADDRESS,
    Lobby,
    seat_replay,
    server_record,
    summary,
)
from ..logs import log
from ..players.accounts import Accounts, account_router
from ..players.bot_accounts import Bots, bot_rating_loop, bot_router
from ..players.profiles import players_router
from ..players.rated import rated_create_check, rated_join_check, rated_rematch_check, rating_router
from ..players.ratings import PAIR_HOURS, RatingStore, sweep_loop
from ..protocol import (
    ActionIn,
    Code,
    CreateTable,
    Goodbye,
    Hello,
    Join,
    NextDealIn,
    Ping,
    Pong,
    ProtocolError,
    ReactIn,
    SeedIn,
    UndoIn,
    Welcome,
    error_out,
    parse_client,
)
from ..sockets import read_text
from ..store.event_log import Store
from ..table.actor import TableActor
from ..table.computer import Computers
from ..table.learned import LearnedLevels
from ..table.reactions import REACTION_LIMIT, ReactionLimits, react
from .analysis import analysis_router
from .metrics import Metrics
from .page import page_router, warm_coach
from .review import review_router

#: Seconds a new WebSocket may take to say hello before it is closed (``--hello-seconds``).
HELLO_SECONDS: Final = 10.0
_STATUS = {
    Code.NO_TABLE: 404,
    Code.BAD_TOKEN: 403,
    Code.NO_TOKEN: 401,
    Code.NOT_FINISHED: 409,
    Code.STARTED: 409,
    Code.SEAT_TAKEN: 409,
    Code.NO_SEAT: 409,
    Code.BUSY: 429,
    Code.THROTTLED: 429,
    Code.NOT_SIGNED_IN: 401,
    Code.BAD_CSRF: 403,
    Code.NAME_TAKEN: 409,
    Code.NO_PASSKEY: 404,
    Code.LAST_PASSKEY: 409,
    Code.NO_PLAYER: 404,
    Code.RATED_TABLE: 403,
    Code.PASSKEY_TAKEN: 409,
    Code.ALREADY_PLAYED: 409,
    Code.NO_BOT: 404,
    Code.TOO_MANY_BOTS: 409,
}


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def create_app(
    db_url: str | None = None,
    *,
    idle_seconds: float = 86400.0,
    lobby: Lobby | None = None,
    message_rate: float = 20.0,
    hello_seconds: float = HELLO_SECONDS,
    bus_url: str | None = None,
    lease_seconds: float = 3.0,
    warm: bool = False,
    computer_tables: tuple[int, int] = (COMPUTER_TABLES, COMPUTER_TABLES_PER_ADDRESS),
    origin: str | None = None,
    rating_seconds: float | None = 2.0,
    computer_processes: int | None = None,
    expert_tables: int = EXPERT_TABLES_PER_ADDRESS,
    rating_pair_hours: float = PAIR_HOURS,
    daily: dict[str, Any] | None = None,
    reaction_limit: tuple[int, float] = REACTION_LIMIT,
    learned: LearnedLevels | None = None,
) -> FastAPI:
    """The server application; its lifespan boots and stops the lobby.

    ``message_rate`` is how many messages a second one connection may send
    (bursts of twice that); the excess is refused with ``throttled``.  A socket
    that has not said hello ``hello_seconds`` after it opened is closed (1008).
    ``bus_url`` (Redis) makes this process one of many sharing the database
    (web/cluster/node.py); a table's lease lasts ``lease_seconds`` unrenewed.
    ``warm`` starts the expert's, the coach's and the review's workers at boot (``foxtrot
    serve``), so the first computer move, hint and review do not wait for them to load.
    ``origin`` (``https://foxtrot.example``) is the passkeys' relying party
    (web/players/accounts.py); None: the origin each request came to.  Finished rated matches
    are rated every ``rating_seconds`` (web/players/ratings.py; None: never, for the tests of a
    crash before it); two accounts' matches together count once per ``rating_pair_hours``
    (0: every match counts, for tests that rate one pair many times).  ``computer_processes``:
    the computers' worker processes (None: one for each core; web/table/computer.py);
    ``expert_tables``: open tables with an expert seat per client address.  ``daily``: the
    deal of the day's ``today`` (a clock) and ``benchmark_level`` (web/daily/routes.py).
    ``reaction_limit``: the quick reactions a seat may send in so many seconds.
    ``learned``: the learned levels the lobby offers (web/table/learned.py; ``foxtrot serve
    --learned`` reads the operator's files before the server starts; None: the shipped ones).
    """
    reactions = ReactionLimits(*reaction_limit)
    metrics = Metrics()
    holder: dict[str, Lobby] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        the_lobby = lobby or Lobby(
            await asyncio.to_thread(Store, db_url),
            idle_seconds=idle_seconds,
            computers=Computers(computer_processes, learned=learned),
        )
        the_lobby.computer_tables, the_lobby.computer_tables_per_address = computer_tables
        the_lobby.expert_tables_per_address = expert_tables
        if bus_url is not None:
            from ..cluster.node import Cluster  # noqa: PLC0415 (redis only for many processes)

            the_lobby.cluster = Cluster(the_lobby, bus_url, lease_seconds)
        metrics.attach(the_lobby)
        holder["lobby"] = the_lobby
        await the_lobby.boot()
        if warm:
            the_lobby.computers.warm_up()
            warm_coach()
        lag = asyncio.create_task(metrics.watch_loop())
        rater = bot_rater = None
        if rating_seconds is not None:  # rate the finished rated matches
            store = RatingStore(the_lobby.store.engine, rating_pair_hours)
            rater = asyncio.create_task(sweep_loop(the_lobby, store, rating_seconds))
            bot_rater = asyncio.create_task(bot_rating_loop(the_lobby, rating_seconds))
        try:
            yield
        finally:
            lag.cancel()
            for task in (rater, bot_rater):
                if task is not None:
                    task.cancel()
            app.state.daily.close()
            await the_lobby.shutdown()

    app = FastAPI(title="Foxtrot server", lifespan=lifespan)
    app.state.lobby_holder = holder  # ``foxtrot serve`` says goodbye to the sockets first

    def lobby_() -> Lobby:
        return holder["lobby"]

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, error: ProtocolError) -> JSONResponse:
        return JSONResponse(
            error_out(error).model_dump(mode="json"), status_code=_STATUS.get(error.code, 400)
        )

    @app.exception_handler(RequestValidationError)
    async def _unfit(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(unfit_body(error.errors()), status_code=422)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        ready = "lobby" in holder and lobby_().ready
        return JSONResponse({"status": "ok" if ready else "starting"}, 200 if ready else 503)

    app.include_router(page_router(lobby_))  # the browser game (web/http/page.py)
    app.include_router(
        review_router(lobby_, warm=warm)
    )  # the review of your moves (web/http/review.py)
    app.include_router(analysis_router(lobby_, warm=warm))  # the analysis board (http/analysis.py)
    app.state.accounts = Accounts(lobby_, origin)
    app.include_router(account_router(app.state.accounts))  # passkeys (web/players/accounts.py)
    app.include_router(
        rating_router(lobby_, app.state.accounts)
    )  # a rated table's changes (web/players/rated.py)
    app.include_router(players_router(lobby_))  # profiles, leaderboards (web/players/profiles.py)
    app.state.daily = Daily(lobby_, **(daily or {}))
    app.include_router(daily_router(app.state.daily, app.state.accounts))  # web/daily/
    app.state.bots = Bots(lobby_, app.state.accounts)  # bot accounts (web/players/bot_accounts.py)
    app.include_router(bot_router(app.state.bots, message_rate, hello_seconds))

    @app.get("/api/cluster")
    async def cluster() -> dict[str, Any]:
        """This process in a cluster: its id and the tables it owns (no secrets)."""
        the_cluster = lobby_().cluster
        if the_cluster is None:
            return {"node": None, "owned": []}
        owned = [t for t, a in lobby_().tables.items() if not a.follower]
        return {"node": the_cluster.node, "owned": owned}

    @app.get("/metrics")
    async def metrics_() -> Response:
        body, content_type = metrics.render()
        return Response(body, media_type=content_type)

    @app.post("/api/tables", status_code=201)
    async def create(
        body: CreateTable, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        client = request.client.host if request.client is not None else None
        if body.rated:  # the creator of a rated table is signed in
            await rated_create_check(app.state.accounts, body, request, x_csrf_token)
        actor = await lobby_().create(body, client=client)
        if body.rated:
            await lobby_().db(RatingStore(lobby_().store.engine).mark_rated, actor.id)
        return summary(actor)

    @app.get("/api/tables")
    async def listing() -> dict[str, Any]:
        return {"tables": lobby_().public_tables()}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return summary(await lobby_().get(table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(
        table_id: str, body: Join, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        actor = await lobby_().get(table_id)
        # a rated table's seat is an account's, under its display name, linked in the join
        account = await rated_join_check(app.state.accounts, actor.id, request, x_csrf_token)
        name = body.name if account is None else account.name
        account_id = None if account is None else account.id
        seat, token = await lobby_().join(actor, name, body.seat, account_id)
        return {"table": table_id, "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        token = _bearer(authorization)
        if token is None:
            raise ProtocolError(Code.NO_TOKEN, "send the seat token as Authorization: Bearer")
        seat = await lobby_().leave(await lobby_().get(table_id), token)
        return {"table": table_id, "seat": seat, "left": True}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(
        table_id: str,
        request: Request,
        authorization: str | None = Header(None),
        x_csrf_token: str | None = Header(None),
    ) -> dict[str, Any]:
        token = _bearer(authorization)
        if token is None:
            raise ProtocolError(Code.NO_TOKEN, "send the seat token as Authorization: Bearer")
        actor = await lobby_().get(table_id)
        # a rated table's rematch is rated, each person signed in as before
        account = await rated_rematch_check(app.state.accounts, actor, token, request, x_csrf_token)
        store = RatingStore(lobby_().store.engine)

        async def rated(new: TableActor) -> None:  # before anybody sits in it
            await lobby_().db(store.mark_rated, new.id)

        created = rated if account is not None else None
        account_id = None if account is None else account.id
        new, seat, new_token = await lobby_().rematch(actor, token, created, account_id)
        return {"table": new.id, "seat": seat, "token": new_token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        actor = await lobby_().get(table_id)
        _seat_or_fail(actor, authorization, required=True)
        return server_record(actor)

    @app.get("/api/tables/{table_id}/replay")
    async def replay_(
        table_id: str, lang: str = "en", authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        actor = await lobby_().get(table_id)
        seat = _seat_or_fail(actor, authorization, required=False)
        return seat_replay(actor, seat, lang)

    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        the_lobby = lobby_()
        conn = Connection(websocket.send_text, close=websocket.close)
        if not the_lobby.ready:  # stopping: say goodbye at once
            conn.goodbye(Goodbye(text=catalog("en").text("web_goodbye")).model_dump_json())
        the_lobby.connections.add(conn)
        writer = asyncio.create_task(conn.run_writer())
        metrics.connections.inc()
        joined: list[TableActor] = []  # _session only ends by raising: it notes its table here
        try:
            limits = (message_rate, hello_seconds)
            session = (the_lobby, metrics, reactions)
            await _session(websocket, conn, table_id, session, limits, joined)
        except WebSocketDisconnect:
            pass
        finally:
            metrics.connections.dec()
            the_lobby.connections.discard(conn)
            try:
                for actor in joined:
                    await the_lobby.disconnect(actor, conn)
            finally:  # even when cancelled: the writer task must not outlive its socket
                conn.close()
                await writer

    return app


#: At most this many schema errors are listed in a 422's ``detail``, each name cut to this length.
_DETAILS = 10
_NAME = 60


def unfit_body(errors: Sequence[Any]) -> dict[str, Any]:
    """The 422 answer to a request that does not fit its schema: an ``Error`` plus ``detail``.

    FastAPI's own answer echoes each wrong value (``input``); a ``NaN`` or an infinity
    cannot be written as JSON, and the answer became a server error.  This one names
    where and what only (``loc``, ``msg``, ``type``), as few lines as say it.
    """
    detail = [
        {
            "loc": [part if isinstance(part, int) else str(part)[:_NAME] for part in e["loc"]],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in list(errors)[:_DETAILS]
    ]
    if detail:
        where = ".".join(str(part) for part in detail[0]["loc"][1:]) or str(detail[0]["loc"][0])
        message = f"{where}: {detail[0]['msg']}"
    else:
        message = "the request does not fit its schema"
    error = {"type": "error", "code": Code.BAD_SCHEMA.value, "message": message, "id": None}
    return error | {"detail": detail}


def _seat_or_fail(actor: TableActor, authorization: str | None, *, required: bool) -> int | None:
    token = _bearer(authorization)
    if token is None:
        if required:
            raise ProtocolError(Code.NO_TOKEN, "send a seat token as Authorization: Bearer")
        return None
    seat = actor.seat_of(token)
    if seat is None:
        raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
    return seat


async def _session(  # noqa: PLR0917 (one call site, each argument named by its type)
    websocket: WebSocket,
    conn: Connection,
    table_id: str,
    server: tuple[Lobby, Metrics, ReactionLimits],
    limits: tuple[float, float],
    joined: list[TableActor],
) -> None:
    """Read messages until the socket closes: hello first, then actions, seeds, pings.

    The table a hello joins is appended to ``joined`` at once: this only ends by
    raising (the socket closed), and the caller must still say goodbye to it.
    ``limits``: the messages a second, and the seconds a socket has to say hello
    (a refused hello does not count: without a seat or a view it is closed all the same).
    """
    lobby, metrics, reactions = server
    rate, hello_seconds = limits
    bucket = Bucket(rate, 2 * rate)
    actor: TableActor | None = None
    deadline = asyncio.get_running_loop().call_later(hello_seconds, _no_hello, conn, hello_seconds)
    try:
        while True:
            text = await read_text(websocket)
            if not bucket.allow(time.monotonic()):
                metrics.throttled.inc()
                conn.put(
                    error_out(
                        ProtocolError(Code.THROTTLED, "too many messages: slow down")
                    ).model_dump_json()
                )
                continue
            try:
                msg = parse_client(text)
                if isinstance(msg, Hello):
                    if actor is not None:
                        raise ProtocolError(
                            Code.ALREADY_HELLO, "this connection already said hello"
                        )
                    found = await lobby.get(table_id)
                    seat = _hello_seat(found, msg)
                    deadline.cancel()
                    conn.lang = msg.lang
                    conn.put(
                        Welcome(
                            table=table_id,
                            seat=seat,
                            role="spectator" if seat is None else "player",
                            seq=found.seq,
                        ).model_dump_json()
                    )
                    await lobby.connect(found, conn, seat, msg.last_seq)
                    actor = found
                    joined.append(found)
                    log.info(
                        "connected", extra={"table": table_id, "seat": seat, "action": "hello"}
                    )
                elif isinstance(msg, Ping):
                    conn.put(Pong().model_dump_json())
                elif actor is None:
                    action_id = msg.id if isinstance(msg, ActionIn) else None
                    raise ProtocolError(
                        Code.NO_TOKEN, "say hello with your seat token first", action_id
                    )
                elif isinstance(msg, ActionIn):
                    conn.put(await lobby.act(actor, conn, msg))
                elif isinstance(msg, SeedIn):
                    await lobby.add_seed(actor, conn, msg)
                elif isinstance(msg, NextDealIn):
                    await lobby.next_deal(actor, conn, msg)
                elif isinstance(msg, UndoIn):
                    await lobby.undo(actor, conn)
                elif isinstance(msg, ReactIn):
                    react(actor, conn, msg, reactions)  # web/table/reactions.py
            except ProtocolError as error:
                log.info(
                    "refused",
                    extra={"table": table_id, "seat": conn.seat, "action": error.code.value},
                )
                conn.put(error_out(error).model_dump_json())
            except ValidationError:
                conn.put(
                    error_out(
                        ProtocolError(Code.BAD_SCHEMA, "the message does not fit its schema")
                    ).model_dump_json()
                )
    finally:
        deadline.cancel()


def _no_hello(conn: Connection, seconds: float) -> None:
    """The hello deadline passed: an ``error`` (``need_hello``), then close with 1008.

    A socket nobody identified costs the server a task and a buffer for nothing.
    """
    text = f"no hello within {seconds:g} s of connecting"
    error = ProtocolError(Code.NEED_HELLO, f"{text}: say hello first")
    conn.goodbye(error_out(error).model_dump_json(), code=1008, reason=text)
    log.info("no hello", extra={"table": None, "seat": None, "action": "close"})


def _hello_seat(actor: TableActor, msg: Hello) -> int | None:
    """The seat a hello's token opens (checks token, then seat), or None for a spectator."""
    if msg.token is None:
        if msg.seat is not None:
            raise ProtocolError(Code.NO_TOKEN, f"seat {msg.seat} needs its token")
        return None
    seat = actor.seat_of(msg.token)
    if seat is None:
        raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
    if msg.seat is not None and msg.seat != seat:
        raise ProtocolError(Code.WRONG_SEAT, f"the token is not the token of seat {msg.seat}")
    return seat
