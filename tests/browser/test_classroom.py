"""A class at one table (#16 items 2, 4, 5), in Chromium against ``nefertiti serve``.

A teacher opens a room at ``/classroom`` (a code, a link, its QR code); three learners, each in
a browser context of their own (their own cookies), join at ``/join`` with the code and a name
(one name is markup: it shows as text). The teacher gives them seats; each learner makes their
seat's move from their own page and every other page shows it; a learner who tries to play
another seat's decision (a click on the board) is refused in words and nothing changes on any
page; a learner breaks away, tries a step nobody else sees, and rejoins the table's position.
Then the server is stopped mid-class and started again on the same port (the same
``$NEFERTITI_HOME``): the room is back, every page reloads itself, the teacher's link still
leads it, each learner's page is the same participant in the same seat, and the class plays on
(test_classroom_reconnect.py: the same in German and Chinese, the projector too).

One server process at a time for the module (restarted once by the last test) and one Chromium
(conftest.py). Chromium missing is a failure.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    LOAD_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    STEP_MS,
    Served,
    canvas_point,
    join_room,
    rows,
    wait_back,
    wait_covered,
    wait_rows,
)

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.teaching.explain import describe_option
from widgets.game import geometry as G

expect.set_options(timeout=STEP_MS)
SHOTS = ARTIFACTS / "classroom"
#: The first game (seed 0): Blue, Black, Green, Red place in turn (R5.2).
COLOURS = new_game(4, 0).colours
SEAT = {colour: seat for seat, colour in enumerate(COLOURS)}
NAMES = {"blue": "Anna", "black": "Ben", "green": "<i>Chen</i>"}


#: ``nefertiti serve``, which a test may stop and start again on its port (the classroom's
#: modules import it from here).
Server = Served


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-home"))
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


def never_on_the_loop(server: Server) -> None:
    """No change of a room was written to the store on the server's event loop (#29 item 3:
    every page's change goes through widgets.classroom.room_work; the store logs one that
    did not)."""
    said = [line for line in server.log.read_text().splitlines() if "on the event loop" in line]
    assert not said, said[:5]


class Class:
    """The teacher's page and the learners' pages (one browser context each)."""

    def __init__(self, chromium, server):
        self.chromium, self.server = chromium, server
        self.errors: list[str] = []
        self.contexts = []
        self.teacher = self.page({"width": 1024, "height": 768})
        self.learners: dict[str, object] = {}
        self.code = ""

    def page(self, viewport, **device):
        context = self.chromium.new_context(viewport=viewport, **device)
        context.set_default_timeout(STEP_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def join(self, code: str, name: str, viewport, *, lang=None, link=False, **device):
        """A learner's own browser (``viewport``, ``device``: locale, a phone's descriptor) joins
        with ``code`` as ``name`` (support.join_room); their page."""
        page = self.page(viewport, **device)
        join_room(page, self.server.base, code, name, lang=lang, link=link)
        return page

    def pages(self):
        return [self.teacher, *self.learners.values()]

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def table_step(page) -> int:
    """The table's step as the page shows it (the learner's status line, the teacher's list)."""
    marker = page.locator(".room-status, .room-table-step").first
    return int(marker.get_attribute("data-step"))


def expect_step(page, step: int) -> None:
    expect(page.locator(f".room-status[data-step='{step}'], .room-table-step[data-step='{step}']"))\
        .to_have_count(1, timeout=STEP_MS)  # fmt: skip


def servants(page) -> int:
    return rows(page, "board-servants")


def press_place(page) -> None:
    page.get_by_role("button", name="Place", exact=True).click()


def test_teacher_opens_a_room_and_learners_join_by_code(klass, server):
    teacher = klass.teacher
    teacher.goto(f"{server.base}/classroom", timeout=LOAD_MS)
    teacher.locator(".room-open button").click(timeout=LOAD_MS)
    code_box = teacher.locator(".room-join-code")
    expect(code_box).to_be_visible(timeout=LOAD_MS)
    klass.code = teacher.locator(".room-code").inner_text().strip()
    assert len(klass.code) == 8
    # the teacher's address names the room only; the key is in this browser's cookie (never in
    # the address, its history, the access log or a projected address bar): a reload comes back
    assert f"room={klass.code}" in teacher.url and "key" not in teacher.url
    # (an HttpOnly cookie the server sets when the page posts its grant: test_httponly_cookies.py)
    for _ in range(300):
        kept = {c["name"]: c for c in teacher.context.cookies()}
        if "nefertiti_teacher" in kept:
            break
        teacher.wait_for_timeout(100)
    cookie = kept["nefertiti_teacher"]
    assert cookie["value"].startswith(f"{klass.code}:") and cookie["sameSite"] == "Strict"
    assert cookie["httpOnly"] and len(cookie["value"].split(":")[1]) >= 32
    assert cookie["value"] not in server.log.read_text(), "the key is in the server's output"
    expect(teacher.locator(".room-qr svg")).to_be_visible()
    expect(teacher.get_by_text(f"{server.base.split('//')[1]}/join")).to_be_visible()
    for colour, name in NAMES.items():
        page = klass.page({"width": 390, "height": 844})
        page.goto(f"{server.base}/join", timeout=LOAD_MS)
        # typed as people type it: lower case, with a space
        page.locator(".room-code-input input").fill(klass.code[:4].lower() + " " + klass.code[4:])
        page.locator(".room-name-input input").fill(name)
        page.locator(".room-join button").click(timeout=LOAD_MS)
        expect(page.locator(".room-status")).to_contain_text("You watch", timeout=LOAD_MS)
        klass.learners[colour] = page
    people = teacher.locator(".room-people")
    expect(people.locator(".room-person")).to_have_count(3)
    # a name with markup shows as the text typed, on every page that shows it
    expect(people).to_contain_text("<i>Chen</i>")
    expect(people.locator("i")).to_have_count(0)
    # a wrong code is refused in words
    stranger = klass.page({"width": 390, "height": 844})
    stranger.goto(f"{server.base}/join", timeout=LOAD_MS)
    stranger.locator(".room-code-input input").fill("ABCD2345")
    stranger.locator(".room-name-input input").fill("Eve")
    stranger.locator(".room-join button").click(timeout=LOAD_MS)
    expect(stranger.get_by_text("No open room has this code")).to_be_visible()
    expect(people.locator(".room-person")).to_have_count(3)


def test_teacher_gives_seats_and_every_move_is_seen_everywhere(klass):
    teacher = klass.teacher
    for colour, name in NAMES.items():
        teacher.locator(f".room-seat-{SEAT[colour]} select").select_option(
            label=f"{name} (#{list(NAMES).index(colour) + 1})"
        )
        expect(klass.learners[colour].locator(".room-status")).to_have_attribute(
            "data-seat", str(SEAT[colour])
        )
    anna = klass.learners["blue"]
    expect(anna.locator(".room-your-turn")).to_be_visible()
    # on a phone the whole board is in the window's width
    box = anna.locator(".bk-Canvas >> visible=true").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 391, box
    shot(teacher, "teacher-1024-seats")
    shot(anna, "learner-390-her-turn")
    # Blue (Anna), Black (Ben), Green (Chen) place from their own devices; Red is the teacher's
    for step, colour in enumerate(("blue", "black", "green"), start=1):
        page = klass.learners[colour]
        expect(page.locator(".room-your-turn")).to_be_visible()
        press_place(page)
        for other in klass.pages():
            wait_rows(other, "board-servants", f"n == {step}")
            expect_step(other, step)
    press_place(teacher)  # the teacher plays the seat nobody holds
    for other in klass.pages():
        wait_rows(other, "board-servants", "n == 4")
        expect_step(other, 4)


def test_a_learner_cannot_act_for_another_seat(klass):
    anna, teacher = klass.learners["blue"], klass.teacher
    before = [(servants(p), table_step(p)) for p in klass.pages()]
    # Red (the teacher's seat) decides now: Anna clicks a free square of her board
    state = new_game(4, 0)
    cell = next(c for c in G.squares(state.side) if c.market == 1 and c.index == 0)
    anna.mouse.click(*canvas_point(anna, cell.x, cell.y, G.WIDTH, G.HEIGHT))
    expect(anna.locator(".room-error")).to_contain_text("not yours: you play Blue")
    # her page has no decision to offer her, and nothing changed on any page
    expect(anna.get_by_role("button", name="Place", exact=True)).to_have_count(0)
    anna.wait_for_timeout(300)
    assert [(servants(p), table_step(p)) for p in klass.pages()] == before
    expect(teacher.locator(".nefertiti-banner")).to_have_attribute("data-colour", "red")
    shot(anna, "learner-390-refused")


def test_break_away_and_rejoin(klass):
    chen, teacher = klass.learners["green"], klass.teacher
    step = table_step(teacher)
    take = "Take the upper card (statuette) and its seal"  # Red's first choice (R6.2)
    expect(teacher.locator(".nefertiti-banner")).to_have_attribute("data-colour", "red")
    chen.locator(".room-away button").click()
    expect(chen.locator(".room-status")).to_have_attribute("data-away", "1")
    # on her own copy she decides for every seat: Red's take, which nobody else sees
    chen.get_by_role("button", name=take).click()
    with what_the_page_and_server_said(chen, klass.server):
        expect(chen.locator(".nefertiti-banner")).to_have_attribute("data-colour", "green")
    for page in (teacher, klass.learners["blue"], klass.learners["black"]):
        expect(page.locator(".nefertiti-banner")).to_have_attribute("data-colour", "red")
        expect_step(page, step)
    shot(chen, "learner-390-away")
    # the table goes on without her: the teacher plays Red's step there
    teacher.get_by_role("button", name="Take lower card 1 (harp) and lower card 2 (chair)").click()
    for page in klass.pages():
        expect_step(page, step + 1)
    expect(chen.locator(".room-status")).to_have_attribute("data-away", "1")
    # one click brings her back to the table's position
    chen.locator(".room-away button").click()
    expect(chen.locator(".room-status")).to_have_attribute("data-away", "0")
    expect(chen.locator(".nefertiti-banner")).to_have_attribute("data-colour", "green")
    expect(chen.locator(".nefertiti-last")).to_contain_text("harp")


@contextmanager
def what_the_page_and_server_said(page, server):
    """A failed wait says more: the page's status line, its alerts and the server's last log
    lines (seen once in a whole run under load, never alone: a click on a break-away copy that
    changed nothing)."""
    try:
        yield
    except AssertionError as error:
        status = page.locator(".room-status").first
        alerts = page.locator(".alert, .room-error").all_inner_texts()
        log = server.log.read_text().splitlines()[-30:]
        raise AssertionError(
            f"{error}\n\nstatus: data-away={status.get_attribute('data-away')} "
            f"{status.inner_text()!r}\nalerts: {alerts}\nserver log:\n" + "\n".join(log)
        ) from None


def table_after(steps: int):
    """The table's state in this journey after ``steps`` steps (the engine's, for the labels)."""
    state = new_game(4, 0, record_events=True)
    for _ in range(4):  # Blue, Black, Green, Red place on the first free square
        state.apply(next(o for o in state.legal_options() if O.OPTION_KIND[o] == O.PLACE))
    state.apply(state.legal_options()[1])  # the teacher's take for Red
    assert steps == 5
    return state


def test_restart_mid_class_everyone_back_in_their_seat(klass, server):
    teacher = klass.teacher
    teacher_url = teacher.url
    step = table_step(teacher)
    n = servants(teacher)
    server.stop()  # mid-class (SIGTERM; the rooms are written at once after each change)
    for page in klass.pages():  # each says so, and takes no click meanwhile
        wait_covered(page)
    server.start()  # the same port, the same $NEFERTITI_HOME
    # every page reloads itself once the server answers (widgets.game.reconnect; a reload of
    # the test's own would race it): the teacher's link still leads the room
    wait_back(teacher, timeout=LOAD_MS)
    assert teacher.url == teacher_url
    expect(teacher.locator(".room-person")).to_have_count(3, timeout=LOAD_MS)
    expect_step(teacher, step)
    wait_rows(teacher, "board-servants", f"n == {n}", timeout=LOAD_MS)
    for colour, page in klass.learners.items():
        # the browser's token: the same participant, same seat
        wait_back(page, timeout=LOAD_MS)
        status = page.locator(".room-status")
        expect(status).to_have_attribute("data-seat", str(SEAT[colour]), timeout=LOAD_MS)
        expect(status).to_contain_text(f"You are {NAMES[colour]}")
        expect_step(page, step)
        wait_rows(page, "board-servants", f"n == {n}", timeout=LOAD_MS)
    expect(klass.teacher.locator(".room-person")).to_have_count(3)  # nobody joined twice
    # the class plays on: Green's decision, from Chen's device
    state = table_after(step)
    assert state.colours[state.decider] == "green"
    chen = klass.learners["green"]
    label = describe_option(state, state.legal_options()[0], "en")
    chen.locator(".room-decision").get_by_role("button", name=label).click()
    for page in klass.pages():
        expect_step(page, step + 1)
    shot(teacher, "teacher-1024-after-restart")


def _join_from_a_phone(klass, server, name: str, locale: str):
    page = klass.page(PIXEL_5_VIEWPORT, locale=locale, **PIXEL_5)
    join_room(page, server.base, klass.code, name, wait=False)  # a refusal may follow
    return page


def test_the_teacher_gives_a_new_join_code_and_only_it_lets_newcomers_in(klass, server):
    """The join code got out (a photo of the projector): the teacher presses New join code on
    the projected page, which shows the new code (title, card, QR). A German phone with the old
    code is refused in German; a Chinese phone with the new code joins; a learner already in
    reloads her page (her address has the room's own code, her cookie her token) and is in."""
    teacher, old = klass.teacher, klass.code
    qr_before = teacher.locator(".room-qr").inner_html()
    teacher.locator(".room-new-code button").click()
    expect(teacher.locator(".room-code")).not_to_have_text(old)
    new = teacher.locator(".room-code").inner_text().strip()
    assert len(new) == 8 and new != old
    expect(teacher.locator(".room-join-code")).to_have_text(f"{new[:4]} {new[4:]}")
    assert teacher.locator(".room-qr").inner_html() != qr_before
    shot(teacher, "teacher-1024-new-join-code")
    german = _join_from_a_phone(klass, server, "Dora", "de-DE")  # the old code
    expect(german.get_by_text("Mit diesem Code kommt niemand mehr herein")).to_be_visible(
        timeout=LOAD_MS
    )
    shot(german, "phone-de-old-code-refused")
    people = teacher.locator(".room-person")
    expect(people).to_have_count(3)
    klass.code = new
    chinese = _join_from_a_phone(klass, server, "李华", "zh-CN")
    expect(chinese.locator(".room-status")).to_contain_text("李华", timeout=LOAD_MS)
    expect(people).to_have_count(4)
    anna = klass.learners["blue"]
    anna.reload(timeout=LOAD_MS)
    status = anna.locator(".room-status")
    expect(status).to_have_attribute("data-seat", str(SEAT["blue"]), timeout=LOAD_MS)
    expect(status).to_contain_text("You are Anna")
    expect(people).to_have_count(4)  # she came back as herself, not as a newcomer


#: What a hostile page script can send: a change of a radio group's index (``radio``) or of a
#: menu's value (``select``) that no option has, through the page's own Bokeh models.
FORGE_JS = """
([kind, value]) => {
    for (const doc of window.Bokeh.documents) {
        for (const model of doc.all_models) {
            const props = model.properties;
            if (kind === "radio" && props.active !== undefined && props.labels !== undefined) {
                model.active = value;
                return true;
            }
            if (kind === "select" && props.options !== undefined && props.value !== undefined) {
                model.value = value;
                return true;
            }
        }
    }
    return false;
}
"""


def test_a_forged_choice_is_refused_in_the_pages_language_and_logs_no_traceback(klass, server):
    """The attack of #29: a page's script sends a choice index past the end (the join form's
    language buttons, on a German phone) and a seat menu's value no option has (the teacher's
    page). Each page says so in its language; the server logs no traceback and nothing changed."""
    logged = len(server.log.read_text())
    german = klass.page(PIXEL_5_VIEWPORT, locale="de-DE", **PIXEL_5)
    german.goto(f"{server.base}/join", timeout=LOAD_MS)
    expect(german.locator(".room-join button")).to_be_visible(timeout=LOAD_MS)
    assert german.evaluate(FORGE_JS, ["radio", 99])
    expect(german.get_by_text("Diese Auswahl gibt es hier nicht (mehr)").first).to_be_visible()
    expect(german.locator(".room-join button")).to_have_text("Beitreten")  # still German
    expect(german.locator(".bk-btn.bk-active")).to_have_text("Deutsch")  # shown as it is
    teacher = klass.teacher
    people = teacher.locator(".room-person")
    before = people.all_inner_texts()
    assert teacher.evaluate(FORGE_JS, ["select", "bogus"])
    expect(teacher.get_by_text("That choice is not (or no longer) offered here").first)\
        .to_be_visible()  # fmt: skip
    assert people.all_inner_texts() == before
    shot(german, "phone-de-forged-choice-refused")
    log = server.log.read_text()[logged:]
    assert "does not offer" in log
    assert "Traceback" not in log and "list index out of range" not in log


def test_the_teacher_locks_then_closes_the_room_and_phones_are_told_in_their_language(
    klass, server
):
    """The teacher's Lock and Close buttons, pressed on the projected page; learners on phones
    (a German and a Chinese browser) are refused in their own words: the room is locked; a name
    that imitates Anna's (a Cyrillic А) is refused once it is open again; closed, the code opens
    nothing."""
    teacher = klass.teacher
    teacher.locator(".room-lock button").click()
    german = _join_from_a_phone(klass, server, "Dora", "de-DE")
    expect(german.get_by_text("hat diesen Raum geschlossen")).to_be_visible(timeout=LOAD_MS)
    teacher.locator(".room-lock button").click()  # open again
    chinese = _join_from_a_phone(klass, server, "\u0410nna", "zh-CN")
    expect(chinese.get_by_text("看起来和他一样")).to_be_visible(timeout=LOAD_MS)
    shot(chinese, "phone-zh-look-alike-refused")
    expect(teacher.locator(".room-person")).to_have_count(4)  # nobody new got in
    teacher.locator(".room-close button").click()
    late = _join_from_a_phone(klass, server, "Eve", "de-DE")
    expect(late.get_by_text("Kein offener Raum hat diesen Code")).to_be_visible(timeout=LOAD_MS)
