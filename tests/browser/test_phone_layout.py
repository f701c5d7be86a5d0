"""The learner's page (``/join``, then the table) and the Sandbox (``/tutor``) on a phone: Playwright's
Pixel 5 (393 px wide, ``is_mobile``, touch, device scale 2.75), in German and in Chinese.

What a phone must get, measured in the page: the board right below the banner (no blank band
between the last words above it and the board: the projector's fixed heights of the banner and
the last step left about 130 px of nothing there), text of 14 CSS px at least, buttons of 24 px
at least each way (a finger's target), and nothing wider than the screen
(``document.scrollingElement.scrollWidth`` within ``innerWidth``, itself the phone's width: a
page wider than the screen makes a phone lay it out wider and shrink it). A class question asked
by the teacher shows on the phone with its position drawn on the card's board (made with the
card, before any question: question_push.py). Screenshots go to ``artifacts/phone-layout``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect, sync_playwright
from support import ARTIFACTS, LOAD_MS, PIXEL_5, PIXEL_5_VIEWPORT, STEP_MS, Served, launch

from nefertiti_core.engine.i18n import tr

SHOTS = ARTIFACTS / "phone-layout"
BLANK_BAND_PX = 24  # at most this much nothing between the words above the board and the board
MIN_TEXT_PX = 14
MIN_TARGET_PX = 24

#: Every visible text's font size, every visible button's size, the blank band above the board,
#: the page's width: read through the shadow roots Panel and Bokeh render into.
MEASURE_JS = f"""() => {{
  const all = [];
  const walk = (root) => {{ for (const el of root.querySelectorAll('*')) {{
    all.push(el); if (el.shadowRoot) walk(el.shadowRoot); }} }};
  walk(document);
  const shown = (r) => r.width > 0 && r.height > 0;
  const canvases = all.filter((el) => el.classList && el.classList.contains('bk-Canvas'))
    .map((el) => el.getBoundingClientRect()).filter(shown);
  const board = canvases.length ? canvases[0] : null;
  const texts = [], buttons = [];
  let above = 0;
  for (const el of all) {{
    const r = el.getBoundingClientRect();
    if (!shown(r) || getComputedStyle(el).visibility === 'hidden') continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (own.length) {{
      texts.push([parseFloat(getComputedStyle(el).fontSize), own[0].textContent.trim().slice(0, 40)]);
    }}
    if (el.tagName === 'BUTTON') {{
      buttons.push([Math.round(r.width), Math.round(r.height), el.textContent.trim().slice(0, 30)]);
    }}
    const boxed = el.classList && el.classList.contains('nefertiti-banner');
    if (board && (own.length || boxed || el.tagName === 'BUTTON') && r.bottom <= board.top + 1) {{
      above = Math.max(above, r.bottom);
    }}
  }}
  return {{
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
    boardTop: board ? board.top : null,
    band: board ? board.top - above : null,
    small: texts.filter((t) => t[0] < {MIN_TEXT_PX} - 0.01),
    smallButtons: buttons.filter((b) => b[0] < {MIN_TARGET_PX} || b[1] < {MIN_TARGET_PX}),
  }};
}}"""

#: How many sampled pixels of a board's canvases are drawn (not transparent).
DRAWN_JS = """(el) => {
  const canvases = [...el.querySelectorAll('canvas'),
                    ...(el.shadowRoot ? el.shadowRoot.querySelectorAll('canvas') : [])];
  let drawn = 0;
  for (const c of canvases) {
    if (!c.width || !c.height) continue;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4 * 53) if (data[i] > 0) drawn++;
  }
  return drawn;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("phone-layout-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def chromium():
    """Chromium and Playwright's device descriptors (conftest's ``chromium`` keeps its
    Playwright to itself)."""
    with sync_playwright() as p:
        browser = launch(p)
        browser.devices = p.devices
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def pixel_5(chromium):
    descriptor = dict(chromium.devices["Pixel 5"])
    assert descriptor["is_mobile"] and descriptor["has_touch"]  # a phone, not a small window
    return descriptor


def test_the_phone_the_other_journeys_use_is_playwrights_pixel_5(pixel_5):
    """The classroom and Sandbox journeys take their phone from ``support.PIXEL_5`` (Playwright's
    table is only reachable from a running Playwright): it must be Playwright's own descriptor."""

    def same_browser(descriptor):  # the user agent's Chrome version follows Playwright's
        agent = re.sub(r"Chrome/[\d.]+", "Chrome/*", descriptor["user_agent"])
        return {**descriptor, "user_agent": agent}

    ours = {"viewport": PIXEL_5_VIEWPORT, **PIXEL_5}
    assert same_browser(ours) == same_browser({k: pixel_5[k] for k in ours})


@pytest.fixture(scope="module")
def teacher(chromium, server):
    context = chromium.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    page.goto(f"{server.base}/classroom", timeout=LOAD_MS)
    page.locator(".room-open button").click(timeout=LOAD_MS)
    page.locator(".room-join-code").wait_for(timeout=LOAD_MS)
    page.code = page.locator(".room-code").inner_text().strip()
    yield page
    context.close()


def phone(chromium, pixel_5, locale: str):
    context = chromium.new_context(**pixel_5, locale=locale)
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return context, page


def check_layout(page, pixel_5, where: str) -> dict:
    page.wait_for_timeout(500)  # a layout pass after the last update
    measured = page.evaluate(MEASURE_JS)
    width = pixel_5["viewport"]["width"]
    assert measured["innerWidth"] == width, (where, measured["innerWidth"])
    assert measured["scrollWidth"] <= measured["innerWidth"], (where, measured["scrollWidth"])
    assert measured["band"] is not None and measured["band"] <= BLANK_BAND_PX, (where, measured)
    assert not measured["small"], (where, measured["small"][:10])
    assert not measured["smallButtons"], (where, measured["smallButtons"][:10])
    return measured


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize(
    ("locale", "lang", "name"), [("de-DE", "de", "Anna"), ("zh-CN", "zh", "陈")]
)
def test_the_learners_page_on_a_phone(chromium, server, teacher, pixel_5, locale, lang, name):
    context, page = phone(chromium, pixel_5, locale)
    try:
        page.goto(f"{server.base}/join", timeout=LOAD_MS)
        expect(page.get_by_text(tr(lang, "room.join_title"))).to_be_visible(timeout=LOAD_MS)
        page.locator(".room-code-input input").fill(teacher.code)
        page.locator(".room-name-input input").fill(name)
        page.locator(".room-join button").click()
        page.locator(".room-status").wait_for(timeout=LOAD_MS)
        # the table's board (the question's card, hidden until a question, has one too)
        page.locator(".bk-Canvas >> visible=true").first.wait_for(timeout=LOAD_MS)
        check_layout(page, pixel_5, f"/join {lang}")
        shot(page, f"join-pixel-5-{lang}")
        # the teacher asks: the question and its position show on the phone's card
        teacher.locator(".poll-pick select").select_option(index=0)
        teacher.locator(".poll-push button").click()
        card = page.locator(".room-poll")
        expect(card.locator(".poll-card-asked")).to_be_visible(timeout=STEP_MS)
        board = card.locator(".bk-Canvas").first
        board.scroll_into_view_if_needed()
        box = board.bounding_box()
        assert box is not None and box["width"] >= 300, box  # the phone's width, not blank
        # the position is drawn (an empty canvas has no pixel drawn)
        page.wait_for_function(
            "([el, js]) => eval(js)(el) > 100", arg=[board.element_handle(), DRAWN_JS]
        )
        shot(page, f"join-pixel-5-{lang}-question")
        teacher.locator(".poll-close-button button").click()
        expect(card).to_be_hidden(timeout=STEP_MS)
        assert not page.errors, page.errors
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "lang"), [("de-DE", "de"), ("zh-CN", "zh")])
def test_the_sandbox_on_a_phone(chromium, server, pixel_5, locale, lang):
    context, page = phone(chromium, pixel_5, locale)
    try:
        page.goto(f"{server.base}/tutor", timeout=LOAD_MS)
        expect(page.get_by_text(tr(lang, "panel.title")).first).to_be_visible(timeout=LOAD_MS)
        page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
        check_layout(page, pixel_5, f"/tutor {lang}")
        shot(page, f"tutor-pixel-5-{lang}")
        assert not page.errors, page.errors
    finally:
        context.close()
