"""The classroom on PostgreSQL (#17), in Chromium.

1. Two ``nefertiti serve`` processes on one real PostgreSQL database (tests/pg.py; the store's
   URL in ``$NEFERTITI_STORE_URL``, as ``--database`` sets it): the teacher's page on process A,
   Anna's on A, Ben's and Chen's on B. The teacher opens the room on A; Ben and Chen join it by
   its code on B; the teacher seats everyone on A; each learner places from their own page and
   every page, on both processes, shows each move. Then process B is killed (SIGKILL, mid-class):
   Ben's and Chen's pages are sent to A (the same address on A's port, as a load balancer would;
   the browser's cookie carries their token) and find the room, their seat and every move; the
   class plays on from a page that was on B. B is started again and Ben's page goes back to
   it: the teacher (on A) asks a question, Anna answers on A and Ben on B, the teacher sees
   "2 of 3" and the counts, reveals, and Ben's page on B shows the reveal.
2. The single-process classroom journey of tests/browser/test_classroom.py, once more with its
   server on PostgreSQL (its tests imported here; only the ``server`` fixture differs).

Chromium or PostgreSQL missing is a failure.
"""

from __future__ import annotations

import signal

import pg
import pytest
import test_classroom as journey
from playwright.sync_api import expect
from support import join_room, open_room, wait_rows
from test_classroom import LOAD_MS, STEP_MS, Class, Server, expect_step, press_place

from nefertiti_core import new_game
from nefertiti_core.files import exercises as E
from widgets.classroom.poll import Poll

COLOURS = new_game(4, 0).colours
WHO = "welcome/who-plays-next"  # a lesson's question: who decides next (Red)
SEAT = {colour: seat for seat, colour in enumerate(COLOURS)}


@pytest.fixture(scope="module")
def database(postgres_url):
    return pg.fresh_database(postgres_url)


@pytest.fixture(scope="module")
def on_postgresql(database):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NEFERTITI_STORE_URL", database)
        yield database


@pytest.fixture(scope="module")
def server(on_postgresql, tmp_path_factory):
    """test_classroom's server, on PostgreSQL."""
    server = Server(tmp_path_factory.mktemp("classroom-pg-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def two(on_postgresql, tmp_path_factory):
    both = [Server(tmp_path_factory.mktemp("a")), Server(tmp_path_factory.mktemp("b"))]
    for one in both:
        one.start()
    yield both
    for one in both:
        one.stop()


# the single-process journey, in its order, with the server above (on PostgreSQL)
klass = journey.klass
test_journey_1_join = journey.test_teacher_opens_a_room_and_learners_join_by_code
test_journey_2_seats_and_moves = journey.test_teacher_gives_seats_and_every_move_is_seen_everywhere
test_journey_3_refused = journey.test_a_learner_cannot_act_for_another_seat
test_journey_4_break_away = journey.test_break_away_and_rejoin
test_journey_5_restart = journey.test_restart_mid_class_everyone_back_in_their_seat


def test_two_processes_share_a_room_and_a_killed_ones_learners_go_on_on_the_other(chromium, two):
    a, b = two
    room = Class(chromium, a)
    try:
        teacher = room.teacher
        code = open_room(teacher, a.base)
        where = {"blue": a, "black": b, "green": b}
        names = {"blue": "Anna", "black": "Ben", "green": "Chen"}
        for colour, name in names.items():
            page = room.page({"width": 390, "height": 844})
            join_room(page, where[colour].base, code, name, wait="You watch")
            room.learners[colour] = page
        # the teacher's page on A hears of the joins made on B
        expect(teacher.locator(".room-person")).to_have_count(3, timeout=STEP_MS)
        for i, (colour, name) in enumerate(names.items(), start=1):
            teacher.locator(f".room-seat-{SEAT[colour]} select").select_option(
                label=f"{name} (#{i})"
            )
            expect(room.learners[colour].locator(".room-status")).to_have_attribute(
                "data-seat", str(SEAT[colour])
            )
        # Anna (A), Ben (B), Chen (B) place in turn; every page on both processes shows it
        for step, colour in enumerate(("blue", "black"), start=1):
            page = room.learners[colour]
            expect(page.locator(".room-your-turn")).to_be_visible()
            press_place(page)
            for other in room.pages():
                wait_rows(other, "board-servants", f"n == {step}")
                expect_step(other, step)
        # process B dies mid-class
        b.process.send_signal(signal.SIGKILL)
        b.process.wait(timeout=10)
        b.process = None
        b.out.close()
        for colour in ("black", "green"):
            page = room.learners[colour]
            moved = page.url.replace(f":{b.port}/", f":{a.port}/")
            page.goto(moved, timeout=LOAD_MS)  # the load balancer's other process
            status = page.locator(".room-status")
            expect(status).to_have_attribute("data-seat", str(SEAT[colour]), timeout=LOAD_MS)
            expect(status).to_contain_text(f"You are {names[colour]}")
            expect_step(page, 2)
            wait_rows(page, "board-servants", "n == 2", timeout=LOAD_MS)
        expect(teacher.locator(".room-person")).to_have_count(3)  # nobody joined twice
        # the class plays on: Chen (was on B) places, from A now
        chen = room.learners["green"]
        expect(chen.locator(".room-your-turn")).to_be_visible()
        press_place(chen)
        for other in room.pages():
            wait_rows(other, "board-servants", "n == 3")
            expect_step(other, 3)
        # B is back (a fresh process: it reads the room from the database); Ben's page with it
        b.start()
        ben = room.learners["black"]
        ben.goto(ben.url.replace(f":{a.port}/", f":{b.port}/"), timeout=LOAD_MS)
        expect(ben.locator(".room-status")).to_contain_text("You are Ben", timeout=LOAD_MS)
        ask_and_reveal_across_processes(room, a, b)
    finally:
        room.close()
    assert not room.errors, f"JavaScript errors in the pages: {room.errors}"


def ask_and_reveal_across_processes(room, a, b) -> None:
    """The teacher (on A) asks a question; Anna answers on A, Ben on B; the teacher sees both
    answers counted and reveals; Ben's page on B shows the reveal. (After every check of the
    table's board: a question's own board on a page makes the board's sources' names twice.)"""
    teacher, anna, ben = room.teacher, room.learners["blue"], room.learners["black"]
    assert f":{a.port}/" in anna.url and f":{b.port}/" in ben.url
    teacher.locator(".poll-pick select").select_option(index=0)  # the first lesson's: WHO
    teacher.locator(".poll-push button").click()
    expect(teacher.locator(".poll-progress")).to_contain_text("0 of 3")
    for page in (anna, ben):  # the question reaches A's page and, through the database, B's
        expect(poll_card(page).locator(".poll-card-question")).to_contain_text(
            E.EXERCISES[WHO].prompt("en")
        )
    poll_card(anna).get_by_role("button", name=label("red"), exact=True).click()
    poll_card(ben).get_by_role("button", name=label("blue"), exact=True).click()
    expect(teacher.locator(".poll-progress")).to_contain_text("2 of 3")
    expect(teacher.locator(".poll-who")).to_contain_text("Chen")  # waited for
    expect(poll_card(ben).locator(".poll-your-answer")).to_contain_text(label("blue"))
    teacher.locator(".poll-reveal-button button").click()
    # each answer counted (what they answered is shown from the reveal on)
    expect(teacher.locator(".poll-bar[data-key='red'] .poll-bar-count")).to_have_text("1")
    expect(teacher.locator(".poll-bar[data-key='blue'] .poll-bar-count")).to_have_text("1")
    expect(teacher.locator(".poll-result")).to_contain_text(
        Poll(f"lesson:{WHO}", ["x"]).reveal().right_answer("en")
    )
    expect(poll_card(ben).locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("blue").headline
    )
    expect(poll_card(anna).locator(".poll-verdict")).to_contain_text(
        E.EXERCISES[WHO].check("red").headline
    )
    rows = teacher.locator(".poll-class-row")
    expect(rows.filter(has_text="Ben").locator("td").nth(3)).to_have_text("1")  # wrong: 1


def poll_card(page):
    return page.locator(".room-poll .poll-card")


def label(key: str) -> str:
    return dict(Poll(f"lesson:{WHO}", ["x"]).choices("en"))[key]
