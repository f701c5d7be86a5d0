"""Every player's board and the table's log on the classroom's pages, and closing a question
(#28 items 7-8; widgets/classroom/table_boards.py, poll.py's ``Polls.close``).

What each page shows (the teacher's, two learners' in English and German, the projector) is read
from the HTML it sends and compared with the engine's own state after a few moves: each colour's
Deben, seals, servants in hand, gifts and score, who holds the seat, whose decision it is, and
the log's explanations (the engine's ``narrate``), newest first. A step re-sends only the log's
newest chunk, and pages in one language share what they show. A closed question leaves every
page, is refused an answer, stays in the history and the class record, and stays closed after
the store is read back.
"""

from __future__ import annotations

import json
import re

import pytest
from rendered import html
from sqlalchemy import create_engine

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import totals
from nefertiti_core.teaching.explain import narrate
from widgets.classroom.learner import LearnerPage
from widgets.classroom.poll import PollError, Polls
from widgets.classroom.projector_page import ProjectorPage
from widgets.classroom.room import TEACHER_PASS, Rooms
from widgets.classroom.room_store import connect
from widgets.classroom.table_boards import LOG_CHUNK, RECENT_CHUNKS, TableLog
from widgets.classroom.teacher import TeacherPage
from widgets.game.session import GameSession

WHO = "lesson:welcome/who-plays-next"  # choices green, red, blue, black, nobody; red is right
ROW = re.compile(r"<tr (class='room-player[^>]*)>(.*?)</tr>", re.S)
DATA = re.compile(r"data-([a-z]+)='([^']*)'")
ENTRY = re.compile(r"<div class='room-log-entry' data-index='(\d+)'>(.*?)</div>", re.S)
TAG = re.compile(r"<[^>]+>")


@pytest.fixture()
def klass():
    rooms = Rooms()
    teacher = TeacherPage(rooms)
    assert teacher.open_room()
    ana, ben = LearnerPage(rooms), LearnerPage(rooms, lang="de")
    assert ana.join(teacher.room.code, "Ana")
    assert ben.join(teacher.room.code, "Ben")
    projector = ProjectorPage(rooms, teacher.room.code, TEACHER_PASS)
    return teacher, ana, ben, projector


def person_id(page) -> int:
    return page.room.participant(page.token).id


def play_first(teacher) -> None:
    state = teacher.room.table.state
    assert teacher.room.play(teacher.key, state.legal_options()[0]) is None


def rows(page) -> dict[str, dict]:
    """The players' rows a page shows, by colour: their data, and the row's text."""
    out = {}
    for attributes, inner in ROW.findall(page.players.pane.object):
        data = dict(DATA.findall(attributes))
        data["text"] = TAG.sub(" ", inner)
        data["classes"] = attributes
        out[data["colour"]] = data
    return out


def log_shown(page) -> list[tuple[int, str]]:
    """The log's entries as the page shows them, top to bottom: (index, text)."""
    log = page.table_log
    shown = [pane for pane in (*log.recent, log.earlier) if pane.visible]
    return [
        (int(index), TAG.sub("", text))
        for pane in shown
        for index, text in ENTRY.findall(pane.object)
    ]


def expected(state, seat: int) -> dict[str, int]:
    """The engine's numbers for a seat, read from the state (independently of the view)."""
    gifts = sum(state.type_count(seat, t) for t in range(len(R.GIFT_TYPES)))
    return {
        "deben": state.deben[seat],
        "seals": state.seals[seat],
        "hand": state.hand[seat],
        "gifts": gifts,
        "score": totals(state)[seat],
    }


def test_every_page_shows_each_players_numbers_and_the_log_after_a_few_moves(klass):
    teacher, ana, ben, projector = klass
    room = teacher.room
    state = room.table.state
    ana_seat = state.decider
    assert teacher.give_seat(ana_seat, person_id(ana))
    for _ in range(20):  # placements, market closings, takes: Deben, servants, gifts move
        play_first(teacher)
    state = room.table.state
    assert any(expected(state, seat)["gifts"] for seat in range(state.n))
    pages = {"teacher": (teacher, "en"), "ana": (ana, "en"), "ben": (ben, "de")}
    pages["projector"] = (projector, "en")
    for who, (page, lang) in pages.items():
        shown = rows(page)
        assert list(shown) == list(state.colours), who
        for seat, colour in enumerate(state.colours):
            row = shown[colour]
            for key, value in expected(state, seat).items():
                assert row[key] == str(value), (who, colour, key)
                assert f"room-player-{key}'>{value}</td>" in page.players.pane.object
            holder = "Ana" if seat == ana_seat else tr(lang, "room.the_teacher")
            assert holder in row["text"], (who, colour)
            assert tr(lang, f"colour.{colour}") in row["text"]
        deciding = [c for c, row in shown.items() if "room-player-deciding" in row["classes"]]
        assert deciding == [state.colours[state.decider]], who
        mine = [c for c, row in shown.items() if "room-player-me" in row["classes"]]
        assert mine == ([state.colours[ana_seat]] if who == "ana" else []), who
        # the log: every explanation of the engine's, the newest on top (the older ones once
        # asked for, where the page may ask)
        told = narrate(state, lang)
        assert len(told) > RECENT_CHUNKS * LOG_CHUNK
        chunks = -(-len(told) // LOG_CHUNK)
        first = (chunks - RECENT_CHUNKS) * LOG_CHUNK  # the oldest entry of the newest chunks
        recent = log_shown(page)
        assert [i for i, _ in recent] == list(range(len(told) - 1, first - 1, -1)), who
        if who == "projector":  # no control on it: the newest entries only
            assert page.table_log.earlier_button not in page.table_log.box.objects
            continue
        assert not page.table_log.earlier.visible and page.table_log.earlier.object == ""
        assert page.table_log.earlier_button.visible
        assert tr(lang, "room.boards.earlier", n=first) in page.table_log.earlier_button.name
        page.table_log.show_earlier()
        shown_log = log_shown(page)
        assert [index for index, _ in shown_log] == list(range(len(told) - 1, -1, -1)), who
        assert [TAG.sub("", text) for _, text in shown_log][0].endswith(told[-1]), who
        assert page.table_log.count == len(told)
        assert tr(lang, "panel.log.count", total=len(told)) in html(page.table_log)
        page.table_log.show_earlier(False)
        assert page.table_log.earlier.object == ""  # no longer sent to this page
    # the projector's strip is compact: no gift names; the pages with room for it name them
    assert "room-player-gift-names" not in projector.players.pane.object
    assert "room-player-gift-names" in teacher.players.pane.object
    # each page in its own language
    assert tr("de", "room.boards.hand") in ben.players.pane.object
    assert tr("en", "room.boards.hand") in ana.players.pane.object


def test_a_step_resends_only_the_newest_chunk_and_pages_share_their_words(klass):
    teacher, _ana, _ben, projector = klass
    log = teacher.table_log
    panes = list(log.box.objects)
    texts = [pane.object for pane in log.recent]
    moved = 0
    while moved < 3:  # steps until a chunk has filled up three times
        count = log.count
        play_first(teacher)
        assert log.count > count
        assert list(log.box.objects) == panes  # never a new pane (a new model in the page)
        now = [pane.object for pane in log.recent]
        if log.count // LOG_CHUNK == count // LOG_CHUNK:  # the same chunk: only the top pane
            assert now[1:] == texts[1:] and now[0] != texts[0]
        else:  # a new chunk on top: the others move down one pane
            moved += 1
            assert now[2] == texts[1] or not texts[1]
        texts = now
    # the teacher's page and the projector (both in English) share the same words: one string
    for mine, theirs in zip(log.recent, projector.table_log.recent, strict=True):
        assert mine.object is theirs.object
    # an undo takes the log back to the position's
    count = log.count
    before = [pane.object for pane in log.recent]
    play_first(teacher)
    assert teacher.room.undo(teacher.key) is None
    assert log.count == count and projector.table_log.count == count
    assert [pane.object for pane in log.recent] == before


def test_a_closed_question_leaves_every_page_and_stays_in_the_record(klass):
    teacher, ana, ben, projector = klass
    panel = teacher.poll_panel
    panel.push(WHO)
    assert ana.poll_box.visible and ben.poll_box.visible and projector.poll_box.visible
    assert not projector.table_log.visible  # the question takes the log's room
    ana.poll_card.answer("red")
    panel.polls.reveal()
    assert panel.close_button.visible
    assert panel.close() is True
    # gone from the learners' pages and the projector; the teacher's panel says so
    assert not ana.poll_box.visible and not ben.poll_box.visible
    assert not projector.poll_box.visible and projector.table_log.visible
    polls = teacher.room.polls
    assert polls.current is None and polls.last.closed and polls.last.revealed
    assert tr("en", "poll.teacher.closed", number=1) in panel.question.object
    assert not panel.close_button.visible and not panel.reveal_button.visible
    # the record keeps it: Ana's right answer, and the question in the history
    assert polls.record.row(str(person_id(ana))).right == ("welcome/who-plays-next",)
    assert [p.number for p in polls.history] == [1]
    # no answer to a closed question (said in the learner's language); a second close is nothing
    with pytest.raises(PollError) as refused:
        polls.answer(str(person_id(ben)), "red")
    assert refused.value.key == "poll.refused.closed"
    assert refused.value.text("de") == tr("de", "poll.refused.closed")
    assert polls.close() is False
    # the next question is number 2 and comes up everywhere again
    panel.push(WHO)
    assert polls.current.number == 2 and ana.poll_box.visible and projector.poll_box.visible


def test_an_unrevealed_question_closed_records_nothing():
    polls = Polls()
    polls.push(WHO, {"1": "Ana"})
    polls.answer("1", "red")
    with pytest.raises(PollError):
        Polls().close()  # none asked: nothing to close
    assert polls.close() is True
    assert polls.current is None and polls.last.answered() == ("1",)
    assert polls.record.row("1").right == () and polls.record.row("1").wrong == ()
    with pytest.raises(PollError) as refused:
        polls.reveal()
    assert refused.value.key == "poll.refused.closed"


def test_a_closed_question_stays_closed_after_a_restart(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    try:
        rooms = Rooms()
        store = connect(rooms, engine)
        room, _key, _ = rooms.open()
        ana, _, _ = room.join("Ana")
        room.polls.push(WHO, room.learner_names())
        room.polls.answer(str(ana.id), "blue")
        room.polls.reveal()
        assert room.polls.close()
        store.flush()
        store.stop()
        again = Rooms()
        connect(again, engine)  # the server restarted
        back = again.find(room.code)
        assert back.polls is not room.polls
        assert back.polls.current is None and back.polls.last.closed
        assert back.polls.last.number == 1 and back.polls.last.revealed
        assert back.polls.record.row(str(ana.id)).wrong == ("welcome/who-plays-next",)
        # a learner's page and the projector opened now show no question
        page = LearnerPage(again)
        assert page.join(room.code, "Dora") and not page.poll_box.visible
        assert not ProjectorPage(again, room.code, TEACHER_PASS).poll_box.visible
        assert back.polls.push(WHO, back.learner_names()).number == 2
    finally:
        engine.dispose()


def test_closed_travels_as_data():
    polls = Polls()
    polls.push(WHO, {"1": "Ana"})
    polls.close()
    data = polls.as_dict()
    assert data["polls"][0]["closed"] is True
    back = Polls.from_dict(json.loads(json.dumps(data)))
    assert back.current is None and back.last.closed
    # a stored poll of before this change (no "closed") is open
    del data["polls"][0]["closed"]
    assert Polls.from_dict(data).current is not None


@pytest.mark.slow  # a benchmark's whole games, twice (about 13 s here)
def test_the_cost_benchmark_runs():
    """benchmarks/table_boards_cost.py on a small class (its figures are in docs/benchmarks.md;
    not a speed test): a whole game reaches the pages, and the boards and the log are sent."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from table_boards_cost import run

    without, with_views = run(2, views=False), run(2, views=True)
    assert without["moves"] == with_views["moves"] > 50
    assert without["learner_page_text_bytes_per_move"]["max"] == 0
    assert with_views["learner_page_text_bytes_per_move"]["mean"] > 1000


def test_the_hidden_earlier_steps_button_is_renamed_when_the_language_changes():
    """The "earlier steps" toggle is hidden until the log has earlier steps, yet named (axe's
    button-name rule): a change of language renames it while hidden, too."""
    session = GameSession(lang="en")
    log = TableLog(session)
    assert not log.earlier_button.visible
    assert log.earlier_button.name == tr("en", "room.boards.earlier", n=0)
    session.lang = "zh"
    assert not log.earlier_button.visible
    assert log.earlier_button.name == tr("zh", "room.boards.earlier", n=0)
