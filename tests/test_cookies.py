"""The secret cookies at their boundaries (``widgets.server.cookies``, #29 item 2): what a
cookie's value may hold, one-time tickets and grants (taken once, expiring, bounded), what a
page request's cookies give its session (the old script-set cookies moved into HttpOnly ones,
a ticket in the address dropped), ``POST /cookie`` against a real Tornado server (a grant no
longer good, rooms merged and bounded, Secure behind HTTPS), and what the classroom's pages
hand their browser: a grant, never the key or the token. The journeys in Chromium are in
tests/browser/test_httponly_cookies.py."""

from __future__ import annotations

import json

import panel as pn
import pytest
from rendered import parts
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application, RequestHandler

from widgets.classroom.learner import LearnerPage
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage
from widgets.server import cookies as C
from widgets.server.cookies import BROWSER, DEVICE, LEARNER, TEACHER

KEY = "k" * 32
OTHER = "o" * 32


# ---------------------------------------------------------------------- values
def test_a_cookie_value_keeps_well_formed_rooms_newest_first_and_at_most_a_few():
    text = ".".join(f"ROOM{i:04d}:{chr(97 + i) * 32}" for i in range(10))
    kept = C.parse(TEACHER, "bad.x:y.ABCD1234:short." + text + ".ROOM0000:" + OTHER)
    assert list(kept) == [f"ROOM{i:04d}" for i in range(TEACHER.rooms)]  # malformed dropped
    assert kept["ROOM0000"] == "a" * 32  # the first (newest) wins
    again = C.with_room(TEACHER, kept, "NEWROOM1", KEY)
    assert list(again)[0] == "NEWROOM1" and len(again) == TEACHER.rooms
    assert "ROOM0005" not in again  # the oldest went
    assert C.parse(TEACHER, C.value_of(TEACHER, again)) == again
    assert C.parse(TEACHER, "x" * 5000) == {} and C.parse(TEACHER, None) == {}
    for bad in ("", "short", "a b" * 10, "<script>" * 4, "k" * 65, 42):
        assert C.parse(BROWSER, bad) == ""
    assert C.parse(BROWSER, KEY) == KEY


def test_a_requests_cookies_give_each_kind_and_the_old_script_set_ones_are_moved():
    values, legacy = C.read(
        {
            TEACHER.name: f"ABCD2345:{KEY}",
            "nefertiti_teacher_ABCD2345": OTHER,  # the current cookie's key wins
            "nefertiti_teacher_WXYZ6789": OTHER,
            "nefertiti_teacher_bad": OTHER,
            "nefertiti_room_WXYZ6789": KEY,
            "nefertiti_device": "d" * 32,
            "nefertiti_browser": "<bad>",
            "other": "x",
        }
    )
    assert values == {
        TEACHER.name: {"ABCD2345": KEY, "WXYZ6789": OTHER},
        LEARNER.name: {"WXYZ6789": KEY},
        DEVICE.name: "d" * 32,
    }
    assert sorted(legacy) == sorted(
        [
            "nefertiti_teacher_ABCD2345",
            "nefertiti_teacher_WXYZ6789",
            "nefertiti_teacher_bad",
            "nefertiti_room_WXYZ6789",
            "nefertiti_device",
            "nefertiti_browser",
        ]
    )
    assert C.read({"other": "x", BROWSER.name: KEY}) == ({BROWSER.name: KEY}, [])


# ---------------------------------------------------------------------- tickets and grants
def test_a_one_time_id_is_taken_once_expires_and_the_oldest_go_past_the_limit():
    now = [100.0]
    store = C.OneTime(60, limit=3, clock=lambda: now[0])
    first = store.put("a")
    assert store.take(first) == "a" and store.take(first) is None  # once
    late = store.put("b")
    now[0] += 60
    assert store.take(late) is None  # expired
    ids = [store.put(i) for i in range(5)]
    assert len(store) == 3 and store.take(ids[0]) is None and store.take(ids[4]) == 4
    for bad in (None, "", "x", "A" * 65, "a b c d e f g h i j k l", 7):
        assert store.take(bad) is None


def test_only_the_apps_cookies_with_good_values_are_granted():
    with pytest.raises(ValueError):  # a kind that is not one of the app's
        C.grant((C.Kind("session", 60, 0, "session"), "", KEY))
    with pytest.raises(ValueError):  # a malformed secret
        C.grant((BROWSER, "", "short"))
    with pytest.raises(ValueError):  # a room's cookie without its room, an id with one
        C.grant((TEACHER, "", KEY))
    with pytest.raises(ValueError):
        C.grant((BROWSER, "ABCD2345", KEY))
    with pytest.raises(ValueError):
        C.grant((TEACHER, "abcd;2345", KEY))
    good = C.grant((TEACHER, "ABCD2345", KEY), check=lambda: True)
    assert C.take_grant(good).cookies == ((TEACHER, "ABCD2345", KEY),)
    assert C.take_grant(good) is None  # spent


def test_a_grant_no_longer_good_or_broken_is_refused():
    assert C.take_grant(C.grant((BROWSER, "", KEY), check=lambda: False)) is None
    assert C.take_grant(C.grant((BROWSER, "", KEY), check=lambda: 1 / 0)) is None


# ---------------------------------------------------------------------- a page request
class Page(RequestHandler):
    """A page handler as the served app's (``PAGE_ADMISSION`` calls ``admit`` first); it
    answers with the ticket its session would get."""

    def get(self):
        C.admit(self)
        given = self.request.arguments.get(C.TICKET_ARG) or [b""]
        planted = C.TICKET_ARG in self.request.query_arguments
        self.finish({"ticket": given[0].decode(), "planted": planted})


class TestPageRequest(AsyncHTTPTestCase):
    def get_app(self):
        return Application([(r"/page", Page)])

    def load(self, cookie: str = "", query: str = "", **headers):
        if cookie:
            headers["Cookie"] = cookie
        answer = self.fetch(f"/page?{query}", headers=headers)
        return json.loads(answer.body), answer.headers.get_list("Set-Cookie")

    def test_a_page_request_gives_its_session_a_ticket_and_drops_one_from_its_address(self):
        page, lines = self.load(f"{BROWSER.name}={KEY}", f"code=X&{C.TICKET_ARG}=planted")
        assert page["ticket"] not in ("", "planted") and not page["planted"]
        assert C.TICKETS.take(page["ticket"]) == {BROWSER.name: KEY}
        assert C.TICKETS.take(page["ticket"]) is None  # once
        assert lines == []  # nothing old to move
        page, _ = self.load(query=f"{C.TICKET_ARG}=planted")
        assert page == {"ticket": "", "planted": False}  # no cookie: no ticket at all

    def test_old_script_set_cookies_come_back_httponly_and_the_old_ones_expire(self):
        page, lines = self.load(
            f"nefertiti_teacher_ABCD2345={KEY}; nefertiti_browser={OTHER}",
            **{"X-Forwarded-Proto": "https"},
        )
        assert C.TICKETS.take(page["ticket"]) == {
            TEACHER.name: {"ABCD2345": KEY},
            BROWSER.name: OTHER,
        }
        gone = sorted(line.split("=")[0] for line in lines if '=""; expires=' in line)
        assert gone == ["nefertiti_browser", "nefertiti_teacher_ABCD2345"]  # in the past
        new = {line.split("=")[0]: line for line in lines if '=""' not in line}
        assert new[TEACHER.name].startswith(f"{TEACHER.name}=ABCD2345:{KEY};")
        assert new[BROWSER.name].startswith(f"{BROWSER.name}={OTHER};")
        for line in new.values():
            for part in ("HttpOnly", "SameSite=Strict", "Path=/", "Secure"):
                assert part in line, line


def test_outside_a_served_session_a_page_has_no_secrets():
    assert C.page_secrets() == C.Kept()
    kept = C.Kept({TEACHER.name: {"ABCD2345": KEY}, BROWSER.name: OTHER})
    assert kept.room(TEACHER, "ABCD2345") == KEY and kept.room(LEARNER, "ABCD2345") == ""
    assert kept.id(BROWSER) == OTHER and kept.id(DEVICE) == "" and kept.rooms(LEARNER) == {}


# ---------------------------------------------------------------------- POST /cookie
class TestCookieRoute(AsyncHTTPTestCase):
    """``POST /cookie`` on a real Tornado server (the browser journeys try the hostile
    requests; these, what a browser cannot easily make happen)."""

    def get_app(self):
        port = self.get_http_port()
        self.origins = [f"127.0.0.1:{port}", "tutor.school.example"]
        return Application([(C.COOKIE_PATH, C.cookie_handler(), {"origins": self.origins})])

    def post(self, grant: str, cookie: str = "", origin: str = "", host: str = ""):
        port = self.get_http_port()
        headers = {
            "Content-Type": "application/json",
            "Origin": origin or f"http://127.0.0.1:{port}",
            "Host": host or f"127.0.0.1:{port}",
        }
        if cookie:
            headers["Cookie"] = cookie
        answer = self.fetch(
            C.COOKIE_PATH, method="POST", body=json.dumps({"grant": grant}), headers=headers
        )
        return answer.code, answer.headers.get_list("Set-Cookie")

    def test_a_grant_for_a_room_closed_since_sets_nothing(self):
        open_ = [True]
        grant = C.grant((LEARNER, "ABCD2345", KEY), check=lambda: open_[0])
        open_[0] = False
        assert self.post(grant) == (403, [])

    def test_a_rooms_cookie_keeps_the_other_rooms_newest_first_and_at_most_a_few(self):
        rooms = ".".join(f"ROOM{i:04d}:{OTHER}" for i in range(TEACHER.rooms))
        status, lines = self.post(
            C.grant((TEACHER, "ROOM0003", KEY)), cookie=f"{TEACHER.name}={rooms}"
        )
        assert status == 204 and len(lines) == 1
        value = lines[0].split(";")[0].split("=", 1)[1]
        kept = C.parse(TEACHER, value)
        assert list(kept)[:2] == ["ROOM0003", "ROOM0000"] and kept["ROOM0003"] == KEY
        assert len(kept) == TEACHER.rooms and "ROOM0005" in kept  # the one replaced made room
        status, lines = self.post(
            C.grant((TEACHER, "NEWROOM1", KEY)), cookie=f"{TEACHER.name}={value}"
        )
        kept = C.parse(TEACHER, lines[0].split(";")[0].split("=", 1)[1])
        assert list(kept)[0] == "NEWROOM1" and "ROOM0005" not in kept  # the oldest went

    def test_a_page_served_over_https_gets_a_secure_cookie(self):
        grant = C.grant((BROWSER, "", KEY))
        status, lines = self.post(
            grant, origin="https://tutor.school.example", host="tutor.school.example"
        )
        assert status == 204 and "Secure" in lines[0] and "HttpOnly" in lines[0]
        _, plain = self.post(C.grant((BROWSER, "", KEY)))
        assert "Secure" not in plain[0]

    def test_an_origin_not_served_here_or_not_the_requests_host_is_refused(self):
        grant = C.grant((BROWSER, "", KEY))
        assert self.post(grant, origin="http://tutor.school.example") == (403, [])  # wrong Host
        assert self.post(grant, origin="http://localhost:1", host="localhost:1") == (403, [])
        assert self.post(grant)[0] == 204  # none of those spent it


# ---------------------------------------------------------------------- the classroom's pages
def grant_of(page) -> str:
    """The grant the page hands its browser (its hidden input, as the browser gets it)."""
    (value,) = [
        p.value
        for p in parts(page, shown=False)
        if isinstance(p, pn.widgets.TextInput) and '"grant"' in (p.value or "")
    ]
    return json.loads(value)["grant"]


def test_the_classroom_hands_the_browser_grants_never_the_key_or_the_token():
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    code = teacher.room.code
    learner = LearnerPage(rooms)
    assert learner.join(code, "Ana")
    for page in (teacher, learner):
        shown = json.dumps(
            [getattr(p, "value", None) for p in parts(page, shown=False)], default=str
        )
        assert teacher.key not in shown and learner.token not in shown
    assert C.take_grant(grant_of(teacher)).cookies == ((TEACHER, code, teacher.key),)
    assert C.take_grant(grant_of(learner)).cookies == (
        (LEARNER, code, learner.token),
        (DEVICE, "", learner.device),
    )
    # a grant posted after the room was closed sets nothing
    other = TeacherPage(rooms)
    assert other.open_room()
    late = grant_of(other)
    assert other.room.close(other.key) is None
    assert C.take_grant(late) is None
    # a browser that kept the token (under any code) is back as the same learner
    again = LearnerPage(rooms, code=code, tokens={"ZZZZ2345": learner.token})
    assert again.token == learner.token
