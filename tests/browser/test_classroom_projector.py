"""The classroom's projector view in Chromium (#28 items 5-6, #29 item 7), against
``nefertiti serve``, once in German and once in Chinese.

The teacher (1024 x 768, the browser in the class's language) opens a room and presses "Open the
projector view": a second window of the same browser, at 1024 x 768, shows the table, whose
decision it is, the join code, the link and the QR code, and no control at all. A learner on an
emulated Pixel 5 (its descriptor: viewport, device scale, touch, is_mobile) joins. The teacher
asks the first lesson's question: the projector shows the question and "0 of 1" answered, then
"1 of 1" once the learner has answered, and never the answer (neither does the teacher's page:
who has answered, not what); the reveal shows the answers' bars and the right answer on the
projector, still without the learner's name. The question, the board and the join code are in
the window without scrolling (bounding boxes against the window).

In German, a separate projector computer (another browser context, 1920 x 1080) opens the
projector link the teacher made: the token leaves the address bar at once and is kept in a cookie
(a reload still shows the room); a wrong token gets one German sentence and no table; the teacher
makes a new link and the old projector is turned away. Nowhere on a projector's page, in its
address or its HTML is the teacher's key or a learner's name.

Screenshots: tests/browser/artifacts/classroom-projector (looked at; described in the report).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, cookie, open_room
from test_classroom import LOAD_MS, STEP_MS, Class, Server

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.poll import Poll

SHOTS = ARTIFACTS / "classroom-projector"
WHO = "welcome/who-plays-next"
PROJECTOR = {"width": 1024, "height": 768}
WIDE = {"width": 1920, "height": 1080}
PHONE = PIXEL_5_VIEWPORT
#: Per language: the browsers' locale and the learner's name.
CLASSES = {"de": ("de-DE", "Jürgen"), "zh": ("zh-CN", "王芳")}

#: Every text of a page, its shadow roots included (Panel and Bokeh draw inside them).
ALL_TEXT_JS = """() => {
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent);
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(document.documentElement);
  return out.join(" ");
}"""


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the window (no scrolling needed)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 1
        and box["y"] + box["height"] <= size["height"] + 1
    )


def no_scrolling(page) -> bool:
    """Whether the page fits its window (nothing below or beside it to scroll to)."""
    return page.evaluate(
        "() => { const e = document.scrollingElement; return e.scrollHeight <= innerHeight + 1 "
        "&& e.scrollWidth <= innerWidth + 1; }"
    )


def all_text(page) -> str:
    return page.evaluate(ALL_TEXT_JS)


def label(key: str, lang: str) -> str:
    return dict(Poll(f"lesson:{WHO}", ["x"]).choices(lang))[key]


def progress(lang: str, answered: int, total: int) -> str:
    return tr(lang, "poll.teacher.progress", answered=answered, total=total)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-projector-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def projector_checks(projector, *, key: str, name: str) -> None:
    """Nothing secret and no control on a projector's page."""
    text = all_text(projector)
    assert name not in text and key not in text
    assert key not in projector.content() and key not in projector.url
    expect(projector.locator("button, select, input, textarea")).to_have_count(0)


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_the_projector_follows_the_room_and_hides_the_answers_until_the_reveal(klass, server, lang):
    locale, name = CLASSES[lang]
    teacher = klass.page(PROJECTOR, locale=locale)
    code = open_room(teacher, server.base)
    # the HttpOnly cookie the server sets once the page has posted its grant (a moment later)
    teacher_cookie = cookie(teacher.context, "nefertiti_teacher")["value"]
    kept = dict(e.split(":", 1) for e in teacher_cookie.split("."))  # CODE:KEY
    key = kept[code]  # the HttpOnly cookie the server set (widgets.server.cookies.TEACHER)
    assert len(key) >= 32
    # the projector view, in a second window of the teacher's browser (no key in its address)
    opener = teacher.locator(".room-projector-open a")
    expect(opener).to_have_text(f"\u25a3 {tr(lang, 'room.projector.open')}")
    with teacher.context.expect_page() as opened:
        opener.click()
    projector = opened.value
    projector.on("pageerror", lambda error: klass.errors.append(str(error)))
    projector.set_viewport_size(PROJECTOR)
    join_code = projector.locator(".room-join-code")
    expect(join_code).to_have_text(f"{code[:4]} {code[4:]}", timeout=LOAD_MS)
    assert projector.url.endswith(f"/projector?room={code}&lang={lang}"), projector.url
    expect(projector.locator(".room-qr svg")).to_be_visible()
    expect(projector.locator(".room-join-card")).to_contain_text(
        f"{server.base.split('//')[1]}/join"
    )
    expect(projector.locator(".bk-Canvas").first).to_be_visible()
    # a learner joins from a phone, in the class's language
    phone = klass.page(PHONE, locale=locale, **PIXEL_5)
    phone.goto(f"{server.base}/join?code={code}", timeout=LOAD_MS)
    phone.locator(".room-name-input input").fill(name)
    phone.locator(".room-join button").click(timeout=LOAD_MS)
    expect(phone.locator(".room-status")).to_contain_text(name, timeout=LOAD_MS)
    expect(teacher.locator(".room-person")).to_have_count(1)
    # no question yet: none on the projector
    expect(projector.locator(".room-poll-projected")).to_be_hidden()
    # the teacher asks the first lesson's question
    teacher.locator(".poll-pick select").select_option(index=0)
    teacher.locator(".poll-push button").click()
    prompt = E.EXERCISES[WHO].prompt(lang)
    box = projector.locator(".room-poll-projected")
    expect(box.locator(".poll-question")).to_contain_text(prompt)
    expect(box.locator(".poll-progress")).to_contain_text(progress(lang, 0, 1))
    expect(box.locator(".poll-hidden")).to_contain_text(tr(lang, "poll.hidden"))
    for selector in (".room-poll-projected", ".room-join-code", ".bk-Canvas"):
        assert in_view(projector, selector), f"{selector} is not in the 1024 x 768 window"
    assert no_scrolling(projector)
    shot(projector, f"projector-{lang}-1024-asked")
    # the learner answers (Red decides next: right); the projector counts, shows no answer
    card = phone.locator(".room-poll .poll-card")
    card.get_by_role("button", name=label("red", lang), exact=True).click()
    expect(card.locator(".poll-your-answer")).to_contain_text(label("red", lang))
    expect(box.locator(".poll-progress")).to_contain_text(progress(lang, 1, 1))
    expect(box.locator(".poll-bar")).to_have_count(0)
    expect(box).not_to_contain_text(label("red", lang))
    # nor on the teacher's page: who has answered, not what
    expect(teacher.locator(".poll-progress")).to_contain_text(progress(lang, 1, 1))
    expect(teacher.locator(".poll-answered-names")).to_contain_text(name)
    expect(teacher.locator(".room-poll-teacher .poll-bar")).to_have_count(0)
    expect(teacher.locator(".poll-class")).to_contain_text(tr(lang, "poll.class.answered"))
    projector_checks(projector, key=key, name=name)
    shot(projector, f"projector-{lang}-1024-answered")
    shot(teacher, f"teacher-{lang}-1024-answered")
    # the reveal: the answers' bars and the right answer, still no name
    teacher.locator(".poll-reveal-button button").click()
    expect(box.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(box.locator(".poll-bar[data-key='blue'] .poll-bar-count")).to_have_text("0")
    expect(box.locator(".poll-bar-right")).to_have_attribute("data-key", "red")
    right = E.EXERCISES[WHO].check("red", lang).right_answer
    expect(box.locator(".poll-result")).to_contain_text(tr(lang, "poll.right_answer", answer=right))
    expect(teacher.locator(".poll-class")).to_contain_text(f"{label('red', lang)} \u2714")
    projector_checks(projector, key=key, name=name)
    shot(projector, f"projector-{lang}-1024-revealed")
    for selector in (".room-poll-projected .poll-right-answer", ".room-join-code", ".bk-Canvas"):
        assert in_view(projector, selector), f"{selector} is not in the 1024 x 768 window"
    assert no_scrolling(projector)
    shot(phone, f"phone-{lang}-revealed")
    # the table moves on: the projector follows (the teacher plays the decider's first step)
    step = int(teacher.locator(".room-table-step").get_attribute("data-step"))
    place = tr(lang, "panel.decision.place")
    teacher.locator(".room-decision").get_by_role("button", name=place, exact=True).click()
    expect(teacher.locator(f".room-table-step[data-step='{step + 1}']")).to_have_count(1)
    expect(projector.locator(f".room-projector-status [data-step='{step + 1}']")).to_have_count(1)
    if lang == "de":
        other_computer(klass, server, teacher, code=code, key=key, name=name)
    else:  # the same window at 1920 x 1080
        projector.set_viewport_size(WIDE)
        projector.wait_for_timeout(1500)
        for selector in (
            ".room-poll-projected .poll-right-answer",
            ".room-join-code",
            ".bk-Canvas",
        ):
            assert in_view(projector, selector), f"{selector} is not in the 1920 x 1080 window"
        assert no_scrolling(projector)
        shot(projector, "projector-zh-1920-revealed")


def other_computer(klass, server, teacher, *, code: str, key: str, name: str) -> None:
    """The projector link on a computer of its own (1920 x 1080, a German browser)."""
    teacher.locator(".room-projector-link-button button").click()
    url = teacher.locator(".room-projector-url")
    expect(url).to_contain_text("/projector?room=")
    link = url.inner_text().strip()
    token = link.split("projector=")[1]
    assert key not in link and len(token) >= 32
    wide = klass.page(WIDE, locale="de-DE")
    wide.goto(link, timeout=LOAD_MS)
    # the token is out of the address at once (not in the history, nor on the screen) and in a
    # cookie for the projector's pages only
    assert "projector=" not in wide.url and wide.url.endswith(f"/projector?room={code}")
    kept = {c["name"]: c for c in wide.context.cookies()}[f"nefertiti_projector_{code}"]
    assert kept["value"] == token and kept["path"] == "/projector"
    assert kept["sameSite"] == "Strict"
    expect(wide.locator(".room-join-code")).to_have_text(f"{code[:4]} {code[4:]}", timeout=LOAD_MS)
    box = wide.locator(".room-poll-projected")
    expect(box.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    for selector in (".room-poll-projected .poll-right-answer", ".room-join-code", ".bk-Canvas"):
        assert in_view(wide, selector), f"{selector} is not in the 1920 x 1080 window"
    assert no_scrolling(wide)
    projector_checks(wide, key=key, name=name)
    assert token not in wide.content()
    shot(wide, "projector-de-1920-revealed")
    wide.reload(timeout=LOAD_MS)  # by the cookie now
    expect(wide.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    # the token is not in the server's output
    assert token not in server.log.read_text(), "the projector's token is in the server's output"
    # a wrong token: one sentence in German, no table
    stranger = klass.page(PROJECTOR, locale="de-DE")
    stranger.goto(f"{server.base}/projector?room={code}&projector={'x' * 32}", timeout=LOAD_MS)
    refusal = stranger.locator(".room-projector-refused")
    expect(refusal).to_contain_text(tr("de", "room.projector.no_access"), timeout=LOAD_MS)
    expect(stranger.locator(".bk-Canvas")).to_have_count(0)
    expect(stranger.locator(".room-join-code")).to_have_count(0)
    assert "projector=" not in stranger.url
    shot(stranger, "projector-de-wrong-token")
    # a new link: the old projector is turned away (and its cookie opens nothing any more)
    teacher.locator(".room-projector-link-button button").click()
    expect(url).not_to_contain_text(token)
    expect(wide.locator(".room-projector-refused")).to_contain_text(
        tr("de", "room.projector.no_access"), timeout=STEP_MS
    )
    expect(wide.locator(".bk-Canvas")).to_have_count(0)
    wide.reload(timeout=LOAD_MS)
    expect(wide.locator(".room-projector-refused")).to_be_visible(timeout=LOAD_MS)
