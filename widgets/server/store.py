"""The store: saved games (and the classroom's rooms) in one database, behind SQLAlchemy.

``saved_games`` holds every Sandbox game, autosaved, so a reload or a restart loses nothing: keyed
by a random, unguessable token (``secrets.token_urlsafe``), the whole game record (format 2: every
branch, the current branch and step, the seats and the bots' seed; see
``docs/scenario-format.md``) as text, the session's language and hints, who owns it (a hash of the
browser's own random id, so a shared link does not hand the game to another browser), how many
times it was saved (``revision``) and when it was created and last saved.

Where: an SQLite file, ``games.sqlite3`` under ``$NEFERTITI_HOME`` (default ``~/.nefertiti``), in
WAL mode (a reader never waits for the writer) — one server process. Several processes (or
machines) share one **PostgreSQL** database instead: ``nefertiti serve --database
postgresql://user:password@host/db`` or ``$NEFERTITI_STORE_URL`` (docs/deploy.md). Only these
two are accepted (:func:`database_url`); ``postgresql://`` means psycopg 3.

The schema is the project's own, versioned (``nefertiti_schema`` holds one row per version
applied): opening a store creates it, or migrates an older one in one transaction (each
version's steps in :data:`MIGRATIONS`, in order; then every table declared on :data:`metadata`
that is missing is created — other modules, e.g. the classroom's rooms, declare theirs there),
or refuses a newer one with a clear message, never changing it. Two processes opening the same
store at once take turns (a lock for the transaction). A module that changes one of its tables
adds a step to :data:`MIGRATIONS` under a new :data:`SCHEMA_VERSION`.

Between processes, :meth:`Store.compare_and_set` / :meth:`Store.append_step` write a row only if
its version is still the one the writer read (one ``UPDATE … WHERE version = :expected``): of two
processes writing the same room at once one wins and the other is told, nothing is lost or
doubled. widgets/classroom/feed.py tells the other processes that something changed. A saved
game is guarded the same way: a page takes its game up (:meth:`Store.take`) and each of its saves
expects the revision it last wrote, so a page left behind by a reload, or a tab of the same
browser in another process, cannot write an older game over a newer one (:class:`StaleGame`).

Bounded: a record larger than ``MAX_RECORD_CHARS`` is not stored (the caller is told), and games
untouched for ``EXPIRE_DAYS`` are deleted when the store is opened and then hourly.

The engine knows nothing of this module: it only writes and reads record text.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    case,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

log = logging.getLogger("widgets.server.store")

SCHEMA_VERSION = 8
MAX_RECORD_CHARS = 1_000_000  # a whole game of ~130 steps with a few branches is ~20-60 kB
EXPIRE_DAYS = 30
EXPIRE_EVERY_S = 3600
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
FILE_NAME = "games.sqlite3"
#: The databases a store may be in (SQLAlchemy backend names).
BACKENDS = ("sqlite", "postgresql")
#: PostgreSQL: how long to wait for the server when connecting (seconds).
CONNECT_TIMEOUT_S = 5
#: A statement the database has not finished in this long is cancelled by the database (a lock
#: held by a stuck process, a slow disk): the write fails and is tried again (room_store.py).
STATEMENT_TIMEOUT_MS = 15_000
#: Waiting for a free connection of the pool (every one busy with a slow database).
POOL_TIMEOUT_S = 10
#: libpq's timeouts on PostgreSQL (psycopg 3): connecting; a statement (server side); a
#: transaction left idle; a peer that vanished from the network (keepalives; data unacknowledged
#: for ``tcp_user_timeout`` ms). A database that is alive but does not answer (stopped, SIGSTOP)
#: is none of these: its waits are on the threads that write (widgets.classroom.room_work, the
#: autosave thread), never on the event loop.
POSTGRESQL_TIMEOUTS = {
    "connect_timeout": CONNECT_TIMEOUT_S,
    "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} "
    "-c idle_in_transaction_session_timeout=60000",
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 30_000,
}
#: PostgreSQL advisory lock taken by the transaction that opens (creates, migrates) the store.
_OPEN_LOCK = 0x4E_4546_4552  # "NEFER"

metadata = MetaData()
schema_table = Table(
    "nefertiti_schema",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
)
games_table = Table(
    "saved_games",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),  # sha256 of the browser's id
    Column("record", Text, nullable=False),  # the whole record, format 2 (YAML text)
    Column("lang", String(8), nullable=False, default="en"),
    Column("hints", Boolean, nullable=False, default=True),
    Column("branch", String(100), nullable=False, default="main"),  # for the resume offer
    Column("step", Integer, nullable=False, default=0),
    Column("revision", Integer, nullable=False, default=0, server_default="0"),  # schema 2
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
)


class StoreError(Exception):
    """The store cannot be used (a newer schema, an unreadable file) or refuses a game."""


class StaleGame(StoreError):
    """A save refused: the game was taken up (:meth:`Store.take`) or written by another page
    since this writer's last save, so writing would put an older game over a newer one."""


@dataclass(frozen=True)
class SavedGame:
    token: str
    record: str
    lang: str
    hints: bool
    branch: str
    step: int
    created: datetime
    updated: datetime
    revision: int = 0  # how many times it was saved (schema 2)


def nefertiti_home() -> Path:
    return Path(os.environ.get("NEFERTITI_HOME") or Path.home() / ".nefertiti")


def default_url() -> str:
    return f"sqlite:///{nefertiti_home() / FILE_NAME}"


def new_token() -> str:
    """A new game's or browser's id: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def valid_token(text) -> bool:
    return isinstance(text, str) and bool(TOKEN_RE.fullmatch(text))


def owner_of(browser: str) -> str:
    """What the store keeps of a browser's id: its hash (the id itself stays in the cookie)."""
    return hashlib.sha256(browser.encode()).hexdigest()


# ---------------------------------------------------------------------- schema versions
def _v2_revision(db: Connection) -> None:
    """Schema 2: saved games count their saves (``revision``), so a writer can tell that
    another process wrote the game since it read it."""
    db.execute(text("ALTER TABLE saved_games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"))


def _v3_room_polls(db: Connection) -> None:
    """Schema 3: a classroom room keeps its class questions, answers and class record
    (``classroom_rooms.polls``: JSON text, ``''`` for none; widgets/classroom/room_store.py).
    A store that never had a room gets the table as declared, with the column."""
    if inspect(db).has_table("classroom_rooms"):
        db.execute(text("ALTER TABLE classroom_rooms ADD COLUMN polls TEXT NOT NULL DEFAULT ''"))


def _v4_room_admission(db: Connection) -> None:
    """Schema 4: a classroom room keeps who may join it (``classroom_rooms.admission``: JSON
    text, locked or not and the removed learners' names and devices, ``''`` for an open room
    with none) and each participant their device's hash (``device_hash``, ``''`` for none)."""
    if inspect(db).has_table("classroom_rooms"):
        db.execute(
            text("ALTER TABLE classroom_rooms ADD COLUMN admission TEXT NOT NULL DEFAULT ''")
        )
    if inspect(db).has_table("classroom_participants"):
        db.execute(
            text(
                "ALTER TABLE classroom_participants "
                "ADD COLUMN device_hash VARCHAR(64) NOT NULL DEFAULT ''"
            )
        )


def _add_columns(db: Connection, table: str, columns: dict[str, str]) -> None:
    """Add each of ``columns`` (name: SQL type) the table lacks, ``NOT NULL DEFAULT ''``; a
    missing table gets none (it is created as declared)."""
    found = inspect(db)
    if not found.has_table(table):
        return
    have = {column["name"] for column in found.get_columns(table)}
    for name, kind in columns.items():
        if name not in have:
            db.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind} NOT NULL DEFAULT ''"))


def _v5_room_chapters(db: Connection) -> None:
    """Schema 5: a classroom room keeps its chapters (``classroom_rooms.chapters``: JSON text,
    the positions staged beside the class game with their games, ``''`` for the class game
    alone; widgets/classroom/chapters.py)."""
    _add_columns(db, "classroom_rooms", {"chapters": "TEXT"})


def _v6_room_marks(db: Connection) -> None:
    """Schema 6: a classroom room keeps the teacher's marks on its board
    (``classroom_rooms.marks``: JSON text, ``''`` for none; widgets/classroom/marks.py)."""
    _add_columns(db, "classroom_rooms", {"marks": "TEXT"})


def _v7_rejoin(db: Connection) -> None:
    """Schema 7: a classroom participant may come back on another device
    (widgets/classroom/rejoin.py): their PIN's hash (``pin_hash``, ``''`` for none: such a
    participant comes back by the teacher's leave) and their wrong PINs and waiting request to
    the teacher (``rejoin``: JSON text, ``''`` for none)."""
    _add_columns(db, "classroom_participants", {"pin_hash": "VARCHAR(64)", "rejoin": "TEXT"})


#: The tables schema 8 added: the classroom's classes, kept across lessons
#: (widgets/classroom/classes.py declares them on :data:`metadata`).
CLASS_TABLES = (
    "classroom_classes",
    "classroom_class_rooms",
    "classroom_roster",
    "classroom_record",
    "classroom_history",
)


def _v8_classes(db: Connection) -> None:
    """Schema 8: classes that outlive a room (a roster, a record per learner and rule, each
    learner's answers to the class questions; widgets/classroom/classes.py). New tables only,
    made in the migration's transaction when their module is loaded (else as soon as it is,
    :meth:`Store.create_tables`); the rooms' own class record (``classroom_rooms.polls``) stays
    as it was: a room opened before had no class."""
    declared = [metadata.tables[name] for name in CLASS_TABLES if name in metadata.tables]
    if declared:
        metadata.create_all(db, tables=declared)


#: Each schema version's steps from the version before it, in order. Version 1 is the first
#: (saved_games); tables new in a version need no step (they are created as declared).
MIGRATIONS: dict[int, list[Callable[[Connection], None]]] = {
    2: [_v2_revision],
    3: [_v3_room_polls],
    4: [_v4_room_admission],
    5: [_v5_room_chapters],
    6: [_v6_room_marks],
    7: [_v7_rejoin],
    8: [_v8_classes],
}


# ---------------------------------------------------------------------- database URLs
def database_url(value: str | URL) -> URL:
    """``value`` checked as a store's address: an SQLAlchemy URL of SQLite or PostgreSQL
    (``postgresql://`` and ``postgres://`` mean psycopg 3). A :class:`StoreError` with one line
    naming what is wrong otherwise."""
    try:
        url = make_url(value)
    except (ArgumentError, ValueError, TypeError):
        raise StoreError(
            f"{str(value)[:80]!r} is not a database URL (e.g. "
            "postgresql://user:password@host:5432/nefertiti or sqlite:////path/games.sqlite3)"
        ) from None
    backend = url.get_backend_name()
    if backend == "postgres":
        url, backend = url.set(drivername="postgresql"), "postgresql"
    where = url.render_as_string(hide_password=True)
    if backend not in BACKENDS:
        raise StoreError(
            f"{where[:80]!r}: a {backend!r} database is not supported; give a "
            "postgresql://… or sqlite:///… URL"
        )
    if backend == "postgresql":
        if url.get_driver_name() not in ("psycopg", "postgresql"):  # "postgresql": no +driver
            raise StoreError(
                f"{where[:80]!r}: the driver {url.get_driver_name()!r} is not the tutor's; "
                "write postgresql://… (psycopg 3)"
            )
        url = url.set(drivername="postgresql+psycopg")
        if not url.database:
            raise StoreError(
                f"{where[:80]!r} names no database: add it after the host, e.g. "
                "postgresql://user@host:5432/nefertiti"
            )
        if url.port is not None and not 1 <= url.port <= 65535:
            raise StoreError(f"{where[:80]!r}: the port is not from 1 to 65535")
    return url


def error_line(error: BaseException) -> str:
    """The driver's own words for a database error, on one line (no SQL, no traceback)."""
    original = getattr(error, "orig", None) or error
    lines = [line.strip() for line in str(original).splitlines() if line.strip()]
    words = " ".join(lines[:2]) or type(original).__name__
    return re.sub(r"\s*\(Background on this error at: [^)]*\)", "", words)[:300]


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)  # SQLite drops the zone


class Store:
    """Saved games in a database (an SQLite file by default); thread-safe."""

    def __init__(self, url: str | URL | None = None):
        if url is None:
            home = nefertiti_home()
            try:
                home.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"cannot create the folder for saved games {home}: {error}"
                ) from None
            url = default_url()
        self.url = database_url(url)
        if self.url.get_backend_name() == "sqlite":
            self.engine = create_engine(self.url)
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        else:
            self.engine = create_engine(
                self.url,
                pool_pre_ping=True,  # a connection cut by a database restart is replaced
                pool_timeout=POOL_TIMEOUT_S,
                connect_args=POSTGRESQL_TIMEOUTS,
            )
        self._last_expiry = 0.0
        self._lock = threading.Lock()
        self._tables: set[str] = set()
        try:
            self._open()
            self.expire()
        except SQLAlchemyError as error:
            self.engine.dispose()
            raise StoreError(f"cannot open the store {self.where()}: {error_line(error)}") from None
        except BaseException:  # refused (a newer schema) or a migration step failed
            self.engine.dispose()
            raise

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def where(self) -> str:
        """The store's URL without its password (for messages)."""
        return self.engine.url.render_as_string(hide_password=True)

    _where = where

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction, committed at the end (rolled back on an exception). On SQLite
        it takes the write lock at its start (BEGIN IMMEDIATE), so it never fails half-way on
        another process's lock; it waits for it (busy_timeout)."""
        with self.engine.connect() as db:
            db.execution_options(nefertiti_write=True)
            with db.begin():
                yield db

    def _open(self) -> None:
        """Create, migrate (one transaction) or refuse the store; see the module's docstring."""
        with self._lock, self.transaction() as db:
            if self.dialect == "postgresql":  # two processes opening at once take turns
                db.execute(select(text(f"pg_advisory_xact_lock({_OPEN_LOCK})")))
            schema_table.create(db, checkfirst=True)
            versions = list(db.scalars(select(schema_table.c.version)))
            current = max(versions, default=0)
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"the store {self.where()} was written by a newer version of the "
                    f"tutor (schema {current}; this one reads {SCHEMA_VERSION}): update the "
                    "tutor, or give it another store (NEFERTITI_HOME, NEFERTITI_STORE_URL or "
                    "--database)"
                )
            if current:  # an older store: each later version's steps, in order
                for version in range(current + 1, SCHEMA_VERSION + 1):
                    for step in MIGRATIONS.get(version, ()):
                        step(db)
                    db.execute(insert(schema_table).values(version=version))
                    log.info("store %s migrated to schema %d", self.where(), version)
            metadata.create_all(db)  # a new store, or tables declared since
            if not current:
                db.execute(insert(schema_table).values(version=SCHEMA_VERSION))
            self._tables = set(metadata.tables)

    def create_tables(self) -> None:
        """Create the tables declared on :data:`metadata` since the store was opened (a module
        imported later, e.g. the rooms'); :func:`get_store` calls it when there are new ones."""
        if set(metadata.tables) <= self._tables:
            return
        with self._lock, self.transaction() as db:
            if self.dialect == "postgresql":
                db.execute(select(text(f"pg_advisory_xact_lock({_OPEN_LOCK})")))
            metadata.create_all(db)
            self._tables = set(metadata.tables)

    # ------------------------------------------------------------------ between processes
    def compare_and_set(
        self,
        table: Table,
        key: dict,
        expected: int,
        *,
        version: str = "version",
        then: Callable[[Connection], None] | None = None,
        **values,
    ) -> bool:
        """Write ``values`` to the row ``key`` (column: value) of ``table`` only if its
        ``version`` column still holds ``expected``, and make it ``expected + 1``: one
        ``UPDATE … WHERE key AND version = :expected``, in one transaction. True if this call
        won; False if the row is at another version (another writer got there first: nothing
        was written; re-read, decide again, and tell the player as for a stale move) or does
        not exist. ``then(db)`` runs in the same transaction when it won (e.g. the feed's
        publish: the news leaves with the commit, or not at all)."""
        where = [table.c[name] == value for name, value in key.items()]
        statement = (
            update(table)
            .where(and_(*where), table.c[version] == expected)
            .values({version: expected + 1, **values})
        )
        with self._lock, self.transaction() as db:
            won = db.execute(statement).rowcount == 1
            if won and then is not None:
                then(db)
        return won

    def append_step(
        self,
        table: Table,
        key: dict,
        expected: int,
        step: str,
        *,
        column: str = "steps",
        version: str = "version",
        then: Callable[[Connection], None] | None = None,
    ) -> bool:
        """Append ``step`` (one line of text) to the text column ``column`` (lines) of the row
        ``key`` if its version is still ``expected`` (see :meth:`compare_and_set`)."""
        if not isinstance(step, str) or "\n" in step or "\r" in step:
            raise StoreError(f"a step is one line of text, not {str(step)[:60]!r}")
        lines = table.c[column]
        joined = case((lines == "", literal(step)), else_=lines + literal("\n" + step))
        return self.compare_and_set(
            table, key, expected, version=version, then=then, **{column: joined}
        )

    # ------------------------------------------------------------------ writing
    def save(
        self,
        token: str,
        owner: str,
        record: str,
        *,
        lang: str = "en",
        hints: bool = True,
        branch: str = "main",
        step: int = 0,
        expected: int | None = None,
    ) -> int:
        """Keep (or replace) the game ``token`` of ``owner`` (see :func:`owner_of`); returns
        its revision now.

        ``expected``: the revision this writer last saw (0: it never saved this token). If the
        stored game is at another one, another page took it up or wrote it since (a reload's
        new page, a tab in another process): nothing is written and :class:`StaleGame` is
        raised. ``None`` writes whatever is there."""
        if not valid_token(token):
            raise StoreError(f"not a game token: {str(token)[:70]!r}")
        if len(record) > MAX_RECORD_CHARS:
            raise StoreError(
                f"game {token[:6]}…: its record has {len(record):,} characters, more than the "
                f"{MAX_RECORD_CHARS:,} a saved game may have"
            )
        now = datetime.now(UTC)
        values = dict(
            owner=owner, record=record, lang=lang, hints=bool(hints), branch=branch[:100],
            step=int(step), updated=now,
        )  # fmt: skip
        mine = (games_table.c.token == token, games_table.c.owner == owner)
        with self._lock, self.transaction() as db:
            statement = update(games_table).where(*mine)
            if expected is not None:
                statement = statement.where(games_table.c.revision == expected)
            done = db.execute(
                statement.values(revision=games_table.c.revision + 1, **values)
            ).rowcount
            if done:
                revision = db.execute(select(games_table.c.revision).where(*mine)).scalar_one()
            else:
                now_at = db.execute(select(games_table.c.revision).where(*mine)).scalar()
                if now_at is not None:  # only a writer that expected another revision gets here
                    raise StaleGame(
                        f"game {token[:6]}… was taken up or written by another page since this "
                        f"one saved it (revision {now_at}, not {expected}): not overwritten"
                    )
                try:  # a new game (or one expired since): written anew
                    with db.begin_nested():
                        db.execute(
                            insert(games_table).values(
                                token=token, created=now, revision=1, **values
                            )
                        )
                except IntegrityError:  # the token is someone else's: never overwritten
                    raise StoreError(f"game {token[:6]}… belongs to another browser") from None
                revision = 1
        if time.monotonic() - self._last_expiry > EXPIRE_EVERY_S:
            self.expire()
        return revision

    def take(self, token: str, owner: str) -> SavedGame | None:
        """The game ``token`` if ``owner`` owns it, taken up by the caller: its revision is
        counted up in the same transaction, so a page that read it before (the page a reload
        left behind, whose last save would come when its session is dropped) is refused
        (:class:`StaleGame`) instead of writing its older game over this one's moves."""
        if not valid_token(token):
            return None
        mine = (games_table.c.token == token, games_table.c.owner == owner)
        with self._lock, self.transaction() as db:
            bumped = db.execute(
                update(games_table).where(*mine).values(revision=games_table.c.revision + 1)
            ).rowcount
            row = db.execute(select(games_table).where(*mine)).first() if bumped else None
        return _saved(row) if row is not None else None

    def delete(self, token: str) -> None:
        with self._lock, self.transaction() as db:
            db.execute(delete(games_table).where(games_table.c.token == token))

    def expire(self, days: float = EXPIRE_DAYS) -> int:
        """Delete the games untouched for ``days``; returns how many."""
        self._last_expiry = time.monotonic()
        cutoff = datetime.now(UTC) - timedelta(days=days)
        with self._lock, self.transaction() as db:
            gone = db.execute(delete(games_table).where(games_table.c.updated < cutoff)).rowcount
        if gone:
            log.info("expired %d saved games untouched for %s days", gone, days)
        return gone

    # ------------------------------------------------------------------ reading
    def load(self, token: str, owner: str) -> SavedGame | None:
        """The game ``token`` if ``owner`` owns it, else None."""
        if not valid_token(token):
            return None
        with self.engine.connect() as db:
            row = db.execute(
                select(games_table).where(
                    games_table.c.token == token, games_table.c.owner == owner
                )
            ).first()
        return _saved(row) if row is not None else None

    def latest(self, owner: str, exclude=()) -> SavedGame | None:
        """The game ``owner`` saved last (leaving out the tokens in ``exclude``)."""
        query = (
            select(games_table)
            .where(games_table.c.owner == owner)
            .order_by(games_table.c.updated.desc())
            .limit(len(exclude) + 1)
        )
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return next((_saved(row) for row in rows if row.token not in exclude), None)

    def count(self) -> int:
        with self.engine.connect() as db:
            return len(db.execute(select(games_table.c.token)).all())

    def close(self) -> None:
        self.engine.dispose()


def _saved(row) -> SavedGame:
    return SavedGame(
        row.token, row.record, row.lang, bool(row.hints), row.branch, row.step,
        _utc(row.created), _utc(row.updated), row.revision,
    )  # fmt: skip


def _sqlite_connect(connection, _record) -> None:
    # pysqlite's own transaction handling would commit before DDL (a migration half done);
    # the store begins its transactions itself (_sqlite_begin)
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL: safe against a crash of the process
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _sqlite_begin(db: Connection) -> None:
    write = db.get_execution_options().get("nefertiti_write")
    db.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# ---------------------------------------------------------------------- one store per process
_store: Store | None = None
_store_error: str | None = None
_store_lock = threading.Lock()


def configure(url: str | URL | None) -> Store:
    """Open the process's store at ``url`` now (``nefertiti serve --database``; None: the
    default or ``$NEFERTITI_STORE_URL``); :class:`StoreError` (one line) if it cannot be."""
    global _store, _store_error
    with _store_lock:
        if _store is not None:
            _store.close()
        _store, _store_error = None, None
        _store = Store(url or os.environ.get("NEFERTITI_STORE_URL") or None)
        return _store


def store_error() -> str | None:
    """Why the process's store could not be opened (one line), or None."""
    return _store_error


def get_store() -> Store | None:
    """The process's store, opened on first use; None (and the reason logged once) if it cannot
    be opened: the tutor then works without autosave. Tables declared on :data:`metadata` since
    it was opened are created first."""
    global _store, _store_error
    with _store_lock:
        if _store is None and _store_error is None:
            try:
                _store = Store(os.environ.get("NEFERTITI_STORE_URL") or None)
            except StoreError as error:
                _store_error = str(error)
                log.error("saved games are off: %s", error)
        store = _store
    if store is not None:
        store.create_tables()  # only if tables were declared since (it checks)
    return store
