"""Rated tables in the HTTP routes: who may create and join one, and its results.

A rated table is created by a signed-in person (``rated: true`` with the session cookie and
its CSRF token) and has at least one person's seat; each of its persons' seats is taken by
a signed-in account, once per account, under the account's display name (the name in the
join request is ignored).  Guests keep every other table exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Header, Request

from ..lobby import Lobby
from ..protocol import Code, CreateTable, ProtocolError
from ..store.account_rows import Account
from ..table.actor import TableActor
from .accounts import Accounts
from .ratings import RatingStore


def no_help_while_rated(actor: TableActor, what: str) -> None:
    """Refuse a hint, a card count or a review at a rated table before its match ends.

    A rating should measure the player's own play: the coach's advice, the count of the
    cards gone and the review's verdicts on earlier deals are help another player at the
    table does not get from his opponent.  Once the match is over (or closed) they are open
    again.  ``rated_table`` (403).
    """
    if actor.config.get("rated") and actor.status not in ("over", "closed"):
        raise ProtocolError(
            Code.RATED_TABLE, f"{what}: not at a rated table before its match is over"
        )


async def rated_create_check(
    accounts: Accounts, body: CreateTable, request: Request, csrf: str | None
) -> Account:
    """The account creating a rated table; refused when signed out or without a person."""
    session, _id = await accounts.acting(request, csrf)
    if body.seats is not None and all(seat.kind != "person" for seat in body.seats):
        raise ProtocolError(Code.BAD_OPTIONS, "rated: a rated table needs a person's seat")
    return session.account


async def rated_join_check(
    accounts: Accounts, table_id: str, request: Request, csrf: str | None
) -> Account | None:
    """The account joining a rated table (None: the table is not rated, anyone may join)."""
    store = RatingStore(accounts.store.engine)
    if not await accounts.db(store.is_rated, table_id):
        return None
    session, _id = await accounts.acting(request, csrf)
    return session.account  # one seat per account: checked and linked by the join itself


async def rated_rematch_check(
    accounts: Accounts, actor: TableActor, token: str, request: Request, csrf: str | None
) -> Account | None:
    """The account asking for (or joining) the rematch of a rated table; None: not rated.

    The rematch of a rated table is rated too, so each of its persons comes signed in (the
    session cookie and its CSRF token) as the account that held the seat of the token.
    """
    store = RatingStore(accounts.store.engine)
    if not await accounts.db(store.is_rated, actor.id):
        return None
    session, _id = await accounts.acting(request, csrf)
    seat = actor.seat_of(token)
    if seat is None:
        raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat of this table")
    if await accounts.db(store.account_at, actor.id, seat) != session.account.id:
        raise ProtocolError(
            Code.BAD_TOKEN, "this seat was another account's: sign in as the one who played it"
        )
    return session.account


def rating_router(lobby: Callable[[], Lobby], accounts: Accounts) -> APIRouter:
    """A rated table's rating changes; a guest's claim of a finished match's seat."""
    router = APIRouter()

    @router.post("/api/tables/{table_id}/claim")
    async def claim(
        table_id: str,
        request: Request,
        authorization: str | None = Header(None),
        x_csrf_token: str | None = Header(None),
    ) -> dict[str, Any]:
        """A guest who signed in after his match keeps its seat in his account.

        The seat token proves the seat, the session (cookie and CSRF token) the account;
        the match must be over.  The seat keeps the name it was played under.
        """
        session, _id = await accounts.acting(request, x_csrf_token)
        token = (
            authorization[7:].strip()
            if authorization and authorization[:7].lower() == "bearer "
            else None
        )
        if not token:
            raise ProtocolError(Code.NO_TOKEN, "send the seat token as Authorization: Bearer")
        actor = await lobby().get(table_id)
        seat = actor.seat_of(token)
        if seat is None:
            raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
        if actor.status not in ("over", "closed"):
            raise ProtocolError(Code.NOT_FINISHED, "a seat is claimed once the match is over")
        store = RatingStore(lobby().store.engine)
        if not await lobby().db(store.claim, table_id, seat, session.account.id):
            raise ProtocolError(
                Code.SEAT_TAKEN, "this seat, or another seat of this table, is an account's already"
            )
        return {"table": table_id, "seat": seat, "claimed": True}

    @router.get("/api/tables/{table_id}/ratings")
    async def changes(table_id: str) -> dict[str, Any]:
        store = RatingStore(lobby().store.engine)
        result = await lobby().db(store.result, table_id)
        if result is None:
            raise ProtocolError(Code.NO_TABLE, "no rated table has this id")
        outcome, found = result
        return {"table": table_id, "rated": bool(found), "outcome": outcome, "changes": found}

    return router
