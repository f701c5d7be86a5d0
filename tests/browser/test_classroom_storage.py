"""The classroom when its store fails (#29 items 3 and 6), in Chromium against ``nefertiti
serve``.

1. **A hung database** (PostgreSQL stopped with SIGSTOP, as a frozen database host is): the
   teacher (a German browser, the projector's 1024x768) presses Pause while it hangs. Every
   other page keeps answering meanwhile: the front page and a Sandbox page load over HTTP, a
   Sandbox already open takes a move, a new browser's Sandbox opens; the teacher's page says, in
   German, that the change is not saved yet and for how long; the learner's phone (an emulated
   Pixel 5 in Chinese) says "saving…". The database is let go (SIGCONT): the pause reaches every
   page, the warnings go, and the database holds it (nothing lost). The times the other pages
   took while the database hung are written to ``artifacts/classroom-storage/hung.json``
   (``benchmarks/hung_database.py`` measures them on their own; this test asserts none).
2. **A SIGKILL just after a move is shown**: a learner's move appears on the teacher's page and
   the server is killed at once; started again, the move is there (a room's change is written
   before any page hears of it).
3. **A store that refuses writes** (the PostgreSQL database made read-only, as a full disk is):
   the teacher's page (Chinese) says "not saved" with the database's reason; the class goes on;
   when the store takes writes again, the change is written by itself and the warning goes.
4. **A store that cannot be opened** (its SQLite file is garbage): the server runs without it
   and the teacher's page says so in their language (a restart would end the class); the class
   itself works.

Chromium or PostgreSQL missing is a failure.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.request
from pathlib import Path

import pg
import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, text
from support import (
    ARTIFACTS,
    PIXEL_5,
    PIXEL_5_VIEWPORT,
    join_room,
    wait_back,
    wait_covered,
    wait_rows,
)
from test_classroom import LOAD_MS, STEP_MS, Server, expect_step, press_place
from test_restart import play_square, wait_loaded

from nefertiti_core.engine.i18n import tr

SHOTS = ARTIFACTS / "classroom-storage"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def postgres_processes(server: pg.PgServer) -> list[int]:
    """The cluster's postmaster and every process it started."""
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    found = [postmaster]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == postmaster:
                found.append(int(entry.name))
    return found


class Frozen:
    """The database stopped (SIGSTOP) for the ``with`` block, let go (SIGCONT) after it."""

    def __init__(self, server: pg.PgServer):
        self.server = server
        self.pids: list[int] = []

    def __enter__(self):
        self.pids = postgres_processes(self.server)
        for pid in self.pids:
            os.kill(pid, signal.SIGSTOP)
        return self

    def __exit__(self, *_):
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="module")
def database():
    server = pg.PgServer().start()  # its own: frozen here, no other test's database is
    yield server
    server.stop()
    server.cleanup()


@pytest.fixture(scope="module")
def on_postgresql(database, tmp_path_factory):
    url = pg.fresh_database(database.url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NEFERTITI_STORE_URL", url)
        server = Server(tmp_path_factory.mktemp("storage-pg-home"))
        server.start()
        yield server, url
        server.stop()


def fetch_ms(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
    return (time.perf_counter() - start) * 1000


def open_room(page, base: str) -> str:
    page.goto(f"{base}/classroom", timeout=LOAD_MS)
    page.locator(".room-open button").click(timeout=LOAD_MS)
    expect(page.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    return page.locator(".room-code").inner_text().strip()


def paused_in_store(url: str, code: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            return bool(
                db.execute(
                    text("select paused from classroom_rooms where code = :c"), {"c": code}
                ).scalar()
            )
    finally:
        engine.dispose()


def test_a_hung_database_leaves_every_other_page_answering_and_loses_nothing(
    chromium, database, on_postgresql
):
    server, url = on_postgresql
    errors: list[str] = []

    def context(viewport, **device):
        made = chromium.new_context(viewport=viewport, **device)
        made.set_default_timeout(STEP_MS)
        page = made.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return made, page

    contexts = []
    made, teacher = context({"width": 1024, "height": 768}, locale="de-DE")
    contexts.append(made)
    code = open_room(teacher, server.base)
    made, learner = context(PIXEL_5_VIEWPORT, locale="zh-CN", **PIXEL_5)
    contexts.append(made)
    join_room(learner, server.base, code, "李明")
    made, sandbox = context({"width": 1280, "height": 900})
    contexts.append(made)
    sandbox.goto(f"{server.base}/tutor", timeout=LOAD_MS)
    wait_loaded(sandbox)
    paused_zh = tr("zh", "room.paused")
    times: dict[str, list[float]] = {"front page": [], "Sandbox page": []}
    with Frozen(database):
        teacher.locator(".room-pause button").click()
        # the teacher is told, in German, that the pause is not saved yet
        warning = teacher.locator(".room-storage")
        expect(warning).to_contain_text("Noch nicht gespeichert", timeout=STEP_MS)
        expect(learner.locator(".room-storage")).to_contain_text(
            tr("zh", "room.storage.saving"), timeout=STEP_MS
        )
        # every other page answers while the database does not
        for _ in range(5):  # each /tutor is a session: 20 a minute per client at most
            times["front page"].append(fetch_ms(f"{server.base}/"))
            times["Sandbox page"].append(fetch_ms(f"{server.base}/tutor"))
        play_square(sandbox)  # a Sandbox open before: its move is made at once
        made, fresh = context({"width": 1280, "height": 900})
        contexts.append(made)
        fresh.goto(f"{server.base}/tutor", timeout=LOAD_MS)
        wait_loaded(fresh)  # a new browser's Sandbox opens (its autosave waits off the loop)
        # the pause is not made until it is written: no page shows it yet
        expect(learner.locator(".room-status")).not_to_contain_text(paused_zh)
        shot(teacher, "hung-teacher-de-1024")
        shot(learner, "hung-learner-zh-pixel5")
        expect(warning).to_contain_text(re.compile(r"seit \d+ s"))  # and for how long
    # the database is back: the pause is written, then every page shows it
    expect(learner.locator(".room-status")).to_contain_text(paused_zh, timeout=STEP_MS)
    expect(teacher.locator(".room-storage")).to_be_hidden(timeout=STEP_MS)
    expect(learner.locator(".room-storage")).to_be_hidden(timeout=STEP_MS)
    assert paused_in_store(url, code)
    # the teacher's own page: the button now offers to go on
    expect(teacher.locator(".room-pause button")).to_have_text(tr("de", "room.resume"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "hung.json").write_text(json.dumps(times, indent=1))
    for made in contexts:
        made.close()
    assert not errors, errors


def read_only(database: pg.PgServer, url: str, on: bool) -> None:
    """The classroom's database made read-only (or writable again), as a database whose disk
    filled up or a replica taken for the primary is: every connection the server has is cut,
    and the new ones it makes get read-only transactions."""
    name = url.rsplit("/", 1)[1]
    engine = create_engine(database.url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as db:
            db.execute(
                text(
                    f'alter database "{name}" set default_transaction_read_only = {"on" if on else "off"}'
                )
            )
            db.execute(
                text(
                    "select pg_terminate_backend(pid) from pg_stat_activity "
                    "where datname = :name and pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
    finally:
        engine.dispose()


def test_a_store_that_refuses_writes_warns_the_teacher_and_catches_up_when_it_takes_them(
    chromium, database, on_postgresql
):
    """#29 item 8 in the served app: a store that takes no more writes (read-only, as a full
    disk or a replica taken for the primary) is said on the teacher's page (a Chinese browser),
    with the database's own reason; the class goes on; once the store takes writes again the
    change is written by itself and the warning goes."""
    server, url = on_postgresql
    context = chromium.new_context(viewport={"width": 1024, "height": 768}, locale="zh-CN")
    context.set_default_timeout(STEP_MS)
    teacher = context.new_page()
    code = open_room(teacher, server.base)
    read_only(database, url, True)
    try:
        teacher.locator(".room-pause button").click()
        warning = teacher.locator(".room-storage")
        expect(warning).to_contain_text("未能保存", timeout=STEP_MS)
        expect(warning).to_contain_text("read-only transaction")
        # the class goes on: the pause shows at once (kept here, not yet in the store)
        expect(teacher.locator(".room-pause button")).to_have_text(tr("zh", "room.resume"))
        shot(teacher, "read-only-teacher-zh-1024")
        assert not paused_in_store(url, code)
    finally:
        read_only(database, url, False)
    expect(warning).to_be_hidden(timeout=STEP_MS)  # tried again every RETRY_S: written now
    assert paused_in_store(url, code)
    context.close()


@pytest.fixture()
def sqlite_server(tmp_path, monkeypatch):
    monkeypatch.delenv("NEFERTITI_STORE_URL", raising=False)  # the module's PostgreSQL: not here
    server = Server(tmp_path / "home")
    server.start()
    yield server
    server.stop()


def test_a_move_shown_just_before_a_sigkill_is_there_after_the_restart(chromium, sqlite_server):
    server = sqlite_server
    teacher_context = chromium.new_context(viewport={"width": 1024, "height": 768})
    teacher_context.set_default_timeout(STEP_MS)
    teacher = teacher_context.new_page()
    open_room(teacher, server.base)
    press_place(teacher)  # the teacher plays the first seat's placement
    expect_step(teacher, 1)
    server.kill()  # SIGKILL the moment the page shows it: no exit flush
    wait_covered(teacher)
    server.start()
    wait_back(teacher, timeout=LOAD_MS)  # the page reloads itself (widgets.game.reconnect)
    expect_step(teacher, 1)
    wait_rows(teacher, "board-servants", "n == 1")
    teacher_context.close()


def test_a_store_that_cannot_be_opened_is_said_on_the_teachers_page(
    chromium, tmp_path, monkeypatch
):
    monkeypatch.delenv("NEFERTITI_STORE_URL", raising=False)  # the default SQLite file, broken
    home = tmp_path / "home"
    home.mkdir()
    (home / "games.sqlite3").write_bytes(b"this is not a database" * 100)
    server = Server(home)
    server.start()
    try:
        context = chromium.new_context(viewport={"width": 1024, "height": 768}, locale="zh-CN")
        context.set_default_timeout(STEP_MS)
        teacher = context.new_page()
        open_room(teacher, server.base)
        warning = teacher.locator(".room-storage")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text("此服务器不保存教室记录")
        # the class itself works
        teacher.get_by_role("button", name=tr("zh", "panel.decision.place"), exact=True).click()
        expect_step(teacher, 1)
        shot(teacher, "no-store-teacher-zh-1024")
        context.close()
    finally:
        server.stop()
