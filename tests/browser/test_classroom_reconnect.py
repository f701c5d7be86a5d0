"""Classroom pages come back by themselves after a restart (#28 item 3), in Chromium against
``nefertiti serve``.

A teacher (1024 x 768) opens a room and the projector view (a second window of the same browser);
a learner on an emulated Pixel 5 in German and a learner on a laptop who chose 中文 on the join
form join; the teacher gives them seats and the German phone places a servant. The server is then
stopped (SIGTERM) and started again on the same port with the same ``$NEFERTITI_HOME``, and **no
page is reloaded, nor its address opened again, by the test**: while the server is down each page
is covered by a banner in its own language (the teacher's and the projector's English, the
phone's German, the laptop's Chinese) under which nothing can be clicked (the buttons are not
what is at their place on the screen, and the page's parts are inert); when the server answers,
each page reloads itself (the Chinese learner's once she comes back to its tab: it says the
server is back meanwhile) and shows its room again at the same step: the teacher's with its
people and seats (by the teacher's cookie), each learner in the same seat, in the same language
(by their cookie), the projector its room (by the teacher's cookie). Then the Chinese learner's
move reaches every page.

Screenshots: tests/browser/artifacts/classroom-reconnect (looked at; described in the report).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, OFFLINE, PIXEL_5, PIXEL_5_VIEWPORT, open_room, wait_back, wait_rows
from test_classroom import LOAD_MS, STEP_MS, Class, Server

from nefertiti_core import new_game
from nefertiti_core.engine.i18n import tr

SHOTS = ARTIFACTS / "classroom-reconnect"
TEACHER = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT
LAPTOP = {"width": 1280, "height": 800}
COLOURS = new_game(4, 0).colours  # Blue, Black, Green, Red place in turn
SEAT = {colour: seat for seat, colour in enumerate(COLOURS)}
#: The page's tab hidden (true) or shown again (false), as the browser says it when its user
#: switches tabs or a phone's screen goes off.
HIDE_JS = """(hidden) => {
    Object.defineProperty(document, "visibilityState", {value: hidden ? "hidden" : "visible",
                                                        configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""
#: What is on the screen at the middle of an element: the element itself (or inside it)?
ON_TOP_JS = """(element) => {
    element.scrollIntoView({block: "center"});
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    let top = document.elementFromPoint(x, y);
    while (top && top.shadowRoot) {
        const inner = top.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === top) break;
        top = inner;
    }
    return {reachable: element === top || element.contains(top), cover: !!top?.closest?.("#nefertiti-offline")};
}"""


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def step_marker(step: int) -> str:
    """The room's step as each page shows it (a learner's status line, the teacher's people
    card, the projector's status line)."""
    return (
        f".room-status[data-step='{step}'], .room-table-step[data-step='{step}'], "
        f".room-projector-status [data-step='{step}']"
    )


def expect_step(page, step: int) -> None:
    expect(page.locator(step_marker(step))).to_have_count(1, timeout=LOAD_MS)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-reconnect-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def covered(page, selector: str) -> None:
    """The element at ``selector`` is on the page but not what a click at its place reaches:
    the cover is; and the page's parts take no focus or key (inert)."""
    element = page.locator(selector).first.element_handle()
    where = page.evaluate(ON_TOP_JS, element)
    assert where == {"reachable": False, "cover": True}, (selector, where)
    assert page.evaluate(
        "() => [...document.body.children].filter((e) => e.id !== 'nefertiti-offline')"
        ".every((e) => e.inert)"
    )


def test_every_classroom_page_comes_back_by_itself_after_a_restart(klass, server):
    teacher = klass.teacher
    code = open_room(teacher, server.base)
    with teacher.context.expect_page() as opened:
        teacher.locator(".room-projector-open a").click()
    projector = opened.value
    projector.on("pageerror", lambda error: klass.errors.append(str(error)))
    projector.set_viewport_size(TEACHER)
    shown_code = f"{code[:4]} {code[4:]}"
    expect(projector.locator(".room-join-code")).to_have_text(shown_code, timeout=LOAD_MS)
    german = klass.join(code, "Jürgen", PHONE, locale="de-DE", **PIXEL_5)
    chinese = klass.join(code, "王芳", LAPTOP, lang="zh", locale="en-US")
    learners = {"blue": (german, "Jürgen", "de"), "black": (chinese, "王芳", "zh")}
    for number, (colour, (page, name, _lang)) in enumerate(learners.items(), start=1):
        seat = teacher.locator(f".room-seat-{SEAT[colour]} select")
        seat.select_option(label=f"{name} (#{number})")
        expect(page.locator(".room-status")).to_have_attribute("data-seat", str(SEAT[colour]))
    german.get_by_role("button", name=tr("de", "panel.decision.place"), exact=True).click()
    pages = {"teacher": teacher, "projector": projector, "german": german, "chinese": chinese}
    for page in pages.values():
        expect_step(page, 1)
        wait_rows(page, "board-servants", "n == 1", timeout=STEP_MS)
    url_before = {name: page.url for name, page in pages.items()}

    server.stop()  # mid-class (SIGTERM): nobody reloads anything from here on
    words = {"teacher": "en", "projector": "en", "german": "de", "chinese": "zh"}
    for name, page in pages.items():
        cover = page.locator(OFFLINE)
        expect(cover).to_be_visible(timeout=STEP_MS)
        expect(cover).to_have_text(tr(words[name], "room.connection.lost"))
        expect(cover).to_have_attribute("lang", words[name])
        # Panel's own English toast is not shown beside it
        expect(page.locator(".notyf__disconnect")).to_be_hidden()
        shot(page, f"{name}-server-away")
    covered(teacher, ".room-pause button")
    covered(german, ".room-away button")
    covered(chinese, ".room-away button")
    covered(projector, ".bk-Canvas")

    # the Chinese learner has gone to another tab meanwhile: her page waits to be looked at
    chinese.evaluate(HIDE_JS, True)

    server.start()  # the same port, the same $NEFERTITI_HOME
    cover = chinese.locator(OFFLINE)
    expect(cover).to_have_attribute("data-back", "1", timeout=LOAD_MS)
    expect(cover).to_have_text(tr("zh", "room.connection.back"))
    shot(chinese, "chinese-server-back-tab-hidden")
    chinese.evaluate(HIDE_JS, False)  # she comes back to the tab
    for name, page in pages.items():
        wait_back(page, timeout=LOAD_MS)  # it reloaded itself
        assert page.url == url_before[name]
        expect_step(page, 1)
        wait_rows(page, "board-servants", "n == 1", timeout=LOAD_MS)
    expect(teacher.locator(".room-person")).to_have_count(2)  # nobody joined twice
    expect(teacher.locator(".room-code")).to_have_text(code)
    for colour, (page, name, lang) in learners.items():
        status = page.locator(".room-status")
        expect(status).to_have_attribute("data-seat", str(SEAT[colour]), timeout=LOAD_MS)
        expect(status).to_contain_text(tr(lang, "room.you_are", name=name))
    expect(projector.locator(".room-join-code")).to_have_text(shown_code)
    for name, page in pages.items():
        shot(page, f"{name}-back")

    # the class plays on: Black's placement, from the Chinese learner's laptop
    chinese.get_by_role("button", name=tr("zh", "panel.decision.place"), exact=True).click()
    for page in pages.values():
        expect_step(page, 2)
        wait_rows(page, "board-servants", "n == 2", timeout=STEP_MS)
