"""The classroom's change feed between server processes: "room ABC is at version 12 now".

Several ``nefertiti serve`` processes share rooms through the store's PostgreSQL database
(docs/deploy.md). A change made in one process must reach the participants connected to the
others: the process that wrote it publishes the room's code and new version, and every
process's subscribers hear it and re-read that room from the store. The feed carries only this
news, never the room itself: what counts is in the database.

* :class:`PgFeed` — PostgreSQL ``LISTEN``/``NOTIFY`` on the channel ``nefertiti_rooms``.
  :meth:`~Feed.publish` sends ``pg_notify`` on the connection it is given (inside the
  transaction that wrote the change: the news leaves with the commit, or not at all; e.g. as
  the ``then`` of :meth:`widgets.server.store.Store.compare_and_set`) or on one of its own. A
  background thread holds one dedicated connection that LISTENs and calls the subscribers for
  every notification. When that connection breaks (the database restarts, the network drops:
  TCP keepalives notice a silent one) the thread reconnects, retrying with a growing pause up
  to 2 s, LISTENs again, and only then tells every subscriber to *resync*: PostgreSQL does not
  keep notifications for a listener that was away, so whatever was published in between is
  re-read from the database, where nothing committed is lost.
* :class:`LocalFeed` — one process (the SQLite store): the same calls, delivered in the process
  by a thread of its own.

:func:`feed_for` picks one for a store; :func:`get_feed` is the process's feed (on the
process's store). Subscribers are called on the feed's thread, one notification at a time, in
the order the database committed them: they should only schedule their own page's update,
and an exception in one is logged, never stops the others.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from collections.abc import Callable

log = logging.getLogger("widgets.classroom.feed")

CHANNEL = "nefertiti_rooms"
ROOM_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: Listener: first and longest pause between reconnection attempts (seconds).
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 2.0
#: How often the listener thread looks up from waiting to see whether it should stop.
POLL_S = 0.5

OnChange = Callable[[str, int], None]
OnResync = Callable[[], None]


class FeedError(ValueError):
    """A publish the feed refuses (not a room code, not a version)."""


def payload(room: str, version: int) -> str:
    if not isinstance(room, str) or not ROOM_RE.fullmatch(room):
        raise FeedError(f"not a room code: {str(room)[:70]!r}")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise FeedError(f"room {room}: not a version number: {str(version)[:30]!r}")
    return f"{room}:{version}"


def parse(text: str) -> tuple[str, int] | None:
    room, _, version = text.rpartition(":")
    if ROOM_RE.fullmatch(room) and version.isdigit():
        return room, int(version)
    return None


class Feed:
    """What every feed offers: publish, subscribe, unsubscribe, close."""

    def __init__(self) -> None:
        self._subscribers: dict[int, tuple[OnChange, OnResync | None]] = {}
        self._next = 1
        self._lock = threading.Lock()
        self.resyncs = 0  # how many times the subscribers were told to re-read everything

    def publish(self, room: str, version: int, db=None) -> None:
        raise NotImplementedError

    def subscribe(self, on_change: OnChange, on_resync: OnResync | None = None) -> int:
        """Call ``on_change(room, version)`` for every change published by any process, and
        ``on_resync()`` when news may have been missed (re-read every room you show).
        Returns a key for :meth:`unsubscribe`."""
        with self._lock:
            key = self._next
            self._next += 1
            self._subscribers[key] = (on_change, on_resync)
        return key

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            self._subscribers.pop(key, None)

    def close(self) -> None:
        pass

    def _deliver(self, room: str, version: int) -> None:
        with self._lock:
            subscribers = list(self._subscribers.values())
        for on_change, _ in subscribers:
            try:
                on_change(room, version)
            except Exception:
                log.exception("feed: a subscriber failed on room %s version %d", room, version)

    def _resync(self) -> None:
        with self._lock:
            subscribers = list(self._subscribers.values())
        self.resyncs += 1
        for _, on_resync in subscribers:
            if on_resync is None:
                continue
            try:
                on_resync()
            except Exception:
                log.exception("feed: a subscriber failed to resync")


class LocalFeed(Feed):
    """The feed inside one process (an SQLite store serves one process)."""

    def __init__(self) -> None:
        super().__init__()
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="room-feed", daemon=True)
        self._thread.start()

    def publish(self, room: str, version: int, db=None) -> None:
        """Tell this process's subscribers (``db`` is accepted and not used: the news is
        delivered even if that transaction then rolls back; a subscriber re-reading finds
        nothing new)."""
        self._queue.put(parse(payload(room, version)))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            self._deliver(*item)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)


class PgFeed(Feed):
    """The feed between processes on one PostgreSQL database (LISTEN/NOTIFY)."""

    def __init__(self, url, engine=None, wait_s: float = 10.0) -> None:
        """``url``: the store's SQLAlchemy URL (str or URL); ``engine``: an SQLAlchemy engine
        on it for publishing (the store's; else one of the feed's own). Waits up to
        ``wait_s`` for the listener's first connection (it keeps trying after that)."""
        super().__init__()
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url

        url = make_url(url)
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._where = url.render_as_string(hide_password=True)
        self._own_engine = engine is None
        self._engine = engine or create_engine(url, pool_pre_ping=True)
        self._stop = threading.Event()
        self.connected = threading.Event()
        self.reconnects = 0
        self._connection = None
        self._thread = threading.Thread(target=self._run, name="room-feed-listener", daemon=True)
        self._thread.start()
        if not self.connected.wait(wait_s):
            log.error("feed: no connection to %s yet; still trying", self._where)

    # ------------------------------------------------------------------ publishing
    def publish(self, room: str, version: int, db=None) -> None:
        """Send the news on ``db`` (an SQLAlchemy connection in a transaction: delivered at
        its commit) or in a transaction of its own (delivered at once)."""
        from sqlalchemy import func, select

        statement = select(func.pg_notify(CHANNEL, payload(room, version)))
        if db is not None:
            db.execute(statement)
            return
        with self._engine.begin() as own:
            own.execute(statement)

    # ------------------------------------------------------------------ listening
    def _connect(self):
        import psycopg

        return psycopg.connect(
            self._conninfo,
            autocommit=True,
            connect_timeout=5,
            # a connection dropped without a word (a cable, a NAT) is noticed in ~25 s
            keepalives=1, keepalives_idle=10, keepalives_interval=5, keepalives_count=3,
        )  # fmt: skip

    def _run(self) -> None:
        import psycopg

        pause = RETRY_FIRST_S
        ever = False
        while not self._stop.is_set():
            try:
                connection = self._connect()
            except psycopg.Error as error:
                log.warning("feed: cannot reach %s (%s); again in %.2f s", self._where,
                            str(error).strip().splitlines()[0][:200], pause)  # fmt: skip
                self._stop.wait(pause)
                pause = min(pause * 2, RETRY_MAX_S)
                continue
            try:
                with connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._connection = connection
                    self.connected.set()
                    pause = RETRY_FIRST_S
                    if ever:  # away for a while: what was sent meanwhile is re-read
                        self.reconnects += 1
                        log.info("feed: listening again on %s", self._where)
                        self._resync()
                    ever = True
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=POLL_S):
                            news = parse(note.payload)
                            if news is not None:
                                self._deliver(*news)
            except psycopg.Error as error:
                if self._stop.is_set():
                    break
                log.warning("feed: connection to %s lost (%s); reconnecting", self._where,
                            str(error).strip().splitlines()[0][:200])  # fmt: skip
            finally:
                self.connected.clear()
                self._connection = None

    def listener_pid(self) -> int | None:
        """The database's process id of the listening connection (for tests and logs)."""
        connection = self._connection
        return connection.info.backend_pid if connection is not None else None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=POLL_S * 4 + 5)
        if self._own_engine:
            self._engine.dispose()


# ---------------------------------------------------------------------- one feed per process
def feed_for(store) -> Feed:
    """The feed for ``store`` (a :class:`widgets.server.store.Store`, or None: no store)."""
    if store is not None and store.dialect == "postgresql":
        return PgFeed(store.url, engine=store.engine)
    return LocalFeed()


_feed: Feed | None = None
_feed_lock = threading.Lock()


def get_feed() -> Feed:
    """The process's feed, on the process's store (:func:`widgets.server.store.get_store`)."""
    global _feed
    with _feed_lock:
        if _feed is None:
            from widgets.server.store import get_store

            _feed = feed_for(get_store())
        return _feed


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` passes (tests, the benchmark)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()
