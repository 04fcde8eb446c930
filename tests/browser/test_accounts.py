"""Accounts with real passkeys in Chromium: Chromium's virtual authenticator.

The DevTools protocol's ``WebAuthn`` domain gives the browser a platform authenticator
(CTAP2, internal, resident keys, user verification that always passes); the page's own
``navigator.credentials`` calls reach it, and the server checks its signatures with the
``webauthn`` package.  A passkey's relying party is a host name, never an IP address: the
page is opened as ``http://localhost:<port>`` (a secure context, as 127.0.0.1 is).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import CDPSession, Page, Route, expect

from .browser_support import Api, page_wait_until
from .conftest import NewContext

pytestmark = pytest.mark.timeout(300)

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def add_authenticator(cdp: CDPSession, *credentials: dict[str, Any]) -> str:
    """A new virtual authenticator (holding ``credentials``); its id."""
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    ident = str(found["authenticatorId"])
    for credential in credentials:
        cdp.send("WebAuthn.addCredential", {"authenticatorId": ident, "credential": credential})
    return ident


def held(cdp: CDPSession, ident: str) -> list[dict[str, Any]]:
    """The credentials a virtual authenticator holds."""
    return list(cdp.send("WebAuthn.getCredentials", {"authenticatorId": ident})["credentials"])


def open_account(page: Page) -> None:
    """Open the account dialog (from the header; it may be open already)."""
    if not page.locator("#account-dialog").is_visible():
        page.locator('[data-action="account"]').click()
    expect(page.locator("#account-dialog")).to_be_visible()


def sign_out(page: Page) -> None:
    page.locator('[data-action="sign-out"]').click()
    expect(page.locator('[data-action="account"]')).to_have_text("Sign in")


def sign_in(page: Page, name: str) -> None:
    page.locator('[data-action="sign-in"]').click()
    expect(page.locator('[data-region="account-name"]')).to_have_text(f"Signed in as {name}.")


def test_the_account_button_appears_when_its_module_loads_after_the_catalog(page: Page) -> None:
    # main.js announces the loaded catalog once; account.js, a module of its own, may run
    # after that (a busy machine, a slow network): it draws its button when it runs, even
    # when the server cannot say who is signed in just then.
    held_back: list[Route] = []
    page.add_init_script("document.addEventListener('foxtrot:lang', () => { window.told = 1; })")
    # (a Python function: Playwright cannot wrap a builtin such as list.append)
    page.route("**/static/account/bots.js", lambda route: held_back.append(route))  # noqa: PLW0108
    page.route("**/api/account", lambda route: route.fulfill(status=503))
    page.goto("/", wait_until="commit")
    page_wait_until(page, lambda: held_back, what="account.js asking for its module")
    page.wait_for_function("window.told === 1")  # main.js has announced its catalog
    assert page.locator('[data-action="account"]').count() == 0
    held_back[0].continue_()
    expect(page.locator('[data-action="account"]')).to_have_text("Sign in")


def test_register_sign_in_add_remove_and_delete_with_real_passkeys(
    new_context: NewContext, base_url: str, artifacts: Path
) -> None:
    port = base_url.rsplit(":", 1)[1]
    context = new_context(base_url=f"http://localhost:{port}")
    page = context.new_page()
    page.goto("/")
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    first = add_authenticator(cdp)
    expect(page.locator('[data-action="account"]')).to_have_text("Sign in")

    open_account(page)
    page.locator('[data-field="display-name"]').fill("Lena")
    page.locator('[data-action="register"]').click()
    expect(page.locator('[data-region="account-name"]')).to_have_text("Signed in as Lena.")
    expect(page.locator('[data-action="account"]')).to_have_text("Lena")
    (saved,) = held(cdp, first)
    assert saved["isResidentCredential"] and saved["rpId"] == "localhost"
    page.screenshot(path=str(artifacts / "account-desktop-en.png"))

    sign_out(page)
    open_account(page)
    sign_in(page, "Lena")

    # a second passkey on another device (the first device is put away)
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    second = add_authenticator(cdp)
    page.locator('[data-action="add-passkey"]').click()
    expect(page.locator('[data-region="passkeys"] li')).to_have_count(2)
    sign_out(page)
    open_account(page)
    sign_in(page, "Lena")  # with the second passkey

    # remove the first; the last one cannot be removed
    first_id = saved["credentialId"].replace("+", "-").replace("/", "_").rstrip("=")
    page.locator(f'[data-passkey="{first_id}"] [data-action="remove-passkey"]').click()
    expect(page.locator('[data-region="passkeys"] li')).to_have_count(1)
    expect(page.locator('[data-action="remove-passkey"]')).to_be_disabled()

    # the removed passkey opens nothing any more
    sign_out(page)
    (other,) = held(cdp, second)  # with its signature counter as it is now
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": second})
    old = add_authenticator(cdp, saved)
    open_account(page)
    page.locator('[data-action="sign-in"]').click()
    expect(page.locator('[data-region="account-message"]')).to_have_text(
        "That did not work: try again."
    )
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": old})

    add_authenticator(cdp, other)
    sign_in(page, "Lena")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-action="delete-account"]').click()
    expect(page.locator('[data-action="account"]')).to_have_text("Sign in")
    assert context.request.get("/api/account").json() == {"signed_in": False}
    page.locator('[data-action="sign-in"]').click()  # the passkey's account is gone
    expect(page.locator('[data-region="account-message"]')).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_account_dialog_fits_a_phone(
    new_context: NewContext, base_url: str, artifacts: Path, lang: str
) -> None:
    port = base_url.rsplit(":", 1)[1]
    locale = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}[lang]
    context = new_context(
        base_url=f"http://localhost:{port}", viewport={"width": 375, "height": 667}, locale=locale
    )
    page = context.new_page()
    page.goto("/")
    open_account(page)
    expect(page.locator('[data-field="display-name"]')).to_be_visible()
    page.screenshot(path=str(artifacts / f"account-phone-{lang}.png"))
    assert page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    text = page.locator("#account-dialog").inner_text()
    assert "account_" not in text
    if lang != "en":
        assert "Sign" not in text and "passkey" not in text


def test_two_signed_in_people_make_a_rated_table_in_the_page(
    new_context: NewContext, base_url: str, artifacts: Path
) -> None:
    """Anna ticks "rated" in the lobby, Boris sits through the invite link; both seats are
    their accounts'; when both leave, computers finish the match and it is rated."""
    port = base_url.rsplit(":", 1)[1]
    origin = f"http://localhost:{port}"
    pages: list[tuple[Page, str]] = []
    stamp = str(id(pages))[-5:]
    for name in (f"Anna{stamp}", f"Boris{stamp}"):
        context = new_context(base_url=origin)
        page = context.new_page()
        page.goto("/")
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        add_authenticator(cdp)
        open_account(page)
        page.locator('[data-field="display-name"]').fill(name)
        page.locator('[data-action="register"]').click()
        expect(page.locator('[data-region="account-name"]')).to_have_text(f"Signed in as {name}.")
        page.locator('[data-action="close-account"]').click()
        pages.append((page, name))
    (anna, anna_name), (boris, boris_name) = pages
    anna.locator("#name").fill("typed, not used")
    anna.locator("#seat-1").select_option("person")
    anna.locator("#rules-more summary").click()
    anna.locator("#grace").fill("0")
    anna.locator("#bot-delay").fill("0")
    anna.locator("#rated").check()
    anna.locator('[data-action="create-table"]').click()
    anna.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    table = anna.url.rsplit("/", 1)[1]
    boris.goto(f"/t/{table}")
    boris.locator('[data-field="name"]').fill("typed too")
    boris.locator('[data-action="sit"]').click()
    summary = boris.context.request.get(f"/api/tables/{table}").json()
    deadline = time.monotonic() + 20
    while summary["status"] == "open" and time.monotonic() < deadline:
        time.sleep(0.2)
        summary = boris.context.request.get(f"/api/tables/{table}").json()
    assert [seat["name"] for seat in summary["seats"]] == [anna_name, boris_name]
    anna.screenshot(path=str(artifacts / "account-rated-table.png"))
    anna.goto("/")  # both leave the table: computers play their seats to the end
    boris.goto("/")
    deadline = time.monotonic() + 120
    while not anna.context.request.get(f"/api/tables/{table}/ratings").json()["rated"]:
        assert time.monotonic() < deadline, "the rated match was never rated"
        time.sleep(0.5)
    anna.goto(f"/t/{table}")  # the match over: its rating changes under "Match over"
    changes = anna.locator('[data-region="rating-changes"] li')
    expect(changes).to_have_count(2)
    expect(changes.first).to_contain_text(f"{anna_name}: ")
    anna.locator('[data-region="rating-changes"]').screenshot(
        path=str(artifacts / "account-rating-changes.png")
    )
    anna.goto(f"/p/{anna_name}")
    expect(anna.locator('[data-region="profile"] tr[data-table]')).to_have_count(1)


def test_a_guest_keeps_a_finished_match_after_signing_in(
    new_context: NewContext, base_url: str, api: Api
) -> None:
    table, token = api.finished_match()  # played as the guest "Ann" (computers for her)
    port = base_url.rsplit(":", 1)[1]
    context = new_context(base_url=f"http://localhost:{port}")
    page = context.new_page()
    page.goto("/")
    seat = json.dumps({"seat": 0, "token": token})  # the seat token the guest's browser kept
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)", [f"foxtrot.seat.{table}", seat]
    )
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    add_authenticator(cdp)
    name = f"Ann{str(id(page))[-5:]}"
    open_account(page)
    page.locator('[data-field="display-name"]').fill(name)
    page.locator('[data-action="register"]').click()
    expect(page.locator('[data-region="account-name"]')).to_have_text(f"Signed in as {name}.")
    page.locator('[data-action="close-account"]').click()
    # The match-over screen may be drawn before the page knows it is signed in (a busy
    # machine): hold GET /api/account until it is, then the button must still come.
    held_back: list[Route] = []
    page.route("**/api/account", lambda route: held_back.append(route))  # noqa: PLW0108
    page.goto(f"/t/{table}")
    expect(page.locator("#t-over")).to_be_visible()
    page_wait_until(page, lambda: held_back, what="the page asking who is signed in")
    assert page.locator('[data-action="claim-seat"]').count() == 0
    for route in held_back:
        route.continue_()
    page.unroute("**/api/account")
    page.locator('[data-action="claim-seat"]').click()
    expect(page.locator('[data-region="rating-changes"]')).to_have_text(
        "The match is kept in your account."
    )
    assert context.request.get(f"/api/players/{name}").json()["unrated_matches"] == 1
