"""The bot accounts' rows: bots, the seats they took, their rating pool.

Beside the accounts, in the same database and the same discipline: each method is one
transaction, run from the lobby's database thread.  A bot's token is stored only as its
SHA-256 (a copy of the database lets no program play as the bot); the token itself is
returned once, by ``create``.  Bots are rated in ``bot_ratings``, a pool of their own: no
method here reads or writes the people's ``ratings``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from typing import Any, Final

import sqlalchemy as sa

from ...skill import START
from ..players.names import skeleton
from .account_rows import ACCOUNTS, name_key

#: A bot token's prefix: a token pasted where it should not be is recognised at a glance
#: (and by secret scanners); 256 random bits follow.
TOKEN_PREFIX: Final = "fxbot_"
#: Live (unrevoked) bots an account may have.
BOTS_PER_ACCOUNT: Final = 5

_meta = sa.MetaData()
BOTS = sa.Table(
    "bots",
    _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("owner_id", sa.String(32)),
    sa.Column("name", sa.String(24)),
    sa.Column("name_skeleton", sa.String(96)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("created_at", sa.Float),
    sa.Column("revoked_at", sa.Float),
    sa.Column("used_at", sa.Float),
)
BOT_SEATS = sa.Table(
    "bot_seats",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("bot_id", sa.String(32)),
    sa.Column("created_at", sa.Float),
    sa.Column("rated_at", sa.Float),
)
BOT_INVITES = sa.Table(
    "bot_invites",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("bot_id", sa.String(32), primary_key=True),
    sa.Column("invited_by", sa.String(32)),
    sa.Column("created_at", sa.Float),
)
BOT_RATINGS = sa.Table(
    "bot_ratings",
    _meta,
    sa.Column("bot_id", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float),
    sa.Column("sigma", sa.Float),
    sa.Column("matches", sa.Integer),
    sa.Column("updated_at", sa.Float),
)


def token_hash(token: str) -> str:
    """The stored form of a bot token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh bot token: the prefix and 256 random bits, URL-safe.

    >>> token = new_token()
    >>> token.startswith(TOKEN_PREFIX), len(token) > 40, token != new_token()
    (True, True, True)
    """
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


@dataclasses.dataclass(frozen=True, slots=True)
class BotAccount:
    """A bot as its owner sees it: never its token."""

    id: str
    owner_id: str
    name: str
    created_at: float
    revoked_at: float | None
    used_at: float | None

    @property
    def live(self) -> bool:
        """Not revoked: its token opens a connection."""
        return self.revoked_at is None

    def to_json(self) -> dict[str, Any]:
        """The bot for an API answer (no token, no hash)."""
        return {
            "id": self.id,
            "name": self.name,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
            "used_at": self.used_at,
        }


class BotNameTakenError(ValueError):
    """An account or another bot has this name, or one that looks like it."""


class TooManyBotsError(ValueError):
    """The account has ``BOTS_PER_ACCOUNT`` live bots already."""


def _bot(row: Any) -> BotAccount:
    return BotAccount(row.id, row.owner_id, row.name, row.created_at, row.revoked_at, row.used_at)


class BotStore:
    """The bots' rows in the server's database."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def create(self, owner_id: str, name: str) -> tuple[BotAccount, str]:
        """A new bot of ``owner_id`` and its token (the only time the token exists here).

        ``BotNameTakenError`` when an account or a bot has the name or a look-alike of it;
        ``TooManyBotsError`` past ``BOTS_PER_ACCOUNT`` live bots.
        """
        token = new_token()
        now = time.time()
        bot = BotAccount(secrets.token_hex(16), owner_id, name, now, None, None)
        shape = skeleton(name)
        with self.engine.begin() as db:
            clash = (
                db.execute(
                    sa.select(ACCOUNTS.c.id)
                    .where(
                        (ACCOUNTS.c.name_key == name_key(name))
                        | (ACCOUNTS.c.name_skeleton == shape)
                    )
                    .limit(1)
                ).first()
                or db.execute(
                    sa.select(BOTS.c.id).where(BOTS.c.name_skeleton == shape).limit(1)
                ).first()
            )
            if clash is not None:
                raise BotNameTakenError(name)
            live = db.execute(
                sa.select(sa.func.count())
                .select_from(BOTS)
                .where(BOTS.c.owner_id == owner_id, BOTS.c.revoked_at.is_(None))
            ).scalar_one()
            if live >= BOTS_PER_ACCOUNT:
                raise TooManyBotsError(owner_id)
            db.execute(
                BOTS.insert().values(
                    id=bot.id,
                    owner_id=owner_id,
                    name=name,
                    name_skeleton=shape,
                    token_hash=token_hash(token),
                    created_at=now,
                )
            )
        return bot, token

    def owned(self, owner_id: str) -> list[BotAccount]:
        """The account's bots, live and revoked, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(BOTS).where(BOTS.c.owner_id == owner_id).order_by(BOTS.c.created_at)
            ).all()
        return [_bot(row) for row in rows]

    def revoke(self, owner_id: str, bot_id: str) -> BotAccount | None:
        """Revoke the owner's bot (its token opens nothing from now on); None if it is not
        his.  Revoking twice keeps the first time."""
        with self.engine.begin() as db:
            db.execute(
                BOTS.update()
                .where(
                    BOTS.c.id == bot_id, BOTS.c.owner_id == owner_id, BOTS.c.revoked_at.is_(None)
                )
                .values(revoked_at=time.time())
            )
            row = db.execute(
                sa.select(BOTS).where(BOTS.c.id == bot_id, BOTS.c.owner_id == owner_id)
            ).first()
        return None if row is None else _bot(row)

    def by_token(self, token: str) -> BotAccount | None:
        """The bot this token is the token of (revoked or not), or None.

        The lookup is by the token's hash; the stored hash is then compared in constant
        time, so the answer's timing tells nothing about how much of a guess was right.
        """
        wanted = token_hash(token)
        with self.engine.begin() as db:
            row = db.execute(sa.select(BOTS).where(BOTS.c.token_hash == wanted)).first()
            if row is None or not hmac.compare_digest(str(row.token_hash), wanted):
                return None
            if row.revoked_at is None:
                db.execute(BOTS.update().where(BOTS.c.id == row.id).values(used_at=time.time()))
        return _bot(row)

    def live_named(self, name: str) -> BotAccount | None:
        """The live bot of this name (any case), or None."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(BOTS).where(
                    sa.func.lower(BOTS.c.name) == name.lower(), BOTS.c.revoked_at.is_(None)
                )
            ).first()
        return None if row is None else _bot(row)

    def invite(self, table_id: str, bot_id: str, account_id: str) -> None:
        """A person at a rated table invites a bot to it (inviting twice is once)."""
        with self.engine.begin() as db:
            found = db.execute(
                sa.select(BOT_INVITES.c.bot_id).where(
                    BOT_INVITES.c.table_id == table_id, BOT_INVITES.c.bot_id == bot_id
                )
            ).first()
            if found is None:
                db.execute(
                    BOT_INVITES.insert().values(
                        table_id=table_id,
                        bot_id=bot_id,
                        invited_by=account_id,
                        created_at=time.time(),
                    )
                )

    def invited(self, table_id: str, bot_id: str) -> bool:
        """Whether a person at the table invited the bot to it."""
        with self.engine.connect() as db:
            return (
                db.execute(
                    sa.select(BOT_INVITES.c.bot_id).where(
                        BOT_INVITES.c.table_id == table_id, BOT_INVITES.c.bot_id == bot_id
                    )
                ).first()
                is not None
            )

    # ------------------------------------------------------------- seats

    def seat_of(self, table_id: str, bot_id: str) -> int | None:
        """The seat the bot holds at the table, or None."""
        with self.engine.connect() as db:
            found = db.execute(
                sa.select(BOT_SEATS.c.seat).where(
                    BOT_SEATS.c.table_id == table_id, BOT_SEATS.c.bot_id == bot_id
                )
            ).scalar()
        return None if found is None else int(found)

    def sat(self, table_id: str, seat: int, bot_id: str) -> None:
        """Note that the bot took this seat."""
        with self.engine.begin() as db:
            db.execute(
                BOT_SEATS.insert().values(
                    table_id=table_id, seat=seat, bot_id=bot_id, created_at=time.time()
                )
            )

    def unrated(self) -> list[str]:
        """The tables with a bot's seat not yet rated in the bots' pool."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(BOT_SEATS.c.table_id).where(BOT_SEATS.c.rated_at.is_(None)).distinct()
            ).all()
        return [str(row[0]) for row in rows]

    def bots_at(self, table_id: str) -> dict[int, str]:
        """The bots' seats at a table: seat -> bot id."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(BOT_SEATS.c.seat, BOT_SEATS.c.bot_id).where(
                    BOT_SEATS.c.table_id == table_id
                )
            ).all()
        return {int(row[0]): str(row[1]) for row in rows}

    def done(self, table_id: str) -> bool:
        """Mark a table's bot seats rated without rating them (the match ended without an
        outcome); False if they were already."""
        with self.engine.begin() as db:
            marked = db.execute(
                BOT_SEATS.update()
                .where(BOT_SEATS.c.table_id == table_id, BOT_SEATS.c.rated_at.is_(None))
                .values(rated_at=time.time())
            )
            return marked.rowcount > 0

    # ------------------------------------------------------------- the bots' pool

    def rating(self, bot_id: str) -> tuple[float, float, int] | None:
        """The bot's (mu, sigma, matches) in the bots' pool, or None before its first."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(BOT_RATINGS.c.mu, BOT_RATINGS.c.sigma, BOT_RATINGS.c.matches).where(
                    BOT_RATINGS.c.bot_id == bot_id
                )
            ).first()
        return None if row is None else (float(row[0]), float(row[1]), int(row[2]))

    def apply(
        self,
        table_id: str,
        before_of: Sequence[tuple[float, float] | None],
        rate: Any,
    ) -> bool:
        """Rate a finished table's bots once; False if it was done already.

        ``before_of[seat]`` is a fixed rating for a seat that is not a bot's (a computer's
        level, a person at a new player's), None for a bot's seat, whose rating is read
        here (locked on PostgreSQL); ``rate(before)`` gives every seat's new rating.  Only
        the bots' rows are written: nobody else's rating moves.
        """
        now = time.time()
        with self.engine.begin() as db:
            marked = db.execute(
                BOT_SEATS.update()
                .where(BOT_SEATS.c.table_id == table_id, BOT_SEATS.c.rated_at.is_(None))
                .values(rated_at=now)
            )
            if marked.rowcount == 0:
                return False
            seats = {
                int(row[0]): str(row[1])
                for row in db.execute(
                    sa.select(BOT_SEATS.c.seat, BOT_SEATS.c.bot_id).where(
                        BOT_SEATS.c.table_id == table_id
                    )
                )
            }
            found = {
                str(row[0]): (float(row[1]), float(row[2]), int(row[3]))
                for row in db.execute(
                    sa.select(
                        BOT_RATINGS.c.bot_id,
                        BOT_RATINGS.c.mu,
                        BOT_RATINGS.c.sigma,
                        BOT_RATINGS.c.matches,
                    )
                    .where(BOT_RATINGS.c.bot_id.in_(list(seats.values())))
                    .with_for_update()
                )
            }
            before: list[tuple[float, float]] = []
            for seat, fixed in enumerate(before_of):
                if seat in seats:
                    mu, sigma, _matches = found.get(seats[seat], (*START, 0))
                    before.append((mu, sigma))
                else:
                    before.append(fixed if fixed is not None else START)
            after = rate(before)
            for seat, bot_id in seats.items():
                mu, sigma = after[seat]
                matches = found.get(bot_id, (0.0, 0.0, 0))[2] + 1
                values = {"mu": mu, "sigma": sigma, "matches": matches, "updated_at": now}
                if bot_id in found:
                    db.execute(
                        BOT_RATINGS.update().where(BOT_RATINGS.c.bot_id == bot_id).values(**values)
                    )
                else:
                    db.execute(BOT_RATINGS.insert().values(bot_id=bot_id, **values))
        return True
