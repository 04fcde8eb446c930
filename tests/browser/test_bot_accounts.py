"""The account dialog's bots in Chromium: create a bot (its token shown once), hide the token,
revoke the bot; screenshots at a laptop's and a phone's width in en, ru and uk."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import NewContext
from .test_accounts import add_authenticator, open_account

pytestmark = pytest.mark.timeout(300)


def test_create_see_the_token_once_and_revoke_a_bot(
    new_context: NewContext, base_url: str, artifacts: Path
) -> None:
    port = base_url.rsplit(":", 1)[1]
    context = new_context(base_url=f"http://localhost:{port}")
    page = context.new_page()
    page.goto("/")
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    add_authenticator(cdp)
    open_account(page)
    page.locator('[data-field="display-name"]').fill("Vera")
    page.locator('[data-action="register"]').click()
    expect(page.locator('[data-region="account-name"]')).to_have_text("Signed in as Vera.")

    page.locator('[data-field="bot-name"]').fill("Robota")
    page.locator('[data-action="create-bot"]').click()
    token = page.locator('[data-field="bot-token"]')
    expect(page.locator('[data-region="bot-token"]')).to_be_visible()
    assert token.input_value().startswith("fxbot_") and len(token.input_value()) > 40
    expect(page.locator('[data-region="bots"] li')).to_have_count(1)
    expect(page.locator('[data-region="bots"] li')).to_contain_text("Robota")
    for lang in ("en", "ru", "uk"):
        page.locator("#lang-pick").select_option(lang)
        for width, height, kind in ((1280, 800, "laptop"), (390, 844, "phone")):
            page.set_viewport_size({"width": width, "height": height})
            open_account(page)
            page.screenshot(path=str(artifacts / f"bot-account-{kind}-{lang}.png"))
    page.locator("#lang-pick").select_option("en")
    open_account(page)
    page.locator('[data-action="bot-token-done"]').click()
    expect(page.locator('[data-region="bot-token"]')).to_have_count(0)
    assert "fxbot_" not in page.content()

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-action="revoke-bot"]').click()
    expect(page.locator('[data-region="bots"] li')).to_contain_text("revoked")
    expect(page.locator('[data-action="revoke-bot"]')).to_have_count(0)
