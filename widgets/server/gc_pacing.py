"""The served app's full garbage collections, moved to its quiet moments (#16, classroom load).

A server holding 30 learners' pages keeps a few hundred MB of Python objects; one full collection
of them stops the event loop for most of a second (0.6-0.9 s measured here), and Python starts it
whenever enough objects have piled up, in the middle of a move as often as not: every learner then
gets that move late, which alone set the load benchmark's p95 and max.

So the served app (``nefertiti serve``) turns Python's automatic full collections off (its young
collections stay as they are) and runs them itself, when no websocket message has arrived for
:data:`IDLE_S`, and after each one freezes what survived out of the collector's sight
(:func:`gc.freeze`): the next quiet-time collection only looks at what was made since, a few tens
of ms. Cycles among frozen objects (a closed page's) wait for the deep collection, which looks
at everything (unfreeze, collect, freeze) every :data:`LONGEST_S`, at a quiet moment when there
is one and regardless after twice that: memory taken by cycles is always given back.
"""

from __future__ import annotations

import gc
import logging
import time

log = logging.getLogger(__name__)

IDLE_S = 0.5  # no websocket message for this long: a collection will not delay a move
SHORTEST_S = 30.0  # collections of what is new at most this often, when quiet
LONGEST_S = 300.0  # a deep collection (everything) this often, at a quiet moment
TICK_MS = 250
#: Python's own threshold for a full collection (young collections since the last): below it
#: there is nothing a full collection would have done yet.
DUE_AFTER = 10
NEVER = 1_000_000_000


class Pacer:
    """Decides when the full collections run (``clock`` and the gc functions replaced in tests)."""

    def __init__(self, clock=time.monotonic, collect=gc.collect, count=gc.get_count,
                 freeze=gc.freeze, unfreeze=gc.unfreeze):  # fmt: skip
        self.clock, self._collect, self._count = clock, collect, count
        self._freeze, self._unfreeze = freeze, unfreeze
        self.last_message = self.last_full = self.last_deep = clock()

    def message(self) -> None:
        """A websocket message arrived (a click, a page's update): not quiet."""
        self.last_message = self.clock()

    def due(self) -> str | None:
        """ "deep", "new" or None: which collection should run now."""
        now = self.clock()
        quiet = now - self.last_message >= IDLE_S
        since_deep = now - self.last_deep
        if since_deep >= 2 * LONGEST_S or (quiet and since_deep >= LONGEST_S):
            return "deep"
        if quiet and now - self.last_full >= SHORTEST_S and self._count()[2] >= DUE_AFTER:
            return "new"
        return None

    def tick(self) -> str | None:
        """Run the collection that is due, if any; which one ran."""
        kind = self.due()
        if kind is None:
            return None
        start = time.perf_counter()
        if kind == "deep":
            self._unfreeze()
        self._collect(2)
        self._freeze()  # what survived is not looked at again until the next deep one
        took = time.perf_counter() - start
        self.last_full = self.clock()
        if kind == "deep":
            self.last_deep = self.last_full
        log.debug("%s garbage collection: %.3f s", kind, took)
        return kind


def start(ws_handler) -> Pacer:
    """Freeze what is alive now, turn Python's automatic full collections off and run them from
    the current event loop when quiet; ``ws_handler`` (the app's websocket handler class) tells
    it of every message."""
    from tornado.ioloop import PeriodicCallback

    pacer = getattr(ws_handler, "_nefertiti_pacer", None)
    if pacer is None:  # one pacer per process (a test may serve twice)
        pacer = Pacer()
        original = ws_handler.on_message

        def on_message(self, fragment):
            pacer.message()
            return original(self, fragment)

        ws_handler.on_message = on_message
        ws_handler._nefertiti_pacer = pacer  # noqa: SLF001  framework private: our attribute on Panel's WSHandler
    gc.collect()
    gc.freeze()  # what start-up made: looked at again only by the deep collections
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    callback = PeriodicCallback(pacer.tick, TICK_MS)
    callback.start()
    pacer.callback = callback
    return pacer
