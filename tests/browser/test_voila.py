"""A lesson as a page without code, in Voilà: its boards and exercises answer (issue #13, item 8).

One Voilà serves ``tutorials/`` (it runs a notebook per page and saves nothing); Chromium opens the
Abou Simbel lesson. The learner answers its first exercise wrong, then right, and sees the engine's
verdicts; a click on a lesson board places a servant there. No code of the notebook is shown,
and axe-core finds no serious or critical violation on the page. The Chinese copy of the lesson
(``tutorials/zh``, the same Voilà) on a phone is answered with the keyboard alone: Tab onto the
exercise's board, the arrow keys, Enter (widgets/game/board_keys.py).

Voilà cannot load Panel's JupyterLab extension, so Panel talks to the kernel over ipywidgets'
comms there (``widgets.server.patches.use_ipywidgets_comms_in_voila``, which needs jupyter_bokeh).

Voilà runs with the tutor's settings and template (jupyterlab/voila, as ``make voila``), and the
page must ask nothing of another host and log no error (``test_voila_page_asks_only_this_machine``).
The settings turn on progressive rendering: without it Voilà renders every output as soon as the
page has started, while its widget manager is still fetching the widgets' state from the kernel
(about 1 MB for this lesson's boards), and a widget output waits only 2 seconds for its model
(``get_model`` in @jupyter-widgets' manager): on a loaded machine every widget of the page said
"Error displaying widget: model not found". Progressive rendering adds a widget's output once
its model is registered, however long that takes.
"""

from __future__ import annotations

import json
import time

import pytest
from axe import check
from board_keyboard import answer_by_keyboard, focused, on_board
from motion import moving_under
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    CLIPPED_BUTTONS,
    KERNEL_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    TUTORIALS,
    broken_widgets,
    expect_verdict,
    give_answer,
    is_outside,
    leave_voila,
    screenshot_on_failure,
    start_voila,
    watch_requests_and_console,
    wrong_and_right,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import EXERCISES
from widgets.game import geometry as G

NOTEBOOK = "09-closing-abou-simbel.ipynb"
EXERCISE = "closing-abou-simbel/exactly-fourteen"
TIMES: dict[str, float] = {}

# Servants drawn on every board of the page (each Panel output is its own Bokeh document).
SERVANTS = """() => { let n = 0; for (const d of (window.Bokeh ? Bokeh.documents : [])) {
    for (const m of d.all_models) { if (m.name === 'board-servants') {
        const c = m.data instanceof Map ? m.data.get('x') : m.data['x']; n += c.length; } } }
    return n; }"""


#: Counts Panel's BokehJS loads that the page put off (``setTimeout(load_or_wait, 100)`` reaching
#: the browser's own setTimeout): the tutor's Voilà template runs that load at once, so that no
#: board is drawn before BokehJS is there (jupyterlab/voila/voila/templates/nefertiti). Added
#: before the page's own scripts, so the template's script wraps this one.
DEFERRED_LOADS = """(() => { window.bokehLoadsDeferred = 0; const later = window.setTimeout;
    window.setTimeout = function (callback, delay, ...rest) {
        if (typeof callback === "function" && callback.name === "load_or_wait") {
            window.bokehLoadsDeferred += 1; }
        return later.call(window, callback, delay, ...rest); }; })()"""

#: What the lesson's page asked for and logged, from its first request on (see
#: :func:`watch_requests_and_console`).
REQUESTS: list[str] = []
CONSOLE_ERRORS: list[str] = []


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """One Voilà for the module, serving ``tutorials/`` (and so its German and Chinese copies):
    its address."""
    with start_voila(tmp_path_factory.mktemp("voila"), TUTORIALS) as url:
        yield url


@pytest.fixture(scope="module")
def lesson(voila, chromium):
    """The lesson's page, once for the module: (page, the exercise block)."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(DEFERRED_LOADS)
    watch_requests_and_console(page, REQUESTS, CONSOLE_ERRORS)
    try:
        with screenshot_on_failure(page, "voila", full_page=False):
            start = time.monotonic()
            page.goto(f"{voila}/voila/render/{NOTEBOOK}", timeout=KERNEL_MS)
            block = page.locator(".jp-OutputArea-output").filter(
                has_text=tr("en", "lesson.exercises_intro")
            )
            ex = EXERCISES[EXERCISE]
            expect(block.locator(".exercise-prompt")).to_contain_text(
                ex.prompt("en")[:60], timeout=KERNEL_MS
            )
            TIMES["page to exercise shown"] = time.monotonic() - start
        yield page, block
    finally:
        page.close()
        print(f"\nvoila times: {json.dumps({k: round(v, 1) for k, v in TIMES.items()})}")


def test_voila_shows_the_lesson_without_its_code(lesson):
    page, _ = lesson
    text = page.locator("body").inner_text()
    assert "Closing Abou Simbel" in text  # the lesson's own heading (its markdown)
    for code in (
        "pn.extension(",
        "import panel",
        "from widgets.lesson import",
        "exercises(",
    ):
        assert code not in text, f"code is shown on the page: {code!r}"
    # Voilà keeps a code cell's outputs and drops its source (markdown cells have input areas)
    assert page.locator(".jp-CodeCell").count() > 0
    shown = page.locator(".jp-CodeCell .jp-InputArea, .jp-InputArea-editor, .cm-editor")
    assert shown.count() == 0


def test_voila_loads_bokehjs_before_any_board(lesson):
    """BokehJS is loaded at once when the lesson's first output is shown, never 100 ms later as
    Panel's loader would: a board drawn in between is a broken-widget icon (seen under load:
    "Cannot read properties of undefined (reading 'require')"). Every widget of the page is
    drawn."""
    page, _ = lesson
    assert page.evaluate("() => window.bokehLoadsDeferred") == 0
    assert page.evaluate("() => window.Bokeh !== undefined && Bokeh.documents.length > 0")
    broken = broken_widgets(page)
    assert not broken, "\n\n".join(broken)


def test_voila_lesson_moves_when_nobody_asks_otherwise(lesson):
    """The control of the Chinese phone's still page: the same lesson in a browser that asks
    for nothing has parts that move (Voilà's, Panel's), so the still page's check can fail."""
    page, _ = lesson
    assert moving_under(page, "body"), "nothing moves: the reduced-motion check proves nothing"


def test_voila_lesson_passes_axe(lesson):
    """No serious or critical axe-core violation on the lesson's page (test_accessibility.py
    checks the served pages)."""
    page, _ = lesson
    check(page, "the Voilà lesson")


def test_voila_exercise_answered_wrong_then_right(lesson):
    page, block = lesson
    ex = EXERCISES[EXERCISE]
    wrong, right = wrong_and_right(ex)
    wrong_feedback, right_feedback = ex.check(wrong, "en"), ex.check(right, "en")
    assert wrong_feedback.valid and not wrong_feedback.correct
    assert right_feedback.correct
    start = time.monotonic()
    give_answer(page, block, ex, wrong)  # a click on a square of the card's board
    shown = expect_verdict(block, "wrong", wrong_feedback.headline)
    assert shown.lstrip("\u2717 ").startswith("Not quite"), shown
    TIMES["wrong answer to verdict"] = time.monotonic() - start
    start = time.monotonic()
    give_answer(page, block, ex, right)
    shown = expect_verdict(block, "right", right_feedback.headline)
    assert shown.lstrip("\u2714 ").startswith("Right"), shown
    TIMES["right answer to verdict"] = time.monotonic() - start
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "voila-exercise.png"))


def test_voila_a_click_on_a_lesson_board_places_a_servant(lesson):
    """The lesson's first board (Red to play on Abou Simbel's left stall): a click on its 8
    places Red's servant (R5.2) and the kernel answers: Blue's turn, Red's servant drawn from its
    data. (The board draws the servant at the press, before the kernel answers: the turn's text
    is what shows the click reached the kernel.)"""
    page, _ = lesson
    state = EXERCISES[EXERCISE].state()  # the same position as the lesson's first board
    cell = next(c for c in G.squares(state.side) if c.market == 2 and c.index == 6)
    output = page.locator(".jp-OutputArea-output").filter(has=page.locator(".bk-Canvas")).first
    expect(output).to_contain_text(tr("en", "panel.decision.turn", turn=1, player="Red"))
    board = output.locator(".bk-Canvas").first
    board.scroll_into_view_if_needed()
    before = page.evaluate(SERVANTS)
    assert before > 0, "no board with servants on the page"
    box = board.bounding_box()
    start = time.monotonic()
    page.mouse.click(
        box["x"] + cell.x / G.WIDTH * box["width"],
        box["y"] + (1 - cell.y / G.HEIGHT) * box["height"],
    )
    try:
        turn = tr("en", "panel.decision.turn", turn=2, player="Blue")
        expect(output).to_contain_text(turn, timeout=KERNEL_MS)
        TIMES["board click to the kernel's answer shown"] = time.monotonic() - start
        assert page.evaluate(SERVANTS) == before + 1, "the kernel's board is not Red's click"
        # one click is one placement: the kernel must not get it twice (refused the second time)
        time.sleep(2.0)
        refused = tr("en", "refuse.head", option="").strip("'\" ")
        assert refused not in output.inner_text(), output.inner_text()[:600]
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "voila-board.png"))


def test_voila_demonstration_unfolds_and_folds(lesson):
    """A folded demonstration ("Show what happens", #13 item 3) answers in Voilà as it does in
    JupyterLab: a press unfolds the engine's account of the steps and their board; a second press
    folds it away again."""
    page, _ = lesson
    output = (
        page.locator(".jp-OutputArea-output").filter(has=page.locator(".lesson-demo-show")).first
    )
    button = output.locator(".lesson-demo-show button")
    account = output.locator(".lesson-demo-account")
    expect(button).to_contain_text(tr("en", "lesson.demo.show"), timeout=KERNEL_MS)
    expect(account).to_be_hidden()
    button.scroll_into_view_if_needed()
    start = time.monotonic()
    button.click()
    expect(account).to_contain_text(tr("en", "lesson.demo.account"), timeout=KERNEL_MS)
    TIMES["demonstration press to its account"] = time.monotonic() - start
    expect(account.locator("li").first).to_be_visible(timeout=KERNEL_MS)
    assert "The demonstration stopped" not in account.inner_text(), account.inner_text()
    expect(output.locator("canvas").first).to_be_visible(timeout=KERNEL_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "voila-demo.png"))
    expect(button).to_contain_text(tr("en", "lesson.demo.hide"))
    button.click()
    expect(account).to_be_hidden(timeout=KERNEL_MS)
    expect(button).to_contain_text(tr("en", "lesson.demo.show"), timeout=KERNEL_MS)


def test_voila_folded_answer_opens(lesson):
    """A "check your answer" fold (the square-by-square table) opens on a click of its header."""
    page, _ = lesson
    fold = page.locator(".lesson-fold").first
    fold.scroll_into_view_if_needed()
    table = fold.locator("table").first
    expect(table).to_be_hidden()
    fold.locator(".card-header").first.click()
    expect(table).to_be_visible(timeout=KERNEL_MS)


def test_voila_lesson_fits_at_1440_and_1024(lesson):
    """The lesson's page at 1440 x 900 and at a projector's 1024 x 768: no button's words cut
    ("Back to the start", the exercises' buttons) and every board as wide as the window at most."""
    page, _ = lesson
    try:
        for width, height in ((1440, 900), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"() => window.innerWidth === {width}")
            expect(page.get_by_role("button", name="Back to the start").first).to_be_visible()
            clipped = page.locator("button").evaluate_all(CLIPPED_BUTTONS)
            assert not clipped, f"buttons cut at {width} x {height}: {clipped}"
            for canvas in page.locator(".bk-Canvas").all():
                box = canvas.bounding_box()
                if box is not None and box["width"] > 0:
                    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"voila-{width}.png"))
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_voila_a_chinese_learner_answers_on_the_board_by_keyboard_on_a_phone(voila, chromium):
    """The Chinese copy of the lesson (``tutorials/zh``) on a Pixel 5 with a keyboard: the
    learner Tabs onto the square exercise's board, moves with the arrow keys to the square that
    closes Abou Simbel and answers with Enter; the grid, each square passed and the line saying
    the square chosen are named in Chinese (ARIA queries), the engine's verdict is Chinese, and
    Escape leaves the board. Every output of the page rendered (no "model not found": each
    exercise board carries its grid) and axe-core finds no serious or critical violation."""
    ex = EXERCISES[EXERCISE]
    _, right = wrong_and_right(ex)
    feedback = ex.check(right, "zh")
    context = chromium.new_context(viewport=PIXEL_5_VIEWPORT, reduced_motion="reduce", **PIXEL_5)
    page = context.new_page()
    watch_requests_and_console(
        page, REQUESTS, CONSOLE_ERRORS
    )  # offline and without errors too (the last test)
    try:
        with screenshot_on_failure(page, "voila-zh-keyboard", full_page=False):
            start = time.monotonic()
            page.goto(f"{voila}/voila/render/zh/{NOTEBOOK}", timeout=KERNEL_MS)
            block = page.locator(".jp-OutputArea-output").filter(
                has_text=tr("zh", "lesson.exercises_intro")
            )
            expect(block.locator(".exercise-prompt").first).to_contain_text(
                ex.prompt("zh")[:30], timeout=KERNEL_MS
            )
            TIMES["Chinese page to exercise shown"] = time.monotonic() - start
            start = time.monotonic()
            said = answer_by_keyboard(page, block, ex, *right, "zh")
            opening = tr("zh", "exercise.card.your_square", square="")[:-1]  # "你的答案：…。"
            assert said.startswith(opening), said
            shown = expect_verdict(block, "right", feedback.headline)
            TIMES["Chinese keyboard answer to verdict"] = time.monotonic() - start
            assert on_board(focused(page))
            page.keyboard.press("Escape")
            assert not on_board(focused(page))
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            block.locator(".exercise-feedback").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "voila-zh-keyboard-phone.png"))
            assert "R3.5" in shown, shown
            # every output rendered: the lesson's boards and the record at the end
            expect(page.get_by_text(tr("zh", "coverage.view.title")).first).to_be_visible(
                timeout=KERNEL_MS
            )
            assert page.get_by_text("Error displaying widget").count() == 0
            broken = broken_widgets(page)
            assert not broken, "\n\n".join(broken)
            # the phone asks for less motion: nothing of the lesson moves (the English page,
            # which asks for nothing, moves: test_voila_lesson_moves_when_nobody_asks_otherwise)
            moves = moving_under(page, "body")
            assert not moves, moves
            check(page, "the Chinese Voilà lesson on a phone, answered by keyboard")
    finally:
        leave_voila(page)


def test_voila_page_asks_only_this_machine(lesson):
    """Voilà works offline: every request of the lesson's page (its template, Panel's scripts
    and stylesheets, fonts, the components built by a press) goes to the Voilà server on this
    machine, and the page logs no error. Runs after the presses above, so the components they
    built are counted too."""
    outside = sorted({url for url in REQUESTS if is_outside(url)})
    assert any("/voila/" in url for url in REQUESTS), REQUESTS[:5]
    assert not outside and not CONSOLE_ERRORS, (
        "requests to other hosts:\n" + "\n".join(outside) + "\n\nerrors in the page's "
        "console:\n" + "\n".join(CONSOLE_ERRORS)
    )
