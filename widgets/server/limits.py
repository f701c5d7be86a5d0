"""The served app's caps on new sessions (docs/security.md): at most so many live sessions on
the server, at most so many pages open at once from one client address (so that one computer
cannot fill the server and shut everyone else out), and at most so many new ones a minute from
one address. A page load past a cap answers 503 or 429 in the browser's language, before any
session is made. And what one page may send: at most so many bytes in any few seconds
(``MESSAGE_BYTES_PER_WINDOW``), past which its connection is closed."""

from __future__ import annotations

import collections
import logging
import time

from nefertiti_core.engine.i18n import language_from_header

log = logging.getLogger("nefertiti.serve")

#: Default caps: live sessions on the server, pages open at once from one client address, new
#: sessions per client a minute. A class on a school network has an address per device; behind
#: a proxy or a NAT every device has the same one: raise the per-client caps there.
MAX_SESSIONS = 60
SESSIONS_PER_CLIENT = 12
SESSIONS_PER_MINUTE = 20
#: Bytes one page may send in any MESSAGE_WINDOW_S seconds: a few of the largest uploads (a
#: 1 MiB file is a 1.4 MB message), far above clicks and typing (a few kB each). A page past it
#: has its connection closed: a client sending the largest messages without pause cost a core
#: and hundreds of MB (docs/benchmarks.md, benchmarks/message_flood.py).
MESSAGE_WINDOW_S = 10
MESSAGE_BYTES_PER_WINDOW = 6 * 1024 * 1024

#: What a refused page load says (plain text), by the browser's language.
REFUSALS = {
    "full": {
        "en": "The tutor is full: {n} games are open on this server (its --max-sessions). "
        "Try again in a few minutes.",
        "de": "Der Tutor ist voll: {n} Partien sind auf diesem Server offen (--max-sessions). "
        "Versuche es in ein paar Minuten wieder.",
        "zh": "本教程已满员：此服务器上已有 {n} 局游戏（--max-sessions）。请几分钟后再试。",
    },
    "client": {
        "en": "This computer already has {n} tutor pages open (--sessions-per-client): close one, "
        "then reload.",
        "de": "Dieser Computer hat schon {n} Seiten des Tutors offen (--sessions-per-client): "
        "schließe eine und lade dann neu.",
        "zh": "此电脑已打开 {n} 个教程页面（--sessions-per-client）：请关闭一个后再刷新。",
    },
    "rate": {
        "en": "Too many new games from this computer: at most {n} a minute "
        "(--sessions-per-minute). Wait a minute, then reload.",
        "de": "Zu viele neue Partien von diesem Computer: höchstens {n} pro Minute "
        "(--sessions-per-minute). Warte eine Minute und lade dann neu.",
        "zh": "此电脑新开的游戏太多：每分钟最多 {n} 局（--sessions-per-minute）。请等一分钟再刷新。",
    },
}


class SessionGuard:
    """Admits new sessions: a cap on live ones and a per-client rate."""

    def __init__(
        self,
        max_sessions: int,
        per_minute: int,
        clock=time.monotonic,
        per_client: int = SESSIONS_PER_CLIENT,
    ):
        self.max_sessions = max_sessions
        self.per_minute = per_minute
        self.per_client = per_client
        self._clock = clock
        self._starts: dict[str, collections.deque] = {}
        self.refused = collections.Counter()

    def admit(self, client: str, live: int, open_here: int = 0) -> str | None:
        """None if a new session may start; else why not (``"client"``: ``open_here``, the pages
        this client has open, is at its cap; ``"full"``: the server's ``live`` sessions are;
        ``"rate"``: this client started too many this minute)."""
        if open_here >= self.per_client:
            self.refused["client"] += 1
            return "client"
        if live >= self.max_sessions:
            self.refused["full"] += 1
            return "full"
        now = self._clock()
        starts = self._starts.setdefault(client, collections.deque())
        while starts and now - starts[0] >= 60:
            starts.popleft()
        if len(starts) >= self.per_minute:
            self.refused["rate"] += 1
            return "rate"
        starts.append(now)
        if len(self._starts) > 10_000:  # forget clients with no start in the last minute
            for key in [k for k, v in self._starts.items() if not v or now - v[-1] >= 60]:
                del self._starts[key]
        return None

    def message(self, why: str, accept_language: str = "") -> str:
        lang = language_from_header(accept_language)
        n = {"full": self.max_sessions, "client": self.per_client}.get(why, self.per_minute)
        return REFUSALS[why][lang].format(n=n)

    def refuse(self, handler, live: int, open_here: int = 0) -> bool:
        """Answer a page load (a Tornado request handler) with 503/429 when a new session may
        not start; whether it was refused."""
        why = self.admit(handler.request.remote_ip or "?", live, open_here)
        if why is None:
            return False
        log.warning("refused a new session from %s: %s", handler.request.remote_ip, why)
        handler.set_status(503 if why == "full" else 429)
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.set_header("Retry-After", "60")
        handler.set_header("Cache-Control", "no-store")
        handler.finish(self.message(why, handler.request.headers.get("Accept-Language", "")) + "\n")
        return True
