"""axe-core on every served page (WCAG 2.2 A and AA, and axe's best practices), in Chromium
against ``nefertiti serve``: no serious or critical violation anywhere, and each page is one
``<main>`` landmark under one level-one heading, in its language (``<html lang>``).

A visitor's journey in each run: the front page (``/``), the Sandbox (``/tutor``), the teacher's
page (``/classroom``, a room opened), a learner's ``/join`` (the form, then the table after
joining), and the projector the teacher opens. Once in English, once in German and once in
Chinese (the browsers' locale), and once with the visitor on an emulated Pixel 5 phone (the
teacher and the projector stay on a computer). axe's rules include WCAG 2.2's target size
(2.5.8: every control at least 24 x 24 CSS px or spaced as if); the board's squares, drawn on a
canvas axe cannot see, are measured on the Pixel 5 (the Sandbox's and the learner's board) and
written to artifacts/accessibility/squares.json.

Motion: the visitor asks for reduced motion (``prefers-reduced-motion: reduce``) in the English,
Chinese and phone runs and nothing on the Sandbox moves (motion.py); the German run asks for
nothing and the same things do move, so the check can fail.

Zoom: in the German run (the longest words) the front page, the Sandbox and a learner's table
are opened again at 200 % zoom (a 1280 x 800 window: 640 x 400 CSS px, reflow.py): no sideways
scrolling, nothing beside the window, no text cut, and the decision panel reachable by
scrolling down.

The lessons are checked where they are served: test_voila.py (Voilà) and
test_tutorial_in_jupyterlab.py (JupyterLab). docs/accessibility.md records the counts before
and after (benchmarks/accessibility.py).

A server and browser contexts for each run. Chromium missing is a failure.
"""

from __future__ import annotations

import json

import pytest
from axe import check, needs_review
from motion import WATCH_SPINNER, motion, moving
from playwright.sync_api import expect
from reflow import ZOOMED, lost
from support import (
    ARTIFACTS,
    LOAD_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    STEP_MS,
    Served,
    open_room,
    wait_rows,
)

from nefertiti_core.engine.i18n import tr
from widgets.game import geometry

expect.set_options(timeout=STEP_MS)
SHOTS = ARTIFACTS / "accessibility"
LOCALES = {"en": "en-GB", "de": "de-DE", "zh": "zh-CN"}
#: The moderate rules the served pages pass since the page template has its <main> and <h1>.
STRUCTURE = ("landmark-one-main", "page-has-heading-one", "region", "landmark-unique")
#: One <main>, one <h1> (read through shadow roots: Panel's widgets live in them).
OUTLINE = """() => {
    const all = (root, selector, out) => {
        out.push(...root.querySelectorAll(selector));
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) all(el.shadowRoot, selector, out);
        return out;
    };
    return {main: all(document, 'main, [role=main]', []).length,
            h1: all(document, 'h1', []).map(h => h.textContent.trim()),
            lang: document.documentElement.lang};
}"""


@pytest.fixture()
def server(tmp_path_factory):
    """A server for each run: a computer may have only three rooms open at once."""
    server = Served(tmp_path_factory.mktemp("accessibility-home"))
    server.start()
    yield server
    server.stop()


#: Buttons without a name, hidden ones included (a hidden button is shown later, by a change of
#: the page, when no axe run looks: it must have its name before): the class of each one's
#: shadow host (its Panel widget). A page hides a widget by its host (Panel's ``visible``); a
#: button whose own style hides it for good (the Sandbox's seed field's spin buttons,
#: ``display: none`` in the widget's stylesheet) is never shown, nor read, and is left out.
UNNAMED_BUTTONS = """() => {
    const out = [];
    const walk = root => {
        for (const el of root.querySelectorAll('*')) {
            if (el.tagName === 'BUTTON' && !el.textContent.trim() && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby') && !el.title
                && getComputedStyle(el).display !== 'none') {
                const host = el.getRootNode().host;
                out.push(host ? host.className : el.className);
            }
            if (el.shadowRoot) walk(el.shadowRoot);
        }
    };
    walk(document);
    return out;
}"""


def checked(page, where: str, lang: str, *, served_page: bool = True) -> None:
    """axe passes ``page`` (no serious or critical violation) and no button of it is without a
    name, shown or hidden; a served page also has its structure (one main, one heading,
    everything in a landmark, its language)."""
    found = check(page, where)
    unnamed = page.evaluate(UNNAMED_BUTTONS)
    assert not unnamed, f"{where}: buttons without a name: {unnamed}"
    if served_page:
        structure = [v["id"] for v in found if v["id"] in STRUCTURE]
        assert not structure, f"{where}: {structure}"
        outline = page.evaluate(OUTLINE)
        assert outline["main"] == 1, (where, outline)
        assert outline["h1"] == [tr(lang, "panel.title")], (where, outline)
        assert outline["lang"] == lang, (where, outline)


def board_drawn(page) -> None:
    page.locator(".bk-Canvas:visible").first.wait_for(timeout=LOAD_MS)  # not a hidden one
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)


#: The size in CSS px of each square of the visible board's keyboard grid, which lies exactly
#: on the drawn squares (widgets/game/board_keys.py).
SQUARES = """() => {
    const out = [];
    const walk = root => {
        for (const el of root.querySelectorAll('[role=gridcell]')) {
            const box = el.getBoundingClientRect();
            if (box.width > 0) out.push([box.width, box.height]);
        }
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    return out;
}"""


def square_px(page, where: str) -> float:
    """The drawn size in CSS px of a square of ``page``'s board: the canvas's width times the
    square's share of the board's width (widgets/game/geometry.py), the same as the keyboard
    grid's cells measure; axe's target size undecided for nothing but those cells."""
    canvas = page.locator(".bk-Canvas:visible").first.bounding_box()
    size = canvas["width"] * geometry.SQUARE / geometry.WIDTH
    cells = page.evaluate(SQUARES)
    assert cells, f"{where}: no square of the board's grid is shown"
    assert all(abs(w - size) < 1 and abs(h - size) < 1 for w, h in cells), (where, size, cells[:4])
    # axe leaves the grid's cells (focusable with tabindex -1, smaller than 24 px) to a reader;
    # nothing else may be left undecided for target size
    unsure = needs_review(page, "target-size")
    others = [t for t in unsure if not t.startswith("div[data-place=")]
    assert not others, f"{where}: axe could not decide the target size of {others}"
    return round(size, 1)


def zoomed_pages(chromium, server, code: str, lang: str) -> None:
    """The front page, the Sandbox and a learner's table at 200 % zoom lose nothing (reflow.py),
    and the Sandbox's decision panel (who decides, the drop-down, its button) is reached by
    scrolling down; screenshots in artifacts/accessibility/zoom-*.png."""
    zoomed = chromium.new_context(locale=LOCALES[lang], **ZOOMED)
    zoomed.set_default_timeout(STEP_MS)
    try:
        page = zoomed.new_page()
        page.goto(f"{server.base}/", timeout=LOAD_MS)
        expect(page.locator("h1")).to_have_text(tr(lang, "panel.title"))
        gone = lost(page)
        assert not gone, ("the front page at 200 %", gone)
        page.screenshot(path=str(SHOTS / f"zoom-front-{lang}.png"), full_page=True)
        page.goto(f"{server.base}/tutor", timeout=LOAD_MS)
        board_drawn(page)
        gone = lost(page)
        assert not gone, ("the Sandbox at 200 %", gone)
        place = page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True)
        for part in (page.locator(".decision-who"), page.locator("select:visible"), place):
            part.first.scroll_into_view_if_needed()
            expect(part.first).to_be_in_viewport(ratio=1)
        page.screenshot(path=str(SHOTS / f"zoom-sandbox-{lang}.png"), full_page=True)
        page.goto(f"{server.base}/join", timeout=LOAD_MS)
        page.locator(".room-code-input input").fill(code)
        page.locator(".room-name-input input").fill("Zoe")
        page.locator(".room-join button").click()
        expect(page.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
        board_drawn(page)
        gone = lost(page)
        assert not gone, ("a learner's table at 200 %", gone)
        page.screenshot(path=str(SHOTS / f"zoom-learner-{lang}.png"), full_page=True)
    finally:
        zoomed.close()


@pytest.mark.parametrize(
    "lang, phone", [("en", False), ("de", False), ("zh", False), ("en", True)],
    ids=["en", "de", "zh", "pixel-5"],
)  # fmt: skip
def test_every_page_passes_axe(chromium, server, lang, phone):
    locale = LOCALES[lang]
    SHOTS.mkdir(parents=True, exist_ok=True)
    desk = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    still = lang != "de"  # the German run asks for nothing: its pages move
    motion_asked = "reduce" if still else "no-preference"
    if phone:
        visitor = chromium.new_context(viewport=PIXEL_5_VIEWPORT, locale=locale,
                                       reduced_motion=motion_asked, **PIXEL_5)  # fmt: skip
    else:
        visitor = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale,
                                       reduced_motion=motion_asked)  # fmt: skip
    visitor.add_init_script(WATCH_SPINNER)
    squares = {}
    errors: list[str] = []
    try:
        for context in (desk, visitor):
            context.set_default_timeout(STEP_MS)
        tag = "pixel-5" if phone else lang
        page = visitor.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.base}/", timeout=LOAD_MS)
        expect(page.locator("h1")).to_have_text(tr(lang, "panel.title"))
        check(page, f"the front page ({tag})")  # its own page: its <main> and <h1> are tested
        page.goto(f"{server.base}/tutor", timeout=LOAD_MS)
        board_drawn(page)
        checked(page, f"the Sandbox ({tag})", lang)
        page.screenshot(path=str(SHOTS / f"sandbox-{tag}.png"))
        moves = moving(motion(page))
        if still:
            assert not moves, f"the Sandbox moves though asked not to ({tag}): {moves}"
        else:  # the spinner, the scroll buttons' fade and a toast move when nobody asks
            assert len({m.split()[0] for m in moves}) == 3, (tag, moves)
        if phone:
            squares["Sandbox"] = square_px(page, f"the Sandbox ({tag})")
        # its view for a new game and files: the seed, the seats, the file box
        page.get_by_role("button", name=tr(lang, "panel.view.setup"), exact=True).click()
        expect(page.locator("input[type=file]")).to_be_attached()
        checked(page, f"the Sandbox's new game and files ({tag})", lang)

        teacher = desk.new_page()
        teacher.on("pageerror", lambda error: errors.append(str(error)))
        code = open_room(teacher, server.base)
        board_drawn(teacher)
        checked(teacher, f"the teacher's page ({tag})", lang)

        learner = visitor.new_page()
        learner.on("pageerror", lambda error: errors.append(str(error)))
        learner.goto(f"{server.base}/join", timeout=LOAD_MS)
        expect(learner.locator(".room-code-input input")).to_be_visible(timeout=LOAD_MS)
        checked(learner, f"/join's form ({tag})", lang)
        learner.locator(".room-code-input input").fill(code)
        learner.locator(".room-name-input input").fill("Anna")
        learner.locator(".room-join button").click()
        expect(learner.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
        board_drawn(learner)
        checked(learner, f"/join's table ({tag})", lang)
        learner.screenshot(path=str(SHOTS / f"learner-{tag}.png"))
        if phone:
            squares["learner"] = square_px(learner, f"/join's table ({tag})")
            (SHOTS / "squares.json").write_text(json.dumps(squares), encoding="utf-8")

        with teacher.expect_popup() as opened:
            teacher.locator(".room-projector-open a").click()
        projector = opened.value
        projector.on("pageerror", lambda error: errors.append(str(error)))
        projector.set_viewport_size({"width": 1024, "height": 768})
        expect(projector.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
        board_drawn(projector)
        checked(projector, f"the projector ({tag})", lang)
        projector.screenshot(path=str(SHOTS / f"projector-{tag}.png"))
        if lang == "de" and not phone:
            zoomed_pages(chromium, server, code, lang)
    finally:
        desk.close()
        visitor.close()
    assert not errors, f"JavaScript errors in the pages: {errors}"


def test_the_axe_check_fails_on_an_unnamed_drop_down_faint_text_and_small_targets(chromium):
    """The check can fail: a page with a drop-down without a name (critical), grey text at
    3.5:1 (serious) and two buttons 16 px square side by side (serious: WCAG 2.2's target size
    asks 24 px) is refused, and the message names each rule and its element."""
    page = chromium.new_page()
    try:
        page.set_content(
            '<html lang="en"><body><main><h1>Test</h1>'
            '<select id="what"><option>one</option></select>'
            '<p style="color: rgb(136, 136, 136); background: white">faint</p>'
            '<button id="tiny" style="width:16px;height:16px;padding:0">+</button>'
            '<button style="width:16px;height:16px;padding:0">-</button>'
            "</main></body></html>"
        )
        with pytest.raises(AssertionError) as refused:
            check(page, "a bad page")
        message = str(refused.value)
        assert "select-name (critical)" in message and "#what" in message, message
        assert "color-contrast (serious)" in message, message
        assert "target-size (serious)" in message and "#tiny" in message, message
    finally:
        page.close()
