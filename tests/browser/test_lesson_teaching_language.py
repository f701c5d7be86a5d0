"""A served Lesson shows its scenario's teaching text in the board's language (issue #13, item 10).

One server for the module: three lessons of the Treasurer scenario, in English, German and
Chinese. Chromium opens each and reads the text the learner sees first, above the board.
"""

from __future__ import annotations

import pytest
from support import ARTIFACTS, LOAD_MS, launch, served

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load

APP = """
import panel as pn
from widgets.lesson.notebook import Lesson
def make(lang):
    return lambda: Lesson("treasurer", lang=lang, width=560)
pn.serve({lang: make(lang) for lang in ("en", "de", "zh")}, port=PORT, address="127.0.0.1",
         show=False, websocket_origin=["127.0.0.1:PORT", "localhost:PORT"])
"""

SCENARIO = load(scenario_path("treasurer"))


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with served(APP, "en") as url, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            yield page, url.rsplit("/", 1)[0]
        finally:
            browser.close()


@pytest.mark.parametrize("lang", ["de", "zh", "en"])
def test_the_lesson_shows_the_teaching_text_in_its_language(page, lang):
    page, base = page
    page.goto(f"{base}/{lang}")
    title = SCENARIO.title_in(lang)
    page.get_by_text(title, exact=True).wait_for(timeout=LOAD_MS)
    # the note is folded (it may tell what a move does: the learner predicts first): open it
    note_card = page.locator(".lesson-note-card")
    note_card.get_by_text(tr(lang, "lesson.note")).click()
    first_words = " ".join(SCENARIO.teaching_in(lang).split()[:6])
    assert page.get_by_text(first_words).first.is_visible()
    if lang != "en":  # nothing left in English above the board
        assert page.get_by_text("The Treasurer takes at most 4").count() == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lesson-teaching-{lang}.png"))
