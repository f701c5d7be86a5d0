"""Every player's board and the table's log on every classroom page, and closing a question
(#28 items 7-8), in Chromium against ``nefertiti serve``.

A teacher (1024 x 768, English) opens a room and the projector view (a second window of the
same browser, 1024 x 768); two learners join on emulated Pixel 5 phones (Playwright's device
descriptor: viewport, device scale, touch, is_mobile), one in German, one in Chinese, and get
Blue and Black. The learners place from their phones, the teacher plays Green, Red and Red's
first take. After each step every page (teacher, projector, both phones) shows, for each
colour, the engine's Deben, seals, servants in hand, gifts and score, who holds the seat (the
learner's name, or "the teacher" in the page's language), whose decision it is, and a log that
grows by the engine's explanations (the newest on top). The learner whose decision it is sees
a "your turn" marker above the players' boards, in the window. The players' table fits the
phone's width.

Then the teacher asks a question (the third exercise of the menu: the menu keeps it after the
question is asked), a learner answers, the teacher reveals it and closes it: the card goes from
both phones and the projector, the teacher's panel says the question is closed, and the class
view keeps the learner's answer; "your turn" is back near the top of the phone.

Screenshots: tests/browser/artifacts/classroom-boards (looked at; described in the report).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5, PIXEL_5_VIEWPORT, open_room
from test_classroom import LOAD_MS, Class, Server

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from nefertiti_core.teaching.explain import describe_option
from widgets.classroom.poll import Poll, lesson_exercises
from widgets.classroom.table_boards import (
    LOG_CHUNK,
    RECENT_CHUNKS,
    log_entries,
    player_numbers,
)

SHOTS = ARTIFACTS / "classroom-boards"
SCREEN = {"width": 1024, "height": 768}
PHONE = PIXEL_5_VIEWPORT
#: The learners: colour -> (name, browser locale, language).
LEARNERS = {"blue": ("Jürgen", "de-DE", "de"), "black": ("王芳", "zh-CN", "zh")}
#: The question asked: the menu's third exercise (a choice), not the first.
ASKED = lesson_exercises()[2][1]
REF = f"lesson:{ASKED.id}"
assert ASKED.answer_kind == "choice"


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("classroom-boards-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    klass.lang = {"teacher": "en", "projector": "en"}
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


class Table:
    """The engine's own game, step by step as the class plays it (the numbers to expect)."""

    def __init__(self):
        self.state = new_game(4, 0, record_events=True)
        self.seat = {colour: seat for seat, colour in enumerate(self.state.colours)}

    def place(self) -> None:
        """What a decision panel's Place does: the first free square offered."""
        option = next(o for o in self.state.legal_options() if O.OPTION_KIND[o] == O.PLACE)
        self.state.apply(option)

    def decider(self) -> str:
        return self.state.colours[self.state.decider]


def pages(klass) -> dict:
    """Every page of the class, by who looks at it: (page, language)."""
    out = {"teacher": (klass.teacher, "en"), "projector": (klass.projector, "en")}
    for colour, (_name, _locale, lang) in LEARNERS.items():
        out[colour] = (klass.learners[colour], lang)
    return out


def holder(colour: str, lang: str, seated: bool = True) -> str:
    """Who holds the seat, as a page in ``lang`` names them (``seated``: the learners' seats
    are theirs)."""
    return LEARNERS[colour][0] if seated and colour in LEARNERS else tr(lang, "room.the_teacher")


def expect_boards(klass, table: Table, seated: bool = True) -> None:
    """Every page shows, for each colour, the engine's numbers, the seat's holder, whose
    decision it is; and the log as the engine explains the game (the newest on top)."""
    state = table.state
    for who, (page, lang) in pages(klass).items():
        for seat, colour in enumerate(state.colours):
            row = page.locator(f".room-players .room-player[data-colour='{colour}']")
            for key, value in player_numbers(state, seat).items():
                expect(row).to_have_attribute(f"data-{key}", str(value))
            expect(row.locator(".room-player-deben")).to_have_text(str(state.deben[seat]))
            expect(row.locator(".room-player-hand")).to_have_text(str(state.hand[seat]))
            expect(row.locator(".room-player-holder")).to_have_text(holder(colour, lang, seated))
        deciding = page.locator(".room-players .room-player-deciding")
        expect(deciding).to_have_attribute("data-colour", table.decider())
        if who in LEARNERS and seated:  # the learner's own row is marked
            expect(page.locator(".room-players .room-player-me")).to_have_attribute(
                "data-colour", who
            )
        entries = log_entries(state, lang)
        expect(page.locator(".room-log .room-log-count")).to_have_attribute(
            "data-count", str(len(entries))
        )
        newest = page.locator(".room-log .room-log-entry").first
        expect(newest).to_have_attribute("data-index", str(len(entries) - 1))
        expect(newest).to_contain_text(entries[-1][2][:40])


def your_turn_on_top(page) -> None:
    """The learner's "your turn" marker: in the phone's window, above every player's board."""
    marker = page.locator(".room-your-turn")
    expect(marker).to_be_visible()
    box = marker.bounding_box()
    players = page.locator(".room-players").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] + 120, box  # in or at the window's foot
    assert box["y"] < players["y"], (box, players)


def test_the_class_gathers_and_every_page_shows_every_players_board(klass, server):
    teacher = klass.teacher
    klass.code = open_room(teacher, server.base)
    with teacher.context.expect_page() as opened:
        teacher.locator(".room-projector-open a").click()
    klass.projector = opened.value
    klass.projector.on("pageerror", lambda error: klass.errors.append(str(error)))
    klass.projector.set_viewport_size(SCREEN)
    expect(klass.projector.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    for colour, (name, locale, _lang) in LEARNERS.items():
        phone = klass.page(PHONE, locale=locale, **PIXEL_5)
        phone.goto(f"{server.base}/join?code={klass.code}", timeout=LOAD_MS)
        phone.locator(".room-name-input input").fill(name)
        phone.locator(".room-join button").click(timeout=LOAD_MS)
        expect(phone.locator(".room-status")).to_contain_text(name, timeout=LOAD_MS)
        klass.learners[colour] = phone
    table = Table()
    for number, (colour, (name, _locale, lang)) in enumerate(LEARNERS.items(), start=1):
        teacher.locator(f".room-seat-{table.seat[colour]} select").select_option(
            label=f"{name} (#{number})"
        )
        expect(klass.learners[colour].locator(".room-status")).to_have_attribute(
            "data-seat", str(table.seat[colour])
        )
        expect(klass.learners[colour].locator(".room-status")).to_contain_text(
            tr(lang, "room.you_play", colour=tr(lang, f"colour.{colour}"))
        )
    klass.table = table
    expect_boards(klass, table)
    # Blue decides first: Jürgen's phone says so, above the boards; the table fits the phone
    assert table.decider() == "blue"
    jurgen = klass.learners["blue"]
    your_turn_on_top(jurgen)
    expect(jurgen.locator(".room-your-turn")).to_contain_text(tr("de", "room.your_turn"))
    expect(jurgen.locator(".room-your-turn")).to_have_attribute("role", "status")
    for phone in klass.learners.values():
        box = phone.locator(".room-players").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        assert phone.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    expect(klass.learners["black"].locator(".room-your-turn")).to_have_count(0)
    shot(jurgen, "phone-de-your-turn")


def test_moves_reach_every_page_with_the_numbers_and_the_log(klass):
    table, teacher = klass.table, klass.teacher
    # Blue (Jürgen, German) and Black (王芳, Chinese) place from their phones; the teacher plays
    # Green and Red (nobody holds them)
    for _ in range(4):
        colour = table.decider()
        page, lang = pages(klass).get(colour, (teacher, "en"))
        if colour in LEARNERS:
            your_turn_on_top(page)
        page.locator(".room-decision").get_by_role(
            "button", name=tr(lang, "panel.decision.place"), exact=True
        ).click()
        table.place()
        expect_boards(klass, table)
    # Red's first take (a gift and its seal), from the teacher's page
    option = table.state.legal_options()[1]
    label = describe_option(table.state, option, "en")
    teacher.locator(".room-decision").get_by_role("button", name=label).click()
    table.state.apply(option)
    expect_boards(klass, table)
    red = table.seat["red"]
    assert player_numbers(table.state, red)["gifts"] > 0  # the take shows as Red's gifts
    gifts = teacher.locator(".room-player[data-colour='red'] .room-player-gift-names")
    expect(gifts).to_be_visible()
    # the projector's strip is compact: no gift names, and no control anywhere on it
    projector = klass.projector
    expect(projector.locator(".room-player-gift-names")).to_have_count(0)
    expect(projector.locator("button, select, input, textarea")).to_have_count(0)
    shot(teacher, "teacher-1024-boards")
    shot(projector, "projector-1024-boards")
    wang = klass.learners["black"]
    wang.locator(".room-log").scroll_into_view_if_needed()
    shot(wang, "phone-zh-boards-and-log")


def test_a_question_asked_revealed_and_closed_leaves_every_screen(klass):
    teacher, projector = klass.teacher, klass.projector
    table = klass.table
    pick = teacher.locator(".poll-pick select")
    pick.select_option(index=2)  # the menu's third exercise (Bokeh's options go by their labels)
    picked = pick.input_value()
    assert picked.startswith("3. ")
    teacher.locator(".poll-push button").click()
    expect(teacher.locator(".poll-question")).to_contain_text(ASKED.prompt("en"))
    # the menu keeps the teacher's pick after asking (it jumped back to the first question)
    teacher.wait_for_timeout(500)
    assert pick.input_value() == picked
    for colour, (_name, _locale, lang) in LEARNERS.items():
        card = klass.learners[colour].locator(".room-poll .poll-card")
        expect(card.locator(".poll-card-question")).to_contain_text(ASKED.prompt(lang))
    box = projector.locator(".room-poll-projected")
    expect(box.locator(".poll-question")).to_contain_text(ASKED.prompt("en"))
    # on the projector the question takes the players' strip's and the log's room
    expect(projector.locator(".room-log-section")).to_be_hidden()
    expect(projector.locator(".room-players-strip")).to_be_hidden()
    # Jürgen answers (in German), the teacher reveals
    jurgen = klass.learners["blue"]
    key, label = Poll(REF, ["x"]).choices("de")[0]
    jurgen.locator(".room-poll .poll-card").get_by_role("button", name=label, exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("1 of 2")
    teacher.locator(".poll-reveal-button button").click()
    expect(box.locator(".poll-result")).to_be_visible()
    expect(jurgen.locator(".room-poll .poll-verdict")).to_contain_text(
        E.EXERCISES[ASKED.id].check(key, "de").headline
    )
    shot(projector, "projector-1024-revealed")
    assert pick.input_value() == picked
    # the revealed card sits above the table on the phone: "your turn" far below it
    assert table.decider() == "green"  # the teacher's; no learner's turn now
    shot(jurgen, "phone-de-revealed", full_page=True)
    # the teacher closes the question: it leaves the phones and the projector
    close = teacher.locator(".poll-close-button button")
    expect(close).to_have_text(tr("en", "poll.teacher.close"))
    close.click()
    for phone in klass.learners.values():
        expect(phone.locator(".room-poll")).to_be_hidden()
    expect(box).to_be_hidden()
    expect(teacher.locator(".poll-none")).to_have_text(tr("en", "poll.teacher.closed", number=1))
    expect(close).to_be_hidden()
    expect(teacher.locator(".poll-reveal-button")).to_be_hidden()
    expect(projector.locator(".room-log-section")).to_be_visible()
    expect(projector.locator(".room-players-strip")).to_be_visible()
    assert pick.input_value() == picked  # still the teacher's pick, for the next question
    # the class view keeps what the question recorded: Jürgen's answer, right or wrong
    row = teacher.locator(".poll-class-row").filter(has_text="Jürgen")
    right = E.EXERCISES[ASKED.id].check(key, "en").correct
    expect(row.locator("td").nth(2 if right else 3)).to_have_text("1")
    # the table goes on: Green's step (the teacher's), then a learner's turn near the top again
    shot(projector, "projector-1024-closed")
    shot(jurgen, "phone-de-closed")
    # a learner whose turn comes sees it at once, above the boards, with no card above
    state = table.state
    option = state.legal_options()[0]
    teacher.locator(".room-decision").get_by_role(
        "button", name=describe_option(state, option, "en")
    ).click()
    state.apply(option)
    expect_boards(klass, table)
    colour = table.decider()
    if colour in LEARNERS:
        your_turn_on_top(klass.learners[colour])
        shot(klass.learners[colour], f"phone-{LEARNERS[colour][2]}-turn-after-close")
    shot(teacher, "teacher-1024-closed")
    # nothing reached the learners' pages or the projector of the teacher's controls
    for page in (*klass.learners.values(), projector):
        expect(page.locator(".poll-close-button, .poll-push")).to_have_count(0)


def test_a_long_log_shows_its_newest_steps_and_the_earlier_ones_on_request(klass):
    """The teacher takes both seats back and plays on until the log is longer than what a page
    shows at once: a phone shows the newest entries and, on request, every earlier one; the
    projector (no control) the newest."""
    teacher, table = klass.teacher, klass.table
    for colour in LEARNERS:
        teacher.locator(f".room-seat-{table.seat[colour]} select").select_option(
            label=tr("en", "room.seat_teacher")
        )
        expect(klass.learners[colour].locator(".room-status")).to_have_attribute("data-seat", "")
    recent = RECENT_CHUNKS * LOG_CHUNK
    while len(log_entries(table.state, "zh")) <= recent + 2:
        state = table.state
        step = int(teacher.locator(".room-table-step").get_attribute("data-step"))
        decision = teacher.locator(".room-decision")
        if any(O.OPTION_KIND[o] == O.PLACE for o in state.legal_options()):
            decision.get_by_role(
                "button", name=tr("en", "panel.decision.place"), exact=True
            ).click()
            table.place()
        else:
            option = state.legal_options()[0]
            decision.get_by_role("button", name=describe_option(state, option, "en")).click()
            state.apply(option)
        expect(teacher.locator(f".room-table-step[data-step='{step + 1}']")).to_have_count(1)
    expect_boards(klass, table, seated=False)
    entries = log_entries(table.state, "zh")
    wang = klass.learners["black"]
    button = wang.locator(".room-log-earlier-button button")
    expect(wang.locator(".room-log-entry[data-index='0']")).to_have_count(0)
    expect(button).to_be_visible()
    button.click()
    expect(wang.locator(".room-log-earlier .room-log-entry[data-index='0']")).to_contain_text(
        entries[0][2][:20]
    )
    expect(wang.locator(".room-log-entry")).to_have_count(len(entries))
    expect(klass.projector.locator(".room-log-entry[data-index='0']")).to_have_count(0)
    wang.locator(".room-log-earlier-button").scroll_into_view_if_needed()
    shot(wang, "phone-zh-earlier-steps")
