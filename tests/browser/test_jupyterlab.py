"""End to end in the real client: JupyterLab, headless on 127.0.0.1, a notebook that shows the
Sandbox, run in Chromium; a click on a square places a servant, through the kernel."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from support import ARTIFACTS, free_port, launch, wait_for_http

from widgets import geometry as G

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "metadata": {},
            "source": "import panel as pn\npn.extension(inline=True)",
            "outputs": [],
            "execution_count": None,
        },
        {
            "cell_type": "code",
            "metadata": {},
            "source": "from widgets.sandbox import make_app\napp = make_app()\napp",
            "outputs": [],
            "execution_count": None,
        },
    ],
    "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}

SERVANTS = """() => { for (const d of (window.Bokeh ? Bokeh.documents : [])) {
    const m = d.get_model_by_name('board-servants');
    if (m) { const c = m.data instanceof Map ? m.data.get('x') : m.data['x']; return c.length; } }
    return -1; }"""


#: The project's JupyterLab settings, which the install copies into the environment (Makefile).
OVERRIDES = Path(__file__).resolve().parents[2] / "jupyterlab" / "overrides.json"
INSTALLED_OVERRIDES = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


@contextlib.contextmanager
def start_jupyterlab(home, root):
    """JupyterLab on 127.0.0.1 serving ``root``, with its settings kept in ``home``.

    It runs with the project's settings (jupyterlab/overrides.json: comms over subshells off),
    as ``make tutor`` does; an environment installed without them is refused, not tested."""
    if not INSTALLED_OVERRIDES.exists() or (
        json.loads(INSTALLED_OVERRIDES.read_text()) != json.loads(OVERRIDES.read_text())
    ):
        raise RuntimeError(
            f"{INSTALLED_OVERRIDES} is missing or differs from {OVERRIDES}: run make install"
        )
    home.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "NEFERTITI_HOME": str(home / "nefertiti"),
    }
    port = free_port()
    # The server's output goes to a file (a pipe nobody reads would block it past 64 KB); its
    # end is shown if the server does not start.
    log = open(home / "jupyterlab.log", "w+")  # noqa: SIM115 - closed in the finally below
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ip",
            "127.0.0.1",
            "--port",
            str(port),
            "--ServerApp.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        try:
            # 240 s: at a load of 16 on 2 cores the server logged its first line 80 s after
            # it was started, and a 90 s wait failed there (issue #14's odds journey runs).
            wait_for_http(f"http://127.0.0.1:{port}/lab", timeout=240)
        except RuntimeError:
            process.kill()
            process.wait(timeout=10)
            log.seek(0)
            raise RuntimeError(log.read()[-3000:]) from None
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def open_and_run_all(browser, url: str, viewport: dict):
    """A page on the notebook at ``url``: once the kernel is idle, Run > Run All Cells
    (../shared/STACK-NOTES.md)."""
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    # the status bar says the kernel is starting meanwhile (240 s: see start_jupyterlab)
    page.get_by_text("Python 3 (ipykernel) | Idle").first.wait_for(timeout=240_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    return page


@pytest.fixture()
def jupyterlab(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "sandbox.ipynb").write_text(json.dumps(NOTEBOOK))
    with start_jupyterlab(tmp_path / "home", work) as url:
        yield url


def test_the_sandbox_runs_in_jupyterlab_and_a_click_places_a_servant(jupyterlab):
    with sync_playwright() as p:
        browser = launch(p)
        page = open_and_run_all(
            browser,
            f"{jupyterlab}/lab/tree/sandbox.ipynb?reset",
            {"width": 1600, "height": 1200},
        )
        canvas = page.locator(".jp-OutputArea-output .bk-Canvas").first
        canvas.wait_for(timeout=90_000)
        page.wait_for_function(f"() => ({SERVANTS})() >= 0", polling=50, timeout=60_000)
        time.sleep(1.0)
        assert page.evaluate(SERVANTS) == 0
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        # The first open square of Gizeh's left stall (the first-game layout, R2.8).
        from nefertiti_core import new_game

        cell = next(c for c in G.squares(new_game(4, 0).side) if c.market == 0 and c.index == 0)
        x = box["x"] + cell.x / G.WIDTH * box["width"]
        y = box["y"] + (1 - cell.y / G.HEIGHT) * box["height"]
        page.mouse.click(x, y)
        page.wait_for_function(f"() => ({SERVANTS})() === 1", polling=20, timeout=30_000)
        # drawn in the browser at the press; the kernel played it: the next player decides
        decider = page.get_by_text("Black decides now").first
        decider.wait_for(timeout=30_000)
        # The notebook's column is narrower than the app in a browser window: the Sandbox is one
        # column there, the decision below the board, nothing cut off at the right.
        decider.scroll_into_view_if_needed()
        output = page.locator(".jp-OutputArea-output", has=page.locator(".bk-Canvas"))
        output_box, board_box, where = (
            output.first.bounding_box(),
            canvas.bounding_box(),
            decider.bounding_box(),
        )
        assert where["y"] >= board_box["y"] + board_box["height"] - 1
        assert where["x"] + where["width"] <= output_box["x"] + output_box["width"] + 1
        canvas.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-sandbox.png"))
        browser.close()
