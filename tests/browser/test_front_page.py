"""The served tutor's front page (``/``) in Chromium, as a visitor meets it: typing the server's
address without a path. It names the three pages in the browser's language, loads nothing from
any other server (a classroom may be offline), and each of its links opens its page.

One server for the module (``sandbox_url``, ``nefertiti serve``); each test its own browser
context. Chromium missing is a failure, not a skip.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, LOAD_MS, STEP_MS, cookie, wait_saved

from nefertiti_core.engine.i18n import tr
from widgets.game.common import colour_name
from widgets.server.home_page import PAGES

expect.set_options(timeout=STEP_MS)

#: What each page shows once it is there (its heading or first words), in English.
ARRIVED = {
    "tutor": lambda page: expect(page.get_by_text("Blue decides now")).to_be_visible(
        timeout=LOAD_MS
    ),
    "classroom": lambda page: expect(
        page.get_by_role("button", name=tr("en", "room.open"))
    ).to_be_visible(timeout=LOAD_MS),
    "join": lambda page: expect(page.get_by_text(tr("en", "room.join_title"))).to_be_visible(
        timeout=LOAD_MS
    ),
}


def _front(sandbox_url: str) -> str:
    parts = urlsplit(sandbox_url)
    return f"{parts.scheme}://{parts.netloc}/"


def _open(chromium, url: str, locale: str, width: int = 1280):
    context = chromium.new_context(viewport={"width": width, "height": 900}, locale=locale)
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(url, timeout=LOAD_MS)
    return context, page, response, requests, errors


@pytest.mark.parametrize("path", [path for path, _ in PAGES])
def test_each_link_of_the_front_page_opens_its_page(chromium, sandbox_url, path):
    front = _front(sandbox_url)
    context, page, response, requests, errors = _open(chromium, front, "en-GB")
    try:
        assert response.status == 200
        expect(page.locator("h1")).to_have_text(tr("en", "panel.title"))
        # the page itself fetched nothing (no script, font or image from anywhere)
        assert requests == [front], requests
        link = page.locator(f"#home-{path}")
        key = dict(PAGES)[path]
        expect(link).to_contain_text(tr("en", f"{key}.name"))
        expect(link).to_contain_text(tr("en", f"{key}.text"))
        link.click()
        page.wait_for_url(f"{front}{path}", timeout=LOAD_MS)
        ARRIVED[path](page)
        # every request of the page it opened went to this server: nothing from the internet
        # (a blob: URL of this origin is made in the page, a data: URL carries its content)
        local = (front, f"blob:{front}", "data:")
        foreign = [url for url in requests if not url.startswith(local)]
        assert foreign == [], foreign
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("zh-CN", "zh")])
def test_the_front_page_speaks_the_browsers_language_on_a_phone(
    chromium, sandbox_url, locale, lang
):
    front = _front(sandbox_url)
    context, page, response, _, errors = _open(chromium, front, locale, width=390)
    try:
        assert response.headers["content-language"] == lang
        expect(page.locator("h1")).to_have_text(tr(lang, "panel.title"))
        for path, key in PAGES:
            link = page.locator(f"#home-{path}")
            expect(link).to_contain_text(tr(lang, f"{key}.name"))
            box = link.bounding_box()
            assert box is not None and box["width"] <= 390  # one card a row, no sideways scroll
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"front-page-{lang}.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()


def test_the_front_page_shows_an_unknown_language_in_english(chromium, sandbox_url):
    context, page, response, _, _ = _open(chromium, _front(sandbox_url), "fr-FR")
    try:
        assert response.headers["content-language"] == "en"
        expect(page.locator("h1")).to_have_text(tr("en", "panel.title"))
    finally:
        context.close()


def test_the_sandbox_opened_from_a_german_front_page_speaks_german(
    chromium, sandbox_url, sandbox_home
):
    """A new game takes the browser's language; a game the learner switched to English stays
    English when the tab reloads (the saved game's own language wins over the browser's)."""
    front = _front(sandbox_url)
    context, page, _, _, errors = _open(chromium, front, "de-DE")
    try:
        page.locator("#home-tutor").click()
        page.wait_for_url(f"{front}tutor", timeout=LOAD_MS)
        blue = {
            lang: tr(lang, "panel.decision.decides", player=colour_name(lang, "blue"))
            for lang in ("de", "en")
        }
        expect(page.get_by_text(blue["de"])).to_be_visible(timeout=LOAD_MS)
        page.get_by_role("button", name="English", exact=True).click()
        expect(page.get_by_text(blue["en"])).to_be_visible()
        page.wait_for_url("**/tutor?game=*")  # the game's token in the address
        cookie(context, "nefertiti_browser_id")  # the browser's id, set by the server a moment on
        # the switch is saved a moment later (on a busy machine, later still): reload after it
        token = parse_qs(urlsplit(page.url).query)["game"][0]
        wait_saved(sandbox_home, token, lang="en")
        page.reload(timeout=LOAD_MS)
        expect(page.get_by_text(blue["en"])).to_be_visible(timeout=LOAD_MS)
        expect(page.get_by_text(blue["de"])).to_have_count(0)
        assert errors == [], errors
    finally:
        context.close()
