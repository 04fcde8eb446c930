"""The accounts' rows: accounts, passkeys, sessions and pending challenges.

Beside the event log, in the same database and the same transaction discipline: each
method is one transaction, run from the lobby's database thread.  A session id and a
challenge live in rows, so every process of a cluster honours them; only the SHA-256 of
a session id is stored (a copy of the database opens no session).  Nothing here checks a
signature: web/players/accounts.py does that with the ``webauthn`` package before it writes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import time
from typing import Any, Final

import sqlalchemy as sa

from ..players.names import skeleton
from .event_log import EVENTS, SEATS

#: What a deleted account's past seats are called from then on.
FORMER_PLAYER: Final = "a former player"

_meta = sa.MetaData()
ACCOUNTS = sa.Table(
    "accounts",
    _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(24)),
    sa.Column("name_key", sa.String(96)),
    sa.Column("name_skeleton", sa.String(96)),  # migration 0007: web/players/names.py
    sa.Column("lang", sa.String(8)),
    sa.Column("created_at", sa.Float),
)
PASSKEYS = sa.Table(
    "passkeys",
    _meta,
    sa.Column("id", sa.String(1400), primary_key=True),
    sa.Column("account_id", sa.String(32)),
    sa.Column("public_key", sa.LargeBinary),
    sa.Column("sign_count", sa.BigInteger),
    sa.Column("transports", sa.Text),
    sa.Column("created_at", sa.Float),
    sa.Column("used_at", sa.Float),
)
SESSIONS = sa.Table(
    "sessions",
    _meta,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32)),
    sa.Column("csrf", sa.String(64)),
    sa.Column("created_at", sa.Float),
    sa.Column("expires_at", sa.Float),
)
CHALLENGES = sa.Table(
    "challenges",
    _meta,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("challenge", sa.String(128)),
    sa.Column("purpose", sa.String(16)),
    sa.Column("account_id", sa.String(32)),
    sa.Column("name", sa.String(24)),
    sa.Column("lang", sa.String(8)),
    sa.Column("client", sa.String(64)),
    sa.Column("created_at", sa.Float),
    sa.Column("expires_at", sa.Float),
)


class NameTakenError(ValueError):
    """Another account already has this display name (whatever its letters' case)."""


class PasskeyTakenError(ValueError):
    """This credential is already stored (the same passkey registered twice)."""


class LastPasskeyError(ValueError):
    """The passkey is the account's last one: delete the account instead."""


def name_key(name: str) -> str:
    """The form two display names are compared in: "Anna" and "ANNA" are one name."""
    return name.strip().casefold()


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id."""
    return hashlib.sha256(session_id.encode()).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """An account as the server uses it."""

    id: str
    name: str
    lang: str
    created_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class Passkey:
    """One credential of an account (its public key; the private key never leaves the device)."""

    id: str
    account_id: str
    public_key: bytes
    sign_count: int
    transports: list[str]
    created_at: float
    used_at: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: its account and the token its state-changing requests must echo."""

    account: Account
    csrf: str
    expires_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class Challenge:
    """A ceremony under way: the challenge the authenticator must sign, and for what."""

    id: str
    challenge: str
    purpose: str
    account_id: str | None
    name: str | None
    lang: str | None


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.lang, row.created_at)


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.id,
        row.account_id,
        bytes(row.public_key),
        int(row.sign_count),
        list(json.loads(row.transports)),
        row.created_at,
        row.used_at,
    )


class AccountStore:
    """The accounts' rows in the server's database (``engine``: the event log's engine)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------- challenges

    def open_challenge(
        self,
        challenge: str,
        purpose: str,
        client: str,
        *,
        seconds: float,
        account_id: str | None = None,
        name: str | None = None,
        lang: str | None = None,
        keep: float = 0.0,
    ) -> str:
        """Store a challenge for ``seconds``; its id (what the page sends back with the answer).

        ``keep``: the rows are deleted only once expired *and* older than this, the longest
        window a limit counts them in (``recent_challenges``): a challenge valid for 5
        minutes still counts against a 10-minute limit until its 10 minutes are over.
        """
        now = time.time()
        ident = secrets.token_urlsafe(24)
        with self.engine.begin() as db:
            db.execute(
                CHALLENGES.delete().where(
                    CHALLENGES.c.expires_at < now, CHALLENGES.c.created_at < now - keep
                )
            )
            db.execute(
                CHALLENGES.insert().values(
                    id=ident,
                    challenge=challenge,
                    purpose=purpose,
                    account_id=account_id,
                    name=name,
                    lang=lang,
                    client=client[:64],
                    created_at=now,
                    expires_at=now + seconds,
                )
            )
        return ident

    def recent_challenges(self, client: str, purpose: str, seconds: float) -> int:
        """How many ceremonies of ``purpose`` this address began in the last ``seconds``.

        Counted in the database, so a limit holds across every process of a cluster.
        Used challenges are kept until they expire for this count.
        """
        since = time.time() - seconds
        with self.engine.connect() as db:
            found = db.execute(
                sa.select(sa.func.count())
                .select_from(CHALLENGES)
                .where(
                    CHALLENGES.c.client == client[:64],
                    CHALLENGES.c.purpose == purpose,
                    CHALLENGES.c.created_at >= since,
                )
            ).scalar()
        return int(found or 0)

    def take_challenge(self, ident: str, purpose: str) -> Challenge | None:
        """The challenge ``ident`` of ``purpose`` if it has not expired; usable once only.

        The row's challenge is blanked in the same transaction that reads it (the row
        stays for the rate limit's count), so one answer cannot be replayed.
        """
        now = time.time()
        with self.engine.begin() as db:
            row = db.execute(
                sa.select(CHALLENGES).where(
                    CHALLENGES.c.id == ident,
                    CHALLENGES.c.purpose == purpose,
                    CHALLENGES.c.expires_at >= now,
                    CHALLENGES.c.challenge != "",
                )
            ).first()
            if row is None:
                return None
            done = db.execute(
                CHALLENGES.update()
                .where(CHALLENGES.c.id == ident, CHALLENGES.c.challenge != "")
                .values(challenge="")
            )
            if done.rowcount != 1:  # another process took it first
                return None
        return Challenge(row.id, row.challenge, row.purpose, row.account_id, row.name, row.lang)

    # ------------------------------------------------------------- accounts

    def name_free(self, name: str) -> bool:
        """Whether no account has this display name, nor one that looks like it."""
        return self.name_taken_by(name) is None

    def name_taken_by(self, name: str) -> str | None:
        """The name of an account whose name is ``name`` or looks like it (its skeleton), or
        None when the name is free."""
        with self.engine.connect() as db:
            return _taken_by(db, name)

    def create_account(self, account_id: str, name: str, lang: str, passkey: Passkey) -> Account:
        """A new account with its first passkey, in one transaction.

        ``PasskeyTakenError`` if the passkey is stored already (a device that registers a
        credential it holds again: the answer says so, not that the name is taken);
        ``NameTakenError`` if the name is taken.
        """
        now = time.time()
        try:
            with self.engine.begin() as db:
                known = db.execute(sa.select(PASSKEYS.c.id).where(PASSKEYS.c.id == passkey.id))
                if known.first() is not None:
                    raise PasskeyTakenError("this passkey is already registered: sign in with it")
                if _taken_by(db, name) is not None:  # a look-alike registered meanwhile
                    raise NameTakenError(f"the name {name!r} is taken or looks like one taken")
                db.execute(
                    ACCOUNTS.insert().values(
                        id=account_id,
                        name=name,
                        name_key=name_key(name),
                        name_skeleton=skeleton(name),
                        lang=lang,
                        created_at=now,
                    )
                )
                _insert_passkey(db, passkey, now)
        except sa.exc.IntegrityError as error:
            if self.passkey(passkey.id) is not None:  # registered at once by another request
                raise PasskeyTakenError(
                    "this passkey is already registered: sign in with it"
                ) from error
            raise NameTakenError(f"the name {name!r} is taken") from error
        return Account(account_id, name, lang, now)

    def account(self, account_id: str) -> Account | None:
        """The account ``account_id``, or None."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).first()
        return None if row is None else _account(row)

    def account_named(self, name: str) -> Account | None:
        """The account whose display name is ``name`` (whatever the case), or None."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(ACCOUNTS).where(ACCOUNTS.c.name_key == name_key(name))
            ).first()
        return None if row is None else _account(row)

    def set_lang(self, account_id: str, lang: str) -> None:
        """Change an account's preferred language."""
        with self.engine.begin() as db:
            db.execute(ACCOUNTS.update().where(ACCOUNTS.c.id == account_id).values(lang=lang))

    def delete_account(self, account_id: str) -> None:
        """Delete an account, its passkeys and sessions; its past seats become a former player.

        One transaction: the seats' names, the names in their ``join`` and ``leave``
        events (so a record or replay read later says the same) and the account go together.
        """
        with self.engine.begin() as db:
            seats = db.execute(
                sa.select(SEATS.c.table_id, SEATS.c.seat).where(SEATS.c.account_id == account_id)
            ).all()
            for table_id, seat in seats:
                events = db.execute(
                    sa.select(EVENTS.c.seq, EVENTS.c.data).where(
                        EVENTS.c.table_id == table_id,
                        EVENTS.c.seat == seat,
                        EVENTS.c.kind.in_(("join", "leave")),
                    )
                ).all()
                for seq, data in events:
                    values = json.loads(data)
                    if values.get("name") is not None:
                        values["name"] = FORMER_PLAYER
                    db.execute(
                        EVENTS.update()
                        .where(EVENTS.c.table_id == table_id, EVENTS.c.seq == seq)
                        .values(data=json.dumps(values))
                    )
            db.execute(
                SEATS.update()
                .where(SEATS.c.account_id == account_id)
                .values(name=FORMER_PLAYER, account_id=None)
            )
            # its rating changes stay in the others' history, without it (web/players/ratings.py)
            db.execute(
                sa.text("UPDATE rating_changes SET account_id = NULL WHERE account_id = :a"),
                {"a": account_id},
            )
            db.execute(sa.text("DELETE FROM ratings WHERE account_id = :a"), {"a": account_id})
            db.execute(SESSIONS.delete().where(SESSIONS.c.account_id == account_id))
            db.execute(PASSKEYS.delete().where(PASSKEYS.c.account_id == account_id))
            db.execute(CHALLENGES.delete().where(CHALLENGES.c.account_id == account_id))
            db.execute(ACCOUNTS.delete().where(ACCOUNTS.c.id == account_id))

    # ------------------------------------------------------------- passkeys

    def passkeys(self, account_id: str) -> list[Passkey]:
        """An account's passkeys, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(PASSKEYS)
                .where(PASSKEYS.c.account_id == account_id)
                .order_by(PASSKEYS.c.created_at, PASSKEYS.c.id)
            ).all()
        return [_passkey(row) for row in rows]

    def passkey(self, credential_id: str) -> Passkey | None:
        """The passkey with this credential id, or None."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(PASSKEYS).where(PASSKEYS.c.id == credential_id)).first()
        return None if row is None else _passkey(row)

    def add_passkey(self, passkey: Passkey) -> None:
        """Add a passkey to its account; ``PasskeyTakenError`` if it is stored already."""
        try:
            with self.engine.begin() as db:
                _insert_passkey(db, passkey, time.time())
        except sa.exc.IntegrityError as error:
            raise PasskeyTakenError("this passkey is already registered") from error

    def used_passkey(self, credential_id: str, sign_count: int) -> None:
        """Note a sign-in: the authenticator's new counter and the time."""
        with self.engine.begin() as db:
            db.execute(
                PASSKEYS.update()
                .where(PASSKEYS.c.id == credential_id)
                .values(sign_count=sign_count, used_at=time.time())
            )

    def remove_passkey(self, account_id: str, credential_id: str) -> bool:
        """Remove one of the account's passkeys; False if it has none by that id.

        ``LastPasskeyError`` if it is the last: an account nobody can sign in to is deleted
        by its owner, never left behind.  The count and the delete are one transaction
        (two removals at once cannot both pass the check on PostgreSQL: the rows are locked).
        """
        with self.engine.begin() as db:
            ids = [
                row[0]
                for row in db.execute(
                    sa.select(PASSKEYS.c.id)
                    .where(PASSKEYS.c.account_id == account_id)
                    .with_for_update()
                )
            ]
            if credential_id not in ids:
                return False
            if len(ids) == 1:
                raise LastPasskeyError("an account keeps at least one passkey: delete the account")
            db.execute(
                PASSKEYS.delete().where(
                    PASSKEYS.c.id == credential_id, PASSKEYS.c.account_id == account_id
                )
            )
        return True

    # ------------------------------------------------------------- sessions

    def open_session(
        self, account_id: str, seconds: float, replaces: str | None = None
    ) -> tuple[str, str]:
        """A new session of the account; its id (for the cookie) and its CSRF token.

        ``replaces``: the session id the browser held before (any account's): it is
        deleted in the same transaction, so a session id known before sign-in is worth
        nothing after it (session fixation).
        """
        now = time.time()
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        with self.engine.begin() as db:
            db.execute(SESSIONS.delete().where(SESSIONS.c.expires_at < now))
            if replaces:
                db.execute(SESSIONS.delete().where(SESSIONS.c.id_hash == session_hash(replaces)))
            db.execute(
                SESSIONS.insert().values(
                    id_hash=session_hash(session_id),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=now,
                    expires_at=now + seconds,
                )
            )
        return session_id, csrf

    def session(self, session_id: str) -> Session | None:
        """The live session with this id and its account, or None."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(SESSIONS.c.csrf, SESSIONS.c.expires_at, ACCOUNTS)
                .join(ACCOUNTS, ACCOUNTS.c.id == SESSIONS.c.account_id)
                .where(
                    SESSIONS.c.id_hash == session_hash(session_id),
                    SESSIONS.c.expires_at >= time.time(),
                )
            ).first()
        return None if row is None else Session(_account(row), row.csrf, row.expires_at)

    def close_session(self, session_id: str) -> None:
        """Sign out: the session id is worth nothing from now on."""
        with self.engine.begin() as db:
            db.execute(SESSIONS.delete().where(SESSIONS.c.id_hash == session_hash(session_id)))


def _taken_by(db: sa.Connection, name: str) -> str | None:
    """The name of an account named ``name`` (any case) or a look-alike of it, or None."""
    found = db.execute(
        sa.select(ACCOUNTS.c.name)
        .where(
            (ACCOUNTS.c.name_key == name_key(name)) | (ACCOUNTS.c.name_skeleton == skeleton(name))
        )
        .limit(1)
    ).scalar()
    return None if found is None else str(found)


def _insert_passkey(db: sa.Connection, passkey: Passkey, now: float) -> None:
    db.execute(
        PASSKEYS.insert().values(
            id=passkey.id,
            account_id=passkey.account_id,
            public_key=passkey.public_key,
            sign_count=passkey.sign_count,
            transports=json.dumps(passkey.transports),
            created_at=now,
            used_at=None,
        )
    )
