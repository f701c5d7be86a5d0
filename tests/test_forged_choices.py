"""A choice a page's browser forges (#29: "a forged choice index logs a traceback and shows 'list
index out of range'"), sent the way the browser sends it: a change of the widget's Bokeh model
(an index out of range, negative or huge, a value no option has, a string where a number goes),
or a board click whose place or count is not a number. Each is refused: the widget and the
game or room stay as they were, the page is told in its own language, and the log has one line,
no traceback (``widgets.server.patches.FORGED_CHOICES``, ``widgets.serve.tell_choice_refused``,
``widgets.game.board``)."""

from __future__ import annotations

import asyncio
import logging

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.document.events import ModelChangedEvent
from bokeh.protocol import Protocol
from bokeh.server.session import ServerSession
from bokeh.util.token import generate_session_id
from panel.io.state import set_curdoc
from rendered import html, source, widget
from tornado.ioloop import IOLoop

from nefertiti_core.engine.i18n import tr
from widgets import serve
from widgets.classroom.learner import LearnerPage
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage
from widgets.game.board import Board
from widgets.game.decision import DecisionPanel
from widgets.game.language import LanguageSelector
from widgets.game.session import GameSession
from widgets.server import patches as PP

#: What a forged message may carry for a choice: out of range, negative, huge, unknown text.
FORGED_INDICES = [99, -1, 10**30, -(10**30)]
FORGED_VALUES = ["bogus", "99", "-1", str(10**30), "<img src=x onerror=alert(1)>"]


@pytest.fixture(autouse=True)
def served(monkeypatch):
    """The served app's refusal: the patch applied, the page told as ``nefertiti serve`` tells it."""
    PP.apply(PP.FORGED_CHOICES)
    monkeypatch.setattr(PP, "choice_refused", serve.tell_choice_refused)


@pytest.fixture()
def logged(caplog):
    caplog.set_level(logging.WARNING)
    return caplog


def no_traceback(caplog) -> None:
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "list index out of range" not in caplog.text and "not in list" not in caplog.text


def page(doc: Document, build):
    """A page built as the served app builds it: on its own document."""
    with set_curdoc(doc):
        return build()


def forge(target, attr: str, value, doc: Document) -> None:
    """What a forged browser message does: the widget's model on the page's document changed."""
    model = target.get_root(doc)
    setattr(model, attr, value)


def refused_in(lang: str, session: GameSession) -> None:
    assert session.error == tr(lang, "panel.error.no_such_choice")
    session.error = ""


@pytest.mark.parametrize("forged", FORGED_INDICES)
def test_the_language_buttons_refuse_a_forged_index(forged, logged):
    doc = Document()
    session = page(doc, lambda: GameSession(lang="de"))
    selector = LanguageSelector(session)
    forge(selector.buttons, "active", forged, doc)
    assert selector.value == "de" and session.lang == "de"  # -1 picked 中文 before
    refused_in("de", session)
    no_traceback(logged)
    assert "does not offer" in logged.text


@pytest.mark.parametrize("forged", FORGED_VALUES)
def test_the_decision_panels_placements_refuse_a_forged_value(forged, logged):
    doc = Document()
    session = page(doc, lambda: GameSession(lang="zh"))
    panel = DecisionPanel(session)
    chosen, step = panel.place_select.value, session.history.step
    forge(panel.place_select, "value", forged, doc)
    assert panel.place_select.value == chosen and session.history.step == step
    assert tr("zh", "panel.error.no_such_choice") in html(panel)  # on the panel's error line
    refused_in("zh", session)
    assert panel.click(session.state.legal_options()[0])  # a real choice still plays
    assert session.history.step == step + 1
    no_traceback(logged)


@pytest.fixture()
def klass():
    rooms = Rooms()
    doc = Document()
    teacher = page(doc, lambda: TeacherPage(rooms, lang="de"))
    assert page(doc, teacher.open_room)
    ana = LearnerPage(rooms)
    assert ana.join(teacher.room.code, "Ana")
    return teacher, ana, doc


def who_sits(room):
    return {p.id: p.seat for p in room.participants.values()}, len(room.participants)


@pytest.mark.parametrize("forged", FORGED_VALUES)
def test_the_teachers_seat_remove_and_stage_menus_refuse_a_forged_value(klass, forged, logged):
    teacher, _ana, doc = klass
    room = teacher.room
    before = who_sits(room), room.title, room.table.step
    for css in ("room-seat-0", "room-remove-who", "room-stage-what", "room-chapter-pick"):
        menu = widget(teacher, pn.widgets.Select, css)
        value = menu.value
        forge(menu, "value", forged, doc)
        assert menu.value == value, css
        refused_in("de", teacher.session)
    assert (who_sits(room), room.title, room.table.step) == before
    teacher.remove_button.clicks += 1  # the choice shown still stands: Ana is removed
    assert who_sits(room) == ({}, 0)
    no_traceback(logged)


@pytest.mark.parametrize("forged", FORGED_INDICES)
def test_a_learners_poll_answer_buttons_refuse_a_forged_index(klass, forged, logged):
    teacher, _ana, _doc = klass
    rooms = teacher.rooms
    doc = Document()
    chen = page(doc, lambda: LearnerPage(rooms, lang="zh"))
    assert page(doc, lambda: chen.join(teacher.room.code, "Chen"))
    poll = teacher.poll_panel.push("lesson:welcome/who-plays-next")
    assert poll is not None
    forge(chen.poll_card.choices, "active", forged, doc)
    assert chen.poll_card.choices.value is None
    learner = str(chen.room.participant(chen.token).id)
    assert learner not in poll.answered()  # no answer was recorded for Chen
    refused_in("zh", chen.session)
    no_traceback(logged)


@pytest.mark.parametrize("forged", FORGED_INDICES)
def test_the_join_forms_language_buttons_refuse_a_forged_index(forged, logged):
    doc = Document()
    form = page(doc, lambda: LearnerPage(Rooms(), lang="de"))
    buttons = widget(form, pn.widgets.RadioButtonGroup)
    forge(buttons, "active", forged, doc)
    assert buttons.value == "de" and form.lang == "de"
    refused_in("de", form.session)
    no_traceback(logged)


@pytest.mark.parametrize(
    "data",
    [
        {"x": ["abc"], "y": [1.0], "n": [1]},
        {"x": [10**400], "y": [1.0], "n": [1]},
        {"x": [float("nan")], "y": [1.0], "n": [1]},
        {"x": [[1]], "y": [1.0], "n": [1]},
        {"x": [1.0], "y": [1.0], "n": ["x"]},
        {"x": [1.0], "y": [1.0], "n": [float("nan")]},
        {"x": [1.0], "y": [float("inf")], "n": [1]},
    ],
)
def test_a_board_click_whose_place_or_count_is_not_a_number_is_refused_in_words(data, logged):
    session = GameSession(lang="de")
    board = Board(session, fit=True)  # a board that fits the window hears its drawn width
    step = session.history.step
    source(board, "board-clicks").data = data
    assert session.history.step == step
    assert session.error == tr("de", "board.bad_click")
    width = board.drawn_width
    source(board, "board-size").data = {"w": ["wide"]}  # a forged width: the board stays as drawn
    assert board.drawn_width == width
    no_traceback(logged)


def test_a_value_of_the_wrong_type_is_refused_without_bokehs_traceback(logged):
    """A string where the radio buttons take an index: Bokeh's own check refuses it (before
    Panel sees it) and would log a traceback; the page is told instead, on its next tick."""
    doc = Document()
    session = page(doc, lambda: GameSession(lang="zh"))
    selector = LanguageSelector(session)
    model = selector.buttons.get_root(doc)
    doc.add_root(model)  # as a served page's models are

    class Connection:
        def ok(self, message):
            return "ok"

        def error(self, message, text):
            return f"error: {text}"

    async def send():
        served = ServerSession(generate_session_id(), doc, IOLoop.current())
        message = Protocol().create("PATCH-DOC", [ModelChangedEvent(doc, model, "active", 1)])
        message.content["events"][0]["new"] = "zh"  # forged: text where an index goes
        answer = await served._handle_patch(message, Connection())  # private: Bokeh's handler
        await asyncio.sleep(0.2)  # the page is told on its next tick
        return answer

    assert asyncio.run(send()) == "error: refused"
    assert session.lang == "zh" and selector.value == "zh"
    refused_in("zh", session)
    no_traceback(logged)
