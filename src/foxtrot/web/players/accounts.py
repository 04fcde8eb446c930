"""Accounts without passwords: passkeys (WebAuthn), sessions, the CSRF token.

A person registers with a display name and a passkey, signs in with the passkey alone
(a discoverable credential: the browser offers the accounts it holds for this site), adds
a second passkey, removes one, signs out, deletes the account.  No password, no e-mail.

- The signatures are checked by the ``webauthn`` package; each ceremony's challenge is
  a database row, used once and valid for ``CHALLENGE_SECONDS``, so a cluster's processes
  may serve the two halves of one ceremony.
- A session is an HttpOnly, SameSite=Lax cookie (Secure on https) holding a random id; the
  database keeps its hash.  Signing in or registering replaces whatever session id the
  browser held (session fixation), and that old id is deleted.
- Every state-changing request made with the cookie must carry the session's CSRF token
  in ``X-CSRF-Token`` (the page reads it from ``GET /api/account``); without it the
  request is refused with ``bad_csrf`` before anything is read or written.
- Registration and sign-in ceremonies are limited per address, counted in the database
  (``recent_challenges``), so the limit holds across a cluster.

Guests play exactly as before: nothing here is needed to sit at a table.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Header, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ...core.options import name_problem
from ..lobby import Lobby
from ..protocol import Code, ProtocolError
from ..store.account_rows import (
    FORMER_PLAYER,
    Account,
    AccountStore,
    Challenge,
    LastPasskeyError,
    NameTakenError,
    Passkey,
    PasskeyTakenError,
    Session,
    name_key,
)
from .names import invisible_or_path, normal

#: The cookie that holds the session id.
COOKIE: Final = "foxtrot_session"
#: The header a state-changing request made with the cookie must carry.
CSRF_HEADER: Final = "X-CSRF-Token"
#: A display name: 1 to this many characters.
DISPLAY_NAME_LENGTH: Final = 24
#: How long a session lasts without signing in again (seconds).
SESSION_SECONDS: Final = 30 * 86400.0
#: How long the page has to answer a ceremony's challenge (seconds).
CHALLENGE_SECONDS: Final = 300.0
#: At most this many ceremonies of a kind per address per window: (count, seconds).
REGISTER_LIMIT: Final = (10, 600.0)
SIGN_IN_LIMIT: Final = (30, 300.0)
RP_NAME: Final = "Foxtrot"
#: The longest credential id WebAuthn allows (bytes); its base64url text fits the column.
CREDENTIAL_ID_BYTES: Final = 1023


def display_name_problem(name: str) -> str | None:
    """What makes ``name`` unfit as a display name, or None.

    The record's rule for a player's name (``core.options.name_problem``: not blank, no
    control character), no invisible format character (a zero-width space or joiner) and
    no path character (``/``, ``\\``: web/players/names.py), 1 to 24 characters, no space
    at either end (two names that differ only there would look alike), and not the name
    deleted accounts leave behind.
    """
    problem = name_problem(name) or invisible_or_path(name)
    if problem is not None:
        return problem
    if len(name) > DISPLAY_NAME_LENGTH:
        return f"{name[:30]!r} is longer than {DISPLAY_NAME_LENGTH} characters"
    if name != name.strip():
        return f"{name!r} begins or ends with a space"
    if name_key(name) == name_key(FORMER_PLAYER):
        return f"{name!r} is the name left in place of deleted accounts"
    return None


def _fit_name(name: str) -> str:
    """The display name in its kept form (NFKC), or ``ValueError`` with what is wrong."""
    problem = display_name_problem(name) or display_name_problem(normal(name))
    if problem is not None:
        raise ValueError(problem)
    return normal(name)


DisplayName = Annotated[str, Field(min_length=1), AfterValidator(_fit_name)]
Language = Literal["en", "ru", "uk"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RegisterIn(_Body):
    """``POST /api/account/register``: the name and language of the new account."""

    name: DisplayName
    lang: Language = "en"


class FinishIn(_Body):
    """The second half of a ceremony: the challenge's id and the browser's credential JSON."""

    challenge: Annotated[str, Field(min_length=1, max_length=64)]
    credential: dict[str, Any]


class LangIn(_Body):
    """``PATCH /api/account``: the preferred language."""

    lang: Language


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


class Accounts:
    """The ceremonies and sessions of one server; ``store`` holds the rows.

    ``origin`` (``https://foxtrot.example``) fixes the relying party; when None the origin
    is the one the request came to, so one server works on ``localhost`` and on its name.
    """

    def __init__(self, lobby: Callable[[], Lobby], origin: str | None = None) -> None:
        self._lobby = lobby
        self.origin = origin
        self.register_limit = REGISTER_LIMIT
        self.sign_in_limit = SIGN_IN_LIMIT

    @property
    def keep_challenges(self) -> float:
        """How long a challenge's row is kept: the longest window a limit counts it in."""
        return max(self.register_limit[1], self.sign_in_limit[1], CHALLENGE_SECONDS)

    @property
    def store(self) -> AccountStore:
        """The rows, in the lobby's database."""
        return AccountStore(self._lobby().store.engine)

    async def db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """A store call on the lobby's database thread."""
        return await self._lobby().db(fn, *args, **kwargs)

    def relying_party(self, request: Request) -> tuple[str, str]:
        """The origin the browser must name in its answer, and the RP id (its host)."""
        origin = self.origin or f"{request.url.scheme}://{request.url.netloc}"
        host = origin.split("://", 1)[-1].split("/", 1)[0]
        if host.startswith("["):
            return origin, host[1:].split("]", 1)[0]
        return origin, host.rsplit(":", 1)[0] if ":" in host else host

    async def session(self, request: Request) -> Session | None:
        """The live session the request's cookie holds, or None."""
        session_id = request.cookies.get(COOKIE)
        if not session_id:
            return None
        found: Session | None = await self.db(self.store.session, session_id)
        return found

    async def acting(self, request: Request, csrf: str | None) -> tuple[Session, str]:
        """The session of a state-changing request and its id; refused without both.

        The CSRF token must equal the session's own (compared in constant time): another
        site can make the browser send the cookie, but cannot read the token.
        """
        session_id = request.cookies.get(COOKIE)
        found = await self.session(request)
        if found is None or session_id is None:
            raise ProtocolError(Code.NOT_SIGNED_IN, "sign in first: no live session cookie")
        if not csrf or not secrets.compare_digest(csrf, found.csrf):
            raise ProtocolError(
                Code.BAD_CSRF, f"send the session's CSRF token in the {CSRF_HEADER} header"
            )
        return found, session_id

    async def limit(self, request: Request, purpose: str, limit: tuple[int, float]) -> None:
        """Refuse a ceremony past the address's limit (``throttled``)."""
        count, seconds = limit
        done = await self.db(self.store.recent_challenges, _client(request), purpose, seconds)
        if done >= count:
            raise ProtocolError(
                Code.THROTTLED,
                f"too many {purpose} attempts from this address: wait {seconds:g} seconds",
            )

    async def sign_in_as(self, request: Request, response: Response, account: Account) -> str:
        """Open a new session for ``account`` and set its cookie; the old one is deleted."""
        session_id, csrf = await self.db(
            self.store.open_session,
            account.id,
            SESSION_SECONDS,
            replaces=request.cookies.get(COOKIE),
        )
        origin, _rp = self.relying_party(request)
        response.set_cookie(
            COOKIE,
            session_id,
            max_age=int(SESSION_SECONDS),
            httponly=True,
            samesite="lax",
            secure=origin.startswith("https://"),
            path="/",
        )
        return str(csrf)

    async def me(self, session: Session, csrf: str | None = None) -> dict[str, Any]:
        """What the signed-in page may know of its own account (its CSRF token included)."""
        keys: list[Passkey] = await self.db(self.store.passkeys, session.account.id)
        return {
            "signed_in": True,
            "name": session.account.name,
            "lang": session.account.lang,
            "csrf": csrf or session.csrf,
            "passkeys": [
                {"id": key.id, "created_at": key.created_at, "used_at": key.used_at} for key in keys
            ],
        }


def _taken_text(name: str, taken: str) -> str:
    """Why a name is refused as taken: the same name, or one that looks like it."""
    if taken.casefold() == name.casefold():
        return f"the name {name!r} is taken"
    return f"the name {name!r} looks like {taken!r}, an account's name already"


def _bad_passkey(what: str, error: Exception | None = None) -> ProtocolError:
    detail = f": {str(error)[:200]}" if error is not None else ""
    return ProtocolError(Code.BAD_PASSKEY, f"{what}{detail}")


def _options(options: Any) -> dict[str, Any]:
    return dict(options_to_json_dict(options))


def account_router(accounts: Accounts) -> APIRouter:
    """The routes under ``/api/account``."""
    router = APIRouter()

    @router.get("/api/account")
    async def me(request: Request) -> dict[str, Any]:
        found = await accounts.session(request)
        if found is None:
            return {"signed_in": False}
        return await accounts.me(found)

    @router.post("/api/account/register")
    async def register(body: RegisterIn, request: Request) -> dict[str, Any]:
        await accounts.limit(request, "register", accounts.register_limit)
        taken = await accounts.db(accounts.store.name_taken_by, body.name)
        if taken is not None:
            raise ProtocolError(Code.NAME_TAKEN, _taken_text(body.name, taken))
        account_id = secrets.token_hex(16)
        _origin, rp_id = accounts.relying_party(request)
        options = _creation_options(rp_id, account_id, body.name, [])
        ident = await accounts.db(
            accounts.store.open_challenge,
            bytes_to_base64url(options.challenge),
            "register",
            _client(request),
            seconds=CHALLENGE_SECONDS,
            keep=accounts.keep_challenges,
            account_id=account_id,
            name=body.name,
            lang=body.lang,
        )
        return {"challenge": ident, "options": _options(options)}

    @router.post("/api/account/register/finish")
    async def register_finish(
        body: FinishIn, request: Request, response: Response
    ) -> dict[str, Any]:
        pending = await accounts.db(accounts.store.take_challenge, body.challenge, "register")
        if pending is None or pending.account_id is None or pending.name is None:
            raise _bad_passkey("the registration expired or was already used: begin again")
        passkey = _verified_registration(accounts, request, body, pending)
        try:
            account: Account = await accounts.db(
                accounts.store.create_account,
                pending.account_id,
                pending.name,
                pending.lang or "en",
                passkey,
            )
        except NameTakenError as error:
            raise ProtocolError(Code.NAME_TAKEN, str(error)) from error
        except PasskeyTakenError as error:
            raise ProtocolError(Code.PASSKEY_TAKEN, str(error)) from error
        csrf = await accounts.sign_in_as(request, response, account)
        found = Session(account, csrf, 0.0)
        return await accounts.me(found, csrf)

    @router.post("/api/account/sign-in")
    async def sign_in(request: Request) -> dict[str, Any]:
        await accounts.limit(request, "sign-in", accounts.sign_in_limit)
        _origin, rp_id = accounts.relying_party(request)
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.REQUIRED
        )
        ident = await accounts.db(
            accounts.store.open_challenge,
            bytes_to_base64url(options.challenge),
            "sign-in",
            _client(request),
            seconds=CHALLENGE_SECONDS,
            keep=accounts.keep_challenges,
        )
        return {"challenge": ident, "options": _options(options)}

    @router.post("/api/account/sign-in/finish")
    async def sign_in_finish(
        body: FinishIn, request: Request, response: Response
    ) -> dict[str, Any]:
        pending = await accounts.db(accounts.store.take_challenge, body.challenge, "sign-in")
        if pending is None:
            raise _bad_passkey("the sign-in expired or was already used: begin again")
        credential_id = body.credential.get("id")
        if not isinstance(credential_id, str) or len(credential_id) > 1400:
            raise _bad_passkey("credential.id: expected the passkey's id (base64url text)")
        passkey: Passkey | None = await accounts.db(accounts.store.passkey, credential_id)
        if passkey is None:
            raise _bad_passkey("this passkey belongs to no account here (deleted?)")
        origin, rp_id = accounts.relying_party(request)
        try:
            verified = verify_authentication_response(
                credential=body.credential,
                expected_challenge=base64url_to_bytes(pending.challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise _bad_passkey("the passkey's signature was refused", error) from error
        handle = (body.credential.get("response") or {}).get("userHandle")
        if handle and handle != bytes_to_base64url(bytes.fromhex(passkey.account_id)):
            raise _bad_passkey("the passkey's user handle is not its account's")
        await accounts.db(accounts.store.used_passkey, passkey.id, verified.new_sign_count)
        account = await accounts.db(accounts.store.account, passkey.account_id)
        if account is None:
            raise _bad_passkey("this passkey's account was deleted")
        csrf = await accounts.sign_in_as(request, response, account)
        return await accounts.me(Session(account, csrf, 0.0), csrf)

    @router.post("/api/account/sign-out")
    async def sign_out(
        request: Request, response: Response, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        _found, session_id = await accounts.acting(request, x_csrf_token)
        await accounts.db(accounts.store.close_session, session_id)
        response.delete_cookie(COOKIE, path="/")
        return {"signed_in": False}

    @router.patch("/api/account")
    async def set_lang(
        body: LangIn, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        found, _id = await accounts.acting(request, x_csrf_token)
        await accounts.db(accounts.store.set_lang, found.account.id, body.lang)
        return {"lang": body.lang}

    @router.delete("/api/account")
    async def delete(
        request: Request, response: Response, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        found, _id = await accounts.acting(request, x_csrf_token)
        await accounts.db(accounts.store.delete_account, found.account.id)
        response.delete_cookie(COOKIE, path="/")
        return {"signed_in": False, "deleted": found.account.name}

    @router.post("/api/account/passkeys")
    async def add_begin(
        request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        found, _id = await accounts.acting(request, x_csrf_token)
        account = found.account
        keys: list[Passkey] = await accounts.db(accounts.store.passkeys, account.id)
        _origin, rp_id = accounts.relying_party(request)
        options = _creation_options(rp_id, account.id, account.name, [key.id for key in keys])
        ident = await accounts.db(
            accounts.store.open_challenge,
            bytes_to_base64url(options.challenge),
            "add-passkey",
            _client(request),
            seconds=CHALLENGE_SECONDS,
            keep=accounts.keep_challenges,
            account_id=account.id,
        )
        return {"challenge": ident, "options": _options(options)}

    @router.post("/api/account/passkeys/finish")
    async def add_finish(
        body: FinishIn, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        found, _id = await accounts.acting(request, x_csrf_token)
        pending = await accounts.db(accounts.store.take_challenge, body.challenge, "add-passkey")
        if pending is None or pending.account_id != found.account.id:
            raise _bad_passkey("adding the passkey expired or was already done: begin again")
        passkey = _verified_registration(accounts, request, body, pending)
        try:
            await accounts.db(accounts.store.add_passkey, passkey)
        except PasskeyTakenError as error:
            raise _bad_passkey(str(error)) from error
        return await accounts.me(found)

    @router.delete("/api/account/passkeys/{credential_id}")
    async def remove(
        credential_id: str, request: Request, x_csrf_token: str | None = Header(None)
    ) -> dict[str, Any]:
        found, _id = await accounts.acting(request, x_csrf_token)
        try:
            removed = await accounts.db(
                accounts.store.remove_passkey, found.account.id, credential_id
            )
        except LastPasskeyError as error:
            raise ProtocolError(Code.LAST_PASSKEY, str(error)) from error
        if not removed:
            raise ProtocolError(Code.NO_PASSKEY, "this account has no passkey with that id")
        return await accounts.me(found)

    return router


def _creation_options(rp_id: str, account_id: str, name: str, exclude: list[str]) -> Any:
    """The options of a new passkey: resident (discoverable), user verification required;
    ``exclude``: the account's passkeys, which the browser must not register twice."""
    return generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_id=bytes.fromhex(account_id),
        user_name=name,
        user_display_name=name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(key)) for key in exclude
        ],
    )


def _verified_registration(
    accounts: Accounts, request: Request, body: FinishIn, pending: Challenge
) -> Passkey:
    """The new passkey of ``pending``'s account that the browser's answer proves."""
    origin, rp_id = accounts.relying_party(request)
    try:
        verified = verify_registration_response(
            credential=body.credential,
            expected_challenge=base64url_to_bytes(pending.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise _bad_passkey("the new passkey was refused", error) from error
    if len(verified.credential_id) > CREDENTIAL_ID_BYTES:  # WebAuthn's bound: never signs in
        raise _bad_passkey(
            f"the new passkey's id is {len(verified.credential_id)} bytes long:"
            f" a credential id has at most {CREDENTIAL_ID_BYTES} (WebAuthn)"
        )
    response = body.credential.get("response")
    transports = response.get("transports") if isinstance(response, dict) else None
    kept = [str(t)[:16] for t in transports[:8]] if isinstance(transports, list) else []
    return Passkey(
        bytes_to_base64url(verified.credential_id),
        pending.account_id or "",
        verified.credential_public_key,
        verified.sign_count,
        kept,
        0.0,
        None,
    )
