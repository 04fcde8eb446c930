"""``/api/daily``: today's decks and their commitments, a play, the standing, a play's result.

A play is an ordinary server table (web/table/actor.py) whose configuration names the day's
deck (``daily``: its shuffle name and seed, never sent to anyone): seat 0 a person, the others
``OPPONENT`` computers, one deal, no player seeds.  A signed-in account plays a day's deck
once (``already_played`` after, refused by the database's unique constraint); a guest plays
as often as he likes, unranked, and keeps his result on his device.  Past days (the
calendar's ``CALENDAR_DAYS``) are playable by anyone, unranked.

"Today" is ``today()``, injected (tests set the day; the server uses the UTC date).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, Header, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ...core import CardPlayed, PlayResult, replay
from ...i18n import computer_name
from ..lobby import Lobby, server_record
from ..players.accounts import Accounts
from ..protocol import Code, CreateTable, PlayerName, ProtocolError, SeatPlan
from ..workers import process_pool
from . import decks
from .rows import AlreadyPlayedError, DailyRows, Deck, Play

INDEX: Final = Path(__file__).parents[1] / "static" / "index.html"
#: The biggest swings a result lists.
SWINGS: Final = 5


def utc_today() -> datetime.date:
    """The server's "today": the UTC date."""
    return datetime.datetime.now(datetime.UTC).date()


class DailyPlay(BaseModel):
    """``POST /api/daily/play``: which deck (today's when ``day`` is omitted), a guest's name."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    variant: Annotated[str, Field(max_length=16)]
    day: Annotated[str | None, Field(max_length=10)] = None
    name: PlayerName | None = None


def _check(text: str | None, variant: str | None, today: datetime.date) -> tuple[str, str | None]:
    try:
        day = decks.check_day(text, today).isoformat() if text else today.isoformat()
        return day, decks.check_variant(variant) if variant is not None else None
    except decks.DailyError as error:
        raise ProtocolError(Code.BAD_OPTIONS, str(error)) from None


def deck_json(deck: Deck, today: datetime.date, played: int) -> dict[str, Any]:
    """A deck as anyone may see it: the commitment; the seed only once its day is over."""
    revealed = deck.day < today.isoformat()
    return {
        "variant": deck.variant,
        **decks.variant_options(deck.variant),
        "table": decks.fair_table(deck.day, deck.variant),
        "commitment": deck.commitment,
        "server_seed": deck.seed.hex() if revealed else None,
        "hard": deck.hard_score,
        "played": played,
    }


def swings(record: dict[str, Any], limit: int = SWINGS) -> list[dict[str, Any]]:
    """The deal's biggest swings: the takes that won the most card points (with foxtrots)."""
    found: list[dict[str, Any]] = []
    for step in replay(record):
        if step.action is None:
            continue
        for event in step.events:
            if isinstance(event, CardPlayed) and event.result is not PlayResult.LAID:
                points = sum(card.points for card in event.taken)
                found.append(
                    {
                        "move": step.action + 1,
                        "seat": event.seat,
                        "card": str(event.card),
                        "result": event.result.value,
                        "cards": len(event.taken),
                        "points": points,
                    }
                )
    found.sort(key=lambda swing: (-abs(swing["points"]), -swing["cards"], swing["move"]))
    return found[:limit]


class Daily:
    """The deal of the day of one server: rows, benchmark computations, scores of plays."""

    def __init__(
        self,
        lobby: Callable[[], Lobby],
        today: Callable[[], datetime.date] = utc_today,
        benchmark_level: str = decks.BENCHMARK,
        bot_delay: float = 0.5,
    ) -> None:
        self._lobby = lobby
        self.bot_delay = bot_delay
        self.today = today
        self.benchmark_level = benchmark_level
        self._computing: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._pool: ProcessPoolExecutor | None = None

    def lobby(self) -> Lobby:
        """The server's lobby."""
        return self._lobby()

    @property
    def rows(self) -> DailyRows:
        """The rows, in the lobby's database."""
        return DailyRows(self._lobby().store.engine)

    async def db(self, fn: Any, *args: Any) -> Any:
        """A rows call on the lobby's database thread."""
        return await self._lobby().db(fn, *args)

    async def deck(self, day: str, variant: str, *, benchmark: bool = True) -> Deck:
        """The deck; its benchmark line started in the worker if it is not computed yet
        (``benchmark``: only for a deck someone plays or looks at, not for every listed one)."""
        deck: Deck = await self.db(self.rows.deck, day, variant)
        if benchmark and deck.hard_score is None and (day, variant) not in self._computing:
            task = asyncio.create_task(self._benchmark(deck))
            self._computing[(day, variant)] = task
        return deck

    async def _benchmark(self, deck: Deck) -> None:
        if self._pool is None:
            self._pool = process_pool(1)
        players = decks.variant_options(deck.variant)["players"]
        names = [self.benchmark_level.capitalize()] + [
            computer_name(i, decks.OPPONENT) for i in range(1, players)
        ]
        loop = asyncio.get_running_loop()
        score, record = await loop.run_in_executor(
            self._pool,
            decks.play_out,
            deck.seed.hex(),
            deck.day,
            deck.variant,
            names,
            self.benchmark_level,
        )
        await self.db(self.rows.set_benchmark, deck.day, deck.variant, score, record)

    def close(self) -> None:
        """Stop the benchmark worker."""
        for task in self._computing.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def score(self, play: Play) -> int | None:
        """A play's score once its deal is over (stored the first time it is seen)."""
        if play.score is not None:
            return play.score
        try:
            actor = await self._lobby().get(play.table_id)
        except ProtocolError:
            return None
        state = actor.state
        logs = state.deal_logs() if state is not None else []
        if not logs or logs[0].scores is None:
            return None
        score = logs[0].scores[0].total
        await self.db(self.rows.set_score, play.table_id, score)
        return score

    async def start(
        self, body: DailyPlay, account: tuple[str, str] | None, client: str | None
    ) -> dict[str, Any]:
        """Create the play's table and sit the person in seat 0; ``account``: (id, name)."""
        today = self.today()
        day, variant = _check(body.day, body.variant, today)
        assert variant is not None
        ranked = account is not None and day == today.isoformat()
        if ranked:
            assert account is not None
            done = await self.db(self.rows.account_play, day, variant, account[0])
            if done is not None:
                raise ProtocolError(
                    Code.ALREADY_PLAYED,
                    f"you have played the deal of the day {day} ({variant}) already:"
                    " past days stay playable from the calendar, unranked",
                )
        deck = await self.deck(day, variant)
        options = decks.variant_options(variant)
        players = options["players"]
        request = CreateTable.model_validate(
            {
                "options": options,
                "seats": [SeatPlan(kind="person")]
                + [SeatPlan(kind=decks.OPPONENT) for _ in range(1, players)],
                "first_dealer": players - 1,  # seat 0 leads, as in the benchmark
                "seed_seconds": 0,
                "deal_pause_seconds": 0,
                "public": False,
                "grace_seconds": 600,
                "bot_delay": self.bot_delay,
            }
        )
        name = account[1] if account is not None else (body.name or "Guest")
        daily = {"day": day, "name": decks.fair_table(day, variant), "seed": deck.seed.hex()}
        actor = await self._lobby().create(request, client=client, daily=daily)
        # only a ranked play holds its account: the unique constraint is the once-a-day rule
        play = Play(
            actor.id, day, variant, account[0] if ranked and account else None, name, ranked, None
        )
        try:
            await self.db(self.rows.add_play, play)
        except AlreadyPlayedError:  # another request of the same account won the race
            await actor.close("daily")
            raise ProtocolError(
                Code.ALREADY_PLAYED, f"you have played the deal of the day {day} already"
            ) from None
        seat, token = await self._lobby().join(actor, name, 0, None)
        return {
            "table": actor.id,
            "seat": seat,
            "token": token,
            "day": day,
            "variant": variant,
            "ranked": ranked,
        }


def daily_router(daily: Daily, accounts: Accounts) -> APIRouter:
    """The deal of the day's routes."""
    router = APIRouter()

    @router.get("/daily", response_class=HTMLResponse)
    async def page() -> FileResponse:
        """The page, opened at the deal of the day (a shared link)."""
        return FileResponse(INDEX, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/daily")
    async def listing(day: str | None = None) -> dict[str, Any]:
        """The day's decks (today's by default) with their commitments and benchmark lines."""
        today = daily.today()
        the_day, _ = _check(day, None, today)
        out = []
        for variant in decks.VARIANTS:
            deck = await daily.deck(the_day, variant, benchmark=False)
            plays = await daily.db(daily.rows.plays, the_day, variant)
            out.append(deck_json(deck, today, sum(1 for p in plays if p.ranked)))
        first = today - datetime.timedelta(days=decks.CALENDAR_DAYS)
        return {
            "day": the_day,
            "today": today.isoformat(),
            "ranked": the_day == today.isoformat(),
            "calendar": [first.isoformat(), today.isoformat()],
            "opponent": decks.OPPONENT,
            "benchmark": daily.benchmark_level,
            "decks": out,
        }

    @router.get("/api/daily/standing")
    async def standing(variant: str, day: str | None = None) -> dict[str, Any]:
        """Everyone signed in who played the day's deck, best first; the benchmark line."""
        the_day, the_variant = _check(day, variant, daily.today())
        assert the_variant is not None
        deck = await daily.deck(the_day, the_variant)
        rows = []
        playing = 0
        for play in await daily.db(daily.rows.plays, the_day, the_variant):
            if not play.ranked:
                continue
            score = await daily.score(play)
            if score is None:
                playing += 1
            else:
                rows.append({"name": play.name, "score": score})
        rows.sort(key=lambda row: -row["score"])
        place = 0
        for i, row in enumerate(rows):
            if i == 0 or row["score"] != rows[i - 1]["score"]:
                place = i + 1
            row["place"] = place
        return {
            "day": the_day,
            "variant": the_variant,
            "hard": deck.hard_score,
            "playing": playing,
            "standing": rows,
        }

    @router.get("/api/daily/result/{table_id}")
    async def result(table_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """A finished play's score, the benchmark line and the deal's biggest swings."""
        play = await daily.db(daily.rows.play, table_id)
        if play is None:
            raise ProtocolError(Code.NO_TABLE, f"table {table_id[:40]} is not a deal of the day")
        actor = await daily.lobby().get(table_id)
        token = (
            authorization[7:].strip()
            if authorization and authorization.lower().startswith("bearer ")
            else None
        )
        if token is None or actor.seat_of(token) != 0:
            raise ProtocolError(
                Code.BAD_TOKEN, "send the play's seat token as Authorization: Bearer"
            )
        score = await daily.score(play)
        if score is None:
            raise ProtocolError(Code.NOT_FINISHED, "the deal of the day is not over yet")
        deck = await daily.deck(play.day, play.variant)
        record = server_record(actor)
        return {
            "table": table_id,
            "day": play.day,
            "variant": play.variant,
            "score": score,
            "hard": deck.hard_score,
            "ranked": play.ranked,
            "swings": swings(record),
            "names": record.get("names"),
        }

    @router.get("/api/daily/record")
    async def benchmark_record(variant: str, day: str) -> dict[str, Any]:
        """The benchmark's play of a past day's deck: a record ``foxtrot verify`` checks."""
        today = daily.today()
        the_day, the_variant = _check(day, variant, today)
        assert the_variant is not None
        if the_day >= today.isoformat():
            raise ProtocolError(
                Code.NOT_FINISHED, f"the deck of {the_day} is revealed the next day (UTC)"
            )
        deck = await daily.deck(the_day, the_variant)
        if deck.hard_record is None:
            raise ProtocolError(Code.NOT_FINISHED, "the benchmark line is still being computed")
        return deck.hard_record

    @router.post("/api/daily/play", status_code=201)
    async def play(
        body: DailyPlay, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        """Start a play of a day's deck: signed in (the session and its CSRF token) or a guest."""
        account = None
        if await accounts.session(request) is not None:
            session, _ = await accounts.acting(request, x_csrf_token)
            account = (session.account.id, session.account.name)
        client = request.client.host if request.client is not None else None
        return await daily.start(body, account, client)

    return router
