"""The pages' changes of a room, made off the server's event loop (:data:`ROOM_WORK`).

A change of a room is written to the store before anyone is told of it (room_store.py), and a
database that is slow or hung would hold the event loop every page of the process shares, the
Sandbox's too. So a page hands each change to :func:`change_room` (or :func:`off_loop` for work
that is not yet a room's: opening one, joining by code): it runs on a thread, in order per room,
and the page hears the result on its own document's next tick. Outside a served page (a
notebook, a test) the change is made at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor

from widgets.classroom.room import Refusal, Room
from widgets.game.common import on_page
from widgets.game.session import served_document

log = logging.getLogger("widgets.classroom")


class RoomWork:
    """Where the pages' changes of a room are made: never on the server's event loop.

    A change of a room shared between processes is written to the database before it counts
    (compare-and-set, room_store.py), and a database that is slow or hung would otherwise hold
    the event loop every page of the process shares (the Sandbox's too). Here the changes of one
    room run one at a time and in the order they were asked (a Pause then a Resume stays in that
    order), on a few threads shared by all rooms; at most ``MAX_WAITING`` changes of a room wait
    (more are refused: the database is not keeping up). :meth:`waiting_since` says since when
    the oldest change of a room still waits (the pages show "saving…")."""

    WORKERS = 4
    MAX_WAITING = 100

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(self.WORKERS, thread_name_prefix="room-change")
        self._queues: dict[str, deque] = {}
        self._lock = threading.Lock()

    def submit(self, key: str, work) -> Future | None:
        """``work()`` after the changes of ``key`` asked before it; None if too many wait."""
        future: Future = Future()
        with self._lock:
            queue = self._queues.get(key)
            if queue is not None and len(queue) >= self.MAX_WAITING:
                return None
            item = (work, future, time.monotonic())
            if queue is None:
                self._queues[key] = deque([item])
                self._pool.submit(self._drain, key)
            else:
                queue.append(item)
        return future

    def _drain(self, key: str) -> None:
        while True:
            with self._lock:
                queue = self._queues[key]
                if not queue:
                    del self._queues[key]
                    return
                work, future, _since = queue[0]  # stays queued while it runs: order kept
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(work())
                except BaseException as error:  # the page that asked is told
                    future.set_exception(error)
            with self._lock:
                queue.popleft()

    def waiting_since(self, key: str) -> float | None:
        """``time.monotonic()`` when the oldest change of ``key`` still waiting was asked."""
        with self._lock:
            queue = self._queues.get(key)
            return queue[0][2] if queue else None


ROOM_WORK = RoomWork()


def change_room(room: Room, work, then=None) -> None:
    """Make a change of ``room`` (``work()``: a call of the room's, e.g. ``room.pause(key,
    True)``) off the event loop, then ``then(result)`` on the calling page's own document.

    Not served (a notebook, a test: no session): at once, on this thread. A change that
    raised gives ``then`` a :class:`Refusal` saying so (logged); one refused because too many
    wait, ``room.refuse.busy``."""
    off_loop(room.code, work, then)


def off_loop(key: str, work, then=None) -> None:
    """:func:`change_room` for any work that may wait for the store, in ``key``'s order."""
    doc = served_document()
    if doc is None:
        result = work()
        if then is not None:
            then(result)
        return
    future = ROOM_WORK.submit(key, work)
    if future is None:
        if then is not None:
            then(Refusal("room.refuse.busy"))
        return

    def done(future: Future) -> None:
        try:
            result = future.result()
        except Exception as error:
            log.error("%s: a change failed: %s", key, error, exc_info=error)
            result = Refusal("room.refuse.failed")
        if then is not None:
            on_page(doc, then, result)

    future.add_done_callback(done)
