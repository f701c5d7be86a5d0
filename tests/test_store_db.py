"""The store's database (issue #17): schema versions and migrations, database URLs, the
``--database`` option, and compare-and-set between processes; each on SQLite and on a real
PostgreSQL server (tests/pg.py).
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pg
import pytest
from pg import free_port, fresh_database
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
    select,
    text,
)

import widgets.server.store as S
from widgets.server.store import (
    SCHEMA_VERSION,
    Store,
    StoreError,
    database_url,
    new_token,
    owner_of,
)

ROOT = Path(__file__).resolve().parent.parent
ME = new_token()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """An empty database: an SQLite file or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


# --- schema versions ------------------------------------------------------------------------
#: Schema 1 as the tutor wrote it (commit 88a8d8a's widgets/server/store.py): frozen here.
V1 = MetaData()
Table("nefertiti_schema", V1, Column("version", Integer, primary_key=True, autoincrement=False))
Table(
    "saved_games",
    V1,
    Column("token", String(64), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("record", Text, nullable=False),
    Column("lang", String(8), nullable=False, default="en"),
    Column("hints", Boolean, nullable=False, default=True),
    Column("branch", String(100), nullable=False, default="main"),
    Column("step", Integer, nullable=False, default=0),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
)


def write_version_1_store(url: str, token: str) -> None:
    from datetime import UTC, datetime

    engine = create_engine(url)
    V1.create_all(engine)
    now = datetime.now(UTC)
    with engine.begin() as db:
        db.execute(insert(V1.tables["nefertiti_schema"]).values(version=1))
        db.execute(
            insert(V1.tables["saved_games"]).values(
                token=token, owner=owner_of(ME), record="old record", lang="de", hints=False,
                branch="main", step=4, created=now, updated=now,
            )
        )  # fmt: skip
    engine.dispose()


def columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def versions(url: str) -> list[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return sorted(db.scalars(text("SELECT version FROM nefertiti_schema")))
    finally:
        engine.dispose()


def test_a_version_1_store_is_migrated_and_its_games_kept(url):
    token = new_token()
    write_version_1_store(url, token)
    assert "revision" not in columns(url, "saved_games")
    store = Store(url)
    try:
        assert versions(url) == list(range(1, SCHEMA_VERSION + 1))
        saved = store.load(token, owner_of(ME))
        assert (saved.record, saved.lang, saved.hints, saved.step, saved.revision) == (
            "old record", "de", False, 4, 0,
        )  # fmt: skip
        store.save(token, owner_of(ME), "new record", step=5)
        assert store.load(token, owner_of(ME)).revision == 1
    finally:
        store.close()
    again = Store(url)  # opened again: nothing more to do
    assert versions(url) == list(range(1, SCHEMA_VERSION + 1))
    assert again.load(token, owner_of(ME)).record == "new record"
    again.close()


#: Schema 2's classroom tables (commit db998f2's widgets/classroom/room_store.py): frozen here.
V2_ROOMS = MetaData()
Table(
    "classroom_rooms",
    V2_ROOMS,
    Column("code", String(16), primary_key=True),
    Column("teacher_hash", String(64), nullable=False),
    Column("record", Text, nullable=False),
    Column("title", String(100), nullable=False, default=""),
    Column("paused", Boolean, nullable=False, default=False),
    Column("version", Integer, nullable=False, default=0),
    Column("next_id", Integer, nullable=False, default=1),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("touched", DateTime(timezone=True), nullable=False, index=True),
)
Table(
    "classroom_participants",
    V2_ROOMS,
    Column("room", String(16), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("joined", DateTime(timezone=True), nullable=False),
)


def test_a_version_2_store_with_rooms_gets_their_questions_column(url):
    """Schema 3 (the rooms' class questions, #16 item 5): a schema-2 store with a room opens,
    the room comes back (without questions: it had none) and keeps the ones asked from now on."""
    from datetime import UTC, datetime

    from widgets.classroom.room import Room, Rooms
    from widgets.classroom.room_store import RoomStore

    write_version_1_store(url, new_token())
    engine = create_engine(url)
    V2_ROOMS.create_all(engine)
    room, key = Room.open()
    anna, token, _ = room.join("Anna")
    now = datetime.now(UTC)
    with engine.begin() as db:
        db.execute(text("ALTER TABLE saved_games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"))
        db.execute(text("INSERT INTO nefertiti_schema (version) VALUES (2)"))
        db.execute(
            insert(V2_ROOMS.tables["classroom_rooms"]).values(
                code=room.code, teacher_hash=room.teacher_hash,
                record=room.table.whole_record().dumps(), title="", paused=False, version=3,
                next_id=2, created=now, touched=now,
            )
        )  # fmt: skip
        db.execute(
            insert(V2_ROOMS.tables["classroom_participants"]).values(
                room=room.code, id=anna.id, name="Anna", lang="en",
                token_hash=anna.token_hash, seat=None, joined=now,
            )
        )  # fmt: skip
    engine.dispose()
    assert "polls" not in columns(url, "classroom_rooms")
    store = Store(url)
    try:
        assert versions(url) == list(range(1, SCHEMA_VERSION + 1)) and SCHEMA_VERSION >= 3
        assert "polls" in columns(url, "classroom_rooms")
        rooms = Rooms()
        room_store = RoomStore(store.engine, rooms=rooms)
        assert room_store.load_into(rooms) == 1
        back = rooms.find(room.code)
        assert back.is_teacher(key) and back.participant(token).name == "Anna"
        assert back.polls.current is None and "1" in back.polls.record
        back.polls.push("lesson:welcome/who-plays-next", back.learner_names())
        back.polls.answer("1", "red")
        room_store.stop()
    finally:
        store.close()
    again = Store(url)
    try:
        rooms = Rooms()
        room_store = RoomStore(again.engine, rooms=rooms)
        room_store.load_into(rooms)
        assert rooms.find(room.code).polls.counts()["red"] == 1
        room_store.stop()
    finally:
        again.close()


def test_a_migration_that_fails_half_way_changes_nothing(url, monkeypatch):
    token = new_token()
    write_version_1_store(url, token)

    def broken(db):
        raise RuntimeError("step two of the migration went wrong")

    monkeypatch.setitem(S.MIGRATIONS, 2, [*S.MIGRATIONS[2], broken])
    with pytest.raises(RuntimeError, match="step two"):
        Store(url)
    # the first step's column is not there: the transaction was rolled back as a whole
    assert "revision" not in columns(url, "saved_games")
    assert versions(url) == [1]
    monkeypatch.undo()
    store = Store(url)
    assert store.load(token, owner_of(ME)).record == "old record"
    store.close()


def test_tables_other_modules_declare_on_the_store_metadata_are_created(url):
    store = Store(url)
    rooms = Table(
        "test_declared_rooms",
        S.metadata,
        Column("code", String(16), primary_key=True),
        Column("version", Integer, nullable=False),
    )
    try:
        assert "test_declared_rooms" not in inspect(store.engine).get_table_names()
        store.create_tables()  # what get_store() does when tables were declared since
        assert "test_declared_rooms" in inspect(store.engine).get_table_names()
        with store.transaction() as db:
            db.execute(insert(rooms).values(code="ABC", version=0))
    finally:
        S.metadata.remove(rooms)
        store.close()


def test_the_newer_store_message_names_the_way_out(url):
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text(f"INSERT INTO nefertiti_schema (version) VALUES ({SCHEMA_VERSION + 3})"))
    engine.dispose()
    with pytest.raises(StoreError) as caught:
        Store(url)
    message = str(caught.value)
    assert f"(schema {SCHEMA_VERSION + 3}; this one reads {SCHEMA_VERSION})" in message
    assert "--database" in message and "\n" not in message


# --- database URLs ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "needle"),
    [
        ("nonsense", "is not a database URL"),
        ("mysql://u@host/db", "a 'mysql' database is not supported"),
        ("postgresql://host", "names no database"),
        ("postgresql+asyncpg://host/db", "the driver 'asyncpg' is not the tutor's"),
    ],
)
def test_a_bad_database_url_is_one_line_naming_it(given, needle):
    with pytest.raises(StoreError) as caught:
        database_url(given)
    assert needle in str(caught.value) and "\n" not in str(caught.value)


def test_postgresql_urls_mean_psycopg_3():
    for given in ("postgresql://u@h/db", "postgres://u@h/db", "postgresql+psycopg://u@h/db"):
        assert database_url(given).drivername == "postgresql+psycopg"


def test_an_unreachable_server_is_one_line_without_the_password():
    with pytest.raises(StoreError) as caught:
        Store("postgresql://nefertiti:secret@127.0.0.1:1/rooms")
    message = str(caught.value)
    assert message.startswith("cannot open the store postgresql+psycopg://nefertiti:***@")
    assert "Connection refused" in message and "secret" not in message and "\n" not in message


def serve_cli(*argv, env=None, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "nefertiti_core", "serve", "--port", "1", *argv],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "env", "needle"),
    [
        (["--database", "mysql://u@h/db"], {}, "argument --database: 'mysql://u@h/db': a 'mysql'"),
        (
            ["--database", "postgresql://u:pw@127.0.0.1:1/db"],
            {},
            "--database: cannot open the store postgresql+psycopg://u:***@127.0.0.1:1/db: "
            "connection failed",
        ),
        ([], {"NEFERTITI_STORE_URL": "nonsense"}, "NEFERTITI_STORE_URL: 'nonsense' is not a"),
    ],
)
def test_serve_with_a_bad_or_unreachable_database_is_one_line_and_exit_2(argv, env, needle):
    done = serve_cli(*argv, env=env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nefertiti serve: error: "), done.stderr
    assert needle in lines[0] and "Traceback" not in done.stderr


def test_serve_on_postgresql_opens_the_store_before_serving(postgres_url, tmp_path):
    url = fresh_database(postgres_url)
    process = subprocess.Popen(
        [sys.executable, "-m", "nefertiti_core", "serve", "--port", str(free_port()),
         "--database", url.replace("postgresql+psycopg://", "postgresql://")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        first = process.stdout.readline()
        assert first.startswith("Saved games and rooms: postgresql+psycopg://postgres@"), first
        assert versions(url) == [SCHEMA_VERSION]  # created before serving
    finally:
        process.terminate()
        process.wait(timeout=30)


# --- compare-and-set between processes ----------------------------------------------------------
CAS = MetaData()
CAS_ROOMS = Table(
    "cas_rooms",
    CAS,
    Column("code", String(16), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("steps", Text, nullable=False),
)
ROOM = {"code": "ROOM1"}
APPENDS = 500


def _appender(url: str, name: str, start, results) -> None:
    """One process: APPENDS steps to ROOM, each written only at the version it read; a lost
    race is retried with the same step (so a loss that had written would show twice)."""
    store = Store(url)
    won, lost = [], 0
    start.wait()
    while len(won) < APPENDS:
        with store.engine.connect() as db:
            version = db.scalar(select(CAS_ROOMS.c.version).where(CAS_ROOMS.c.code == "ROOM1"))
        step = f"{name}{len(won)}"
        if store.append_step(CAS_ROOMS, ROOM, version, step):
            won.append(step)
        else:
            lost += 1
    store.close()
    results.put((name, won, lost))


@pytest.mark.slow  # two real processes a backend (about 19 s for both here)
def test_two_processes_appending_to_one_room_lose_and_double_nothing(url):
    store = Store(url)
    CAS.create_all(store.engine)
    with store.transaction() as db:
        db.execute(insert(CAS_ROOMS).values(code="ROOM1", version=0, steps=""))
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=_appender, args=(url, name, start, results)) for name in "ab"]
    for worker in workers:
        worker.start()
    time.sleep(0.5)
    start.set()
    outcome = {}
    for _ in workers:
        name, won, lost = results.get(timeout=300)
        outcome[name] = (won, lost)
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    with store.engine.connect() as db:
        row = db.execute(select(CAS_ROOMS)).one()
    stored = row.steps.split("\n")
    assert row.version == len(stored) == 2 * APPENDS  # every win written once: nothing lost
    assert len(set(stored)) == len(stored)  # nothing doubled (a told loser never wrote)
    for name, (won, _lost) in outcome.items():
        assert [s for s in stored if s.startswith(name)] == won  # each process's, in its order
    losses = sum(lost for _, lost in outcome.values())
    print(f"{store.dialect}: 2 x {APPENDS} appends, {losses} lost races told and retried")
    assert losses > 0  # the two did race (else this test proves nothing)
    store.close()


def test_a_stale_write_is_refused_and_what_runs_with_it_is_rolled_back(url):
    store = Store(url)
    CAS.create_all(store.engine)
    with store.transaction() as db:
        db.execute(insert(CAS_ROOMS).values(code="ROOM2", version=3, steps="x"))
    key = {"code": "ROOM2"}
    assert not store.append_step(CAS_ROOMS, key, 2, "stale")
    assert not store.append_step(CAS_ROOMS, {"code": "NONE"}, 3, "no such room")

    def fails(db):
        raise RuntimeError("publishing failed")

    with pytest.raises(RuntimeError):
        store.append_step(CAS_ROOMS, key, 3, "y", then=fails)
    seen = []
    assert store.append_step(CAS_ROOMS, key, 3, "y", then=seen.append)
    assert len(seen) == 1
    with pytest.raises(StoreError, match="one line of text"):
        store.append_step(CAS_ROOMS, key, 4, "two\nlines")
    with store.engine.connect() as db:
        assert db.execute(select(CAS_ROOMS.c.version, CAS_ROOMS.c.steps).where(
            CAS_ROOMS.c.code == "ROOM2")).one() == (4, "x\ny")  # fmt: skip
    store.close()


@pytest.mark.slow  # a fresh interpreter without the driver (about 6 s)
def test_without_postgresql_installed_the_database_tests_fail_saying_what_to_install(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("NEFERTITI_PG_BIN", str(tmp_path / "nowhere"))
    with pytest.raises(RuntimeError, match=r"`apt-get install postgresql` \(Debian\)"):
        pg.PgServer()
    probe = tmp_path / "test_probe.py"
    probe.write_text("def test_needs_a_server(postgres_url):\n    assert postgres_url\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "pg", str(probe)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT / "tests")},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout  # failed, not skipped
    assert "1 error" in done.stdout and "skipped" not in done.stdout, done.stdout
    assert "apt-get install postgresql" in done.stdout, done.stdout


def test_the_process_store_follows_nefertiti_store_url_and_creates_tables_declared_later(
    url, monkeypatch
):
    monkeypatch.setenv("NEFERTITI_STORE_URL", url)
    monkeypatch.setattr(S, "_store", None)
    monkeypatch.setattr(S, "_store_error", None)
    store = S.get_store()
    try:
        assert store is not None and store.dialect == url.split(":")[0].split("+")[0]
        late = Table("test_late_rooms", S.metadata, Column("code", String(16), primary_key=True))
        try:
            assert S.get_store() is store
            assert "test_late_rooms" in inspect(store.engine).get_table_names()
        finally:
            S.metadata.remove(late)
    finally:
        store.close()


def _open(url: str, start, results) -> None:
    """Open the store at ``url`` with a migration that takes 0.5 s (the others come meanwhile)."""
    S.MIGRATIONS[2] = [*S.MIGRATIONS[2], lambda db: time.sleep(0.5)]
    start.wait()
    try:
        Store(url).close()
        results.put("opened")
    except Exception as error:  # reported to the test
        results.put(f"{type(error).__name__}: {error}")


@pytest.mark.slow  # real processes opening one store (about 12 s for both here)
def test_processes_opening_an_old_store_at_once_migrate_it_once(url):
    write_version_1_store(url, new_token())
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=_open, args=(url, start, results)) for _ in range(3)]
    for worker in workers:
        worker.start()
    time.sleep(0.5)
    start.set()
    assert sorted(results.get(timeout=120) for _ in workers) == ["opened"] * 3
    for worker in workers:
        worker.join(timeout=30)
    assert versions(url) == list(range(1, SCHEMA_VERSION + 1))
    assert "revision" in columns(url, "saved_games")


def test_a_pg_dump_backup_restores_the_saved_games(postgres_url, tmp_path):
    """docs/deploy.md's backup and restore commands, as written there."""
    url = fresh_database(postgres_url)
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    store = Store(url)
    token = new_token()
    store.save(token, owner_of(ME), "kept in the backup")
    dump = tmp_path / "nefertiti.dump"
    tools = pg.server().bin
    subprocess.run(
        [tools / "pg_dump", "--format=custom", f"--file={dump}", plain], check=True, timeout=60
    )
    store.delete(token)
    store.close()
    subprocess.run(
        [tools / "pg_restore", "--clean", "--if-exists", "--no-owner", "--role=postgres",
         f"--dbname={plain}", dump],
        check=True, timeout=60,
    )  # fmt: skip
    again = Store(url)
    assert again.load(token, owner_of(ME)).record == "kept in the backup"
    again.close()
