"""The lessons in the learner's language, in the real clients.

- JupyterLab opens ``tutorials/de/01-a-turn.ipynb`` and runs all its cells: the board, its
  heading and the exercises are in German (the notebook's first cell calls
  ``use_language("de")``); the learner answers the first exercise wrong, then right, and reads
  the engine's German verdicts; axe-core finds no serious or critical violation in the lesson's
  outputs.
- Voilà, on a phone (Pixel 5), renders ``tutorials/zh/00-welcome.ipynb`` in Chinese; the
  language line's "Deutsch" link leads to the German page, which renders in German; axe-core on
  each page.

Both serve a copy of ``tutorials/`` (JupyterLab saves what it runs; the repository's notebooks
stay without outputs).
"""

from __future__ import annotations

import contextlib
import re
import shutil
from pathlib import Path

import pytest
from axe import check
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    expect_verdict,
    give_answer,
    open_and_run_all,
    start_jupyterlab,
    wrong_and_right,
)
from test_voila import start_voila

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import exercises_for, scenario_path
from nefertiti_core.files.scenario import load

TUTORIALS = Path(__file__).resolve().parents[2] / "tutorials"
WAIT = 120_000  # ms: a kernel running the notebook's cells on a loaded machine answers late
#: Playwright's Pixel 5 descriptor (``p.devices["Pixel 5"]``), spelled out.
PIXEL_5 = dict(
    viewport={"width": 393, "height": 851},
    user_agent="Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36",
    device_scale_factor=2.75,
    is_mobile=True,
    has_touch=True,
)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lessons-in-languages")
    shutil.copytree(TUTORIALS, root / "tutorials")
    return root


@contextlib.contextmanager
def _screenshot_on_failure(page, name: str):
    try:
        yield
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(Exception):
            page.screenshot(path=str(ARTIFACTS / f"{name}-failed.png"))
        raise


def test_a_german_lesson_in_jupyterlab(work, chromium):
    """Run all cells of the German notebook 01; its board and exercises speak German."""
    (ex, *_) = exercises_for("a-turn")
    wrong, right = wrong_and_right(ex)
    wrong_feedback, right_feedback = ex.check(wrong, "de"), ex.check(right, "de")
    with start_jupyterlab(work / "home", work / "tutorials") as url:
        page = open_and_run_all(
            chromium, f"{url}/lab/tree/de/01-a-turn.ipynb?reset", {"width": 1400, "height": 1000}
        )
        with _screenshot_on_failure(page, "lesson-de-jupyterlab"):
            # the lesson's board: its heading and buttons in German
            title = load(scenario_path("a-turn")).title_in("de")
            expect(page.get_by_text(title).first).to_be_visible(timeout=WAIT)
            board = page.locator(".jp-OutputArea-output").filter(has_text=title).first
            expect(board.get_by_role("button", name=tr("de", "lesson.undo"))).to_be_visible()
            expect(board.locator(".bk-Canvas").first).to_be_visible(timeout=WAIT)
            # the exercises: German prompt, a wrong then a right answer, German verdicts
            block = page.locator(".jp-OutputArea-output").filter(
                has_text=tr("de", "lesson.exercises_intro")
            )
            expect(block.locator(".exercise-prompt")).to_contain_text(
                ex.prompt("de")[:60], timeout=WAIT
            )
            give_answer(page, block, ex, wrong)
            shown_wrong = expect_verdict(block, "wrong", wrong_feedback.headline)
            assert shown_wrong.lstrip("\u2717 ").startswith("Nicht ganz"), shown_wrong
            give_answer(page, block, ex, right)
            shown_right = expect_verdict(block, "right", right_feedback.headline)
            assert shown_right.lstrip("\u2714 ").startswith("Richtig"), shown_right
            # the record in German too, and nothing of the English lesson's prose or widgets
            expect(page.get_by_text(tr("de", "coverage.view.title")).first).to_be_visible()
            text = page.locator(".jp-Notebook").inner_text()
            for english in (
                tr("en", "lesson.exercises_intro"),
                tr("en", "coverage.view.title"),
                "Coins for placing",
                ex.prompt("en")[:40],
            ):
                assert english not in text, f"English on the German page: {english!r}"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            block.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "lesson-de-jupyterlab.png"))
            check(page, "the German lesson in JupyterLab", include=".jp-OutputArea-output")
        page.close()


_NO_MODEL = "Error displaying widget: model not found"


def _rendered(page, lang: str) -> None:
    """Wait until the welcome page shows its lesson in ``lang``: the Markdown and every output
    (the board's heading, the exercises, the record), none of them ipywidgets' "model not
    found" (Voilà's progressive rendering adds an output once its model has arrived:
    jupyterlab/voila/voila.json), and nothing of the other languages' texts."""
    record = page.get_by_text(tr(lang, "coverage.view.title")).first
    expect(record).to_be_visible(timeout=WAIT)
    (ex, *_) = exercises_for("welcome")
    title = load(scenario_path("first-game")).title_in(lang)
    expect(page.get_by_text(title).first).to_be_visible(timeout=WAIT)
    prompt = page.locator(".exercise-prompt").filter(has_text=ex.prompt(lang)[:30])
    expect(prompt.first).to_be_visible(timeout=WAIT)
    assert page.get_by_text(_NO_MODEL).count() == 0, f"{page.url}: {_NO_MODEL!r}"
    text = page.locator("body").inner_text()
    for other in ("en", "de", "zh"):
        if other != lang:
            for key in ("lesson.exercises_intro", "coverage.view.title", "lesson.undo"):
                assert tr(other, key) not in text, f"{page.url}: {tr(other, key)!r} ({other})"


def test_a_chinese_page_in_voila_on_a_phone_and_its_german_link(work, chromium):
    """Voilà renders the Chinese welcome in Chinese; its language line leads to the German one."""
    with start_voila(work / "voila-home", work / "tutorials") as url:
        context = chromium.new_context(**PIXEL_5)
        page = context.new_page()
        with _screenshot_on_failure(page, "lesson-zh-voila"):
            page.goto(f"{url}/voila/render/zh/00-welcome.ipynb", timeout=WAIT)
            _rendered(page, "zh")
            expect(page.get_by_role("heading", name="欢迎来到娜芙蒂蒂")).to_be_visible()
            text = page.locator("body").inner_text()
            assert tr("en", "lesson.exercises_intro") not in text
            assert "Your servants bid" not in text
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "lesson-zh-voila-phone.png"))
            check(page, "the Chinese welcome in Voilà")
            # the language switch: the German page, in German
            page.get_by_role("link", name="Deutsch", exact=True).first.click()
            page.wait_for_url(re.compile(r"/voila/render/de/00-welcome\.ipynb"), timeout=WAIT)
            _rendered(page, "de")
            expect(page.get_by_role("heading", name="Willkommen bei Nofretete")).to_be_visible()
            text = page.locator("body").inner_text()
            assert tr("zh", "lesson.exercises_intro") not in text
            assert "Your servants bid" not in text
            page.screenshot(path=str(ARTIFACTS / "lesson-de-voila-phone.png"))
            check(page, "the German welcome in Voilà")
        context.close()
