"""``nefertiti serve``: the tutor as a web app for a group: the front page (``/``), the Sandbox
(``/tutor``, one game per browser session), the classroom's teacher page (``/classroom``),
learners' page (``/join``) and read-only projector view (``/projector``). This module puts the pages together; what serves them, with no view
in it, is in ``widgets.server``.

The engine's command line knows nothing of Panel: this module plugs the ``serve`` command in
through the ``nefertiti.commands`` entry point (see pyproject.toml), and imports Panel only when
the command runs.

What the server lets a visitor do, and what it refuses, is written down in docs/security.md:
Panel's ``/components/`` route serves only :data:`COMPONENT_MODULES` (none: the
Sandbox's page asks for nothing there), websockets are accepted only from the served address
(and the hosts ``--allow-websocket-origin`` names), live sessions are capped
(``--max-sessions``), each client may have only so many pages open
(``--sessions-per-client``) and start only so many sessions a minute
(``--sessions-per-minute``), a session whose page sent nothing for ``--idle-minutes`` is
closed, the secrets a browser keeps (the teacher's key, a learner's token, the device's and
the browser's ids) are HttpOnly cookies the server alone sets (``POST /cookie``) and no page
holds (``widgets.server.cookies``), and a secret a request's address may carry (a projector
link's token, an old teacher link's key) is hidden in the server's log
(``widgets.server.access_log``).
"""

from __future__ import annotations

import argparse
import html
import ipaddress
import logging
import os
import re
import secrets
import signal
import sys

from nefertiti_core.cli import number_in
from widgets.server.addresses import is_ip
from widgets.server.limits import (
    MAX_SESSIONS,
    MESSAGE_BYTES_PER_WINDOW,
    SESSIONS_PER_CLIENT,
    SESSIONS_PER_MINUTE,
    SessionGuard,
)

log = logging.getLogger("nefertiti.serve")

APP_NAME = "tutor"
#: Minutes without a message from a page before its session is closed (docs/security.md); the
#: caps on sessions are in widgets.server.limits.
IDLE_MINUTES = 60
#: Modules whose resources Panel's ``/components/<module>/...`` route may serve. That route
#: imports the module a URL names; the Sandbox's page requests nothing from it (checked in
#: Chromium: every request of a page that opens every view), so nothing is served there.
COMPONENT_MODULES: frozenset[str] = frozenset()
#: A session that was made but never connected (a page fetched by a script, an ``<img>``) is
#: dropped after this long; Bokeh checks every CHECK_UNUSED_MS.
UNUSED_SESSION_MS = 15_000
CHECK_UNUSED_MS = 5_000
#: Websocket pings: a page that is gone without closing (a laptop's lid shut, a dropped Wi-Fi)
#: is noticed when it stops answering them: pinged every PING_INTERVAL_S, its connection closed
#: when a ping has no answer within PING_TIMEOUT_S (so at most about 40 s after it went).
#: Tornado (6.5 on) takes no timeout longer than the interval: it would use the interval and warn
#: at every start.
PING_INTERVAL_S = 20
PING_TIMEOUT_S = 20
#: Largest message a page may send (Bokeh's default is 20 MB): an upload travels as one message,
#: base64-encoded, and is the largest a page sends: a file of nefertiti_core.engine.limits.
#: MAX_FILE_BYTES (1 MiB) was a 1,398,366-byte message through the real page
#: (benchmarks/message_flood.py); a file a little over the limit still arrives and is refused in
#: words. A larger message closes that page's connection (its game is autosaved); the memory and
#: time a page can make the server spend on one message are bounded by this, and on many by
#: widgets.server.limits.MESSAGE_BYTES_PER_WINDOW.
MAX_MESSAGE_BYTES = 1536 * 1024
_WILDCARD = ("0.0.0.0", "::")
_HOST = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


def register(subparsers) -> None:
    """Add ``serve`` to the ``nefertiti`` command (called by nefertiti_core.cli)."""
    cmd = subparsers.add_parser(
        "serve",
        help="serve the Sandbox (live board, whole games) as a web app on this computer",
        description="Start the tutor's Sandbox as a web app. Each browser tab gets its own game. "
        "It listens on 127.0.0.1 unless --address says otherwise. See docs/security.md for "
        "what the server allows and refuses.",
    )
    cmd.add_argument("--port", type=_port, default=5006, help="TCP port (default 5006)")
    cmd.add_argument(
        "--address",
        type=_address,
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets other computers connect)",
    )
    cmd.add_argument(
        "--allow-websocket-origin",
        dest="origins",
        metavar="HOST[:PORT]",
        action="append",
        type=_origin,
        default=[],
        help="also accept pages served under this host name (a proxy's, a DNS name); "
        "repeatable. By default only the address the server listens on (with --address "
        "0.0.0.0: this computer's names and addresses) is accepted",
    )
    cmd.add_argument(
        "--max-sessions",
        type=_count("--max-sessions", 1, 10_000),
        default=MAX_SESSIONS,
        metavar="N",
        help=f"games open at once; more page loads are refused (default {MAX_SESSIONS})",
    )
    cmd.add_argument(
        "--sessions-per-client",
        type=_count("--sessions-per-client", 1, 10_000),
        default=SESSIONS_PER_CLIENT,
        metavar="N",
        help=f"pages one computer may have open at once (default {SESSIONS_PER_CLIENT}; raise it "
        "behind a proxy or NAT, where every device has the same address)",
    )
    cmd.add_argument(
        "--sessions-per-minute",
        type=_count("--sessions-per-minute", 1, 10_000),
        default=SESSIONS_PER_MINUTE,
        metavar="N",
        help=f"new games one computer may start in a minute (default {SESSIONS_PER_MINUTE})",
    )
    cmd.add_argument(
        "--idle-minutes",
        type=_count("--idle-minutes", 0, 7 * 24 * 60),
        default=IDLE_MINUTES,
        metavar="M",
        help=f"close a game whose page sent nothing for M minutes (default {IDLE_MINUTES}; "
        "0: never)",
    )
    cmd.add_argument(
        "--database",
        type=_database,
        metavar="URL",
        help="where saved games and rooms are kept: postgresql://user:password@host:5432/db for "
        "several server processes sharing rooms (docs/deploy.md), or sqlite:///path; default "
        "$NEFERTITI_STORE_URL, else an SQLite file under $NEFERTITI_HOME",
    )
    cmd.add_argument(
        "--public-url",
        type=_public_url,
        default="",
        metavar="URL",
        help="the address learners' devices open this server at, when it is not this "
        "computer's own (a proxy's or the school's name, e.g. https://tutor.school.example): "
        "the classroom's join link, QR code and projector link use it, and pages opened under "
        "it are accepted. By default the link uses the address the teacher's page was opened "
        "at, or, for 127.0.0.1, this computer's address on the network (with --address 0.0.0.0)",
    )
    cmd.add_argument("--show", action="store_true", help="open a browser tab")
    cmd.set_defaults(run=run)


# ---------------------------------------------------------------------- arguments
def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: a port is from 1 to 65535")
    return value


def _address(text: str) -> str:
    if not _HOST.match(text) and not is_ip(text):
        raise argparse.ArgumentTypeError(
            f"{text[:60]!r} is not an IP address or host name (e.g. 127.0.0.1, 0.0.0.0)"
        )
    return text


def _public_url(text: str) -> str:
    from widgets.server.addresses import public_url

    if text == "":  # the default (argparse passes it through here too): none
        return ""
    try:
        return public_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _origin(text: str) -> str:
    """``HOST`` or ``HOST:PORT``: no scheme, path or wildcard (and no IPv6 address, which
    Bokeh's origin check cannot express)."""
    match = re.match(r"^([^:]*)(?::(\d{1,5}))?$", text)
    host, port = (match.group(1), match.group(2)) if match else ("", None)
    if not host or not _HOST.match(host) or (port is not None and not 1 <= int(port) <= 65535):
        raise argparse.ArgumentTypeError(
            f"{text[:60]!r} is not HOST or HOST:PORT (e.g. tutor.school.example:5006; "
            "no http://, path or *)"
        )
    return text.lower()


def _database(text: str) -> str:
    try:
        from widgets.server.store import StoreError, database_url
    except ImportError:  # SQLAlchemy missing: run() says what to install
        return text
    try:
        database_url(text)
    except StoreError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _count(option: str, low: int, high: int):
    return number_in(low, high, name=option)


# ---------------------------------------------------------------------- origins
def served_origins(address: str, port: int, extra=()) -> list[str]:
    """The ``host:port`` values a page of this server may be opened under.

    A specific address gives itself (and the loopback names when it is a loopback address);
    ``0.0.0.0`` / ``::`` gives this computer's names and addresses (as far as it knows them).
    ``extra`` (``--allow-websocket-origin``) is added as given.
    """
    hosts = {address}
    loopback = is_ip(address) and ipaddress.ip_address(address).is_loopback
    if loopback or address in _WILDCARD or address == "localhost":
        hosts |= {"localhost", "127.0.0.1"}
    if address in _WILDCARD:
        hosts.discard(address)
        hosts |= _this_computer()
    # Bokeh's origin check cannot express IPv6 addresses: pages are opened by name or IPv4
    hosts = {h for h in hosts if ":" not in h}
    origins = sorted(f"{host}:{port}" for host in hosts)
    if port == 80:
        origins += sorted(hosts)
    return origins + [origin for origin in extra if origin not in origins]


def _this_computer() -> set[str]:
    from widgets.server.addresses import this_computer

    return this_computer()


# ---------------------------------------------------------------------- the handlers
def install_handlers() -> None:
    """Apply the served app's framework patches once (``widgets.server.patches.apply_server``):
    the page and ``autoload.js`` ask the session guard first, a request the handler fails on
    unexpectedly answers 400, each websocket sends at once (TCP_NODELAY) and reports its page's
    activity to ``widgets.server.state.SERVED``."""
    from widgets.server import patches

    patches.apply_server()


def _component_handler():
    """Panel's ``/components/`` handler, limited to :data:`COMPONENT_MODULES`."""
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError

    class AllowListedComponents(ComponentResourceHandler):
        def parse_url_path(self, path: str) -> str:
            if not component_allowed(path):
                raise HTTPError(404, "not served here")
            try:
                return super().parse_url_path(path)
            except HTTPError:
                raise
            except Exception:
                raise HTTPError(404, "not served here") from None

    return AllowListedComponents


def component_allowed(path: str, modules=None) -> bool:
    """Whether ``/components/<path>`` names a module of the allow list (before any import)."""
    modules = COMPONENT_MODULES if modules is None else modules
    module = path.split("/", 1)[0]
    return module in modules


def deferred_app():
    """The Sandbox as a served page: a spinner, the Sandbox once the page's websocket connects
    (``widgets.game.common.deferred_page``: a script's page load builds no Sandbox), its saved
    game read from the store off the event loop first; a page that lost its server covers
    itself and reloads when it is back (``widgets.game.reconnect``)."""
    from widgets.game.language import browser_language
    from widgets.game.reconnect import SANDBOX_WORDS, reconnecting_page
    from widgets.sandbox.app import make_app
    from widgets.sandbox.autosave import read_served, served_request

    request = served_request()  # what the page asks for (cheap, on the loop)
    # the store read off the event loop (a slow database holds no other page), then the page;
    # after a restart it reloads itself, back to its game (?game= in its address)
    return reconnecting_page(
        lambda found: make_app(request, found),
        prepare=lambda: read_served(request),
        lang=browser_language(),
        keys=SANDBOX_WORDS,
        follow=lambda app: app.sandbox,
    )


def report_callback_error(error: BaseException) -> None:
    """A failing callback: logged on the server, shown to that browser session only, in the
    page's language."""
    import panel as pn

    from nefertiti_core.engine.i18n import tr
    from widgets.game.language import page_language

    log.error("callback failed", exc_info=error)
    try:
        if pn.state.notifications is not None:
            # the notification's text is HTML: an error may quote a file or an input
            text = tr(page_language(), "panel.error.callback", error=str(error)[:300])
            pn.state.notifications.error(html.escape(text))
    except Exception:  # pragma: no cover - no session to tell
        log.debug("could not notify the session", exc_info=True)


def tell_choice_refused(_widget=None) -> None:
    """A choice the page's browser sent that its widget does not offer, refused
    (``widgets.server.patches.FORGED_CHOICES``): the page is told in its language, on its game's
    error line and in a notification."""
    import panel as pn

    from nefertiti_core.engine.i18n import tr
    from widgets.game.language import page_language
    from widgets.game.session import page_session

    text = tr(page_language(), "panel.error.no_such_choice")
    session = page_session()
    if session is not None:
        session.error = text
    if pn.state.notifications is not None:
        pn.state.notifications.warning(html.escape(text))


def _warm_practice() -> None:
    """Make the Practice view's first exercises in a thread at start-up, so the first page that
    opens Practice does not play a game on the event loop while every other page waits."""
    import threading

    from widgets.sandbox.practice import shared_supply

    threading.Thread(target=shared_supply, name="practice-supply", daemon=True).start()


def serve(
    port: int = 5006,
    address: str = "127.0.0.1",
    show: bool = False,
    *,
    allow_websocket_origin=(),
    max_sessions: int = MAX_SESSIONS,
    sessions_per_minute: int = SESSIONS_PER_MINUTE,
    sessions_per_client: int = SESSIONS_PER_CLIENT,
    idle_minutes: float = IDLE_MINUTES,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
    message_bytes_per_window: int = MESSAGE_BYTES_PER_WINDOW,
    public_url: str = "",
    **kwargs,
):
    """Serve the Sandbox; blocks until stopped (Ctrl+C, SIGTERM). ``public_url``: the address
    learners open (``--public-url``, checked by ``widgets.server.addresses.public_url``; the
    classroom's links use it). ``max_message_bytes`` and ``message_bytes_per_window`` (0: no
    budget) are for benchmarks and tests."""
    import panel as pn
    from tornado.ioloop import PeriodicCallback

    from widgets.server import access_log
    from widgets.server.gc_pacing import start as pace_collections
    from widgets.server.state import SERVED

    install_handlers()
    access_log.install()
    from widgets.server import patches

    patches.choice_refused = tell_choice_refused
    _warm_practice()
    pn.extension(notifications=True)
    pn.config.exception_handler = report_callback_error
    from widgets.server.motion import hold_still

    hold_still()  # still pages for a visitor who asks for less motion
    from widgets.server import addresses

    # where learners' devices reach this server: the classroom's join link and QR code
    public_url = addresses.public_url(public_url) if public_url else ""
    addresses.configure(addresses.listening(address, port, public_url))
    extra_origins = list(allow_websocket_origin)
    if public_url:  # pages opened under the public address (a proxy's) are accepted
        extra_origins.append(addresses.origin_of(public_url))
    origins = served_origins(address, port, extra_origins)
    log.info("websocket origins accepted: %s", ", ".join(origins))
    extra = list(kwargs.pop("extra_patterns", []))
    # before Panel's own /components/ route: tornado takes the first route that matches
    extra.append((r"/components/(.*)", _component_handler(), {}))
    # our front page, not Panel's gallery (which loads fonts and images from the internet)
    from widgets.server.home_page import home_handler

    extra.append((r"/", home_handler(), {}))
    # the secret cookies: set by the server only (HttpOnly), never copied into a page's token
    from widgets.server.cookies import BOKEH_SETTINGS, COOKIE_PATH, cookie_handler

    extra.append((COOKIE_PATH, cookie_handler(), {"origins": origins}))
    # a class's record as CSV, for the class's teacher only (their cookie, checked here)
    from widgets.classroom.class_export import EXPORT_PATH, export_handler

    extra.append((EXPORT_PATH, export_handler(), {}))
    from widgets.classroom.learner import learner_app
    from widgets.classroom.projector_page import projector_application
    from widgets.classroom.teacher import teacher_app

    server = pn.serve(
        # the Sandbox; the classroom's teacher page, learners' page and projector view
        {
            APP_NAME: deferred_app,
            "classroom": teacher_app,
            "join": learner_app,
            "projector": projector_application("Nefertiti tutor"),
        },
        port=port,
        address=address,
        show=show,
        start=False,
        title="Nefertiti tutor",
        websocket_origin=origins,
        extra_patterns=extra,
        # a session token signed with a key of this run: a websocket can only join a session
        # a page load of this server made (and was admitted by the guard)
        sign_sessions=True,
        secret_key=secrets.token_urlsafe(32),
        unused_session_lifetime=UNUSED_SESSION_MS,
        check_unused_sessions=CHECK_UNUSED_MS,
        websocket_ping_interval=PING_INTERVAL_S,
        websocket_ping_timeout=PING_TIMEOUT_S,
        websocket_max_message_size=max_message_bytes,
        **BOKEH_SETTINGS,
        **kwargs,
    )
    SERVED.guard = SessionGuard(max_sessions, sessions_per_minute, per_client=sessions_per_client)
    SERVED.bytes_per_window = message_bytes_per_window or None
    if idle_minutes:
        idle = PeriodicCallback(
            lambda: SERVED.close_idle(idle_minutes * 60), min(60_000, idle_minutes * 30_000)
        )
        idle.start()
    server.start()
    # full garbage collections when no message is in flight, never in the middle of a move
    SERVED.pacer = pace_collections()
    # SIGTERM (a service manager, `kill`) stops the loop like Ctrl+C, and either way the games
    # with a save still scheduled are written before the process ends (nothing lost)
    loop = server.io_loop
    previous = signal.signal(signal.SIGTERM, lambda *_: loop.add_callback_from_signal(loop.stop))
    try:
        loop.start()
    except RuntimeError:  # pragma: no cover - a loop already running (a notebook)
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        from widgets.game.session import flush_saves

        written = flush_saves()
        if written:
            print(
                f"Nefertiti tutor stopping: {written} game(s) written.", file=sys.stderr, flush=True
            )
    return server


def run(args: argparse.Namespace) -> int:
    try:
        import panel  # noqa: F401

        from widgets.server.patches import PanelPatchMissing
    except ImportError:
        print(
            "nefertiti serve: error: Panel is not installed; install the tutor extras "
            "(make tutor, or pip install -e '.[tutor]')",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    url = getattr(args, "database", None) or os.environ.get("NEFERTITI_STORE_URL")
    if url:  # a database named: it must work before a page is served (docs/deploy.md)
        from widgets.server.store import StoreError, configure

        try:
            store = configure(url)
        except StoreError as error:
            given = "--database" if getattr(args, "database", None) else "NEFERTITI_STORE_URL"
            print(f"nefertiti serve: error: {given}: {error}", file=sys.stderr)
            return 2
        print(f"Saved games and rooms: {store.where()}", flush=True)
    from widgets.server.addresses import console_lines, listening

    # the Sandbox, and the classroom's teacher and join pages at every address that reaches them
    for line in console_lines(listening(args.address, args.port, args.public_url), APP_NAME):
        print(line, flush=True)
    try:
        serve(
            args.port,
            args.address,
            args.show,
            allow_websocket_origin=args.origins,
            max_sessions=args.max_sessions,
            sessions_per_minute=args.sessions_per_minute,
            sessions_per_client=args.sessions_per_client,
            idle_minutes=args.idle_minutes,
            public_url=args.public_url,
        )
    except (OSError, ValueError) as error:
        print(
            f"nefertiti serve: error: cannot listen on {args.address}:{args.port} ({error})",
            file=sys.stderr,
        )
        return 2
    except PanelPatchMissing as error:  # a Panel or Bokeh the server's limits were not made for
        print(f"nefertiti serve: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
