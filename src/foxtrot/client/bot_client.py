"""A bot's connection to a Foxtrot server: hello with the bot token, a table, turns, actions.

It speaks the documented protocol (docs/protocol.md, "Bot accounts") over one WebSocket
(the ``websockets`` library) and does for the program what the page does for a person:
it adds a seed of its own to every deal (docs/fair.md), says it is ready for the next deal
when the table waits for it, follows the cards taken, and hands the program one ``Turn``
each time it is to move.  The server holds every rule: an action it refuses is an error,
and the turn comes again.

    client = await BotClient.connect("http://localhost:8000", token)
    await client.join(table_id)              # or: await client.create(players=2, ...)
    async for turn in client.turns():
        await client.act(turn, my_choice(turn.observation))
    print(client.view["totals"])
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Final, Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ..core import Action, Observation
from .views import TakenCards, observation_of

#: Seconds to wait after a ``throttled`` error before the turn is offered again (the server
#: allows 20 messages a second to a connection).
THROTTLED_PAUSE: Final = 0.1
#: Errors that only say the turn moved on: the view that follows is the one to act on.
_STALE: Final = frozenset({"stale_seq", "not_your_turn", "match_over", "not_started"})


class BotRefusedError(Exception):
    """The server refused the bot: a bad or revoked token, a second connection, a table it
    cannot sit at.  ``code`` is the protocol's error code, ``message`` its sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """The bot is to move: its view (the server's JSON), the same as the engine's observation,
    and the sequence number its action answers."""

    view: Mapping[str, Any]
    observation: Observation
    seq: int

    @property
    def legal(self) -> list[str]:
        """The legal actions as the server writes them (``"QS"``, ``"take"``)."""
        return [str(action) for action in self.view.get("legal", ())]


def _ws_url(url: str) -> str:
    """The bots' socket of the server at ``url`` (``http(s)://`` or ``ws(s)://``).

    >>> _ws_url("http://localhost:8000/"), _ws_url("wss://foxtrot.example")
    ('ws://localhost:8000/ws/bot', 'wss://foxtrot.example/ws/bot')
    """
    base = url.rstrip("/")
    for web, sock in (("http://", "ws://"), ("https://", "wss://")):
        if base.startswith(web):
            base = sock + base[len(web) :]
    return base if base.endswith("/ws/bot") else base + "/ws/bot"


class BotClient:
    """One bot's connection; make it with ``BotClient.connect``."""

    def __init__(self, socket: ClientConnection, bot: Mapping[str, Any]) -> None:
        self.socket = socket
        #: The bot's id and name, as the server welcomed it.
        self.bot = dict(bot)
        #: The table and seat it plays (after ``create`` or ``join``).
        self.table: str | None = None
        self.seat: int | None = None
        #: The latest view of the table and its sequence number.
        self.view: dict[str, Any] | None = None
        self.seq = 0
        #: The errors the server sent about this bot's messages (most recent last).
        self.errors: list[dict[str, Any]] = []
        self._taken = TakenCards()
        self._seeded: set[int] = set()
        self._readied: set[int] = set()
        self._acted_at: int | None = None
        self._ids = 0

    # ------------------------------------------------------------- connecting

    @classmethod
    async def connect(cls, url: str, token: str, lang: str = "en") -> Self:
        """Open the bots' socket of the server at ``url`` and say hello with ``token``.

        ``BotRefusedError`` when the server refuses the token (``bad_token``, ``revoked``,
        ``bot_connected``).
        """
        socket = await connect(_ws_url(url), max_size=2**20)
        await socket.send(json.dumps({"type": "hello", "token": token, "lang": lang}))
        try:
            answer = json.loads(await socket.recv())
        except ConnectionClosed as closed:
            raise BotRefusedError("closed", f"the server closed the socket: {closed}") from None
        if answer.get("type") != "bot_welcome":
            await socket.close()
            raise BotRefusedError(str(answer.get("code")), str(answer.get("message")))
        return cls(socket, answer)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the socket (the bot's seat stays its own: ``join`` the table again)."""
        await self.socket.close()

    async def create(self, seat: int | None = None, **table: Any) -> int:
        """Create a casual table (``table``: ``POST /api/tables``'s fields, e.g. ``options``,
        ``seats``) and sit at it; the seat.  The table's id is ``self.table``."""
        await self._send({"type": "create", "table": table, "seat": seat})
        return await self._welcomed()

    async def join(self, table: str, seat: int | None = None) -> int:
        """Sit at ``table`` (or come back to the seat this bot holds there); the seat."""
        # from the table's first event: the seeds asked for and the cards taken so far
        last_seq = self.seq if self.table == table else 0
        message = {"type": "join", "table": table, "seat": seat, "last_seq": last_seq}
        await self._send(message)
        return await self._welcomed()

    async def _welcomed(self) -> int:
        while True:
            message = await self._recv()
            if message["type"] == "welcome":
                self.table, self.seat = str(message["table"]), int(message["seat"])
                self._acted_at = None
                return self.seat
            if message["type"] == "error":
                raise BotRefusedError(str(message["code"]), str(message["message"]))

    # ------------------------------------------------------------- playing

    async def turns(self) -> AsyncIterator[Turn]:
        """Each time the bot is to move, one ``Turn``, until the match is over (or the socket
        closes).  Answer each with ``act``; a turn not answered is offered again only when a
        new view comes."""
        while not self.over:
            try:
                message = await self._recv()
            except ConnectionClosed:
                return
            await self._follow(message)
            turn = self._turn()
            if turn is not None:
                yield turn

    async def act(self, turn: Turn, action: Action | str) -> None:
        """Play ``action`` (a card or ``take``) for ``turn``; the server acknowledges it, or
        refuses it with an error, and the turn comes again with the next view."""
        self._ids += 1
        self._acted_at = turn.seq
        await self._send(
            {"type": "action", "id": f"a{self._ids}", "seq": turn.seq, "action": str(action)}
        )

    async def play(self, choose: Callable[[Observation], Action | str]) -> dict[str, Any]:
        """Play the match to its end with ``choose``; the last view (``totals``, ``winner``)."""
        async for turn in self.turns():
            await self.act(turn, choose(turn.observation))
        return dict(self.view or {})

    @property
    def over(self) -> bool:
        """The match at the bot's table is over."""
        return self.view is not None and self.view.get("phase") == "over"

    # ------------------------------------------------------------- the protocol

    async def _send(self, message: Mapping[str, Any]) -> None:
        await self.socket.send(json.dumps(message))

    async def _recv(self) -> dict[str, Any]:
        message = json.loads(await self.socket.recv())
        if not isinstance(message, dict):
            raise BotRefusedError("bad_message", "the server sent a message that is not an object")
        if message.get("type") == "error":
            self.errors.append(message)
        return message

    def _turn(self) -> Turn | None:
        view = self.view
        if view is None or view.get("phase") != "playing" or view.get("to_move") != self.seat:
            return None
        if not view.get("legal") or self._acted_at == self.seq:
            return None
        return Turn(view, observation_of(view, self._taken), self.seq)

    async def _follow(self, message: Mapping[str, Any]) -> None:
        """Keep the view, the seq and the taken cards; seed and get ready as the page does."""
        kind = message.get("type")
        if kind == "snapshot":
            self.seq = int(message["seq"])
            self._set_view(message.get("view"))
        elif kind == "event":
            self.seq = max(self.seq, int(message["seq"]))
            data = message.get("data") or {}
            self._taken.follow(data.get("events", ()))
            if message.get("kind") == "commit":  # the coming deal: add a seed of its own
                await self._seed(int(data["deal"]))
            self._set_view(message.get("view"))
        elif kind == "presence":
            waits: Sequence[int] = message.get("next_deal_waits") or ()
            if self.seat in waits and self.view is not None:
                await self._ready(int(self.view["deal"]))
        elif kind == "error" and message.get("code") == "throttled":
            # past the server's rate (a table of quick computers): wait, then the turn again
            await asyncio.sleep(THROTTLED_PAUSE)
            self._acted_at = None
        elif kind == "error" and (message.get("code") in _STALE or message.get("id")):
            # the action was refused, or the turn moved on: the next view is the one to answer
            self._acted_at = None

    def _set_view(self, view: Any) -> None:
        if isinstance(view, dict):
            self.view = view

    async def _seed(self, deal: int) -> None:
        if deal not in self._seeded:
            self._seeded.add(deal)
            await self._send({"type": "seed", "deal": deal, "seed": secrets.token_hex(16)})

    async def _ready(self, deal: int) -> None:
        if deal not in self._readied:
            self._readied.add(deal)
            await self._send({"type": "next_deal", "deal": deal})
