"""The store of saved games (widgets/server/store.py) and the Sandbox's autosave and resume on it.

The browser journeys (a reload, a server killed and started again) are in
tests/browser/test_restart.py; here the store itself and the Sandbox's choices, without a server.
Every test taking ``store`` runs twice: on the default SQLite file and on a real PostgreSQL
server (tests/pg.py; a database of its own per test). Schema versions, database URLs and
compare-and-set between processes: tests/test_store_db.py.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import panel as pn
import pytest
from pg import fresh_database
from rendered import parts, source, widget
from sqlalchemy import update

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.history import record_from_data
from nefertiti_core.files.yaml_subset import loads
from widgets.game.session import GameSession
from widgets.sandbox.app import Sandbox
from widgets.server.cookies import BROWSER, take_grant
from widgets.server.store import (
    MAX_RECORD_CHARS,
    SCHEMA_VERSION,
    StaleGame,
    Store,
    StoreError,
    games_table,
    new_token,
    owner_of,
    schema_table,
)

ME, THEM = new_token(), new_token()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path, monkeypatch):
    """A new store: the default (SQLite under $NEFERTITI_HOME) or a new PostgreSQL database."""
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path / "home"))
    if request.param == "sqlite":
        store = Store()
    else:
        store = Store(fresh_database(request.getfixturevalue("postgres_url")))
    yield store
    store.close()


def reopened(store) -> Store:
    """The same store opened again (as a restarted server does)."""
    store.close()
    return Store(store.url)


def test_the_default_store_is_an_sqlite_file_in_wal_mode_under_nefertiti_home(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("NEFERTITI_HOME", str(tmp_path / "home"))
    Store().close()
    path = tmp_path / "home" / "games.sqlite3"
    assert path.exists()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT version FROM nefertiti_schema").fetchall() == [(SCHEMA_VERSION,)]


def test_a_game_is_kept_and_read_back_by_its_owner_only(store):
    token = new_token()
    store.save(token, owner_of(ME), "record text", lang="de", hints=False, branch="b", step=7)
    saved = store.load(token, owner_of(ME))
    assert (saved.record, saved.lang, saved.hints, saved.branch, saved.step) == (
        "record text", "de", False, "b", 7,
    )  # fmt: skip
    assert saved.updated.tzinfo is not None
    assert store.load(token, owner_of(THEM)) is None  # a shared link gives nothing away
    with pytest.raises(StoreError, match="belongs to another browser"):
        store.save(token, owner_of(THEM), "overwritten?")
    assert store.load(token, owner_of(ME)).record == "record text"
    store.save(token, owner_of(ME), "second save", step=8)
    again = store.load(token, owner_of(ME))
    assert (again.record, again.step, again.created) == ("second save", 8, saved.created)
    assert (saved.revision, again.revision) == (1, 2)  # each save counted
    assert store.count() == 1


def test_a_writer_that_read_an_older_revision_is_refused_and_changes_nothing(store):
    """The page a reload left behind holds revision 1; the new page took the game up (2) and
    saved a move (3): the old page's save, expecting 1, writes nothing."""
    token, me = new_token(), owner_of(ME)
    assert store.save(token, me, "first", step=1, expected=0) == 1  # a new game
    taken = store.take(token, me)
    assert (taken.record, taken.revision) == ("first", 2)  # read and counted up in one go
    assert store.save(token, me, "new page's move", step=2, expected=2) == 3
    with pytest.raises(StaleGame, match=r"revision 3, not 1\): not overwritten"):
        store.save(token, me, "old page's last save", step=1, expected=1)
    with pytest.raises(StaleGame):  # a page that never saved it expects none there
        store.save(token, me, "a copy's first save?", expected=0)
    kept = store.load(token, me)
    assert (kept.record, kept.step, kept.revision) == ("new page's move", 2, 3)
    assert store.take(token, owner_of(THEM)) is None  # another browser takes nothing...
    assert store.take("not a token", me) is None
    assert store.load(token, me).revision == 3  # ...and counts nothing up
    assert store.save(token, me, "unchecked", expected=None) == 4  # no expectation: written


def test_tokens_are_random_and_checked(store):
    tokens = {new_token() for _ in range(1000)}
    assert len(tokens) == 1000 and all(len(t) == 22 for t in tokens)
    with pytest.raises(StoreError, match="not a game token"):
        store.save("../../etc", owner_of(ME), "x")
    assert store.load("' OR 1=1 --", owner_of(ME)) is None


def test_a_game_too_large_is_refused_and_the_old_save_kept(store):
    token = new_token()
    store.save(token, owner_of(ME), "small")
    with pytest.raises(StoreError, match="more than the 1,000,000"):
        store.save(token, owner_of(ME), "x" * (MAX_RECORD_CHARS + 1))
    assert store.load(token, owner_of(ME)).record == "small"


def test_games_untouched_for_30_days_expire(store):
    old, fresh = new_token(), new_token()
    store.save(old, owner_of(ME), "old")
    store.save(fresh, owner_of(ME), "fresh")
    with store.engine.begin() as db:
        db.execute(
            update(games_table)
            .where(games_table.c.token == old)
            .values(updated=datetime.now(UTC) - timedelta(days=31))
        )
    assert store.expire() == 1
    assert store.load(old, owner_of(ME)) is None and store.load(fresh, owner_of(ME)) is not None


def test_latest_is_the_owners_last_saved_game(store):
    a, b, c = new_token(), new_token(), new_token()
    store.save(a, owner_of(ME), "a")
    store.save(b, owner_of(ME), "b")
    store.save(c, owner_of(THEM), "c")
    assert store.latest(owner_of(ME)).token == b
    assert store.latest(owner_of(ME), exclude={b}).token == a
    assert store.latest(owner_of(new_token())) is None


def test_a_store_from_a_newer_version_is_refused_with_a_clear_message(store):
    token = new_token()
    store.save(token, owner_of(ME), "kept")
    with store.engine.begin() as db:
        db.execute(schema_table.insert().values(version=99))
    with pytest.raises(StoreError) as caught:
        reopened(store)
    message = str(caught.value)
    assert f"newer version of the tutor (schema 99; this one reads {SCHEMA_VERSION})" in message
    assert store.where() in message and "\n" not in message
    with store.engine.connect() as db:  # refused, never changed
        assert sorted(db.scalars(schema_table.select())) == [SCHEMA_VERSION, 99]
        assert db.scalar(games_table.select().with_only_columns(games_table.c.record)) == "kept"


def test_an_unusable_home_is_a_clear_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NEFERTITI_HOME", str(blocker / "home"))
    with pytest.raises(StoreError, match="cannot create the folder for saved games"):
        Store()


# --- the Sandbox on a store (what a served session does; no server here) -----------------------
def played_sandbox(store, browser=ME, game="", live=None, steps=12, seed=3) -> Sandbox:
    sandbox = Sandbox(GameSession())
    sandbox.saved.connect(store, browser=browser, game=game, live=live)
    rng = random.Random(seed)
    session = sandbox.session
    for _ in range(steps):
        session.play(rng.choice(session.state.legal_options()))
    return sandbox


def flush(sandbox: Sandbox) -> None:
    future = sandbox.session.save_now()
    assert future is not None
    future.result(timeout=30)


def branched(store, **kw) -> Sandbox:
    sandbox = played_sandbox(store, **kw)
    session = sandbox.session
    session.jump(5)
    session.play(session.state.legal_options()[-1])  # a second branch, by itself
    session.play(session.state.legal_options()[0])
    session.new_branch("what if", at=3)
    session.seats = ["human", "greedy", "human", "random"]
    session.run_bots()  # the bots play on from the new branch's tip
    flush(sandbox)
    return sandbox


#: How the saved-games notes begin (an offer to resume, a game back, a tab's copy).
NOTES = (
    tr("en", "saved.offer", time="", step="").split(" from")[0],
    tr("en", "saved.back", time="", step="").split(":")[0],
    tr("en", "saved.copy").split(":")[0],
)


def saved_note(sandbox: Sandbox) -> str:
    """The note on a saved game the page shows, or "" (none shown)."""
    shown = [p.object for p in parts(sandbox) if isinstance(p, pn.pane.HTML)]
    return next((text for text in shown if any(note in text for note in NOTES)), "")


def buttons(sandbox: Sandbox) -> set[str]:
    """The labels of the buttons the page shows."""
    return {p.name for p in parts(sandbox) if isinstance(p, pn.widgets.Button)}


RESUME, FRESH = tr("en", "saved.resume"), tr("en", "saved.new")


def same_game(a: GameSession, b: GameSession) -> None:
    assert b.history.branches == a.history.branches
    assert (b.history.branch, b.history.step) == (a.history.branch, a.history.step)
    for name in a.history.branches:
        assert b.history.steps(name) == a.history.steps(name)
    assert b.state.public_key() == a.state.public_key()
    assert b.seats == a.seats


def test_every_change_is_saved_with_branches_and_seats(store):
    sandbox = branched(store)
    saved = store.load(sandbox.saved.token, owner_of(ME))
    doc = loads(saved.record)
    record = record_from_data(doc.data, "saved", doc)
    history = record.replay()
    assert history.branches == sandbox.session.history.branches
    assert record.seats == ["human", "greedy", "human", "random"]
    assert saved.branch == "what if" and saved.step == sandbox.session.history.step > 3


def test_a_reload_of_the_same_tab_brings_the_game_back_at_once(store):
    first = branched(store)
    again = Sandbox(GameSession())
    again.saved.connect(store, browser=ME, game=first.saved.token)
    same_game(first.session, again.session)
    assert again.saved.token == first.saved.token
    assert saved_note(again) and RESUME not in buttons(again)  # a note, no question
    assert f"step {first.session.history.step}," in saved_note(again)
    again.session.undo()  # the note goes at the next move
    assert saved_note(again) == ""


def test_the_page_a_reload_left_behind_cannot_undo_the_new_pages_moves(store):
    """Its last save comes when its session is dropped, seconds after the reload: refused, so
    the moves played on the reloaded page stay. (Not served, the old page counts as still open:
    it goes on with a copy under a new token and says so; nothing of either is lost.)"""
    first = played_sandbox(store)
    flush(first)
    again = Sandbox(GameSession())
    again.saved.connect(store, browser=ME, game=first.saved.token)
    token = again.saved.token
    assert token == first.saved.token
    for _ in range(2):
        again.session.play(again.session.state.legal_options()[0])
    flush(again)
    flush(first)  # the old page's last save
    assert store.load(token, owner_of(ME)).step == again.session.history.step
    assert first.saved.token != token
    assert "goes on with a copy" in saved_note(first)
    flush(first)  # the copy's own save (queued behind the refused one)
    copy = store.load(first.saved.token, owner_of(ME))
    assert copy is not None and copy.step == first.session.history.step
    assert store.count() == 2


def test_a_left_page_whose_browser_is_gone_stops_saving(store):
    first = played_sandbox(store)
    flush(first)
    again = Sandbox(GameSession())
    again.saved.connect(store, browser=ME, game=first.saved.token)
    again.session.play(again.session.state.legal_options()[0])
    flush(again)
    # served, its browser gone (a reload): Bokeh's session counts no connection any more
    gone = SimpleNamespace(_session=SimpleNamespace(connection_count=0))
    # private: a served page's Bokeh document, faked (no server here; no public way to say it)
    first.saved._doc = SimpleNamespace(session_context=gone, add_next_tick_callback=lambda f: f())
    flush(first)
    assert store.count() == 1 and first.saved.token == again.saved.token
    assert store.load(again.saved.token, owner_of(ME)).step == again.session.history.step
    assert first.session.save_now() is None  # its saving stopped


def test_a_shared_link_does_not_give_another_browser_the_game(store):
    first = branched(store)
    other = Sandbox(GameSession())
    other.saved.connect(store, browser=THEM, game=first.saved.token)
    assert other.saved.token != first.saved.token
    assert other.session.history.length() == 0  # a new game
    assert saved_note(other) == ""  # and nothing of the first browser's offered


def test_a_game_looked_at_behind_its_tip_comes_back_there_without_bot_moves(store):
    first = branched(store)
    session = first.session
    session.jump(3)  # looking back at a step where a bot seat (Red, greedy) decides
    assert session.is_bot(session.state.decider)
    flush(first)
    again = Sandbox(GameSession())
    again.saved.connect(store, browser=ME, game=first.saved.token)
    same_game(session, again.session)


def test_a_new_tab_is_offered_the_browsers_last_game(store):
    first = branched(store)
    tab = Sandbox(GameSession())
    tab.saved.connect(store, browser=ME, game="")
    assert tab.session.history.length() == 0
    assert {RESUME, FRESH} <= buttons(tab)
    assert f"step {first.session.history.step}, branch what if" in saved_note(tab)
    assert tab.saved.resume_offer()
    same_game(first.session, tab.session)
    assert tab.saved.token == first.saved.token and saved_note(tab) == ""
    assert RESUME not in buttons(tab)
    tab.session.undo()
    flush(tab)
    assert store.count() == 1  # saved under the game's own token, no stray copy
    assert store.load(first.saved.token, owner_of(ME)).step == first.session.history.step - 1


def test_a_game_open_in_another_tab_is_resumed_as_a_copy(store):
    first = branched(store)
    tab = Sandbox(GameSession())
    tab.saved.connect(store, browser=ME, game="", live={first.saved.token})
    assert RESUME in buttons(tab)
    assert tab.saved.resume_offer()
    same_game(first.session, tab.session)
    assert tab.saved.token != first.saved.token  # its moves do not overwrite the other tab's
    assert "another tab" in saved_note(tab)
    copy = Sandbox(GameSession())  # a duplicated tab (the same address)
    copy.saved.connect(store, browser=ME, game=first.saved.token, live={first.saved.token})
    same_game(first.session, copy.session)
    assert copy.saved.token != first.saved.token


def test_a_new_browser_gets_a_cookie_and_an_old_one_keeps_its_own(store):
    fresh = Sandbox(GameSession())
    fresh.saved.connect(store, browser="", game="")
    # what the page's script gets (PAGE_JS): a one-time grant for the browser's cookie (the
    # server sets it, HttpOnly; the id itself never reaches the page) and the game's token
    page = source(fresh.board, "nefertiti-page").data
    granted = take_grant(page["grant"][0])
    ((kind, room, browser),) = granted.cookies
    assert kind is BROWSER and room == "" and len(browser) == 22
    assert browser not in str(page) and take_grant(page["grant"][0]) is None  # spent
    known = Sandbox(GameSession())
    known.saved.connect(store, browser=ME, game="")
    page = source(known.board, "nefertiti-page").data
    assert page["grant"] == [""]
    assert page["token"] == [known.saved.token]


def test_the_saved_game_survives_a_store_opened_again(store, tmp_path):
    first = branched(store)
    second = reopened(store)
    again = Sandbox(GameSession())
    again.saved.connect(second, browser=ME, game=first.saved.token)
    same_game(first.session, again.session)
    second.close()


def test_save_downloads_the_whole_game_that_loads_back_identically(store):
    first = branched(store)
    first.open_view("setup")  # where the Save button is
    text = widget(first, pn.widgets.FileDownload).callback().getvalue()  # what Save downloads
    assert "nefertiti_record: 2" in text and "what if" in text
    other = Sandbox(GameSession())
    assert other.load_file(text.encode(), "nefertiti-game.yaml")
    same_game(first.session, other.session)
