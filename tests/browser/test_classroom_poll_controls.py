"""The teacher's controls over a class question, and marks on the shared board, in Chromium
against ``nefertiti serve`` (widgets/classroom/poll_controls.py, countdown.py, marks_layer.py).

A teacher (1024 x 768, English) opens a room and its projector view (a second window, 1024 x
768). Lena joins from a phone (Playwright's Pixel 5: touch, device scale, mobile; German), 王芳
from a 1024 x 768 screen (Chinese). The teacher asks an anonymous question with a time limit:
both learners read, in their language, that it is anonymous; every page counts the time down
(in the browser, from the server's deadline); Lena answers; the teacher's page counts it but
names nobody. At zero the answers lock by themselves on the server: each page says so in its
language, the learners' buttons are inert, and a forged late answer (a websocket message from
王芳's page) is refused in Chinese. The reveal shows the counts on the projector with no name
anywhere. Then the teacher highlights a square and draws an arrow on the table's board: Lena's
phone and the projector draw them at once (their Bokeh documents' ``board-marks`` and
``board-arrows``), and Clear marks takes them away everywhere. Last the teacher asks a question
answered with a square: 王芳 answers it with the keyboard alone (Tab until the question's grid,
named for answering and not as the table's grid, has the focus; the arrow keys; Enter), checked
through ARIA queries, and axe finds no serious or critical violation on her page; at the reveal
her verdict is the text of the card's live region (a status, polite), in Chinese, and Lena's
phone's region says in German that she gave no answer.

The served process offers a short time limit (:data:`SHORT_S`) besides the real ones: the
test patches ``poll_controls.TIMER_CHOICES`` in it before serving (a test-only value; the
countdown, the deadline and the lock are the real ones).

Screenshots (tests/browser/artifacts/classroom-poll-controls): the phone (locked, and with
the marks, and the square question revealed), the Chinese screen's countdown and its
question's focused square, the projector (revealed, and with the marks).
"""

from __future__ import annotations

import pytest
from axe import check
from board_keyboard import focused, press_until
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    canvas_point,
    cookie,
    open_room,
    source,
    wait_rows,
)
from test_classroom import LOAD_MS, Class, Server, never_on_the_loop
from test_classroom_projector import all_text

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from nefertiti_core.teaching.board_words import square_words
from widgets.classroom.countdown import timer_label
from widgets.classroom.poll import Poll, lesson_exercises
from widgets.game import geometry as G

SHOTS = ARTIFACTS / "classroom-poll-controls"
WHO = "welcome/who-plays-next"
SQUARE = "closing-gizeh/four-that-touch"  # a question answered with a square of the board
SCREEN = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT
LENA, FANG = "Lena", "王芳"
#: The short time limit the served process offers (long enough for a phone to answer on a
#: busy 2-core machine, short enough to wait for).
SHORT_S = 20
SERVE = (
    "import widgets.classroom.poll_controls as C\n"
    f"C.TIMER_CHOICES = (0, {SHORT_S}, 30, 60, 120)\n"
    "from widgets.serve import serve\n"
    "serve(port=PORT, address='127.0.0.1', show=False)\n"
)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def label(key: str, lang: str) -> str:
    return dict(Poll(f"lesson:{WHO}", ["x"]).choices(lang))[key]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-poll-controls-home"), code=SERVE)
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def card(page):
    return page.locator(".room-poll .poll-card")


def test_an_anonymous_timed_question_locks_at_zero_and_reveals_counts_only(klass, server):
    teacher = klass.teacher
    klass.code = open_room(teacher, server.base)
    cookie(teacher.context, "nefertiti_teacher")  # set by the server a moment later
    with teacher.context.expect_page() as opened:
        teacher.locator(".room-projector-open a").click()
    projector = opened.value
    projector.on("pageerror", lambda error: klass.errors.append(str(error)))
    projector.set_viewport_size(SCREEN)
    klass.projector = projector
    expect(projector.locator(".bk-Canvas").first).to_be_visible(timeout=LOAD_MS)
    lena = klass.learners[LENA] = klass.join(
        klass.code, LENA, PHONE, link=True, locale="de-DE", **PIXEL_5
    )
    fang = klass.learners[FANG] = klass.join(klass.code, FANG, SCREEN, link=True, locale="zh-CN")
    expect(teacher.locator(".room-person")).to_have_count(2)
    # asked anonymously, with the short time limit
    teacher.locator(".poll-pick select").select_option(index=0)
    teacher.locator(".poll-anonymous input").check()
    teacher.locator(".poll-timer-pick select").select_option(label=timer_label(SHORT_S, "en"))
    teacher.locator(".poll-push button").click()
    for page, lang in ((lena, "de"), (fang, "zh")):
        expect(card(page).locator(".poll-card-question")).to_contain_text(
            E.EXERCISES[WHO].prompt(lang)
        )
        expect(card(page).locator(".poll-anonymous-note")).to_contain_text(
            tr(lang, "poll.learner.anonymous")
        )
    # every page counts down from the server's deadline (in the browser)
    running = {"en": teacher, "de": lena, "zh": fang}
    for lang, page in running.items():
        timer = page.locator(".poll-timer").first
        expect(timer).to_contain_text(tr(lang, "poll.timer.left", time="0:"))
        left = int(timer.get_attribute("data-left"))
        assert 0 < left <= SHORT_S, left
    expect(projector.locator(".room-poll-projected .poll-timer")).to_contain_text(
        tr("en", "poll.timer.left", time="0:")
    )
    shot(fang, "screen-zh-1024-countdown")
    # Lena answers; the teacher counts it and names nobody
    card(lena).get_by_role("button", name=label("red", "de"), exact=True).click()
    expect(card(lena).locator(".poll-your-answer")).to_contain_text(label("red", "de"))
    expect(teacher.locator(".poll-progress").first).to_contain_text(
        tr("en", "poll.teacher.progress", answered=1, total=2)
    )
    panel = teacher.locator(".room-poll-teacher")
    expect(panel.locator(".poll-anonymous-note")).to_contain_text(
        tr("en", "poll.teacher.anonymous_note")
    )
    expect(panel.locator(".poll-answered-names")).to_have_count(0)
    for name in (LENA, FANG):
        expect(panel).not_to_contain_text(name)
    expect(teacher.locator(".poll-class-anonymous")).to_have_count(2)
    expect(teacher.locator(".poll-class-answered")).to_have_count(0)
    # zero: locked by the server, said on every page in its language, the buttons inert
    for page, lang in ((lena, "de"), (fang, "zh")):
        expect(card(page).locator(".poll-locked")).to_contain_text(
            tr(lang, "poll.locked"), timeout=(SHORT_S + 60) * 1000
        )
        for button in card(page).locator(".poll-choices button").all():
            expect(button).to_be_disabled()
    expect(projector.locator(".room-poll-projected .poll-locked")).to_contain_text(
        tr("en", "poll.locked")
    )
    expect(panel.locator(".poll-locked")).to_contain_text(tr("en", "poll.locked"))
    expect(panel.locator(".poll-lock-button button")).to_have_text(tr("en", "poll.teacher.unlock"))
    shot(lena, "phone-de-locked")
    # a forged late answer from 王芳's page (her choices' widget set through the websocket)
    fang.evaluate(
        """() => {
        for (const doc of Bokeh.documents) {
          for (const m of doc._all_models.values()) {
            if (m.css_classes && m.css_classes.includes('poll-choices')) m.active = 1;
          }
        }
        }"""
    )
    expect(card(fang).locator(".poll-error-line")).to_contain_text(tr("zh", "poll.refused.locked"))
    expect(teacher.locator(".poll-progress").first).to_contain_text(
        tr("en", "poll.teacher.progress", answered=1, total=2)
    )
    # the reveal: the counts, and no name on the projector nor in the teacher's panel
    panel.locator(".poll-reveal-button button").click()
    box = projector.locator(".room-poll-projected")
    expect(box.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(box.locator(".poll-bar[data-key='blue'] .poll-bar-count")).to_have_text("0")
    expect(panel.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    text = all_text(projector)
    assert LENA not in text and FANG not in text
    for name in (LENA, FANG):
        expect(panel).not_to_contain_text(name)
    expect(teacher.locator(".room-class-view")).not_to_contain_text("\u2714")
    # Lena reads her own verdict on her own phone
    expect(card(lena).locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("red", lang="de").headline
    )
    shot(projector, "projector-1024-revealed")


def click_square(page, x: float, y: float) -> None:
    canvas = page.locator(".bk-Canvas").first
    canvas.scroll_into_view_if_needed()
    page.mouse.click(*canvas_point(page, x, y, G.WIDTH, G.HEIGHT))


def test_the_teachers_marks_reach_every_board(klass):
    teacher, lena, projector = klass.teacher, klass.learners[LENA], klass.projector
    # the table's position is the room's first (nothing was played): its squares
    cells = G.squares(new_game(4, 0).side)
    market_1 = next(i for i, cell in enumerate(cells) if cell.market == 1)
    a, b, c = [(cells[i].x, cells[i].y) for i in (0, 3, market_1 + 2)]
    tools = teacher.locator(".room-marks")
    tools.get_by_role("button", name=tr("en", "marks.mode.square"), exact=True).click()
    click_square(teacher, *a)
    tools.get_by_role("button", name=tr("en", "marks.mode.arrow"), exact=True).click()
    click_square(teacher, *b)
    words = tr("en", "marks.arrow_from", square="\0").split("\0")[0]
    expect(teacher.locator(".room-mark-hint")).to_contain_text(words)
    click_square(teacher, *c)
    for page in (lena, projector, teacher):
        wait_rows(page, "board-marks", "n == 1", timeout=LOAD_MS)
        wait_rows(page, "board-arrows", "n == 1", timeout=LOAD_MS)
    marked = source(lena, "board-marks")
    assert (marked["x"][0], marked["y"][0]) == pytest.approx(a)
    arrow = source(projector, "board-arrows")
    assert abs(arrow["x"][0] - b[0]) < 0.5 and abs(arrow["y"][0] - b[1]) < 0.5
    assert abs(arrow["x1"][0] - c[0]) < 0.5 and abs(arrow["y1"][0] - c[1]) < 0.5
    lena.locator(".bk-Canvas").first.scroll_into_view_if_needed()
    shot(lena, "phone-de-marks")
    shot(projector, "projector-1024-marks")
    tools.scroll_into_view_if_needed()
    shot(teacher, "teacher-1024-marks")
    # Clear marks: gone from every board
    tools.locator(".room-marks-clear button").click()
    for page in (lena, projector, teacher):
        wait_rows(page, "board-marks", "n == 0", timeout=LOAD_MS)
        wait_rows(page, "board-arrows", "n == 0", timeout=LOAD_MS)


#: The focused element's grid's name (through the shadow roots), or None off every grid.
FOCUSED_GRID_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  const grid = el && el.closest && el.closest('[role=grid]');
  return grid ? grid.getAttribute('aria-label') : null;
}"""


def test_a_learner_answers_a_square_question_by_keyboard(klass):
    teacher, fang = klass.teacher, klass.learners[FANG]
    ex = E.EXERCISES[SQUARE]
    state, right = ex.state(), ex.right_answer()[0]
    teacher.locator(".poll-anonymous input").uncheck()
    teacher.locator(".poll-timer-pick select").select_option(label=timer_label(0, "en"))
    lessons = [exercise.id for _, exercise in lesson_exercises()]
    teacher.locator(".poll-pick select").select_option(index=lessons.index(SQUARE))
    teacher.locator(".poll-push button").click()
    question = card(fang)
    expect(question.locator(".poll-card-question")).to_contain_text(ex.prompt("zh"))
    # two grids on her page, each named for what Enter does there, with ids of their own
    answering, placing = tr("zh", "keys.board.answer"), tr("zh", "keys.board")
    expect(question.get_by_role("grid", name=answering, exact=True)).to_have_count(1)
    expect(fang.get_by_role("grid", name=placing, exact=True)).to_have_count(1)
    expect(fang.get_by_role("grid")).to_have_count(2)
    ids = fang.get_by_role("grid").evaluate_all("grids => grids.map(g => g.id)")
    assert len(set(ids)) == 2 and all(ids), ids
    # the keyboard alone: Tab until a square of the question's grid has the focus
    fang.locator("body").focus()
    press_until(
        fang,
        "Tab",
        lambda _now: fang.evaluate(FOCUSED_GRID_JS) == answering,
        what="the question's board",
    )
    assert focused(fang)["name"] == square_words(state, 0, 0, "zh", hints=False)
    market = {
        square_words(state, ex.market, c.index, "zh", hints=False)
        for c in G.squares(state.side)
        if c.market == ex.market
    }
    target = square_words(state, ex.market, right, "zh", hints=False)
    if focused(fang)["name"] not in market:
        press_until(fang, "ArrowDown", lambda f: f["name"] in market, 40, what="the market")
    if focused(fang)["name"] != target:
        press_until(fang, "ArrowRight", lambda f: f["name"] == target, 60, what=target)
    expect(question.get_by_role("gridcell", name=target, exact=True)).to_be_focused()
    shot(fang, "screen-zh-1024-question-square")
    fang.keyboard.press("Enter")
    answer = Poll(f"lesson:{SQUARE}", ["x"]).label(str(right), "zh")
    expect(question.locator(".poll-your-answer")).to_contain_text(answer)
    expect(teacher.locator(".poll-progress").first).to_contain_text(
        tr("en", "poll.teacher.progress", answered=1, total=2)
    )
    check(fang, "a learner's page (zh) with a square question answered by keyboard")
    # the verdict's live region is in her card before the verdict, empty; at the reveal its
    # text is her verdict, in Chinese (what a screen reader announces)
    region = question.locator(".poll-verdict-live").get_by_role("status")
    expect(region).to_have_count(1)
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_have_text("")
    teacher.locator(".room-poll-teacher .poll-reveal-button button").click()
    verdict = ex.check((ex.market, right), "zh")
    expect(question.locator(".poll-verdict")).to_contain_text(verdict.headline)
    expect(region).to_have_text(verdict.explanation)
    # Lena gave no answer: her phone's region says so, in German
    lena = klass.learners[LENA]
    expect(card(lena).locator(".poll-verdict-live").get_by_role("status")).to_have_text(
        tr("de", "poll.learner.no_answer")
    )
    card(lena).locator(".poll-verdict").scroll_into_view_if_needed()
    shot(lena, "phone-de-square-question-revealed")
