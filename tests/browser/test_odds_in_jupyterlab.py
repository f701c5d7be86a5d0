"""The Odds view in the real client: in JupyterLab a run shows its progress bar moving while the
playouts go on in the kernel, Cancel stops it and keeps what was counted, and a full run ends
with the win chances and the histogram (issue #6: a progress bar in notebooks, cancellable)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import sync_playwright
from support import ARTIFACTS, launch
from test_jupyterlab import NOTEBOOK, start_jupyterlab

SOURCE = """from widgets.lesson import Lesson
from widgets.odds import OddsView
view = OddsView(Lesson("louqsor-what-if").session, workers=1)
view"""


def test_odds_progress_and_cancel_in_jupyterlab(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    notebook = json.loads(json.dumps(NOTEBOOK))
    notebook["cells"][1]["source"] = SOURCE
    (work / "odds.ipynb").write_text(json.dumps(notebook))
    with start_jupyterlab(tmp_path / "home", work) as lab, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.goto(f"{lab}/lab/tree/odds.ipynb?reset")
        page.get_by_text("Python 3 (ipykernel) | Idle").first.wait_for(timeout=90_000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        page.get_by_text("Odds by playouts").first.wait_for(timeout=90_000)

        # 5000 greedy playouts would take minutes: watch the bar move, then cancel.
        output = page.locator(".jp-OutputArea-output").last
        output.locator("select").first.select_option(label="5000")
        page.get_by_role("button", name="Run").last.click()
        # The progress line and bar move while the kernel plays: a later count than the first.
        line = page.get_by_text(re.compile(r"^[1-9]\d* of 5000 playouts")).first
        line.wait_for(timeout=60_000)
        first = int(line.inner_text().split()[0])
        later = first
        for _ in range(100):
            page.wait_for_timeout(200)
            text = line.inner_text() if line.count() else ""
            later = int(text.split()[0]) if text[:1].isdigit() else later
            if later > first:
                break
        assert later > first, (first, later)
        page.get_by_role("button", name="Cancel").last.click()
        cancelled = page.get_by_text(re.compile(r"^Cancelled: \d+ of 5000 playouts")).first
        cancelled.wait_for(timeout=60_000)
        page.get_by_text(re.compile(r"^Green: \d+%")).first.wait_for(timeout=30_000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-odds-cancelled.png"))
        done = int(re.search(r"Cancelled: (\d+)", cancelled.inner_text()).group(1))
        assert first <= done < 5000
        browser.close()
