"""``POST /api/analysis``: the analysis board's frames, with the coach's value of every move.

A frame is the table after a line of tried moves from a position (``foxtrot.analysis``): a
finished match's deal and move (``table``, ``deal``, ``move``), a deal that has ended in a match
still being played (only for a seat of it: its token in ``Authorization: Bearer``), or a
position text the user set up (``position``).  The answer is the view of the analysing seat
(the same view a replay's table is drawn from), the line as moves, and the coach's value of
each legal move of the seat to move.

What is never sent.  Until the match is over the board is not open: the view is the seat's
own (``State.observation(seat)``), the other seats' moves can only be the moves they made,
and neither their cards nor the move they are about to make are in any answer — a frame says
only that the move made can be followed.  Once the match is over (or for a position text,
which holds every card) ``hands`` adds every hand and the position text.  At a rated table
nothing is analysed before the match ends (``no_help_while_rated``).

Bounded work.  The coach's search is milliseconds once compiled, but it is CPU: it runs in a
worker process (one for the server), frames wait in a queue shared fairly between the
clients asking (``FairQueue``: one client's burst does not delay another's first frame), at
most ``WAITING`` frames wait in all, each client may ask ``RATE`` frames a minute, and
finished frames are kept (``CACHE``): stepping back and forward through a line costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Header, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ... import i18n
from ...analysis import LONGEST_LINE, Board
from ...core import FoxtrotError
from ..lobby import Lobby, server_record
from ..players.rated import no_help_while_rated
from ..protocol import Code, ProtocolError
from ..table.computer import FairQueue
from ..workers import process_pool, stop_pool
from .page import STATIC
from .review import finished_deals, warm_up

#: The coach's samples for a frame (``foxtrot hint``'s default: the same values).
SAMPLES: Final = 100
#: Frames one client may ask a minute, and frames that may wait for the worker in all.
RATE: Final = 120
WAITING: Final = 64
#: Finished frames kept.
CACHE: Final = 512


class AnalysisIn(BaseModel):
    """A frame asked for: where the board starts, whose eyes, the line of tried moves."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str | None = Field(None, max_length=64)
    deal: int | None = Field(None, ge=1, le=100_000)
    move: int = Field(1, ge=1, le=100_000)
    position: str | None = Field(None, max_length=4000)
    seat: int | None = Field(None, ge=0, le=8)
    line: list[str] = Field(default_factory=list, max_length=LONGEST_LINE)
    hands: bool = False
    lang: str = "en"


@dataclass(frozen=True)
class Ask:
    """A frame to compute (sent to the worker): ``source`` is a position text or a record,
    ``where`` the record's (deal, move), ``over`` whether every card may be shown."""

    source: str | Mapping[str, Any] = field(repr=False)
    where: tuple[int, int] | None
    seat: int | None
    line: tuple[str, ...]
    hands: bool
    over: bool
    lang: str
    samples: int = SAMPLES


def frame_json(ask: Ask) -> dict[str, Any]:
    """One frame as JSON (in the worker)."""
    from ...bots.coach import action_text, explain  # noqa: PLC0415 (the worker's import)
    from ..table.views import seat_view  # noqa: PLC0415

    hands, lang = ask.hands, ask.lang
    if isinstance(ask.source, str):
        board = Board.from_text(ask.source, ask.seat)
    else:
        assert ask.where is not None
        deal, move = ask.where
        board = Board.from_record(ask.source, deal, move, ask.seat, open=ask.over)
    if hands and not board.open:
        raise FoxtrotError("every hand is shown once the match is over")
    frame = board.at(ask.line)
    state = frame.state
    view = seat_view(state.observation(board.seat))
    view["effects"] = {}
    mover = frame.mover
    visible = mover is not None and (mover == board.seat or hands)  # its cards may be named
    answer: dict[str, Any] = {
        "seat": board.seat,
        "open": board.open,
        "where": list(board.where) if board.where is not None else None,
        "line": [str(action) for action in frame.line],
        "mover": mover,
        "follow": frame.recorded is not None,
        "recorded": str(frame.recorded) if frame.recorded is not None and visible else None,
        "choosable": frame.choosable and visible,
        "moves": [],
        "solved": 0,
        "view": view,
    }
    if hands:
        view["hands"] = [[str(card) for card in state.hand(s)] for s in range(state.players)]
        answer["position"] = state.text()
    if answer["choosable"]:
        assert mover is not None
        values, answer["solved"] = frame.values(ask.samples)
        obs = state.observation(mover)
        answer["moves"] = [
            {
                "action": str(item.action),
                "card": str(item.action.card) if item.action.card is not None else None,
                "text": action_text(item.action, lang),
                "value": None if item.value is None else round(item.value, 1),
                "best": item.best,
                "reason": explain(obs, item.action, lang, words=True),
            }
            for item in values
        ]
    return answer


def _safe_frame(ask: Ask) -> dict[str, Any]:
    """``frame_json``, with a refused position or line as an answer instead of an exception
    (an exception's text would be pickled back with its arguments, the record among them)."""
    try:
        return frame_json(ask)
    except FoxtrotError as error:
        return {"error": str(error)}


@dataclass
class _Job:
    ask: Ask
    answer: asyncio.Future[dict[str, Any]] = field(repr=False)


class Analyst:
    """The worker, the frames waiting for it (fairly between clients), the kept frames and
    each client's recent asks."""

    def __init__(self, *, rate: int = RATE, pool: Executor | None = None) -> None:
        """``pool``: where frames are computed (default: one spawned worker process, made at
        first use); only one frame is handed to it at a time, the rest wait here."""
        self._pool: Executor | None = pool
        self.rate = rate
        self._waiting: FairQueue[_Job] = FairQueue()
        self._running = False
        self._done: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._asks: dict[str, deque[float]] = {}

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(1)
        return self._pool

    def admit(self, client: str, now: float | None = None) -> None:
        """Count an ask of ``client``; refuse it (``throttled``) past ``rate`` a minute."""
        now = time.monotonic() if now is None else now
        asks = self._asks.setdefault(client, deque())
        while asks and asks[0] <= now - 60.0:
            asks.popleft()
        if len(asks) >= self.rate:
            raise ProtocolError(
                Code.THROTTLED, f"at most {self.rate} analysis frames a minute: slow down"
            )
        asks.append(now)
        if len(self._asks) > 10_000:  # forget the clients that have not asked for a minute
            for key in [k for k, q in self._asks.items() if not q or q[-1] <= now - 60.0]:
                del self._asks[key]

    async def frame(self, client: str, key: tuple[Any, ...], ask: Ask) -> Any:
        """The frame for ``key``: kept, or computed in the worker in ``client``'s turn."""
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if len(self._waiting) >= WAITING:
            raise ProtocolError(Code.BUSY, "the coach is busy: ask again in a moment")
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting.put(client, True, _Job(ask, answer))
        self._start()
        result = await answer
        if "error" not in result:
            self._done[key] = result
            while len(self._done) > CACHE:
                self._done.popitem(last=False)
        return result

    def _start(self) -> None:
        if self._running:
            return
        job = self._waiting.pop()
        while job is not None and job.answer.done():  # its client stopped waiting
            job = self._waiting.pop()
        if job is None:
            return
        self._running = True
        work = asyncio.wrap_future(self._executor().submit(_safe_frame, job.ask))
        work.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, done: asyncio.Future[dict[str, Any]]) -> None:
        self._running = False
        if not job.answer.done():
            if done.cancelled():
                job.answer.cancel()
            elif (error := done.exception()) is not None:
                job.answer.set_exception(error)
            else:
                job.answer.set_result(done.result())
        self._start()

    def warm_up(self) -> None:
        """Start the worker and load the coach and the compiled kernel in it now (``foxtrot
        serve`` does this at boot), not at the first frame."""
        self._executor().submit(warm_up)

    def close(self) -> None:
        """Stop the worker (a frame being computed is abandoned)."""
        pool, self._pool = self._pool, None
        if isinstance(pool, ProcessPoolExecutor):
            stop_pool(pool)
        elif pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _lang(lang: str) -> str:
    if lang not in i18n.LANGUAGES:
        raise ProtocolError(
            Code.BAD_SCHEMA, f"language {lang[:10]!r} is not one of {', '.join(i18n.LANGUAGES)}"
        )
    return lang


def analysis_router(
    lobby: Callable[[], Lobby], analyst: Analyst | None = None, *, warm: bool = False
) -> APIRouter:
    """``POST /api/analysis`` and the page at ``/analysis``; ``lobby`` gives the running lobby;
    ``warm`` starts the worker at boot."""
    the_analyst = analyst or Analyst()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm:
            the_analyst.warm_up()
        try:
            yield
        finally:
            the_analyst.close()

    router = APIRouter(lifespan=lifespan)

    @router.get("/analysis", response_class=HTMLResponse)
    async def page() -> FileResponse:  # the page draws the board (static/analysis/)
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @router.post("/api/analysis")
    async def analysis(
        body: AnalysisIn, request: Request, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lang = _lang(body.lang)
        client = request.client.host if request.client is not None else "-"
        if (body.table is None) == (body.position is None):
            raise ProtocolError(
                Code.BAD_SCHEMA, "give either a table (with its deal) or a position"
            )
        if any(len(move) > 8 for move in body.line):
            raise ProtocolError(Code.BAD_SCHEMA, "a move of the line is a card, take or played")
        line = tuple(body.line)
        source: str | Mapping[str, Any]
        if body.position is not None:
            where, over, source = None, True, body.position
            key: tuple[Any, ...] = ("position", body.position)
        else:
            assert body.table is not None
            if body.deal is None:
                raise ProtocolError(Code.BAD_SCHEMA, "which deal of the table: deal (1-based)")
            actor = await lobby().get(body.table)
            over = actor.status in ("over", "closed")
            where = (body.deal, body.move)
            if over:
                source = server_record(actor)
                key = ("table", body.table, *where)
            else:
                no_help_while_rated(actor, "the analysis board")
                token = authorization[7:].strip() if authorization else ""
                seat = actor.seat_of(token) if authorization else None
                if seat is None:
                    raise ProtocolError(
                        Code.NO_TOKEN,
                        "the match is not over: only its players may analyse its ended deals",
                    )
                if body.seat is not None and body.seat != seat:
                    raise ProtocolError(
                        Code.WRONG_SEAT, "the match is not over: you see it from your seat only"
                    )
                if body.hands:
                    raise ProtocolError(
                        Code.NOT_FINISHED, "every hand is shown once the match is over"
                    )
                source = finished_deals(actor, body.deal - 1)  # refuses a deal not ended
                body = body.model_copy(update={"seat": seat})
                key = ("playing", body.table, len(source["deals"]), *where)
        the_analyst.admit(client)
        ask = Ask(source, where, body.seat, line, body.hands, over, lang)
        full_key = (*key, body.seat, line, body.hands, lang)
        result: dict[str, Any] = await the_analyst.frame(client, full_key, ask)
        if "error" in result:
            raise ProtocolError(Code.ILLEGAL, result["error"])
        return result

    return router
