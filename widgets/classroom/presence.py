"""Who is online: which learners have a page of their room open now, in any process.

A learner is **online** while a page of theirs is open (their ``/join`` page in the room, in
this process or another one), and **away** once none is: after the page was closed or its
connection lost for longer than a short grace. The grace is the server's own: a page's session
ends when it has had no connection for ``widgets.serve.UNUSED_SESSION_MS`` (15 s, checked every
5 s), so a phone that drops off the network for a few seconds and comes back is never shown
away, and a closed tab is away within about 20 s.

* **One process** (:class:`Presence`): a count of open pages per participant, in memory
  (:meth:`Presence.arrive` when the page enters the room, the returned ``leave`` when its
  session ends, or the seat moved to another device, or the learner was removed). Nothing is
  written anywhere: presence is not worth a database write.
* **Several processes** (a PostgreSQL store; :class:`SharedPresence`): a learner's page may be
  served by another process than the teacher's. Each process writes, for the participants with
  a page open in it, a last-seen time in ``classroom_presence`` (one row per room, participant
  and process) at most every :data:`BEAT_S` seconds per participant (at once for one who just
  arrived), and deletes its rows for those whose pages all closed; it reads the other processes'
  rows on the same beat. A row older than :data:`STALE_S` counts for nothing (its process died
  without saying). So across processes "online" shows within a moment, "away" within about one
  to two beats (30-60 s) after the grace. The writes run off the event loop, in
  ``widgets.classroom.room_work.ROOM_WORK`` (key ``"presence"``), started by one timer thread.

The teacher's page follows :meth:`Presence.subscribe` (its listener only schedules the page's
own update) and shows each learner as online or away, in its language.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import Column, DateTime, Integer, String, Table, and_, delete, insert, select
from sqlalchemy.exc import SQLAlchemyError

from widgets.server.store import error_line, metadata

log = logging.getLogger("widgets.classroom.presence")

#: Several processes: how often a process writes its learners' last-seen times.
BEAT_S = 30.0
#: Another process's row older than this counts for nothing (that process stopped writing).
STALE_S = 2 * BEAT_S + 15.0

presence_table = Table(
    "classroom_presence",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("process", String(32), primary_key=True),
    Column("seen", DateTime(timezone=True), nullable=False, index=True),
)


class Presence:
    """The open pages of each participant in this process, and (with :class:`SharedPresence`)
    in the others; thread-safe. Listeners per room hear ``listener()`` after a change."""

    def __init__(self) -> None:
        self._pages: dict[tuple[str, int], int] = {}
        #: seen open in another process (SharedPresence keeps it)
        self._elsewhere: set[tuple[str, int]] = set()
        self._listeners: dict[str, dict[int, object]] = {}
        self._next = 1
        self._lock = threading.Lock()
        #: called (with the key) when a participant's first page here opens (SharedPresence)
        self.on_arrive = None

    def arrive(self, room: str, person_id: int):
        """A page of the participant opened in the room; returns ``leave()`` (idempotent)."""
        key = (room, person_id)
        with self._lock:
            first = self._pages.get(key, 0) == 0
            self._pages[key] = self._pages.get(key, 0) + 1
        if first:
            self._tell(room)
            if self.on_arrive is not None:
                self.on_arrive(key)
        gone = []

        def leave() -> None:
            if gone:
                return
            gone.append(True)
            with self._lock:
                left = self._pages.get(key, 0) - 1
                if left > 0:
                    self._pages[key] = left
                else:
                    self._pages.pop(key, None)
            if left <= 0:
                self._tell(room)

        return leave

    def here(self) -> set[tuple[str, int]]:
        """The participants with a page open in this process."""
        with self._lock:
            return set(self._pages)

    def online(self, room: str, person_id: int) -> bool:
        key = (room, person_id)
        with self._lock:
            return key in self._pages or key in self._elsewhere

    def seen_elsewhere(self, keys: set[tuple[str, int]]) -> None:
        """The participants other processes have a page open for (SharedPresence's beat)."""
        with self._lock:
            changed = {room for room, _ in keys ^ self._elsewhere}
            self._elsewhere = set(keys)
        for room in changed:
            self._tell(room)

    def subscribe(self, room: str, listener) -> int:
        with self._lock:
            key, self._next = self._next, self._next + 1
            self._listeners.setdefault(room, {})[key] = listener
            return key

    def unsubscribe(self, room: str, key: int) -> None:
        with self._lock:
            self._listeners.get(room, {}).pop(key, None)

    def _tell(self, room: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(room, {}).values())
        for listener in listeners:
            try:
                listener()
            except Exception:  # one broken page must not stop the others
                log.exception("room %s: a presence listener failed", room)


class SharedPresence:
    """Presence between processes through ``classroom_presence`` (see the module's doc)."""

    def __init__(self, engine, presence: Presence, clock=time.time, process: str = ""):
        self.engine, self.presence, self.clock = engine, presence, clock
        self.process = process or secrets.token_hex(8)
        self._written: dict[tuple[str, int], float] = {}  # when each row of ours was written
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        metadata.create_all(engine, tables=[presence_table])
        presence.on_arrive = lambda _key: self._wake.set()

    def beat(self) -> None:
        """Write this process's rows that are due (new, or older than BEAT_S), delete the rows
        of those gone from here, read the other processes' fresh rows."""
        now = self.clock()
        here = self.presence.here()
        due = [k for k in here if now - self._written.get(k, -1e18) >= BEAT_S]
        gone = [k for k in self._written if k not in here]
        when = datetime.fromtimestamp(now, UTC)
        try:
            with self.engine.begin() as db:
                t = presence_table.c
                for room, person in [*due, *gone]:
                    db.execute(
                        delete(presence_table).where(
                            and_(t.room == room, t.id == person, t.process == self.process)
                        )
                    )
                if due:
                    rows = [dict(room=r, id=i, process=self.process, seen=when) for r, i in due]
                    db.execute(insert(presence_table), rows)
                fresh = when - timedelta(seconds=STALE_S)
                others = db.execute(
                    select(t.room, t.id).where(and_(t.process != self.process, t.seen > fresh))
                ).all()
                db.execute(delete(presence_table).where(t.seen < when - timedelta(days=1)))
        except SQLAlchemyError as error:
            log.warning("presence not shared this beat: %s", error_line(error))
            return
        for key in due:
            self._written[key] = now
        for key in gone:
            self._written.pop(key, None)
        self.presence.seen_elsewhere({(room, person) for room, person in others})

    def start(self) -> None:
        """One timer thread that hands a beat to ``ROOM_WORK`` every BEAT_S seconds (and at
        once when a participant arrives here)."""
        from widgets.classroom.room_work import ROOM_WORK

        def run() -> None:
            while not self._stop.is_set():
                ROOM_WORK.submit("presence", self.beat)
                self._wake.wait(BEAT_S)
                self._wake.clear()
                self._stop.wait(1.0)  # at most one beat a second, however many arrive

        self._thread = threading.Thread(target=run, name="presence-beat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()


PRESENCE = Presence()
_shared: SharedPresence | None = None
_share_lock = threading.Lock()


def share(engine) -> SharedPresence:
    """Share this process's :data:`PRESENCE` with the others on ``engine`` (PostgreSQL): once
    per process (the first store's engine)."""
    global _shared
    with _share_lock:
        if _shared is None:
            _shared = SharedPresence(engine, PRESENCE)
            _shared.start()
        return _shared
