"""The browser game: the page at ``/`` and ``/t/{id}``, its static files, its catalog, the coach.

The page is plain HTML, CSS and ES modules in ``web/static`` (no build step,
nothing from elsewhere).  Besides the files this router serves what only the
page needs:

- ``GET /api/i18n/{lang}``: every message of a language as JSON (the catalog
  shared with the terminal game, the narration and the coach), plus each
  card's short text and its name in words, in every case a message may need
  (``card_cases``: "дама пик", "даму пик", "дамы пик", "дамой пик"), so that
  the page speaks cards as words ("Queen of spades") and never as glyphs;
- ``GET /api/rules/{lang}``: the players' rules in that language (Markdown with the marks of
  ``foxtrot.i18n.rules``: the page draws ``[[7H]]`` as a card);
- ``POST /api/tables/{id}/hint`` and ``GET /api/tables/{id}/count``: the coach's
  move with its reason, and the card count, for the seat whose token comes in
  ``Authorization: Bearer``.  Both are computed from that seat's observation
  only (``State.observation(seat)``), so a hint never tells what the seat
  could not know.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Header
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict

from ... import i18n
from ...bots.coach import suggest
from ...bots.counting import card_count
from ...core import CARDS, Observation, Phase, SplitMix64, State, TableOptions
from ...i18n.rules import rules_source
from ..lobby import Lobby
from ..players.rated import no_help_while_rated
from ..players.ratings import level_ties
from ..protocol import Code, ProtocolError
from ..table.actor import TableActor
from ..workers import process_pool

STATIC: Final = Path(__file__).parent.parent / "static"
_TYPES: Final = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
#: The coach's search budget for a hint in the page (CPU seconds, in the coach's own process).
HINT_SECONDS: Final = 0.5


class HintIn(BaseModel):
    """``POST /api/tables/{id}/hint``: the language of the reason."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    lang: str = "en"


def _lang(lang: str) -> str:
    if lang not in i18n.LANGUAGES:
        raise ProtocolError(
            Code.BAD_SCHEMA, f"language {lang[:10]!r} is not one of {', '.join(i18n.LANGUAGES)}"
        )
    return lang


@cache
def catalog_payload(lang: str) -> dict[str, Any]:
    """The page's catalog: W2's ``i18n.catalog_json`` when it exists, and the cards' texts.

    ``messages`` maps a key to a text, or (a counted message) to its forms by
    CLDR plural category; the page picks a form with ``Intl.PluralRules``.
    """
    maker: Callable[[str], Any] | None = getattr(i18n, "catalog_json", None)
    data: dict[str, Any]
    if maker is not None:
        found = maker(lang)
        if isinstance(found, str):
            found = json.loads(found)
        data = dict(found) if "messages" in found else {"messages": dict(found)}
    else:
        data = {"messages": dict(i18n.messages(lang))}
    data["lang"] = lang
    # a computer seat's English name (as the server stores it) -> its name in this language
    data["seat_names"] = {
        i18n.computer_name(seat, level): i18n.computer_name(seat, level, lang)
        for seat in range(9)
        for level in i18n.COMPUTER_LEVELS
    }
    # per table size, the levels rated as the one below: the lobby says so when one is chosen
    data["level_ties"] = {str(players): list(level_ties(players)) for players in range(2, 10)}
    data["cards"] = {
        str(card): [i18n.card_text(card, lang), i18n.card_name(card, lang)] for card in CARDS
    }
    # each card in words in every case a message's card slot may name ({card_acc}: "даму пик")
    data["card_cases"] = {
        str(card): {case: i18n.card_name(card, lang, case) for case in i18n.CASES} for card in CARDS
    }
    return data


def learned_payload(lobby: Lobby, lang: str) -> dict[str, Any]:
    """What the page learns of this server's learned levels with its catalog (the catalog
    itself is the same for every server, this is not): ``learned``, each learned level and the
    table sizes it plays (the lobby offers it only there), and ``seat_names`` with the default
    names of its seats (an operator's ``learned:NAME`` is this server's own)."""
    offered = lobby.computers.learned.offered()
    names = dict(catalog_payload(lang)["seat_names"])
    for kind in offered:
        for seat in range(9):
            names[i18n.computer_name(seat, kind)] = i18n.computer_name(seat, kind, lang)
    return {"learned": offered, "seat_names": names}


@cache
def _static_files() -> dict[str, Path]:
    """The files the page may fetch: exactly what is in ``static`` (no path is built from a URL)."""
    return {
        path.relative_to(STATIC).as_posix(): path
        for path in STATIC.rglob("*")
        if path.is_file() and not path.name.startswith(".")
    }


def _bearer(authorization: str | None) -> str:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    raise ProtocolError(Code.NO_TOKEN, "send the seat token as Authorization: Bearer")


def seat_observation(actor: TableActor, authorization: str | None) -> Observation:
    """The observation of the seat whose token came in the header; nothing else is read."""
    seat = actor.seat_of(_bearer(authorization))
    if seat is None:
        raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
    state = actor.state
    if state is None:
        raise ProtocolError(Code.NOT_STARTED, "the match has not started yet")
    return state.observation(seat)


def hint_json(obs: Observation, lang: str) -> dict[str, Any]:
    """The coach's move for the seat of ``obs``, its reason and the card count, as JSON.

    The reason names its cards in words, in the case each sentence needs, as the page names
    the move above it ("The coach suggests: play the Queen of spades.")."""
    hint = suggest(obs, lang, seconds=HINT_SECONDS, words=True)
    card = hint.action.card
    return {
        "action": str(hint.action),
        "card": str(card) if card is not None else None,
        "reason": hint.reason,
        "counting": hint.counting.lines(lang),
    }


def count_json(obs: Observation, lang: str) -> dict[str, Any]:
    """The seat's card count (what it has not seen, lone-card risks), as lines of text."""
    return {"counting": card_count(obs).lines(lang)}


@cache
def _coach_pool() -> ProcessPoolExecutor:
    """One process for the coach: its search must not hold the event loop (or the GIL)."""
    return process_pool(1)


def warm_up() -> None:
    """Make the coach's process import and compile what a hint needs (a hint of a fresh deal)."""
    state = State(TableOptions(players=2), dealer=0)
    state.deal(SplitMix64(0))
    seat = state.to_move
    assert seat is not None
    suggest(state.observation(seat), "en", iterations=2, seconds=0.05)


@cache
def warm_coach() -> None:
    _coach_pool().submit(warm_up)


def page_router(lobby: Callable[[], Lobby]) -> APIRouter:
    """The routes of the page; ``lobby`` gives the running lobby (set by the app's lifespan)."""
    router = APIRouter()
    hinting: set[tuple[str, int]] = set()  # the seats whose hint is being computed

    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @router.get("/", response_class=HTMLResponse)
    async def home() -> FileResponse:
        return index()

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def invite(table_id: str) -> FileResponse:
        return index()

    @router.get("/static/{name:path}")
    async def static(name: str) -> FileResponse:
        path = _static_files().get(name)
        if path is None:
            raise ProtocolError(Code.NO_TABLE, f"no file {name[:60]!r} in the page")
        kind = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "text/plain"
        return FileResponse(path, media_type=kind, headers={"Cache-Control": "no-cache"})

    @router.get("/api/i18n/{lang}")
    async def catalog(lang: str) -> JSONResponse:
        warm_coach()  # every page asks for its catalog first: the first hint is then quick
        lang = _lang(lang)
        return JSONResponse(catalog_payload(lang) | learned_payload(lobby(), lang))

    @router.get("/api/rules/{lang}")
    async def rules(lang: str) -> PlainTextResponse:
        text = rules_source(_lang(lang))
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    @router.post("/api/tables/{table_id}/hint")
    async def hint(
        table_id: str, body: HintIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        lang = _lang(body.lang)
        actor = await lobby().get(table_id)
        obs = seat_observation(actor, authorization)
        no_help_while_rated(actor, "a hint")
        if obs.phase is not Phase.PLAYING or obs.to_move != obs.seat:
            raise ProtocolError(Code.NOT_YOUR_TURN, "a hint is for the seat to move")
        seat = (table_id, obs.seat)
        if seat in hinting:  # one coach for the whole server: one search per seat at a time
            raise ProtocolError(
                Code.BUSY, f"a hint for seat {obs.seat} is being computed: wait for it"
            )
        hinting.add(seat)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(_coach_pool(), hint_json, obs, lang)
        finally:
            hinting.discard(seat)

    @router.get("/api/tables/{table_id}/count")
    async def count(
        table_id: str, lang: str = "en", authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        actor = await lobby().get(table_id)
        obs = seat_observation(actor, authorization)
        no_help_while_rated(actor, "the card count")
        if obs.phase is not Phase.PLAYING:
            raise ProtocolError(Code.NOT_STARTED, "there is no deal in play")
        return count_json(obs, _lang(lang))

    return router
