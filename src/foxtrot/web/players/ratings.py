"""Ratings of free-for-all tables: openskill's Weng-Lin Plackett-Luce model.

A rated table is one its creator asked to be rated and at which every person is signed in
(web/players/accounts.py); computers may sit at it.  When its match is over, every person's rating
moves by the final order of the match (the winner first, then the others by their totals;
equal totals are equal places): one update for the whole table, whatever its size from 2
to 9.  A rating is ``mu`` and ``sigma``; it is shown as its ordinal ``mu - 3 sigma`` (a
rating the player is very likely above) with ``sigma`` as its uncertainty.

Computers play at fixed ratings, one per level and table size (``computer_rating``): they
take part in the update as players of that rating with a small ``sigma``, and their own new
ratings are thrown away.
A person a computer played for to the end of the match (away past the grace period: the
table's log says ``replaced`` and no ``returned`` after it) is rated by the place his seat
finished, as if he had played it, and his change row says he ``abandoned`` the match.

Once per match: ``RatingStore.apply`` sets ``rated_tables.applied_at`` only where it is
empty, in the same transaction that writes the new ratings, so a restart, a second process
or a second sweep finds the match done and changes nothing.  The sweep (``sweep``) runs at
boot and every few seconds; a match whose process was killed between its last event and
the update is rated by the next sweep of any process.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import sqlalchemy as sa

from ...core import CardPlayed, PlayResult, State, replay, to_record
from ...skill import START, ordinal, places, rate
from ..lobby import Lobby
from ..logs import cause, log
from ..protocol import ProtocolError
from ..store.event_log import EVENTS, SEATS, TABLES
from ..table.learned import LEARNED, is_learned

#: The computers' fixed (mu, sigma), calibrated on two-player duplicate matches to 200 with
#: ``foxtrot tournament --ratings`` (the same model; medium anchored at 25, where a new person
#: starts) and ``benchmarks/rate_tournaments.py`` over those runs and the strength report's
#: 260 hard-greedy matches (benchmarks/results/ratings/, docs/guide/accounts.md): easy 4.3,
#: hard 33.8 (sigma about 2 to 4 each); expert's 6 matches (26 +- 6) do not tell it from
#: hard, so it plays at hard's.  A small sigma: the computers' own updates are thrown away.
COMPUTER_RATINGS: Final = {
    "easy": (4.0, 1.0),
    "medium": (25.0, 1.0),
    "hard": (34.0, 1.0),
    "expert": (34.0, 1.0),
}
#: At 4 players and more hard is not told from medium: duplicate matches against greedy, 64 %
#: of the matches won by either at 4 players (50-76 %, deal margin +2.4, -0.5 to +5.4) and 50 %
#: at 6 (29-71 %); the 4-player rating run put hard at 20.5 +- 7.1 and expert at 25.2 +- 7.2
#: against medium's 25 (docs/reports/strength.md, the ladder).  So there they play at medium's
#: rating, and a person who beats them gains what beating medium gives.  At 3 players hard
#: beats greedy as clearly as at 2 (88 % of the matches won by either): the 2-player figures.
LARGE_TABLE_RATINGS: Final = {
    "easy": (4.0, 1.0),
    "medium": (25.0, 1.0),
    "hard": (25.0, 1.0),
    "expert": (25.0, 1.0),
}
#: The table sizes from which ``LARGE_TABLE_RATINGS`` hold.
LARGE_TABLE: Final = 4
#: The shipped learned level (web/table/learned.py), by table size: placed as the ladder's
#: levels were, from its duplicate matches against greedy (medium) at 2 players, 55.5 % of 400
#: on two sets of decks (50.6-60.3 %; docs/research/training.md).  In the model the ratings
#: come from, the share a level wins against one rated ``d`` above it is
#: ``1 / (1 + exp(-d / c))``; hard's 81.9 %
#: of 260 gave it 33.8 (d = 8.8), so c = 8.8 / logit(0.819) = 5.8, and learned's 55.5 % gives
#: d = 5.8 * logit(0.555) = 1.3: 26.3, kept as 26 (hard's 33.8 is kept as 34).  Where no
#: policy is measured (an operator's ``learned:NAME``, another size) it plays at medium's.
#: At 4 players the shipped policy won 57.5 % of 360 duplicate matches against greedy (52.3-
#: 62.5 %), about what hard wins there, and hard plays at medium's rating at 4 players
#: (``LARGE_TABLE_RATINGS``): so does learned, rather than above hard.
LEARNED_RATINGS: Final = {2: (26.0, 1.0)}


def computer_rating(kind: str, players: int) -> tuple[float, float]:
    """The fixed (mu, sigma) of a computer of level ``kind`` at a table of ``players``; a new
    person's start for an unknown kind.

    >>> computer_rating("hard", 2), computer_rating("hard", 4)
    ((34.0, 1.0), (25.0, 1.0))
    >>> computer_rating("learned", 2), computer_rating("learned:mine", 2)
    ((26.0, 1.0), (25.0, 1.0))
    """
    if is_learned(kind):
        measured = LEARNED_RATINGS if kind == LEARNED else {}
        return measured.get(players, COMPUTER_RATINGS["medium"])
    table = COMPUTER_RATINGS if players < LARGE_TABLE else LARGE_TABLE_RATINGS
    return table.get(kind, START)


def level_ties(players: int) -> tuple[str, ...]:
    """The levels a table of ``players`` cannot tell from the level below: rated the same
    (``computer_rating``).  The lobby says so when one is chosen.

    >>> level_ties(2), level_ties(6)
    (('expert',), ('hard', 'expert'))
    """
    levels = tuple(COMPUTER_RATINGS)
    return tuple(
        level
        for below, level in itertools.pairwise(levels)
        if computer_rating(level, players)[0] <= computer_rating(below, players)[0]
    )


#: The log's words on a person a computer plays for (web/table/actor.py, rated tables only).
AWAY_KINDS: Final = ("replaced", "returned")

_meta = sa.MetaData()
RATINGS = sa.Table(
    "ratings",
    _meta,
    sa.Column("account_id", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float),
    sa.Column("sigma", sa.Float),
    sa.Column("matches", sa.Integer),
    sa.Column("updated_at", sa.Float),
)
RATED = sa.Table(
    "rated_tables",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float),
    sa.Column("applied_at", sa.Float),
    sa.Column("outcome", sa.String(16)),
)
CHANGES = sa.Table(
    "rating_changes",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(32)),
    sa.Column("place", sa.Integer),
    sa.Column("players", sa.Integer),
    sa.Column("points", sa.Integer),
    sa.Column("foxtrots", sa.Integer),
    sa.Column("mu_before", sa.Float),
    sa.Column("sigma_before", sa.Float),
    sa.Column("mu_after", sa.Float),
    sa.Column("sigma_after", sa.Float),
    sa.Column("created_at", sa.Float),
    sa.Column("abandoned", sa.Boolean),  # migration 0005: a computer finished the seat
)


@dataclasses.dataclass(frozen=True, slots=True)
class SeatAt:
    """A seat of a rated table: its kind (``person`` or a level), its account, if any, and
    whether its person abandoned the match (a computer played his seat to the end)."""

    kind: str
    account_id: str | None
    abandoned: bool = False


#: Two accounts' rated matches together count once per this many hours: a match in which two
#: of its accounts already shared a rated match that recently is recorded as ``repeated`` and
#: moves nobody (two accounts of one person, or two friends, cannot farm a rating by playing
#: each other over and over).
PAIR_HOURS: Final = 6.0


class RatingStore:
    """The ratings' rows in the server's database; ``pair_hours``: see ``PAIR_HOURS``."""

    def __init__(self, engine: sa.Engine, pair_hours: float = PAIR_HOURS) -> None:
        self.engine = engine
        self.pair_seconds = pair_hours * 3600.0

    def mark_rated(self, table_id: str) -> None:
        """Note that ``table_id`` is a rated table (at its creation)."""
        with self.engine.begin() as db:
            db.execute(RATED.insert().values(table_id=table_id, created_at=time.time()))

    def is_rated(self, table_id: str) -> bool:
        """Whether the table was created rated."""
        with self.engine.connect() as db:
            found = db.execute(sa.select(RATED.c.table_id).where(RATED.c.table_id == table_id))
            return found.first() is not None

    def claim(self, table_id: str, seat: int, account_id: str) -> bool:
        """Link a guest's seat of a finished table to an account; False if it has one already.

        One statement that changes the row only where no account holds it and the account
        sits nowhere else at that table, so two claims cannot both win.
        """
        with self.engine.begin() as db:
            elsewhere = db.execute(
                sa.select(SEATS.c.seat).where(
                    SEATS.c.table_id == table_id, SEATS.c.account_id == account_id
                )
            ).first()
            if elsewhere is not None:
                return False
            try:
                done = db.execute(
                    SEATS.update()
                    .where(
                        SEATS.c.table_id == table_id,
                        SEATS.c.seat == seat,
                        SEATS.c.kind == "person",
                        SEATS.c.account_id.is_(None),
                    )
                    .values(account_id=account_id)
                )
            except sa.exc.IntegrityError:  # a claim of another seat won meanwhile (0006)
                return False
            return done.rowcount == 1

    def account_at(self, table_id: str, seat: int) -> str | None:
        """The account that sits in a seat, if any."""
        with self.engine.connect() as db:
            return db.execute(
                sa.select(SEATS.c.account_id).where(
                    SEATS.c.table_id == table_id, SEATS.c.seat == seat
                )
            ).scalar()

    def pending(self) -> list[tuple[str, str]]:
        """The rated tables whose match is over (or closed) and not yet rated: id, status."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(RATED.c.table_id, TABLES.c.status)
                .join(TABLES, TABLES.c.id == RATED.c.table_id)
                .where(RATED.c.applied_at.is_(None), TABLES.c.status.in_(("over", "closed")))
                .order_by(RATED.c.created_at)
            ).all()
        return [(row[0], row[1]) for row in rows]

    def seats(self, table_id: str) -> list[SeatAt]:
        """The seats of a table with their accounts, and who abandoned the match.

        A person abandoned it when the log's last word on his seat is ``replaced`` (away
        past the grace period, a computer played for him, and he did not come back before
        the end: ``returned`` is logged only while the match is played), or when most of
        his seat's moves were not his: made by the turn timer or by his replacement (an
        action a person sends carries his action id; one a computer makes for him has none).
        """
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(SEATS.c.kind, SEATS.c.account_id)
                .where(SEATS.c.table_id == table_id)
                .order_by(SEATS.c.seat)
            ).all()
            away: dict[int, bool] = {}
            for seat, kind in db.execute(
                sa.select(EVENTS.c.seat, EVENTS.c.kind)
                .where(EVENTS.c.table_id == table_id, EVENTS.c.kind.in_(AWAY_KINDS))
                .order_by(EVENTS.c.seq)
            ):
                away[seat] = kind == "replaced"
            moves: dict[int, list[int]] = {}  # seat -> [his own, made for him]
            for seat, own, count in db.execute(
                sa.select(EVENTS.c.seat, EVENTS.c.action_id.is_not(None), sa.func.count())
                .where(EVENTS.c.table_id == table_id, EVENTS.c.kind == "action")
                .group_by(EVENTS.c.seat, EVENTS.c.action_id.is_not(None))
            ):
                moves.setdefault(seat, [0, 0])[0 if own else 1] += int(count)
        return [
            SeatAt(
                row[0],
                row[1],
                row[0] == "person" and (away.get(number, False) or _mostly_not_his(moves, number)),
            )
            for number, row in enumerate(rows)
        ]

    def rating(self, account_id: str) -> tuple[float, float, int]:
        """An account's (mu, sigma, rated matches); the start for a new player."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.matches).where(
                    RATINGS.c.account_id == account_id
                )
            ).first()
        return (START[0], START[1], 0) if row is None else (row[0], row[1], row[2])

    def close(self, table_id: str, outcome: str) -> bool:
        """Mark a rated table done without moving a rating (abandoned, or a seat unsigned)."""
        with self.engine.begin() as db:
            done = db.execute(
                RATED.update()
                .where(RATED.c.table_id == table_id, RATED.c.applied_at.is_(None))
                .values(applied_at=time.time(), outcome=outcome)
            )
            return done.rowcount == 1

    def apply(
        self,
        table_id: str,
        seats: Sequence[SeatAt],
        totals: Sequence[int],
        winner: int,
        foxtrots: Sequence[int] | None = None,
    ) -> bool:
        """Rate a finished match once: False if it was rated already (nothing is written).

        One transaction: the table is marked done only where it was not, the players'
        ratings are read (locked on PostgreSQL), moved and written with one change row per
        person's seat.  A match two of whose accounts shared a rated match in the last
        ``pair_seconds`` is marked ``repeated`` instead, and moves nobody (False).
        """
        now = time.time()
        ranks = places(totals, winner)
        with self.engine.begin() as db:
            done = db.execute(
                RATED.update()
                .where(RATED.c.table_id == table_id, RATED.c.applied_at.is_(None))
                .values(applied_at=now, outcome="rated")
            )
            if done.rowcount != 1:
                return False
            accounts = [seat.account_id for seat in seats if seat.account_id is not None]
            if self._met_lately(db, table_id, accounts, now):
                db.execute(
                    RATED.update().where(RATED.c.table_id == table_id).values(outcome="repeated")
                )
                return False
            found = {
                row[0]: (row[1], row[2], row[3])
                for row in db.execute(
                    sa.select(
                        RATINGS.c.account_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.matches
                    )
                    .where(RATINGS.c.account_id.in_(accounts))
                    .with_for_update()
                )
            }
            before = [
                computer_rating(seat.kind, len(seats))
                if seat.account_id is None
                else found.get(seat.account_id, (*START, 0))[:2]
                for seat in seats
            ]
            after = rate(before, ranks)
            for number, seat in enumerate(seats):
                if seat.account_id is None:
                    continue
                mu, sigma = after[number]
                matches = found.get(seat.account_id, (0.0, 0.0, 0))[2] + 1
                values: dict[str, Any] = {
                    "mu": mu,
                    "sigma": sigma,
                    "matches": matches,
                    "updated_at": now,
                }
                if seat.account_id in found:
                    db.execute(
                        RATINGS.update()
                        .where(RATINGS.c.account_id == seat.account_id)
                        .values(**values)
                    )
                else:
                    db.execute(RATINGS.insert().values(account_id=seat.account_id, **values))
                db.execute(
                    CHANGES.insert().values(
                        table_id=table_id,
                        seat=number,
                        account_id=seat.account_id,
                        place=ranks[number],
                        players=len(seats),
                        points=totals[number],
                        foxtrots=foxtrots[number] if foxtrots is not None else 0,
                        mu_before=before[number][0],
                        sigma_before=before[number][1],
                        mu_after=mu,
                        sigma_after=sigma,
                        created_at=now,
                        abandoned=seat.abandoned,
                    )
                )
        return True

    def _met_lately(
        self, db: sa.Connection, table_id: str, accounts: Sequence[str], now: float
    ) -> bool:
        """Whether two of ``accounts`` shared a rated match within ``pair_seconds``."""
        if self.pair_seconds <= 0 or len(accounts) < 2:
            return False
        mine, theirs = CHANGES.alias("mine"), CHANGES.alias("theirs")
        found = db.execute(
            sa.select(mine.c.table_id)
            .join(
                theirs,
                (theirs.c.table_id == mine.c.table_id) & (theirs.c.seat != mine.c.seat),
            )
            .where(
                mine.c.table_id != table_id,
                mine.c.account_id.in_(accounts),
                theirs.c.account_id.in_(accounts),
                mine.c.account_id != theirs.c.account_id,
                mine.c.created_at >= now - self.pair_seconds,
            )
            .limit(1)
        ).first()
        return found is not None

    def result(self, table_id: str) -> tuple[str | None, list[dict[str, Any]]] | None:
        """A rated table's outcome (rated, abandoned, unsigned, repeated; None while it is not
        done) and its changes seat by seat (public: names, places, ratings); None if no rated
        table has this id.

        One statement, so one snapshot: the sweep writes the outcome with the changes in one
        transaction, and two reads could straddle that commit (an outcome of None with
        changes, or "rated" with none).
        """
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(RATED.c.outcome, CHANGES, SEATS.c.name)
                .select_from(
                    RATED.outerjoin(CHANGES, CHANGES.c.table_id == RATED.c.table_id).outerjoin(
                        SEATS,
                        (SEATS.c.table_id == CHANGES.c.table_id) & (SEATS.c.seat == CHANGES.c.seat),
                    )
                )
                .where(RATED.c.table_id == table_id)
                .order_by(CHANGES.c.seat)
            ).all()
        if not rows:
            return None
        outcome = None if rows[0].outcome is None else str(rows[0].outcome)
        return outcome, [change_json(row) for row in rows if row.seat is not None]


def _mostly_not_his(moves: dict[int, list[int]], seat: int) -> bool:
    """Whether more than half of a seat's moves were made for it (the timer, a computer)."""
    own, made_for = moves.get(seat, [0, 0])
    return made_for > own


def change_json(row: Any) -> dict[str, Any]:
    """One rating change as the API gives it: the ordinals and uncertainties before and after."""
    before = ordinal(row.mu_before, row.sigma_before)
    after = ordinal(row.mu_after, row.sigma_after)
    return {
        "table": row.table_id,
        "seat": row.seat,
        "name": row.name,
        "place": row.place,
        "players": row.players,
        "points": row.points,
        "before": round(before, 2),
        "after": round(after, 2),
        "change": round(after - before, 2),
        "uncertainty": round(row.sigma_after, 2),
        "abandoned": bool(row.abandoned),
        "at": row.created_at,
    }


def foxtrots_made(state: State) -> list[int]:
    """How many foxtrots (single or double) each seat made in the whole match."""
    made = [0] * state.players
    for step in replay(to_record(state)):
        for event in step.events:
            if isinstance(event, CardPlayed) and event.result in FOXTROTS:
                made[event.seat] += 1
    return made


FOXTROTS: Final = (PlayResult.FOXTROT, PlayResult.DOUBLE_FOXTROT)


#: A match whose rating failed is tried again after this many seconds, doubled at each
#: failure up to ``RETRY_MAX``: a match that cannot be rated costs one try now and then,
#: never a loop, and never holds up another match.
RETRY_FIRST: Final = 2.0
RETRY_MAX: Final = 600.0


class Retries:
    """The matches whose rating failed in this process, and when each may be tried again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failed: dict[str, tuple[int, float]] = {}  # table -> (failures, next try)

    def due(self, table_id: str) -> bool:
        """Whether the match may be tried now (never failed, or its wait is over)."""
        found = self.failed.get(table_id)
        return found is None or self.clock() >= found[1]

    def fail(self, table_id: str) -> float:
        """Note a failure; the seconds until the next try."""
        count = self.failed.get(table_id, (0, 0.0))[0] + 1
        wait = min(RETRY_MAX, RETRY_FIRST * 2.0 ** min(count - 1, 30))
        self.failed[table_id] = (count, self.clock() + wait)
        return wait

    def done(self, table_id: str) -> None:
        """The match was rated (or closed): forget it."""
        self.failed.pop(table_id, None)


async def sweep(lobby: Lobby, store: RatingStore, retries: Retries | None = None) -> int:
    """Rate every rated match that is over and not rated yet; how many this call rated.

    A rated table closed without an outcome is marked ``abandoned``; one where no seat has
    an account any more (every person deleted his) ``unsigned``; neither moves a rating.  A
    person's seat whose account was deleted (a former player) plays at a new player's
    rating, and the others are rated as usual.  Each match is rated in its own transaction:
    one that fails is logged with its cause, tried again later (``retries``), and the others
    are rated all the same.
    """
    retries = retries if retries is not None else Retries()
    count = 0
    for table_id, status in await lobby.db(store.pending):
        if not retries.due(table_id):
            continue
        try:
            count += await _rate_one(lobby, store, table_id, status)
        except Exception as error:  # logged with its cause; tried again after a wait
            wait = retries.fail(table_id)
            log.warning(
                "rating failed",
                extra={
                    "table": table_id,
                    "seat": None,
                    "action": "rate",
                    "cause": cause(error),
                    "retry_seconds": wait,
                },
            )
        else:
            retries.done(table_id)
    return count


async def _rate_one(lobby: Lobby, store: RatingStore, table_id: str, status: str) -> int:
    """Rate (or close) one match; 1 if this call rated it."""
    seats: list[SeatAt] = await lobby.db(store.seats, table_id)
    if all(seat.account_id is None for seat in seats):  # every person's account deleted
        await lobby.db(store.close, table_id, "unsigned")
        return 0
    try:
        actor = await lobby.get(table_id)
    except ProtocolError:
        actor = None
    state = actor.state if actor is not None else None
    outcome = state.outcome if state is not None else None
    if outcome is None:
        if status == "closed":
            await lobby.db(store.close, table_id, "abandoned")
        return 0
    made = foxtrots_made(state) if state is not None else None
    if await lobby.db(store.apply, table_id, seats, outcome.totals, outcome.winner, made):
        log.info("rated", extra={"table": table_id, "seat": None, "action": "rate"})
        return 1
    return 0


async def sweep_loop(lobby: Lobby, store: RatingStore, seconds: float) -> None:
    """Sweep at once, then every ``seconds``, until cancelled; a failed sweep is logged
    with its cause (the matches' own failures are logged and retried by ``sweep``)."""
    retries = Retries()
    while True:
        try:
            await sweep(lobby, store, retries)
        except Exception as error:  # the list of pending matches could not be read
            log.warning(
                "rating sweep failed",
                extra={"table": None, "seat": None, "action": "rate", "cause": cause(error)},
            )
        await asyncio.sleep(seconds)
