"""The teacher's controls over a class question (widgets/classroom/poll_controls.py), at their
boundaries: a locked question takes no answer (refused in the learner's language) until it is
unlocked, never after the reveal; a time limit's deadline locks the answers on the server when
it passes, also after the room is read back from the store (SQLite, and on a real PostgreSQL
server across two processes' caches); an anonymous question names nobody in any class view's
model (the teacher's panel, the class view, the projector), before or at the reveal, and is not
counted per learner in the class record."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine

import widgets.classroom.poll_controls as C
from nefertiti_core.engine.i18n import tr
from widgets.classroom.feed import PgFeed, wait_for
from widgets.classroom.poll import Poll, PollError, Polls
from widgets.classroom.poll_view import (
    ClassView,
    LearnerPollCard,
    ProjectorPollView,
    TeacherPollPanel,
)
from widgets.classroom.room import Rooms
from widgets.classroom.room_store import connect

WHO = "lesson:welcome/who-plays-next"  # Red decides next: "red" is right
CLASS = {"1": "Anna", "2": "Ben", "3": "Chen"}


class Clock:
    """The server's clock for deadlines, moved by the test."""

    def __init__(self, monkeypatch, now=1_800_000_000.0):
        self.now = now
        monkeypatch.setattr(C, "now", lambda: self.now)


def refused(key: str, work) -> PollError:
    with pytest.raises(PollError) as caught:
        work()
    assert caught.value.key == key, caught.value.key
    return caught.value


# ---------------------------------------------------------------------------------- locking
def test_a_locked_question_takes_no_answer_nor_change_until_unlocked():
    polls = Polls()
    polls.push(WHO, CLASS)
    assert polls.answer("1", "red") == "red"
    assert polls.lock(True) is True
    assert polls.lock(True) is False  # locked already: nothing changes
    error = refused("poll.refused.locked", lambda: polls.answer("2", "blue"))
    assert error.text("de") == tr("de", "poll.refused.locked")
    assert error.text("zh") == tr("zh", "poll.refused.locked")
    refused("poll.refused.locked", lambda: polls.answer("1", "blue"))  # no change either
    assert polls.current.answer_of("1") == "red" and polls.current.answer_of("2") is None
    assert polls.lock(False) is True
    assert polls.answer("2", "blue") == "blue"


def test_the_lock_is_stored_and_read_back_with_the_answers_given_before_it():
    polls = Polls()
    polls.push(WHO, CLASS)
    polls.answer("1", "red")
    polls.lock(True)
    back = Polls.from_dict(polls.as_dict())
    assert back.current.locked and back.current.answer_of("1") == "red"
    refused("poll.refused.locked", lambda: back.answer("2", "blue"))


def test_a_revealed_question_cannot_be_unlocked_or_locked():
    polls = Polls()
    polls.push(WHO, CLASS)
    polls.reveal()
    refused("poll.refused.revealed", lambda: polls.lock(False))
    refused("poll.refused.revealed", lambda: polls.lock(True))


# ---------------------------------------------------------------------------------- the timer
def test_the_deadline_locks_the_answers_when_it_passes(monkeypatch):
    clock = Clock(monkeypatch)
    polls = Polls()
    poll = polls.push(WHO, CLASS, seconds=30)
    assert poll.deadline == clock.now + 30
    clock.now += 29.9
    assert not poll.answers_locked() and polls.answer("1", "red") == "red"
    clock.now += 0.1  # the deadline itself: locked
    assert poll.answers_locked()
    refused("poll.refused.locked", lambda: polls.answer("2", "blue"))
    refused("poll.refused.locked", lambda: polls.answer("1", "green"))
    # locking it again changes nothing; unlocking lets answers in again, with no time limit
    assert polls.lock(True) is False
    assert polls.lock(False) is True and poll.deadline is None
    assert polls.answer("2", "blue") == "blue"


@pytest.mark.parametrize("seconds", [-1, 3601, 2.5, "30", True, None])
def test_a_forged_time_limit_is_refused_and_nothing_is_asked(seconds):
    polls = Polls()
    refused("poll.refused.timer", lambda: polls.push(WHO, CLASS, seconds=seconds))
    assert polls.current is None


@pytest.mark.parametrize("stored", ["soon", float("nan"), float("inf"), [1], True])
def test_a_stored_deadline_that_is_not_a_time_means_no_time_limit(stored):
    data = Polls()
    data.push(WHO, CLASS)
    item = data.as_dict()
    item["polls"][0]["deadline"] = stored
    assert Polls.from_dict(item).current.deadline is None


def test_the_deadline_survives_a_restart_and_locks_after_it(monkeypatch, tmp_path):
    """The deadline is stored with the question: read back after a restart (no page open
    meanwhile), it still counts, and locks the answers once it has passed."""
    clock = Clock(monkeypatch)
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    try:
        rooms = Rooms()
        store = connect(rooms, engine)
        room, _key, _ = rooms.open()
        anna, anna_token, _ = room.join("Anna", "de")
        room.polls.push(WHO, room.learner_names(), seconds=60)
        store.flush()
        clock.now += 30
        again = Rooms()  # the server started again
        connect(again, engine)
        back = again.find(room.code)
        poll = back.polls.current
        assert poll.deadline == 1_800_000_060.0 and not poll.answers_locked()
        assert back.polls.answer(str(anna.id), "red") == "red"
        clock.now += 30  # the deadline passed while no page was open
        error = refused("poll.refused.locked", lambda: back.polls.answer(str(anna.id), "blue"))
        assert error.text("de") == tr("de", "poll.refused.locked")
        assert back.polls.current.answer_of(str(anna.id)) == "red"
    finally:
        engine.dispose()


def test_the_deadline_locks_answers_through_another_process_on_postgresql(
    monkeypatch, postgres_url
):
    """Two server processes' caches of one room on a real PostgreSQL server: the question asked
    with a time limit on one is refused after its deadline on the other."""
    clock = Clock(monkeypatch)
    processes = []
    for _ in range(2):
        engine = create_engine(postgres_url)
        feed = PgFeed(postgres_url, engine=engine)
        rooms = Rooms()
        processes.append((engine, feed, rooms, connect(rooms, engine, feed=feed)))
    try:
        (_, _, rooms_a, _), (_, _, rooms_b, _) = processes
        room_a, _key, _ = rooms_a.open()
        anna, _, _ = room_a.join("Anna")
        room_b = rooms_b.find(room_a.code)
        room_a.polls.push(WHO, room_a.learner_names(), seconds=30)
        assert wait_for(lambda: room_b.polls.current is not None, 5)
        assert room_b.polls.current.deadline == clock.now + 30
        clock.now += 31
        refused("poll.refused.locked", lambda: room_b.polls.answer(str(anna.id), "red"))
        assert room_a.polls.current.answer_of(str(anna.id)) is None
    finally:
        for engine, feed, _rooms, _store in processes:
            feed.close()
            engine.dispose()


def test_the_pages_say_locked_and_the_learners_buttons_are_inert(monkeypatch):
    clock = Clock(monkeypatch)
    polls = Polls()
    polls.push(WHO, CLASS, seconds=30)
    card = LearnerPollCard(polls, "1", lang="de")
    teacher, projector = TeacherPollPanel(polls, board=False), ProjectorPollView(polls, lang="zh")
    assert card.countdown.visible and card.countdown.deadline == (clock.now + 30) * 1000
    assert projector.countdown.visible and teacher.countdown.visible
    assert not card.choices.disabled and tr("de", "poll.locked") not in card.controls.object
    clock.now += 30
    for view in (card, teacher, projector):
        view.refresh()  # what each served page does once at the deadline (countdown.at_deadline)
    assert card.choices.disabled and tr("de", "poll.locked") in card.controls.object
    assert not card.countdown.visible or card.countdown.deadline <= clock.now * 1000
    assert tr("zh", "poll.locked") in projector.progress.object
    assert teacher.lock_button.name == tr("en", "poll.teacher.unlock")
    # a click on a choice of the inert card (a forged message) is refused, in German
    card.choices.disabled = False
    card.answer("blue")
    assert tr("de", "poll.refused.locked") in card.error.object
    assert polls.current.answer_of("1") is None


# ---------------------------------------------------------------------------------- anonymous
def names_in(text: str) -> list[str]:
    return [name for name in CLASS.values() if name in text]


def test_an_anonymous_question_names_nobody_in_any_class_view():
    polls = Polls()
    poll = polls.push(WHO, CLASS, anonymous=True)
    teacher = TeacherPollPanel(polls, board=False, learners=lambda: CLASS)
    projector, table = ProjectorPollView(polls), ClassView(polls)
    card = LearnerPollCard(polls, "2", lang="zh")
    assert tr("zh", "poll.learner.anonymous") in card.controls.object
    polls.answer("1", "red")
    polls.answer("2", "blue")
    for revealed in (False, True):
        if revealed:
            polls.reveal()
        tally = poll.tally()
        assert tally.anonymous and (len(tally.answered), len(tally.waiting)) == (2, 1)
        assert not set(tally.answered + tally.waiting) & set(CLASS), tally
        assert not set(tally.answered + tally.waiting) & set(CLASS.values()), tally
        for learner in CLASS:
            assert poll.class_answer(learner).kind == "anonymous"
            assert poll.class_answer(learner).key is None
        for view in (teacher, projector):
            view.refresh()
            shown = " ".join(pane.object for pane in (view.question, view.bars, view.result)) + (
                teacher.who.object if view is teacher else projector.progress.object
            )
            assert not names_in(shown), (view, names_in(shown))
        table.refresh()
        # the class view lists the learners (the class), never with this question's answer
        for row in table.table.object.split("<tr class='poll-class-row'>")[1:]:
            assert tr("en", "poll.class.anonymous") in row
            assert "\u2714" not in row and "\u2717" not in row
    assert "data-key='red'" in projector.bars.object  # the counts, at the reveal
    # each learner still reads their own verdict on their own page
    card.refresh()
    assert card.verdict.object
    # and the class record counts nobody's answer to it
    assert all(not row.right and not row.wrong for row in polls.record.rows())


def test_a_question_not_asked_anonymously_is_counted_and_named_as_before():
    polls = Polls()
    polls.push(WHO, CLASS)
    polls.answer("1", "red")
    teacher = TeacherPollPanel(polls, board=False, learners=lambda: CLASS)
    assert "Anna" in teacher.who.object
    polls.reveal()
    assert polls.record.row("1").right == ("welcome/who-plays-next",)


def test_anonymity_is_stored_with_the_question():
    polls = Polls()
    polls.push(WHO, CLASS, anonymous=True, seconds=120)
    back = Polls.from_dict(polls.as_dict())
    assert back.current.anonymous and back.current.deadline == polls.current.deadline
    plain = Poll(WHO, CLASS)
    assert not plain.anonymous and plain.deadline is None and not plain.locked
