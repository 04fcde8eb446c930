"""Bot accounts: a person's own programs at the tables, through the WebSocket protocol.

A signed-in person creates a bot (``POST /api/account/bots``) and gets its token once; only
its SHA-256 is kept (web/store/bot_rows.py).  The program opens ``/ws/bot``, says hello
with the token, then creates or joins a casual table and plays it with the table protocol's
own messages (docs/protocol.md): the server holds every rule, as for a person.

What a bot may not do: sit at a rated table (those are the people's) unless a person seated
there invites it (``POST /api/tables/{id}/invite-bot``), hold two connections
at once (the second is refused with ``bot_connected``), or send more messages than a person
(the same bucket, ``throttled``).  A bot's seat is named ``BOT <name>`` so that everyone at
the table knows.  Finished matches move the bots' own rating pool (``bot_ratings``):
computers play at their fixed ratings and people at a new player's, and only the bots'
rows are written, so bots never move a person's rating.

The token never appears in a log line or an answer after its creation: the log names the
bot by its id.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from fastapi import APIRouter, Header, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...i18n import catalog
from ...skill import places, rate
from ..cluster.bus import Bucket, Connection
from ..logs import cause, log
from ..protocol import (
    MAX_MESSAGE,
    ActionIn,
    ClientIn,
    Code,
    CreateTable,
    Goodbye,
    Hello,
    NextDealIn,
    Ping,
    Pong,
    ProtocolError,
    SeedIn,
    UndoIn,
    Welcome,
    error_out,
    parse_client,
    too_deep,
)
from ..sockets import read_text
from ..store.bot_rows import (
    BOTS_PER_ACCOUNT,
    BotAccount,
    BotNameTakenError,
    BotStore,
    TooManyBotsError,
)
from .accounts import Accounts, DisplayName
from .ratings import COMPUTER_RATINGS, computer_rating

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..table.actor import TableActor

#: What a bot's seat is called: the bot's name after this, as lichess marks its bots.
SEAT_PREFIX: Final = "BOT "


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class NewBot(_Body):
    """``POST /api/account/bots``: the bot's name (a display name's rules)."""

    name: DisplayName


class CreateIn(_Body):
    """A bot creates a casual table and sits at its first free person's seat (or ``seat``)."""

    type: Literal["create"]
    table: CreateTable = CreateTable()
    seat: Annotated[int | None, Field(ge=0, le=8)] = None


class InviteIn(_Body):
    """``POST /api/tables/{id}/invite-bot``: the bot's name."""

    name: Annotated[str, Field(min_length=1, max_length=24)]


class JoinIn(_Body):
    """A bot sits at a table (or comes back to the seat it holds there)."""

    type: Literal["join"]
    table: Annotated[str, Field(min_length=1, max_length=64)]
    seat: Annotated[int | None, Field(ge=0, le=8)] = None
    last_seq: Annotated[int | None, Field(ge=0)] = None


BotIn = CreateIn | JoinIn | ClientIn
_BOT_TYPES: Final[dict[str, type[CreateIn] | type[JoinIn]]] = {"create": CreateIn, "join": JoinIn}


def parse_bot(text: str | bytes) -> BotIn:
    """A bot's message: ``create`` and ``join`` here, the rest as the table protocol's.

    The table protocol's checks come first for every message (size, binary, nesting),
    so a bot's ``create`` is refused for the same reasons a person's message would be.

    >>> parse_bot('{"type": "join", "table": "abc"}').table
    'abc'
    >>> type(parse_bot('{"type": "ping"}')).__name__
    'Ping'
    """
    if isinstance(text, str) and len(text.encode()) <= MAX_MESSAGE and not too_deep(text):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("type") in _BOT_TYPES:
            return _BOT_TYPES[data["type"]].model_validate(data)
    return parse_client(text)


class Bots:
    """The bot accounts of one server process: the rows, and who is connected here."""

    def __init__(self, lobby: Callable[[], Lobby], accounts: Accounts) -> None:
        self.lobby = lobby
        self.accounts = accounts
        #: The bots connected to this process: bot id -> its connection.
        self.online: dict[str, Connection] = {}

    @property
    def store(self) -> BotStore:
        """The rows, in the lobby's database."""
        return BotStore(self.lobby().store.engine)

    async def db(self, fn: Any, *args: Any) -> Any:
        """A store call on the lobby's database thread."""
        return await self.lobby().db(fn, *args)

    async def rating_json(self, bot: BotAccount) -> dict[str, Any]:
        """The bot for its owner, with its rating in the bots' pool."""
        found = await self.db(self.store.rating, bot.id)
        rating = None
        if found is not None:
            mu, sigma, matches = found
            rating = {"mu": mu, "sigma": sigma, "matches": matches, "rating": mu - 3 * sigma}
        return bot.to_json() | {"connected": bot.id in self.online, "rating": rating}


def bot_router(bots: Bots, message_rate: float = 20.0, hello_seconds: float = 10.0) -> APIRouter:
    """The owner's API (``/api/account/bots``) and the bots' socket (``/ws/bot``)."""
    router = APIRouter()

    @router.post("/api/account/bots", status_code=201)
    async def create_bot(
        body: NewBot, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        session, _sid = await bots.accounts.acting(request, x_csrf_token)
        try:
            made: tuple[BotAccount, str] = await bots.db(
                bots.store.create, session.account.id, body.name
            )
        except BotNameTakenError:
            raise ProtocolError(
                Code.NAME_TAKEN, f"name: {body.name!r} is an account's or a bot's name already"
            ) from None
        except TooManyBotsError:
            raise ProtocolError(
                Code.TOO_MANY_BOTS,
                f"an account has at most {BOTS_PER_ACCOUNT} bots: revoke one first",
            ) from None
        bot, token = made
        log.info("bot created", extra={"table": None, "seat": None, "action": f"bot {bot.id}"})
        return bot.to_json() | {"token": token}

    @router.get("/api/account/bots")
    async def list_bots(request: Request) -> dict[str, Any]:
        session = await bots.accounts.session(request)
        if session is None:
            raise ProtocolError(Code.NOT_SIGNED_IN, "sign in first: no live session cookie")
        owned: list[BotAccount] = await bots.db(bots.store.owned, session.account.id)
        return {"bots": [await bots.rating_json(bot) for bot in owned]}

    @router.delete("/api/account/bots/{bot_id}")
    async def revoke_bot(
        bot_id: str, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        session, _sid = await bots.accounts.acting(request, x_csrf_token)
        bot: BotAccount | None = await bots.db(bots.store.revoke, session.account.id, bot_id[:64])
        if bot is None:
            raise ProtocolError(Code.NO_BOT, "no bot of this account has that id")
        conn = bots.online.get(bot.id)
        if conn is not None:  # its program is playing here: it stops now
            error = ProtocolError(Code.REVOKED, "this bot's token was revoked by its owner")
            conn.goodbye(error_out(error).model_dump_json(), code=1008, reason="token revoked")
        log.info("bot revoked", extra={"table": None, "seat": None, "action": f"bot {bot.id}"})
        return bot.to_json() | {"revoked": True}

    @router.post("/api/tables/{table_id}/invite-bot")
    async def invite_bot(
        table_id: str, body: InviteIn, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        session, _sid = await bots.accounts.acting(request, x_csrf_token)
        lobby = bots.lobby()
        actor = await lobby.get(table_id)
        seat = await lobby.db(lobby.store.account_seat, actor.id, session.account.id)
        if seat is None:
            raise ProtocolError(Code.NO_SEAT, "only a person seated at this table invites a bot")
        bot: BotAccount | None = await bots.db(bots.store.live_named, body.name)
        if bot is None:
            raise ProtocolError(Code.NO_BOT, f"name: no bot is named {body.name!r}")
        await bots.db(bots.store.invite, actor.id, bot.id, session.account.id)
        log.info("bot invited", extra={"table": actor.id, "seat": seat, "action": f"bot {bot.id}"})
        return {"table": actor.id, "bot": bot.name, "invited": True}

    @router.websocket("/ws/bot")
    async def bot_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(websocket.send_text, close=websocket.close)
        lobby = bots.lobby()
        if not lobby.ready:  # stopping: say goodbye at once
            conn.goodbye(Goodbye(text=catalog("en").text("web_goodbye")).model_dump_json())
        lobby.connections.add(conn)  # the server's goodbye reaches bots as it does people
        writer = asyncio.create_task(conn.run_writer())
        session = BotSession(bots, conn, websocket, (message_rate, hello_seconds))
        try:
            while True:
                await session.handle(await read_text(websocket))
        except WebSocketDisconnect:
            pass
        finally:
            lobby.connections.discard(conn)
            try:
                await session.end()
            finally:
                conn.close()
                await writer

    return router


class BotSession:
    """One bot's connection: hello with the bot token, then tables and moves."""

    def __init__(
        self, bots: Bots, conn: Connection, websocket: WebSocket, limits: tuple[float, float]
    ) -> None:
        rate_, hello_seconds = limits
        self.bots = bots
        self.conn = conn
        self.client = websocket.client.host if websocket.client is not None else None
        self.bucket = Bucket(rate_, 2 * rate_)
        self.bot: BotAccount | None = None
        self.actor: TableActor | None = None
        loop = asyncio.get_running_loop()
        self.deadline = loop.call_later(hello_seconds, self._no_hello, hello_seconds)

    def _no_hello(self, seconds: float) -> None:
        text = f"no hello within {seconds:g} s of connecting"
        error = ProtocolError(Code.NEED_HELLO, f"{text}: say hello with the bot token first")
        self.conn.goodbye(error_out(error).model_dump_json(), code=1008, reason=text)

    def _refuse_and_close(self, error: ProtocolError, reason: str) -> None:
        log.info("bot refused", extra={"table": None, "seat": None, "action": error.code.value})
        self.conn.goodbye(error_out(error).model_dump_json(), code=1008, reason=reason)

    async def handle(self, text: str | bytes) -> None:
        """One message from the bot; a refusal is an ``error`` and changes nothing."""
        if not self.bucket.allow(time.monotonic()):
            self.conn.put(
                error_out(
                    ProtocolError(Code.THROTTLED, "too many messages: slow down")
                ).model_dump_json()
            )
            return
        try:
            await self._dispatch(parse_bot(text))
        except ProtocolError as error:
            where = self.actor.id if self.actor is not None else None
            log.info(
                "bot refused", extra={"table": where, "seat": None, "action": error.code.value}
            )
            self.conn.put(error_out(error).model_dump_json())
        except ValidationError as error:
            first = error.errors()[0] if error.errors() else {"loc": (), "msg": ""}
            where = ".".join(str(part) for part in first["loc"]) or "message"
            refused = ProtocolError(Code.BAD_SCHEMA, f"{where}: {first['msg']}")
            self.conn.put(error_out(refused).model_dump_json())

    async def _dispatch(self, msg: BotIn) -> None:
        lobby = self.bots.lobby()
        if isinstance(msg, Hello):
            await self._hello(msg)
        elif isinstance(msg, Ping):
            self.conn.put(Pong().model_dump_json())
        elif self.bot is None:
            raise ProtocolError(Code.NO_TOKEN, "say hello with the bot token first")
        elif isinstance(msg, CreateIn):
            await self._create(msg)
        elif isinstance(msg, JoinIn):
            await self._sit(await lobby.get(msg.table), msg.seat, msg.last_seq)
        elif self.actor is None:
            raise ProtocolError(Code.NO_TABLE, "create or join a table first")
        elif isinstance(msg, ActionIn):
            self.conn.put(await lobby.act(self.actor, self.conn, msg))
        elif isinstance(msg, SeedIn):
            await lobby.add_seed(self.actor, self.conn, msg)
        elif isinstance(msg, NextDealIn):
            await lobby.next_deal(self.actor, self.conn, msg)
        elif isinstance(msg, UndoIn):
            await lobby.undo(self.actor, self.conn)

    async def _hello(self, msg: Hello) -> None:
        if self.bot is not None:
            raise ProtocolError(Code.ALREADY_HELLO, "this connection already said hello")
        if not msg.token:
            self._refuse_and_close(
                ProtocolError(Code.NO_TOKEN, "a bot says hello with its token"), "no token"
            )
            return
        bot: BotAccount | None = await self.bots.db(self.bots.store.by_token, msg.token)
        if bot is None:
            error = ProtocolError(
                Code.BAD_TOKEN, "the bot token is not known: create a bot on your account"
            )
            self._refuse_and_close(error, "bad token")
            return
        if not bot.live:
            error = ProtocolError(Code.REVOKED, "this bot's token was revoked by its owner")
            self._refuse_and_close(error, "token revoked")
            return
        if bot.id in self.bots.online:
            error = ProtocolError(
                Code.BOT_CONNECTED,
                f"bot {bot.name!r} is connected already: one connection per bot at a time",
            )
            self._refuse_and_close(error, "connected already")
            return
        self.bots.online[bot.id] = self.conn
        self.bot = bot
        self.deadline.cancel()
        self.conn.lang = msg.lang
        self.conn.put(json.dumps({"type": "bot_welcome", "bot": bot.id, "name": bot.name}))
        log.info("bot connected", extra={"table": None, "seat": None, "action": f"bot {bot.id}"})

    async def _create(self, msg: CreateIn) -> None:
        if msg.table.rated:
            raise ProtocolError(Code.RATED_TABLE, "bots play casual tables only: rated is false")
        people = [i for i, seat in enumerate(msg.table.seats or []) if seat.kind == "person"]
        if msg.table.seats and not people:
            raise ProtocolError(Code.BAD_OPTIONS, "seats: the bot needs a person's seat")
        if msg.seat is not None and msg.table.seats and msg.seat not in people:
            raise ProtocolError(Code.BAD_OPTIONS, f"seat {msg.seat} is not a person's seat")
        actor = await self.bots.lobby().create(msg.table, client=self.client)
        await self._sit(actor, msg.seat, 0)  # from its first event: the first deal's commitment

    async def _sit(self, actor: TableActor, seat: int | None, last_seq: int | None) -> None:
        """Take a seat at ``actor`` (or the one this bot holds there) and connect to it."""
        assert self.bot is not None
        lobby = self.bots.lobby()
        invited = actor.config.get("rated") and await self.bots.db(
            self.bots.store.invited, actor.id, self.bot.id
        )
        if actor.config.get("rated") and not invited:
            raise ProtocolError(
                Code.RATED_TABLE,
                "a rated table is for people: bots sit at casual tables, or where a person "
                "at the table invited them",
            )
        held: int | None = await self.bots.db(self.bots.store.seat_of, actor.id, self.bot.id)
        if held is None:
            held, _token = await lobby.join(actor, SEAT_PREFIX + self.bot.name, seat)
            await self.bots.db(self.bots.store.sat, actor.id, held, self.bot.id)
        elif seat is not None and seat != held:
            raise ProtocolError(Code.WRONG_SEAT, f"this bot holds seat {held} at this table")
        if self.actor is not None:  # one table at a time: leave the last one's connection
            await lobby.disconnect(self.actor, self.conn)
            self.actor = None
        self.conn.put(
            Welcome(table=actor.id, seat=held, role="player", seq=actor.seq).model_dump_json()
        )
        await lobby.connect(actor, self.conn, held, last_seq)
        self.actor = actor
        log.info(
            "bot seated", extra={"table": actor.id, "seat": held, "action": f"bot {self.bot.id}"}
        )

    async def end(self) -> None:
        """The socket closed: the bot is away from its table and may connect again."""
        self.deadline.cancel()
        if self.bot is not None and self.bots.online.get(self.bot.id) is self.conn:
            del self.bots.online[self.bot.id]
        if self.actor is not None:
            await self.bots.lobby().disconnect(self.actor, self.conn)


# ----------------------------------------------------------------- the bots' rating pool


async def rate_bots(lobby: Lobby, store: BotStore) -> int:
    """Rate every finished table with a bot's seat in the bots' pool; how many were rated.

    Each seat takes part in one free-for-all update by the match's final order: a bot at
    its pool's rating, a computer at its level's fixed rating, a person at a new player's;
    only the bots' new ratings are kept.  A table closed without an outcome is marked done.
    """
    count = 0
    for table_id in await lobby.db(store.unrated):
        try:
            actor = await lobby.get(table_id)
        except ProtocolError:  # gone: nothing to rate
            await lobby.db(store.done, table_id)
            continue
        outcome = actor.state.outcome if actor.state is not None else None
        if outcome is None:
            if actor.status == "closed":
                await lobby.db(store.done, table_id)
            continue
        bots = await lobby.db(store.bots_at, table_id)
        before_of = [
            None
            if i in bots
            else COMPUTER_RATINGS.get(seat.kind) or computer_rating(seat.kind, len(actor.seats))
            for i, seat in enumerate(actor.seats)
        ]
        ranks = places(outcome.totals, outcome.winner)

        def new(before: list[tuple[float, float]], ranks: list[int] = ranks) -> Any:
            return rate(before, ranks)

        if await lobby.db(store.apply, table_id, before_of, new):
            log.info("bots rated", extra={"table": table_id, "seat": None, "action": "rate"})
            count += 1
    return count


async def bot_rating_loop(lobby: Lobby, seconds: float) -> None:
    """Rate the bots' finished matches at once, then every ``seconds``, until cancelled."""
    store = BotStore(lobby.store.engine)
    while True:
        try:
            await rate_bots(lobby, store)
        except Exception as error:  # logged with its cause; the next round tries again
            log.warning(
                "bot rating failed",
                extra={"table": None, "seat": None, "action": "rate", "cause": cause(error)},
            )
        await asyncio.sleep(seconds)
