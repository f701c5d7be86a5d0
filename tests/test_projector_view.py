"""The classroom's projector view (``/projector``, widgets/classroom/projector_page.py; #28
items 5-6, #29 item 7), and answers hidden on every class view until the reveal.

Driven in Python through the pages' public parts: what the projector's models hold (every Bokeh
model of its document, as the browser gets them) and what they never hold (the teacher's key,
a projector token, a learner's name on the question, an answer before the reveal); who is let
in (the teacher's cookie, the current projector link) and who is turned away, in the page's
language (a wrong, missing or renewed token, a closed room); what the session keeps of the
request (no cookie, no token: Bokeh writes both into the page's HTML otherwise); the projector
link kept across a restart; and the server's log, whose lines hide a token or key in an address.
The browser journey is tests/browser/test_classroom_projector.py.
"""

from __future__ import annotations

import base64
import html
import json
import logging
import re
import sys
import tempfile
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path
from unittest.mock import patch
from urllib.parse import parse_qs, urlsplit

import panel as pn
import pytest
from bokeh.document import Document
from rendered import parts
from sqlalchemy import create_engine

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files import exercises as E
from widgets.classroom.learner import LearnerPage
from widgets.classroom.projector_page import PAYLOAD_KEY, ProjectorPage, admission
from widgets.classroom.room import TEACHER_PASS, Rooms
from widgets.classroom.room_store import connect
from widgets.classroom.teacher import TeacherPage
from widgets.server.access_log import RedactSecrets, redact

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from support import SANDBOX, free_port, running  # noqa: E402

WHO = "welcome/who-plays-next"
NAMES = ("Anna", "Bartholomew")


def text(html_text: str) -> str:
    """What an HTML pane shows (tags dropped, entities decoded)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def models_text(view) -> str:
    """Every Bokeh model the page puts in its document, as JSON: what its browser receives."""
    doc = Document()
    doc.add_root(pn.panel(view).get_root(doc))
    data = doc.to_json()
    return json.dumps(getattr(data, "content", data), default=repr, ensure_ascii=False)


def teacher_cookie(code: str, key: str) -> dict:
    """The teacher's HttpOnly cookie as the server sets it (widgets.server.cookies.TEACHER)."""
    return {"nefertiti_teacher": f"{code}:{key}"}


class Request:
    """What Bokeh hands ``Application.process_request``: Tornado's request's arguments, cookies
    and headers."""

    def __init__(self, arguments: dict, cookies: dict | None = None):
        self.arguments = {k: [v.encode()] for k, v in arguments.items()}
        self.cookies = SimpleCookie()
        for name, value in (cookies or {}).items():
            self.cookies[name] = value
        cookie = "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())
        self.headers = {"Host": "projector.example:5006", "Accept-Language": "de"}
        if cookie:
            self.headers["Cookie"] = cookie


@pytest.fixture()
def klass():
    rooms = Rooms()
    teacher = TeacherPage(rooms, host="tutor.example:5006")
    assert teacher.open_room()
    learners = []
    for name in NAMES:
        page = LearnerPage(rooms)
        assert page.join(teacher.room.code, name)
        learners.append(page)
    return rooms, teacher, learners


def projector_of(rooms, teacher, lang="en", **request) -> ProjectorPage:
    """The projector page as the server builds it for this request (admission, then the page)."""
    code = teacher.room.code
    granted = admission(
        Request({"room": code, **request.pop("arguments", {})}, **request), rooms.find
    )
    kept = granted[PAYLOAD_KEY]
    return ProjectorPage(
        rooms, kept["code"], kept["pass"], host="projector.example:5006", lang=lang
    )


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["projector"][0]


def test_the_projector_shows_the_table_the_join_code_and_the_question_never_who_answered_what(
    klass,
):
    rooms, teacher, (anna, bart) = klass
    room, key = teacher.room, teacher.key
    projector = projector_of(rooms, teacher, cookies=teacher_cookie(room.code, key))
    assert projector.projector_pass == TEACHER_PASS and not projector.message.visible
    # the table, whose decision it is, how to join: no control anywhere (no button, no menu,
    # no text box; the board's click does nothing)
    shown = list(parts(projector, shown=False))
    assert any(isinstance(p, pn.pane.Bokeh) for p in shown)
    assert not [p for p in shown if isinstance(p, pn.widgets.Widget)]
    decider = tr("en", f"colour.{room.table.state.colours[room.table.state.decider]}")
    assert decider in text(projector.bar.banner)
    join = text(projector.join_card.object)
    assert f"{room.code[:4]} {room.code[4:]}" in join and "projector.example:5006/join" in join
    assert "<svg" in projector.join_card.object  # the QR code
    step = room.table.step
    assert not projector.board.click(0.5, 0.5) and room.table.step == step
    assert not projector.session.play(room.table.state.legal_options()[0])
    # no question yet: no question box
    assert not projector.poll_box.visible
    teacher.poll_panel.push(f"lesson:{WHO}")
    assert projector.poll_box.visible
    assert E.EXERCISES[WHO].prompt("en") in text(projector.poll.question.object)
    assert tr("en", "poll.teacher.progress", answered=0, total=2) in text(
        projector.poll.progress.object
    )
    anna.poll_card.answer("red")
    bart.poll_card.answer("blue")
    bart.poll_card.answer("green")  # changed: still one answer
    # while it is open: how many, never what, nor how many each (projector and teacher alike)
    assert tr("en", "poll.teacher.progress", answered=2, total=2) in text(
        projector.poll.progress.object
    )
    assert tr("en", "poll.hidden") in text(projector.poll.progress.object)
    labels = dict(E.EXERCISES[WHO].choices("en"))
    for view in (projector.poll, teacher.poll_panel):
        assert view.bars.object == "" and view.result.object == ""
    for label in (labels["red"], labels["green"]):
        assert label not in text(teacher.class_view.table.object)
    assert text(teacher.class_view.table.object).count(tr("en", "poll.class.answered")) == 2
    # the teacher's page names who has answered (never what)
    assert all(name in text(teacher.poll_panel.who.object) for name in NAMES)
    before = models_text(projector)
    assert "poll-bar" not in before and "data-key" not in before
    # revealed: the bars and the right answer; still no name
    teacher.poll_panel.polls.reveal()
    bars = projector.poll.bars.object
    assert re.search(r"data-key='red'.*?poll-bar-count'[^>]*>1<", bars)
    assert re.search(r"data-key='green'.*?poll-bar-count'[^>]*>1<", bars)
    assert re.search(r"data-key='blue'.*?poll-bar-count'[^>]*>0<", bars)
    right = E.EXERCISES[WHO].check("red", "en").right_answer
    assert tr("en", "poll.right_answer", answer=right) in text(projector.poll.result.object)
    after = models_text(projector)
    for secret in (key, *NAMES):
        assert secret not in before and secret not in after, secret
    assert f"{room.code[:4]} {room.code[4:]}" in after


def test_a_learner_who_never_answered_shows_no_answer_after_the_reveal(klass):
    _rooms, teacher, (anna, _bart) = klass
    teacher.poll_panel.push(f"lesson:{WHO}")
    anna.poll_card.answer("red")
    cells = text(teacher.class_view.table.object)
    assert tr("en", "poll.class.not_yet") in cells and tr("en", "poll.class.answered") in cells
    teacher.poll_panel.polls.reveal()
    cells = text(teacher.class_view.table.object)
    assert tr("en", "poll.class.not_yet") not in cells
    assert tr("en", "poll.class.no_answer") in cells
    assert dict(E.EXERCISES[WHO].choices("en"))["red"] + " \u2714" in cells
    who = text(teacher.poll_panel.who.object)
    assert tr("en", "poll.teacher.no_answer", names=NAMES[1]) in who


def test_a_wrong_missing_or_renewed_projector_token_is_turned_away_in_the_pages_language(klass):
    rooms, teacher, _learners = klass
    room = teacher.room
    refused = tr("de", "room.projector.no_access")
    for request in (
        {},  # nothing: not the teacher's browser, no link
        {"arguments": {"projector": "x" * 32}},  # a made-up token
        {"cookies": teacher_cookie(room.code, "y" * 32)},  # a made-up teacher key
    ):
        page = projector_of(rooms, teacher, lang="de", **request)
        assert page.projector_pass is None and page.message.visible
        assert refused in text(page.message.object)
        assert not any(isinstance(p, pn.pane.Bokeh) for p in parts(page, shown=False))
        assert "room-join-card" not in models_text(page)
    # the teacher's link for another computer: let in, by the address or later by its cookie
    link = teacher.projector_links.make_link()
    token = token_of(link)
    assert link.startswith("http://tutor.example:5006/projector?room=")
    assert teacher.key not in link
    by_link = projector_of(rooms, teacher, arguments={"projector": token})
    by_cookie = projector_of(rooms, teacher, cookies={f"nefertiti_projector_{room.code}": token})
    for page in (by_link, by_cookie):
        assert page.projector_pass == 1 and not page.message.visible and page.board is not None
    assert token not in models_text(by_link) and teacher.key not in models_text(by_link)
    # a new link: the old one opens nothing, and the projector it opened is turned away
    teacher.projector_links.make_link()
    assert by_link.message.visible
    assert tr("en", "room.projector.no_access") in text(by_link.message.object)
    assert projector_of(rooms, teacher, arguments={"projector": token}).projector_pass is None
    # the room closed: every projector is told so
    own = projector_of(rooms, teacher, cookies=teacher_cookie(room.code, teacher.key))
    assert room.close(teacher.key) is None
    assert tr("en", "room.projector.closed") in text(own.message.object)


def test_the_session_keeps_no_cookie_nor_token_of_the_request(klass):
    """Bokeh writes every cookie and argument of a page's request into the session token its
    HTML carries: the projector's keeps the room's code, the language and the pass only."""
    rooms, teacher, _learners = klass
    room = teacher.room
    token = token_of(teacher.projector_links.make_link())
    for request in (
        Request({"room": room.code.lower(), "lang": "zh"}, teacher_cookie(room.code, teacher.key)),
        Request({"room": room.code, "projector": token}, {"nefertiti_room_X": "z" * 32}),
    ):
        granted = admission(request, rooms.find)
        kept = json.dumps(granted, default=bytes.decode)
        assert teacher.key not in kept and token not in kept and "z" * 32 not in kept
        assert granted["cookies"] == {} and "Cookie" not in granted["headers"]
        assert set(granted["arguments"]) <= {"room", "lang"}
        assert granted[PAYLOAD_KEY]["code"] == room.code
        assert granted[PAYLOAD_KEY]["pass"] in (TEACHER_PASS, 1)
    assert admission(Request({"room": room.code, "lang": "zh"}), rooms.find)[PAYLOAD_KEY] == {
        "code": room.code,
        "lang": "zh",
        "pass": None,
        "ticket": "",
    }
    broken = Request({"room": room.code})
    broken.cookies = None  # whatever a request brings, nobody is let in by an error
    assert admission(broken, rooms.find)[PAYLOAD_KEY]["pass"] is None


def test_a_room_another_process_holds_is_checked_off_the_loop_with_a_one_time_ticket(klass):
    """A projector request for a room this process does not hold yet (another process opened
    it): the request cannot read the store on the event loop, so its credentials wait on the
    server under a one-time ticket (the session's token holds only the ticket) and the page's
    preparation, off the loop, reads the room and checks them."""
    from widgets.classroom.projector_page import WAITING_CHECKS, check_later

    rooms, teacher, _learners = klass
    room = teacher.room
    token = token_of(teacher.projector_links.make_link())

    def not_held(_code):  # as Rooms.find answers on the event loop for a room not held
        return None

    for request, wanted in (
        (Request({"room": room.code}, teacher_cookie(room.code, teacher.key)), TEACHER_PASS),
        (Request({"room": room.code, "projector": token}), 1),
        (Request({"room": room.code, "projector": "w" * 32}), None),
    ):
        granted = admission(request, not_held)
        kept = granted[PAYLOAD_KEY]
        assert kept["pass"] is None and kept["ticket"]
        assert teacher.key not in json.dumps(granted, default=bytes.decode)
        with patch("widgets.classroom.projector_page.rooms", lambda: rooms):
            assert check_later(kept["ticket"]) == wanted
            assert check_later(kept["ticket"]) is None  # spent: a replayed ticket lets no one in
    assert WAITING_CHECKS.take("made-up-ticket-of-24chars") is None
    assert admission(Request({"room": room.code}), not_held)[PAYLOAD_KEY]["ticket"] == ""


def test_the_teachers_page_opens_the_projector_view_without_the_key(klass):
    _rooms, teacher, _learners = klass
    opened = teacher.projector_links.open_link.object
    href = re.search(r"href='([^']+)'", opened).group(1)
    assert href == f"/projector?room={teacher.room.code}&amp;lang=en"
    assert teacher.key not in opened and "target='_blank'" in opened
    assert teacher.projector_links.link.object == ""  # the link is shown only once asked for
    teacher.session.lang = "zh"
    assert tr("zh", "room.projector.open") in teacher.projector_links.open_link.object
    assert teacher.projector_links.link_button.name == tr("zh", "room.projector.make_link")


def test_the_projector_link_is_kept_hashed_across_a_restart(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    old, _n, _why = room.renew_projector(key)
    token, number, why = room.renew_projector(key)
    assert why is None and number == 2
    assert room.renew_projector("x" * 32)[2].key == "room.refuse.teacher_only"
    store.flush()
    with engine.connect() as db:
        dump = " ".join(str(row) for row in db.exec_driver_sql("select * from classroom_rooms"))
    assert token not in dump and old not in dump
    again = Rooms()
    connect(again, engine)
    back = again.find(room.code)
    assert back.projector_pass(token=token) == 2 and back.projector_admits(2)
    assert back.projector_pass(token=old) is None and not back.projector_admits(1)
    assert back.projector_pass(secret=key) == TEACHER_PASS
    engine.dispose()


def test_secrets_in_an_address_are_hidden_in_log_lines():
    line = "200 GET /projector?room=ABCD2345&projector=Sekret_123-abc (127.0.0.1) 3.10ms"
    assert redact(line) == "200 GET /projector?room=ABCD2345&projector=\u2026 (127.0.0.1) 3.10ms"
    assert redact("/classroom?key=abc&room=X") == "/classroom?key=\u2026&room=X"
    assert redact("/tutor?monkey=1") == "/tutor?monkey=1"
    record = logging.LogRecord(
        "tornado.access", logging.INFO, __file__, 1, "%d %s %.2fms",
        (200, "GET /projector?projector=Sekret (::1)", 1.0), None,
    )  # fmt: skip
    assert RedactSecrets().filter(record) and "Sekret" not in record.getMessage()


SERVE_LOGGED = (
    "import logging; logging.basicConfig(level=logging.INFO, "
    "format='%(levelname)s %(name)s: %(message)s'); " + SANDBOX
)


def _session_payload(page: str) -> dict:
    """The payload of the session token a served page's HTML carries (Bokeh's own decoder)."""
    from bokeh.util.token import get_token_payload

    tokens = re.findall(r"\"token\":\s*\"([\w.-]+)\"", page) or re.findall(
        r"token=\"?([\w-]+\.[\w.-]+)", page
    )
    assert tokens, page[:2000]
    return get_token_payload(tokens[0])


@pytest.mark.slow
def test_served_the_token_and_the_key_reach_neither_the_log_nor_the_projectors_html(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = Path(tempfile.mkdtemp(prefix="projector-log-")) / "server.log"
    command = [sys.executable, "-c", SERVE_LOGGED.replace("PORT", str(port))]
    env = {**__import__("os").environ, "NEFERTITI_HOME": str(tmp_path)}
    token, key = "T0ken" + "t" * 27, "K3y" + "k" * 29
    with running(command, f"{base}/tutor", log, env):

        def fetch(path: str, cookie: str = "") -> str:
            request = urllib.request.Request(
                base + path, headers={"Cookie": cookie} if cookie else {}
            )
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.read().decode()

        page = fetch(f"/projector?room=ABCD2345&projector={token}")
        payload = repr(_session_payload(page))
        assert token not in payload and PAYLOAD_KEY in payload
        cookie = f"nefertiti_teacher=ABCD2345:{key}"
        assert key not in repr(_session_payload(fetch("/projector?room=ABCD2345", cookie)))
        # nor does the teacher's page (Bokeh copies no cookie into any page's token)
        assert key not in repr(_session_payload(fetch("/classroom?room=ABCD2345", cookie)))
        fetch(f"/classroom?room=ABCD2345&key={key}")  # an old teacher link
    written = log.read_text()
    assert "GET /projector?room=ABCD2345&projector=\u2026" in written, written[-2000:]
    assert "GET /classroom?room=ABCD2345&key=\u2026" in written
    assert token not in written and key not in written
    assert base64.urlsafe_b64encode(key.encode()).decode()[:20] not in written
