"""The first-game path (tutorials 00-03) in German and in Chinese, in JupyterLab.

Each notebook of the path runs in both languages (a 1400 x 1000 window; the notebook's first cell
calls ``use_language``). On each page the learner answers the notebook's first exercise wrong,
then right, and reads the engine's verdicts in the page's language; the lesson's board shows its
heading in that language; each demonstration is unfolded, so its account (built on the click) is
read too; and no English sentence is left in the outputs and Markdown (``lesson_pages`` says
how). axe-core finds no serious or critical violation in the German lesson 01's outputs. One
JupyterLab and one Chromium serve the module; a notebook's kernel is shut down before the next
one starts. Voilà's half of the path: test_voila_in_german_and_chinese.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from axe import check
from lesson_pages import (  # the shared checks; the module's fixtures
    DEMOS,
    LANGS,
    PATH,
    answer_first_exercise,
    board_speaks,
    lab,  # noqa: F401 - a fixture
    no_english,
    whole_page_screenshot,
    work,  # noqa: F401 - a fixture
)
from playwright.sync_api import expect
from support import (
    KERNEL_MS,
    open_and_run_all,
    screenshot_on_failure,
    shut_down_kernels,
    unfold_demos,
)

from nefertiti_core.engine.i18n import tr


@pytest.mark.parametrize("notebook", PATH)
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_game_path_in_jupyterlab(lab, chromium, lang, notebook):  # noqa: F811
    """Run all cells of the notebook in ``lang``: its board, exercise, verdicts, demonstrations
    and record speak ``lang``, and no English sentence is left in its outputs and prose."""
    name = f"lesson-jupyterlab-{lang}-{Path(notebook).stem}"
    page = open_and_run_all(
        chromium, f"{lab}/lab/tree/{lang}/{notebook}?reset", {"width": 1400, "height": 1000}
    )
    try:
        with screenshot_on_failure(page, name):
            board_speaks(page, lang, notebook)
            answer_first_exercise(page, lang, notebook)
            unfold_demos(page, lang, DEMOS[notebook])
            # the last cell ran: the learner's record, in the language
            expect(page.get_by_text(tr(lang, "coverage.view.title")).first).to_be_visible(
                timeout=KERNEL_MS
            )
            no_english(
                page,
                ".jp-Notebook .jp-OutputArea-output, .jp-Notebook .jp-MarkdownOutput",
                lang,
                notebook,
            )
            if (lang, notebook[:2]) == ("de", "01"):
                check(page, "the German lesson in JupyterLab", include=".jp-OutputArea-output")
            whole_page_screenshot(page, name)
    finally:
        shut_down_kernels(page, lab)
        page.close()
