"""A teacher's own position file with two exercises, answered in Chromium (#13 item 2).

One server for the module: ``widgets.lesson.notebook.exercises(path)`` of the complete example in
docs/scenario-format.md (written to a temporary file), in English and in German. A learner opens
the tabs, answers wrong then right as the card offers (a button, a typed number), and reads the
teacher's question and the teacher's note after the engine's reason.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from support import ARTIFACTS, LOAD_MS, expect_verdict, give_answer, launch, served

from nefertiti_core.files.exercises import exercises_in

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("NEFERTITI_SHOTS", ARTIFACTS))

APP = """
import panel as pn
from widgets.lesson.notebook import exercises
FILE = {file!r}
def make(lang):
    return lambda: exercises(FILE, lang=lang, board_width=520)
pn.serve({{lang: make(lang) for lang in ("en", "de")}}, port=PORT, address="127.0.0.1",
         show=False, websocket_origin=["127.0.0.1:PORT", "localhost:PORT"])
"""


def _example() -> str:
    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    section = text[text.index("## Exercises") :]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    path = tmp_path_factory.mktemp("teacher") / "lesson.yaml"
    path.write_text(_example(), encoding="utf-8")
    with served(APP.format(file=str(path)), "en") as url, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            yield page, url.rsplit("/", 1)[0], exercises_in(path)
        finally:
            browser.close()


def _answer(page, block, ex, value, lang: str) -> None:
    """As a learner: press the choice labelled in the page's language, or type the number."""
    if ex.answer_kind != "choice":
        give_answer(page, block, ex, value)
        return
    label = dict(ex.choices(lang))[value]
    block.locator(".exercise-answer").get_by_role("button", name=label, exact=True).click()
    block.locator(".exercise-check").get_by_role("button").click()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_teachers_two_exercises_are_answered_wrong_then_right(lesson, lang):
    page, base, (first, second) = lesson
    page.goto(f"{base}/{lang}")
    block = page.locator("body")
    prompt = block.locator(".exercise-prompt")
    # the first tab: the teacher's own question, in the page's language
    prompt.get_by_text(first.prompt(lang), exact=False).wait_for(timeout=LOAD_MS)
    _answer(page, block, first, "no", lang)
    expect_verdict(block, "wrong", first.check("no", lang).headline)
    _answer(page, block, first, "yes", lang)
    shown = expect_verdict(block, "right", first.check("yes", lang).headline)
    assert first.explanations[lang] in shown, shown  # with the engine's reason
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"teacher-exercise-1-{lang}.png"), full_page=True)
    # the second tab: the tutor's question; a typed number
    block.locator(".bk-tab").nth(1).click()
    prompt.get_by_text(second.prompt(lang)[:40], exact=False).wait_for(timeout=LOAD_MS)
    _answer(page, block, second, -5, lang)
    expect_verdict(block, "wrong", second.check(-5, lang).headline)
    _answer(page, block, second, -7, lang)
    expect_verdict(block, "right", second.check(-7, lang).headline)
    page.screenshot(path=str(SHOTS / f"teacher-exercise-2-{lang}.png"), full_page=True)
