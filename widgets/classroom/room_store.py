"""The classroom's rooms in the store: after a restart the rooms are back, and every
participant's browser token opens the same participant in the same seat.

Two tables on the store's own ``metadata`` (``widgets.server.store``), in the same database as the saved
games (SQLite under ``$NEFERTITI_HOME`` by default, any SQLAlchemy URL otherwise):

* ``classroom_rooms``: the room's code (its identity), the teacher secret's hash (never the secret), the table's
  whole game record (format 2, as the saved games: every branch, the current branch and step),
  the staged position's name, paused or not, the room's version, when it was last used, and
  its class questions (``polls``, schema 3: ``Polls.as_dict()`` as JSON, at most
  ``MAX_POLLS_CHARS``; the questions asked, every answer, the reveals and the class record;
  read back through ``Polls.from_dict``, every answer checked again by the engine: a value
  that cannot be read is left out with a warning, the room loads without its questions) and
  who may join it (``admission``, schema 4, JSON: locked or closed, the removed learners' names
  and devices, and the join code when the teacher changed it, with the earlier ones);
* ``classroom_participants``: per room and participant id, the name, the language, the seat
  and the hash of the browser's token (never the token).

A room is written after it changes (a move, a join, a question asked or answered...), in one
background thread (at most every ``SAVE_DELAY_S``;
the changes in between are written together), never on the event loop; :func:`flush` writes
what is still pending (a server being stopped: atexit). Rooms unused for their time to live are
deleted when the rooms are read back. The learners' private copies are not kept (a copy is a
try-out; a learner comes back at the table).

**Several processes** (a PostgreSQL store; :class:`RoomStore` with a ``feed``): a room in a
process is a cache of the database's record, whose ``version`` column counts its changes
(``Room.stored_version`` is the version the cache mirrors). Each change is written at once, on
the thread that made it and with the room's lock held (``Room.commit``): one transaction that
updates the room only if its version is still the cached one (compare-and-set), rewrites its
participants and publishes ``code:version`` on the feed (``pg_notify``: the news leaves with the
commit). If another process got there first nothing is written, the room is re-read from the
database and the change is refused as stale (``room.refuse.stale``). Every process hears the
feed and re-reads a room it holds when its version moved on (the whole record, replayed through
the engine, when it changed; the class questions, when they changed, into the room's own
``Polls`` (``Polls.load``: only the questions that changed are read again), whose views
follow; the pages follow through the room's listeners); a room it does not hold is read
from the database the first time a page asks for its code (a learner whose process died,
sent to another by the load balancer, finds their room and seat there).
"""

from __future__ import annotations

import atexit
import json
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
    text,
)
from sqlalchemy.exc import SQLAlchemyError

from widgets.classroom.poll import Polls
from widgets.classroom.room import MAX_OLD_CODES, Participant, Room, Rooms, normal_code
from widgets.server.store import _OPEN_LOCK, get_store, metadata

log = logging.getLogger("widgets.classroom.store")

SAVE_DELAY_S = 0.4
MAX_RECORD_CHARS = 1_000_000
#: A room's class questions as JSON (50 questions to 60 learners and their record: ~0.4 MB).
MAX_POLLS_CHARS = 1_000_000

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
    # the class questions, their answers and the class record (Polls.as_dict(), JSON; schema 3)
    Column("polls", Text, nullable=False, default="", server_default=""),
    # who may join: locked or not, the removed learners' names and devices (JSON; schema 4)
    Column("admission", Text, nullable=False, default="", server_default=""),
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
    # the hash of the device's own id, "" for none (schema 4)
    Column("device_hash", String(64), nullable=False, default="", server_default=""),
)
TABLES = [rooms_table, participants_table]


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _seconds(value: datetime) -> float:
    if value.tzinfo is None:  # SQLite drops the zone
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def _polls_text(room: Room) -> str:
    """The room's class questions as stored (the room's lock held): ``Polls.as_dict()`` as
    JSON; past ``MAX_POLLS_CHARS`` only the current question is kept with the record (then
    nothing, said in the log)."""
    data = room.polls.as_dict()
    if not data["polls"] and not data["record"]:
        return ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if len(text) > MAX_POLLS_CHARS:
        data["polls"] = data["polls"][-1:]
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        if len(text) > MAX_POLLS_CHARS:
            log.warning("room %s: its class questions are too long to keep", room.code)
            return ""
        log.warning("room %s: only its current class question is kept", room.code)
    return text


def _polls_data(text) -> dict:
    """A room's stored class questions as data (``{}`` for none); ValueError past the limit."""
    if not text:
        return {}
    if not isinstance(text, str) or len(text) > MAX_POLLS_CHARS:
        raise ValueError(
            f"{len(text) if isinstance(text, str) else type(text).__name__} characters"
        )
    return json.loads(text)


def _polls(code: str, text) -> Polls | None:
    """A room's stored class questions read back (every answer checked again by the engine),
    or None for none; a value that cannot be read (broken, too long, hostile) is left out and
    said in the log: the room loads without its questions."""
    if not text:
        return None
    try:
        return Polls.from_dict(_polls_data(text))
    except Exception as error:  # never stops a room from loading
        log.warning("room %s: its class questions did not load: %s", code, str(error)[:200])
        return None


class RoomStore:
    """Writes rooms to the database (in a background thread) and reads them back."""

    def __init__(self, engine, feed=None, rooms: Rooms | None = None):
        """``feed``: rooms shared with other processes through it (see the module's doc):
        every change written at once with compare-and-set; ``rooms``: this process's rooms,
        re-read when the feed says another process changed one."""
        self.engine = engine
        self.feed = feed
        self.rooms = rooms
        self.conflicts = 0  # changes refused because another process wrote first
        self.refreshes = 0  # rooms re-read after another process's change
        self._records: dict[str, str] = {}  # per room: the record text it was last read at
        self._polls_texts: dict[str, str] = {}  # per room: its polls' text, as last read/written
        with engine.begin() as db:
            if engine.dialect.name == "postgresql":  # processes starting at once take turns
                db.execute(select(text(f"pg_advisory_xact_lock({_OPEN_LOCK})")))
            metadata.create_all(db, tables=TABLES)
        self._dirty: dict[str, Room] = {}
        self._lock = threading.Lock()
        # held for a whole flush: a flush at exit waits for the saver thread's write in progress
        # (that thread is a daemon and would be cut off mid-transaction, the room's change lost)
        self._flushing = threading.Lock()
        self._wake = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="room-saver", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ writing
    def track(self, room: Room) -> None:
        """Write ``room`` now and after each of its changes."""
        if self.feed is not None:
            self._share(room)
            self.save(room)
            return
        room.subscribe(lambda _version, what, room=room: self._changed(room, what))
        self.save(room)

    # ------------------------------------------------------------------ several processes
    def _share(self, room: Room) -> None:
        room.commit = self.commit

    def _snapshot(self, room: Room) -> tuple[str, dict, list[dict]]:
        """The room's row values and participants' rows (the room's lock held); the polls only
        when they changed since they were last written or read."""
        text, values, people = _rows(room)
        if values["polls"] == self._polls_texts.get(room.code):  # unchanged: not written again
            del values["polls"]
        return text, values, people

    def commit(self, room: Room, what: str) -> bool:
        """``Room.commit``: write the change just made to ``room`` if the database's record is
        still at ``room.stored_version`` and publish the news in the same transaction. False
        (and the room re-read from the database) when another process wrote first."""
        from sqlalchemy import update

        room.touched = room.clock()
        text, values, people = self._snapshot(room)
        if len(text) > MAX_RECORD_CHARS:
            log.warning("room %s: its game is too long to keep", room.code)
        expected = room.stored_version
        try:
            with self.engine.begin() as db:
                won = (
                    db.execute(
                        update(rooms_table)
                        .where(rooms_table.c.code == room.code)
                        .where(rooms_table.c.version == expected)
                        .values(version=expected + 1, **values)
                    ).rowcount
                    == 1
                )
                if won:
                    db.execute(
                        delete(participants_table).where(participants_table.c.room == room.code)
                    )
                    if people:
                        db.execute(insert(participants_table), people)
                    self.feed.publish(room.code, expected + 1, db)
        except (SQLAlchemyError, OSError) as error:
            # the database is away: the change stays in this process's room (its pages see
            # it) and is written with the room's next change, if no other process wrote first
            log.warning("room %s: a change was not written (kept here): %s", room.code, error)
            return True
        if won:
            room.stored_version = expected + 1
            self._records[room.code] = text
            if "polls" in values:
                self._polls_texts[room.code] = values["polls"]
            return True
        self.conflicts += 1
        # this process's change is in the room: the table and polls are read back whatever
        # the database's record says (even when it holds the same game as before the change)
        self._records.pop(room.code, None)
        self._polls_texts.pop(room.code, None)
        self.refresh(room)
        return False

    def _read(self, code: str):
        with self.engine.connect() as db:
            row = db.execute(select(rooms_table).where(rooms_table.c.code == code)).first()
            people = (
                db.execute(
                    select(participants_table).where(participants_table.c.room == code)
                ).all()
                if row is not None
                else []
            )
        return row, people

    def refresh(self, room: Room, force: bool = False) -> bool:
        """Re-read ``room`` from the database if its record moved past the cached version (or
        ``force``): the table (replayed only when its record changed), seats, people, pause;
        then the room's listeners hear it. True if it changed."""
        try:
            row, people = self._read(room.code)
        except (SQLAlchemyError, OSError) as error:
            log.warning("room %s was not re-read: %s", room.code, error)
            return False
        if row is None:
            return False
        with room.lock:
            if row.version <= room.stored_version and not force:
                return False
            table_changed = self._records.get(room.code) != row.record
            if table_changed:
                history = stored_history(row)
                if history is None:
                    return False
                room.table = history
                room.log_seen = len(history.state.log)  # the record has seen them (A's doing)
                self._records[room.code] = row.record
            before = _people_of(room)
            room.title, room.paused = row.title, bool(row.paused)
            _admission_into(room, row.admission)
            room.next_id = row.next_id
            room.touched = _seconds(row.touched)
            room.participants.clear()
            for p in people:
                seat = p.seat if p.seat is not None and p.seat < room.table.state.n else None
                room.participants[p.id] = Participant(
                    p.id, p.name, p.lang, p.token_hash, seat, _seconds(p.joined), p.device_hash
                )
            for gone in [i for i in room.private_tables if i not in room.participants]:
                del room.private_tables[gone]
            polls_changed = self._polls_texts.get(room.code) != row.polls
            if polls_changed:
                polls_kind = self._take_polls(room, row.polls)
            room.stored_version = row.version  # last: the room is the record's once it says so
            self.refreshes += 1
            if table_changed:
                room.notify("table")
            if table_changed or before != _people_of(room):
                room.notify("people")
            if polls_changed:
                room.notify("polls")
                room.polls.changed(polls_kind)
        return True

    def _take_polls(self, room: Room, text: str) -> str:
        """The database's polls into the room's own :class:`Polls` (the pages' views follow that
        object); what kind of change it is for the views: ``push`` for a new question (a
        learner's page then shows the card), ``reveal``, ``answer``, or ``record`` (only the
        class record: the rules a move named)."""
        self._polls_texts[room.code] = text
        old = room.polls.current
        was = old.as_dict() if old is not None else None
        try:
            room.polls.load(_polls_data(text))
        except Exception as error:  # the room goes on without them
            log.warning(
                "room %s: its class questions did not load: %s", room.code, str(error)[:200]
            )
            room.polls.load({})
        new = room.polls.current
        now = new.as_dict() if new is not None else None
        if now == was:
            return "record"
        if now is None or was is None or (now["number"], now["ref"]) != (was["number"], was["ref"]):
            return "push"
        return "reveal" if now["revealed"] and not was["revealed"] else "answer"

    def _code_of(self, code: str) -> str:
        """The identity of the stored room whose join code (current or earlier) is ``code``, or
        ``code`` itself (the admission's JSON holds them: a room's identity is its key)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(rooms_table.c.code, rooms_table.c.admission).where(
                    rooms_table.c.admission.contains(f'"{code}"')
                )
            ).all()
        for row in rows:
            join_code, old_codes = _join_codes(row.code, row.admission)
            if code == join_code or code in old_codes:
                return row.code
        return code

    def load_one(self, code: str) -> Room | None:
        """The room known by ``code`` (its identity or a join code) read from the database
        (another process opened it), shared."""
        try:
            row, people = self._read(code)
            if row is None:
                row, people = self._read(self._code_of(code))
        except (SQLAlchemyError, OSError) as error:
            log.warning("room %s was not read: %s", code, error)
            return None
        if row is None or self.rooms is None:
            return None
        room = self._room(row, people, self.rooms)
        if room is None or room.expired():
            return None
        self._share(room)
        return room

    def _room(self, row, people, rooms: Rooms) -> Room | None:
        history = stored_history(row)
        if history is None:
            return None
        room = Room(row.code, row.teacher_hash, history, clock=rooms.clock, ttl_s=rooms.ttl_s)
        room.title, room.paused = row.title, bool(row.paused)
        _admission_into(room, row.admission)
        room.version = room.stored_version = row.version
        room.next_id = row.next_id
        room.created, room.touched = _seconds(row.created), _seconds(row.touched)
        for p in people:
            seat = p.seat if p.seat is not None and p.seat < history.state.n else None
            room.participants[p.id] = Participant(
                p.id, p.name, p.lang, p.token_hash, seat, _seconds(p.joined), p.device_hash
            )
        room.polls = _polls(row.code, row.polls) or Polls()  # its participants in the record
        self._records[row.code] = row.record
        self._polls_texts[row.code] = row.polls
        return room

    def on_feed(self, code: str, version: int) -> None:
        """The feed's news: re-read the room if this process holds it at an older version."""
        room = self.rooms.held(code) if self.rooms is not None else None
        if room is not None and version > room.stored_version:
            self.refresh(room)

    def on_resync(self) -> None:
        """The feed was away: re-read every room this process holds."""
        for room in list(self.rooms or ()):
            self.refresh(room)

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
        with self._flushing:
            with self._lock:
                rooms, self._dirty = list(self._dirty.values()), {}
            for room in rooms:
                self.save(room)
        return len(rooms)

    def save(self, room: Room) -> bool:
        try:
            with room.lock:  # a consistent snapshot (the page's thread holds it to change)
                text, values, people = _rows(room)
                values["version"] = room.stored_version if self.feed else room.version
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
        with self.engine.connect() as db:
            rows = db.execute(select(rooms_table)).all()
            people = db.execute(select(participants_table)).all()
        by_room: dict[str, list] = {}
        for row in people:
            by_room.setdefault(row.room, []).append(row)
        back, gone = 0, []
        for row in rows:
            room = self._room(row, by_room.get(row.code, []), rooms)
            if room is None:
                continue
            if room.expired():
                gone.append(row.code)
                continue
            rooms.add(room)
            if self.feed is not None:
                self._share(room)
            else:
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


def _people_of(room: Room) -> tuple:
    """What the pages show of the room's people (refresh tells them only when it changed)."""
    people = tuple((p.id, p.name, p.lang, p.seat) for p in room.participants.values())
    return people, room.paused, room.title, room.locked, room.join_code


def _admission_text(room: Room) -> str:
    """Who may join the room, as stored ("" for an open room that removed no one and joins by
    its own code); a join code the teacher gave it, and the earlier ones, are kept here."""
    changed_code = room.join_code != room.code
    if not (
        room.locked
        or room.closed
        or room.opened_by
        or room.banned_names
        or room.banned_devices
        or changed_code
    ):
        return ""
    data = {
        "locked": room.locked,
        "closed": room.closed,
        "opened_by": room.opened_by,
        "banned_names": sorted(room.banned_names),
        "banned_devices": sorted(room.banned_devices),
    }
    if changed_code:
        data.update(join_code=room.join_code, old_codes=room.old_codes)
    return json.dumps(data)


def _join_codes(code: str, text: str) -> tuple[str, list[str]]:
    """A stored room's join code and earlier ones (its identity and none, unless changed); a
    value that is not a code is left out."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    join_code = normal_code(data.get("join_code")) or code
    old = data.get("old_codes")
    old = [normal_code(c) for c in old[:MAX_OLD_CODES]] if isinstance(old, list) else []
    return join_code, [c for c in old if c and c not in (code, join_code)]


def _admission_into(room: Room, text: str) -> None:
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        log.warning("room %s: its admission list did not read; the room stays open", room.code)
        data = {}
    room.locked = bool(data.get("locked", False))
    room.closed = bool(data.get("closed", False))
    room.opened_by = str(data.get("opened_by", ""))
    room.banned_names = {str(n) for n in data.get("banned_names", [])}
    room.banned_devices = {str(d) for d in data.get("banned_devices", [])}
    room.join_code, room.old_codes = _join_codes(room.code, text)


def _rows(room: Room) -> tuple[str, dict, list[dict]]:
    """The room's game record text, its row's values (without the version) and its
    participants' rows (the room's lock held)."""
    text = room.table.whole_record().dumps()
    values = dict(
        teacher_hash=room.teacher_hash, record=text, title=room.title[:100],
        paused=room.paused, next_id=room.next_id,
        created=_when(room.created), touched=_when(room.touched), polls=_polls_text(room),
        admission=_admission_text(room),
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
            device_hash=p.device_hash,
        )  # fmt: skip
        for p in room.participants.values()
    ]
    return text, values, people


def stored_history(row):
    """The table of a stored room (its whole record replayed through the engine), or None."""
    from nefertiti_core.files.history import record_from_data
    from nefertiti_core.files.yaml_subset import loads

    try:
        doc = loads(row.record)
        record = record_from_data(doc.data, f"room {row.code}", doc)
        record.start.log = []
        return record.replay(source=f"room {row.code}")
    except Exception as error:  # a room that no longer loads is left out, said why
        log.warning("room %s did not load: %s", row.code, error)
        return None


_room_store: RoomStore | None = None


def connect(rooms: Rooms, engine=None, feed=None) -> RoomStore | None:
    """Keep ``rooms`` in the process's store (``widgets.server.store.get_store()``; or ``engine``):
    the rooms it holds come back, each new room is tracked. On a PostgreSQL store (or with a
    ``feed``) the rooms are shared with the other processes (see the module's doc). None if
    there is no store (the classroom then works without it)."""
    global _room_store
    if engine is None:
        store = get_store()
        if store is None:
            return None
        engine = store.engine
        if feed is None and store.dialect == "postgresql":
            from widgets.classroom.feed import get_feed

            feed = get_feed()
    try:
        room_store = RoomStore(engine, feed=feed, rooms=rooms)
        back = room_store.load_into(rooms)
    except SQLAlchemyError as error:
        log.error("classroom rooms are not kept: %s", error)
        return None
    if back:
        log.info("%d classroom room(s) back from the store", back)
    rooms.on_open = room_store.track
    if feed is not None:
        rooms.loader = room_store.load_one
        feed.subscribe(room_store.on_feed, room_store.on_resync)
    _room_store = room_store
    return room_store


@atexit.register
def flush() -> int:
    """Write what is still pending (a server being stopped)."""
    return _room_store.flush() if _room_store is not None else 0
