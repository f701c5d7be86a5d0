"""axe-core's counts on each page of the tutor: serious, critical and moderate violations (rules
and nodes) on the front page, the Sandbox, the classroom's teacher page, ``/join`` (its form, and
the learner's table after joining), the projector, a lesson in JupyterLab and the same lesson in
Voilà. docs/accessibility.md records them; tests/browser/test_accessibility.py fails on any
serious or critical one.

    PYTHONPATH=$PWD NEFERTITI_HOME=$(mktemp -d) .venv/bin/python benchmarks/accessibility.py
    (--skip-lessons leaves out JupyterLab and Voilà, which take a minute or two more)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

LOAD_MS = 120_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-lessons", action="store_true")
    args = parser.parse_args()
    from axe import counts, report, violations
    from playwright.sync_api import sync_playwright
    from support import Served, launch

    results: dict[str, dict] = {}

    def measure(name, page, include=None):
        found = violations(page, include)
        results[name] = counts(found)
        print(f"== {name}: {results[name]}\n{report(found)}", file=sys.stderr, flush=True)

    home = Path(tempfile.mkdtemp(prefix="axe-"))
    server = Served(home / "served")
    server.start()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(LOAD_MS)
            page = context.new_page()
            page.goto(f"{server.base}/")
            measure("front page /", page)
            page.goto(f"{server.base}/tutor")
            page.get_by_text("Blue decides now").wait_for()
            measure("Sandbox /tutor", page)
            teacher = context.new_page()
            teacher.goto(f"{server.base}/classroom")
            teacher.locator(".room-open button").click()
            teacher.locator(".room-join-code").wait_for()
            board_drawn(teacher)  # the page measured once it is built, as the tests check it
            code = teacher.locator(".room-code").inner_text().strip()
            measure("teacher /classroom", teacher)
            learner_context = browser.new_context(viewport={"width": 390, "height": 844})
            learner_context.set_default_timeout(LOAD_MS)
            learner = learner_context.new_page()
            learner.goto(f"{server.base}/join")
            learner.locator(".room-code-input input").wait_for()
            measure("learner /join (form)", learner)
            learner.locator(".room-code-input input").fill(code)
            learner.locator(".room-name-input input").fill("Anna")
            learner.locator(".room-join button").click()
            learner.locator(".room-status").wait_for()
            board_drawn(learner)
            measure("learner /join (table)", learner)
            with teacher.expect_popup() as opened:
                teacher.locator(".room-projector-open a").click()
            projector = opened.value
            projector.set_viewport_size({"width": 1024, "height": 768})
            projector.locator(".room-join-code").wait_for()
            board_drawn(projector)
            measure("projector /projector", projector)
            if not args.skip_lessons:
                lessons(browser, home, measure)
            browser.close()
    finally:
        server.stop()
    print(json.dumps(results, indent=1))
    return 0


def board_drawn(page) -> None:
    """The page's board is on screen with its squares (a page may hold hidden boards too: a
    question's card not shown yet)."""
    from support import wait_rows

    page.locator(".bk-Canvas:visible").first.wait_for()
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)


def lessons(browser, home: Path, measure) -> None:
    from support import open_and_run_all, start_jupyterlab
    from test_voila import EXERCISE, NOTEBOOK, TUTORIALS, start_voila

    from nefertiti_core.files.exercises import EXERCISES

    prompt = EXERCISES[EXERCISE].prompt("en")[:40]
    work = home / "tutorials"
    shutil.copytree(TUTORIALS, work)
    with start_jupyterlab(home / "lab", work) as lab:
        page = open_and_run_all(
            browser, f"{lab}/lab/tree/{NOTEBOOK}?reset", {"width": 1400, "height": 1000}
        )
        page.get_by_text(prompt).first.wait_for(timeout=LOAD_MS)
        page.wait_for_timeout(2000)
        measure("JupyterLab lesson (outputs)", page, ".jp-OutputArea-output")
        page.close()
    with start_voila(home / "voila", TUTORIALS) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/voila/render/{NOTEBOOK}", timeout=LOAD_MS)
        page.get_by_text(prompt).first.wait_for(timeout=LOAD_MS)
        page.wait_for_timeout(2000)
        measure("Voila lesson", page)
        page.close()


if __name__ == "__main__":
    sys.exit(main())
