"""Every exercise of every tutorial, answered in the real client, each notebook in one of the
three languages: what the three test modules (``test_every_exercise_in_english.py``,
``..._in_german.py``, ``..._in_chinese.py``) share.

One JupyterLab serves a copy of ``tutorials/`` (with its ``de/`` and ``zh/`` copies). Each notebook
is opened in its language's folder (the kernel's folder gives the lesson's language), run (Run >
Run All Cells) and its exercise block is worked through tab by tab as a learner does: each
exercise is answered once wrong and once right, by its kind (a choice pressed, a number or a
chance typed and Checked, a square clicked on the card's board), and the feedback shown must be
the engine's verdict for that answer, in that language. A "click the square" exercise also gets a
click on another market first, which must be refused, not judged. The right answers come from the
engine (``Exercise.right_answer``).

The first-game path (00-03) is answered in English, the whole of it as a newcomer takes it; the
other notebooks take the languages in turn (04 German, 05 Chinese, 06 English, ...:
:data:`LANGUAGE_OF`), so every exercise is pressed once, the journey runs in every language, and
the work is shared by three modules. The exercises are enumerated from the
engine's table (``EXERCISES``): the last test of each module fails if one of its exercises was
not answered, and the English module checks that the three parts' topics together are the whole
table, so no exercise can exist that no browser test has pressed.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from support import (
    ARTIFACTS,
    KERNEL_MS,
    PATH,
    TUTORIALS,
    answer_wrong_then_right,
    expect_verdict,
    give_answer,
    launch,
    open_and_run_all,
    shut_down_kernels,
    start_jupyterlab,
    unfold_demos,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import exercises_for

EXERCISE_CALL = re.compile(r"""exercises\(\s*["']([a-z-]+)["']""")
DEMO_CALL = re.compile(r"""\bdemo\(""")


LANGUAGES = ("en", "de", "zh")


def _path(notebook: str, lang: str) -> Path:
    """The notebook's copy in ``lang`` (English in ``tutorials/``, the others in a folder)."""
    return TUTORIALS / notebook if lang == "en" else TUTORIALS / lang / notebook


def _topics_by_notebook() -> dict[str, str]:
    found = {}
    for path in sorted(TUTORIALS.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            for topic in EXERCISE_CALL.findall(source):
                found.setdefault(path.name, topic)
    return found


NOTEBOOKS = _topics_by_notebook()
#: The first-game path (00-03, support.PATH) is answered in English here, the whole of it as a
#: newcomer takes it (its German and Chinese copies: test_lessons_in_german_and_chinese.py,
#: ..._voila_...).
#: The language each notebook is answered in: the path in English, the others in turn German,
#: Chinese, English.
LANGUAGE_OF = {
    nb: "en" if nb in PATH else ("de", "zh", "en")[i % 3]
    for i, nb in enumerate(nb for nb in sorted(NOTEBOOKS) if nb not in PATH)
} | {nb: "en" for nb in PATH}
#: The notebooks of each language's module.
PARTS = {lang: [nb for nb in sorted(NOTEBOOKS) if LANGUAGE_OF[nb] == lang] for lang in LANGUAGES}


def _code_cells(notebook: str) -> list[str]:
    cells = json.loads(_path(notebook, LANGUAGE_OF[notebook]).read_text())["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


#: How many demonstrations each notebook's copy shows, and how many code cells it has (each
#: must have run).
DEMOS = {nb: sum(len(DEMO_CALL.findall(src)) for src in _code_cells(nb)) for nb in NOTEBOOKS}
CODE_CELLS = {nb: len(_code_cells(nb)) for nb in NOTEBOOKS}
DEMOS_PRESSED: dict[str, int] = {}
ANSWERED: dict[str, tuple[str, str]] = {}  # exercise id -> (the wrong verdict, the right one)
TIMES: dict[str, float] = {}
STEPS: list = []  # (notebook, exercise, step, seconds since the notebook was opened)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab and one Chromium for the module; the notebooks are a copy (JupyterLab saves
    what it runs, and the repository's notebooks stay without outputs)."""
    root = tmp_path_factory.mktemp("every-exercise")
    work = root / "tutorials"
    shutil.copytree(TUTORIALS, work)
    with start_jupyterlab(root / "home", work) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            yield url, browser
        finally:
            browser.close()


def answer_every_exercise(lab, notebook: str) -> None:
    """Open and run ``notebook``, then answer each exercise of its topic wrong and right, press
    its demonstrations and open its folds."""
    url, browser = lab
    topic = NOTEBOOKS[notebook]
    lang = LANGUAGE_OF[notebook]
    exercises = exercises_for(topic)
    start = time.monotonic()
    folder = "" if lang == "en" else f"{lang}/"
    page = open_and_run_all(
        browser, f"{url}/lab/tree/{folder}{notebook}?reset", {"width": 1400, "height": 1000}
    )
    try:
        # the topic's block: a notebook may show other exercises too (15: a teacher's file's),
        # so the block is the one that opens on the topic's first exercise
        blocks = page.locator(".jp-OutputArea-output").filter(
            has_text=tr(lang, "lesson.exercises_intro")
        )
        first = exercises[0].prompt(lang)[:60]
        expect(blocks.filter(has_text=first)).to_have_count(1, timeout=KERNEL_MS)
        shows = [blocks.nth(i).filter(has_text=first).count() for i in range(blocks.count())]
        block = blocks.nth(shows.index(1))  # (has_text sees into the shadow DOM; inner_text not)
        tabs = block.locator(".bk-tab")
        for number, ex in enumerate(exercises, start=1):
            if number > 1:
                tabs.nth(number - 1).click()
            prompt = block.locator(".exercise-prompt")
            expect(prompt).to_contain_text(ex.prompt(lang)[:60], timeout=KERNEL_MS)
            STEPS.append((notebook, ex.id, "shown", time.monotonic() - start))
            if ex.answer_kind == "square":
                # a square of another market is refused, not judged (#13 item 8)
                other = (ex.market + 1) % 4
                give_answer(page, block, ex, (other, 0), lang)
                refused = ex.check((other, 0), lang)
                assert not refused.valid
                expect_verdict(block, "invalid", refused.headline)
            shown_wrong, shown_right = answer_wrong_then_right(page, block, ex, lang)
            ANSWERED[ex.id] = (shown_wrong, shown_right)
            STEPS.append((notebook, ex.id, "answered", time.monotonic() - start))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        block.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"every-exercise-{Path(notebook).stem}.png"))
        _press_every_demo(page, notebook, lang)
        _open_every_fold(page)
        _no_cell_failed(page, notebook)
    except Exception as failure:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"every-exercise-{Path(notebook).stem}-failed.png"))
        # a cell that raised stops Run All: say which error, not only that nothing appeared
        errors = page.locator(
            '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
        )
        shown = [errors.nth(i).inner_text()[-800:] for i in range(min(errors.count(), 3))]
        if shown:
            raise AssertionError(f"{notebook}: a cell failed:\n" + "\n".join(shown)) from failure
        raise
    finally:
        shut_down_kernels(page, url)
        page.close()
        TIMES[notebook] = time.monotonic() - start


def _no_cell_failed(page, notebook: str) -> None:
    """Run All went through: the last code cell shows what it made (the learner's record: a
    cell after a failed one is never run and shows nothing), and no cell shows a Python
    error."""
    cells = page.locator(".jp-Notebook .jp-CodeCell")
    expect(cells).to_have_count(CODE_CELLS[notebook], timeout=KERNEL_MS)
    expect(cells.last.locator(".jp-OutputArea-output").first).to_be_attached(timeout=KERNEL_MS)
    errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    failed = [text for text in errors.all_inner_texts() if "Traceback" in text or "Error" in text]
    assert not failed, f"{notebook}: a cell failed:\n" + "\n".join(t[-800:] for t in failed)


def _press_every_demo(page, notebook: str, lang: str) -> None:
    """Each folded demonstration unfolds, with no step refused (support.unfold_demos); counted
    for :func:`check_part`."""
    unfold_demos(page, lang, DEMOS[notebook])
    DEMOS_PRESSED[notebook] = DEMOS[notebook]
    if DEMOS[notebook]:
        page.screenshot(path=str(ARTIFACTS / f"every-demo-{Path(notebook).stem}.png"))


def _open_every_fold(page) -> None:
    """Each folded answer ("Check your answer" tables, score sheets) opens on a click."""
    folds = page.locator(".lesson-fold")
    for i in range(folds.count()):
        fold = folds.nth(i)
        fold.scroll_into_view_if_needed()
        fold.locator(".card-header").first.click()
        expect(fold.locator("table").first).to_be_visible(timeout=KERNEL_MS)


def check_part(lang: str) -> None:
    """After its language's part: every exercise of the part's topics was answered wrong and
    right, every demonstration of its notebooks unfolded."""
    notebooks = PARTS[lang]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    times = {"times": TIMES, "steps": STEPS}
    (ARTIFACTS / f"every-exercise-times-{lang}.json").write_text(json.dumps(times, indent=1))
    expected = {ex.id for nb in notebooks for ex in exercises_for(NOTEBOOKS[nb])}
    missing = sorted(expected - set(ANSWERED))
    assert not missing, f"{len(missing)} exercises no browser test answered: {missing}"
    unpressed = {nb: DEMOS[nb] for nb in notebooks if DEMOS_PRESSED.get(nb, 0) != DEMOS[nb]}
    assert not unpressed, f"demonstrations no browser test unfolded: {unpressed}"
    total = sum(TIMES[nb] for nb in notebooks if nb in TIMES)
    print(f"\n{len(expected)} exercises of {len(notebooks)} notebooks answered in {total:.0f} s")
