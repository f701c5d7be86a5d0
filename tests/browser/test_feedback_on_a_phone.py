"""Feedback that teaches, read on a phone: the Sandbox's Practice view on Playwright's Pixel 5
(``is_mobile``, touch, device scale), in English, German and Chinese (the browser's language).
The learner answers the first question wrong: the verdict says "not quite" without the answer,
the reason names the rule by ID and title (as the rules reference gives it in that language) and
ends with the right answer; how it plays out, step by step, is folded and opens on a tap.
Then the learner taps the right answer and "Next exercise": each tap reaches its button (nothing
laid over it: the side column once covered the answer buttons after the first verdict), and the
page is never wider than the phone (the exercise's board was a fixed 820 pixels, and the page
scrolled sideways). Screenshots in artifacts/feedback-phone-*.png.

One server for the module (conftest.py's Sandbox); Chromium missing is a failure, never a skip.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright
from support import (
    ARTIFACTS,
    LOAD_MS,
    STEP_MS,
    click_square,
    expect_verdict,
    launch,
    wrong_and_right,
)

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import practice as P
from nefertiti_core.teaching import rules_reference
from widgets.sandbox.practice import FIRST_SEEDS

expect.set_options(timeout=STEP_MS)


def _answer(page, view, ex, value, lang: str) -> None:
    """Answer as a learner does, with the labels of the page's language."""
    if ex.answer_kind == "square":
        click_square(page, view, ex, *value)
        return
    answer = view.locator(".exercise-answer")
    if ex.answer_kind == "choice":
        answer.get_by_text(dict(ex.choices(lang))[value], exact=True).tap()
    else:
        answer.locator("input").fill(str(value))
    view.locator(".exercise-check").get_by_role("button").tap()


@pytest.fixture(scope="module")
def chromium():
    """Chromium and Playwright's device descriptors (conftest's ``chromium`` keeps its
    Playwright to itself)."""
    with sync_playwright() as p:
        browser = launch(p)
        browser.devices = p.devices
        yield browser
        browser.close()


def no_sideways_scroll(page, when: str) -> None:
    """The page is no wider than the phone's screen. (Not ``window.innerWidth``: a mobile
    browser widens its layout viewport to a page wider than the screen, and zooms out.)"""
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    screen = page.viewport_size["width"]
    assert wide <= screen, f"{when}: the page is {wide} px wide on a {screen} px phone"


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("de-DE", "de"), ("zh-CN", "zh")])
def test_a_wrong_answer_on_a_phone_reads_the_reason_first_and_folds_the_details(
    chromium, sandbox_url, locale, lang
):
    pixel_5 = dict(chromium.devices["Pixel 5"])
    assert pixel_5["is_mobile"] and pixel_5["has_touch"]  # a phone, not a small window
    scheduler = P.Scheduler(P.supply(FIRST_SEEDS), persist=False, seeds=FIRST_SEEDS)
    first = scheduler.next()
    ex = first.exercise
    wrong, right = wrong_and_right(ex)
    scheduler.answered(first, False)
    scheduler.answered(first, True)
    second = scheduler.next()  # what "Next exercise" brings after a wrong and a right answer
    wrong_fb = ex.check(wrong if ex.answer_kind != "square" else wrong[1], lang)
    context = chromium.new_context(**pixel_5, locale=locale)
    context.set_default_timeout(STEP_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(sandbox_url, timeout=LOAD_MS)
        page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
        page.get_by_role("button", name=tr(lang, "panel.view.practice"), exact=True).tap()
        view = page.locator(".practice-view")
        expect(view.locator(".exercise-prompt")).to_contain_text(
            ex.prompt(lang)[:15], timeout=LOAD_MS
        )
        no_sideways_scroll(page, "the question")

        _answer(page, view, ex, wrong, lang)
        said = expect_verdict(view, "wrong", wrong_fb.headline)
        titled = [
            f"{r.id}{'，' if lang == 'zh' else ', '}{r.title}"
            for r in rules_reference.all_rules(lang)
        ]
        assert any(title in said for title in titled), said
        answer_at = said.find(tr(lang, "exercise.verdict.answer", right=wrong_fb.right_answer)[1:])
        assert 0 < answer_at, said  # the reasoning first, then the answer
        assert 0 <= said.find(wrong_fb.headline) < answer_at, said  # the headline has no answer
        details = view.locator(".exercise-feedback details.verdict-details")
        expect(details.locator("summary")).to_have_text(tr(lang, "exercise.details"))
        assert details.get_attribute("open") is None  # folded
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"feedback-phone-wrong-{lang}.png"), full_page=True)
        # a finger on "how it plays out" opens it (a tap where the summary is drawn)
        summary = details.locator("summary")
        summary.scroll_into_view_if_needed()
        box = summary.bounding_box()
        page.touchscreen.tap(box["x"] + min(40, box["width"] / 2), box["y"] + box["height"] / 2)
        expect(details).to_have_attribute("open", "")
        page.screenshot(path=str(ARTIFACTS / f"feedback-phone-details-{lang}.png"), full_page=True)
        no_sideways_scroll(page, "the first verdict")

        # tapped, not clicked: Playwright's tap fails when another element would take the touch
        _answer(page, view, ex, right, lang)
        expect_verdict(view, "right", ex.check(right, lang).headline)
        no_sideways_scroll(page, "the second verdict")
        page.screenshot(path=str(ARTIFACTS / f"feedback-phone-right-{lang}.png"), full_page=True)
        view.locator(".practice-next").get_by_role("button").tap()
        expect(view.locator(".exercise-prompt")).to_contain_text(second.exercise.prompt(lang)[:15])
        expect(view.locator(".exercise-feedback .verdict-right")).to_have_count(0)
        no_sideways_scroll(page, "the next question")

        assert not errors, errors
    finally:
        context.close()
