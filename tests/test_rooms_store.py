"""Rooms in the store (widgets/classroom/room_store.py): a room read back is the same room —
the table's whole game (branches, step), the staged title, paused, the participants with their
seats and languages — the teacher's secret and the participants' tokens still open it, neither
is written in the database, and expired rooms are deleted when rooms are read back."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text

from widgets.classroom.room import Rooms
from widgets.classroom.room_store import connect, participants_table, rooms_table


class Clock:
    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture()
def engine(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    yield engine
    engine.dispose()


def a_class(rooms):
    room, key, _ = rooms.open()
    anna, anna_token, _ = room.join("Anna", "de")
    ben, ben_token, _ = room.join("Ben <b>", "zh")
    room.assign_seat(key, anna.id, room.table.state.decider)
    room.play(anna_token, room.table.state.legal_options()[0])
    room.play(key, room.table.state.legal_options()[0])
    room.undo(key)
    room.play(key, room.table.state.legal_options()[-1])  # a second branch
    room.pause(key)
    return room, key, {anna.id: anna_token, ben.id: ben_token}


def test_a_room_comes_back_the_same(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, tokens = a_class(rooms)
    store.flush()
    again = Rooms()
    connect(again, engine)
    back = again.find(room.code)
    assert back is not None and back is not room
    assert back.is_teacher(key) and not back.is_teacher(
        key[:-1] + ("y" if key.endswith("x") else "x")
    )
    for pid, token in tokens.items():
        person, before = back.participant(token), room.participants[pid]
        assert (person.id, person.name, person.lang, person.seat) == (
            before.id, before.name, before.lang, before.seat,
        )  # fmt: skip
    assert back.table.branches == room.table.branches
    assert back.table.branch == room.table.branch and back.table.step == room.table.step
    assert back.table.steps() == room.table.steps()
    assert back.paused and back.version == room.version
    # the class goes on: ids continue, the learner plays her seat
    carl, _, why = back.join("Carl")
    assert why is None and carl.id == 3


def test_a_locked_room_and_its_removed_learners_stay_so_after_a_restart(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    ben, _, _ = room.join("Ben", device="d" * 32)
    room.join("Dora", device="f" * 32)
    room.remove(key, ben.id)
    room.lock_room(key)
    store.flush()
    again = Rooms()
    connect(again, engine)
    back = again.find(room.code)
    assert back.locked and back.join("Carl")[2].key == "room.refuse.locked"
    back.lock_room(key, False)
    assert back.join("Ben")[2].key == "room.refuse.removed"
    assert back.join("Carl", device="d" * 32)[2].key == "room.refuse.removed"
    dora = next(p for p in back.participants.values() if p.name == "Dora")
    assert back.remove(key, dora.id) is None  # her device is known after the restart too
    assert back.join("Eve", device="f" * 32)[2].key == "room.refuse.removed"


def test_a_new_join_code_stays_after_a_restart(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    anna, token, _ = room.join("Anna", code=room.code)
    room.change_join_code(key)
    second = room.join_code
    room.change_join_code(key)
    store.flush()
    again = Rooms()
    connect(again, engine)
    back = again.find(room.join_code)
    assert back is not None and back.code == room.code
    assert back.join_code == room.join_code and back.old_codes == [second]
    assert again.find(room.code) is back and again.find(second) is back
    assert back.participant(token).name == "Anna"  # her cookie still opens the room
    for old in (room.code, second):
        assert back.join("Ben", code=old)[2].key == "room.refuse.old_code"
    assert back.join("Ben", code=room.join_code)[2] is None


def test_no_secret_or_token_is_written(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, tokens = a_class(rooms)
    store.flush()
    with engine.connect() as db:
        dump = " ".join(
            str(row) for table in (rooms_table, participants_table)
            for row in db.execute(table.select()).all()
        )  # fmt: skip
    assert room.code in dump
    assert key not in dump
    assert not any(token in dump for token in tokens.values())


def test_changes_are_written_by_the_saver_thread(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    room.join("Anna")
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with engine.connect() as db:
            if db.execute(text("select count(*) from classroom_participants")).scalar() == 1:
                break
        time.sleep(0.05)
    else:
        pytest.fail("the participant was not written within 10 s")
    store.stop()


def participants_in_store(engine) -> int:
    with engine.connect() as db:
        return db.execute(text("select count(*) from classroom_participants")).scalar()


def test_a_change_is_in_the_store_before_anyone_hears_of_it(engine):
    """Write before telling (#29 item 6): when the pages hear of a join, the join is already
    in the database, so a change a page has shown survives a SIGKILL of the server."""
    rooms = Rooms()
    store = connect(rooms, engine)
    room, _, _ = rooms.open()
    seen = []
    room.subscribe(lambda _version, what: seen.append((what, participants_in_store(engine))))
    room.join("Anna")
    assert seen and seen[0] == ("people", 1)
    assert room.storage.unsaved_since is None and room.storage.failed == ""
    store.stop()


def storage_words_of(room, teacher: bool) -> str:
    from widgets.classroom.table import storage_words

    return storage_words(room, "en", teacher, now=time.monotonic() + 5)


class Faults:
    """The database refuses every write while ``full`` (as SQLite does when the disk is full)."""

    def __init__(self, engine):
        import sqlite3

        from sqlalchemy import event

        self.full = False

        def refuse(_conn, _cursor, statement, *_args):
            if self.full and not statement.lstrip().upper().startswith("SELECT"):
                raise sqlite3.OperationalError("database or disk is full")

        event.listen(engine, "before_cursor_execute", refuse)


def test_a_write_that_fails_is_told_kept_and_written_when_the_store_is_back(engine):
    """A full disk (#29 item 8): the change stays in the room, the room says it is not saved
    (the teacher's page shows why: storage_words), the store is tried again on its own, and
    once it works the change is written and the warning goes."""
    faults = Faults(engine)
    rooms = Rooms()
    store = connect(rooms, engine)
    room, _, _ = rooms.open()
    faults.full = True
    person, _, why = room.join("Anna")
    assert why is None and person is not None  # the class goes on
    assert room.storage.failed and "full" in room.storage.failed
    assert room.storage.unsaved_since is not None
    assert participants_in_store(engine) == 0
    assert "database or disk is full" in storage_words_of(room, teacher=True)
    assert storage_words_of(room, teacher=False) == "Saving…"  # a learner: no details
    faults.full = False
    deadline = time.monotonic() + 30
    while participants_in_store(engine) != 1 and time.monotonic() < deadline:
        time.sleep(0.05)  # the saver thread tries again every RETRY_S
    assert participants_in_store(engine) == 1
    assert room.storage.failed == "" and room.storage.unsaved_since is None
    assert storage_words_of(room, teacher=True) == ""
    store.stop()


def test_the_teachers_page_warns_in_their_language_while_the_class_is_not_saved(engine):
    """The warning on the page itself (the served page looks every second; here at once)."""
    from rendered import seen

    from widgets.classroom.learner import LearnerPage
    from widgets.classroom.teacher import TeacherPage

    faults = Faults(engine)
    rooms = Rooms()
    store = connect(rooms, engine)
    teacher = TeacherPage(rooms, lang="de")
    assert teacher.open_room()
    learner = LearnerPage(rooms, lang="zh")
    faults.full = True
    assert learner.join(teacher.room.code, "Anna")
    teacher.storage.update()
    shown = str(seen(teacher.storage.pane))
    assert teacher.storage.pane.visible
    assert "Nicht gespeichert" in shown and "database or disk is full" in shown
    faults.full = False
    assert store.flush() == 1
    teacher.storage.update()
    assert not teacher.storage.pane.visible
    store.stop()


def test_the_exit_flush_writes_what_failed(engine):
    faults = Faults(engine)
    rooms = Rooms()
    store = connect(rooms, engine)
    room, _, _ = rooms.open()
    faults.full = True
    room.join("Anna")
    faults.full = False
    assert store.flush() == 1  # what atexit does (before the saver thread's next try)
    assert participants_in_store(engine) == 1
    store.stop()


def test_expired_rooms_are_deleted_when_read_back(engine):
    clock = Clock()
    rooms = Rooms(clock=clock, ttl_s=3600)
    store = connect(rooms, engine)
    old, _, _ = rooms.open()
    clock.now += 3000
    fresh, _, _ = rooms.open()
    fresh.join("Anna")
    store.flush()
    clock.now += 1000  # old: 4000 s unused; fresh: 1000 s
    again = Rooms(clock=clock, ttl_s=3600)
    connect(again, engine)
    assert again.find(old.code) is None and again.find(fresh.code) is not None
    with engine.connect() as db:
        codes = [row.code for row in db.execute(rooms_table.select()).all()]
    assert codes == [fresh.code]


def test_a_room_whose_game_no_longer_loads_is_left_out(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    good, _, _ = rooms.open()
    bad, _, _ = rooms.open()
    store.flush()
    with engine.begin() as db:
        db.execute(
            rooms_table.update().where(rooms_table.c.code == bad.code).values(record="moves: [")
        )
    again = Rooms()
    connect(again, engine)
    assert again.find(good.code) is not None and again.find(bad.code) is None


# --- the class questions (#16 item 5) --------------------------------------------------------
WHO = "lesson:welcome/who-plays-next"  # choices green, red, blue, black, nobody; red is right


def wait_until(check, seconds=10.0):
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def stored_polls(engine, code):
    with engine.connect() as db:
        return db.execute(
            rooms_table.select().where(rooms_table.c.code == code)
        ).one().polls  # fmt: skip


def test_questions_answers_and_the_class_record_come_back_after_a_restart(engine):
    """Each poll change marks the room for the saver thread (no flush here): after a restart
    the teacher sees the question, the counts and who answered; a learner sees their answer;
    the reveal still works and the class record keeps the earlier question's verdicts."""
    import json

    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    anna, anna_token, _ = room.join("Anna")
    ben, ben_token, _ = room.join("Ben")
    chen, _, _ = room.join("Chen")
    first = room.polls.push(WHO, room.learner_names())
    room.polls.answer(str(anna.id), "red")
    room.polls.answer(str(ben.id), "blue")
    room.polls.reveal()
    assert first.number == 1
    second = room.polls.push(WHO, room.learner_names())
    room.polls.answer(str(anna.id), "green")
    room.polls.answer(str(anna.id), "black")  # changed her mind before the reveal
    room.polls.answer(str(chen.id), "red")
    # the saver thread writes the answers (the room was marked changed), no flush asked
    assert wait_until(
        lambda: (
            '"answers":[["1","black","black"],["3","red","red"]]' in stored_polls(engine, room.code)
        )
    ), stored_polls(engine, room.code)
    data = json.loads(stored_polls(engine, room.code))
    assert [p["number"] for p in data["polls"]] == [1, 2]
    store.stop()

    again = Rooms()
    connect(again, engine)  # the server restarted
    back = again.find(room.code)
    polls = back.polls
    assert polls is not room.polls and polls.current.number == second.number == 2
    assert polls.current.ref == WHO and not polls.current.revealed
    assert polls.counts() == {"green": 0, "red": 1, "blue": 0, "black": 1, "nobody": 0}
    assert polls.answered() == ("1", "3") and polls.waiting() == ("2",)
    assert polls.name("3") == "Chen"
    # a learner sees their own answer (the card reads it from the poll)
    assert polls.current.given(str(back.participant(anna_token).id)) == "black"
    assert polls.current.answer_of(str(back.participant(ben_token).id)) is None
    # the first question: revealed, its verdicts in the class record
    assert polls.history[0].revealed
    assert "welcome/who-plays-next" in polls.record.row("1").right
    assert "welcome/who-plays-next" in polls.record.row("2").wrong
    # the class goes on: Ben answers, the teacher reveals, the record counts the new verdicts
    assert polls.answer("2", "red") == "red"
    reveal = polls.reveal()
    assert reveal.right_keys == {"red"} and reveal.correct == {"1": False, "3": True, "2": True}
    assert polls.record.row("1").wrong == ("welcome/who-plays-next",)
    assert polls.record.row("2").right == ("welcome/who-plays-next",)
    assert polls.record.row("2").wrong == ("welcome/who-plays-next",)
    # and a learner who joins after the restart is in the record and the next question
    dana, _, _ = back.join("Dana")
    assert str(dana.id) in polls.record
    assert "4" in polls.push(WHO, back.learner_names()).learners


def test_a_stored_value_that_cannot_be_read_leaves_the_room_without_questions(engine, caplog):
    rooms = Rooms()
    store = connect(rooms, engine)
    made = []
    for _ in range(5):
        room, _, _ = rooms.open()
        room.join("Anna")
        room.polls.push(WHO, room.learner_names())
        made.append(room)
    store.flush()
    hostile = [
        '{"polls": [',  # cut short
        '{"polls": [{"ref": "lesson:../../etc/passwd"}], "record": {}}',  # no such exercise
        '{"polls": [{"ref": "' + WHO + '", "learners": ["1"], "answers": [["1", "x", "<b>"]]}]}',
        '{"polls": "' + "x" * 2_000_000 + '"}',  # past the size limit
        "[" * 100_000 + "]" * 100_000,  # nested past any parser's depth
    ]
    with engine.begin() as db:
        for room, value in zip(made, hostile, strict=True):
            db.execute(
                rooms_table.update().where(rooms_table.c.code == room.code).values(polls=value)
            )
    with caplog.at_level("WARNING", logger="widgets.classroom.store"):
        again = Rooms()
        connect(again, engine)
    for room in made:
        back = again.find(room.code)
        assert back is not None and back.participants  # the room is there, its people too
        assert back.polls.current is None  # without its questions
        assert "1" in back.polls.record  # the room keeps its learners in the (new) record
        back.polls.push(WHO, back.learner_names())  # and the class goes on
    said = [r.getMessage() for r in caplog.records if "class questions did not load" in r.message]
    assert len(said) == len(hostile), said


def test_a_room_with_no_question_writes_none(engine):
    rooms = Rooms()
    store = connect(rooms, engine)
    room, _, _ = rooms.open()
    store.flush()
    assert stored_polls(engine, room.code) == ""
    again = Rooms()
    connect(again, engine)
    assert again.find(room.code).polls.current is None
