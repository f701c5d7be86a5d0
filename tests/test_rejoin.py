"""Coming back on another device (widgets/classroom/rejoin.py) and who is online
(widgets/classroom/presence.py), at their boundaries: the right PIN, a wrong one, the 5th and the
6th wrong PIN, a removed learner's name, the teacher letting in and refusing, two requests at
once, a store from before the PIN column, presence shared between two processes."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, insert, inspect, text

from nefertiti_core.engine.i18n import LANGUAGES
from widgets.classroom import rejoin
from widgets.classroom.presence import BEAT_S, Presence, SharedPresence
from widgets.classroom.rejoin import MAX_WRONG, MAX_WRONG_PER_CLIENT, WINDOW_S
from widgets.classroom.room import Refusal, Room, Rooms


class Clock:
    def __init__(self, now=1_800_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture()
def room():
    room, secret = Room.open(clock=Clock())
    room.secret = secret  # for the tests only: the room itself keeps its hash
    return room


def joined(room, name="Anna", lang="de"):
    """A learner who joined, as /join does it: their participant, token and PIN."""
    person, token, why = room.join(name, lang, device="d" * 22, code=room.join_code)
    assert why is None
    pin, why = rejoin.new_pin(room, token)
    assert why is None and len(pin) == 4 and pin.isdigit()
    return person, token, pin


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def refusal(result, key: str) -> Refusal:
    why = result[-1] if isinstance(result, tuple) else result
    assert isinstance(why, Refusal) and why.key == key, why
    for lang in LANGUAGES:  # a sentence in every language, its values filled in
        assert len(why.text(lang)) >= 8 and "{" not in why.text(lang)
    return why


def test_the_right_pin_moves_the_same_participant_to_the_new_device(room):
    anna, old_token, pin = joined(room)
    room.assign_seat(room.secret, anna.id, 2)
    assert rejoin.claimant(room, "anna").id == anna.id  # the name asks for a PIN, not "taken"
    person, token, new_pin, why = rejoin.with_pin(room, "Anna", pin, device="e" * 22)
    assert why is None and person is anna
    assert room.participant(token) is anna and room.participant(old_token) is None
    assert (anna.id, anna.seat, anna.lang, len(room.participants)) == (1, 2, "de", 1)
    assert new_pin != "" and rejoin.with_pin(room, "Anna", new_pin)[-1] is None
    # the PIN moves a seat once: the first one opens nothing any more (unless drawn again)
    if new_pin != pin:
        refusal(rejoin.with_pin(room, "Anna", pin), "room.refuse.pin_wrong")
    assert "pin" not in repr(room.participants).lower() or pin not in repr(room.participants)


def test_a_wrong_pin_is_refused_and_counted_and_a_slip_is_not(room):
    anna, token, pin = joined(room)
    why = refusal(rejoin.with_pin(room, "Anna", wrong(pin)), "room.refuse.pin_wrong")
    assert why.params == {"n": MAX_WRONG - 1}
    refusal(rejoin.with_pin(room, "Anna", "12a4"), "room.refuse.pin_form")
    refusal(rejoin.with_pin(room, "Anna", "x" * 5000), "room.refuse.pin_form")
    refusal(rejoin.with_pin(room, "Anna", None), "room.refuse.pin_form")
    assert rejoin.wrong_left(anna, room.clock()) == MAX_WRONG - 1
    assert room.participant(token) is anna


def test_the_5th_wrong_pin_locks_the_pin_and_the_6th_even_the_right_one(room):
    anna, token, pin = joined(room)
    for left in range(MAX_WRONG - 1, 0, -1):
        why = refusal(rejoin.with_pin(room, "Anna", wrong(pin)), "room.refuse.pin_wrong")
        assert why.params == {"n": left}
    refusal(rejoin.with_pin(room, "Anna", wrong(pin)), "room.refuse.pin_locked")  # the 5th
    refusal(rejoin.with_pin(room, "Anna", pin), "room.refuse.pin_locked")  # the 6th: right
    assert room.participant(token) is anna
    room.clock.now += WINDOW_S  # ten minutes later the PIN works again
    assert rejoin.with_pin(room, "Anna", pin)[-1] is None


def test_one_computer_trying_every_name_is_stopped_after_ten_wrong_pins(room):
    """Five wrong PINs per learner would let one computer try 150 PINs on a class of 30: the
    client address is counted too, whichever names it tries."""
    names = ("Anna", "Ben", "Chen", "Dana")
    learners = [joined(room, name) for name in names]
    tries = iter(
        (name, wrong(pin))
        for (_person, _token, pin), name in zip(learners, names, strict=True)
        for _ in range(MAX_WRONG - 1)  # below each learner's own cap
    )
    for _ in range(MAX_WRONG_PER_CLIENT):
        name, pin = next(tries)
        rejoin.with_pin(room, name, pin, client="203.0.113.9")
    _dana, dana_token, dana_pin = learners[3]
    # Dana has taken no wrong PIN; this computer has taken ten: even her right PIN is refused
    assert rejoin.wrong_left(learners[3][0], room.clock()) == MAX_WRONG
    refusal(
        rejoin.with_pin(room, "Dana", dana_pin, client="203.0.113.9"),
        "room.refuse.pin_client_locked",
    )
    assert room.participant(dana_token) is learners[3][0]
    # another computer is not held back, and ten minutes later this one may try again
    assert rejoin.with_pin(room, "Dana", dana_pin, client="198.51.100.7")[-1] is None
    _ben, _ben_token, ben_pin = learners[1]
    room.clock.now += WINDOW_S
    assert rejoin.with_pin(room, "Ben", ben_pin, client="203.0.113.9")[-1] is None


def test_the_count_per_computer_forgets_the_oldest_addresses_first():
    guesses = rejoin.ClientGuesses(limit=1, max_keys=3)
    room, _secret = Room.open(clock=Clock())
    for k in range(5):
        guesses.wrong(room, f"10.0.0.{k}", 100.0)
    assert guesses.left(room, "10.0.0.0", 100.0) == 1  # forgotten: at most 3 kept
    assert guesses.left(room, "10.0.0.4", 100.0) == 0
    assert guesses.left(room, "10.0.0.4", 100.0 + WINDOW_S) == 1


def test_the_teachers_leave_still_works_after_the_pin_locked(room):
    anna, _token, pin = joined(room)
    for _ in range(MAX_WRONG):
        rejoin.with_pin(room, "Anna", wrong(pin))
    person_id, request, why = rejoin.ask(room, "Anna")
    assert why is None and person_id == anna.id
    assert rejoin.answer(room, room.secret, anna.id, True) is None
    assert room.participant(request) is anna and rejoin.wrong_left(anna, room.clock()) == MAX_WRONG


def test_a_removed_learner_is_refused_with_their_pin_and_by_asking(room):
    anna, _token, pin = joined(room)
    room.remove(room.secret, anna.id)
    refusal(rejoin.with_pin(room, "Anna", pin), "room.refuse.removed")
    refusal(rejoin.ask(room, "Anna"), "room.refuse.removed")
    refusal(rejoin.ask(room, "Ben", device="d" * 22), "room.refuse.removed")  # their device
    assert rejoin.claimant(room, "Anna") is None
    refusal(room.join("Anna", code=room.join_code), "room.refuse.removed")


def test_a_name_nobody_present_has_and_an_old_code_are_refused(room):
    joined(room)
    refusal(rejoin.with_pin(room, "Ben", "1234"), "room.refuse.rejoin_nobody")
    room.change_join_code(room.secret)
    refusal(rejoin.ask(room, "Anna", code=room.code), "room.refuse.old_code")


def test_the_teacher_lets_in_or_refuses_and_only_the_teacher(room):
    anna, old_token, _pin = joined(room)
    ben, ben_token, _ = joined(room, "Ben <b>", "zh")
    _, request, why = rejoin.ask(room, "Anna")
    assert why is None and [p.id for p in rejoin.asking(room)] == [anna.id]
    assert rejoin.request_state(room, anna.id, request) == "waiting"
    refusal(rejoin.answer(room, ben_token, anna.id, True), "room.refuse.teacher_only")
    refusal(rejoin.answer(room, room.secret, ben.id, True), "room.refuse.ask_gone")
    assert rejoin.answer(room, room.secret, anna.id, False) is None  # refused
    assert rejoin.request_state(room, anna.id, request) == "refused"
    assert room.participant(old_token) is anna and rejoin.asking(room) == []
    refusal(rejoin.answer(room, room.secret, anna.id, True), "room.refuse.ask_gone")
    _, request, _ = rejoin.ask(room, "Anna")  # asked again: let in
    assert rejoin.answer(room, room.secret, anna.id, True) is None
    assert rejoin.request_state(room, anna.id, request) == "in"
    assert room.participant(request) is anna and room.participant(old_token) is None
    assert rejoin.new_pin(room, request)[1] is None  # the new device gets its own PIN


def test_a_request_waits_ten_minutes_at_most(room):
    anna, _token, _pin = joined(room)
    _, request, _ = rejoin.ask(room, "Anna")
    refusal(rejoin.ask(room, "Anna"), "room.refuse.asked_already")
    room.clock.now += rejoin.ASK_TTL_S
    assert rejoin.asking(room) == [] and rejoin.request_state(room, anna.id, request) == "gone"
    refusal(rejoin.answer(room, room.secret, anna.id, True), "room.refuse.ask_gone")
    assert rejoin.ask(room, "Anna")[-1] is None


def test_two_requests_at_once_make_one_move_never_a_duplicate(room):
    anna, _token, pin = joined(room)
    results, start = [], threading.Barrier(8)

    def by_pin():
        start.wait()
        results.append(("pin", rejoin.with_pin(room, "Anna", pin)))

    def by_asking():
        start.wait()
        results.append(("ask", rejoin.ask(room, "Anna")))

    threads = [threading.Thread(target=f) for f in [by_pin] * 4 + [by_asking] * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    moved = [r for kind, r in results if kind == "pin" and r[-1] is None]
    asked = [r for kind, r in results if kind == "ask" and r[-1] is None]
    # one PIN move (the PIN then spent); a request waits at most once (a move answers the one
    # before it: a later ask may wait again), and there is still one Anna
    assert len(moved) == 1 and len(asked) >= 1 and len(rejoin.asking(room)) <= 1
    assert len(room.participants) == 1 and room.participant(moved[0][1]) is anna
    for _kind, result in results:
        if result[-1] is not None:
            assert result[-1].key in ("room.refuse.pin_wrong", "room.refuse.asked_already")


def test_the_moved_device_and_the_tries_are_kept_in_the_store(tmp_path):
    from widgets.classroom.room_store import connect

    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    anna, _token, pin = joined(room)
    rejoin.with_pin(room, "Anna", wrong(pin))
    _, request, _ = rejoin.ask(room, "Anna")
    store.flush()
    with engine.connect() as db:
        stored = db.execute(text("SELECT pin_hash, rejoin FROM classroom_participants")).one()
    assert pin not in stored.rejoin and len(stored.pin_hash) == 64 and request not in stored.rejoin
    again = Rooms()
    connect(again, engine)
    back = again.find(room.code)
    assert rejoin.wrong_left(back.participants[anna.id], room.clock()) == MAX_WRONG - 1
    assert rejoin.answer(back, key, anna.id, True) is None
    assert back.participant(request).id == anna.id
    store.stop()
    engine.dispose()


def test_a_store_from_before_the_pin_column_is_migrated(tmp_path):
    """A schema-4 store with a participant: opened, it gets ``pin_hash`` and ``rejoin``; the
    participant comes back without a PIN (only the teacher's leave moves them)."""
    from widgets.classroom.room_store import RoomStore
    from widgets.server.store import SCHEMA_VERSION, Store

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    Store(url).close()  # today's schema, then made as schema 4 had it
    engine = create_engine(url)
    room, key = Room.open()
    anna, token, _ = room.join("Anna", "de")
    now = datetime.now(UTC)
    with engine.begin() as db:
        db.execute(text("DROP TABLE IF EXISTS classroom_participants"))
        db.execute(
            text(
                "CREATE TABLE classroom_participants (room VARCHAR(16) NOT NULL, id INTEGER NOT "
                "NULL, name VARCHAR(100) NOT NULL, lang VARCHAR(8) NOT NULL, token_hash "
                "VARCHAR(64) NOT NULL, seat INTEGER, joined DATETIME NOT NULL, device_hash "
                "VARCHAR(64) DEFAULT '' NOT NULL, PRIMARY KEY (room, id))"
            )
        )
        db.execute(text("DELETE FROM nefertiti_schema"))
        db.execute(text("INSERT INTO nefertiti_schema (version) VALUES (1), (2), (3), (4)"))
        from widgets.classroom.room_store import rooms_table

        db.execute(
            insert(rooms_table).values(
                code=room.code, teacher_hash=room.teacher_hash,
                record=room.table.whole_record().dumps(), title="", paused=False, version=1,
                next_id=2, created=now, touched=now, polls="", admission="",
            )
        )  # fmt: skip
        db.execute(
            text(
                "INSERT INTO classroom_participants VALUES (:room, 1, 'Anna', 'de', :hash, NULL, "
                ":now, '')"
            ),
            {"room": room.code, "hash": anna.token_hash, "now": now},
        )
    engine.dispose()
    store = Store(url)
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("classroom_participants")}
        assert {"pin_hash", "rejoin"} <= columns
        with store.engine.connect() as db:
            versions = sorted(db.scalars(text("SELECT version FROM nefertiti_schema")))
        assert versions[-1] == SCHEMA_VERSION and 7 in versions
        rooms = Rooms()
        room_store = RoomStore(store.engine, rooms=rooms)
        assert room_store.load_into(rooms) == 1
        back = rooms.find(room.code)
        assert back.participant(token).pin_hash == ""
        refusal(rejoin.with_pin(back, "Anna", "1234"), "room.refuse.pin_none")
        _, request, _ = rejoin.ask(back, "Anna")
        assert rejoin.answer(back, key, 1, True) is None and back.participant(request) is not None
        room_store.stop()
    finally:
        store.close()


# ---------------------------------------------------------------------- who is online
def test_a_learner_is_online_while_a_page_is_open_and_away_after_the_last_closes():
    presence, heard = Presence(), []
    presence.subscribe("ROOM", lambda: heard.append(1))
    first = presence.arrive("ROOM", 1)
    second = presence.arrive("ROOM", 1)
    assert presence.online("ROOM", 1) and not presence.online("ROOM", 2) and len(heard) == 1
    first()
    first()  # leaving twice counts once
    assert presence.online("ROOM", 1)
    second()
    assert not presence.online("ROOM", 1) and len(heard) == 2


def test_presence_is_shared_between_processes_through_the_store(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    clock = Clock()
    here, there = Presence(), Presence()
    a = SharedPresence(engine, here, clock=clock, process="a")
    b = SharedPresence(engine, there, clock=clock, process="b")
    leave = here.arrive("ROOM", 1)
    a.beat()
    b.beat()
    assert there.online("ROOM", 1) and not there.online("ROOM", 2)
    clock.now += BEAT_S / 2  # not yet due: no write
    a.beat()
    with engine.connect() as db:
        seen = db.execute(text("SELECT seen FROM classroom_presence")).scalar_one()
    assert abs(datetime.fromisoformat(str(seen)).replace(tzinfo=UTC).timestamp() - 1.8e9) < 1
    leave()
    a.beat()  # its row goes
    b.beat()
    assert not there.online("ROOM", 1)
    # a process that died without a word: its row goes stale
    there.arrive("ROOM", 3)
    b.beat()
    a.beat()
    assert here.online("ROOM", 3)
    clock.now += 200
    a.beat()
    assert not here.online("ROOM", 3)
    engine.dispose()


# ---------------------------------------------------------------------- several processes
def test_wrong_pins_and_the_teachers_leave_count_across_processes(postgres_url):
    """Two server processes on one PostgreSQL database (test_room_store_pg.py's wiring): the
    wrong PINs typed through either count together, and a request made through one is let in
    by the teacher through the other."""
    from test_room_store_pg import Process

    from widgets.classroom.feed import wait_for

    a, b = Process(postgres_url), Process(postgres_url)
    try:
        room_a, key, _ = a.rooms.open()
        anna, token, pin = joined(room_a)
        room_b = b.rooms.find(room_a.code)
        for n in range(MAX_WRONG - 1):
            one = (room_a, room_b)[n % 2]
            refusal(rejoin.with_pin(one, "Anna", wrong(pin)), "room.refuse.pin_wrong")
        refusal(rejoin.with_pin(room_b, "Anna", wrong(pin)), "room.refuse.pin_locked")
        assert wait_for(
            lambda: rejoin.wrong_left(room_a.participants[anna.id], time.time()) == 0, 5
        )
        refusal(rejoin.with_pin(room_a, "Anna", pin), "room.refuse.pin_locked")
        _, request, why = rejoin.ask(room_a, "Anna")
        assert why is None
        assert wait_for(lambda: [p.id for p in rejoin.asking(room_b)] == [anna.id], 5)
        assert rejoin.answer(room_b, key, anna.id, True) is None
        assert wait_for(lambda: rejoin.request_state(room_a, anna.id, request) == "in", 5)
        assert room_a.participant(token) is None and len(room_a.participants) == 1
    finally:
        a.close()
        b.close()


def test_presence_is_shared_through_postgresql(postgres_url):
    engines = [create_engine(postgres_url) for _ in range(2)]
    here, there = Presence(), Presence()
    a = SharedPresence(engines[0], here, process="pg-a")
    b = SharedPresence(engines[1], there, process="pg-b")
    leave = here.arrive("PGROOM", 7)
    a.beat()
    b.beat()
    assert there.online("PGROOM", 7)
    leave()
    a.beat()
    b.beat()
    assert not there.online("PGROOM", 7)
    for engine in engines:
        engine.dispose()
