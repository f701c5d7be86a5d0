"""A served page as a websocket client, for the classroom benchmarks (classroom_load.py,
question_push.py): many learners' pages without many rendering browsers.

A learner joins in Chromium first (code and name, as a learner does; the server then sets the
learner's cookie); :class:`PageSocket` then loads ``/join?code=...`` with that cookie (the same
participant), opens the page's Bokeh websocket, pulls the document, says the document is ready
(as BokehJS does: the page is built then) and from then on receives every update the server
sends that page, handing each text frame to :meth:`PageSocket.frame` with its arrival time. It
does not render: what it measures is the server's share (and the network's) of what a browser
would show.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
import urllib.request

from widgets.server.cookies import LEARNER

TOKEN = re.compile(r'"token":"([^"]+)"')
PULL = ('{"msgid": "b1", "msgtype": "PULL-DOC-REQ"}', "{}", "{}")
READY = (
    '{"msgid": "b2", "msgtype": "PATCH-DOC", "num_buffers": 0}',
    "{}",
    '{"events":[{"kind":"MessageSent","msg_type":"bokeh_event","msg_data":{"type":"event",'
    '"name":"document_ready","values":{"type":"map"}}}]}',
)


def learner_cookie(context, timeout: float = 60) -> str:
    """The learner's token cookie as a Cookie header, once the server has set it (the page posts
    its grant to /cookie after joining: widgets/server/cookies.py)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kept = [c for c in context.cookies() if c["name"] == LEARNER.name]
        if kept:
            return f"{LEARNER.name}={kept[0]['value']}"
        time.sleep(0.05)
    raise RuntimeError(f"no {LEARNER.name} cookie within {timeout:.0f} s")


class PageSocket:
    """One learner's ``/join`` page as a websocket client. Subclasses read what they measure in
    :meth:`frame`; ``error`` holds what stopped the client (reported with the figures)."""

    def __init__(self, base: str, code: str, cookie: str):
        self.base, self.code, self.cookie = base, code, cookie
        self.error = None
        self.frames = 0  # frames received
        self.state = "new"

    def frame(self, frame: str, now: float) -> None:
        """A text frame the server sent this page, received at ``now`` (perf_counter)."""

    def failed(self) -> None:
        """Called once ``error`` is set (a subclass may wake whoever waits on it)."""

    async def run(self) -> None:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        try:
            request = urllib.request.Request(
                f"{self.base}/join?code={self.code}", headers={"Cookie": self.cookie}
            )
            page = await asyncio.get_running_loop().run_in_executor(
                None, lambda: urllib.request.urlopen(request, timeout=120).read().decode()
            )
            token = TOKEN.search(page).group(1)
            socket = await websocket_connect(
                HTTPRequest(
                    self.base.replace("http://", "ws://") + "/join/ws",
                    headers={"Origin": self.base},
                ),
                subprotocols=["bokeh", token],
                max_message_size=64 * 1024 * 1024,
            )
            # as BokehJS: the server's ACK first (a message sent before it finds no receiver)
            self.state = "waiting for ACK"
            for _ in range(3):
                if await socket.read_message() is None:
                    raise ConnectionError("websocket closed before the ACK")
            self.state = "pulling"
            for part in PULL:
                await socket.write_message(part)
            sent_ready = False
            while True:
                frame = await socket.read_message()
                if frame is None:
                    return
                now = time.perf_counter()
                self.frames += 1
                if isinstance(frame, bytes):
                    continue
                if not sent_ready and '"PULL-DOC-REPLY"' in frame:
                    sent_ready = True
                    # the reply's metadata and content frames follow; then say the page is ready
                    await socket.read_message()
                    await socket.read_message()
                    for part in READY:
                        await socket.write_message(part)
                    self.state = "ready sent"
                    continue
                self.frame(frame, now)
        except BaseException as error:  # reported with the figures
            self.error = repr(error)
            self.failed()


def pct(values, q):
    """The ``q`` quantile of ``values`` (linear between neighbours), None for none."""
    values = sorted(values)
    if not values:
        return None
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def positive(text: str) -> int:
    """A command-line count: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value
