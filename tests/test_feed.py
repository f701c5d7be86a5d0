"""The classroom's change feed between server processes (widgets/classroom/feed.py, #17):
in one process (SQLite) and through a real PostgreSQL server (tests/pg.py) — between two
processes, with the news sent at a transaction's commit, and across a database restart.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pg
import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, Text, create_engine, insert, text

from widgets.classroom.feed import FeedError, LocalFeed, PgFeed, feed_for, wait_for
from widgets.server.store import Store

ROOT = Path(__file__).resolve().parent.parent


class Heard:
    """A subscriber that writes down what it hears."""

    def __init__(self):
        self.changes: list[tuple[str, int]] = []
        self.resyncs: list[float] = []
        self.lock = threading.Lock()

    def change(self, room, version):
        with self.lock:
            self.changes.append((room, version))

    def resync(self):
        self.resyncs.append(time.monotonic())


@pytest.fixture
def pg_feeds(postgres_url):
    """Two feeds on one PostgreSQL database (as two server processes have)."""
    url = pg.fresh_database(postgres_url)
    feeds = [PgFeed(url), PgFeed(url)]
    assert all(feed.connected.is_set() for feed in feeds)
    yield url, feeds
    for feed in feeds:
        feed.close()


def test_in_one_process_the_news_arrives_in_order_and_a_failing_subscriber_stops_nothing():
    feed = LocalFeed()
    heard = Heard()
    feed.subscribe(lambda room, version: 1 / 0)  # logged, and the others still hear
    key = feed.subscribe(heard.change, heard.resync)
    for version in range(1, 101):
        feed.publish("ABCD", version)
    assert wait_for(lambda: len(heard.changes) == 100, 5)
    assert heard.changes == [("ABCD", v) for v in range(1, 101)]
    feed.unsubscribe(key)
    feed.publish("ABCD", 101)
    time.sleep(0.1)
    assert len(heard.changes) == 100
    feed.close()


@pytest.mark.parametrize(
    ("room", "version", "needle"),
    [("AB CD", 1, "not a room code"), ("x" * 65, 1, "not a room code"), ("ABCD", -1, "version"),
     ("ABCD", "7", "version"), ("AB:1", 2, "not a room code")],
)  # fmt: skip
def test_a_bad_publish_is_refused_with_one_line(room, version, needle):
    feed = LocalFeed()
    with pytest.raises(FeedError, match=needle):
        feed.publish(room, version)
    feed.close()


def test_the_feed_for_a_store_follows_its_database(tmp_path, postgres_url):
    local = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    feed = feed_for(local)
    assert isinstance(feed, LocalFeed)
    feed.close()
    shared = Store(pg.fresh_database(postgres_url))
    feed = feed_for(shared)
    assert isinstance(feed, PgFeed) and feed.connected.is_set()
    feed.close()
    local.close()
    shared.close()


def test_postgresql_carries_the_news_from_one_feed_to_the_other(pg_feeds):
    _, (one, other) = pg_feeds
    heard = Heard()
    other.subscribe(heard.change, heard.resync)
    for version in range(1, 51):
        one.publish("ROOM7", version)
    assert wait_for(lambda: len(heard.changes) == 50, 10)
    assert heard.changes == [("ROOM7", v) for v in range(1, 51)]
    assert heard.resyncs == []


def test_news_sent_in_a_transaction_leaves_at_its_commit_and_never_after_a_rollback(pg_feeds):
    url, (one, other) = pg_feeds
    heard = Heard()
    other.subscribe(heard.change)
    engine = create_engine(url)
    with engine.connect() as db:
        db.begin()
        one.publish("TX", 1, db=db)
        time.sleep(0.3)
        assert heard.changes == []  # not yet: the change is not committed
        db.commit()
        assert wait_for(lambda: heard.changes == [("TX", 1)], 5)
        db.begin()
        one.publish("TX", 2, db=db)
        db.rollback()
    one.publish("TX", 3)
    assert wait_for(lambda: len(heard.changes) == 2, 5)
    assert heard.changes == [("TX", 1), ("TX", 3)]
    engine.dispose()


PUBLISHER = """
import sys
from widgets.classroom.feed import PgFeed
feed = PgFeed(sys.argv[1])
for version in range(1, 21):
    feed.publish("OTHER", version)
feed.close()
"""


def test_a_change_published_by_another_process_arrives(pg_feeds):
    url, (_, feed) = pg_feeds
    heard = Heard()
    feed.subscribe(heard.change)
    done = subprocess.run(
        [sys.executable, "-c", PUBLISHER, url], cwd=ROOT, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert wait_for(lambda: len(heard.changes) == 20, 10)
    assert heard.changes == [("OTHER", v) for v in range(1, 21)]


def test_after_a_database_restart_the_listener_reconnects_resyncs_and_hears_again(pg_feeds):
    _, (one, other) = pg_feeds
    heard = Heard()
    other.subscribe(heard.change, heard.resync)
    one.publish("R", 1)
    assert wait_for(lambda: heard.changes == [("R", 1)], 5)
    before = other.listener_pid()
    pg.server().restart()  # every connection is cut
    assert wait_for(lambda: other.reconnects == 1 and other.connected.is_set(), 30)
    assert other.listener_pid() != before
    assert len(heard.resyncs) == 1  # told to re-read what it may have missed
    one.publish("R", 2)  # the publisher's pooled connection was cut too: replaced
    assert wait_for(lambda: heard.changes == [("R", 1), ("R", 2)], 10)


def test_news_sent_while_the_listener_was_away_is_covered_by_the_resync(pg_feeds, monkeypatch):
    """The listener's connection is killed while the database stays up, and its reconnection
    takes 0.3 s; what is published before it listens again is lost by NOTIFY, so the resync
    must come after it."""
    url, (one, other) = pg_feeds
    heard = Heard()
    other.subscribe(heard.change, heard.resync)
    # private: the feed's reconnection, slowed (no public switch for a slow network)
    connect = other._connect

    def slow_connect():
        time.sleep(0.3)
        return connect()

    monkeypatch.setattr(other, "_connect", slow_connect)
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as db:
        db.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": other.listener_pid()})
    sent = {}
    for version in range(1, 201):  # published across the reconnection
        sent[version] = time.monotonic()  # before it is sent: before its commit
        one.publish("GAP", version)
        time.sleep(0.002)
    assert wait_for(lambda: len(heard.resyncs) == 1, 30)
    assert wait_for(lambda: other.reconnects == 1, 30)

    def got_now() -> set[int]:
        return {version for room, version in list(heard.changes) if room == "GAP"}

    # what was sent after the resync arrives, on a busy machine a moment later (the resync can
    # come before the listener's thread has delivered the news that followed it)
    after = [v for v in sent if sent[v] > heard.resyncs[0]]
    wait_for(lambda: all(v in got_now() for v in after), 30)
    got = got_now()
    missed = [v for v in sent if v not in got]
    assert heard.resyncs, "the listener came back without telling its subscribers to resync"
    assert missed  # the gap was real (else this test proves nothing)
    # every notification missed was sent before the resync: the re-read covers it; and
    # everything sent after it arrived
    assert all(sent[v] < heard.resyncs[0] for v in missed), (missed, heard.resyncs)
    assert all(v in got for v in sent if sent[v] > heard.resyncs[0])
    print(f"{len(missed)} of 200 sent during the reconnection missed, covered by the resync")
    engine.dispose()


#: A room's row, as the rooms will have one (tests/test_store_db.py has its own).
ROOMS = Table(
    "feed_rooms",
    MetaData(),
    Column("code", String(16), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("steps", Text, nullable=False),
)

APPENDER = """
import sys
from sqlalchemy import select
sys.path.insert(0, "tests")
from test_feed import ROOMS
from widgets.classroom.feed import PgFeed
from widgets.server.store import Store

store = Store(sys.argv[1])
feed = PgFeed(store.url, engine=store.engine)
won = lost = 0
while won < 100:
    with store.engine.connect() as db:
        version = db.scalar(select(ROOMS.c.version).where(ROOMS.c.code == "SHARED"))
    if store.append_step(ROOMS, {"code": "SHARED"}, version, f"{sys.argv[2]}{won}",
                         then=lambda db: feed.publish("SHARED", version + 1, db=db)):
        won += 1
    else:
        lost += 1
feed.close()
print(lost)
"""


def test_two_processes_writing_one_room_publish_each_version_once_with_its_commit(pg_feeds):
    """Compare-and-set with the news sent in the same transaction (what the rooms will do): a
    third process hears every version once, in order, and nothing of the lost races."""
    url, (_, feed) = pg_feeds
    store = Store(url)
    ROOMS.metadata.create_all(store.engine)
    with store.transaction() as db:
        db.execute(insert(ROOMS).values(code="SHARED", version=0, steps=""))
    heard = Heard()
    feed.subscribe(heard.change, heard.resync)
    writers = [
        subprocess.Popen([sys.executable, "-c", APPENDER, url, name], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name in "ab"
    ]  # fmt: skip
    outputs = [writer.communicate(timeout=120) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), outputs
    assert wait_for(lambda: len(heard.changes) >= 200, 10)
    time.sleep(0.2)
    assert heard.changes == [("SHARED", version) for version in range(1, 201)]
    with store.engine.connect() as db:
        assert db.scalar(text("SELECT version FROM feed_rooms")) == 200
    print(f"lost races (told, not published): {[int(out) for out, _ in outputs]}")
    store.close()
