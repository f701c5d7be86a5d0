"""The classroom's rooms in the store (#16 item 5): after a restart the rooms are back, and every
participant's browser token opens the same participant in the same seat.

Two tables on the store's own ``metadata`` (``widgets.store``), in the same database as the saved
games (SQLite under ``$NEFERTITI_HOME`` by default, any SQLAlchemy URL otherwise):

* ``classroom_rooms``: the join code, the teacher secret's hash (never the secret), the table's
  whole game record (format 2, as the saved games: every branch, the current branch and step),
  the staged position's name, paused or not, the room's version and when it was last used;
* ``classroom_participants``: per room and participant id, the name, the language, the seat
  and the hash of the browser's token (never the token).

A room is written after it changes, in one background thread (at most every ``SAVE_DELAY_S``;
the changes in between are written together), never on the event loop; :func:`flush` writes
what is still pending (a server being stopped: atexit). Rooms unused for their time to live are
deleted when the rooms are read back. The learners' private copies are not kept (a copy is a
try-out; a learner comes back at the table).
"""

from __future__ import annotations

import atexit
import logging
import threading
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
)
from sqlalchemy.exc import SQLAlchemyError

from ..store import get_store, metadata
from .room import Participant, Room, Rooms

log = logging.getLogger("widgets.classroom.store")

SAVE_DELAY_S = 0.4
MAX_RECORD_CHARS = 1_000_000

rooms_table = Table(
    "classroom_rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("teacher_hash", String(64), nullable=False),
    Column("record", Text, nullable=False),  # the table's whole game record (format 2)
    Column("title", String(100), nullable=False, default=""),
    Column("paused", Boolean, nullable=False, default=False),
    Column("version", Integer, nullable=False, default=0),
    Column("next_id", Integer, nullable=False, default=1),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("touched", DateTime(timezone=True), nullable=False, index=True),
)
participants_table = Table(
    "classroom_participants",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("joined", DateTime(timezone=True), nullable=False),
)
TABLES = [rooms_table, participants_table]


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _seconds(value: datetime) -> float:
    if value.tzinfo is None:  # SQLite drops the zone
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


class RoomStore:
    """Writes rooms to the database (in a background thread) and reads them back."""

    def __init__(self, engine):
        self.engine = engine
        metadata.create_all(engine, tables=TABLES)
        self._dirty: dict[str, Room] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="room-saver", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ writing
    def track(self, room: Room) -> None:
        """Write ``room`` now and after each of its changes."""
        room.subscribe(lambda _version, what, room=room: self._changed(room, what))
        self.save(room)

    def _changed(self, room: Room, what: str) -> None:
        if what.startswith("private:"):
            return  # private copies are not kept
        with self._lock:
            self._dirty[room.code] = room
        self._wake.set()

    def _run(self) -> None:
        while not self._stopped:
            self._wake.wait()
            self._wake.clear()
            if self._stopped:
                break
            threading.Event().wait(SAVE_DELAY_S)  # the changes of the next moments together
            self.flush()

    def flush(self) -> int:
        """Write every room with unsaved changes; returns how many."""
        with self._lock:
            rooms, self._dirty = list(self._dirty.values()), {}
        for room in rooms:
            self.save(room)
        return len(rooms)

    def save(self, room: Room) -> bool:
        try:
            with room.lock:  # a consistent snapshot (the page's thread holds it to change)
                text = room.table.whole_record().dumps()
                values = dict(
                    teacher_hash=room.teacher_hash, record=text, title=room.title[:100],
                    paused=room.paused, version=room.version, next_id=room._next_id,
                    created=_when(room.created), touched=_when(room.touched),
                )  # fmt: skip
                people = [
                    dict(
                        room=room.code,
                        id=p.id,
                        name=p.name,
                        lang=p.lang,
                        token_hash=p.token_hash,
                        seat=p.seat,
                        joined=_when(p.joined),
                    )  # fmt: skip
                    for p in room.participants.values()
                ]
            if len(text) > MAX_RECORD_CHARS:
                log.warning("room %s: its game is too long to keep", room.code)
                return False
            with self.engine.begin() as db:
                db.execute(delete(rooms_table).where(rooms_table.c.code == room.code))
                db.execute(insert(rooms_table).values(code=room.code, **values))
                db.execute(delete(participants_table).where(participants_table.c.room == room.code))
                if people:
                    db.execute(insert(participants_table), people)
            return True
        except (SQLAlchemyError, OSError) as error:
            log.warning("room %s was not saved: %s", room.code, error)
            return False

    # ------------------------------------------------------------------ reading
    def load_into(self, rooms: Rooms) -> int:
        """Read every room back into ``rooms`` (and track it); rooms past their time to live
        are deleted instead. Returns how many came back."""
        from nefertiti_core.files.history import record_from_data
        from nefertiti_core.files.yaml_subset import loads

        with self.engine.connect() as db:
            rows = db.execute(select(rooms_table)).all()
            people = db.execute(select(participants_table)).all()
        by_room: dict[str, list] = {}
        for row in people:
            by_room.setdefault(row.room, []).append(row)
        back, gone = 0, []
        for row in rows:
            try:
                doc = loads(row.record)
                record = record_from_data(doc.data, f"room {row.code}", doc)
                record.start.log = []
                history = record.replay(source=f"room {row.code}")
            except Exception as error:  # a room that no longer loads is left out, said why
                log.warning("room %s did not load: %s", row.code, error)
                continue
            room = Room(row.code, row.teacher_hash, history, clock=rooms._clock, ttl_s=rooms.ttl_s)
            room.title, room.paused = row.title, bool(row.paused)
            room.version = row.version
            room._next_id = row.next_id
            room.created, room.touched = _seconds(row.created), _seconds(row.touched)
            if room.expired():
                gone.append(row.code)
                continue
            for p in by_room.get(row.code, []):
                seat = p.seat if p.seat is not None and p.seat < history.state.n else None
                room.participants[p.id] = Participant(
                    p.id, p.name, p.lang, p.token_hash, seat, _seconds(p.joined)
                )
            rooms.add(room)
            room.subscribe(lambda _v, what, room=room: self._changed(room, what))
            back += 1
        if gone:
            with self.engine.begin() as db:
                db.execute(delete(participants_table).where(participants_table.c.room.in_(gone)))
                db.execute(delete(rooms_table).where(rooms_table.c.code.in_(gone)))
        return back

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()
        self.flush()


_room_store: RoomStore | None = None


def connect(rooms: Rooms, engine=None) -> RoomStore | None:
    """Keep ``rooms`` in the process's store (``widgets.store.get_store()``; or ``engine``):
    the rooms it holds come back, each new room is tracked. None if there is no store (the
    classroom then works without it)."""
    global _room_store
    if engine is None:
        store = get_store()
        if store is None:
            return None
        engine = store.engine
    try:
        room_store = RoomStore(engine)
        back = room_store.load_into(rooms)
    except SQLAlchemyError as error:
        log.error("classroom rooms are not kept: %s", error)
        return None
    if back:
        log.info("%d classroom room(s) back from the store", back)
    rooms.on_open = room_store.track
    _room_store = room_store
    return room_store


@atexit.register
def flush() -> int:
    """Write what is still pending (a server being stopped)."""
    return _room_store.flush() if _room_store is not None else 0
