"""A room's chapters (widgets/classroom/chapters.py): staging a position never loses the class
game; switching back finds it exactly where it was (every branch and step); the boundaries (at
most MAX_CHAPTERS, the class game never removed, a missing chapter refused); the chapters kept in
the store and read back defensively, in one process (SQLite) and between two (PostgreSQL, the
feed); a schema-4 store migrated to schema 5 keeps its rooms."""

from __future__ import annotations

import json
import logging

import pytest
from pg import fresh_database
from sqlalchemy import create_engine, inspect, text

from nefertiti_core.engine.i18n import LANGUAGES, tr
from nefertiti_core.files.history import History
from widgets.classroom.chapters import (
    CLASS_GAME,
    MAX_CHAPTERS,
    MAX_CHAPTERS_CHARS,
    Chapters,
    chapters_text,
    read_chapters,
    shipped_scenario,
)
from widgets.classroom.feed import PgFeed, wait_for
from widgets.classroom.room import Room, Rooms
from widgets.classroom.room_store import RoomStore, connect, rooms_table
from widgets.server.store import SCHEMA_VERSION, Store


@pytest.fixture()
def room():
    room, secret = Room.open()
    room.secret = secret  # for the tests only: the room itself keeps its hash
    return room


def where(room):
    """Where the table is: its branches, branch, step and position."""
    table = room.table
    return table.branches, table.branch, table.step, table.state.decider, table.steps()


def a_class_game(room):
    """A few steps at the table and a second branch."""
    for _ in range(3):
        assert room.play(room.secret, room.table.state.legal_options()[0]) is None
    room.undo(room.secret)
    assert room.play(room.secret, room.table.state.legal_options()[-1]) is None
    assert len(room.table.branches) == 2


def test_staging_a_position_keeps_the_class_game_as_chapter_1(room):
    a_class_game(room)
    before = where(room)
    anna, token, _ = room.join("Anna", "de")
    room.assign_seat(room.secret, anna.id, 1)
    assert room.stage(room.secret, "abou-simbel-left-eleven") is None
    assert [c.number for c in room.chapters.items] == [CLASS_GAME, 2]
    shown = room.chapters.shown
    assert shown.number == 2 and room.title == "abou-simbel-left-eleven"
    scenario = shipped_scenario("abou-simbel-left-eleven")
    for lang in LANGUAGES:
        assert shown.title_in(lang) == scenario.title_in(lang)
        assert shown.teaching_in(lang) == scenario.teaching_in(lang)
    assert room.table.step == 0
    # a step in the chapter; back to the class game: exactly where it was
    assert room.play(room.secret, room.table.state.legal_options()[0]) is None
    assert room.switch_chapter(room.secret, CLASS_GAME) is None
    assert where(room) == before
    assert room.participant(token).seat == 1  # seats are the room's
    # staging the same position again reopens its chapter with its step
    assert room.stage(room.secret, "abou-simbel-left-eleven") is None
    assert len(room.chapters) == 2 and room.table.step == 1
    assert room.chapters.items[0].title_in("de") == tr("de", "chapters.class_game")


def test_a_chapter_from_the_table_and_break_aways_from_the_current_chapter(room):
    a_class_game(room)
    anna, token, _ = room.join("Anna")
    assert room.chapter_from_table(room.secret) is None
    chapter = room.chapters.shown
    assert chapter.number == 2 and room.table.step == 0
    assert room.table.state.decider == room.chapters.get(CLASS_GAME).history.state.decider
    assert chapter.title_in("en") == tr(
        "en", "chapters.from_position", title=tr("en", "chapters.class_game"), step=3
    )
    room.stage(room.secret, "scribe")
    assert room.break_away(token) is None
    mine = room.private(token)
    assert mine.state.n == room.table.state.n and mine.step == 0
    # bring everyone back: the copy ends, counted (another process drops its copies too)
    assert room.bring_back(anna.token_hash) is not None  # not the teacher
    assert room.bring_back(room.secret) is None
    assert room.private(token) is None and room.chapters.recalls == 1


def test_the_boundaries(room):
    refused = room.remove_chapter(room.secret, CLASS_GAME)
    assert refused.key == "room.refuse.class_game_stays"
    for missing in (2, 0, -1, "2", None, True, 10**9):
        why = room.switch_chapter(room.secret, missing)
        assert why is not None and why.key == "room.refuse.no_chapter"
        assert room.remove_chapter(room.secret, missing).key in (
            "room.refuse.no_chapter",
            "room.refuse.class_game_stays",  # True == 1
        )
    for _ in range(MAX_CHAPTERS - 1):
        assert room.stage(room.secret, "new") is None
    assert len(room.chapters) == MAX_CHAPTERS
    version = room.version
    too_many = room.chapter_from_table(room.secret)
    assert too_many.key == "room.refuse.too_many_chapters"
    for lang in LANGUAGES:
        assert str(MAX_CHAPTERS) in too_many.text(lang)
    assert room.version == version and len(room.chapters) == MAX_CHAPTERS
    # only the teacher
    anna, token, _ = room.join("Anna")
    for action in (
        lambda key: room.switch_chapter(key, CLASS_GAME),
        lambda key: room.remove_chapter(key, 2),
        lambda key: room.chapter_from_table(key),
        lambda key: room.bring_back(key),
        lambda key: room.add_uploaded(key, History(room.table.state.copy()), {}, {}),
    ):
        assert action(token).key == "room.refuse.teacher_only"
    # removing the table's chapter shows the class game
    shown = room.chapters.current
    assert room.remove_chapter(room.secret, shown) is None
    assert room.chapters.current == CLASS_GAME and room.chapters.get(shown) is None
    assert room.switch_chapter(room.secret, shown).key == "room.refuse.no_chapter"


def test_an_uploaded_position_is_a_chapter_with_its_titles(room):
    text_ = shipped_scenario("scribe")
    assert (
        room.add_uploaded(room.secret, History(text_.state), text_.titles, text_.teachings) is None
    )
    assert room.chapters.shown.kind == "upload"
    assert room.chapters.shown.title_in("zh") == text_.title_in("zh")
    assert room.add_uploaded(room.secret, "not a history", {}, {}).key == "room.refuse.bad_option"


def test_the_chapters_round_trip_through_their_stored_text(room):
    a_class_game(room)
    class_game = where(room)
    room.stage(room.secret, "tie-break")
    room.play(room.secret, room.table.state.legal_options()[0])
    room.stage(room.secret, "scribe")
    stored = chapters_text(room.chapters, room.code)
    back, warning = read_chapters(stored, room.code)
    assert warning == ""
    assert [c.number for c in back.items] == [1, 2, 3] and back.current == 3
    assert back.next_number == 4
    game = back.get(CLASS_GAME).history
    assert (game.branches, game.branch, game.step, game.steps()) == (
        class_game[0], class_game[1], class_game[2], class_game[4],
    )  # fmt: skip
    assert back.get(2).history.step == 1 and back.get(2).name == "tie-break"
    assert back.get(2).titles == room.chapters.get(2).titles
    assert chapters_text(Chapters()) == ""  # the class game alone: nothing to keep


@pytest.mark.parametrize(
    "bad",
    [
        "not json",
        "[]",
        json.dumps({"chapters": "x"}),
        json.dumps({"current": 2, "chapters": [{"n": 1, "kind": "game"}]}),  # current missing
        json.dumps({"current": 1, "chapters": [{"n": 2, "kind": "shipped"}]}),  # no class game
        json.dumps(
            {"current": 1, "chapters": [{"n": 1, "kind": "game"}, {"n": 2, "kind": "upload"}]}
        ),  # a chapter without its game
        json.dumps(
            {
                "current": 1,
                "chapters": [
                    {"n": 1, "kind": "game"},
                    {"n": 2, "kind": "upload", "record": "nefertiti: 2\nsteps: [nonsense]"},
                ],
            }
        ),  # a game that does not replay
        "x" * (MAX_CHAPTERS_CHARS + 1),
    ],
)
def test_a_bad_stored_value_leaves_the_class_game_and_a_warning(bad, caplog):
    with caplog.at_level(logging.WARNING):
        back, warning = read_chapters(bad, "ROOM")
    assert len(back) == 1 and back.current == CLASS_GAME
    assert "ROOM" in warning and "class game" in warning
    assert warning in caplog.text


def test_the_stored_text_is_bounded(room, monkeypatch):
    import widgets.classroom.chapters as C

    room.stage(room.secret, "tie-break")
    room.stage(room.secret, "scribe")
    room.stage(room.secret, "new")
    full = chapters_text(room.chapters, room.code)
    monkeypatch.setattr(C, "MAX_CHAPTERS_CHARS", len(full) - 10)
    kept = json.loads(chapters_text(room.chapters, room.code))
    assert [c["n"] for c in kept["chapters"]] == [1, 3, 4]  # the oldest after the class game out
    assert len(json.dumps(kept, ensure_ascii=False, separators=(",", ":"))) < len(full)


def test_chapters_come_back_after_a_restart_and_a_broken_value_loads_the_class_game(
    tmp_path, caplog
):
    engine = create_engine(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    rooms = Rooms()
    store = connect(rooms, engine)
    room, key, _ = rooms.open()
    room.secret = key
    a_class_game(room)
    class_game = where(room)
    room.stage(key, "abou-simbel-left-eleven")
    room.play(key, room.table.state.legal_options()[0])
    store.flush()
    again = Rooms()
    connect(again, engine)
    back = again.find(room.code)
    assert [c.number for c in back.chapters.items] == [1, 2] and back.chapters.current == 2
    assert back.title == "abou-simbel-left-eleven" and back.table.step == 1
    assert back.chapters.shown.title_in("de").startswith("Abu Simbel")
    assert back.switch_chapter(key, CLASS_GAME) is None
    assert where(back) == class_game
    # a broken value: the room loads, its table (here the class game's) with a warning
    with engine.begin() as db:
        db.execute(rooms_table.update().values(chapters="{broken"))
    with caplog.at_level(logging.WARNING):
        third = Rooms()
        connect(third, engine)
    loaded = third.find(room.code)
    assert loaded is not None and len(loaded.chapters) == 1 and where(loaded) == class_game
    assert "its chapters did not load" in caplog.text
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def test_a_schema_4_store_is_migrated_and_its_rooms_keep_their_table(url):
    """Schema 5 adds ``classroom_rooms.chapters``: a schema-4 store with a room opens, the room
    comes back with its table as the class game, and keeps the chapters staged from now on."""
    store = Store(url)
    rooms = Rooms()
    room_store = RoomStore(store.engine, rooms=rooms)
    room, key, _ = rooms.open()
    room_store.track(room)
    room.secret = key
    a_class_game(room)
    class_game = where(room)
    room_store.stop()
    store.close()
    # back to schema 4: no chapters column, no version after 4
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text("ALTER TABLE classroom_rooms DROP COLUMN chapters"))
        db.execute(text("DELETE FROM nefertiti_schema"))
        db.execute(text("INSERT INTO nefertiti_schema (version) VALUES (4)"))
    assert "chapters" not in {c["name"] for c in inspect(engine).get_columns("classroom_rooms")}
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as db:
            versions = sorted(db.scalars(text("SELECT version FROM nefertiti_schema")))
        assert versions[-1] == SCHEMA_VERSION and 4 in versions
        rooms = Rooms()
        room_store = RoomStore(store.engine, rooms=rooms)
        assert room_store.load_into(rooms) == 1
        back = rooms.find(room.code)
        assert len(back.chapters) == 1 and where(back) == class_game
        assert back.stage(key, "scribe") is None
        room_store.stop()
        rooms = Rooms()
        room_store = RoomStore(store.engine, rooms=rooms)
        room_store.load_into(rooms)
        assert rooms.find(room.code).chapters.shown.name == "scribe"
        room_store.stop()
    finally:
        store.close()


class Process:
    """One server process's side of the classroom (as tests/test_room_store_pg.py)."""

    def __init__(self, url):
        self.engine = create_engine(url, pool_size=10)
        self.feed = PgFeed(url, engine=self.engine)
        self.rooms = Rooms()
        self.store = connect(self.rooms, self.engine, feed=self.feed)

    def close(self):
        self.feed.close()
        self.engine.dispose()


def test_chapters_made_on_one_process_reach_the_other(postgres_url):
    url = fresh_database(postgres_url)
    a, b = Process(url), Process(url)
    try:
        room_a, key, _ = a.rooms.open()
        room_a.secret = key
        a_class_game(room_a)
        class_game = where(room_a)
        room_b = b.rooms.find(room_a.code)
        anna, token, _ = room_b.join("Anna")
        assert room_b.break_away(token) is None
        assert wait_for(lambda: len(room_a.participants) == 1, 5)
        assert room_a.stage(key, "scribe") is None
        assert wait_for(lambda: room_b.chapters.current == 2, 5)
        assert room_b.title == "scribe" and room_b.table.step == 0
        assert room_b.private(token) is None  # the table's chapter changed: back at the table
        # B plays in the chapter and goes back to the class game; A follows
        assert room_b.play(key, room_b.table.state.legal_options()[0]) is None
        assert room_b.break_away(token) is None
        assert room_b.switch_chapter(key, CLASS_GAME) is None
        assert wait_for(lambda: room_a.chapters.current == CLASS_GAME, 5)
        assert where(room_a) == class_game
        assert room_a.chapters.get(2).history.step == 1
        # bring everyone back, asked on A, ends Anna's copy held on B
        assert room_b.break_away(token) is None
        assert room_a.bring_back(key) is None
        assert wait_for(lambda: room_b.private(token) is None, 5)
    finally:
        a.close()
        b.close()


def test_a_teaching_text_in_every_language_for_every_shipped_title():
    """The list the teacher picks from shows titles, never file names: every shipped position
    has a title in each language."""
    from widgets.classroom.chapters import scenario_names

    for name in scenario_names():
        scenario = shipped_scenario(name)
        for lang in LANGUAGES:
            assert scenario.title_in(lang), (name, lang)


# --- the pages (not served: every change at once) ---------------------------------------------
def test_the_pages_show_the_chapter_in_each_readers_language_and_ask_first():
    from widgets.classroom.learner import LearnerPage
    from widgets.classroom.teacher import TeacherPage

    rooms = Rooms()
    teacher = TeacherPage(rooms, lang="en")
    assert teacher.open_room()
    ana, wei = LearnerPage(rooms, lang="de"), LearnerPage(rooms, lang="zh")
    assert ana.join(teacher.room.code, "Ana") and wei.join(teacher.room.code, "Wei")
    room, panel = teacher.room, teacher.chapters
    play = room.table.state.legal_options()[0]
    assert room.play(teacher.key, play) is None
    # the list shows titles in the class's language, never a file's name
    scenario = shipped_scenario("abou-simbel-left-eleven")
    assert scenario.title_in("en") in panel.stage_select.options
    assert "abou-simbel-left-eleven" not in panel.stage_select.options
    assert not teacher.chapter_note.visible and not ana.chapter_note.visible
    # staging asks first; Cancel changes nothing
    panel.stage_select.value = "abou-simbel-left-eleven"
    panel.stage_button.clicks += 1
    assert panel.confirm.asking and room.chapters.current == CLASS_GAME
    assert "chapter 1" in panel.confirm.text.object
    panel.confirm.no.clicks += 1
    assert not panel.confirm.asking and room.chapters.current == CLASS_GAME
    panel.stage_button.clicks += 1
    panel.confirm.yes.clicks += 1
    assert room.chapters.current == 2 and room.table.step == 0
    for page, lang in ((teacher, "en"), (ana, "de"), (wei, "zh")):
        assert page.chapter_note.visible
        shown = page.chapter_note.object
        assert esc(scenario.title_in(lang)) in shown
        assert esc(" ".join(scenario.teaching_in(lang).split())) in shown
    # Ana breaks away; the teacher brings everyone back: her page says why
    assert ana.toggle_away() and ana.session.away
    panel.back_button.clicks += 1
    panel.confirm.yes.clicks += 1
    assert not ana.session.away
    assert tr("de", "chapters.brought_back", title=scenario.title_in("de")) in esc_back(
        ana._error.object  # private: the page's note, what the learner reads
    )
    # back to the class game, exactly where it was
    panel.chapter_select.value = CLASS_GAME
    panel.show_button.clicks += 1
    panel.confirm.yes.clicks += 1
    assert room.chapters.current == CLASS_GAME and room.table.step == 1
    # removing the class game is refused, said in the teacher's language
    panel.remove_button.clicks += 1
    assert room.chapters.current == CLASS_GAME and len(room.chapters) == 2
    assert teacher.session.error == tr("en", "room.refuse.class_game_stays")


def esc_back(text: str) -> str:
    import html

    return html.unescape(text)


def esc(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_a_bad_file_is_said_with_its_line_and_a_good_one_becomes_a_chapter():
    from widgets.classroom.teacher import TeacherPage

    rooms = Rooms()
    teacher = TeacherPage(rooms, lang="de")
    assert teacher.open_room()
    room, panel = teacher.room, teacher.chapters
    before = where(room)
    bad = b"nefertiti: 1\nplayers:\n  - {colour: green}\n  - {colour: red}\n  - {colour: pink}\n"
    panel.read_file(bad, "kaputt.yaml")
    said = esc_back(panel.file_status.object)
    assert panel.file_status.alert_type == "danger"
    assert said.startswith("kaputt.yaml lässt sich nicht verwenden: Zeile 5:"), said
    assert "players.2.colour: die Farbe 'pink' gibt es nicht" in said  # the file's words too
    assert "Traceback" not in said and where(room) == before and len(room.chapters) == 1
    panel.read_file(b"\xff\xfe not text", "binary.yaml")
    assert "binary.yaml" in esc_back(panel.file_status.object) and len(room.chapters) == 1
    # a good file: asked first, then a chapter with the file's titles
    good = (
        "nefertiti: 1\ntitle:\n  en: Three players\n  de: Drei Personen\n  zh: 三人\n"
        "players:\n  - {colour: green}\n  - {colour: red}\n  - {colour: blue}\n"
        "teaching: |\n  Look at the stalls.\n"
    )
    panel.read_file(good.encode(), "zwei.yaml")
    assert panel.confirm.asking and "Drei Personen" in panel.confirm.text.object
    panel.confirm.yes.clicks += 1
    assert room.chapters.current == 2 and room.table.state.n == 3
    assert "Drei Personen" in teacher.chapter_note.object
    assert panel.file_status.alert_type == "success"


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_refused_file_is_worded_from_its_line_and_problem_not_its_text(lang):
    """The worker's answer carries the refusal's line and problem apart (``Upload.line``,
    ``Upload.problem``): the page's sentence is built from them, whatever punctuation the
    language puts after the file's name (a Chinese "：" is one character, not two)."""
    from nefertiti_core.files.reader import ScenarioError
    from widgets.classroom.chapters_view import bad_file_text
    from widgets.server.upload import load_checked, refusal

    upload = load_checked(b"nefertiti: 1\nplayers: 2\nfoo: 1\n", "x.yaml", lang)
    assert upload.line == 3 and upload.problem.startswith("foo"), upload
    problem = upload.problem
    assert bad_file_text(lang, upload) == tr(
        lang, "chapters.bad_file_line", name="x.yaml", line=3, problem=problem
    )
    no_line = refusal("x.yaml", ScenarioError("x.yaml", (), "bad"), lang)
    assert no_line.line is None and no_line.problem == "bad"
    assert bad_file_text(lang, no_line) == tr(
        lang, "chapters.bad_file", name="x.yaml", problem="bad"
    )


def test_a_game_saved_from_the_sandbox_becomes_a_chapter_with_every_branch():
    """The Sandbox's Save file (its whole game record: every branch, where it was) uploaded by
    the teacher: the chapter's game is that game, branches and step."""
    from widgets.classroom.teacher import TeacherPage
    from widgets.game.session import GameSession

    sandbox = GameSession()
    for _ in range(3):
        sandbox.play(sandbox.state.legal_options()[0])
    sandbox.undo()
    sandbox.play(sandbox.state.legal_options()[-1])
    saved = sandbox.whole_record()
    assert saved.branches and len(saved.branches) == 2
    rooms = Rooms()
    teacher = TeacherPage(rooms, lang="zh")
    assert teacher.open_room()
    room, panel = teacher.room, teacher.chapters
    panel.read_file(saved.dumps().encode(), "my-game.yaml")
    assert panel.confirm.asking
    panel.confirm.yes.clicks += 1
    table = room.table
    assert room.chapters.current == 2 and len(table.branches) == 2
    assert (table.branch, table.step) == (sandbox.history.branch, sandbox.history.step)
    assert room.chapters.shown.title_in("zh") == tr(
        "zh", "chapters.upload_title", name="my-game.yaml"
    )


def test_the_teachers_own_latest_sandbox_game_becomes_a_chapter(tmp_path, monkeypatch):
    """The button reads the game this browser saved last in the Sandbox (the store, by the
    browser id's hash, as the Sandbox keeps it); a browser without one is told so."""
    from widgets.classroom.teacher import TeacherPage
    from widgets.game.session import GameSession
    from widgets.server import store as S

    monkeypatch.setattr(S, "_store", Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    store = S.get_store()
    browser, other = S.new_token(), S.new_token()
    sandbox = GameSession()
    sandbox.play(sandbox.state.legal_options()[0])
    sandbox.play(sandbox.state.legal_options()[0])
    store.save(S.new_token(), S.owner_of(browser), sandbox.whole_record().dumps(), step=2)
    rooms = Rooms()
    teacher = TeacherPage(rooms, lang="de", browser=browser)
    assert teacher.open_room()
    panel, room = teacher.chapters, teacher.room
    assert panel.sandbox_button.visible
    assert panel.sandbox_button.name == tr("de", "chapters.sandbox")
    panel.sandbox_button.clicks += 1
    assert tr("de", "chapters.sandbox_title") in panel.confirm.text.object
    panel.confirm.yes.clicks += 1
    assert room.chapters.current == 2 and room.table.step == 2
    assert room.table.steps() == sandbox.history.steps()
    # another browser has none: said, nothing changes
    stranger = TeacherPage(rooms, lang="en", browser=other)
    assert stranger.open_room()
    stranger.chapters.sandbox_button.clicks += 1
    assert not stranger.chapters.confirm.asking
    assert tr("en", "chapters.no_sandbox") in esc_back(stranger.chapters.file_status.object)
    assert len(stranger.room.chapters) == 1
    # no browser id (not served, a notebook): no such button
    plain = TeacherPage(rooms)
    assert plain.open_room() and not plain.chapters.sandbox_button.visible
    store.close()
