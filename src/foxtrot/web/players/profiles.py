"""Players' profiles and the leaderboards: public information only.

- ``GET /api/players/{name}``: a display name's profile: the rating (its ordinal and
  uncertainty), its chart over time, rated matches played and won by table size, foxtrots
  made, and the rated matches (date, table size, rules, the others, place, points, rating
  change, links to the table and its public replay).  404 ``no_player`` for an unknown name.
- ``GET /api/leaderboard?players=&min_matches=&page=&per_page=``: the players by rating,
  all of them or those with at least ``min_matches`` rated matches at tables of ``players``.
- ``GET /p/{name}`` and ``GET /leaderboard``: the page (profile.js draws them).

Nothing here reads a hand, a seed or a token: a profile is built from the rating changes,
the seats' names and kinds, and the tables' options.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Final

import sqlalchemy as sa
from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse

from ...skill import ordinal
from ..http.page import STATIC
from ..lobby import Lobby
from ..protocol import Code, ProtocolError
from ..store.account_rows import ACCOUNTS, AccountStore
from ..store.event_log import SEATS, TABLES
from .ratings import CHANGES, RATINGS

#: The rated matches a profile lists (the newest first).
HISTORY: Final = 100


def _rules(config: str | None) -> dict[str, Any]:
    options = json.loads(config or "{}").get("options", {})
    return {key: options[key] for key in sorted(options)}


def profile(engine: sa.Engine, name: str) -> dict[str, Any] | None:
    """The public profile of the display name ``name`` (any case), or None."""
    account = AccountStore(engine).account_named(name)
    if account is None:
        return None
    with engine.connect() as db:
        rating = db.execute(
            sa.select(RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.matches).where(
                RATINGS.c.account_id == account.id
            )
        ).first()
        changes = db.execute(
            sa.select(CHANGES, TABLES.c.config)
            .join(TABLES, TABLES.c.id == CHANGES.c.table_id)
            .where(CHANGES.c.account_id == account.id)
            .order_by(CHANGES.c.created_at.desc())
        ).all()
        shown = changes[:HISTORY]
        tables = [row.table_id for row in shown]
        seats: dict[str, list[dict[str, Any]]] = {table: [] for table in tables}
        if tables:
            for row in db.execute(
                sa.select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.name)
                .where(SEATS.c.table_id.in_(tables))
                .order_by(SEATS.c.table_id, SEATS.c.seat)
            ):
                seats[row.table_id].append({"seat": row.seat, "kind": row.kind, "name": row.name})
        rated_tables = {row.table_id for row in changes}
        linked = db.execute(
            sa.select(SEATS.c.table_id).where(SEATS.c.account_id == account.id)
        ).all()
    unrated = sum(1 for row in linked if row.table_id not in rated_tables)
    by_size: dict[int, dict[str, int]] = {}
    for row in changes:
        size = by_size.setdefault(row.players, {"players": row.players, "played": 0, "won": 0})
        size["played"] += 1
        size["won"] += row.place == 1
    matches = []
    for row in shown:
        before = ordinal(row.mu_before, row.sigma_before)
        after = ordinal(row.mu_after, row.sigma_after)
        matches.append(
            {
                "table": row.table_id,
                "at": row.created_at,
                "players": row.players,
                "rules": _rules(row.config),
                "seat": row.seat,
                "others": [s for s in seats[row.table_id] if s["seat"] != row.seat],
                "place": row.place,
                "points": row.points,
                "foxtrots": row.foxtrots,
                "abandoned": bool(row.abandoned),
                "rating": round(after, 2),
                "change": round(after - before, 2),
                "links": {
                    "table": f"/t/{row.table_id}",
                    "replay": f"/api/tables/{row.table_id}/replay",
                },
            }
        )
    return {
        "name": account.name,
        "joined": account.created_at,
        "rating": None
        if rating is None
        else {
            "rating": round(ordinal(rating.mu, rating.sigma), 2),
            "uncertainty": round(rating.sigma, 2),
            "mu": round(rating.mu, 3),
            "matches": rating.matches,
        },
        "by_size": [by_size[size] for size in sorted(by_size)],
        "foxtrots": sum(row.foxtrots for row in changes),
        "abandoned": sum(1 for row in changes if row.abandoned),
        "unrated_matches": unrated,
        "chart": [
            {"at": row.created_at, "rating": round(ordinal(row.mu_after, row.sigma_after), 2)}
            for row in reversed(changes)
        ],
        "matches": matches,
    }


def leaderboard(
    engine: sa.Engine, players: int | None, min_matches: int, page: int, per_page: int
) -> dict[str, Any]:
    """One page of the players by rating (ordinal, best first; equal ratings by name)."""
    if players is None:
        counted = sa.select(
            RATINGS.c.account_id.label("account_id"), RATINGS.c.matches.label("n")
        ).subquery()
    else:
        counted = (
            sa.select(CHANGES.c.account_id.label("account_id"), sa.func.count().label("n"))
            .where(CHANGES.c.players == players, CHANGES.c.account_id.is_not(None))
            .group_by(CHANGES.c.account_id)
            .subquery()
        )
    score = (RATINGS.c.mu - 3 * RATINGS.c.sigma).label("score")
    query = (
        sa.select(ACCOUNTS.c.name, RATINGS.c.mu, RATINGS.c.sigma, counted.c.n, score)
        .join(RATINGS, RATINGS.c.account_id == ACCOUNTS.c.id)
        .join(counted, counted.c.account_id == ACCOUNTS.c.id)
        .where(counted.c.n >= min_matches)
    )
    with engine.connect() as db:
        total = db.execute(sa.select(sa.func.count()).select_from(query.subquery())).scalar()
        rows = db.execute(
            query.order_by(score.desc(), ACCOUNTS.c.name_key)
            .limit(per_page)
            .offset((page - 1) * per_page)
        ).all()
    first = (page - 1) * per_page
    return {
        "players": players,
        "min_matches": min_matches,
        "page": page,
        "per_page": per_page,
        "total": int(total or 0),
        "entries": [
            {
                "rank": first + i + 1,
                "name": row.name,
                "rating": round(ordinal(row.mu, row.sigma), 2),
                "uncertainty": round(row.sigma, 2),
                "matches": int(row.n),
            }
            for i, row in enumerate(rows)
        ],
    }


def players_router(lobby: Callable[[], Lobby]) -> APIRouter:
    """The profile and leaderboard routes, JSON and page."""
    router = APIRouter()

    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        found = await lobby().db(profile, lobby().store.engine, name[:64])
        if found is None:
            raise ProtocolError(Code.NO_PLAYER, f"no player is called {name[:30]!r}")
        return dict(found)

    @router.get("/api/leaderboard")
    async def board(
        players: Annotated[int | None, Query(ge=2, le=9)] = None,
        min_matches: Annotated[int, Query(ge=0, le=100000)] = 1,
        page: Annotated[int, Query(ge=1, le=100000)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 50,
    ) -> dict[str, Any]:
        found: dict[str, Any] = await lobby().db(
            leaderboard, lobby().store.engine, players, min_matches, page, per_page
        )
        return found

    @router.get("/p/{name}", response_class=HTMLResponse)
    async def profile_page(name: str) -> FileResponse:
        return index()

    @router.get("/leaderboard", response_class=HTMLResponse)
    async def board_page() -> FileResponse:
        return index()

    return router
