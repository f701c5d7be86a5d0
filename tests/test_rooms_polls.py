"""The room's pages with the class questions wired in (#16 item 3, 6), without a browser: the
teacher's page asks, the learners' pages answer through the room's rules (a paused room and a
removed learner take no answers), the class record follows the table, each page in its own
language."""

from __future__ import annotations

import pytest

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.learner import LearnerPage
from widgets.classroom.poll import PollError
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage
from widgets.game.common import esc

WHO = "welcome/who-plays-next"


@pytest.fixture()
def klass():
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    learners = []
    for name, lang in (("Ana", "en"), ("Ben", "en"), ("Chen", "en")):
        page = LearnerPage(rooms, lang=lang)
        assert page.join(teacher.room.code, name)
        learners.append(page)
    return teacher, learners


def test_the_teacher_asks_every_learner_and_sees_who_answered(klass):
    teacher, (ana, ben, chen) = klass
    poll = teacher.poll_panel.push(f"lesson:{WHO}")
    assert sorted(poll.learners) == ["1", "2", "3"]
    assert all(page.poll_box.visible for page in (ana, ben, chen))
    assert ana.poll_card.answer("red") == "red"
    assert ben.poll_card.answer("blue") == "blue"
    polls = teacher.room.polls
    assert polls.counts()["red"] == 1 and polls.counts()["blue"] == 1
    assert polls.answered() == ("1", "2") and polls.waiting() == ("3",)
    assert "Chen" in teacher.poll_panel.who.object
    teacher.poll_panel.reveal_button.clicks += 1  # the teacher presses Reveal
    right = E.EXERCISES[WHO].check("red").headline
    assert right in ana.poll_card.verdict.object
    assert WHO in polls.record.row("1").right
    assert WHO in polls.record.row("2").wrong
    assert "poll-class-row" in teacher.class_view.table.object


def test_a_paused_room_and_a_removed_learner_take_no_answers(klass):
    teacher, (ana, ben, _chen) = klass
    teacher.poll_panel.push(f"lesson:{WHO}")
    teacher.pause_button.clicks += 1
    assert ana.poll_card.answer("red") is None
    assert tr("en", "poll.refused.paused") in ana.poll_card.error.object
    teacher.pause_button.clicks += 1
    assert ana.poll_card.answer("red") == "red"
    teacher.remove_select.value = 2  # Ben
    teacher.remove_button.clicks += 1
    assert "2" not in teacher.room.polls.current.learners
    with pytest.raises(PollError):
        ben.poll_card.submit("2", "red")
    assert teacher.room.polls.counts()["red"] == 1


def test_a_learner_may_not_answer_for_another(klass):
    teacher, (ana, _ben, _chen) = klass
    teacher.poll_panel.push(f"lesson:{WHO}")
    with pytest.raises(PollError):
        ana.poll_card.submit("2", "red")
    assert teacher.room.polls.answered() == ()


def test_each_page_its_own_language_the_same_question(klass):
    teacher, (ana, ben, _chen) = klass
    teacher.poll_panel.push(f"lesson:{WHO}")
    ben.session.lang = "de"
    prompt_de = E.EXERCISES[WHO].prompt("de")
    assert prompt_de != E.EXERCISES[WHO].prompt("en")
    assert esc(prompt_de) in ben.poll_card.question.object
    assert esc(E.EXERCISES[WHO].prompt("en")) in ana.poll_card.question.object
    assert esc(E.EXERCISES[WHO].prompt("en")) in teacher.poll_panel.question.object
    assert teacher.room.participant(ben.token).lang == "de"  # kept by the room for Ben
    teacher.session.lang = "zh"
    assert teacher.poll_panel.lang == "zh" and teacher.class_view.lang == "zh"
    assert tr("zh", "poll.class.title") in teacher.class_view.table.object


def test_the_class_record_follows_the_table(klass):
    teacher, (ana, _ben, _chen) = klass
    before = teacher.room.polls.record.row("1").rules_seen
    # the teacher plays the first decisions of the table
    for _ in range(3):
        option = teacher.session.state.legal_options()[0]
        assert teacher.session.play(option)
    after = teacher.room.polls.record.row("1").rules_seen
    assert len(after) > len(before)


def test_polls_a_store_put_on_the_room_are_the_pages(klass):
    """A store may give a room back its polls (Polls.from_dict): the pages take them as they are."""
    from widgets.classroom.poll import Polls

    teacher, (ana, _ben, _chen) = klass
    teacher.poll_panel.push(f"lesson:{WHO}")
    ana.poll_card.answer("red")
    room = teacher.room
    room.polls = Polls.from_dict(room.polls.as_dict())
    polls = room.polls
    assert polls.counts()["red"] == 1  # the answer came back with the stored polls
    page = LearnerPage(teacher.rooms, code=room.code)
    assert page.join(room.code, "Dana")
    assert "4" in polls.current.learners  # the keeper follows the room for the restored polls
