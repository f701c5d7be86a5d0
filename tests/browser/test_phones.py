"""The served pages on real phones: Playwright's device descriptors (their viewport, device scale,
touch and ``is_mobile``), not a narrow desktop window. Without a viewport in the page's HTML a
phone lays it out 980 px wide and shrinks it to its screen: text about 5 px high. Each page is
opened on an emulated phone in English, German and Chinese, as learners and teachers open it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright
from support import ARTIFACTS, LOAD_MS, SANDBOX, launch, served

from nefertiti_core.engine.i18n import tr

#: (device, browser language, page, what the page shows first, in that language)
CASES = [
    ("Pixel 5", "en-GB", "join", tr("en", "room.join_title")),
    ("iPhone 13", "de-DE", "join", tr("de", "room.join_title")),
    ("Pixel 5", "zh-CN", "join", tr("zh", "room.join_title")),
    ("iPhone 13", "zh-CN", "classroom", tr("zh", "room.open")),
    ("Pixel 5", "de-DE", "classroom", tr("de", "room.open")),
    ("Pixel 5", "en-GB", "tutor", tr("en", "panel.title")),
]


@pytest.fixture(scope="module")
def phones(tmp_path_factory):
    home = tmp_path_factory.mktemp("phones-home")
    with served(SANDBOX, "tutor", env={"NEFERTITI_HOME": str(home)}) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            yield url.rsplit("/", 1)[0], browser, p.devices
        finally:
            browser.close()


@pytest.mark.parametrize(("device", "locale", "path", "shown"), CASES)
def test_a_page_on_a_phone_is_laid_out_at_the_phones_width(phones, device, locale, path, shown):
    base, browser, devices = phones
    descriptor = devices[device]
    assert descriptor["is_mobile"] and descriptor["has_touch"]  # a phone, not a small window
    context = browser.new_context(**descriptor, locale=locale)
    page = context.new_page()
    try:
        page.goto(f"{base}/{path}", timeout=LOAD_MS)
        expect(page.get_by_text(shown, exact=False).first).to_be_visible(timeout=LOAD_MS)
        width = page.evaluate("document.documentElement.clientWidth")
        assert width == descriptor["viewport"]["width"], (path, width)  # 980 without a viewport
        meta = page.locator('meta[name="viewport"]')
        assert "width=device-width" in meta.get_attribute("content")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = f"phone-{path}-{device.replace(' ', '-').lower()}-{locale}.png"
        page.screenshot(path=str(ARTIFACTS / name))
    finally:
        context.close()
