"""Two ``nefertiti serve --database postgresql://…`` processes on one real PostgreSQL server
(issue #17; tests/pg.py), in Chromium: a learner's game is saved in the database; the database
restarts mid-game and the next move is saved all the same; the learner's process is killed and
the same page address on the other process brings the game back, where play goes on.

(This is the Sandbox's saved games; the classroom's rooms across processes are in
test_classroom_postgresql.py.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pg
import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, text
from support import LOAD_MS, ROOT, canvas_point, free_port, rows, source, wait_for_http, wait_rows

from widgets.game import geometry as G

SHOTS = Path(os.environ.get("NEFERTITI_SHOTS", "/tmp/shots/database"))


class Process:
    """One ``nefertiti serve`` on the test's database."""

    def __init__(self, url: str, home: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/tutor"
        self.log = home.parent / f"serve-{self.port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nefertiti_core", "serve", "--port", str(self.port),
             "--database", url],
            cwd=ROOT, env={**os.environ, "NEFERTITI_HOME": str(home)},
            stdout=self.log.open("a"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_for_http(self.url, timeout=90)
        except RuntimeError:
            self.stop()
            raise RuntimeError("the app did not start:\n" + self.log.read_text()[-3000:]) from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture(scope="module")
def database(postgres_url):
    return pg.fresh_database(postgres_url).replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture(scope="module")
def processes(database, tmp_path_factory):
    both = [Process(database, tmp_path_factory.mktemp("a") / "home"),
            Process(database, tmp_path_factory.mktemp("b") / "home")]  # fmt: skip
    yield both
    for process in both:
        process.stop()


@pytest.fixture(scope="module")
def sandbox_url(processes):
    """conftest.page opens the first process's Sandbox."""
    return processes[0].url


def saved(database: str, token: str) -> tuple[int, int] | None:
    engine = create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as db:
            row = db.execute(
                text("SELECT step, revision FROM saved_games WHERE token = :t"), {"t": token}
            ).first()
        return tuple(row) if row else None
    finally:
        engine.dispose()


def wait_saved(database: str, token: str, step: int) -> int:
    deadline = time.monotonic() + 30
    row = None
    while time.monotonic() < deadline:
        row = saved(database, token)
        if row and row[0] == step:
            return row[1]
        time.sleep(0.2)
    raise AssertionError(f"game {token} not saved at step {step} in PostgreSQL: {row}")


def play_square(page, which: int = 0) -> None:
    legal = source(page, "board-legal")
    assert legal["x"], "no legal square on the board"
    before = rows(page, "board-servants")
    page.mouse.click(*canvas_point(page, legal["x"][which], legal["y"][which], G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", f"n === {before + 1}")
    wait_rows(page, "board-legal", "n > 0")
    time.sleep(0.3)


def token_of(page) -> str:
    from urllib.parse import parse_qs, urlparse

    return parse_qs(urlparse(page.url).query)["game"][0]


def test_a_tab_whose_game_another_process_took_up_goes_on_with_a_copy(page, processes, database):
    """Tab A plays on the first process; the same browser opens the game's address in a second
    tab, which the load balancer sends to the other process (it cannot know A is open): that
    tab takes the game up. A's next move is not written over it: A goes on with a copy under a
    new token and says so, and both games are kept."""
    first, second = processes
    play_square(page, 0)
    token = token_of(page)
    wait_saved(database, token, 1)
    other = page.context.new_page()  # the same browser: its cookie
    other.goto(f"{second.url}?game={token}", timeout=LOAD_MS)
    wait_rows(other, "board-servants", "n === 1", timeout=LOAD_MS)
    expect(other.get_by_text("Your game is back where you left it", exact=False)).to_be_visible()
    play_square(other, -1)
    wait_saved(database, token, 2)
    play_square(page, 3)  # tab A, its game taken up elsewhere
    note = page.get_by_text("this tab goes on with a copy of it", exact=False)
    expect(note).to_be_visible(timeout=LOAD_MS)
    page.wait_for_function(f"() => !window.location.search.includes({token!r})")
    copy = token_of(page)
    wait_saved(database, copy, 2)  # A's own two moves, under its new token
    assert saved(database, token)[0] == 2  # the other tab's game, untouched
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "sandbox-goes-on-with-a-copy.png"))
    play_square(page, 0)
    wait_saved(database, copy, 3)
    play_square(other, 0)
    wait_saved(database, token, 3)
    other.close()


def test_a_game_on_postgresql_survives_a_database_restart_and_moves_to_another_process(
    page, processes, database
):
    first, second = processes
    SHOTS.mkdir(parents=True, exist_ok=True)
    play_square(page, 0)
    play_square(page, -1)
    token = token_of(page)
    wait_saved(database, token, 2)

    pg.server().restart()  # every connection of both processes is cut
    play_square(page, 7)
    wait_saved(database, token, 3)  # the first save after the restart is written
    page.screenshot(path=str(SHOTS / "sandbox-on-postgresql-after-db-restart.png"))
    servants = source(page, "board-servants")

    first.process.send_signal(signal.SIGKILL)  # the learner's process dies
    first.process.wait(timeout=30)
    expect(page.locator("#nefertiti-offline")).to_be_visible()
    # the load balancer sends the reload to the other process (same host, same cookie)
    page.goto(f"{second.url}?game={token}", timeout=LOAD_MS)
    wait_rows(page, "board-servants", "n === 3", timeout=LOAD_MS)
    expect(page.get_by_text("Your game is back where you left it", exact=False)).to_be_visible()
    assert source(page, "board-servants") == servants
    assert token_of(page) == token
    play_square(page, 10)
    wait_saved(database, token, 4)
    page.screenshot(path=str(SHOTS / "sandbox-on-the-other-process.png"))
    assert "Saved games and rooms: postgresql+psycopg://postgres@" in second.log.read_text()
