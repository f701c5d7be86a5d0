"""The served app's caps on new sessions (docs/security.md): at most so many live sessions on
the server, and at most so many new ones a minute from one client address. A page load that
would pass either answers 503 or 429 in the browser's language, before any session is made."""

from __future__ import annotations

import collections
import logging
import time

from nefertiti_core.engine.i18n import language_from_header

log = logging.getLogger("nefertiti.serve")

#: Default caps: live sessions on the server, new sessions per client a minute.
MAX_SESSIONS = 60
SESSIONS_PER_MINUTE = 20

#: What a refused page load says (plain text), by the browser's language.
REFUSALS = {
    "full": {
        "en": "The tutor is full: {n} games are open on this server (its --max-sessions). "
        "Try again in a few minutes.",
        "de": "Der Tutor ist voll: {n} Partien sind auf diesem Server offen (--max-sessions). "
        "Versuche es in ein paar Minuten wieder.",
        "zh": "导师已满：此服务器上已有 {n} 局游戏（--max-sessions）。请几分钟后再试。",
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

    def __init__(self, max_sessions: int, per_minute: int, clock=time.monotonic):
        self.max_sessions = max_sessions
        self.per_minute = per_minute
        self._clock = clock
        self._starts: dict[str, collections.deque] = {}
        self.refused = collections.Counter()

    def admit(self, client: str, live: int) -> str | None:
        """None if a new session may start; else why not (``"full"`` or ``"rate"``)."""
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
        n = self.max_sessions if why == "full" else self.per_minute
        return REFUSALS[why][lang].format(n=n)

    def refuse(self, handler, live: int) -> bool:
        """Answer a page load (a Tornado request handler) with 503/429 when a new session may
        not start; whether it was refused."""
        why = self.admit(handler.request.remote_ip or "?", live)
        if why is None:
            return False
        log.warning("refused a new session from %s: %s", handler.request.remote_ip, why)
        handler.set_status(503 if why == "full" else 429)
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.set_header("Retry-After", "60")
        handler.set_header("Cache-Control", "no-store")
        handler.finish(self.message(why, handler.request.headers.get("Accept-Language", "")) + "\n")
        return True
