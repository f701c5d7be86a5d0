"""End to end in the real client: JupyterLab, headless on 127.0.0.1, a notebook that shows the
Sandbox, run in Chromium; a click on a square places a servant, through the kernel. A lesson's
cells run out of order show their boards; their exercise cards and demonstrations use the
notebook's width (no empty strip beside a board at 1440 x 900, every board in view at a
projector's 1024 x 768), and the lesson's page asks nothing of another host than this machine."""

from __future__ import annotations

import time

from motion import moving_under
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    KERNEL_MS,
    STEP_MS,
    code_notebook,
    is_outside,
    notebook_in_jupyterlab,
)

from nefertiti_core.engine.i18n import tr
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
        # a browser that asks for nothing: the Sandbox's columns fade their scroll buttons (the
        # control of the lesson's still page, test_a_lesson_cell_run_first_after_a_restart...)
        assert moving_under(page, ".jp-OutputArea-output"), "nothing moves: the check is void"


def check_a_click_places_a_servant(page) -> None:
    canvas = page.locator(".jp-OutputArea-output .bk-Canvas").first
    canvas.wait_for(timeout=KERNEL_MS)
    page.wait_for_function(f"() => ({SERVANTS})() >= 0", polling=50, timeout=STEP_MS)
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
    page.wait_for_function(f"() => ({SERVANTS})() === 1", polling=20, timeout=STEP_MS)
    # drawn in the browser at the press; the kernel played it: the next player decides
    decider = page.get_by_text("Black decides now").first
    decider.wait_for(timeout=STEP_MS)
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
#: Then exercises in Chinese and a demonstration in English (all three languages' cards laid out).
OUT_OF_ORDER = code_notebook(
    "from widgets.lesson import Lesson\nLesson('a-turn', lang='de')",
    "from widgets.lesson import exercises\nexercises('a-turn', lang='de')",
    "exercises('welcome', lang='zh')",
    "from widgets.lesson.demos import demo\n"
    "demo('a-turn', 'place akhet_aton.left#4', market='akhet_aton', lang='en')",
)
#: The widest empty strip allowed between a board (or the column beside it) and the edge of
#: its card: the layouts' own margins, not a column left empty.
STRIP_PX = 24
DESKTOP = {"width": 1440, "height": 900}
PROJECTOR = {"width": 1024, "height": 768}


def strips(page, card, parts) -> tuple[float, float]:
    """The empty widths left and right of ``parts`` (locators, each the first of its kind) in
    ``card``, in pixels."""
    outer = card.bounding_box()
    boxes = [part.first.bounding_box() for part in parts]
    left = min(box["x"] for box in boxes) - outer["x"]
    right = outer["x"] + outer["width"] - max(box["x"] + box["width"] for box in boxes)
    return left, right


def wait_for_strips(page, card, parts, what: str, timeout: float = STEP_MS / 1000) -> None:
    """The card's parts fill its width (a board fit to its column tells the kernel its width and
    is redrawn for it: the layout settles after a round trip)."""
    deadline = time.monotonic() + timeout
    while True:
        left, right = strips(page, card, parts)
        if left <= STRIP_PX and right <= STRIP_PX:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: empty strips of {left:.0f} and {right:.0f} px")
        page.wait_for_timeout(200)


def test_a_lesson_cell_run_first_after_a_restart_shows_its_board(tmp_path, chromium):
    """The learner's browser asks for less motion (nothing of the outputs moves). No cell loads
    Panel's extension: the lesson's own import does, so the board and the
    exercises are drawn, not Panel's text for them ("Column", "Displaying Panel objects in the
    notebook requires the panel extension"). At 1440 x 900 each exercise card lays its question
    beside its board and each lesson board (the demonstration's too) has its decision column
    beside it, together as wide as the output; at 1024 x 768 every board is whole in the window.
    The page asks nothing of another host (every request recorded, from the first)."""
    requests: list[str] = []
    watch = lambda page: page.on("request", lambda request: requests.append(request.url))  # noqa: E731
    with notebook_in_jupyterlab(
        chromium,
        tmp_path,
        "out-of-order.ipynb",
        OUT_OF_ORDER,
        DESKTOP,
        watch,
        reduced_motion="reduce",
    ) as page:
        expect(page.locator(".jp-OutputArea-output .bk-Canvas").first).to_be_visible(
            timeout=KERNEL_MS
        )
        expect(page.locator(".exercise-prompt").first).to_be_visible(timeout=KERNEL_MS)
        expect(page.locator(".exercise-prompt")).to_have_count(2, timeout=KERNEL_MS)  # de, zh
        show = page.get_by_role("button", name=tr("en", "lesson.demo.show"))
        expect(show).to_be_visible(timeout=KERNEL_MS)
        outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
        text = "\n".join(outputs)
        assert "requires the panel extension" not in text, text[:500]
        assert "WARNING" not in text and "Traceback" not in text, text[:500]
        assert "Column" not in text and "Row(" not in text, text[:500]
        # every button shows its whole label (German ones are long: "Stellung zurücksetzen")
        expect(page.get_by_role("button", name="Stellung zurücksetzen")).to_be_visible()
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

        show.click()  # the demonstration's board, built now (its components too)
        demo = page.locator(".jp-OutputArea-output", has=page.locator(".lesson-demo-account"))
        expect(demo.locator(".bk-Canvas")).to_be_visible(timeout=KERNEL_MS)
        cards = page.locator(".exercise-card").filter(has=page.locator(".exercise-question"))
        expect(cards).to_have_count(2)  # the first tab's card of each block (de, zh)
        for i in range(cards.count()):
            card = cards.nth(i)
            card.scroll_into_view_if_needed()
            parts = (card.locator(".exercise-question"), card.locator(".bk-Canvas"))
            wait_for_strips(page, card, parts, f"exercise card {i + 1}")
            question, board = (part.first.bounding_box() for part in parts)
            assert question["x"] + question["width"] <= board["x"] + 1, "not side by side"
        lessons = page.locator(".jp-OutputArea-output", has=page.locator(".lesson-side"))
        assert lessons.count() == 2  # the lesson's own board and the demonstration's
        for i in range(lessons.count()):
            output = lessons.nth(i)
            output.locator(".bk-Canvas").first.scroll_into_view_if_needed()
            parts = (output.locator(".bk-Canvas"), output.locator(".lesson-side"))
            wait_for_strips(page, output, parts, f"lesson board {i + 1}")
        demo.locator(".bk-Canvas").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-demo-1440.png"))
        cards.first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-exercise-1440.png"))

        # a projector: every board whole in the window (scrolled to), its card's question too
        page.set_viewport_size(PROJECTOR)
        page.wait_for_function(f"() => window.innerWidth === {PROJECTOR['width']}")
        for canvas in page.locator(".jp-OutputArea-output .bk-Canvas").all():
            canvas.scroll_into_view_if_needed()
            box = canvas.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PROJECTOR["width"] + 0.5, box
            assert box["height"] <= PROJECTOR["height"], box
        cards.first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-exercise-1024.png"))
        # the learner's system asks for less motion: nothing of the lesson's outputs moves, the
        # demonstration built by the press included (JupyterLab's own frame is not the tutor's)
        moves = moving_under(page, ".jp-OutputArea-output")
        assert not moves, moves

    # nothing from another host (an offline classroom), the components built by the press too
    assert any("/lab" in url for url in requests), requests[:5]
    outside = sorted({url for url in requests if is_outside(url)})
    assert not outside, "requests to other hosts:\n" + "\n".join(outside)
