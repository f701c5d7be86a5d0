"""The classroom's and the Sandbox's secrets in HttpOnly cookies no page holds (#29 item 2), in
Chromium against ``nefertiti serve``.

A teacher opens a room on the projected page (1024x768, English), a learner joins it from a
phone (Playwright's Pixel 5: touch, is_mobile, device scale; a German browser), and a Chinese
browser plays a move in the Sandbox. The secrets each browser then keeps (the teacher's key,
the learner's token and device id, the Sandbox's browser id) are cookies the server set:
HttpOnly, SameSite=Strict, path /. After a reload, no page holds any of them: not its HTML, not
the session token Bokeh embeds in it (its payload decoded: no cookie, no Cookie header), not
``document.cookie``, not the page's Bokeh models, not the server's log. A reload, then a
server restart, bring the teacher back to the room, the learner to their seat and the Sandbox
to its game. A page's spent ticket, replayed in another browser once its session is gone,
opens nothing; and ``POST /cookie`` sets a cookie only for a fresh grant posted by the same
page's address, from the served origin: a forged, spent or foreign grant, a key of one's own,
an unknown name, another site's Origin, an oversized body or a form post are refused with a 4xx
and no Set-Cookie.

One server for the module (restarted once, on the same port and ``$NEFERTITI_HOME``), one
Chromium (conftest.py). Chromium missing is a failure.
"""

from __future__ import annotations

import http.client
import json
import re
import time

import pytest
from bokeh.util.token import get_session_id, get_token_payload
from playwright.sync_api import expect
from support import (
    CHROMIUM_ARGS,
    LOAD_MS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    STEP_MS,
    Served,
    canvas_point,
    cookie,
    require_chromium,
    rows,
    source,
    wait_rows,
)

from nefertiti_core.engine.i18n import tr
from widgets.game import geometry as G
from widgets.server.cookies import BROWSER, DEVICE, LEARNER, TEACHER, TICKET_ARG

expect.set_options(timeout=STEP_MS)
#: The served app with room for this module's page loads (all from 127.0.0.1), its INFO lines
#: logged, and Bokeh's line when it discards a session.
SERVE = (
    "import logging; logging.basicConfig(level=logging.INFO); "
    "logging.getLogger('bokeh.server.contexts').setLevel(logging.DEBUG); "
    "from widgets.serve import serve; serve(port=PORT, address='127.0.0.1', show=False, "
    "sessions_per_minute=500, sessions_per_client=100)"
)
PHONE = {"viewport": PIXEL_5_VIEWPORT, **PIXEL_5}  # a Pixel 5 (Playwright's descriptor)
#: Every text a page's Bokeh documents hold (each model's property values, strings within lists,
#: maps and objects included), joined.
MODELS_TEXT = """() => {
    const texts = [], seen = new WeakSet();
    const walk = (value, depth) => {
        if (typeof value === "string") { texts.push(value); return; }
        if (value === null || typeof value !== "object" || depth > 6 || seen.has(value)) return;
        seen.add(value);
        if (value instanceof Map) { for (const [k, v] of value) { walk(k, depth + 1); walk(v, depth + 1); } }
        else if (Array.isArray(value)) { for (const v of value) walk(v, depth + 1); }
        else if (!("id" in value && "document" in value)) {  // a model: walked on its own
            for (const v of Object.values(value)) walk(v, depth + 1);
        }
    };
    for (const doc of Bokeh.documents)
        for (const model of doc.all_models) walk(Object.values(model.attributes), 0);
    return texts.join(" ");
}"""
#: The grant a page holds for its cookies (its hidden input's value), or "".
PAGE_GRANT = """() => {
    for (const doc of Bokeh.documents)
        for (const m of doc.all_models)
            if (typeof m.value === "string" && m.value.includes('"grant"'))
                return JSON.parse(m.value).grant;
    return "";
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("httponly-home"), code=SERVE, name="httponly")
    server.start()
    yield server
    server.stop()


class Browsers:
    """The teacher's, the learner's and the Sandbox's pages, each in its own browser context."""

    def __init__(self, chromium):
        self.chromium = chromium
        self.errors: list[str] = []
        self.contexts = []
        self.code = ""
        self.urls: dict[str, str] = {}
        self.pages: dict[str, object] = {}

    def page(self, **options):
        context = self.chromium.new_context(**options)
        context.set_default_timeout(STEP_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture(scope="module")
def browsers(chromium):
    browsers = Browsers(chromium)
    yield browsers
    browsers.close()
    assert not browsers.errors, f"JavaScript errors in the pages: {browsers.errors}"


def assert_server_set(found: dict, max_age: int) -> None:
    assert found["httpOnly"] is True and found["sameSite"] == "Strict", found
    assert found["path"] == "/" and found["secure"] is False, found  # plain HTTP here
    assert abs(found["expires"] - (time.time() + max_age)) < 3600, found


def token_payload(html: str) -> dict:
    return get_token_payload(re.search(r'"token":"([^"]+)"', html).group(1))


def assert_page_holds_none(page, html: str, secrets: list[str]) -> None:
    """Neither the page's HTML, its session token (decoded), its scripts' cookies nor its Bokeh
    models hold any of ``secrets``."""
    payload = token_payload(html)
    assert payload["cookies"] == {} and "Cookie" not in payload["headers"], payload
    given = payload["arguments"].get(TICKET_ARG)
    assert given and len(given[0]) >= 16, payload["arguments"]  # only the (spent) ticket
    script_cookies = page.evaluate("() => document.cookie")
    assert "nefertiti" not in script_cookies, script_cookies
    models = page.evaluate(MODELS_TEXT)
    assert len(models) > 1000
    for secret in secrets:
        assert secret not in html, "a secret in the page's HTML"
        assert secret not in json.dumps(payload, default=str), "a secret in the session token"
        assert secret not in models, "a secret in the page's Bokeh models"


def secrets_of(browsers) -> list[str]:
    kept = []
    for context in browsers.contexts:
        for found in context.cookies():
            if found["name"] in (TEACHER.name, LEARNER.name):
                kept += [entry.split(":")[1] for entry in found["value"].split(".")]
            elif found["name"] in (DEVICE.name, BROWSER.name):
                kept.append(found["value"])
    return kept


def play_a_square(page) -> None:
    legal = source(page, "board-legal")
    before = rows(page, "board-servants")
    page.mouse.click(*canvas_point(page, legal["x"][0], legal["y"][0], G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", f"n === {before + 1}")


def test_the_secrets_are_httponly_cookies_and_no_page_holds_them(browsers, server):
    teacher = browsers.page(viewport={"width": 1024, "height": 768})
    teacher.goto(f"{server.base}/classroom", timeout=LOAD_MS)
    teacher.locator(".room-open button").click(timeout=LOAD_MS)
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    browsers.code = code = teacher.locator(".room-code").inner_text().strip()
    kept = cookie(teacher.context, TEACHER.name)
    assert_server_set(kept, TEACHER.max_age)
    assert re.fullmatch(rf"{code}:[A-Za-z0-9_-]{{32}}", kept["value"]), "one room, its key"
    browsers.urls["teacher"] = teacher.url
    assert "key" not in teacher.url

    learner = browsers.page(locale="de-DE", **PHONE)
    learner.goto(f"{server.base}/join", timeout=LOAD_MS)
    learner.locator(".room-code-input input").fill(code)
    learner.locator(".room-name-input input").fill("Anna")
    learner.locator(".room-join button").click(timeout=LOAD_MS)
    expect(learner.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
    kept = cookie(learner.context, LEARNER.name)
    assert_server_set(kept, LEARNER.max_age)
    assert re.fullmatch(rf"{code}:[A-Za-z0-9_-]{{32}}", kept["value"])
    assert_server_set(cookie(learner.context, DEVICE.name), DEVICE.max_age)
    expect(teacher.locator(".room-person")).to_have_count(1)

    sandbox = browsers.page(viewport={"width": 1500, "height": 1150}, locale="zh-CN")
    sandbox.goto(f"{server.base}/tutor", timeout=LOAD_MS)
    wait_rows(sandbox, "board-legal", "n > 0", timeout=LOAD_MS)
    assert_server_set(cookie(sandbox.context, BROWSER.name), BROWSER.max_age)
    play_a_square(sandbox)
    wait_for_url(sandbox, "game=")
    browsers.urls["sandbox"] = sandbox.url

    secrets = secrets_of(browsers)
    assert len(secrets) == 4 and all(len(s) >= 22 for s in secrets), secrets
    # each page loaded again with its cookies (the request carries them; the page must not)
    for page, ready in (
        (teacher, ".room-join-code"),
        (learner, ".room-status"),
        (sandbox, ".bk-Canvas"),
    ):
        html = page.reload(timeout=LOAD_MS).text()
        expect(page.locator(ready).first).to_be_visible(timeout=LOAD_MS)
        assert_page_holds_none(page, html, secrets)
    welcome = tr("de", "room.welcome_back", name="Anna")
    expect(learner.get_by_text(welcome)).to_be_visible()
    wait_rows(sandbox, "board-servants", "n === 1", timeout=LOAD_MS)
    log = server.log.read_text()
    assert not [s for s in secrets if s in log], "a secret in the server's log"
    browsers.pages = {"teacher": teacher, "learner": learner, "sandbox": sandbox}


def wait_for_url(page, needle: str) -> None:
    page.wait_for_function("(needle) => window.location.href.includes(needle)", arg=needle)


def test_a_restart_brings_the_teacher_the_learner_and_the_sandbox_back(browsers, server):
    pages = browsers.pages
    server.stop()
    server.start()  # the same port and $NEFERTITI_HOME; the browsers keep their cookies
    teacher = pages["teacher"]
    teacher.goto(browsers.urls["teacher"], timeout=LOAD_MS)
    expect(teacher.locator(".room-code")).to_have_text(browsers.code, timeout=LOAD_MS)
    expect(teacher.locator(".room-person")).to_have_count(1, timeout=LOAD_MS)
    expect(teacher.get_by_text(tr("en", "room.no_key"))).to_have_count(0)
    learner = pages["learner"]
    learner.reload(timeout=LOAD_MS)
    expect(learner.get_by_text(tr("de", "room.welcome_back", name="Anna"))).to_be_visible(
        timeout=LOAD_MS
    )
    sandbox = pages["sandbox"]
    sandbox.goto(browsers.urls["sandbox"], timeout=LOAD_MS)
    wait_rows(sandbox, "board-servants", "n === 1", timeout=LOAD_MS)
    # a new tab of the same browser: offered its game (the browser's id came back)
    tab = sandbox.context.new_page()
    tab.goto(f"{server.base}/tutor", timeout=LOAD_MS)
    expect(tab.get_by_role("button", name=tr("zh", "saved.resume"), exact=True)).to_be_visible(
        timeout=LOAD_MS
    )
    tab.close()
    expect(teacher.locator(".room-person")).to_have_count(1)  # nobody joined twice


def test_a_replayed_ticket_opens_nothing(browsers, server):
    """The teacher's page fetched with the teacher's cookie (its ticket spent as its session is
    made); once that session is gone, another browser replays the page's HTML and token: Bokeh
    makes the session again from the token, and the spent ticket gives it no key."""
    key_cookie = cookie(browsers.pages["teacher"].context, TEACHER.name)["value"]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request(
        "GET",
        f"/classroom?room={browsers.code}",
        headers={"Cookie": f"{TEACHER.name}={key_cookie}"},
    )
    answer = connection.getresponse()
    html = answer.read().decode()
    assert answer.status == 200
    payload = token_payload(html)
    assert payload["arguments"].get(TICKET_ARG), "no ticket given"
    session = get_session_id(re.search(r'"token":"([^"]+)"', html).group(1))
    server.wait_for_log(f"Discarding session {session!r}", timeout=90)  # never connected
    # Another browser gets the stolen page instead of its own (no cookie of the teacher's). A
    # page a route fulfils has no address, which Chromium counts as public, and its Local Network
    # Access checks would then stop the page's websocket to 127.0.0.1 before the server sees the
    # token: off for this browser, as the replay is what is tried here.
    thief_browser = browsers.chromium.browser_type.launch(
        executable_path=require_chromium(),
        args=[*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"],
        headless=True,
    )
    try:
        thief = thief_browser.new_page(viewport={"width": 1024, "height": 768})
        errors: list[str] = []
        thief.on("pageerror", lambda error: errors.append(str(error)))
        thief.route(
            f"{server.base}/classroom*",
            lambda route: route.fulfill(status=200, content_type="text/html", body=html),
        )
        thief.goto(f"{server.base}/classroom?room={browsers.code}", timeout=LOAD_MS)
        expect(thief.get_by_text(tr("en", "room.no_key"))).to_be_visible(timeout=LOAD_MS)
        expect(thief.locator(".room-person")).to_have_count(0)
        expect(thief.locator(".room-join-code")).to_have_count(0)
        server.wait_for_log("ticket was spent, expired or unknown")
        assert not errors, errors
    finally:
        thief_browser.close()


def post(port: int, body, origin: str | None = "SERVED", source_ip: str = "127.0.0.1", **more):
    """POST /cookie as a browser would (or not); the status and the Set-Cookie headers."""
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    if origin == "SERVED":
        origin = f"http://127.0.0.1:{port}"
    if origin is not None:
        headers["Origin"] = origin
    headers.update(more)
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source_ip, 0)
    )
    try:
        connection.request("POST", "/cookie", body=data, headers=headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status, answer.headers.get_all("Set-Cookie") or []
    finally:
        connection.close()


def join_without_cookies(browsers, server, name: str) -> str:
    """A learner joins with its page's posts to /cookie blocked: the page's grant, unspent."""
    page = browsers.page(locale="de-DE", **PHONE)
    page.route(f"{server.base}/cookie", lambda route: route.abort())
    page.goto(f"{server.base}/join?code={browsers.code}", timeout=LOAD_MS)
    page.locator(".room-name-input input").fill(name)
    page.locator(".room-join button").click(timeout=LOAD_MS)
    expect(page.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
    grant = page.evaluate(PAGE_GRANT)
    assert len(grant) >= 16
    assert not [c for c in page.context.cookies() if c["name"].startswith("nefertiti")]
    return grant


def test_the_cookie_route_sets_only_a_fresh_grant_from_its_pages_address(browsers, server):
    port = server.port
    stolen = join_without_cookies(browsers, server, "Ben")
    # posted from another computer than its page's: refused, and spent
    assert post(port, {"grant": stolen}, source_ip="127.0.0.2") == (403, [])
    assert post(port, {"grant": stolen}) == (403, [])
    grant = join_without_cookies(browsers, server, "Chen")
    refused = {
        "forged grant": post(port, {"grant": "A" * 32}),
        "a key of one's own": post(
            port, {"name": TEACHER.name, "room": browsers.code, "value": "x" * 32}
        ),
        "an unknown name": post(port, {"grant": grant, "name": "nefertiti_admin"}),
        "not an object": post(port, [grant]),
        "not JSON": post(port, b"grant=" + grant.encode()),
        "another site": post(port, {"grant": grant}, origin="http://evil.example"),
        "another site, same port": post(
            port, {"grant": grant}, origin=f"http://evil.example:{port}"
        ),
        "no Origin": post(port, {"grant": grant}, origin=None),
        "cross-site fetch": post(port, {"grant": grant}, **{"Sec-Fetch-Site": "cross-site"}),
        "a form post": post(port, {"grant": grant}, **{"Content-Type": "text/plain"}),
        "oversized": post(port, {"grant": grant, "pad": "x" * 100_000}),
    }
    print(json.dumps(refused, indent=1))
    assert all(400 <= status < 500 and not set_cookies for status, set_cookies in refused.values())
    assert refused["oversized"][0] == 413 and refused["another site"][0] == 403
    assert refused["forged grant"][0] == 403 and refused["a key of one's own"][0] == 400
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/cookie")
    assert connection.getresponse().status == 405
    # none of those spent the grant: its own page's post sets the two cookies, once
    status, set_cookies = post(port, {"grant": grant})
    assert status == 204 and len(set_cookies) == 2, set_cookies
    for line in set_cookies:
        assert re.match(rf"({LEARNER.name}|{DEVICE.name})=", line), line
        assert all(part in line for part in ("HttpOnly", "SameSite=Strict", "Path=/", "Max-Age="))
        assert "Secure" not in line  # plain HTTP here
    assert post(port, {"grant": grant}) == (403, [])  # spent
    log = server.log.read_text()
    assert grant not in log and stolen not in log
