"""A class question in a room (#16 items 3, 4, 6), in Chromium against ``nefertiti serve``.

A teacher (projector, 1024 x 768) opens a room; three learners, each in a browser context of
their own (phones, 390 x 844), join by code. The teacher asks an exercise of the lessons; the
card comes up on every phone; one learner switches to German and reads the question in German
while the others stay in English; answers arrive on the teacher's page (who has answered; what,
only at the reveal); a paused room takes no answer (said in the learner's language); the reveal
reaches every learner with the engine's reason; the class view counts right and wrong. A
learner's crafted teacher link and a forged websocket message change nothing. The teacher's
remaining buttons (Undo, Redo, stage a position, remove a learner) are pressed too.

Screenshots (tests/browser/artifacts/classroom-polls): the projector at 1024 x 768 and
1920 x 1080, and a learner's phone.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, open_room, wait_back, wait_covered
from test_classroom import LOAD_MS, STEP_MS, Class, Server

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.poll import Poll

SHOTS = ARTIFACTS / "classroom-polls"
WHO = "welcome/who-plays-next"
NAMES = ("Anna", "Ben", "Chen")
PROJECTOR = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def choice_label(key: str, lang: str) -> str:
    return dict(Poll(f"lesson:{WHO}", ["x"]).choices(lang))[key]


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + min(box["height"], 80) <= size["height"]
        and box["x"] + box["width"] <= size["width"] + 1
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-polls-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def card(page):
    return page.locator(".room-poll .poll-card")


def test_learners_join_and_the_teacher_asks_everyone(klass, server):
    teacher = klass.teacher
    klass.code = open_room(teacher, server.base)
    # at 1024 x 768 the board and the current decision are both in view without scrolling
    assert in_view(teacher, teacher.locator(".room-decision"))
    assert in_view(teacher, teacher.locator(".bk-Canvas").first)
    expect(teacher.locator(".poll-teacher")).to_be_attached()
    for name in NAMES:
        page = klass.page(PHONE)
        page.goto(f"{server.base}/join?code={klass.code}", timeout=LOAD_MS)
        page.locator(".room-name-input input").fill(name)
        if name == "Anna":  # the join form in another language, and back
            page.get_by_role("button", name="中文", exact=True).click(timeout=LOAD_MS)
            expect(page.locator(".room-join button")).to_have_text(tr("zh", "room.join"))
            page.get_by_role("button", name="English", exact=True).click()
            expect(page.locator(".room-join button")).to_have_text(tr("en", "room.join"))
        page.locator(".room-join button").click(timeout=LOAD_MS)
        expect(page.locator(".room-status")).to_contain_text("You watch", timeout=LOAD_MS)
        # no question yet: no card, and no teacher's controls on a learner's page
        expect(page.locator(".room-poll")).to_be_hidden()
        expect(page.locator(".poll-push, .poll-reveal-button, .room-pause")).to_have_count(0)
        klass.learners[name] = page
    expect(teacher.locator(".room-person")).to_have_count(3)
    expect(teacher.locator(".poll-class-row")).to_have_count(3)
    teacher.locator(".poll-pick select").select_option(index=0)  # the first lesson's: WHO
    teacher.locator(".poll-push button").click()
    prompt_en = E.EXERCISES[WHO].prompt("en")
    expect(teacher.locator(".poll-question")).to_contain_text(prompt_en)
    for page in klass.learners.values():
        expect(card(page).locator(".poll-card-question")).to_contain_text(prompt_en)
    expect(teacher.locator(".poll-progress")).to_contain_text("0 of 3")


def test_one_learner_reads_it_in_german_the_others_in_english(klass):
    chen = klass.learners["Chen"]
    chen.get_by_role("button", name="Deutsch", exact=True).click()
    prompt_de = E.EXERCISES[WHO].prompt("de")
    expect(card(chen).locator(".poll-card-question")).to_contain_text(prompt_de)
    expect(chen.locator(".room-status")).to_contain_text(tr("de", "room.you_watch"))
    for name in ("Anna", "Ben"):
        expect(card(klass.learners[name]).locator(".poll-card-question")).to_contain_text(
            E.EXERCISES[WHO].prompt("en")
        )
    expect(klass.teacher.locator(".poll-question")).to_contain_text(E.EXERCISES[WHO].prompt("en"))


def test_answers_arrive_and_a_paused_room_takes_none(klass):
    teacher = klass.teacher
    anna, ben, chen = (klass.learners[name] for name in NAMES)
    card(anna).get_by_role("button", name=choice_label("red", "en"), exact=True).click()
    card(ben).get_by_role("button", name=choice_label("blue", "en"), exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("2 of 3")
    expect(teacher.locator(".poll-who")).to_contain_text("Chen")
    # who has answered, never what, until the reveal (#28 item 6)
    expect(teacher.locator(".poll-bar")).to_have_count(0)
    expect(teacher.locator(".poll-answered-names")).to_contain_text("Anna")
    # paused: Chen's answer is refused, in German, and nothing is counted
    teacher.locator(".room-pause button").click()
    expect(chen.locator(".room-status")).to_contain_text(tr("de", "room.paused"))
    card(chen).get_by_role("button", name=choice_label("red", "de"), exact=True).click()
    expect(card(chen).locator(".poll-error-line")).to_contain_text(tr("de", "poll.refused.paused"))
    expect(teacher.locator(".poll-progress")).to_contain_text("2 of 3")
    teacher.locator(".room-pause button").click()
    expect(chen.locator(".room-status")).not_to_contain_text(tr("de", "room.paused"))
    card(chen).get_by_role("button", name=choice_label("green", "de"), exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("3 of 3")
    expect(teacher.locator(".poll-bar")).to_have_count(0)
    shot(teacher, "projector-1024-answers")


def test_a_learner_cannot_ask_or_reveal(klass, server):
    teacher, anna = klass.teacher, klass.learners["Anna"]
    # a crafted teacher link (the room's code, a made-up key) leads nothing
    forged = klass.page(PHONE)
    forged.goto(f"{server.base}/classroom?room={klass.code}&key={'x' * 40}", timeout=LOAD_MS)
    expect(forged.get_by_text(tr("en", "room.no_key"))).to_be_visible(timeout=LOAD_MS)
    expect(forged.locator(".poll-push, .poll-reveal-button")).to_have_count(0)
    # a forged websocket message from Anna's page: her choices' widget set to no choice at all
    anna.evaluate(
        """() => {
        for (const doc of Bokeh.documents) {
          for (const m of doc._all_models.values()) {
            if (m.css_classes && m.css_classes.includes('poll-choices')) m.active = 42;
          }
        }
        }"""
    )
    anna.wait_for_timeout(500)
    expect(teacher.locator(".poll-progress")).to_contain_text("3 of 3")
    expect(card(anna).locator(".poll-your-answer")).to_contain_text(choice_label("red", "en"))


def test_the_reveal_reaches_every_learner_with_the_reason(klass):
    teacher = klass.teacher
    teacher.locator(".poll-reveal-button button").click()
    # the answers' counts, only now: Anna's forged message changed nothing
    for key in ("red", "blue", "green"):
        expect(teacher.locator(f".poll-bar[data-key='{key}'] .poll-bar-count")).to_have_text("1")
    right = E.EXERCISES[WHO].check("red")  # Red decides next (R5.5)
    assert right.correct
    # the engine's right answer and its reason, on the projector
    poll = Poll(f"lesson:{WHO}", ["x"])
    reveal = poll.reveal()
    expect(teacher.locator(".poll-result")).to_contain_text(reveal.right_answer("en"))
    expect(teacher.locator(".poll-result")).to_contain_text(
        reveal.explanation("en").split("(")[0].strip()
    )
    for name, answer, lang in (
        ("Anna", "red", "en"),
        ("Ben", "blue", "en"),
        ("Chen", "green", "de"),
    ):
        verdict = E.EXERCISES[WHO].check(answer, lang=lang)
        box = card(klass.learners[name]).locator(".poll-verdict")
        expect(box).to_contain_text(verdict.headline)
    # the class view: Anna right, Ben and Chen wrong
    rows = teacher.locator(".poll-class-row")
    expect(rows.filter(has_text="Anna").locator("td").nth(2)).to_have_text("1")
    expect(rows.filter(has_text="Anna").locator("td").nth(3)).to_have_text("0")
    expect(rows.filter(has_text="Chen").locator("td").nth(3)).to_have_text("1")
    teacher.locator(".room-poll-teacher").scroll_into_view_if_needed()
    shot(teacher, "projector-1024-revealed")
    shot(klass.learners["Chen"], "phone-390-revealed-de")
    shot(klass.learners["Ben"], "phone-390-revealed")
    shot(klass.learners["Ben"], "phone-390-revealed-whole-page", full_page=True)
    # the question's board is in the phone's width
    box = card(klass.learners["Ben"]).locator(".bk-Canvas").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 391, box


def test_the_teachers_other_buttons(klass):
    teacher = klass.teacher
    anna, ben = klass.learners["Anna"], klass.learners["Ben"]
    teacher.evaluate("window.scrollTo(0, 0)")
    # the teacher plays Blue's first step; Undo takes it back, Redo plays it again
    step = int(teacher.locator(".room-table-step").get_attribute("data-step"))
    teacher.locator(".room-decision").get_by_role("button", name="Place", exact=True).click()
    expect(anna.locator(f".room-status[data-step='{step + 1}']")).to_have_count(1)
    teacher.get_by_role("button", name="Undo").first.click()
    expect(anna.locator(f".room-status[data-step='{step}']")).to_have_count(1)
    teacher.get_by_role("button", name="Redo").first.click()
    expect(anna.locator(f".room-status[data-step='{step + 1}']")).to_have_count(1)
    # Anna breaks away, tries a step on her own copy, takes it back, and rejoins the table
    anna.locator(".room-away button").click()
    expect(anna.locator(".room-status[data-away='1']")).to_have_count(1)
    anna.locator(".room-decision").get_by_role("button", name="Place", exact=True).click()
    anna.get_by_role("button", name="Undo").first.click()
    expect(anna.locator(".room-error")).to_be_hidden()
    anna.locator(".room-away button").click()
    expect(anna.locator(".room-status[data-away='0']")).to_have_count(1)
    assert int(teacher.locator(".room-table-step").get_attribute("data-step")) == step + 1
    # stage a shipped position for the room
    select = teacher.locator(".room-stage-what select")
    options = select.locator("option").all_inner_texts()
    assert len(options) > 1, options
    select.select_option(index=1)
    teacher.locator(".room-stage button").click()
    teacher.locator(".room-confirm-yes button").click()  # the class game stays as chapter 1
    expect(teacher.locator(".room-chapter-note")).to_be_visible()
    # remove Ben: his page says so, he is no longer listed
    teacher.locator(".room-remove-who select").select_option(label="Ben (#2)")
    teacher.locator(".room-remove button").click()
    expect(ben.get_by_text(tr("en", "room.removed_you"))).to_be_visible()
    expect(teacher.locator(".room-person")).to_have_count(2)
    # a new question goes to the two left
    teacher.locator(".poll-push button").click()
    expect(teacher.locator(".poll-progress")).to_contain_text("0 of 2", timeout=STEP_MS)


def test_screenshots_projector_and_phone(klass):
    teacher, anna = klass.teacher, klass.learners["Anna"]
    teacher.evaluate("window.scrollTo(0, 0)")
    assert in_view(teacher, teacher.locator(".room-decision"))
    assert in_view(teacher, teacher.locator(".bk-Canvas").first)
    shot(teacher, "projector-1024")
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.wait_for_timeout(1500)
    assert in_view(teacher, teacher.locator(".room-decision"))
    shot(teacher, "projector-1920")
    shot(anna, "phone-390")


def test_the_teacher_switches_the_projector_to_chinese(klass):
    teacher, anna = klass.teacher, klass.learners["Anna"]
    teacher.get_by_role("button", name="中文", exact=True).first.click()
    expect(teacher.locator(".poll-title")).to_contain_text(tr("zh", "poll.teacher.title"))
    expect(teacher.locator(".poll-class")).to_contain_text(tr("zh", "poll.class.title"))
    expect(teacher.locator(".poll-push button")).to_have_text(tr("zh", "poll.teacher.push"))
    # the learners' pages keep their own language
    expect(anna.locator(".room-status")).to_contain_text("You are Anna")
    teacher.locator(".room-poll-teacher").scroll_into_view_if_needed()
    shot(teacher, "projector-1920-zh-question")


def test_a_question_and_its_answers_survive_a_restart(klass, server):
    """#16 item 5: the question asked last (to Anna and Chen), Anna's answer and the class record
    are in the store: the server stopped and started again (the same port and store), the
    teacher's page shows the question, its counts and who answered; Anna's page her answer;
    Chen answers after the restart and the reveal reaches both."""
    teacher, anna, chen = klass.teacher, klass.learners["Anna"], klass.learners["Chen"]
    red = ".poll-bar[data-key='red'] .poll-bar-count"
    answered = ".poll-progress[data-answered='{}'][data-total='2']"  # the page is in Chinese
    card(anna).get_by_role("button", name=choice_label("red", "en"), exact=True).click()
    expect(teacher.locator(answered.format(1))).to_have_count(1)
    expect(card(anna).locator(".poll-your-answer")).to_contain_text(choice_label("red", "en"))
    teacher_url = teacher.url
    server.stop()  # SIGTERM mid-question
    for page in (teacher, anna, chen):
        wait_covered(page)
    server.start()
    # every page reloads itself (widgets.game.reconnect): the teacher's to the same room
    wait_back(teacher, timeout=LOAD_MS)
    assert teacher.url == teacher_url
    expect(teacher.locator(answered.format(1))).to_have_count(1, timeout=LOAD_MS)
    expect(teacher.locator(".poll-question")).to_contain_text(E.EXERCISES[WHO].prompt("en"))
    expect(teacher.locator(".poll-who")).to_contain_text("Anna")
    expect(teacher.locator(".poll-who")).to_contain_text("Chen")  # waited for
    for page in (anna, chen):
        wait_back(page, timeout=LOAD_MS)  # the browser's token: the same learner
    expect(card(anna).locator(".poll-your-answer")).to_contain_text(
        choice_label("red", "en"), timeout=LOAD_MS
    )
    expect(card(chen).locator(".poll-card-question")).to_contain_text(
        E.EXERCISES[WHO].prompt("de"), timeout=LOAD_MS
    )  # Chen's language is the room's too
    expect(card(chen).locator(".poll-your-answer")).to_have_count(0)
    card(chen).get_by_role("button", name=choice_label("green", "de"), exact=True).click()
    expect(teacher.locator(answered.format(2))).to_have_count(1)
    teacher.locator(".poll-reveal-button button").click()
    expect(teacher.locator(red)).to_have_text("1")  # Anna's, from before the restart
    expect(teacher.locator(".poll-bar[data-key='green'] .poll-bar-count")).to_have_text("1")
    expect(card(anna).locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("red").headline
    )
    expect(card(chen).locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("green", lang="de").headline
    )
    # the class record: Anna's first right answer (before the restart) and this one
    rows = teacher.locator(".poll-class-row")
    expect(rows.filter(has_text="Anna").locator("td").nth(2)).to_have_text("2")
    expect(rows.filter(has_text="Chen").locator("td").nth(3)).to_have_text("2")
