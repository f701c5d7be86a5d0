"""End to end in the real client: JupyterLab, headless on 127.0.0.1, a notebook that shows the
Sandbox, run in Chromium; a click on a square places a servant, through the kernel."""

from __future__ import annotations

import time

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
