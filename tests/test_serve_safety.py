"""``nefertiti serve`` as an attacker and a careless user meet it (issue #14, docs/security.md).

* importing any module of the project runs nothing (Panel's ``/components/<module>/`` route
  imported whatever a URL named; ``nefertiti_core/__main__.py`` then ran ``serve`` again and its
  ``SystemExit`` stopped the server);
* the command's arguments (origins, caps) are checked, each bad one a single line;
* the served app, hit with hostile requests (module names, path traversal encoded several ways,
  huge headers, a garbage websocket upgrade, a foreign Origin, odd ``autoload.js`` parameters),
  answers each with a 4xx, never a 500, and keeps serving;
* the session caps: the live-session cap answers 503, the per-client rate 429, each with a
  sentence naming why; an idle websocket is closed.

One server per fixture (module scope), on a free port of 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from support import free_port, served  # noqa: E402

from nefertiti_core import cli  # noqa: E402
from widgets import serve as S  # noqa: E402

pytestmark = pytest.mark.slow  # real servers and idle timeouts (10-20 s a test here)

# --- importing runs nothing ----------------------------------------------------------------------
IMPORT_ALL = r"""
import contextlib, importlib, io, json, pkgutil, sys, threading
import nefertiti_core, widgets
names = []
for package in (nefertiti_core, widgets):
    names.append(package.__name__)
    names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
report = {}
threads = threading.active_count()
for name in names:
    out, err = io.StringIO(), io.StringIO()
    problem = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            importlib.import_module(name)
    except BaseException as error:  # SystemExit included
        problem = f"{type(error).__name__}: {error}"
    report[name] = {"problem": problem, "out": out.getvalue(), "err": err.getvalue()}
report["__threads__"] = threading.active_count() - threads
print(json.dumps(report))
"""


def test_importing_any_module_of_the_project_runs_nothing():
    """Every module of nefertiti_core and widgets (walked, so a new one is covered): no exit, no
    output, no thread started. Fails on the old ``__main__.py`` (its import exits 2)."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "nefertiti_core.__main__" in report and "widgets.serve" in report
    assert len(report) > 40
    assert report.pop("__threads__") == 0
    bad = {name: r for name, r in report.items() if r["problem"] or r["out"] or r["err"].strip()}
    assert not bad, bad


def test_python_dash_m_still_runs_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "usage: nefertiti" in done.stdout


# --- the command's arguments ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--allow-websocket-origin", "http://evil.example"], "is not HOST or HOST:PORT"),
        (["--allow-websocket-origin", "*"], "is not HOST or HOST:PORT"),
        (["--allow-websocket-origin", "a.example/x"], "is not HOST or HOST:PORT"),
        (["--allow-websocket-origin", "a.example:99999"], "is not HOST or HOST:PORT"),
        (["--allow-websocket-origin", "[::1]:5006"], "is not HOST or HOST:PORT"),
        (["--max-sessions", "many"], "argument --max-sessions: 'many' is not a whole number"),
        (["--max-sessions", "0"], "argument --max-sessions: 0 is not from 1 to 10000"),
        (["--sessions-per-minute", "1e3"], "--sessions-per-minute: '1e3' is not a whole number"),
        (["--idle-minutes", "-1"], "argument --idle-minutes: -1 is not from 0 to 10080"),
        (["--address", "not an address"], "is not an IP address or host name"),
        (["--port", "0"], "a port is from 1 to 65535"),
    ],
)
def test_a_bad_serve_argument_is_one_line(capsys, argv, needle):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("nefertiti serve: error: ") and needle in err, err


def test_good_origins_are_accepted_as_given():
    parser = cli.build_parser()
    args = parser.parse_args(
        [
            "serve",
            "--allow-websocket-origin",
            "Tutor.School.example",
            "--allow-websocket-origin",
            "10.0.0.5:8080",
        ]  # fmt: skip
    )
    assert args.origins == ["tutor.school.example", "10.0.0.5:8080"]
    assert (args.max_sessions, args.sessions_per_minute, args.idle_minutes) == (
        S.MAX_SESSIONS,
        S.SESSIONS_PER_MINUTE,
        S.IDLE_MINUTES,
    )


def test_served_origins_are_the_served_address_only():
    assert S.served_origins("127.0.0.1", 5006) == ["127.0.0.1:5006", "localhost:5006"]
    assert S.served_origins("192.168.1.5", 80, ["tutor.example"]) == [
        "192.168.1.5:80",
        "192.168.1.5",
        "tutor.example",
    ]
    every = S.served_origins("0.0.0.0", 5006)
    assert "127.0.0.1:5006" in every and "localhost:5006" in every
    assert all(not o.startswith(("*", "0.0.0.0")) and o.endswith(":5006") for o in every), every


def test_the_guard_caps_each_clients_open_pages_before_the_servers_total():
    guard = S.SessionGuard(max_sessions=10, per_minute=100, per_client=3)
    assert guard.admit("10.0.0.1", live=5, open_here=2) is None
    assert guard.admit("10.0.0.1", live=6, open_here=3) == "client"  # this computer: its cap
    assert guard.admit("10.0.0.2", live=6, open_here=0) is None  # another: still in
    assert guard.admit("10.0.0.3", live=10, open_here=0) == "full"
    assert "already has 3 tutor pages open" in guard.message("client")
    assert "3 个教程页面" in guard.message("client", "zh")


def test_the_guard_caps_live_sessions_and_each_clients_rate():
    now = [0.0]
    guard = S.SessionGuard(max_sessions=3, per_minute=2, clock=lambda: now[0])
    assert guard.admit("10.0.0.1", live=0) is None
    assert guard.admit("10.0.0.1", live=1) is None
    assert guard.admit("10.0.0.1", live=2) == "rate"  # a third in the same minute
    assert guard.admit("10.0.0.2", live=2) is None  # another computer
    assert guard.admit("10.0.0.3", live=3) == "full"
    now[0] = 60.0  # a minute after the first two
    assert guard.admit("10.0.0.1", live=1) is None
    assert guard.refused == {"rate": 1, "full": 1}
    assert "at most 2 a minute" in guard.message("rate")
    assert "3 Partien" in guard.message("full", "de-DE,de;q=0.9,en;q=0.5")
    assert "3 局" in guard.message("full", "zh-CN")


def test_the_component_route_serves_only_the_allow_list():
    assert S.COMPONENT_MODULES == frozenset()
    for path in (
        "nefertiti_core.__main__/x/__css__/y",
        "this/x/__css__/y",
        "os/x/__css__/y",
        "../../etc/passwd/__css__/y",
    ):
        assert not S.component_allowed(path)
    assert S.component_allowed("panel.pane/HTML/__css__/a.css", {"panel.pane"})
    assert not S.component_allowed("panel.pane.x/HTML/__css__/a.css", {"panel.pane"})


# --- the served app under hostile requests -------------------------------------------------------
SERVE = "from widgets.serve import serve; serve(port=PORT, address='127.0.0.1', show=False{extra})"


def _serve(extra: str = ""):
    return served(SERVE.format(extra=extra), "tutor")


@pytest.fixture(scope="module")
def server():
    """A served Sandbox, its process watched: a test asserts it is still running."""
    port = free_port()
    code = SERVE.format(extra="").replace("PORT", str(port))
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    from support import wait_for_http

    try:
        wait_for_http(base + "/tutor")
    except RuntimeError:
        process.kill()
        raise RuntimeError(process.communicate(timeout=10)[0][-3000:]) from None
    yield base, port, process
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def raw(port: int, request: bytes, source: str = "127.0.0.1", timeout: float = 60) -> bytes:
    """Send bytes as they are (no client library fixing them up); return the answer."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    ) as s:
        s.sendall(request)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"101 Switching" in chunks[0]:
                    break
        except TimeoutError:
            pass
    return b"".join(chunks)


def status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(match.group(1)) if match else 0


def get(port: int, path: str, headers: str = "", source: str = "127.0.0.1") -> bytes:
    return raw(
        port,
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Connection: close\r\n\r\n".encode(),
        source,
    )


HOSTILE_PATHS = [
    "/components/nefertiti_core.__main__/x/__css__/y",
    "/components/widgets.serve/x/__css__/y",
    "/components/this/x/__css__/y",
    "/components/os/system/__css__/y",
    "/components/antigravity/x/__css__/y",
    "/components/..%2f..%2fetc/passwd/__css__/y",
    "/components/..%252f..%252fetc/passwd/__css__/y",
    "/components/%2e%2e/%2e%2e/etc/passwd/__css__/y",
    "/components/../../etc/passwd",
    "/components/..%5c..%5cetc%5cpasswd/__css__/y",
    "/components/panel/Column/__css__/../../../../etc/passwd",
    "/components/x",
    "/components/%00/x/__css__/y",
    "/static/..%2f..%2f..%2fetc/passwd",
    "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/tutor/..%2f..%2fetc/passwd",
    "/tutor/autoload.js",
    "/tutor/autoload.js?bokeh-autoload-element=%3Cscript%3E&bokeh-absolute-url=%%%",
    "/tutor/autoload.js?bokeh-autoload-element=x&bokeh-absolute-url=http://[::1",
    "/tutor/autoload.js?bokeh-autoload-element=x&bokeh-app-path=../../..&bokeh-absolute-url="
    + "a" * 5000,
    "/tutor/metadata",
    "/tutor?bokeh-session-id=../../x",
]


def test_hostile_requests_get_4xx_and_the_server_keeps_serving(server):
    base, port, process = server
    answers = {}
    for path in HOSTILE_PATHS:
        answers[path] = status(get(port, path))
    # ~64 KB of headers: refused as too large (or the connection closed), not a crash
    answers["huge headers"] = status(get(port, "/tutor", "X-Filler: " + "a" * 65_536 + "\r\n"))
    answers["many headers"] = status(
        get(port, "/tutor", "".join(f"X-H{i}: {'b' * 60}\r\n" for i in range(1100)))
    )
    answers["garbage"] = status(raw(port, b"\x16\x03\x01\x00\xa5garbage\r\n\r\n"))
    upgrade = (
        "GET /tutor/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n{more}\r\n"
    )
    answers["ws garbage key"] = status(
        raw(port, upgrade.format(port=port, more="Sec-WebSocket-Key: !!!\r\n").encode(), timeout=10)
    )
    answers["ws no key"] = status(
        raw(port, upgrade.format(port=port, more="").encode(), timeout=10)
    )
    answers["ws bad origin"] = status(
        raw(
            port,
            upgrade.format(
                port=port,
                more="Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Origin: http://evil.example\r\nSec-WebSocket-Protocol: bokeh, x\r\n",
            ).encode(),
            timeout=10,
        )
    )
    print(json.dumps({k[:100]: v for k, v in answers.items()}, indent=1))
    # never a server error (0: the server closed the connection, as tornado does for headers
    # over its 64 KB limit); a page or autoload.js with its parameters is a session (200), a
    # websocket upgrade without an Origin header (no browser sends one) is opened, then closed
    # for want of the bokeh subprotocol and token
    assert all(code < 500 for code in answers.values()), answers
    files = [p for p in HOSTILE_PATHS if p.startswith(("/components", "/static", "/tutor/.."))]
    assert all(400 <= answers[p] < 500 for p in files), {p: answers[p] for p in files}
    assert answers["/components/nefertiti_core.__main__/x/__css__/y"] == 404
    assert answers["/components/..%2f..%2fetc/passwd/__css__/y"] == 404
    assert answers["ws bad origin"] == 403
    time.sleep(1.0)
    assert process.poll() is None, "the server stopped"
    page = get(port, "/tutor")
    assert status(page) == 200 and b'"token":' in page


def test_no_cookie_reaches_a_pages_session_token(server):
    """Bokeh copies a page request's cookies and headers into the session token it embeds in
    the page (a JWT: any script there can read it). The served app's secrets are HttpOnly
    cookies, and neither they nor the Cookie header are in the token: only a one-time ticket.
    Old script-set cookies come back as HttpOnly ones, in the answer's headers only."""
    from bokeh.util.token import get_token_payload

    base, port, process = server
    secret = "s" * 32
    cookie = f"Cookie: nefertiti_browser_id={secret}; nefertiti_teacher_ABCD2345={secret}; x=1\r\n"
    page = get(port, "/tutor", cookie)
    assert status(page) == 200
    head, body = page.split(b"\r\n\r\n", 1)
    payload = get_token_payload(_token(page))
    assert payload["cookies"] == {} and "Cookie" not in payload["headers"], payload
    assert len(payload["arguments"]["nefertiti-ticket"][0]) >= 16
    assert secret.encode() not in body
    moved = [
        line for line in head.split(b"\r\n") if line.startswith(b"Set-Cookie: nefertiti_teacher=")
    ]
    assert len(moved) == 1 and b"HttpOnly" in moved[0] and b"SameSite=Strict" in moved[0]


def _token(page: bytes) -> str:
    return re.search(rb'"token":"([^"]+)"', page).group(1).decode()


def _websocket(port: int, token: str, origin: str):
    """Open the page's websocket with ``origin``; the handshake's HTTP status (101: accepted)."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.ioloop import IOLoop
    from tornado.websocket import websocket_connect

    async def connect():
        request = HTTPRequest(f"ws://127.0.0.1:{port}/tutor/ws", headers={"Origin": origin})
        try:
            connection = await websocket_connect(request, subprotocols=["bokeh", token])
        except HTTPClientError as error:
            return error.code, None
        return 101, connection

    return IOLoop.current().run_sync(connect, timeout=60)


def test_a_websocket_from_a_foreign_origin_is_refused_the_served_one_accepted(server):
    base, port, process = server
    token = _token(get(port, "/tutor"))
    for origin in ("http://evil.example", f"http://127.0.0.1.evil.example:{port}", "null"):
        code, _ = _websocket(port, token, origin)
        assert code == 403, origin
    code, connection = _websocket(port, token, f"http://127.0.0.1:{port}")
    assert code == 101
    connection.close()
    code, connection = _websocket(port, token, f"http://localhost:{port}")
    assert code == 101
    connection.close()


def test_a_websocket_with_a_forged_token_does_not_make_a_session(server):
    """Tokens are signed with a key of the server's run: one made up by a client is refused."""
    from bokeh.util.token import generate_jwt_token

    base, port, process = server
    forged = generate_jwt_token("made-up-session-id", signed=False)
    code, connection = _websocket(port, forged, f"http://127.0.0.1:{port}")
    if code == 101:  # the handshake may complete; the server then closes it at once
        from tornado.ioloop import IOLoop

        # a joined session's first message is Bokeh's ACK; a refused one is closed at once
        message = IOLoop.current().run_sync(connection.read_message, timeout=30)
        assert message is None
    assert process.poll() is None


@pytest.fixture(scope="module")
def capped():
    with _serve(", max_sessions=4, sessions_per_minute=2, idle_minutes=0.05") as url:
        yield int(url.split(":")[2].split("/")[0])


def test_caps_refuse_new_sessions_with_a_sentence(capped):
    """The fixture's own start-up GET was one session from 127.0.0.1 (the rate's first)."""
    port = capped
    assert status(get(port, "/tutor")) == 200  # 127.0.0.1's second in this minute
    third = get(port, "/tutor")
    assert status(third) == 429, third[:300]
    assert b"at most 2 a minute" in third and b"Retry-After: 60" in third
    assert b"zu viele" in get(port, "/tutor", "Accept-Language: de\r\n").lower()
    assert status(get(port, "/tutor", source="127.0.0.2")) == 200  # another computer
    assert status(get(port, "/tutor", source="127.0.0.2")) == 200  # 4 live sessions now
    full = get(port, "/tutor", source="127.0.0.3")
    assert status(full) == 503, full[:300]
    assert b"The tutor is full: 4 games" in full
    autoload = get(port, "/tutor/autoload.js?bokeh-autoload-element=x", source="127.0.0.4")
    assert status(autoload) == 503


def test_an_idle_session_is_closed(capped):
    """idle_minutes=0.05: a websocket whose page says nothing for 3 s is closed."""
    from tornado.ioloop import IOLoop

    port = capped
    deadline = time.monotonic() + 40  # the caps above: wait until unused sessions expire
    page = b""
    while time.monotonic() < deadline:
        page = get(port, "/tutor", source="127.0.0.5")
        if status(page) == 200:
            break
        time.sleep(2)
    assert status(page) == 200, page[:300]
    code, connection = _websocket(port, _token(page), f"http://127.0.0.1:{port}")
    assert code == 101
    start = time.monotonic()

    async def drain():
        while (await connection.read_message()) is not None:
            pass

    IOLoop.current().run_sync(drain, timeout=30)
    waited = time.monotonic() - start
    assert 2.5 < waited < 20, waited
    assert connection.close_code == 1000 and connection.close_reason == "idle"


def test_a_refused_page_is_plain_text_not_a_traceback(capped):
    with pytest.raises(urllib.error.HTTPError) as refused:
        for _ in range(5):
            urllib.request.urlopen(f"http://127.0.0.1:{capped}/tutor", timeout=60).read()
    body = refused.value.read().decode()
    assert refused.value.code in (429, 503)
    assert refused.value.headers["Content-Type"].startswith("text/plain")
    assert body.count("\n") == 1 and "Traceback" not in body and len(body) < 200


def test_docs_security_names_only_limits_that_exist():
    """docs/security.md describes the limits by their constants: each must exist, with the
    value the page gives for it."""
    from nefertiti_core.engine import limits

    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    names = set(re.findall(r"`(MAX_[A-Z_]+|COMPONENT_MODULES|UNUSED_SESSION_MS|PING_\w*)`", text))
    assert len(names) >= 14
    from nefertiti_core.files import practice
    from widgets.classroom import classes, rejoin, room
    from widgets.server import cookies

    modules = (limits, S, room, cookies, classes, rejoin, practice)
    missing = [n for n in names if not any(hasattr(m, n) for m in modules)]
    assert not missing, missing
    assert "(`MAX_ROOMS_PER_CLIENT`)" in text and "up to 3 rooms" in text
    assert room.MAX_ROOMS_PER_CLIENT == 3
    assert "more than 10 wrong PINs from one client address" in text
    assert rejoin.MAX_WRONG_PER_CLIENT == 10
    # every test the classroom's table names exists
    tests = set(re.findall(r"`(?:[\w/]+\.py::)?(test_\w+)`", text))
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    absent = sorted(n for n in tests if f"def {n}(" not in source)
    assert len(tests) >= 14 and not absent, absent
    assert "`MAX_FILE_BYTES` (1 MiB)" in text and limits.MAX_FILE_BYTES == 1 << 20
    assert "`MAX_STEPS` (5,000 steps)" in text and limits.MAX_STEPS == 5_000
    assert "`MAX_NAME_CHARS` (60" in text and limits.MAX_NAME_CHARS == 60
    assert "`MAX_MESSAGE_BYTES` (1.5 MiB)" in text and S.MAX_MESSAGE_BYTES == 3 << 19
    assert f"default {S.MAX_SESSIONS})" in text and f"default {S.SESSIONS_PER_MINUTE})" in text
    assert f"default {S.SESSIONS_PER_CLIENT})" in text
    assert "`MAX_COOKIE_BODY_BYTES` (256 bytes" in text and cookies.MAX_COOKIE_BODY_BYTES == 256
    assert "`MAX_CALIBRATING_ANSWERS` (60)" in text and practice.MAX_CALIBRATING_ANSWERS == 60


def _websocket_from(port: int, token: str, source: str):
    """The page's websocket opened from the address ``source`` (a computer of the class)."""
    from tornado.httpclient import HTTPRequest
    from tornado.ioloop import IOLoop
    from tornado.websocket import websocket_connect

    async def connect():
        request = HTTPRequest(
            f"ws://127.0.0.1:{port}/tutor/ws",
            headers={"Origin": f"http://127.0.0.1:{port}"},
            network_interface=source,
        )
        return await websocket_connect(request, subprotocols=["bokeh", token])

    return IOLoop.current().run_sync(connect, timeout=60)


def test_one_computer_cannot_fill_the_server_while_another_still_gets_in():
    """The attack: one address loads pages and keeps their websockets open (answering pings,
    nothing else) until every session is taken and the class is refused. Now that address is
    refused at its own cap and the next computer still gets in; a page it closes frees a place."""
    with _serve(", max_sessions=20, sessions_per_minute=100, sessions_per_client=2") as url:
        port = int(url.split(":")[2].split("/")[0])
        held = []
        for _ in range(2):
            page = get(port, "/tutor", source="127.0.0.7")
            assert status(page) == 200, page[:300]
            held.append(_websocket_from(port, _token(page), "127.0.0.7"))
        deadline = time.monotonic() + 60
        refused = b""
        while time.monotonic() < deadline:  # until the server has seen both websockets open
            refused = get(port, "/tutor", source="127.0.0.7")
            if status(refused) != 200:
                break
            time.sleep(0.2)
        assert status(refused) == 429, refused[:300]
        assert b"This computer already has 2 tutor pages open" in refused
        assert status(get(port, "/tutor", source="127.0.0.8")) == 200  # the next computer
        held.pop().close()  # a page closed: a place again
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            answer = get(port, "/tutor", source="127.0.0.7")
            if status(answer) == 200:
                break
            time.sleep(0.2)
        assert status(answer) == 200, answer[:300]
        for connection in held:
            connection.close()


def test_no_page_of_the_served_app_may_be_framed_by_another_site(server):
    """/tutor, /classroom and /join (and the front page) forbid framing by other sites and send
    no Referer (the teacher's page carries its key in the address)."""
    base, port, process = server
    for path in ("/", "/tutor", "/classroom", "/join"):
        head = get(port, path).split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
        assert "frame-ancestors 'self'" in head, (path, head)
        if path != "/":
            assert "x-frame-options: sameorigin" in head and "referrer-policy: no-referrer" in head


def test_a_panel_the_servers_limits_were_not_made_for_stops_it_in_one_line(monkeypatch, capsys):
    """Out of a required patch's bounds the server does not start, and says why in one line
    (no traceback): serving without the session caps would let one computer fill it."""
    from widgets.server import patches as PP

    monkeypatch.setattr(PP, "installed_versions", lambda: {"panel": "2.0.0", "bokeh": "3.9.2"})
    monkeypatch.setattr(PP, "_applied", set())
    parser = argparse.ArgumentParser()
    S.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--port", str(free_port())])
    assert S.run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Panel patch 'websocket' not applied (panel 2.0.0" in err[0]


def test_the_ping_timeout_is_one_tornado_keeps_and_the_server_warns_of_nothing(tmp_path):
    """Tornado (6.5 on, tornado/websocket.py ``ping_timeout``) takes no ping timeout longer than
    the ping interval: it used the interval instead and warned when the first page connected, so
    the documented 60 s were really 20. The configured values are the ones it keeps, and a served
    page's websocket, pinged, leaves no such warning in the server's output."""
    assert 0 < S.PING_TIMEOUT_S <= S.PING_INTERVAL_S
    from tornado.ioloop import IOLoop

    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE.format(extra="").replace("PORT", str(port))],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        from support import wait_for_http

        wait_for_http(f"http://127.0.0.1:{port}/tutor")
        connection = _websocket_from(port, _token(get(port, "/tutor")), "127.0.0.1")
        # the server's first message (Bokeh's ACK) comes once the websocket is open and its
        # pinging has started (Tornado reads the timeout then); one more request after it
        assert IOLoop.current().run_sync(connection.read_message, timeout=60)
        assert status(get(port, "/tutor")) == 200
        connection.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    output = log.read_text()
    assert f"Launching server at http://127.0.0.1:{port}" in output, output[-2000:]
    assert "websocket_ping_timeout" not in output, output[-2000:]


def _read(connection, timeout: float = 60):
    """The server's next Bokeh message (its three fragments), or None once it closed."""
    from tornado.ioloop import IOLoop

    fragments = []
    for _ in range(3):
        fragment = IOLoop.current().run_sync(connection.read_message, timeout=timeout)
        if fragment is None:
            return None
        fragments.append(fragment)
    return fragments


def _send(connection, *fragments: str) -> None:
    from tornado.ioloop import IOLoop

    async def send():
        for fragment in fragments:
            await connection.write_message(fragment)

    IOLoop.current().run_sync(send, timeout=60)


def _patch_doc(n: int, size: int) -> tuple[str, str, str]:
    """A Bokeh message (header, metadata, content) of ``size`` bytes of content: an empty
    PATCH-DOC with padding, which Bokeh reads whole."""
    header = json.dumps({"msgid": str(n), "msgtype": "PATCH-DOC", "num_buffers": 0})
    return header, "{}", '{"events":[],"pad":"' + "A" * (size - 30) + '"}'


def test_a_message_over_the_cap_closes_that_connection_and_the_server_serves_on(server):
    base, port, process = server
    connection = _websocket_from(port, _token(get(port, "/tutor")), "127.0.0.1")
    assert _read(connection) is not None  # Bokeh's ACK: the page is open
    _send(connection, *_patch_doc(1, S.MAX_MESSAGE_BYTES - 4096))  # as large as may be: read
    assert _read(connection) is not None  # Bokeh's OK
    _send(connection, "x" * (S.MAX_MESSAGE_BYTES + 1))
    assert _read(connection) is None  # closed
    assert connection.close_code == 1009  # "message too big"
    assert status(get(port, "/tutor")) == 200 and process.poll() is None


def test_a_client_sending_the_largest_messages_without_pause_is_cut_off_and_another_is_not(server):
    """Messages just under the cap, one after the other: past the page's byte budget
    (``MESSAGE_BYTES_PER_WINDOW`` in ``MESSAGE_WINDOW_S`` seconds) its connection is closed;
    another computer's page opens and is answered meanwhile."""
    from widgets.server.limits import MESSAGE_BYTES_PER_WINDOW

    base, port, process = server
    flood = _websocket_from(port, _token(get(port, "/tutor", source="127.0.0.9")), "127.0.0.9")
    assert _read(flood) is not None
    size = S.MAX_MESSAGE_BYTES - 4096
    sent = 0
    from tornado.websocket import WebSocketClosedError

    with pytest.raises(WebSocketClosedError):
        for n in range(1, 100):
            _send(flood, *_patch_doc(n, size))
            sent += size
            if _read(flood) is None:  # each message answered (OK) until the connection closes
                raise WebSocketClosedError()
    assert MESSAGE_BYTES_PER_WINDOW < sent <= MESSAGE_BYTES_PER_WINDOW + 2 * size
    assert flood.close_code == 1009
    other = _websocket_from(port, _token(get(port, "/tutor", source="127.0.0.10")), "127.0.0.10")
    assert _read(other) is not None
    _send(other, *_patch_doc(1, 1000))
    assert _read(other) is not None
    other.close()
    assert process.poll() is None
