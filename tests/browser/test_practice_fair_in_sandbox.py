"""Fair practice in the served Sandbox, as a learner meets it: the board answers only after
the learner, and one question after another is not the same kind.

The learner opens the Practice view and, before answering, clicks the square of the move the
question asks about: the board refuses it ("Not yet: ...") and nothing moves. Once the answer is
given, the board plays that move by itself. Then "Next exercise", several times: the questions
change theme each time (the scheduler picks across rules), in the order the same scheduler gives
here. Once in German on a desktop window, once in Chinese on a phone (Playwright's Pixel 5
descriptor). Screenshots in artifacts/practice-fair-*.png.
"""

from __future__ import annotations

from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    LOAD_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    STEP_MS,
    click_square,
    expect_verdict,
)

from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import practice as P
from widgets.sandbox.practice import FIRST_SEEDS

expect.set_options(timeout=STEP_MS)
PHONE = {"viewport": PIXEL_5_VIEWPORT, **PIXEL_5}  # a Pixel 5 (Playwright's descriptor)

LANGUAGE_BUTTON = {"de": "Deutsch", "zh": "中文"}

#: Every practice board's servants ('board-servants' sources of the page), as one string.
SERVANTS_JS = """() => {
    const out = [];
    for (const doc of Bokeh.documents) {
        for (const m of doc.all_models) {
            if (m.name !== 'board-servants') continue;
            const d = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
            out.push(Array.from(d.x).join(',') + '/' + Array.from(d.colour).join(','));
        }
    }
    return out.sort().join('|');
}"""


def _press(page, target) -> None:
    """Press a button as the device does: a click, or on a phone a tap at its middle. (On the
    Sandbox's phone layout, 820 px of content in a 393 px screen, Playwright's hit test for
    ``locator.tap()`` reports the side column as covering buttons that the screenshot shows
    free; a tap where the button is drawn reaches it.)"""
    target.scroll_into_view_if_needed()
    if not _is_phone(page):
        target.click()
        return
    box = target.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _is_phone(page) -> bool:
    return bool(page.evaluate("navigator.maxTouchPoints > 0"))


def _answer(page, view, ex, value, lang: str) -> None:
    """The right answer as a learner gives it, in the page's language."""
    kind = ex.answer_kind
    if kind == "square":
        click_square(page, view, ex, ex.market, value[0])
        return
    answer = view.locator(".exercise-answer")
    if kind == "choice":
        label = dict(ex.choices(lang))[value]
        _press(page, answer.get_by_role("button", name=label, exact=True))
    else:
        field = answer.locator("input")
        field.fill(str(value) if kind == "integer" else f"{value.numerator}/{value.denominator}")
        field.press("Enter")
    _press(page, view.locator(".exercise-check").get_by_role("button"))


def _practise(page, lang: str, shot: str, choose_language: bool = True) -> None:
    expected = P.Scheduler(P.supply(FIRST_SEEDS), persist=False, seeds=FIRST_SEEDS)
    first = expected.next()
    ex = first.exercise
    asked = ex.asked_option()
    assert asked is not None, first  # the first question is about a move
    state = ex.state()
    option = state.parse(asked)
    assert O.OPTION_KIND[option] == O.PLACE  # a square to click

    if choose_language:
        page.get_by_role("button", name=LANGUAGE_BUTTON[lang], exact=True).click()
    _press(page, page.get_by_role("button", name=tr(lang, "panel.view.practice"), exact=True))
    view = page.locator(".practice-view")
    expect(view.locator(".exercise-prompt")).to_contain_text(ex.prompt(lang)[:12], timeout=LOAD_MS)
    note = view.locator(".exercise-board-note")
    expect(note).to_contain_text(tr(lang, "practice.board.answer_first"))
    before = page.evaluate(SERVANTS_JS)

    # the asked move, clicked before answering: refused, nothing on the board moves
    market, index = O.SQUARE_STALL[option] >> 1, O.SQUARE_INDEX[option]
    click_square(page, view, ex, market, index)
    expect(note).to_contain_text(tr(lang, "practice.board.not_yet"))
    # the servant the browser draws under the finger at once (board.py's CLICKS_JS) is taken
    # away again with the refusal: the board ends as it was
    page.wait_for_function(f"() => ({SERVANTS_JS})() === {before!r}", polling=100)
    assert page.evaluate(SERVANTS_JS) == before
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"practice-fair-{shot}-refused.png"), full_page=True)

    # answered: the verdict, and the board plays the move by itself
    _answer(page, view, ex, ex.right_answer(), lang)
    expect_verdict(view, "right", ex.check(ex.right_answer(), lang).headline)
    expect(note).to_contain_text(tr(lang, "practice.board.played"))
    page.wait_for_function(f"() => ({SERVANTS_JS})() !== {before!r}", polling=100)
    page.screenshot(path=str(ARTIFACTS / f"practice-fair-{shot}-played.png"), full_page=True)

    # one question after another: never the same theme twice running, as the scheduler says
    expected.answered(first, True)
    themes = [first.theme]
    for _ in range(4):
        g = expected.next()
        _press(page, view.locator(".practice-next").get_by_role("button"))
        expect(view.locator(".exercise-prompt")).to_contain_text(g.exercise.prompt(lang)[:12])
        expect(view.locator(".practice-theme")).to_have_text(tr(lang, f"practice.theme.{g.theme}"))
        themes.append(g.theme)
    assert len(set(themes)) > 1
    assert all(a != b for a, b in zip(themes, themes[1:], strict=False)), themes


def test_practice_in_german_the_board_waits_for_the_answer_and_themes_change(page):
    _practise(page, "de", "de")


def test_practice_in_chinese_on_a_phone_the_board_waits_for_the_answer(chromium, sandbox_url):
    context = chromium.new_context(locale="zh-CN", **PHONE)
    context.set_default_timeout(STEP_MS)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    try:
        phone.goto(sandbox_url, timeout=LOAD_MS)
        phone.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
        # the page follows the phone's language (zh-CN): no button to press
        expect(phone.get_by_text(tr("zh", "panel.title")).first).to_be_visible(timeout=LOAD_MS)
        _practise(phone, "zh", "zh-pixel5", choose_language=False)
    finally:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
