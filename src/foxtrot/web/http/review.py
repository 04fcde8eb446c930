"""After a match, for the page: the review of your moves and the rule check of a record.

``GET /api/tables/{id}/review`` reviews the asking seat's moves;
``POST /api/records/check`` checks any record file by the rules (below).

It is the terminal game's review (``bots.coach.review`` with the verdicts of
``bots.verdict``): every move of one seat graded against the expert's, each
from that seat's observation before the move, so it names no card the seat
could not see.  Only the seat whose token comes in ``Authorization: Bearer``
is reviewed.  A deal is reviewed as soon as it has ended, while the match goes
on (``?deal=N``): the search then gets the record of the finished deals only,
never the deal in progress (its deck is hidden, and a review of it would be a
coach for the deal being played); the whole match (no ``deal``) once it is over.

The search is seconds of CPU for a match, so it runs in a worker process (one,
started on first use; spawned, not forked, from a server with threads): a
thread would hold the interpreter lock and slow every table of the server.
Reviews are deterministic for a record, seat, deal and language only up to the
time budget, and they are kept (a small cache), so asking again is free and two
people asking at once share one search.  ``?deal=N`` reviews one deal (0-based):
the page asks deal by deal and shows each as it comes.

The page checks the fair deal itself (static/verify.js, WebCrypto): that is
what must not depend on the server.  To give the same verdict as ``foxtrot
verify FILE`` on any file, it also sends the file's bytes to ``POST
/api/records/check``, which does what the command does besides the fair-deal
check: read the record (rule G2: UTF-8, JSON, limits) and replay it through the
engine (rule G3: every action legal, every score right).  The answer says which
of the two failed, in the command's words; the page puts the three verdicts in
the command's order (read, fair deal, rules).  The check runs in a worker process
with a CPU-time limit (``web/http/record_check.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from fastapi import APIRouter, FastAPI, Header, Request

from ... import i18n
from ...core import to_record
from ..lobby import Lobby, server_record
from ..players.rated import no_help_while_rated
from ..protocol import Code, ProtocolError
from ..workers import process_pool, stop_pool
from .record_check import Checker

if TYPE_CHECKING:
    from ..table.actor import TableActor

#: The search budget of one reviewed move: the terminal game's (iterations, CPU seconds).
ITERATIONS: Final = 150
SECONDS: Final = 0.05
#: How many finished reviews the server keeps.
CACHE: Final = 64
#: The largest record file the rule check takes (a long 9-player match is a few hundred KB;
#: ``foxtrot verify`` on the command line takes up to 64 MiB).
CHECK_BYTES: Final = 4 * 1024 * 1024

Key = tuple[str, int, int | None, str]


def review_json(
    record: Mapping[str, Any],
    seat: int,
    lang: str,
    deal: int | None = None,
    budget: tuple[int, float | None] = (ITERATIONS, SECONDS),
) -> dict[str, Any]:
    """The review of ``seat`` in ``record`` (one deal or all) as JSON: summary, verdicts, moves.

    Runs in the worker process; ``record`` is a finished G2 record.
    """
    from ...bots.coach import (  # noqa: PLC0415 (the worker's import, not the app's)
        action_text,
        review,
        summary,
    )
    from ...bots.verdict import verdicts  # noqa: PLC0415

    items = review(record, seat, lang, iterations=budget[0], seconds=budget[1], deal=deal)
    return {
        "seat": seat,
        "deal": deal,
        "deals": len(record["deals"]),
        "summary": summary(items, lang),
        "verdicts": [v.text(lang) for v in verdicts(record, seat, items, deal)],
        "moves": [
            {
                "deal": item.deal,
                "move": item.index + 1,
                "played": str(item.played),
                "best": str(item.best),
                "grade": item.grade.value,
                "loss": round(item.loss, 1),
                "lost": round(item.loss),  # the points the summary counts, in the same measure
                "played_text": action_text(item.played, lang),
                "best_text": action_text(item.best, lang),
                "reason": item.reason(lang),
                "text": item.text(lang),
            }
            for item in items
        ],
    }


def finished_deals(actor: TableActor, deal: int | None) -> dict[str, Any]:
    """The record to review ``deal`` from: the whole record once the match is over, else the
    record of the deals that have ended (the deal in progress, its deck above all, left out).

    Refuses (``not_finished``) the whole match before its end and a deal before its end.
    """
    if actor.status in ("over", "closed") or deal is None:
        return server_record(actor)  # refuses a match that is not over
    state = actor.state
    if state is None:
        raise ProtocolError(Code.NOT_FINISHED, "the match has not started")
    record = to_record(state)
    record["deals"] = [entry for entry in record["deals"] if "scores" in entry]
    if not 0 <= deal < len(record["deals"]):
        raise ProtocolError(
            Code.NOT_FINISHED,
            f"deal {deal} has not ended: a deal is reviewed once it is over"
            f" ({len(record['deals'])} deals have ended)",
        )
    return record


def warm_up() -> None:
    """In the worker: import the review and load the compiled kernel (``[fast]``) now, so that
    the first review after a deal is not the one that waits for them (25 s against 0.5 s on a
    2-CPU machine: ``benchmarks/bench_review.py``)."""
    from ... import fast  # noqa: PLC0415 (the worker's import, not the app's)
    from ...bots import coach, verdict  # noqa: F401, PLC0415

    fast.warm_up()


class Reviewer:
    """The worker process, the reviews in progress and the finished ones."""

    def __init__(self, budget: tuple[int, float | None] = (ITERATIONS, SECONDS)) -> None:
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._done: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self._running: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        #: The (table, seat) pairs with a search in progress: at most one each.
        self._seats: set[tuple[str, int]] = set()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = process_pool(1)
        return self._pool

    async def review(
        self, key: Key, record: Mapping[str, Any], seat: int, lang: str, deal: int | None
    ) -> dict[str, Any]:
        """The review for ``key``: kept, in progress (shared), or started in the worker.

        A seat has at most one search in progress (one worker serves the whole
        server): asking for another meanwhile is refused with ``busy``.
        """
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        running = self._running.get(key)
        asker = (key[0], key[1])  # the table and seat asking
        if running is None and asker in self._seats:
            raise ProtocolError(
                Code.BUSY,
                f"a review for seat {key[1]} is being computed: ask again once it is done",
            )
        if running is None:
            loop = asyncio.get_running_loop()
            running = asyncio.ensure_future(
                loop.run_in_executor(
                    self._executor(), review_json, record, seat, lang, deal, self.budget
                )
            )
            self._running[key] = running
            self._seats.add(asker)

            def done(_: object) -> None:
                self._running.pop(key, None)
                self._seats.discard(asker)

            running.add_done_callback(done)
        result: dict[str, Any] = await asyncio.shield(running)
        self._done[key] = result
        while len(self._done) > CACHE:
            self._done.popitem(last=False)
        return result

    def warm_up(self) -> None:
        """Start the worker and load what a review needs now (``foxtrot serve`` does this at
        boot), not when the first deal has ended."""
        self._executor().submit(warm_up)

    def close(self) -> None:
        """Stop the worker; a review in progress is abandoned, not waited for (it can take
        many seconds)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


def _seat(authorization: str | None, seat_of: Callable[[str], int | None]) -> int:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ProtocolError(Code.NO_TOKEN, "send your seat token as Authorization: Bearer")
    seat = seat_of(authorization[7:].strip())
    if seat is None:
        raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
    return seat


def review_router(
    lobby: Callable[[], Lobby],
    reviewer: Reviewer | None = None,
    checker: Checker | None = None,
    *,
    warm: bool = False,
) -> APIRouter:
    """The review and check routes; ``lobby`` gives the running lobby.  The router's lifespan
    starts the review's worker when ``warm`` and stops the workers with the server."""
    the_reviewer = reviewer or Reviewer()
    the_checker = checker or Checker()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm:
            the_reviewer.warm_up()
        try:
            yield
        finally:
            the_reviewer.close()
            the_checker.close()

    router = APIRouter(lifespan=lifespan)

    @router.get("/api/tables/{table_id}/review")
    async def review(
        table_id: str,
        lang: str = "en",
        deal: int | None = None,
        authorization: str | None = Header(None),
    ) -> dict[str, Any]:
        actor = await lobby().get(table_id)
        seat = _seat(authorization, actor.seat_of)
        no_help_while_rated(actor, "the review")
        if lang not in i18n.LANGUAGES:
            raise ProtocolError(
                Code.BAD_SCHEMA, f"language {lang[:10]!r} is not one of {', '.join(i18n.LANGUAGES)}"
            )
        if deal is not None and deal < 0:
            raise ProtocolError(Code.BAD_SCHEMA, f"deal {deal} is not a deal (deals count from 0)")
        record = finished_deals(actor, deal)
        if deal is not None and not 0 <= deal < len(record["deals"]):
            raise ProtocolError(
                Code.BAD_SCHEMA,
                f"deal {deal} is not a deal of this match (0 to {len(record['deals']) - 1})",
            )
        key: Key = (table_id, seat, deal, lang)
        result = await the_reviewer.review(key, record, seat, lang, deal)
        return {"table": table_id, **result}

    @router.post("/api/records/check")
    async def check(request: Request) -> dict[str, Any]:
        too_large = ProtocolError(Code.TOO_LARGE, f"a record has at most {CHECK_BYTES} bytes")
        size = request.headers.get("content-length", "")
        if size.isdigit() and int(size) > CHECK_BYTES:
            raise too_large
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > CHECK_BYTES:
                raise too_large
        return await the_checker.check(bytes(raw))

    return router
