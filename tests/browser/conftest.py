"""Fixtures shared by the browser tests: Chromium, a served Sandbox, and a page on it.

Each is module-scoped where it starts something (one Chromium and one server per module, as
before they were shared here); a module that needs a server of its own kind (test_restart's
killable one) overrides ``sandbox_url``. Chromium missing is a failure, never a skip
(``support.launch`` raises).

A module tunes the page with module-level names: ``VIEWPORT`` (default 1500 x 1150) and
``STEP_MS`` (the page's default timeout; support.STEP_MS by default).

Every test here is marked ``slow`` (a server, a browser, often a kernel: seconds to minutes
each); ``make test-fast`` leaves them out, ``make test`` runs them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from support import LOAD_MS, SANDBOX, STEP_MS, launch, served, wait_rows

BROWSER_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    for item in items:
        if BROWSER_TESTS in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def chromium():
    with sync_playwright() as p:
        browser = launch(p)  # raises if Chromium is missing: a failure, never a skip
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def sandbox_home(tmp_path_factory):
    """The served Sandbox's $NEFERTITI_HOME (its saved games, learner records)."""
    return tmp_path_factory.mktemp("sandbox-home")


@pytest.fixture(scope="module")
def sandbox_url(sandbox_home):
    """``nefertiti serve``'s Sandbox, once for the module."""
    with served(SANDBOX, "tutor", env={"NEFERTITI_HOME": str(sandbox_home)}) as url:
        yield url


@pytest.fixture()
def page(request, chromium, sandbox_url):
    """A new browser context on the Sandbox (a new Bokeh session, so a new game), once the board
    is drawn and Blue is to decide. JavaScript errors in the page fail the test."""
    step_ms = getattr(request.module, "STEP_MS", STEP_MS)
    viewport = getattr(request.module, "VIEWPORT", {"width": 1500, "height": 1150})
    context = chromium.new_context(viewport=viewport, accept_downloads=True)
    context.set_default_timeout(step_ms)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sandbox_url, timeout=LOAD_MS)
    page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)
    expect(page.get_by_text("Blue decides now")).to_be_visible(timeout=LOAD_MS)
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
