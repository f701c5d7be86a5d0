"""The classroom's rooms in the store: after a restart the rooms are back, and every
participant's browser token opens the same participant in the same seat.

Two tables on the store's own ``metadata`` (``widgets.server.store``), in the same database as the saved
games (SQLite under ``$NEFERTITI_HOME`` by default, any SQLAlchemy URL otherwise):

* ``classroom_rooms``: the room's code (its identity), the teacher secret's hash (never the
  secret; nor the projector link's token, whose hash is in ``admission``), the table's
  whole game record (format 2, as the saved games: every branch, the current branch and step),
  the staged position's name, paused or not, the room's version, when it was last used, and
  its class questions (``polls``, schema 3: ``Polls.as_dict()`` as JSON, at most
  ``MAX_POLLS_CHARS``; the questions asked, every answer, the reveals and the class record;
  read back through ``Polls.from_dict``, every answer checked again by the engine: a value
  that cannot be read is left out with a warning, the room loads without its questions) and
  who may join it (``admission``, schema 4, JSON: locked or closed, the removed learners' names
  and devices, and the join code when the teacher changed it, with the earlier ones), its
  chapters (``chapters``, schema 5, JSON: ``widgets.classroom.chapters.chapters_text``; the
  table's record is the current chapter's game, the others' games are in the JSON; a value that
  cannot be read leaves the room with its table as the class game, said in the log) and the
  teacher's marks on the board (``marks``, schema 6, JSON: ``widgets.classroom.marks``);
* ``classroom_participants``: per room and participant id, the name, the language, the seat
  and the hash of the browser's token (never the token).

A room's change is written before the room tells anyone of it (``Room.commit``: the change is
made and written with the room's lock held, then the pages hear it; the pages make their changes
off the event loop, ``widgets.classroom.table.ROOM_WORK``), so a change a page has shown is in
the store and survives a SIGKILL of the server. A write that fails (the database away, the disk
full or read-only) keeps the change in the room (``room.storage`` says it is not saved, and the
teacher's page says so) and is tried again every ``RETRY_S`` by one background thread until one
succeeds; :func:`flush` tries them at once (a server being stopped: atexit). Rooms unused for
their time to live are deleted when the rooms are read back. The learners' private copies are
not kept (a copy is a try-out; a learner comes back at the table).

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

from widgets.classroom.chapters import chapters_text, read_chapters
from widgets.classroom.marks import marks_from_text, marks_text
from widgets.classroom.poll import Polls
from widgets.classroom.room import (
    MAX_OLD_CODES,
    Participant,
    Room,
    Rooms,
    normal_code,
    on_event_loop,
)
from widgets.server.store import _OPEN_LOCK, error_line, get_store, metadata, store_error

log = logging.getLogger("widgets.classroom.store")

#: A write that failed (the database away, the disk full or read-only) is tried again this often.
RETRY_S = 3.0
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
    # who may join: locked or not, the removed learners' names and devices (JSON; schema 4);
    # who may see the projector view: the projector link's hash and number (no new column)
    Column("admission", Text, nullable=False, default="", server_default=""),
    # the chapters beside the table's (chapters.chapters_text, JSON; schema 5)
    Column("chapters", Text, nullable=False, default="", server_default=""),
    # the teacher's marks on the board (marks.py: JSON; schema 6)
    Column("marks", Text, nullable=False, default="", server_default=""),
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
    # coming back on another device (schema 7, widgets/classroom/rejoin.py): the PIN's hash and
    # the wrong PINs' times with the request waiting for the teacher (JSON), "" for none
    Column("pin_hash", String(64), nullable=False, default="", server_default=""),
    Column("rejoin", Text, nullable=False, default="", server_default=""),
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
        self._chapters_texts: dict[str, str] = {}  # per room: its chapters' text, as last read
        with engine.begin() as db:
            if engine.dialect.name == "postgresql":  # processes starting at once take turns
                db.execute(select(text(f"pg_advisory_xact_lock({_OPEN_LOCK})")))
            metadata.create_all(db, tables=TABLES)
        self._retry: dict[str, Room] = {}  # rooms whose last write failed
        self._lock = threading.Lock()
        # held for a whole flush: a flush at exit waits for the saver thread's write in progress
        # (that thread is a daemon and would be cut off mid-transaction, the room's change lost)
        self._flushing = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="room-saver", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ writing
    def track(self, room: Room) -> None:
        """Write ``room`` now and each of its changes before anyone is told of it."""
        self._share(room)
        self.save(room)

    def _share(self, room: Room) -> None:
        room.commit = self.commit if self.feed is not None else self.write_through

    # ------------------------------------------------------------------ one process
    def write_through(self, room: Room, what: str) -> bool:
        """``Room.commit`` with one process: the change is written before the room tells anyone
        of it (the room's lock held; the pages make their changes off the event loop), so a
        change a page has shown survives a SIGKILL. A failed write keeps the change here (the
        pages show "not saved") and is tried again every ``RETRY_S``; always True."""
        _never_on_the_loop(room)
        room.storage.waiting()
        self.save(room, told=True)
        return True

    # ------------------------------------------------------------------ several processes

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

        _never_on_the_loop(room)
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
            # it, the teacher's says it is not saved) and is written when the database is
            # back (tried again every RETRY_S, and with the room's next change), if no other
            # process wrote first
            log.warning(
                "room %s: a change was not written (kept here): %s", room.code, error_line(error)
            )
            self._failed(room, error)
            return True
        if won:
            room.storage.written()
            self._retry.pop(room.code, None)
            room.stored_version = expected + 1
            self._records[room.code] = text
            self._chapters_texts[room.code] = values["chapters"]
            if "polls" in values:
                self._polls_texts[room.code] = values["polls"]
            return True
        self.conflicts += 1
        # this process's change is in the room: the table and polls are read back whatever
        # the database's record says (even when it holds the same game as before the change)
        self._records.pop(room.code, None)
        self._polls_texts.pop(room.code, None)
        self._chapters_texts.pop(room.code, None)
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
            if self._chapters_texts.get(room.code) != row.chapters:
                table_changed = _chapters_into(room, row) or table_changed
                self._chapters_texts[room.code] = row.chapters
            _admission_into(room, row.admission)
            room.next_id = row.next_id
            room.touched = _seconds(row.touched)
            # one assignment: a page reading the room meanwhile (no lock) sees the old or the new
            room.participants = _participants(people, room.table.state.n)
            for gone in [i for i in room.private_tables if i not in room.participants]:
                del room.private_tables[gone]
            marks_changed = marks_text(room.marks) != (row.marks or "")
            if marks_changed:
                room.marks = marks_from_text(room.code, row.marks, room.table.state.side)
            polls_changed = self._polls_texts.get(room.code) != row.polls
            if polls_changed:
                polls_kind = self._take_polls(room, row.polls)
            room.stored_version = row.version  # last: the room is the record's once it says so
            self.refreshes += 1
            if table_changed:
                room.notify("table")
            if table_changed or before != _people_of(room):
                room.notify("people")
            if marks_changed:
                room.notify("marks")
            if polls_changed:
                room.notify("polls")
                room.polls.changed(polls_kind)
        return True

    def _take_polls(self, room: Room, text: str) -> str:
        """The database's polls into the room's own :class:`Polls` (the pages' views follow that
        object); what kind of change it is for the views: ``push`` for a new question (a
        learner's page then shows the card), ``close`` (the card goes), ``reveal``, ``answer``,
        or ``record`` (only the class record: the rules a move named)."""
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
        last = room.polls.last
        if now is None and was is not None and last is not None and last.closed:
            return "close" if last.number == was["number"] else "push"
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
        room.participants = _participants(people, history.state.n)
        room.marks = marks_from_text(row.code, row.marks, history.state.side)
        room.polls = _polls(row.code, row.polls) or Polls()  # its participants in the record
        _chapters_into(room, row)
        self._records[row.code] = row.record
        self._chapters_texts[row.code] = row.chapters
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

    def _failed(self, room: Room, error: BaseException) -> None:
        """A write of ``room`` failed: the room says so (its pages show it) and it is tried
        again every ``RETRY_S`` until one succeeds (the room's lock held)."""
        room.storage.waiting()
        room.storage.failed = error_line(error)
        with self._lock:
            self._retry[room.code] = room
        self._wake.set()

    def _run(self) -> None:
        """The saver thread: rooms whose write failed are written again every ``RETRY_S``."""
        while not self._stopped:
            self._wake.wait()
            self._wake.clear()
            while self._retry and not self._stopped:
                self._stopping.wait(RETRY_S)
                if not self._stopped:
                    self.flush()

    def flush(self) -> int:
        """Write again every room whose last write failed; returns how many were tried."""
        with self._flushing:
            with self._lock:
                rooms, self._retry = list(self._retry.values()), {}
            for room in rooms:
                if self.feed is None:
                    self.save(room)
                else:
                    with room.lock:  # as a change would: a snapshot, compare-and-set, the news
                        self.commit(room, "retry")
        return len(rooms)

    def save(self, room: Room, told: bool = False) -> bool:
        """Write the whole room (its lock held for the snapshot); ``told``: a change about to be
        told (its listeners will see the next version)."""
        try:
            with room.lock:  # a consistent snapshot (the page's thread holds it to change)
                text, values, people = _rows(room)
                version = room.version + told
                values["version"] = room.stored_version if self.feed else version
            if len(text) > MAX_RECORD_CHARS:
                log.warning("room %s: its game is too long to keep", room.code)
                room.storage.waiting()
                room.storage.failed = f"its game is longer than {MAX_RECORD_CHARS:,} characters"
                return False
            with self.engine.begin() as db:
                db.execute(delete(rooms_table).where(rooms_table.c.code == room.code))
                db.execute(insert(rooms_table).values(code=room.code, **values))
                db.execute(delete(participants_table).where(participants_table.c.room == room.code))
                if people:
                    db.execute(insert(participants_table), people)
        except (SQLAlchemyError, OSError) as error:
            log.warning("room %s was not saved: %s", room.code, error_line(error))
            self._failed(room, error)
            return False
        with room.lock:
            if room.version in (version, version - told):  # nothing changed since: all written
                room.storage.written()
        return True

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
            self._share(room)
            back += 1
        if gone:
            with self.engine.begin() as db:
                db.execute(delete(participants_table).where(participants_table.c.room.in_(gone)))
                db.execute(delete(rooms_table).where(rooms_table.c.code.in_(gone)))
        return back

    def stop(self) -> None:
        self._stopped = True
        self._stopping.set()
        self._wake.set()
        self.flush()


def _never_on_the_loop(room: Room) -> None:
    """A change written on the server's event loop would hold every page while the database
    answers: the pages make their changes off it (widgets.classroom.room_work). Said in the log
    if one ever is (the browser tests fail on this line)."""
    if on_event_loop():
        log.error("room %s: a change was written on the event loop", room.code)


def _participants(rows, seats: int) -> dict[int, Participant]:
    """The participants' rows as the room holds them (a seat past the table's seats: none)."""
    return {
        p.id: Participant(
            p.id,
            p.name,
            p.lang,
            p.token_hash,
            p.seat if p.seat is not None and p.seat < seats else None,
            _seconds(p.joined),
            p.device_hash,
            pin_hash=p.pin_hash or "",
            rejoin=_rejoin_data(p.rejoin),
        )
        for p in rows
    }


def _rejoin_data(text) -> dict:
    """A participant's stored wrong PINs and waiting request ({} for none or unreadable)."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _people_of(room: Room) -> tuple:
    """What the pages show of the room's people (refresh tells them only when it changed)."""
    people = tuple(
        (p.id, p.name, p.lang, p.seat, p.token_hash, json.dumps(p.rejoin, sort_keys=True))
        for p in room.participants.values()
    )
    return people, room.paused, room.title, room.locked, room.projector_links, room.join_code


def _chapters_into(room: Room, row) -> bool:
    """The stored chapters into ``room`` (its table is the current chapter's game); a value that
    cannot be read leaves the table as the class game (a warning in the log). Break-aways the
    teacher ended in another process end here too. True when the table's chapter changed."""
    chapters, _warning = read_chapters(row.chapters, room.code)
    before = room.chapters.current
    if chapters.recalls != room.chapters.recalls or chapters.current != before:
        room.private_tables.clear()  # a copy of a position the table no longer shows
    room.chapters = chapters
    room.title = chapters.shown.name
    return chapters.current != before


def _admission_text(room: Room) -> str:
    """Who may join the room and see its projector view, as stored ("" for an open room that
    removed no one, made no projector link and joins by its own code); a join code the teacher
    gave it, and the earlier ones, are kept here."""
    changed_code = room.join_code != room.code
    kept = (room.locked, room.closed, room.opened_by, room.banned_names, room.banned_devices)
    if not any(kept) and not room.projector_hash and not changed_code:
        return ""
    data = {
        "locked": room.locked,
        "closed": room.closed,
        "opened_by": room.opened_by,
        "banned_names": sorted(room.banned_names),
        "banned_devices": sorted(room.banned_devices),
        # the projector link: its token's hash (never the token) and its number
        "projector_hash": room.projector_hash,
        "projector_links": room.projector_links,
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
    projector_hash = data.get("projector_hash", "")
    links = data.get("projector_links", 0)
    valid = isinstance(projector_hash, str) and len(projector_hash) == 64
    room.projector_hash = projector_hash if valid else ""
    room.projector_links = links if valid and isinstance(links, int) and links > 0 else 0
    room.join_code, room.old_codes = _join_codes(room.code, text)


def _rows(room: Room) -> tuple[str, dict, list[dict]]:
    """The room's game record text, its row's values (without the version) and its
    participants' rows (the room's lock held)."""
    text = room.table.whole_record().dumps()
    values = dict(
        teacher_hash=room.teacher_hash, record=text, title=room.title[:100],
        paused=room.paused, next_id=room.next_id,
        created=_when(room.created), touched=_when(room.touched), polls=_polls_text(room),
        admission=_admission_text(room), marks=marks_text(room.marks),
        chapters=chapters_text(room.chapters, room.code),
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
            pin_hash=p.pin_hash,
            rejoin=json.dumps(p.rejoin) if p.rejoin else "",
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
_not_kept = ""


def not_kept() -> str:
    """Why this process keeps no record of its rooms (one line), or "" when it does."""
    return _not_kept


def connect(rooms: Rooms, engine=None, feed=None) -> RoomStore | None:
    """Keep ``rooms`` in the process's store (``widgets.server.store.get_store()``; or ``engine``):
    the rooms it holds come back, each new room is tracked. On a PostgreSQL store (or with a
    ``feed``) the rooms are shared with the other processes (see the module's doc). None if
    there is no store (the classroom then works without it)."""
    global _room_store, _not_kept
    if engine is None:
        store = get_store()
        if store is None:
            _not_kept = store_error() or "no store"
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
        _not_kept = error_line(error)
        return None
    if back:
        log.info("%d classroom room(s) back from the store", back)
    rooms.on_open = room_store.track
    if feed is not None:
        rooms.loader = room_store.load_one
        feed.subscribe(room_store.on_feed, room_store.on_resync)
        # who is online, between the processes too (widgets.classroom.presence)
        from widgets.classroom.presence import share

        share(engine)
    _room_store = room_store
    return room_store


@atexit.register
def flush() -> int:
    """Write what is still pending (a server being stopped)."""
    return _room_store.flush() if _room_store is not None else 0
