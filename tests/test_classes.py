"""Classes kept across lessons (widgets/classroom/classes.py, class_export.py): the roster by
name across rooms, the record per learner and rule (practised at the table, answered right or
wrong), the CSV exports and who may read them, the schema-8 migration, the bounds; SQLite and
PostgreSQL."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest
from sqlalchemy import create_engine, inspect

from nefertiti_core.teaching.coverage import answer_rules, steps_in
from widgets.classroom import classes as C
from widgets.classroom.class_export import export
from widgets.classroom.classes import ClassBook, ClassError, safe_cell
from widgets.classroom.poll import lesson_exercises
from widgets.classroom.room import Room
from widgets.server import store as S

WHO_PLAYS = "lesson:welcome/who-plays-next"  # a choice question: the right answer is "red"


@pytest.fixture
def book(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    made = ClassBook(engine)
    C.use(made)
    yield made
    C.use(None)
    engine.dispose()


def lesson(book, class_id, learners, *, answers=None):
    """A room of the class: ``learners`` join, the first holds the deciding seat and plays one
    step; then a class question that each answers (``answers``: name -> choice) is revealed."""
    room, key = Room.open()
    assert book.link(room, class_id)
    people = {}
    for name in learners:
        person, token, why = room.join(name, "en")
        assert why is None, why
        people[name] = (person, token)
    first = people[learners[0]][0]
    assert room.assign_seat(key, first.id, room.table.state.decider) is None
    assert room.play(people[learners[0]][1], room.table.state.legal_options()[0]) is None
    room.polls.push(WHO_PLAYS, room.learner_names())
    for name, choice in (answers or {}).items():
        room.polls.answer(str(people[name][0].id), choice)
    room.polls.reveal()
    return room, key


def test_the_engine_says_which_seat_made_each_step_and_its_rules():
    from nefertiti_core import new_game
    from nefertiti_core.files.history import History

    history = History(new_game(4, 0, record_events=True))
    first = history.state.decider
    history.play(history.state.legal_options()[0])
    steps = steps_in(history.state.log)
    assert [seat for seat, _ in steps] == [first]
    assert "R5.3" in steps[0][1]  # the first servant on a stall
    assert steps_in([("decision", {"seat": "x"}), ("place", {"rule": "R5.2"})]) == []


def test_the_same_learner_across_two_rooms_of_one_class(book):
    info, _secret = book.create("7b Mathe")
    lesson(book, info.id, ["Anna", "Bo"], answers={"Anna": "red", "Bo": "green"})
    # a second lesson: Anna comes back as "anna" (the same name, as a room compares names)
    lesson(book, info.id, ["anna ", "Chen"], answers={"anna ": "blue", "Chen": "red"})
    roster = book.roster(info.id)
    assert sorted(roster.values()) == ["Anna", "Bo", "Chen"]  # the first spelling is kept
    anna = next(n for n, name in roster.items() if name == "Anna")
    tested = answer_rules(lesson_exercises()[0][1])
    rule = sorted(tested)[0]
    row = next(r for r in book.rules(info.id) if r.rule == rule)
    practised, right, wrong = row.learners[anna]
    assert (right, wrong) == (1, 1)  # one lesson right, the other wrong
    assert any(r.learners.get(anna, (0, 0, 0))[0] for r in book.rules(info.id))  # her steps
    lines = [line for line in book.history(info.id) if line.learner == anna]
    assert [(line.answer, line.correct) for line in lines] == [("red", True), ("blue", False)]
    assert {line.room for line in lines} and len({line.room for line in lines}) == 2


def test_the_same_name_in_two_classes_is_two_learners(book):
    a, _ = book.create("Class A")
    b, _ = book.create("Class B")
    lesson(book, a.id, ["Anna"], answers={"Anna": "red"})
    lesson(book, b.id, ["Anna"], answers={"Anna": "green"})
    assert list(book.roster(a.id).values()) == ["Anna"] == list(book.roster(b.id).values())
    assert [line.correct for line in book.history(a.id)] == [True]
    assert [line.correct for line in book.history(b.id)] == [False]


def test_a_reveal_seen_again_counts_nothing_twice(book):
    info, _ = book.create("Twice")
    room, _key = lesson(book, info.id, ["Anna"], answers={"Anna": "red"})
    before = [(r.rule, r.right, r.wrong) for r in book.rules(info.id)]
    ClassBook(book.engine).on_room_change(room, "polls", [])  # a restarted process's book
    assert [(r.rule, r.right, r.wrong) for r in book.rules(info.id)] == before


def test_a_room_feeds_one_class_only(book):
    a, _ = book.create("A")
    b, _ = book.create("B")
    room, _ = Room.open()
    assert book.link(room, a.id)
    assert not book.link(room, b.id)
    assert book.class_of(room.code) == a.id


def rows_of(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")  # Excel reads UTF-8 with the BOM
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_csv_escapes_formulas_and_keeps_chinese_names(book):
    info, secret = book.create("Export")
    evil = '=HYPERLINK("x")'
    lesson(book, info.id, [evil, "王小明", "Jürgen"], answers={evil: "red", "王小明": "red"})
    status, text = export(info.id, secret, "rules", "de")
    assert status == 200
    rows = rows_of(text)
    assert rows[0][:3] == ["Lernende/r", "Regel", "Titel"]
    names = {row[0] for row in rows[1:]}
    assert "'" + evil in names and evil not in names
    assert {"王小明", "Jürgen"} <= names
    status, text = export(info.id, secret, "questions", "zh")
    rows = rows_of(text)
    assert rows[0][0] == "学员"
    line = next(row for row in rows[1:] if row[0] == "王小明")
    assert line[5] == "是" and line[4] and line[3]  # right; the answer and question in words
    for value in ("+1", "-1", "@x", "\tx", "ok"):
        assert safe_cell(value)[0] not in "=+-@\t" or value == "ok"


def test_only_the_class_key_reads_the_record(book):
    info, secret = book.create("Secret")
    other, other_secret = book.create("Other")
    assert export(info.id, other_secret, "rules", "en")[0] == 403
    assert export(info.id, "", "rules", "en")[0] == 403
    status, words = export(info.id, "x" * 32, "rules", "de")
    assert status == 403 and "Lehrkraft" in words
    assert export("ZZZZZZZZ", secret, "rules", "en")[0] == 404
    assert export(info.id, secret, "rules", "en")[0] == 200


def test_bad_class_names_are_refused_with_a_reason(book):
    with pytest.raises(ClassError, match="at most 40"):
        book.create("x" * 41)
    with pytest.raises(ClassError, match="name"):
        book.create("   ")
    with pytest.raises(ClassError, match="control"):
        book.create("a\u200bb")


def test_sizes_are_bounded(book, monkeypatch):
    monkeypatch.setattr(C, "MAX_ROSTER", 2)
    monkeypatch.setattr(C, "MAX_HISTORY", 1)
    info, _ = book.create("Small")
    lesson(book, info.id, ["A1", "B2", "C3"], answers={"A1": "red", "B2": "red", "C3": "red"})
    assert len(book.roster(info.id)) == 2  # the third is left out of the class
    lesson(book, info.id, ["A1"], answers={"A1": "green"})
    lines = [line for line in book.history(info.id) if line.answer]
    assert len([line for line in lines if line.learner == 1]) == 1  # the oldest went
    assert [line.answer for line in lines if line.learner == 1] == ["green"]


def test_classes_unused_for_long_expire(book):
    info, _ = book.create("Old")
    lesson(book, info.id, ["Anna"], answers={"Anna": "red"})
    assert book.expire(days=-1) == 1
    assert book.get(info.id) is None and book.roster(info.id) == {}


def test_a_schema_4_store_migrates_to_8_with_the_class_tables(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE nefertiti_schema (version INTEGER PRIMARY KEY);
        INSERT INTO nefertiti_schema VALUES (1), (2), (3), (4);
        CREATE TABLE saved_games (token VARCHAR(64) PRIMARY KEY, owner VARCHAR(64) NOT NULL,
            record TEXT NOT NULL, lang VARCHAR(8) NOT NULL, hints BOOLEAN NOT NULL,
            branch VARCHAR(100) NOT NULL, step INTEGER NOT NULL,
            revision INTEGER NOT NULL DEFAULT 0, created DATETIME NOT NULL,
            updated DATETIME NOT NULL);
        """
    )
    db.commit()
    db.close()
    store = S.Store(f"sqlite:///{path}")
    try:
        tables = set(inspect(store.engine).get_table_names())
        assert set(S.CLASS_TABLES) <= tables
        with store.engine.connect() as conn:
            versions = sorted(
                v for (v,) in conn.exec_driver_sql("SELECT version FROM nefertiti_schema")
            )
        assert versions[-1] == S.SCHEMA_VERSION == 8
        ClassBook(store.engine).create("after the migration")
    finally:
        store.close()


def test_postgresql_keeps_one_learner_across_rooms_and_two_classes_apart(postgres_url):
    engine = create_engine(postgres_url)
    made = ClassBook(engine)
    C.use(made)
    try:
        a, secret = made.create("PG 7b")
        b, _ = made.create("PG 8c")
        lesson(made, a.id, ["Anna", "王小明"], answers={"Anna": "red", "王小明": "green"})
        lesson(made, a.id, ["ANNA"], answers={"ANNA": "red"})
        lesson(made, b.id, ["Anna"], answers={"Anna": "green"})
        assert sorted(made.roster(a.id).values()) == ["Anna", "王小明"]
        anna = [line for line in made.history(a.id) if line.learner == 1]
        assert [line.correct for line in anna] == [True, True]
        assert [line.correct for line in made.history(b.id)] == [False]
        status, text = export(a.id, secret, "questions", "en")
        assert status == 200 and "王小明" in text
    finally:
        C.use(None)
        engine.dispose()


def test_the_teachers_card_shows_the_record_only_with_the_class_key_and_escapes_names(book):
    from widgets.classroom.class_panel import NEW, ClassPanel

    room, key = Room.open()
    room.join("<b>Bo</b>", "en")
    stranger = ClassPanel(room, key, {}, lang="de")
    assert stranger.info is None and not stranger.elsewhere
    stranger.keep(NEW, "Klasse <i>7b</i>")  # a new class, its key for this browser
    assert stranger.info is not None and "&lt;i&gt;7b&lt;/i&gt;" in stranger.note.object
    info = stranger.info
    secret = stranger.kept[info.id]
    lesson_room, _ = lesson(book, info.id, ["<b>Bo</b>"], answers={"<b>Bo</b>": "red"})
    teacher = ClassPanel(lesson_room, key, {info.id: secret}, lang="zh")
    assert teacher.info == info
    html = teacher.table.object
    assert "&lt;b&gt;Bo&lt;/b&gt;" in html and "<b>Bo</b>" not in html
    assert "class-export-rules" in teacher.exports.object
    # the room's key without the class's: told it is kept elsewhere, no record, no links
    other = ClassPanel(lesson_room, key, {}, lang="en")
    assert other.info is None and other.elsewhere
    assert other.table.object == "" and other.exports.object == ""


def test_steps_on_a_break_away_copy_count_as_practised_and_the_teachers_for_nobody(book):
    info, _ = book.create("Practice")
    room, key = Room.open()
    assert book.link(room, info.id)
    person, token, _ = room.join("Dana", "en")
    assert room.play(key, room.table.state.legal_options()[0]) is None  # the teacher's step
    assert book.rules(info.id) == []
    assert room.break_away(token) is None
    copy = room.private(token)
    assert room.play_private(token, copy.state.legal_options()[0]) is None
    assert room.play_private(token, room.private(token).state.legal_options()[0]) is None
    practised = {row.rule: row.learners[1][0] for row in book.rules(info.id)}
    assert practised.get("R5.5") == 2  # two steps of hers, each passing the turn on
    assert book.roster(info.id) == {1: "Dana"} and person.id == 1
