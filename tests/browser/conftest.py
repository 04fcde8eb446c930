"""Fixtures of the browser tests: one real server, one real Chromium, a fresh context per test.

- ``foxtrot_server`` (session): ``python -m foxtrot serve`` on a free port, its
  data folder (``FOXTROT_HOME``, SQLite) a temporary folder; ``base_url`` is its address.
- ``api`` (session): the HTTP API of that server (create, join, wait for a status).
- ``browser`` (session): Debian's Chromium under Playwright's sync API.
- ``context`` / ``page`` (per test): a fresh browser context (1280×800, English,
  ``base_url`` set, 30 s timeouts for actions, waits and ``expect``: generous, so that a
  machine with every core busy passes) and a page in it.
- ``new_context`` (per test): a factory of more contexts (a second person, a
  phone-sized screen, another locale): ``new_context(viewport=..., locale=...)``.
- ``artifacts`` (session): the folder screenshots are kept in.

An uncaught JavaScript exception on any page fails the test that made it.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from .browser_support import ARTIFACTS, TIMEOUT_MS, Api, ServerProcess, launch_chromium

expect.set_options(timeout=TIMEOUT_MS)  # not 5 s: a busy machine is slower than that

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="package")
def foxtrot_server() -> Iterator[ServerProcess]:
    """``foxtrot serve`` as a subprocess for the whole session, on SQLite in a temporary folder."""
    home = Path(tempfile.mkdtemp(prefix="foxtrot-browser-"))
    server = ServerProcess(home)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="package")
def base_url(foxtrot_server: ServerProcess) -> str:
    """The server's address, ``http://127.0.0.1:<port>``."""
    return foxtrot_server.base_url


@pytest.fixture(scope="package")
def api(base_url: str) -> Iterator[Api]:
    """The server's HTTP API."""
    client = Api(base_url)
    yield client
    client.close()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API, started once."""
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless (never ``playwright install``)."""
    chromium = launch_chromium(playwright)
    yield chromium
    chromium.close()


@pytest.fixture(scope="package")
def artifacts() -> Path:
    """The folder the browser tests keep screenshots in (``FOXTROT_ARTIFACTS`` overrides)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_context(browser: Browser, base_url: str) -> Iterator[NewContext]:
    """A factory of fresh contexts (defaults: 1280×800, en-US, the server's base URL)."""
    made: list[BrowserContext] = []
    errors: list[str] = []

    def make(**options: Any) -> BrowserContext:
        options.setdefault("base_url", base_url)
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()
    assert not errors, f"uncaught JavaScript errors: {errors}"


@pytest.fixture
def context(new_context: NewContext) -> BrowserContext:
    """A fresh browser context for this test."""
    return new_context()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A page in this test's context."""
    return context.new_page()
