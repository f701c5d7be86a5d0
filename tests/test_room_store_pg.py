"""Rooms shared by several server processes on one PostgreSQL database (#17, room_store.py).

Each "process" here is its own room cache: a :class:`Rooms`, an SQLAlchemy engine and a
:class:`PgFeed` of its own on the same real PostgreSQL server (tests/pg.py), wired exactly as
``nefertiti serve --database postgresql://...`` wires them (``room_store.connect``). Threads
stand in for the participants' browsers. What is checked: a change made through one cache
reaches the other's pages (its room listeners) through the database; a room opened by one
process is found by code on the other with its participants and seats (a learner whose process
died finds their seat); two caches writing one room at once lose and double nothing, and the
loser is refused as stale; every stored game replays through the engine to the same position
with no broken invariant.
"""

from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import create_engine, select

from nefertiti_core import violations
from widgets.classroom.feed import PgFeed, wait_for
from widgets.classroom.room import Rooms
from widgets.classroom.room_store import connect, rooms_table, stored_history


class Process:
    """One server process's side of the classroom: rooms, engine, feed, room store."""

    def __init__(self, url):
        self.engine = create_engine(url, pool_size=10)
        self.feed = PgFeed(url, engine=self.engine)
        self.rooms = Rooms()
        self.store = connect(self.rooms, self.engine, feed=self.feed)

    def close(self):
        self.feed.close()
        self.engine.dispose()


@pytest.fixture
def two(postgres_url):
    a, b = Process(postgres_url), Process(postgres_url)
    yield a, b
    a.close()
    b.close()


class Heard:
    """A page following a room: the table's steps each time it is told of a change."""

    def __init__(self, room):
        self.room = room
        self.seen: list[int] = []
        self.what: list[str] = []
        room.subscribe(self.heard)

    def heard(self, _version, what):
        self.seen.append(self.room.table.step)
        self.what.append(what)


def a_class(a, b):
    """A room opened on A; Anna joins on A, Ben on B (by code), both seated by the teacher."""
    room_a, key, _ = a.rooms.open()
    anna, anna_token, why = room_a.join("Anna")
    assert why is None
    room_b = b.rooms.find(room_a.code)
    assert room_b is not None and room_b is not room_a
    ben, ben_token, why = room_b.join("Ben")
    assert why is None and ben.id != anna.id
    assert wait_for(lambda: len(room_a.participants) == 2, 2)
    state = room_a.table.state
    assert room_a.assign_seat(key, anna.id, state.decider) is None
    assert room_a.assign_seat(key, ben.id, (state.decider + 1) % state.n) is None
    assert wait_for(lambda: room_b.participants[ben.id].seat is not None, 2)
    return room_a, room_b, key, anna_token, ben_token


def test_a_move_on_one_process_reaches_the_other_and_the_database(two):
    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    heard_b = Heard(room_b)
    option = room_a.table.state.legal_options()[0]
    assert room_a.play(anna_token, option) is None
    assert wait_for(lambda: room_b.table.step == 1, 2), "process B never saw Anna's move"
    assert heard_b.seen and heard_b.seen[-1] == 1
    assert room_b.table.steps() == room_a.table.steps()
    assert room_b.stored_version == room_a.stored_version
    # Ben plays his seat on B if it decides now; else the teacher plays through B
    decider = room_b.table.state.decider
    actor = ben_token if room_b.participant(ben_token).seat == decider else key
    assert room_b.play(actor, room_b.table.state.legal_options()[0]) is None
    assert wait_for(lambda: room_a.table.step == 2, 2)
    assert room_a.table.steps() == room_b.table.steps()
    # pause and seats travel too
    assert room_b.pause(key) is None
    assert wait_for(lambda: room_a.paused, 2)
    refused = room_a.play(anna_token, room_a.table.state.legal_options()[0])
    assert refused is not None and refused.key in (
        "room.refuse.paused",
        "room.refuse.not_your_turn",
    )


def test_a_conflicting_move_is_refused_as_stale_and_nothing_is_doubled(two):
    a, b = two
    room_a, room_b, key, _, _ = a_class(a, b)
    b.feed.unsubscribe(1)  # B deaf to the feed: its cache stays behind while A moves
    before = room_a.stored_version
    assert room_a.play(key, room_a.table.state.legal_options()[0]) is None
    assert room_b.table.step == 0 and room_b.stored_version == before
    why = room_b.play(key, room_b.table.state.legal_options()[-1])
    assert why is not None and why.key == "room.refuse.stale"
    assert "changed just before your move" in why.text("en")
    assert why.text("de") != why.text("en") and why.text("zh") != why.text("en")
    # B re-read the room: the database's one move, not B's
    assert room_b.table.steps() == room_a.table.steps() and room_b.table.step == 1
    with a.engine.connect() as db:
        row = db.execute(select(rooms_table).where(rooms_table.c.code == room_a.code)).one()
    assert row.version == before + 1 == room_b.stored_version
    assert stored_history(row).steps() == room_a.table.steps()
    # the next move from B is accepted (its cache is current again)
    assert room_b.play(key, room_b.table.state.legal_options()[0]) is None


def test_a_learner_whose_process_died_finds_room_and_seat_on_the_other(two, postgres_url):
    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    assert room_a.play(key, room_a.table.state.legal_options()[0]) is None
    seat = room_a.participant(ben_token).seat
    # B dies; Ben's page reloads on a fresh process C (or A): the room is read from the database
    fresh = Process(postgres_url)
    try:
        room_c = fresh.rooms.find(room_a.code.lower())
        assert room_c is not None
        ben = room_c.participant(ben_token)
        assert ben is not None and ben.name == "Ben" and ben.seat == seat
        assert room_c.table.steps() == room_a.table.steps()
        assert room_c.is_teacher(key)
        assert fresh.rooms.find("ZZZZZZZZ") is None  # an unknown code stays unknown
    finally:
        fresh.close()


def test_a_new_join_code_made_on_one_process_is_the_only_one_the_other_admits(two, postgres_url):
    a, b = two
    room_a, room_b, key, anna_token, _ = a_class(a, b)
    first = room_a.code
    assert room_a.change_join_code(key, taken=a.rooms.taken) is None
    new = room_a.join_code
    assert wait_for(lambda: room_b.join_code == new, 2), "process B never heard the new code"
    assert b.rooms.find(new) is room_b
    assert room_b.join("Carl", code=first)[2].key == "room.refuse.old_code"
    carl, _, why = room_b.join("Carl", code=new)
    assert why is None
    # a process that never held the room finds it by the new code (read from the database),
    # knows the old one only to refuse it, and Anna's token still opens it
    fresh = Process(postgres_url)
    try:
        room_c = fresh.rooms.find(new.lower())
        assert room_c is not None and room_c.code == first and room_c.join_code == new
        assert room_c.participant(anna_token).name == "Anna"
        assert room_c.join("Dora", code=first)[2].key == "room.refuse.old_code"
    finally:
        fresh.close()
    fresher = Process(postgres_url)
    try:  # found by the old code too, to be told it no longer lets anyone in
        room_d = fresher.rooms.find(first)
        assert room_d is not None and room_d.join_code == new
    finally:
        fresher.close()


def test_many_participants_in_two_processes_lose_and_double_no_move(two):
    """The concurrency run (threads as browsers, two room caches as the two processes)."""
    a, b = two
    rng = random.Random(17)
    n_rooms, moves_each = 3, 25
    rooms = []
    for _ in range(n_rooms):
        room_a, key, _ = a.rooms.open()
        room_b = b.rooms.find(room_a.code)
        tokens = []
        for i in range(4):  # 4 learners a room, 2 joined on each process, one seat each
            room = room_a if i % 2 == 0 else room_b
            person, token, why = room.join(f"L{i}")
            assert why is None
            tokens.append((room, person.id, token))
        for seat, (_, pid, _) in enumerate(tokens):
            assert wait_for(lambda pid=pid, ra=room_a: pid in ra.participants, 2)
            assert room_a.assign_seat(key, pid, seat) is None
        rooms.append((room_a, room_b, key, tokens))
    accepted = {r[0].code: 0 for r in rooms}
    stale = {r[0].code: 0 for r in rooms}
    lock = threading.Lock()

    def participant(room, token, seed):
        local = random.Random(seed)
        while True:
            with lock:
                if accepted[room.code] >= moves_each:
                    return
            with room.lock:
                state = room.table.state
                if state.is_over:
                    return
                options = state.legal_options()
            why = room.play(token, local.choice(options))
            with lock:
                if why is None:
                    accepted[room.code] += 1
                elif why.key == "room.refuse.stale":
                    stale[room.code] += 1

    conflicts_before = a.store.conflicts + b.store.conflicts  # joins retried in the set-up
    threads = []
    for room_a, room_b, key, tokens in rooms:
        for room, _, token in tokens:
            threads.append(threading.Thread(target=participant, args=(room, token, rng.random())))
        for room in (room_a, room_b):  # the teacher, on both processes, plays any seat
            threads.append(threading.Thread(target=participant, args=(room, key, rng.random())))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    with a.engine.connect() as db:
        rows = {
            r.code: r
            for r in db.execute(
                select(rooms_table).where(rooms_table.c.code.in_([r[0].code for r in rooms]))
            )
        }
    for room_a, room_b, _, _ in rooms:
        row = rows[room_a.code]
        stored = stored_history(row)  # the stored game replayed through the engine
        assert stored is not None
        # every accepted move is in the database once: the game's length is the count
        assert stored.length() == accepted[room_a.code] >= moves_each
        assert wait_for(lambda ra=room_a, rb=room_b: ra.stored_version == rb.stored_version, 3)
        for room in (room_a, room_b):
            assert room.table.steps() == stored.steps()
            assert room.table.state.key() == stored.state.key()
        for _, _before, after, _ in stored.transitions():
            assert violations(after) == [], violations(after)
        assert not violations(stored.state)
    total, refused = sum(accepted.values()), sum(stale.values())
    print(f"concurrency: {n_rooms} rooms, {len(threads)} participants, {total} moves stored, "
          f"{refused} refused as stale, conflicts A {a.store.conflicts} B {b.store.conflicts}")  # fmt: skip
    assert refused == a.store.conflicts + b.store.conflicts - conflicts_before
    assert total >= n_rooms * moves_each


def test_after_the_feed_was_away_a_resync_brings_every_held_room_up_to_date(two):
    a, b = two
    room_a, room_b, key, _, _ = a_class(a, b)
    b.feed.unsubscribe(1)  # B hears nothing (as while its listener reconnects)
    assert room_a.play(key, room_a.table.state.legal_options()[0]) is None
    assert room_a.pause(key) is None
    assert room_b.table.step == 0 and not room_b.paused
    heard, views = Heard(room_b), Views(room_b.polls)
    b.store.on_resync()  # what the feed calls once it listens again
    assert room_b.table.steps() == room_a.table.steps() and room_b.paused
    # the table, then the people: the pages follow; then the class record (the move's rules)
    assert heard.seen == [1, 1, 1] and heard.what == ["table", "people", "polls"]
    assert views.kinds == ["record"]  # no question was asked: no learner's card comes up
    assert room_b.stored_version == room_a.stored_version


# --- the class questions (#16 item 5 on #17's processes) --------------------------------------
WHO = "lesson:welcome/who-plays-next"  # choices green, red, blue, black, nobody; red is right
CHOICES = ("green", "red", "blue", "black", "nobody")


class Views:
    """A poll view on one process: the kinds of change it was told of."""

    def __init__(self, polls):
        self.kinds: list[str] = []
        self.stop = polls.on_change(lambda _polls, what: self.kinds.append(what))


def a_big_class(a, b, each=5):
    """a_class and ``each`` more learners joined on each process: {id: (room, process)}."""
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    learners = {room_a.participant(anna_token).id: room_a, room_b.participant(ben_token).id: room_b}
    for i in range(each):
        for room in (room_a, room_b):
            person, _, why = room.join(f"{'AB'[room is room_b]}{i}")
            assert why is None
            learners[person.id] = room
    n = len(learners)
    assert wait_for(lambda: len(room_a.participants) == len(room_b.participants) == n, 3)
    return room_a, room_b, key, learners


def stored_polls(process, code):
    from widgets.classroom.poll import Polls

    with process.engine.connect() as db:
        row = db.execute(select(rooms_table).where(rooms_table.c.code == code)).one()
    import json

    return Polls.from_dict(json.loads(row.polls))


def test_answers_through_both_processes_are_neither_lost_nor_doubled(two):
    """A question asked on A reaches B's views (a learner's card comes up); learners on both
    processes answer at once, changing their minds; every last answer is counted once, in the
    database and on both processes."""
    a, b = two
    room_a, room_b, key, learners = a_big_class(a, b)
    views_b = Views(room_b.polls)
    poll = room_a.polls.push(WHO, room_a.learner_names())
    assert sorted(poll.learners, key=int) == sorted(map(str, learners), key=int)
    assert wait_for(lambda: room_b.polls.current is not None, 2), "B never heard the question"
    assert "push" in views_b.kinds
    assert room_b.polls.current.number == 1 and room_b.polls.current.ref == WHO
    shown_b = room_b.polls.current  # what B's cards show: the same poll all along
    rng = random.Random(16)
    plans = {pid: [rng.choice(CHOICES) for _ in range(3)] for pid in learners}
    errors = []

    def learner(pid):
        try:
            for choice in plans[pid]:
                assert learners[pid].polls.answer(str(pid), choice) == choice
        except Exception as error:  # reported below
            errors.append(repr(error))

    conflicts = a.store.conflicts + b.store.conflicts
    threads = [threading.Thread(target=learner, args=(pid,)) for pid in learners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    last = {str(pid): plan[-1] for pid, plan in plans.items()}
    expected = {choice: list(last.values()).count(choice) for choice in CHOICES}
    assert wait_for(lambda: room_a.stored_version == room_b.stored_version, 3)
    stored = stored_polls(a, room_a.code)
    for polls in (room_a.polls, room_b.polls, stored):
        assert polls.counts() == expected
        assert sorted(polls.answered(), key=int) == sorted(last, key=int)
        assert {pid: polls.current.given(pid) for pid in last} == last
    assert "answer" in views_b.kinds and room_b.polls.current is shown_b
    print(
        f"answers: {len(learners)} learners x 3 on two processes, "
        f"{a.store.conflicts + b.store.conflicts - conflicts} conflicts retried"
    )
    # the teacher reveals on B; A's views hear it; every verdict is in the record once
    views_a = Views(room_a.polls)
    reveal = room_b.polls.reveal()
    assert wait_for(lambda: room_a.polls.current.revealed, 2)
    assert views_a.kinds == ["reveal"]
    for polls in (room_a.polls, room_b.polls, stored_polls(a, room_a.code)):
        for pid, answer in last.items():
            row = polls.record.row(pid)
            assert len(row.right) + len(row.wrong) == 1
            assert (len(row.right) == 1) == (answer == "red") == reveal.correct[pid]


def answer_at(start, room, pid, accepted, refused, errors):
    """One learner's answer as soon as ``start`` lets everyone go: accepted or refused."""
    from widgets.classroom.poll import PollError

    start.wait()
    try:
        room.polls.answer(str(pid), "red")
        accepted.append(str(pid))
    except PollError as error:
        refused.append((str(pid), error.key))
    except Exception as error:  # reported by the test
        errors.append(repr(error))


def test_an_answer_racing_the_reveal_is_counted_or_refused_never_lost(two):
    """Learners answer on B while the teacher reveals on A: an answer that was accepted is in
    the reveal and in the class record (once); one that came too late was refused in words."""
    a, b = two
    room_a, room_b, key, learners = a_big_class(a, b, each=4)
    on_b = [pid for pid, room in learners.items() if room is room_b]
    rights = dict.fromkeys(map(str, on_b), 0)
    for attempt in range(3):
        room_a.polls.push(WHO, room_a.learner_names())
        number = room_a.polls.current.number
        assert wait_for(lambda n=number: getattr(room_b.polls.current, "number", 0) == n, 2)
        accepted, refused, errors = [], [], []
        start = threading.Barrier(len(on_b) + 1)
        threads = [
            threading.Thread(target=answer_at, args=(start, room_b, pid, accepted, refused, errors))
            for pid in on_b
        ]
        for thread in threads:
            thread.start()
        start.wait()
        reveal = room_a.polls.reveal()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        for pid in accepted:
            rights[pid] += 1
        assert all(why == "poll.refused.revealed" for _, why in refused), refused
        assert sorted(accepted + [pid for pid, _ in refused]) == sorted(map(str, on_b))
        assert wait_for(lambda: room_a.stored_version == room_b.stored_version, 3)
        for where, polls in (
            ("A", room_a.polls),
            ("B", room_b.polls),
            ("database", stored_polls(a, room_a.code)),
        ):
            current = polls.current  # (each room's version is set once its refresh is done)
            assert current.revealed and current.number == number, (where, attempt, current)
            assert sorted(current.answered()) == sorted(accepted)
            for pid in on_b:  # each accepted answer recorded once (right: "red" is right)
                row = polls.record.row(str(pid))
                assert row.right == ("welcome/who-plays-next",) * rights[str(pid)]
                assert row.wrong == ()
        assert sorted(reveal.correct) == sorted(accepted)
        print(f"reveal race {attempt}: {len(accepted)} answers in, {len(refused)} too late")


def test_an_answer_overtaken_by_another_process_is_made_again(two):
    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    room_a.polls.push(WHO, room_a.learner_names())
    assert wait_for(lambda: room_b.polls.current is not None, 2)
    b.feed.unsubscribe(1)  # B deaf: its cache stays behind while Anna answers on A
    anna, ben = room_a.participant(anna_token), room_b.participant(ben_token)
    assert room_a.polls.answer(str(anna.id), "red") == "red"
    assert room_b.polls.answered() == ()
    conflicts = b.store.conflicts
    assert room_b.polls.answer(str(ben.id), "blue") == "blue"  # overtaken, made again
    assert b.store.conflicts == conflicts + 1
    for polls in (room_b.polls, stored_polls(a, room_a.code)):
        assert polls.counts()["red"] == 1 and polls.counts()["blue"] == 1
        assert sorted(polls.answered()) == sorted([str(anna.id), str(ben.id)])


def test_an_answer_to_a_question_replaced_meanwhile_is_refused(two):
    from widgets.classroom.poll import PollError

    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    room_a.polls.push(WHO, room_a.learner_names())
    assert wait_for(lambda: room_b.polls.current is not None, 2)
    b.feed.unsubscribe(1)
    room_a.polls.push(WHO, room_a.learner_names())  # a new question, B does not know yet
    ben = room_b.participant(ben_token)
    with pytest.raises(PollError) as refused:
        room_b.polls.answer(str(ben.id), "red")
    assert refused.value.key == "poll.refused.replaced"
    assert refused.value.text("de") != refused.value.text("en")
    assert room_b.polls.current.number == 2 and room_b.polls.answered() == ()
    assert stored_polls(a, room_a.code).answered() == ()


def test_a_learner_whose_process_died_finds_the_question_and_their_answer(two, postgres_url):
    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    room_a.polls.push(WHO, room_a.learner_names())
    assert wait_for(lambda: room_b.polls.current is not None, 2)
    ben = room_b.participant(ben_token)
    room_b.polls.answer(str(ben.id), "green")
    fresh = Process(postgres_url)  # B died; Ben's page reloads on C
    try:
        room_c = fresh.rooms.find(room_a.code)
        assert room_c.polls.current.given(str(ben.id)) == "green"
        assert room_c.polls.counts()["green"] == 1
        room_c.polls.reveal()  # the teacher's page, reloaded on C too
        assert wait_for(lambda: room_a.polls.current.revealed, 2)
        assert str(ben.id) in room_a.polls.record.learners()
        assert room_a.polls.record.row(str(ben.id)).wrong == ("welcome/who-plays-next",)
    finally:
        fresh.close()


def test_a_broken_questions_value_in_the_database_leaves_the_room_playing(two, caplog):
    a, b = two
    room_a, room_b, key, _, _ = a_class(a, b)
    room_a.polls.push(WHO, room_a.learner_names())
    assert wait_for(lambda: room_b.polls.current is not None, 2)
    with a.engine.begin() as db:  # a hostile value, written behind the tutor's back
        db.execute(
            rooms_table.update()
            .where(rooms_table.c.code == room_a.code)
            .values(
                polls='{"polls": [{"ref": "lesson:x", "learners": [[1]]}]}',
                version=rooms_table.c.version + 1,
            )
        )
    with caplog.at_level("WARNING", logger="widgets.classroom.store"):
        b.store.on_resync()
    assert room_b.polls.current is None
    assert any("class questions did not load" in r.getMessage() for r in caplog.records)
    assert room_b.play(key, room_b.table.state.legal_options()[0]) is None  # plays on
    assert wait_for(lambda: room_a.table.step == 1, 2)


def test_a_question_closed_on_one_process_leaves_the_others_pages(two):
    """The teacher closes the question on A: B's views are told "close" (a learner's page hides
    the card), B's current question is none, an answer there is refused as closed, and the
    database keeps it closed, revealed and in the class record."""
    from widgets.classroom.poll import PollError

    a, b = two
    room_a, room_b, key, anna_token, ben_token = a_class(a, b)
    room_a.polls.push(WHO, room_a.learner_names())
    assert wait_for(lambda: room_b.polls.current is not None, 2)
    ben = room_b.participant(ben_token)
    room_b.polls.answer(str(ben.id), "red")
    assert wait_for(lambda: room_a.polls.answered() == (str(ben.id),), 2)
    room_a.polls.reveal()
    assert wait_for(lambda: room_b.polls.current.revealed, 2)
    views_b = Views(room_b.polls)
    assert room_a.polls.close()
    assert wait_for(lambda: room_b.polls.current is None, 2), "B never heard of the close"
    assert "close" in views_b.kinds
    assert room_b.polls.last.closed and room_b.polls.last.number == 1
    with pytest.raises(PollError) as refused:
        room_b.polls.answer(str(room_b.participant(anna_token).id), "red")
    assert refused.value.key == "poll.refused.closed"
    stored = stored_polls(a, room_a.code)
    assert stored.current is None and stored.last.closed and stored.last.revealed
    assert stored.record.row(str(ben.id)).right == ("welcome/who-plays-next",)
