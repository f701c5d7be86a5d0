"""Coming back on another device, and who is online, in Chromium against ``nefertiti serve``.

A German learner joins on a Pixel 5 phone and is shown her PIN once; the teacher gives her the
first seat and she plays its move from the phone. Her phone "dies": on a laptop (a new browser
context: no cookie, 1024x768) she types the code and her name, is asked for her PIN instead of
being told the name is taken, types a wrong one (refused in German, tries left), then the right
one: she is the same participant in the same seat with the same table, the laptop has its own
new PIN, and the phone's page says in German that the seat moved and offers no button. A Chinese
learner comes back by asking the teacher: the teacher's page shows "王芳 asks to come back on a
new device — Let in / Refuse"; a refusal is told in Chinese, a let-in enters the seat. The
teacher's list shows each learner online, and away once the last page of theirs closed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, PIXEL_5_VIEWPORT, join_room, open_room
from test_classroom import (
    LOAD_MS,
    PIXEL_5,
    SEAT,
    Class,
    Server,
    expect_step,
    never_on_the_loop,
)

from nefertiti_core.engine.i18n import tr

SHOTS = ARTIFACTS / "classroom-rejoin"
PHONE = PIXEL_5_VIEWPORT
LAPTOP = {"width": 1024, "height": 768}
#: A closed page is away after the server's grace (its session dropped 15 s after its last
#: connection, checked every 5 s): generous on a busy machine.
AWAY_MS = 90_000
BLUE = str(SEAT["blue"])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("rejoin-home"))
    server.start()
    yield server
    server.stop()
    never_on_the_loop(server)


@pytest.fixture(scope="module")
def klass(chromium, server):
    klass = Class(chromium, server)
    klass.code = open_room(klass.teacher, server.base)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def person(teacher, name: str):
    return teacher.locator(".room-person", has_text=name)


def presence(teacher, name: str):
    return person(teacher, name).locator(".room-presence")


def test_a_learner_moves_from_her_phone_to_a_laptop_with_her_pin(klass, server):
    teacher = klass.teacher
    phone = klass.page(PHONE, locale="de-DE", **PIXEL_5)
    join_room(phone, server.base, klass.code, "Jürgen", wait=False)
    note = phone.locator(".room-pin-note")
    expect(note).to_contain_text("Um auf einem anderen Gerät zurückzukommen", timeout=LOAD_MS)
    pin = note.locator("b").inner_text().strip()
    assert re.fullmatch(r"[0-9]{4}", pin), pin
    shot(phone, "phone-de-pin")
    # the teacher gives her Blue's seat (Blue decides first); she plays its move from the phone
    teacher.locator(f".room-seat-{BLUE} select").select_option(label="Jürgen (#1)")
    expect(phone.locator(".room-status")).to_have_attribute("data-seat", BLUE)
    expect(presence(teacher, "Jürgen")).to_have_attribute("data-online", "yes")
    phone.get_by_role("button", name=tr("de", "panel.decision.place"), exact=True).click()
    expect_step(teacher, 1)
    expect_step(phone, 1)
    # the phone dies; on a laptop the same code and name ask for her PIN (never "name taken")
    laptop = klass.page(LAPTOP, locale="de-DE")
    join_room(laptop, server.base, klass.code, "Jürgen", wait=False)
    form = laptop.locator(".room-rejoin")
    expect(form).to_contain_text("Jürgen ist schon in diesem Raum", timeout=LOAD_MS)
    expect(laptop.get_by_text("heißt schon")).to_have_count(0)
    wrong = f"{(int(pin) + 1) % 10000:04d}"
    laptop.locator(".room-pin-input input").fill(wrong)
    laptop.locator(".room-pin-go button").click()
    expect(laptop.locator(".room-rejoin-message")).to_contain_text("Diese PIN stimmt nicht")
    expect(laptop.locator(".room-rejoin-message")).to_contain_text(": 4.")
    laptop.locator(".room-pin-input input").fill(pin)
    laptop.locator(".room-pin-go button").click()
    # the same participant, seat and table; her new device has its own new PIN
    status = laptop.locator(".room-status")
    expect(status).to_have_attribute("data-seat", BLUE, timeout=LOAD_MS)
    expect(status).to_contain_text("Jürgen")
    expect_step(laptop, 1)
    expect(laptop.locator(".room-pin-note b")).to_have_text(re.compile(r"^[0-9]{4}$"))
    expect(teacher.locator(".room-person")).to_have_count(1)  # never a duplicate
    # the phone's page is told, in German, and its buttons are gone
    moved = phone.locator(".room-moved")
    expect(moved).to_contain_text("Dein Platz ist auf ein anderes Gerät umgezogen")
    expect(phone.locator(".room-decision")).to_have_count(0)
    expect(phone.get_by_role("button")).to_have_count(0)
    shot(phone, "phone-de-moved")
    shot(laptop, "laptop-de-back")
    # the laptop keeps the seat across a reload (its own cookie now)
    cookies = {c["name"] for c in laptop.context.cookies()}
    assert "nefertiti_learner" in cookies, cookies
    laptop.reload(timeout=LOAD_MS)
    expect(laptop.locator(".room-status")).to_have_attribute("data-seat", BLUE, timeout=LOAD_MS)
    klass.laptop = laptop


def test_a_chinese_learner_comes_back_by_the_teachers_leave(klass, server):
    teacher = klass.teacher
    phone = klass.page(PHONE, locale="zh-CN", **PIXEL_5)
    join_room(phone, server.base, klass.code, "王芳", wait=False)
    expect(phone.locator(".room-pin-note")).to_contain_text("PIN", timeout=LOAD_MS)
    expect(presence(teacher, "王芳")).to_have_attribute("data-online", "yes")
    # a first new device asks, and the teacher refuses: told in Chinese
    stranger = klass.page(LAPTOP, locale="zh-CN")
    join_room(stranger, server.base, klass.code, "王芳", wait=False)
    expect(stranger.locator(".room-rejoin")).to_contain_text(
        "王芳 已经在这个教室里", timeout=LOAD_MS
    )
    stranger.locator(".room-ask-teacher button").click()
    expect(stranger.locator(".room-rejoin-message")).to_contain_text("正在等老师")
    asks = teacher.locator(".room-rejoin-requests")
    expect(asks).to_contain_text("王芳 asks to come back on a new device")
    teacher.locator(".room-refuse-in button").click()
    expect(stranger.locator(".room-rejoin-message")).to_contain_text("老师没有让你在这台设备上进来")
    expect(asks).to_be_hidden()
    # her new device asks; the teacher lets it in
    laptop = klass.page(LAPTOP, locale="zh-CN")
    join_room(laptop, server.base, klass.code, "王芳", wait=False)
    laptop.locator(".room-ask-teacher button").click()
    expect(laptop.locator(".room-rejoin-message")).to_contain_text("正在等老师")
    shot(laptop, "laptop-zh-asking")
    expect(asks).to_contain_text("王芳 asks to come back on a new device")
    shot(teacher, "teacher-1024-asks")
    teacher.locator(".room-let-in button").click()
    expect(laptop.locator(".room-status")).to_contain_text("王芳", timeout=LOAD_MS)
    expect(laptop.locator(".room-pin-note")).to_contain_text("PIN")
    expect(phone.locator(".room-moved")).to_contain_text("你的座位已转到另一台设备上")
    expect(teacher.locator(".room-person")).to_have_count(2)
    shot(phone, "phone-zh-moved")
    stranger.context.close()


def test_the_teacher_sees_a_learner_go_away_when_her_page_closes(klass):
    teacher = klass.teacher
    expect(presence(teacher, "Jürgen")).to_have_attribute("data-online", "yes")
    expect(presence(teacher, "王芳")).to_have_attribute("data-online", "yes")
    shot(teacher, "teacher-1024-online")
    klass.laptop.close()  # Jürgen's only open page (her phone's page gave the seat up)
    expect(presence(teacher, "Jürgen")).to_have_attribute("data-online", "no", timeout=AWAY_MS)
    expect(presence(teacher, "Jürgen")).to_contain_text("away")
    expect(presence(teacher, "王芳")).to_have_attribute("data-online", "yes")
    shot(teacher, "teacher-1024-away")
