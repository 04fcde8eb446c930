"""The deal of the day's rows: each day's seeds, commitments and benchmark lines; the plays.

Every call runs on the lobby's database thread.  A deck's seed is drawn once: the first
request of a day inserts it, a second that races it reads the stored one (the primary key).
An account's second play of a day's deck is refused by the unique constraint
(``uq_daily_plays_account``), so two requests, two processes or a retry never make two.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import sqlalchemy as sa

from .. import fair

_meta = sa.MetaData()
DECKS = sa.Table(
    "daily_decks",
    _meta,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("variant", sa.String(16), primary_key=True),
    sa.Column("seed", sa.String(64)),
    sa.Column("commitment", sa.String(64)),
    sa.Column("created_at", sa.Float),
    sa.Column("hard_score", sa.Integer),
    sa.Column("hard_record", sa.Text),
)
PLAYS = sa.Table(
    "daily_plays",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("day", sa.String(10)),
    sa.Column("variant", sa.String(16)),
    sa.Column("account_id", sa.String(32)),
    sa.Column("name", sa.String(64)),
    sa.Column("ranked", sa.Boolean),
    sa.Column("score", sa.Integer),
    sa.Column("created_at", sa.Float),
)


class AlreadyPlayedError(Exception):
    """The account has played this day's deck already."""


@dataclasses.dataclass(frozen=True, slots=True)
class Deck:
    """One day's deck of one variant as the server keeps it (``seed`` is secret until revealed)."""

    day: str
    variant: str
    seed: bytes
    commitment: str
    hard_score: int | None
    hard_record: dict[str, Any] | None


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """One play of a day's deck."""

    table_id: str
    day: str
    variant: str
    account_id: str | None
    name: str
    ranked: bool
    score: int | None


class DailyRows:
    """The deal of the day's two tables in the server's database."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def deck(self, day: str, variant: str) -> Deck:
        """The day's deck of ``variant``; its seed drawn and committed now if it is new."""
        with self.engine.begin() as db:
            row = db.execute(
                sa.select(DECKS).where(DECKS.c.day == day, DECKS.c.variant == variant)
            ).first()
        if row is None:
            seed = fair.new_seed()
            try:
                with self.engine.begin() as db:
                    db.execute(
                        DECKS.insert().values(
                            day=day,
                            variant=variant,
                            seed=seed.hex(),
                            commitment=fair.commitment(seed),
                            created_at=time.time(),
                        )
                    )
            except sa.exc.IntegrityError:  # another request drew it first: its seed stands
                pass
            return self.deck(day, variant)
        record = json.loads(row.hard_record) if row.hard_record else None
        return Deck(day, variant, bytes.fromhex(row.seed), row.commitment, row.hard_score, record)

    def set_benchmark(self, day: str, variant: str, score: int, record: dict[str, Any]) -> None:
        """Store the benchmark line once (a second computation of it changes nothing)."""
        with self.engine.begin() as db:
            db.execute(
                DECKS.update()
                .where(DECKS.c.day == day, DECKS.c.variant == variant, DECKS.c.hard_score.is_(None))
                .values(hard_score=score, hard_record=json.dumps(record))
            )

    def add_play(self, play: Play) -> None:
        """Record a play; ``AlreadyPlayedError`` if the account has a play of that deck already."""
        try:
            with self.engine.begin() as db:
                db.execute(
                    PLAYS.insert().values(dataclasses.asdict(play) | {"created_at": time.time()})
                )
        except sa.exc.IntegrityError:
            raise AlreadyPlayedError from None

    def account_play(self, day: str, variant: str, account_id: str) -> Play | None:
        """The account's play of the day's deck, if any."""
        with self.engine.begin() as db:
            row = db.execute(
                sa.select(PLAYS).where(
                    PLAYS.c.day == day,
                    PLAYS.c.variant == variant,
                    PLAYS.c.account_id == account_id,
                )
            ).first()
        return _play(row) if row is not None else None

    def play(self, table_id: str) -> Play | None:
        """A play by its table."""
        with self.engine.begin() as db:
            row = db.execute(sa.select(PLAYS).where(PLAYS.c.table_id == table_id)).first()
        return _play(row) if row is not None else None

    def plays(self, day: str, variant: str) -> list[Play]:
        """Every play of the day's deck, in the order they began."""
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(PLAYS)
                .where(PLAYS.c.day == day, PLAYS.c.variant == variant)
                .order_by(PLAYS.c.created_at)
            ).all()
        return [_play(row) for row in rows]

    def set_score(self, table_id: str, score: int) -> None:
        """A finished play's score."""
        with self.engine.begin() as db:
            db.execute(PLAYS.update().where(PLAYS.c.table_id == table_id).values(score=score))


def _play(row: Any) -> Play:
    return Play(
        row.table_id, row.day, row.variant, row.account_id, row.name, bool(row.ranked), row.score
    )
