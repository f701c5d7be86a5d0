"""The pages' side of coming back on another device and of who is online
(widgets/classroom/rejoin_view.py), not served: the learner's join form asks for the PIN of a
name a present learner holds (never "name taken"), the right PIN enters the same seat and the
old page says the seat moved; the same browser typing its own name is simply in; the teacher's
card lets a waiting device in or refuses it, names escaped; the list of people says online or
away."""

from __future__ import annotations

import re

from rendered import html

from nefertiti_core.engine.i18n import tr
from widgets.classroom import rejoin
from widgets.classroom.learner import LearnerPage
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage


def shown_pin(page) -> str:
    """The PIN a learner's page shows (once: it is kept nowhere else)."""
    found = re.findall(r"class='room-pin-note'.*?<b>([0-9]{4})</b>", html(page))
    assert len(found) == 1, found
    return found[0]


def a_room():
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    return rooms, teacher


def test_a_name_held_asks_for_the_pin_and_the_right_one_moves_the_seat():
    rooms, teacher = a_room()
    code = teacher.room.join_code
    phone = LearnerPage(rooms, lang="de", device="p" * 22)
    assert phone.join(code, "Jürgen")
    pin = shown_pin(phone)
    before, after = tr("de", "room.pin_note", pin="@").split("@")
    assert f"{before}<b>{pin}</b>{after}" in html(phone)
    teacher.give_seat(1, phone.room.participant(phone.token).id)
    laptop = LearnerPage(rooms, lang="de", device="l" * 22)
    assert not laptop.join(code, "jürgen")
    shown = html(laptop)
    assert laptop.rejoin_form.pane.visible
    assert tr("de", "room.name_held", name="jürgen") in shown
    assert tr("de", "room.refuse.name_taken", name="jürgen") not in shown
    laptop.rejoin_form.with_pin(f"{(int(pin) + 1) % 10000:04d}")
    assert tr("de", "room.refuse.pin_wrong", n=4) in html(laptop)
    laptop.rejoin_form.with_pin(pin)
    person = laptop.room.participant(laptop.token)
    assert person.name == "Jürgen" and person.seat == 1 and len(teacher.room.participants) == 1
    assert tr("de", "room.moved_away") in html(phone)
    assert "room-decision" not in html(phone)


def test_the_same_browser_typing_its_own_name_is_simply_in():
    rooms, teacher = a_room()
    first = LearnerPage(rooms, lang="en")
    assert first.join(teacher.room.join_code, "Anna")
    again = LearnerPage(rooms, tokens={teacher.room.code: first.token})  # /join without a code
    assert again.join(teacher.room.join_code, "Anna")
    assert again.token == first.token and not again.rejoin_form.pane.visible


def test_the_teacher_lets_in_or_refuses_a_waiting_device_names_escaped():
    rooms, teacher = a_room()
    code = teacher.room.join_code
    phone = LearnerPage(rooms, lang="zh")
    assert phone.join(code, "<b>王芳</b>")
    assert "room-presence" in html(teacher)
    other = LearnerPage(rooms, lang="zh")
    assert not other.join(code, "<b>王芳</b>")
    other.rejoin_form.ask()
    assert tr("zh", "room.asked_waiting") in html(other)
    card = html(teacher.rejoin_requests.pane)
    assert "&lt;b&gt;王芳&lt;/b&gt; asks to come back on a new device" in card
    assert "<b>王芳</b>" not in card
    teacher.rejoin_requests.answer(teacher.room.participants[1].id, False)
    assert tr("zh", "room.asked_refused") in html(other)
    assert not teacher.rejoin_requests.pane.visible
    laptop = LearnerPage(rooms, lang="zh")
    assert not laptop.join(code, "<b>王芳</b>")
    laptop.rejoin_form.ask()
    assert teacher.rejoin_requests.pane.visible
    teacher.rejoin_requests.answer(1, True)
    assert laptop.room.participant(laptop.token).id == 1
    assert shown_pin(laptop) and tr("zh", "room.moved_away") in html(phone)
    assert rejoin.asking(teacher.room) == []


def test_the_list_of_people_says_online_and_away():
    from widgets.classroom.presence import PRESENCE

    rooms, teacher = a_room()
    anna, _token, _ = teacher.room.join("Anna")
    assert "data-online='no'" in html(teacher)
    leave = PRESENCE.arrive(teacher.room.code, anna.id)  # her page opened (its session)
    assert "data-online='yes'" in html(teacher)
    assert tr("en", "room.presence.online") in html(teacher)
    leave()  # her page's session ended
    assert "data-online='no'" in html(teacher)
    assert tr("en", "room.presence.away") in html(teacher)
