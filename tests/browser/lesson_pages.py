"""What the first-game path's journeys in German and Chinese share
(``test_lessons_in_german_and_chinese.py`` in JupyterLab, ``test_voila_in_german_and_chinese.py``
in Voilà): the path's notebooks (00-03), a copy of ``tutorials/`` to serve, the checks a page of
the path passes (its board's heading in the page's language, the first exercise answered wrong
then right with the engine's verdicts, no English sentence: ``english_words``) and a full-page
screenshot for a native reader (``ARTIFACTS/lesson-<client>-<lang>-<notebook>.png``). Two modules,
so that two test processes share the path's sixteen pages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from english_words import english_messages, english_sentences, page_text
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    KERNEL_MS,
    PATH,
    TUTORIALS,
    answer_wrong_then_right,
    start_jupyterlab,
    start_voila,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import exercises_for, scenario_path
from nefertiti_core.files.scenario import load

LANGS = ("de", "zh")


def called(notebook: str, function: str) -> list[str]:
    """The first arguments (names) of each call of ``function`` in the notebook's code."""
    cells = json.loads((TUTORIALS / notebook).read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return re.findall(rf"""\b{function}\(\s*["']([a-z-]+)["']""", code)


#: Each notebook's exercise topic and its board's scenario.
TOPIC = {name: called(name, "exercises")[0] for name in PATH}
BOARD = {name: called(name, "Lesson")[0] for name in PATH}
DEMOS = {name: len(called(name, "demo")) for name in PATH}
NO_MODEL = "Error displaying widget: model not found"


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lessons-in-languages")
    shutil.copytree(TUTORIALS, root / "tutorials")
    return root


@pytest.fixture(scope="module")
def lab(work):
    with start_jupyterlab(work / "home", work / "tutorials") as url:
        yield url


@pytest.fixture(scope="module")
def voila(work):
    with start_voila(work / "voila-home", work / "tutorials") as url:
        yield url


def board_speaks(page, lang: str, notebook: str) -> None:
    """The lesson's board: its heading and its Undo button in ``lang``."""
    title = load(scenario_path(BOARD[notebook])).title_in(lang)
    expect(page.get_by_text(title).first).to_be_visible(timeout=KERNEL_MS)
    board = page.locator(".jp-OutputArea-output").filter(has_text=title).first
    expect(board.get_by_role("button", name=tr(lang, "lesson.undo"))).to_be_visible(
        timeout=KERNEL_MS
    )
    expect(board.locator(".bk-Canvas").first).to_be_visible(timeout=KERNEL_MS)


def answer_first_exercise(page, lang: str, notebook: str) -> None:
    """The notebook's first exercise, answered wrong then right: the engine's verdicts, in
    ``lang``."""
    (ex, *_) = exercises_for(TOPIC[notebook])
    block = page.locator(".jp-OutputArea-output").filter(
        has_text=tr(lang, "lesson.exercises_intro")
    )
    expect(block.locator(".exercise-prompt")).to_contain_text(
        ex.prompt(lang)[:60], timeout=KERNEL_MS
    )
    answer_wrong_then_right(page, block, ex, lang)


def no_english(page, selector: str, lang: str, notebook: str) -> None:
    """No English sentence, and no text of the English catalogue, in what ``selector`` finds
    (read through the widgets' shadow roots: the exercise's prompt must be among it)."""
    text = page_text(page.locator(selector))
    (ex, *_) = exercises_for(TOPIC[notebook])
    assert ex.prompt(lang)[:30] in text, f"the page's text was not read: {text[:300]!r}"
    found = english_sentences(text) + [f"{t!r} ({key})" for t, key in english_messages(text, lang)]
    assert not found, f"English on the {lang} page of {notebook}:\n" + "\n".join(found)


#: The page's tallest scrolling element (JupyterLab's notebook panel, Voilà's page): how much
#: taller its content is than the element.
HIDDEN_HEIGHT = """() => {
    let most = 0;
    for (const e of document.querySelectorAll("*")) {
        const style = getComputedStyle(e);
        if (!/(auto|scroll)/.test(style.overflowY)) continue;
        most = Math.max(most, e.scrollHeight - e.clientHeight);
    }
    const page = document.scrollingElement;
    return Math.max(most, page.scrollHeight - page.clientHeight);
}"""


def whole_page_screenshot(page, name: str) -> None:
    """The whole lesson in one picture: JupyterLab and Voilà scroll the notebook inside an
    element, which a full-page screenshot does not unroll, so the window grows by the height
    the scrolling hides first (and is restored after)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    hidden = page.evaluate(HIDDEN_HEIGHT)
    page.set_viewport_size({"width": size["width"], "height": min(size["height"] + hidden, 15_000)})
    page.evaluate("() => document.querySelectorAll('*').forEach((e) => e.scrollTo?.(0, 0))")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), scale="css")
    page.set_viewport_size(size)
