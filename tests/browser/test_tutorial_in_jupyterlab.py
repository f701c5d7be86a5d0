"""A tutorial in the real client: JupyterLab opens the Abou Simbel notebook, runs it, and the
learner answers its "click the square that closes the market" exercise on the board; the
lesson's outputs pass axe-core (no serious or critical violation)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from axe import check
from playwright.sync_api import sync_playwright
from support import ARTIFACTS, launch
from test_jupyterlab import open_and_run_all, start_jupyterlab

from nefertiti_core.files.exercises import EXERCISES
from widgets.game import geometry as G

TUTORIALS = Path(__file__).resolve().parents[2] / "tutorials"
NOTEBOOK = "09-closing-abou-simbel.ipynb"
EXERCISE = "closing-abou-simbel/exactly-fourteen"


def test_a_tutorial_exercise_answered_by_clicking_the_board(tmp_path):
    # A copy: JupyterLab saves what it runs, and the repository's notebooks stay without outputs.
    work = tmp_path / "tutorials"
    shutil.copytree(TUTORIALS, work)
    exercise = EXERCISES[EXERCISE]
    state = exercise.state()
    (right,) = exercise.right_answer()
    market = 2  # Abou Simbel
    cell = next(c for c in G.squares(state.side) if c.market == market and c.index == right)
    prompt = exercise.prompt("en")[:40]

    with start_jupyterlab(tmp_path / "home", work) as lab, sync_playwright() as p:
        browser = launch(p)
        page = open_and_run_all(
            browser, f"{lab}/lab/tree/{NOTEBOOK}?reset", {"width": 1500, "height": 1100}
        )
        question = page.get_by_text(prompt).first
        question.wait_for(timeout=120_000)
        question.scroll_into_view_if_needed()
        time.sleep(1.0)
        top = question.bounding_box()["y"]
        canvases = page.locator(".bk-Canvas")
        below = [
            (box["y"], i)
            for i in range(canvases.count())
            if (box := canvases.nth(i).bounding_box()) and box["y"] > top
        ]
        board = canvases.nth(min(below)[1])
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        page.mouse.click(
            box["x"] + cell.x / G.WIDTH * box["width"],
            box["y"] + (1 - cell.y / G.HEIGHT) * box["height"],
        )
        # The card's feedback, from the engine: its verdict first ("Right: ..."), then why
        headline = exercise.check((market, right), "en").headline
        feedback = page.locator(".exercise-feedback .verdict-right").first
        feedback.wait_for(timeout=30_000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "tutorial-exercise.png"))
        text = feedback.inner_text()
        assert headline in text and "R3.5" in text, text
        # the lesson's outputs (not JupyterLab's own interface) pass axe-core: no serious or
        # critical violation (test_accessibility.py checks the served pages)
        check(page, "the lesson's outputs in JupyterLab", include=".jp-OutputArea-output")
        browser.close()
