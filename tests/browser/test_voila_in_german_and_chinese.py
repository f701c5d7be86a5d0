"""The first-game path (tutorials 00-03) in German and in Chinese, in Voilà.

Voilà renders the Chinese welcome on a phone (Pixel 5), follows its language line's "Deutsch"
link to the German welcome, and renders 01-03 in Chinese on the phone and in German at
1024 x 768 (a projector's or a small laptop's screen). On each page the first exercise is
answered wrong then right with the engine's verdicts in the page's language, and no English
sentence is left on the page (``lesson_pages`` says how); axe-core on each welcome page. One Voilà
and one Chromium serve the module. JupyterLab's half of the path:
test_lessons_in_german_and_chinese.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from axe import check
from lesson_pages import (  # the shared checks; the module's fixtures
    LANGS,
    NO_MODEL,
    PATH,
    TOPIC,
    answer_first_exercise,
    board_speaks,
    no_english,
    voila,  # noqa: F401 - a fixture
    whole_page_screenshot,
    work,  # noqa: F401 - a fixture
)
from playwright.sync_api import expect
from support import (
    KERNEL_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    leave_voila,
    screenshot_on_failure,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import exercises_for


def _rendered(page, lang: str, notebook: str) -> None:
    """Wait until Voilà shows the lesson in ``lang``: the Markdown and every output (the
    board's heading, the exercises, the record), none of them ipywidgets' "model not found"
    (Voilà's progressive rendering adds an output once its model has arrived:
    jupyterlab/voila/voila.json), and none of the other languages' texts."""
    expect(page.get_by_text(tr(lang, "coverage.view.title")).first).to_be_visible(timeout=KERNEL_MS)
    board_speaks(page, lang, notebook)
    (ex, *_) = exercises_for(TOPIC[notebook])
    prompt = page.locator(".exercise-prompt").filter(has_text=ex.prompt(lang)[:30])
    expect(prompt.first).to_be_visible(timeout=KERNEL_MS)
    assert page.get_by_text(NO_MODEL).count() == 0, f"{page.url}: {NO_MODEL!r}"
    text = page.locator("body").inner_text()
    for other in ("en", "de", "zh"):
        if other != lang:
            for key in ("lesson.exercises_intro", "coverage.view.title", "lesson.undo"):
                assert tr(other, key) not in text, f"{page.url}: {tr(other, key)!r} ({other})"


def _voila_page(page, lang: str, notebook: str, name: str) -> None:
    """A rendered Voilà page: its exercise answered, no English on it, its screenshot."""
    _rendered(page, lang, notebook)
    answer_first_exercise(page, lang, notebook)
    no_english(page, "body", lang, notebook)
    whole_page_screenshot(page, name)


def test_the_chinese_welcome_in_voila_on_a_phone_and_its_german_link(voila, chromium):  # noqa: F811
    """Voilà renders the Chinese welcome in Chinese on a phone; its language line leads to the
    German one, in German."""
    context = chromium.new_context(viewport=PIXEL_5_VIEWPORT, **PIXEL_5)
    page = context.new_page()
    welcome = PATH[0]
    try:
        with screenshot_on_failure(page, "lesson-voila-zh-welcome"):
            page.goto(f"{voila}/voila/render/zh/{welcome}", timeout=KERNEL_MS)
            _voila_page(page, "zh", welcome, "lesson-voila-zh-00-welcome")
            expect(page.get_by_role("heading", name="欢迎来到娜芙蒂蒂")).to_be_visible()
            check(page, "the Chinese welcome in Voilà")
            # the language switch: the German page, in German
            page.get_by_role("link", name="Deutsch", exact=True).first.click()
            page.wait_for_url(
                re.compile(rf"/voila/render/de/{re.escape(welcome)}"), timeout=KERNEL_MS
            )
            _voila_page(page, "de", welcome, "lesson-voila-de-00-welcome")
            expect(page.get_by_role("heading", name="Willkommen bei Nofretete")).to_be_visible()
            check(page, "the German welcome in Voilà")
    finally:
        leave_voila(page)


@pytest.mark.parametrize("notebook", PATH[1:])
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_game_path_in_voila(voila, chromium, lang, notebook):  # noqa: F811
    """Voilà renders the notebook in ``lang`` (Chinese on a phone, German at 1024 x 768): the
    board and exercise in that language, the exercise answered, no English sentence."""
    if lang == "zh":
        context = chromium.new_context(viewport=PIXEL_5_VIEWPORT, **PIXEL_5)
    else:
        context = chromium.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    name = f"lesson-voila-{lang}-{Path(notebook).stem}"
    try:
        with screenshot_on_failure(page, name):
            page.goto(f"{voila}/voila/render/{lang}/{notebook}", timeout=KERNEL_MS)
            _voila_page(page, lang, notebook, name)
    finally:
        leave_voila(page)
