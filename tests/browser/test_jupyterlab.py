"""End to end in the real client: JupyterLab, headless on 127.0.0.1, a notebook that shows the
Sandbox, run in Chromium; a click on a square places a servant, through the kernel."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from support import (  # noqa: F401 - open_and_run_all, start_jupyterlab: other modules import them here
    ARTIFACTS,
    code_notebook,
    notebook_in_jupyterlab,
    open_and_run_all,
    start_jupyterlab,
)

from widgets.game import geometry as G

NOTEBOOK = code_notebook(
    "import panel as pn\npn.extension(inline=True)",
    "from widgets.sandbox.app import make_app\napp = make_app()\napp",
)

SERVANTS = """() => { for (const d of (window.Bokeh ? Bokeh.documents : [])) {
    const m = d.get_model_by_name('board-servants');
    if (m) { const c = m.data instanceof Map ? m.data.get('x') : m.data['x']; return c.length; } }
    return -1; }"""


def test_the_sandbox_runs_in_jupyterlab_and_a_click_places_a_servant(tmp_path, chromium):
    viewport = {"width": 1600, "height": 1200}
    with notebook_in_jupyterlab(chromium, tmp_path, "sandbox.ipynb", NOTEBOOK, viewport) as page:
        check_a_click_places_a_servant(page)


def check_a_click_places_a_servant(page) -> None:
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
    # The notebook's column is narrower than the app in a browser window: the banner ("who
    # decides") above the board and the decision's Place button both whole, nothing cut off at
    # the right (#16 item 1 put who decides in the banner).
    decider.scroll_into_view_if_needed()
    output = page.locator(".jp-OutputArea-output", has=page.locator(".bk-Canvas"))
    place = output.first.get_by_role("button", name="Place", exact=True)
    output_box, board_box, where = (
        output.first.bounding_box(),
        canvas.bounding_box(),
        decider.bounding_box(),
    )
    assert where["y"] + where["height"] <= board_box["y"] + 1  # the banner is above the board
    for box in (where, board_box, place.bounding_box()):
        assert box["x"] + box["width"] <= output_box["x"] + output_box["width"] + 1
    canvas.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-sandbox.png"))


#: A lesson's board cell and its exercises cell, run without the notebook's first cell (the one
#: that loads Panel's extension): what a learner does who restarts the kernel and runs a cell.
OUT_OF_ORDER = code_notebook(
    "from widgets.lesson import Lesson\nLesson('a-turn', lang='de')",
    "from widgets.lesson import exercises\nexercises('a-turn', lang='de')",
)


def test_a_lesson_cell_run_first_after_a_restart_shows_its_board(tmp_path, chromium):
    """No cell loads Panel's extension: the lesson's own import does, so the board and the
    exercises are drawn, not Panel's text for them ("Column", "Displaying Panel objects in the
    notebook requires the panel extension")."""
    with notebook_in_jupyterlab(chromium, tmp_path, "out-of-order.ipynb", OUT_OF_ORDER) as page:
        expect(page.locator(".jp-OutputArea-output .bk-Canvas").first).to_be_visible(
            timeout=240_000
        )
        expect(page.locator(".exercise-prompt").first).to_be_visible(timeout=240_000)
        outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
        text = "\n".join(outputs)
        assert "requires the panel extension" not in text, text[:500]
        assert "WARNING" not in text and "Traceback" not in text, text[:500]
        assert "Column" not in text and "Row(" not in text, text[:500]
        # every button shows its whole label (German ones are long: "Stellung neu beginnen")
        expect(page.get_by_role("button", name="Stellung neu beginnen")).to_be_visible()
        cut = page.locator(".jp-OutputArea-output button").evaluate_all(
            """(buttons) => buttons.filter((b) => {
                const box = b.getBoundingClientRect();
                if (!box.width) return false;  // a folded tab's
                let area = b;  // the output it is in (through the shadow roots)
                while (area && !area.classList?.contains("jp-OutputArea-output")) {
                    area = area.parentElement || area.getRootNode().host;
                }
                const right = area.getBoundingClientRect().right;
                return b.scrollWidth > b.clientWidth + 1 || box.right > right + 1;
            }).map((b) => b.textContent)"""
        )
        assert cut == [], cut
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-out-of-order.png"))
