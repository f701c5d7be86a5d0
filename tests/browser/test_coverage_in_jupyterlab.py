"""The learner's record in the real client (#13 item 5): JupyterLab runs a notebook whose cell plays
a move on a lesson board (Run All): the coverage view shows it seen, nothing practised. The learner
clicks a square on the board: the view, redrawn through the kernel, shows the rule practised, and
the record file says so too."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import sync_playwright
from support import ARTIFACTS, KERNEL_MS, launch, open_and_run_all, start_jupyterlab

from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from widgets.game import geometry as G


def cell(source: str) -> dict:
    return {
        "cell_type": "code",
        "metadata": {},
        "source": source,
        "outputs": [],
        "execution_count": None,
    }


NOTEBOOK = {
    "cells": [
        cell("import panel as pn\npn.extension(inline=True)"),
        cell(
            "from widgets.lesson.notebook import Lesson, coverage_view\n"
            'lesson = Lesson("first-game")\n'
            'lesson.play("place gizeh.left#3")  # played by the notebook, not the learner\n'
            "lesson"
        ),
        cell("coverage_view()"),
    ],
    "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}


def r5_row(page) -> list[str] | None:
    """The R5 row of the coverage view's table (Panel renders Markdown in shadow DOM: the
    locator sees through it)."""
    rows = page.locator("tr", has=page.locator("td", has_text=re.compile(r"^R5$")))
    if rows.count() == 0:
        return None
    return [c.strip() for c in rows.first.locator("td").all_inner_texts()]


def test_a_click_on_a_board_shows_as_practised_and_notebook_moves_do_not(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "record.ipynb").write_text(json.dumps(NOTEBOOK))
    state = load(scenario_path("first-game")).state
    state.apply("place gizeh.left#3")
    option = state.parse("place abou_simbel.left#0")  # Red's first servant there: R5.3
    square = next(c for c in G.squares(state.side) if c.option == option)
    record = tmp_path / "home" / "nefertiti" / "coverage.json"
    shots = ARTIFACTS
    shots.mkdir(parents=True, exist_ok=True)  # screenshots of the view before and after

    with start_jupyterlab(tmp_path / "home", work) as lab, sync_playwright() as p:
        browser = launch(p)
        page = open_and_run_all(
            browser, f"{lab}/lab/tree/record.ipynb?reset", {"width": 1500, "height": 1100}
        )
        title = page.get_by_text("Your rule record").first
        title.wait_for(timeout=KERNEL_MS)
        deadline = time.monotonic() + 30
        while (row := r5_row(page)) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        # Run All: the notebook's move is seen (R5.3, R5.5), nothing is practised
        assert row == ["R5", "2 of 5: R5.3, R5.5", "0 of 5", "—", "—"], row
        title.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "coverage-after-run-all.png"))

        board = page.locator(".jp-OutputArea-output .bk-Canvas").first
        board.scroll_into_view_if_needed()
        time.sleep(0.5)
        box = board.bounding_box()
        page.mouse.click(
            box["x"] + square.x / G.WIDTH * box["width"],
            box["y"] + (1 - square.y / G.HEIGHT) * box["height"],
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            row = r5_row(page)
            if row and row[2] != "0 of 5":
                break
            time.sleep(0.2)
        assert row == ["R5", "2 of 5: R5.3, R5.5", "2 of 5: R5.3, R5.5", "—", "—"], row
        view = page.locator(".jp-OutputArea-output", has_text="Your rule record").last
        view.scroll_into_view_if_needed()
        view.screenshot(path=str(shots / "coverage-after-click.png"))
        browser.close()
        # the kernel saves in the background: the file follows within moments
        deadline = time.monotonic() + 15
        rules = {}
        while time.monotonic() < deadline:
            if record.exists():
                rules = json.loads(record.read_text())["rules"]
                if rules.get("R5.3", {}).get("practised"):
                    break
            time.sleep(0.2)
    assert rules["R5.3"] == {"seen": 2, "practised": 1}, rules
    assert rules["R2"] == {"seen": 1}  # the set-up board was shown
