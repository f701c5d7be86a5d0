"""What a running ``nefertiti serve`` keeps beside Bokeh's server, in one object.

The framework's handlers (``widgets.server.patches``: the page, ``autoload.js`` and websocket
handlers) report to :data:`SERVED` and ask it whether a page may start a session; nothing is
hung on Tornado's or Bokeh's own objects. One served app per process: ``widgets.serve.serve``
fills it in when it starts; before that (a notebook, a test's own ``panel serve``) every page is
admitted and nothing is closed for idleness.
"""

from __future__ import annotations

import collections
import logging
import time
import weakref

from widgets.server.limits import MESSAGE_WINDOW_S

log = logging.getLogger("nefertiti.serve")


class ServedApp:
    """The admission guard, the open websockets with the time each last spoke, and the garbage
    collection pacer of the process's served app."""

    def __init__(self) -> None:
        self.guard = None  # a widgets.server.limits.SessionGuard once serving
        self.pacer = None  # a widgets.server.gc_pacing.Pacer once serving
        #: open websocket handler -> time.monotonic() of its page's last message
        self.last_message: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        #: bytes a page may send in MESSAGE_WINDOW_S seconds (None: no budget, before serving)
        self.bytes_per_window: int | None = None
        #: open websocket handler -> [deque of (time, bytes) in the window, their sum]
        self._received: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def opened(self, websocket) -> None:
        self.last_message[websocket] = time.monotonic()

    def message(self, websocket, size: int = 0) -> bool:
        """A page spoke (a click, an update): its session is not idle, and no garbage
        collection should start now. False when the page has sent more than its budget of
        bytes in the last MESSAGE_WINDOW_S seconds (its connection is then closed)."""
        now = time.monotonic()
        self.last_message[websocket] = now
        if self.pacer is not None:
            self.pacer.message()
        if self.bytes_per_window is None:
            return True
        window = self._received.setdefault(websocket, [collections.deque(), 0])
        sent = window[0]
        sent.append((now, size))
        window[1] += size
        while sent and now - sent[0][0] > MESSAGE_WINDOW_S:
            window[1] -= sent.popleft()[1]
        return window[1] <= self.bytes_per_window

    def open_pages(self, client: str) -> int:
        """How many pages ``client`` (an address) has connected now."""
        return sum(
            1
            for ws in list(self.last_message)
            if ws.ws_connection is not None and ws.request.remote_ip == client
        )

    def refuse_page(self, handler, live: int) -> bool:
        """Whether a page load is refused (and answered) by the session guard: the server's
        ``live`` sessions, and the pages the same client has open, at their caps."""
        if self.guard is None:
            return False
        client = handler.request.remote_ip or "?"
        return self.guard.refuse(handler, live, self.open_pages(client))

    def idle(self, idle_s: float) -> list:
        """The open websockets whose page sent nothing for ``idle_s`` seconds."""
        now = time.monotonic()
        return [ws for ws, last in list(self.last_message.items()) if now - last > idle_s]

    def close_idle(self, idle_s: float) -> None:
        for websocket in self.idle(idle_s):
            log.info("closing a session idle for %.0f minutes", idle_s / 60)
            try:
                websocket.close(1000, "idle")
            except Exception:  # pragma: no cover - already closed
                log.debug("could not close an idle websocket", exc_info=True)


#: The process's served app.
SERVED = ServedApp()
