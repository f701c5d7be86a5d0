"""The first-game path (tutorials 00-03) in German and in Chinese, in the real clients.

Each notebook of the path runs in both languages in JupyterLab and renders in both in Voilà
(the notebook's first cell calls ``use_language``). On each page the learner answers the
notebook's first exercise wrong, then right, and reads the engine's verdicts in the page's
language; the lesson's board shows its heading in that language; and no English sentence is
left on the page (``english_words``: the outputs and Markdown in JupyterLab, the whole body in
Voilà, read through the widgets' shadow roots, the game's names aside). In JupyterLab each
demonstration is unfolded too, so its account (built on the click) is read as well. Each page
is kept as a full-page screenshot (``ARTIFACTS/lesson-<client>-<lang>-<notebook>.png``) for a
native reader.

- JupyterLab (a 1400 x 1000 window) runs de 00-03 and zh 00-03; axe-core finds no serious or
  critical violation in the German lesson 01's outputs.
- Voilà renders the Chinese welcome on a phone (Pixel 5), follows its language line's
  "Deutsch" link to the German welcome, and renders 01-03 in Chinese on the phone and in German
  at 1024 x 768 (a projector's or a small laptop's screen); axe-core on each welcome page.

One JupyterLab, one Voilà and one Chromium serve the module; a notebook's kernel is shut down
before the next one starts. Both serve a copy of ``tutorials/`` (JupyterLab saves what it runs;
the repository's notebooks stay without outputs).
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path

import pytest
from axe import check
from english_words import english_messages, english_sentences, page_text
from helpers_reading import first_game_notebooks
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    expect_verdict,
    give_answer,
    open_and_run_all,
    shut_down_kernels,
    start_jupyterlab,
    wrong_and_right,
)
from test_voila import start_voila

from nefertiti_core.engine.i18n import catalog, tr
from nefertiti_core.files.exercises import exercises_for, scenario_path
from nefertiti_core.files.scenario import load

TUTORIALS = Path(__file__).resolve().parents[2] / "tutorials"
WAIT = 120_000  # ms: a kernel running the notebook's cells on a loaded machine answers late
LANGS = ("de", "zh")
#: The first-game path's notebooks (00-03), by name: the same in each language's folder.
PATH = tuple(p.name for p in first_game_notebooks(TUTORIALS))


def _called(notebook: str, function: str) -> list[str]:
    """The first arguments (names) of each call of ``function`` in the notebook's code."""
    cells = json.loads((TUTORIALS / notebook).read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return re.findall(rf"""\b{function}\(\s*["']([a-z-]+)["']""", code)


#: Each notebook's exercise topic and its board's scenario.
TOPIC = {name: _called(name, "exercises")[0] for name in PATH}
BOARD = {name: _called(name, "Lesson")[0] for name in PATH}
DEMOS = {name: len(_called(name, "demo")) for name in PATH}
_NO_MODEL = "Error displaying widget: model not found"


def _opening(lang: str, key: str) -> str:
    """A verdict's fixed opening in ``lang`` ("Nicht ganz: ..."), before its first placeholder."""
    return catalog(lang)[key].split("{")[0].split(":")[0].split("：")[0]


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


@contextlib.contextmanager
def _screenshot_on_failure(page, name: str):
    try:
        yield
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(Exception):
            page.screenshot(path=str(ARTIFACTS / f"{name}-failed.png"), full_page=True)
        raise


def _board_speaks(page, lang: str, notebook: str) -> None:
    """The lesson's board: its heading and its Undo button in ``lang``."""
    title = load(scenario_path(BOARD[notebook])).title_in(lang)
    expect(page.get_by_text(title).first).to_be_visible(timeout=WAIT)
    board = page.locator(".jp-OutputArea-output").filter(has_text=title).first
    expect(board.get_by_role("button", name=tr(lang, "lesson.undo"))).to_be_visible(timeout=WAIT)
    expect(board.locator(".bk-Canvas").first).to_be_visible(timeout=WAIT)


def _answer_first_exercise(page, lang: str, notebook: str) -> None:
    """The notebook's first exercise, answered wrong then right: the engine's verdicts, in
    ``lang``."""
    (ex, *_) = exercises_for(TOPIC[notebook])
    wrong, right = wrong_and_right(ex)
    wrong_feedback, right_feedback = ex.check(wrong, lang), ex.check(right, lang)
    block = page.locator(".jp-OutputArea-output").filter(
        has_text=tr(lang, "lesson.exercises_intro")
    )
    expect(block.locator(".exercise-prompt")).to_contain_text(ex.prompt(lang)[:60], timeout=WAIT)
    give_answer(page, block, ex, wrong, lang)
    shown = expect_verdict(block, "wrong", wrong_feedback.headline)
    assert shown.lstrip("\u2717 ").startswith(_opening(lang, "exercise.verdict.wrong")), shown
    give_answer(page, block, ex, right, lang)
    shown = expect_verdict(block, "right", right_feedback.headline)
    assert shown.lstrip("\u2714 ").startswith(_opening(lang, "exercise.verdict.right")), shown


def _no_english(page, selector: str, lang: str, notebook: str) -> None:
    """No English sentence, and no text of the English catalogue, in what ``selector`` finds
    (read through the widgets' shadow roots: the exercise's prompt must be among it)."""
    text = page_text(page.locator(selector))
    (ex, *_) = exercises_for(TOPIC[notebook])
    assert ex.prompt(lang)[:30] in text, f"the page's text was not read: {text[:300]!r}"
    found = english_sentences(text) + [f"{t!r} ({key})" for t, key in english_messages(text, lang)]
    assert not found, f"English on the {lang} page of {notebook}:\n" + "\n".join(found)


def _unfold_demos(page, lang: str, notebook: str) -> None:
    """Each demonstration of the notebook unfolds to the engine's account in ``lang``."""
    outputs = page.locator(".jp-OutputArea-output").filter(has=page.locator(".lesson-demo-show"))
    expect(outputs).to_have_count(DEMOS[notebook], timeout=WAIT)
    for i in range(DEMOS[notebook]):
        demo = outputs.nth(i)
        demo.locator(".lesson-demo-show button").click()
        account = demo.locator(".lesson-demo-account")
        expect(account).to_contain_text(tr(lang, "lesson.demo.account"), timeout=WAIT)
        expect(account.locator("li").first).to_be_visible(timeout=WAIT)


#: The page's tallest scrolling element (JupyterLab's notebook panel, Voilà's page): how much
#: taller its content is than the element.
_HIDDEN_HEIGHT = """() => {
    let most = 0;
    for (const e of document.querySelectorAll("*")) {
        const style = getComputedStyle(e);
        if (!/(auto|scroll)/.test(style.overflowY)) continue;
        most = Math.max(most, e.scrollHeight - e.clientHeight);
    }
    const page = document.scrollingElement;
    return Math.max(most, page.scrollHeight - page.clientHeight);
}"""


def _whole_page_screenshot(page, name: str) -> None:
    """The whole lesson in one picture: JupyterLab and Voilà scroll the notebook inside an
    element, which a full-page screenshot does not unroll, so the window grows by the height
    the scrolling hides first (and is restored after)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    hidden = page.evaluate(_HIDDEN_HEIGHT)
    page.set_viewport_size({"width": size["width"], "height": min(size["height"] + hidden, 15_000)})
    page.evaluate("() => document.querySelectorAll('*').forEach((e) => e.scrollTo?.(0, 0))")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), scale="css")
    page.set_viewport_size(size)


@pytest.mark.parametrize("notebook", PATH)
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_game_path_in_jupyterlab(lab, chromium, lang, notebook):
    """Run all cells of the notebook in ``lang``: its board, exercise, verdicts, demonstrations
    and record speak ``lang``, and no English sentence is left in its outputs and prose."""
    name = f"lesson-jupyterlab-{lang}-{Path(notebook).stem}"
    page = open_and_run_all(
        chromium, f"{lab}/lab/tree/{lang}/{notebook}?reset", {"width": 1400, "height": 1000}
    )
    try:
        with _screenshot_on_failure(page, name):
            _board_speaks(page, lang, notebook)
            _answer_first_exercise(page, lang, notebook)
            _unfold_demos(page, lang, notebook)
            # the last cell ran: the learner's record, in the language
            expect(page.get_by_text(tr(lang, "coverage.view.title")).first).to_be_visible(
                timeout=WAIT
            )
            _no_english(
                page,
                ".jp-Notebook .jp-OutputArea-output, .jp-Notebook .jp-MarkdownOutput",
                lang,
                notebook,
            )
            if (lang, notebook[:2]) == ("de", "01"):
                check(page, "the German lesson in JupyterLab", include=".jp-OutputArea-output")
            _whole_page_screenshot(page, name)
    finally:
        shut_down_kernels(page, lab)
        page.close()


def _rendered(page, lang: str, notebook: str) -> None:
    """Wait until Voilà shows the lesson in ``lang``: the Markdown and every output (the
    board's heading, the exercises, the record), none of them ipywidgets' "model not found"
    (Voilà's progressive rendering adds an output once its model has arrived:
    jupyterlab/voila/voila.json), and none of the other languages' texts."""
    expect(page.get_by_text(tr(lang, "coverage.view.title")).first).to_be_visible(timeout=WAIT)
    _board_speaks(page, lang, notebook)
    (ex, *_) = exercises_for(TOPIC[notebook])
    prompt = page.locator(".exercise-prompt").filter(has_text=ex.prompt(lang)[:30])
    expect(prompt.first).to_be_visible(timeout=WAIT)
    assert page.get_by_text(_NO_MODEL).count() == 0, f"{page.url}: {_NO_MODEL!r}"
    text = page.locator("body").inner_text()
    for other in ("en", "de", "zh"):
        if other != lang:
            for key in ("lesson.exercises_intro", "coverage.view.title", "lesson.undo"):
                assert tr(other, key) not in text, f"{page.url}: {tr(other, key)!r} ({other})"


def _voila_page(page, lang: str, notebook: str, name: str) -> None:
    """A rendered Voilà page: its exercise answered, no English on it, its screenshot."""
    _rendered(page, lang, notebook)
    _answer_first_exercise(page, lang, notebook)
    _no_english(page, "body", lang, notebook)
    _whole_page_screenshot(page, name)


def _leave(page) -> None:
    """Leave the Voilà page as a learner does: its unload asks Voilà to shut its kernel down
    (a closed browser context would leave the kernel running until the server stops)."""
    page.goto("about:blank")
    page.context.close()


def test_the_chinese_welcome_in_voila_on_a_phone_and_its_german_link(voila, chromium):
    """Voilà renders the Chinese welcome in Chinese on a phone; its language line leads to the
    German one, in German."""
    context = chromium.new_context(viewport=PIXEL_5_VIEWPORT, **PIXEL_5)
    page = context.new_page()
    welcome = PATH[0]
    with _screenshot_on_failure(page, "lesson-voila-zh-welcome"):
        page.goto(f"{voila}/voila/render/zh/{welcome}", timeout=WAIT)
        _voila_page(page, "zh", welcome, "lesson-voila-zh-00-welcome")
        expect(page.get_by_role("heading", name="欢迎来到娜芙蒂蒂")).to_be_visible()
        check(page, "the Chinese welcome in Voilà")
        # the language switch: the German page, in German
        page.get_by_role("link", name="Deutsch", exact=True).first.click()
        page.wait_for_url(re.compile(rf"/voila/render/de/{re.escape(welcome)}"), timeout=WAIT)
        _voila_page(page, "de", welcome, "lesson-voila-de-00-welcome")
        expect(page.get_by_role("heading", name="Willkommen bei Nofretete")).to_be_visible()
        check(page, "the German welcome in Voilà")
    _leave(page)


@pytest.mark.parametrize("notebook", PATH[1:])
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_game_path_in_voila(voila, chromium, lang, notebook):
    """Voilà renders the notebook in ``lang`` (Chinese on a phone, German at 1024 x 768): the
    board and exercise in that language, the exercise answered, no English sentence."""
    if lang == "zh":
        context = chromium.new_context(viewport=PIXEL_5_VIEWPORT, **PIXEL_5)
    else:
        context = chromium.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    name = f"lesson-voila-{lang}-{Path(notebook).stem}"
    with _screenshot_on_failure(page, name):
        page.goto(f"{voila}/voila/render/{lang}/{notebook}", timeout=WAIT)
        _voila_page(page, lang, notebook, name)
    _leave(page)
