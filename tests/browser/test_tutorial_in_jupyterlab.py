"""A tutorial in the real client, in German: JupyterLab opens the German copy of the Abou Simbel
notebook (``tutorials/de``), runs it, and the learner answers its "click the square that closes
the market" exercise on the board: once wrong with the mouse, then right with the keyboard alone
(Tab onto the board's grid, the arrow keys, Enter; the grid, its squares and the line saying the
square chosen named in German, checked through ARIA queries), and reads the engine's German
verdicts; Escape leaves the board. The lesson's outputs pass axe-core (no serious or critical
violation). The same by keyboard in Chinese in Voilà: test_voila.py."""

from __future__ import annotations

import shutil

from axe import check
from board_keyboard import answer_by_keyboard, focused, on_board
from motion import moving_under
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    KERNEL_MS,
    TUTORIALS,
    expect_verdict,
    give_answer,
    open_and_run_all,
    screenshot_on_failure,
    start_jupyterlab,
    verdict_opening,
    wrong_and_right,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import EXERCISES

NOTEBOOK = "de/09-closing-abou-simbel.ipynb"
EXERCISE = "closing-abou-simbel/exactly-fourteen"


def test_a_german_tutorial_exercise_answered_on_the_board_by_mouse_and_by_keyboard(
    tmp_path, chromium
):
    # A copy: JupyterLab saves what it runs, and the repository's notebooks stay without outputs.
    work = tmp_path / "tutorials"
    shutil.copytree(TUTORIALS, work)
    ex = EXERCISES[EXERCISE]
    wrong, right = wrong_and_right(ex)
    wrong_feedback, right_feedback = ex.check(wrong, "de"), ex.check(right, "de")
    assert not wrong_feedback.correct and right_feedback.correct

    with start_jupyterlab(tmp_path / "home", work) as lab:
        page = open_and_run_all(
            chromium,
            f"{lab}/lab/tree/{NOTEBOOK}?reset",
            {"width": 1024, "height": 768},
            reduced_motion="reduce",
        )
        try:
            with screenshot_on_failure(page, "tutorial-exercise-de", full_page=False):
                block = page.locator(".jp-OutputArea-output").filter(
                    has_text=tr("de", "lesson.exercises_intro")
                )
                expect(block.locator(".exercise-prompt").first).to_contain_text(
                    ex.prompt("de")[:40], timeout=KERNEL_MS
                )
                give_answer(page, block, ex, wrong)  # a click on a square of the card's board
                shown = expect_verdict(block, "wrong", wrong_feedback.headline)
                assert shown.lstrip("\u2717 ").startswith(verdict_opening("de", "wrong")), shown
                # the keyboard alone: Tab onto the board, the arrows to the square, Enter
                said = answer_by_keyboard(page, block, ex, *right, "de")
                assert said.startswith(tr("de", "exercise.card.your_square", square="")[:-1]), said
                shown = expect_verdict(block, "right", right_feedback.headline)
                opening = verdict_opening("de", "right")
                assert shown.lstrip("\u2714 ").startswith(opening) and "R3.5" in shown, shown
                assert on_board(focused(page))  # the focus stays on the square answered
                page.keyboard.press("Escape")  # leaves the board (and not JupyterLab's cell)
                assert not on_board(focused(page))
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "tutorial-exercise-de-keyboard.png"))
                # the learner's system asks for less motion: nothing of the lesson moves
                moves = moving_under(page, ".jp-OutputArea-output")
                assert not moves, moves
                # the lesson's outputs (not JupyterLab's own interface) pass axe-core: no serious or
                # critical violation (test_accessibility.py checks the served pages)
                check(
                    page,
                    "the German lesson's outputs in JupyterLab",
                    include=".jp-OutputArea-output",
                )
        finally:
            page.close()
