"""The store of saved games: every Sandbox game, autosaved, so a reload or a restart loses nothing.

One table, ``saved_games``, keyed by a random, unguessable token (``secrets.token_urlsafe``):
the whole game record (format 2: every branch, the current branch and step, the seats and the
bots' seed; see ``docs/scenario-format.md``) as text, the session's language and hints, who owns
it (a hash of the browser's own random id, so a shared link does not hand the game to another
browser), and when it was created and last saved. A second table, ``nefertiti_schema``, holds
the schema's version: a store written by a newer version of the tutor is refused with a clear
message, never changed.

By default the store is an SQLite file, ``games.sqlite3`` under ``$NEFERTITI_HOME`` (default
``~/.nefertiti``), in WAL mode (a reader never waits for the writer). Any SQLAlchemy URL works
instead (``Store("postgresql+psycopg://...")``; the served app reads ``$NEFERTITI_STORE_URL``):
nothing here is specific to SQLite but the pragmas (checked with PostgreSQL 15 and psycopg 3). Bounded: a record larger than ``MAX_RECORD_CHARS`` is not stored (the caller is told),
and games untouched for ``EXPIRE_DAYS`` are deleted when the store is opened and then hourly.

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
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

log = logging.getLogger("widgets.store")

SCHEMA_VERSION = 1
MAX_RECORD_CHARS = 1_000_000  # a whole game of ~130 steps with a few branches is ~20-60 kB
EXPIRE_DAYS = 30
EXPIRE_EVERY_S = 3600
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
FILE_NAME = "games.sqlite3"

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
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
)


class StoreError(Exception):
    """The store cannot be used (a newer schema, an unreadable file) or refuses a game."""


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


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)  # SQLite drops the zone


class Store:
    """Saved games in a database (an SQLite file by default); thread-safe."""

    def __init__(self, url: str | None = None):
        if url is None:
            home = nefertiti_home()
            try:
                home.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"cannot create the folder for saved games {home}: {error}"
                ) from None
            url = default_url()
        self.url = url
        self.engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._last_expiry = 0.0
        self._lock = threading.Lock()
        try:
            self._open()
            self.expire()
        except SQLAlchemyError as error:
            raise StoreError(
                f"cannot open the store of saved games {self._where()}: {error}"
            ) from None

    def _where(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def _open(self) -> None:
        metadata.create_all(self.engine)
        with self.engine.begin() as db:
            versions = list(db.scalars(select(schema_table.c.version)))
            if not versions:
                db.execute(insert(schema_table).values(version=SCHEMA_VERSION))
                return
        newest = max(versions)
        if newest > SCHEMA_VERSION:
            raise StoreError(
                f"the store of saved games {self._where()} was written by a newer version of the "
                f"tutor (schema {newest}; this one reads {SCHEMA_VERSION}): update the tutor, or "
                "give it another store (NEFERTITI_HOME or NEFERTITI_STORE_URL)"
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
    ) -> None:
        """Keep (or replace) the game ``token`` of ``owner`` (see :func:`owner_of`)."""
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
        with self._lock, self.engine.begin() as db:
            done = db.execute(
                update(games_table)
                .where(games_table.c.token == token, games_table.c.owner == owner)
                .values(**values)
            ).rowcount
            if not done:
                try:
                    with db.begin_nested():
                        db.execute(insert(games_table).values(token=token, created=now, **values))
                except IntegrityError:  # the token is someone else's: never overwritten
                    raise StoreError(f"game {token[:6]}… belongs to another browser") from None
        if time.monotonic() - self._last_expiry > EXPIRE_EVERY_S:
            self.expire()

    def delete(self, token: str) -> None:
        with self._lock, self.engine.begin() as db:
            db.execute(delete(games_table).where(games_table.c.token == token))

    def expire(self, days: float = EXPIRE_DAYS) -> int:
        """Delete the games untouched for ``days``; returns how many."""
        self._last_expiry = time.monotonic()
        cutoff = datetime.now(UTC) - timedelta(days=days)
        with self._lock, self.engine.begin() as db:
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
        _utc(row.created), _utc(row.updated),
    )  # fmt: skip


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL: safe against a crash of the process
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


# ---------------------------------------------------------------------- one store per process
_store: Store | None = None
_store_error: str | None = None
_store_lock = threading.Lock()


def get_store() -> Store | None:
    """The process's store, opened on first use; None (and the reason logged once, and kept in
    :func:`store_problem`) if it cannot be opened: the tutor then works without autosave."""
    global _store, _store_error
    with _store_lock:
        if _store is None and _store_error is None:
            try:
                _store = Store(os.environ.get("NEFERTITI_STORE_URL") or None)
            except StoreError as error:
                _store_error = str(error)
                log.error("saved games are off: %s", error)
        return _store


def store_problem() -> str | None:
    return _store_error
