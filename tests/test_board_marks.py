"""The teacher's marks on a classroom's board (widgets/classroom/marks.py, marks_layer.py) at
their boundaries: only the teacher marks; a mark names squares on the board now (a forged one
is refused in words with one line in the log, no traceback); at most MAX_MARKS; the same mark
again takes it away; every page's board layer draws them (a learner who broke away: none); they
go when the table's position changes; they are kept in the store (schema 6) and come back after
a restart, checked again; a store written before schema 6 (SQLite and PostgreSQL) gets the
column and keeps its rooms."""

from __future__ import annotations

import logging

import pytest
from pg import fresh_database
from sqlalchemy import create_engine, inspect, text

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets.classroom.marks import MAX_MARKS, Mark, marks_from_text, marks_text
from widgets.classroom.marks_layer import MarksLayer, MarkTools
from widgets.classroom.room import Rooms
from widgets.classroom.room_store import connect
from widgets.classroom.table import TableSession, table_parts
from widgets.game import geometry as G
from widgets.server.store import SCHEMA_VERSION, Store


def on_board(room) -> list[int]:
    """The squares on the table's board now (its markets' sides up)."""
    return [cell.option for cell in G.squares(room.table.state.side)]


def face_down(room) -> int:
    shown = set(on_board(room))
    return next(n for n in range(R.NUM_SQUARES) if n not in shown)


@pytest.fixture()
def klass():
    rooms = Rooms()
    room, key, _ = rooms.open()
    anna, token, _ = room.join("Anna", "de")
    return room, key, token


def board_of(room, actor, teacher: bool):
    session = TableSession(room, actor, teacher=teacher)
    _bar, board, _decision = table_parts(session, teacher=teacher)
    return session, board, MarksLayer(board, room)


def test_the_teacher_marks_and_every_board_draws_the_marks(klass):
    room, key, token = klass
    _, _, teachers = board_of(room, key, True)
    session, _, learners = board_of(room, token, False)
    a, b, c = on_board(room)[:3]
    assert room.mark(key, "square", [a]) is None
    assert room.mark(key, "arrow", [b, c]) is None
    assert room.marks == (Mark("square", (a,)), Mark("arrow", (b, c)))
    cells = {cell.option: cell for cell in G.squares(room.table.state.side)}
    for layer in (teachers, learners):
        assert dict(layer.squares.data) == {"x": [cells[a].x], "y": [cells[a].y]}
        arrows = dict(layer.arrows.data)
        assert len(arrows["x"]) == 1
        # from the start square towards the end square
        assert abs(arrows["x"][0] - cells[b].x) < 0.5 and abs(arrows["x1"][0] - cells[c].x) < 0.5
    # the same highlight again takes it away
    assert room.mark(key, "square", [a]) is None
    assert room.marks == (Mark("arrow", (b, c)),) and dict(learners.squares.data)["x"] == []
    # a learner who broke away tries steps on their own position: no marks there
    session.away = True
    assert learners.data() == ({"x": [], "y": []}, {"x": [], "y": [], "x1": [], "y1": []})
    assert room.clear_marks(key) is None and room.marks == ()
    assert dict(teachers.arrows.data)["x"] == []


def test_only_the_teacher_marks(klass):
    room, key, token = klass
    square = on_board(room)[0]
    for actor in (token, "", "x" * 40, None):
        why = room.mark(actor, "square", [square])
        assert why is not None and why.key == "room.refuse.teacher_only"
        assert room.clear_marks(actor).key == "room.refuse.teacher_only"
    assert room.marks == ()


@pytest.mark.parametrize(
    "kind, squares",
    [
        ("circle", [0]),
        (None, [0]),
        ("square", []),
        ("square", [0, 1]),
        ("arrow", [0]),
        ("square", [-1]),
        ("square", [R.NUM_SQUARES]),
        ("square", [10**30]),
        ("square", ["3"]),
        ("square", [True]),
        ("square", [2.0]),
        ("square", "7"),
        ("square", None),
        ("square", {"x": 1}),
        ("arrow", "same"),
        ("square", "face down"),
    ],
)
def test_a_forged_mark_is_refused_in_words_with_a_log_line(klass, caplog, kind, squares):
    room, key, _ = klass
    if squares == "same":
        squares = [on_board(room)[0]] * 2
    elif squares == "face down":
        squares = [face_down(room)]
    version = room.version
    with caplog.at_level(logging.WARNING, logger="widgets.classroom"):
        why = room.mark(key, kind, squares)
    assert why is not None and why.key == "room.refuse.bad_mark"
    assert why.text("de").startswith(tr("de", "room.refuse.bad_mark", what="").split(":")[0])
    assert room.marks == () and room.version == version
    lines = [r for r in caplog.records if "a mark was refused" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None


def test_a_room_holds_at_most_max_marks(klass):
    room, key, _ = klass
    squares = on_board(room)
    assert len(squares) > MAX_MARKS
    for square in squares[:MAX_MARKS]:
        assert room.mark(key, "square", [square]) is None
    why = room.mark(key, "square", [squares[MAX_MARKS]])
    assert why.key == "room.refuse.too_many_marks" and str(MAX_MARKS) in why.text("zh")
    assert len(room.marks) == MAX_MARKS
    assert room.mark(key, "square", [squares[0]]) is None  # taking one away still works
    assert len(room.marks) == MAX_MARKS - 1


def test_the_marks_go_when_the_tables_position_changes(klass):
    room, key, token = klass
    _, _, layer = board_of(room, token, False)
    room.mark(key, "square", [on_board(room)[0]])
    assert layer.squares.data["x"]
    assert room.play(key, room.table.state.legal_options()[0]) is None
    assert room.marks == () and dict(layer.squares.data) == {"x": [], "y": []}
    room.mark(key, "square", [on_board(room)[0]])
    assert room.undo(key) is None and room.marks == ()
    room.mark(key, "square", [on_board(room)[0]])
    assert room.stage(key, "new") is None and room.marks == ()


def test_the_teachers_tools_make_highlights_and_arrows(klass):
    room, key, _ = klass
    session, board, _layer = board_of(room, key, True)
    tools = MarkTools(room, key, board, session)
    assert board.on_square is None  # Play: a click plays
    first, second = board.cells[0], board.cells[5]
    tools.mode.value = "square"
    assert board.on_square is not None
    assert tools.click_square(first) and room.marks == (Mark("square", (first.option,)),)
    tools.mode.value = "arrow"
    assert not tools.click_square(second)  # the arrow's start: nothing sent yet
    assert "6" in tools.hint.object or tools.hint.object
    session.lang = "de"
    tools.label()
    assert "Pfeil von der " in tools.hint.object, tools.hint.object  # "von" takes the dative
    session.lang = "en"
    assert tools.click_square(first)
    assert room.marks[-1] == Mark("arrow", (second.option, first.option))
    assert tools.clear() and room.marks == ()
    tools.mode.value = "play"
    assert board.on_square is None
    session.lang = "zh"
    assert tools.clear_button.name == tr("zh", "marks.clear")


def test_marks_come_back_after_a_restart_and_are_checked_again(tmp_path, caplog):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    try:
        rooms = Rooms()
        store = connect(rooms, engine)
        room, key, _ = rooms.open()
        a, b = on_board(room)[:2]
        room.mark(key, "square", [a])
        room.mark(key, "arrow", [a, b])
        store.flush()
        again = Rooms()
        connect(again, engine)
        assert again.find(room.code).marks == room.marks
        # a stored value that is not marks (edited by hand, broken): left out, said in the log
        hidden = face_down(room)
        for stored in ("{", f'[{{"kind": "square", "squares": [{hidden}]}}]', "x" * 5000):
            with engine.begin() as db:
                db.execute(
                    text("UPDATE classroom_rooms SET marks = :m WHERE code = :c"),
                    {"m": stored, "c": room.code},
                )
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="widgets.classroom"):
                back = Rooms()
                connect(back, engine)
                assert back.find(room.code).marks == ()
            assert any("stored marks were left out" in r.getMessage() for r in caplog.records)
    finally:
        engine.dispose()


def test_marks_text_round_trip_and_bounds():
    sides = [0, 0, 0, 0]
    shown = [cell.option for cell in G.squares(sides)]
    marks = tuple(Mark("square", (n,)) for n in shown[: MAX_MARKS + 5])
    text_ = marks_text(marks[:MAX_MARKS])
    assert marks_from_text("R", text_, sides) == marks[:MAX_MARKS]
    assert marks_text(()) == "" and marks_from_text("R", "", sides) == ()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def test_a_store_from_before_schema_6_gets_the_marks_column_and_keeps_its_rooms(url):
    """A store as schema 4 left it (written by this tutor, then the marks column and the later
    versions taken out again): opened now, it is migrated to schema 6, its room comes back with
    its learner, and takes marks from then on."""
    store = Store(url)
    rooms = Rooms()
    room_store = connect(rooms, store.engine)
    room, key, _ = rooms.open()
    anna, token, _ = room.join("Anna")
    room_store.flush()
    room_store.stop()
    store.close()
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text("ALTER TABLE classroom_rooms DROP COLUMN marks"))
        db.execute(text("DELETE FROM nefertiti_schema"))
        db.execute(text("INSERT INTO nefertiti_schema (version) VALUES (4)"))
    engine.dispose()
    assert SCHEMA_VERSION >= 6
    store = Store(url)
    try:
        engine = store.engine
        assert "marks" in {c["name"] for c in inspect(engine).get_columns("classroom_rooms")}
        with engine.connect() as db:
            versions = sorted(db.scalars(text("SELECT version FROM nefertiti_schema")))
        assert versions == list(range(4, SCHEMA_VERSION + 1))
        again = Rooms()
        connect(again, engine)
        back = again.find(room.code)
        assert back.marks == () and back.participant(token).name == "Anna"
        square = on_board(back)[0]
        assert back.mark(key, "square", [square]) is None
        third = Rooms()
        connect(third, engine)
        assert third.find(room.code).marks == (Mark("square", (square,)),)
    finally:
        store.close()
