"""The served app's secrets in cookies no script of a page can read (HttpOnly), and never in a
page.

The secrets: the teacher's key of each room they opened, a learner's token for each room they
joined, a learner's device id (a removed learner's device may not join again) and the Sandbox's
browser id (whose saved games to offer). Each is made on the server; each lives in the browser
only as an HttpOnly, SameSite=Strict cookie (Secure over HTTPS) that the server sets; a page's
HTML, its session token and its scripts never hold one. Three steps:

1. **Setting one.** The session that makes a secret (a room opened, a learner joined, a new
   browser) asks :func:`grant` for a one-time grant: a random id, kept here with the cookies it
   stands for, the client's address and a check that the secret is still good (the room still
   open, the key still its teacher's). The page posts the grant to ``POST /cookie`` (``fetch``,
   same origin, in the body: :data:`KEEP_JS`); :func:`cookie_handler` checks the Origin, the
   body's size and shape and the grant (known, unspent, unexpired, from the same address, still
   good) and answers with the Set-Cookie. The secret itself never goes to the page, so a script
   on it has nothing to read, and no page can set a value of its own choosing (a fixed browser id
   would let its author read the games saved under it).
2. **Bokeh copies no cookie into a page.** Bokeh puts a page request's cookies and headers into
   the session token it embeds in the page's HTML (readable by anyone: a JWT is only signed).
   ``widgets.serve`` passes ``include_cookies=[]`` and ``exclude_headers=["Cookie"]``
   (:data:`BOKEH_SETTINGS`), so the token holds none.
3. **Reading them.** Every page request (``PAGE_ADMISSION`` in ``widgets.server.patches``) reads
   the cookies from the real request (:func:`admit`), keeps their values here under a one-time
   ticket and puts only the ticket into the request's arguments (:data:`TICKET_ARG`); the page's
   app function redeems it once, on the server, for the values (:func:`page_secrets`). A ticket
   lives :data:`TICKET_LIFETIME_S` seconds and is taken once: the spent ticket in the page's
   token opens nothing (a session Bokeh makes again from that token gets no secret).

Cookies set by the page's script before this (``nefertiti_teacher_<code>``,
``nefertiti_room_<code>``, ``nefertiti_device``, ``nefertiti_browser``) are read once more: the
page request that carries them answers with their values in the new HttpOnly cookies and the
old ones expired (:data:`Kind.legacy`), so nobody loses a room or their saved games.

Tickets and grants live in the process's memory: a page, its websocket and its ``fetch`` must
reach the same process (sticky sessions, as docs/deploy.md asks for anyway).
"""

from __future__ import annotations

import collections
import json
import logging
import re
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

log = logging.getLogger("nefertiti.serve")


@dataclass(frozen=True)
class Kind:
    """One of the app's secret cookies."""

    name: str
    max_age: int
    #: 0: one id; else the value keeps one secret per room, at most this many (newest first)
    rooms: int
    #: the name the page's script used to set it: a name (``rooms == 0``) or a prefix + a code
    legacy: str


#: The teacher's keys: ``CODE:KEY.CODE:KEY`` (one per room they opened, newest first).
TEACHER = Kind("nefertiti_teacher", 12 * 3600, 6, "nefertiti_teacher_")
#: A learner's tokens, one per room joined, as the teacher's.
LEARNER = Kind("nefertiti_learner", 12 * 3600, 6, "nefertiti_room_")
#: The classes a teacher made (``CLASS_ID:SECRET``, newest first): a class lives for a school
#: year (widgets/classroom/classes.py), and so does its key in the browser.
CLASS = Kind("nefertiti_class", 400 * 24 * 3600, 12, "nefertiti_class_key_")
#: A learner's device (the classroom's ban on a removed learner's device).
DEVICE = Kind("nefertiti_device_id", 365 * 24 * 3600, 0, "nefertiti_device")
#: The Sandbox's browser id (whose saved games to offer).
BROWSER = Kind("nefertiti_browser_id", 365 * 24 * 3600, 0, "nefertiti_browser")
#: Every secret cookie, by name: no other name is ever set.
KINDS: dict[str, Kind] = {kind.name: kind for kind in (TEACHER, LEARNER, CLASS, DEVICE, BROWSER)}

#: A secret, a grant, a ticket: URL-safe base64 (a room's key is 32 characters, a browser's 22).
SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: A room's code as a cookie keeps it.
ROOM_RE = re.compile(r"^[A-Z0-9]{4,16}$")
#: Bokeh's settings for the served app: no cookie, nor the Cookie header, in a page's token.
BOKEH_SETTINGS = {"include_cookies": [], "exclude_headers": ["Cookie"]}
#: The request argument that carries a page's ticket into its session (nothing else does).
TICKET_ARG = "nefertiti-ticket"
TICKET_LIFETIME_S = 60.0
GRANT_LIFETIME_S = 60.0
#: Tickets or grants kept at once; past it the oldest goes (page loads are capped anyway).
MAX_PENDING = 5000
#: Where a page posts its grant, and the largest body taken there (a grant is 32 characters).
COOKIE_PATH = "/cookie"
MAX_COOKIE_BODY_BYTES = 256


# ---------------------------------------------------------------------- the values
def parse(kind: Kind, text) -> dict[str, str] | str:
    """A cookie's value as kept: ``{code: secret}`` for a kind per room (malformed entries
    dropped, at most ``kind.rooms``), else the id ("" when malformed)."""
    if not kind.rooms:
        return text if isinstance(text, str) and SECRET_RE.fullmatch(text) else ""
    entries: dict[str, str] = {}
    if not isinstance(text, str) or len(text) > 4096:
        return entries
    for entry in text.split("."):
        code, _, secret = entry.partition(":")
        if ROOM_RE.fullmatch(code) and SECRET_RE.fullmatch(secret) and code not in entries:
            entries[code] = secret
        if len(entries) >= kind.rooms:
            break
    return entries


def value_of(kind: Kind, kept: dict[str, str] | str) -> str:
    """The cookie's value for what :func:`parse` gives."""
    if not kind.rooms:
        return kept if isinstance(kept, str) else ""
    items = list(kept.items())[: kind.rooms]
    return ".".join(f"{code}:{secret}" for code, secret in items)


def with_room(kind: Kind, kept: dict[str, str], room: str, secret: str) -> dict[str, str]:
    """``kept`` with ``room``'s secret first (the oldest room dropped past ``kind.rooms``)."""
    rest = [(code, value) for code, value in kept.items() if code != room]
    return dict([(room, secret), *rest][: kind.rooms])


@dataclass(frozen=True)
class Kept:
    """What a page's request carried, as its session gets it (:func:`page_secrets`)."""

    values: Mapping[str, object] = field(default_factory=dict)

    def rooms(self, kind: Kind) -> dict[str, str]:
        """``{code: secret}`` of a kind per room (newest first)."""
        value = self.values.get(kind.name)
        return dict(value) if isinstance(value, dict) else {}

    def room(self, kind: Kind, code: str) -> str:
        return self.rooms(kind).get(code, "")

    def id(self, kind: Kind) -> str:
        value = self.values.get(kind.name)
        return value if isinstance(value, str) else ""


def read(cookies: Mapping[str, str]) -> tuple[dict[str, object], list[str]]:
    """The secrets a request's cookies (``{name: value}``) carry, by kind, and the names of the
    old script-set cookies among them (their values are taken, the current cookie's first)."""
    values: dict[str, object] = {}
    legacy: list[str] = []
    for kind in KINDS.values():
        kept = parse(kind, cookies.get(kind.name, ""))
        for name, text in cookies.items():
            if kind.rooms and name.startswith(kind.legacy) and name != kind.name:
                legacy.append(name)
                code, secret = name[len(kind.legacy) :], text
                if ROOM_RE.fullmatch(code) and SECRET_RE.fullmatch(secret) and code not in kept:
                    kept = dict(list(kept.items()) + [(code, secret)])
            elif not kind.rooms and name == kind.legacy:
                legacy.append(name)
                kept = kept or parse(kind, text)
        if kept:
            values[kind.name] = parse(kind, value_of(kind, kept)) if kind.rooms else kept
    return values, legacy


# ---------------------------------------------------------------------- one-time ids
class OneTime:
    """Random ids, each standing for a value for ``lifetime`` seconds and taken at most once."""

    def __init__(self, lifetime: float, limit: int = MAX_PENDING, clock=time.monotonic):
        self.lifetime, self.limit, self.clock = lifetime, limit, clock
        self._items: collections.OrderedDict[str, tuple[float, object]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def put(self, value) -> str:
        key = secrets.token_urlsafe(24)
        now = self.clock()
        with self._lock:
            while self._items:  # the expired ones go (oldest first), then the oldest past limit
                oldest, (deadline, _) = next(iter(self._items.items()))
                if deadline > now and len(self._items) < self.limit:
                    break
                del self._items[oldest]
            self._items[key] = (now + self.lifetime, value)
        return key

    def take(self, key) -> object | None:
        """The value (the id spent), or None for an unknown, spent or expired id."""
        if not isinstance(key, str) or not SECRET_RE.fullmatch(key):
            return None
        with self._lock:
            item = self._items.pop(key, None)
        if item is None or item[0] <= self.clock():
            return None
        return item[1]

    def __len__(self) -> int:
        return len(self._items)


TICKETS = OneTime(TICKET_LIFETIME_S)
GRANTS = OneTime(GRANT_LIFETIME_S)


# ---------------------------------------------------------------------- a page request
def is_https(request, origin: str = "") -> bool:
    """Whether the browser reached the page over HTTPS: the request itself, a proxy's
    ``X-Forwarded-Proto``, or the page's Origin (a cookie marked Secure over plain HTTP would be
    dropped by the browser, so a client can only lose its own cookie by lying)."""
    forwarded = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    return request.protocol == "https" or forwarded == "https" or origin.startswith("https://")


def set_secret_cookie(handler, kind: Kind, value: str, secure: bool) -> None:
    handler.set_cookie(
        kind.name, value, path="/", max_age=kind.max_age, httponly=True, samesite="Strict",
        secure=secure,
    )  # fmt: skip


def _request_cookies(request) -> dict[str, str]:
    try:
        return {name: morsel.value for name, morsel in request.cookies.items()}
    except Exception:  # a Cookie header Python's parser refuses: as if none
        return {}


def admit(handler) -> None:
    """A page request (Panel's page or ``autoload.js`` handler), before Bokeh makes its session:
    its secrets kept under a new ticket, which alone goes into the request's arguments; old
    script-set cookies answered with the new HttpOnly ones (and expired). A ticket in the
    request's own address is dropped: only this server puts one there."""
    request = handler.request
    for arguments in (request.arguments, request.query_arguments):
        arguments.pop(TICKET_ARG, None)
    values, legacy = read(_request_cookies(request))
    if legacy:
        secure = is_https(request)
        for name, value in values.items():
            kind = KINDS[name]
            set_secret_cookie(handler, kind, value_of(kind, value), secure)
        for name in legacy:
            handler.clear_cookie(name, path="/")
    if values:
        request.arguments[TICKET_ARG] = [TICKETS.put(values).encode()]


_REDEEMED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def page_secrets() -> Kept:
    """The secrets the current served page's request carried (its ticket redeemed on the first
    call; later calls of the same session get the same). Nothing outside a served session, for a
    spent ticket, or one this process did not give."""
    import panel as pn

    doc = pn.state.curdoc
    if doc is None or doc.session_context is None:
        return Kept()
    if doc in _REDEEMED:
        return _REDEEMED[doc]
    given = (pn.state.session_args or {}).get(TICKET_ARG) or [b""]
    ticket = given[0].decode("ascii", "replace") if isinstance(given[0], bytes) else str(given[0])
    values = TICKETS.take(ticket) if ticket else None
    if ticket and values is None:
        log.info("a page's ticket was spent, expired or unknown: the page gets no secret")
    kept = _REDEEMED[doc] = Kept(values if isinstance(values, dict) else {})
    return kept


# ---------------------------------------------------------------------- setting one
@dataclass(frozen=True)
class Grant:
    """The cookies a grant sets: ``(kind, room code or "", secret)`` each, the address of the
    page it was given to ("": any) and what must still hold when it is posted."""

    cookies: tuple[tuple[Kind, str, str], ...]
    client: str = ""
    check: Callable[[], bool] | None = None


def _session_client() -> str:
    try:
        import panel as pn

        context = pn.state.curdoc.session_context if pn.state.curdoc is not None else None
        return getattr(getattr(context, "request", None), "remote_ip", "") or ""
    except Exception:  # pragma: no cover - no Panel state
        return ""


def grant(*cookies: tuple[Kind, str, str], check: Callable[[], bool] | None = None) -> str:
    """A one-time grant for the page to post to :data:`COOKIE_PATH`, which then sets these
    cookies. Only :data:`KINDS` with well-formed values; ``check`` is asked again when the grant
    is posted (e.g. the room is still open and the key still its teacher's)."""
    for kind, room, secret in cookies:
        if KINDS.get(kind.name) is not kind:
            raise ValueError(f"not a secret cookie of the app: {kind.name!r}")
        if not SECRET_RE.fullmatch(secret or "") or (
            bool(kind.rooms) != bool(room) or (room and not ROOM_RE.fullmatch(room))
        ):
            raise ValueError(f"a malformed value or room for {kind.name}")
    return GRANTS.put(Grant(tuple(cookies), client=_session_client(), check=check))


def take_grant(key, client: str = "") -> Grant | None:
    """The grant (spent now), or None: unknown, spent, expired, given to another address, or no
    longer good (its check)."""
    given = GRANTS.take(key)
    if not isinstance(given, Grant):
        return None
    if given.client and client != given.client:
        log.info("a cookie grant posted from another address than its page's: refused")
        return None
    try:
        good = given.check is None or bool(given.check())
    except Exception:
        good = False
    return given if good else None


#: The page's side: ``keep(grant)`` posts a grant to /cookie once (same origin, in the body);
#: the answer sets the cookie, which no script of the page can read. ``keepalive``: the post is
#: finished even when the page is reloaded or left just after (a learner who reloads at once).
KEEP_JS = """
const keep = (grant) => {
    const posted = (window.__nefertitiGrants = window.__nefertitiGrants || new Set());
    if (!grant || posted.has(grant)) return;
    posted.add(grant);
    fetch(new URL("/cookie", window.location.origin), {
        method: "POST", credentials: "same-origin", cache: "no-store", keepalive: true,
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({grant: grant}),
    }).catch(() => {});
};
"""


def cookie_handler():
    """The Tornado handler of ``POST /cookie`` (``widgets.serve`` routes it with the served
    origins: ``{"origins": [...]}``): sets the cookies of a grant, and nothing for anything else.

    Refused with a 4xx and no Set-Cookie: another method (405); an Origin missing, of another
    host, or not served here, or a ``Sec-Fetch-Site`` other than ``same-origin`` (403); a body
    that is not JSON (415) or has no length (411) or is over :data:`MAX_COOKIE_BODY_BYTES` (413);
    a body other than ``{"grant": "<id>"}`` (400); a grant unknown, spent, expired, from another
    address or no longer good (403). No value is ever logged."""
    from urllib.parse import urlparse

    from bokeh.server.util import check_allowlist
    from tornado.web import HTTPError, RequestHandler, stream_request_body

    @stream_request_body
    class CookieHandler(RequestHandler):
        def initialize(self, origins=()):
            self.origins = [origin.lower() for origin in origins]
            self.body = bytearray()

        def set_default_headers(self):
            self.set_header("Cache-Control", "no-store")
            self.set_header("X-Content-Type-Options", "nosniff")

        def prepare(self):
            if self.request.method != "POST":
                raise HTTPError(405)
            headers = self.request.headers
            origin = headers.get("Origin", "")
            host = urlparse(origin).netloc.lower() if origin else ""
            served = headers.get("Host", "").lower()
            if (
                not host
                or not check_allowlist(host, self.origins)
                or host.rsplit(":", 1)[0] != served.rsplit(":", 1)[0]
                or headers.get("Sec-Fetch-Site", "same-origin") != "same-origin"
            ):
                log.info("a cookie request from another site (%s): refused", host[:80] or "none")
                raise HTTPError(403)
            if headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
                raise HTTPError(415)
            length = headers.get("Content-Length", "")
            if not length.isdigit():
                raise HTTPError(411)
            if int(length) > MAX_COOKIE_BODY_BYTES:
                raise HTTPError(413)
            self.request.connection.set_max_body_size(MAX_COOKIE_BODY_BYTES)

        def data_received(self, chunk: bytes) -> None:
            self.body += chunk
            if len(self.body) > MAX_COOKIE_BODY_BYTES:  # pragma: no cover - Content-Length holds
                raise HTTPError(413)

        def post(self):
            try:
                body = json.loads(bytes(self.body).decode("utf-8"))
            except ValueError:
                raise HTTPError(400) from None
            if not isinstance(body, dict) or set(body) != {"grant"}:
                raise HTTPError(400)
            given = take_grant(body["grant"], client=self.request.remote_ip or "")
            if given is None:
                raise HTTPError(403)
            secure = is_https(self.request, self.request.headers.get("Origin", ""))
            have = _request_cookies(self.request)
            for kind, room, secret in given.cookies:
                if kind.rooms:
                    kept = with_room(kind, parse(kind, have.get(kind.name, "")), room, secret)
                    value = value_of(kind, kept)
                    have[kind.name] = value
                else:
                    value = secret
                set_secret_cookie(self, kind, value, secure)
            self.set_status(204)
            self.finish()

        def write_error(self, status_code: int, **kwargs) -> None:
            self.finish()  # no page, no traceback: the status says it

    return CookieHandler
