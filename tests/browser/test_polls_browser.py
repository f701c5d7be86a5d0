"""Classroom polls in Chromium (#16 item 3): a small app served by ``panel.serve`` holds one
room's polls; the teacher's page (a projector, 1024 x 768) asks a question, two learners answer
from their own pages (phones, 390 x 844, separate browser contexts), the teacher's bars and the
side-by-side page follow (who has answered; what, only at the reveal), the reveal shows the
engine's answer and explanation everywhere.
The room's own journey (join by code, seats, ...) is tests/browser/test_classroom.py's.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support import LOAD_MS, STEP_MS, served

from nefertiti_core.files import exercises as E

PROJECTOR = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
WHO = "welcome/who-plays-next"
HOSTILE = '<img src=x onerror="window.__pwned=1">'

APP = """
import panel as pn
from widgets.classroom.poll import Polls
from widgets.classroom.poll_view import ClassView, LearnerPollCard, TeacherPollPanel

POLLS = Polls()
POLLS.record.join("l1", "Ana")
POLLS.record.join("l2", HOSTILE)

def arg(name, default):
    raw = pn.state.session_args.get(name)
    return raw[0].decode() if raw else default

def teacher():
    return pn.Column(TeacherPollPanel(POLLS), ClassView(POLLS), sizing_mode="stretch_width")

def learner():
    return LearnerPollCard(POLLS, arg("learner", "l1"), lang=arg("lang", "en"))

def side():
    return pn.Row(
        pn.Column(TeacherPollPanel(POLLS, font_px=18, board=False), width=480, css_classes=["side-teacher"]),
        pn.Column(LearnerPollCard(POLLS, "l1"), width=320, css_classes=["side-l1"]),
        pn.Column(LearnerPollCard(POLLS, "l2", lang="de"), width=320, css_classes=["side-l2"]),
    )

def later():
    # as the room's learner page does: the card is made in a callback, after the page loaded
    page = pn.Column(pn.widgets.Button(name="Show my card", css_classes=["show-card"]))
    page[0].on_click(lambda _e: page.append(LearnerPollCard(POLLS, arg("learner", "l1"))))
    return page

pn.serve({"teacher": teacher, "learner": learner, "side": side, "later": later}, port=PORT,
         address="127.0.0.1", show=False, websocket_origin=["127.0.0.1:PORT"])
""".replace("HOSTILE", repr(HOSTILE))


@pytest.fixture(scope="module")
def app_url():
    with served(APP, "teacher") as url:
        yield url.rsplit("/", 1)[0]


def open_page(chromium, url: str, viewport: dict, errors: list):
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=LOAD_MS)
    return page


def test_ask_two_learners_answer_from_their_phones_and_the_reveal_reaches_everyone(
    chromium, app_url, tmp_path
):
    errors: list[str] = []
    teacher = open_page(chromium, f"{app_url}/teacher", PROJECTOR, errors)
    ana = open_page(chromium, f"{app_url}/learner?learner=l1", PHONE, errors)
    bo = open_page(chromium, f"{app_url}/learner?learner=l2&lang=de", PHONE, errors)
    side = open_page(chromium, f"{app_url}/side", {"width": 1200, "height": 900}, errors)
    expect(ana.get_by_text("No question right now")).to_be_visible(timeout=LOAD_MS)
    expect(bo.get_by_text("Gerade keine Frage")).to_be_visible(timeout=LOAD_MS)
    expect(side.locator(".side-l2").get_by_text("Gerade keine Frage")).to_be_visible(
        timeout=LOAD_MS
    )

    # the teacher asks the first lesson's first question (the menu's first entry)
    teacher.locator(".poll-push button").click()
    prompt = E.EXERCISES[WHO].prompt("en")
    expect(teacher.locator(".poll-question")).to_contain_text(prompt)
    expect(ana.locator(".poll-card-question")).to_contain_text(prompt)
    expect(bo.locator(".poll-card-question")).to_contain_text(E.EXERCISES[WHO].prompt("de"))
    expect(side.locator(".side-l1 .poll-card-question")).to_contain_text(prompt)
    expect(ana.locator(".poll-board .bk-Canvas")).to_have_count(1)  # the position's board
    expect(teacher.locator(".poll-progress")).to_contain_text("0 of 2")

    # each learner answers on their own page; Ana changes her mind before the reveal
    ana.get_by_role("button", name="Green", exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("1 of 2")
    ana.get_by_role("button", name="Red", exact=True).click()
    expect(ana.locator(".poll-your-answer")).to_contain_text("Your answer: Red")
    bo.get_by_role("button", name="Blau", exact=True).click()
    expect(bo.locator(".poll-your-answer")).to_contain_text("Deine Antwort: Blau")
    expect(teacher.locator(".poll-progress")).to_contain_text("2 of 2")
    # until the reveal: who has answered, never what (no bars, no answer in the class view)
    bars = teacher.locator(".poll-counts")
    expect(bars.locator(".poll-bar")).to_have_count(0)
    expect(teacher.locator(".poll-class")).not_to_contain_text("Red")
    expect(teacher.locator(".poll-class")).to_contain_text("answered")
    # the hostile name is shown as text, never run
    expect(teacher.locator(".poll-who")).to_contain_text(HOSTILE)
    assert teacher.evaluate("window.__pwned") is None
    teacher.screenshot(path=str(tmp_path / "teacher-answers.png"))

    # the reveal: the engine's answer and explanation on the projector, verdicts on the phones
    teacher.locator(".poll-reveal-button button").click()
    right = E.EXERCISES[WHO].check("red", "en")
    result = teacher.locator(".poll-result")
    expect(result).to_contain_text(f"Right answer: {right.right_answer}")
    first_words = re.split(r"\(", right.reason)[0].strip()
    expect(result).to_contain_text(first_words)
    expect(bars.locator(".poll-bar-right")).to_have_attribute("data-key", "red")
    expect(bars.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(bars.locator(".poll-bar[data-key='blue'] .poll-bar-count")).to_have_text("1")
    expect(bars.locator(".poll-bar[data-key='green'] .poll-bar-count")).to_have_text("0")
    side_bars = side.locator(".side-teacher .poll-counts")
    expect(side_bars.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(ana.locator(".poll-verdict")).to_contain_text(right.headline)
    expect(bo.locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("blue", "de").headline
    )
    expect(side.locator(".side-l1 .poll-verdict")).to_contain_text(right.headline)
    expect(teacher.locator(".poll-class")).to_contain_text("Red ✔")

    # a late click after the reveal changes nothing (the buttons are disabled)
    expect(ana.get_by_role("button", name="Green", exact=True)).to_be_disabled()
    expect(bars.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    assert teacher.evaluate("window.__pwned") is None
    assert not errors, f"JavaScript errors in the pages: {errors}"


def test_a_typed_answer_the_engine_cannot_read_is_refused_on_the_learners_page(chromium, app_url):
    errors: list[str] = []
    teacher = open_page(chromium, f"{app_url}/teacher", PROJECTOR, errors)
    bo = open_page(chromium, f"{app_url}/learner?learner=l2&lang=de", PHONE, errors)
    teacher.locator(".poll-pick select").select_option(index=3)  # setup/one-deben-per-reserve
    teacher.locator(".poll-push button").click()
    expect(bo.locator(".poll-typed input")).to_be_visible()
    bo.locator(".poll-typed input").fill("ein paar")
    bo.locator(".poll-send button").click()
    expect(bo.locator(".poll-error")).to_contain_text("Keine Antwort auf diese Frage")
    expect(teacher.locator(".poll-progress")).to_contain_text("0 of 2")
    bo.locator(".poll-typed input").fill("1")
    bo.locator(".poll-send button").click()
    expect(teacher.locator(".poll-progress")).to_contain_text("1 of 2")
    teacher.locator(".poll-reveal-button button").click()  # the engine's reading, counted
    expect(teacher.locator(".poll-bar[data-key='+1'] .poll-bar-count")).to_have_text("1")
    assert not errors, f"JavaScript errors in the pages: {errors}"


def test_a_card_made_after_the_page_loaded_follows_the_questions(chromium, app_url):
    errors: list[str] = []
    teacher = open_page(chromium, f"{app_url}/teacher", PROJECTOR, errors)
    ana = open_page(chromium, f"{app_url}/later?learner=l1", PHONE, errors)
    ana.locator(".show-card button").click()
    expect(ana.locator(".poll-card")).to_be_visible()
    teacher.locator(".poll-pick select").select_option(index=0)  # welcome/who-plays-next
    teacher.locator(".poll-push button").click()
    expect(ana.locator(".poll-card-question")).to_contain_text(E.EXERCISES[WHO].prompt("en"))
    ana.get_by_role("button", name="Red", exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("1 of 2")
    teacher.locator(".poll-reveal-button button").click()
    expect(teacher.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(ana.locator(".poll-verdict")).to_contain_text(E.EXERCISES[WHO].check("red").headline)
    assert not errors, f"JavaScript errors in the pages: {errors}"
