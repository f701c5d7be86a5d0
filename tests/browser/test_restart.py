"""No lost games, in Chromium against the served Sandbox (issue #14, "No lost games").

A learner plays, makes a branch and gives a seat to a bot; the server is killed (SIGKILL, as a
crash or a power cut would); the page says the connection is lost and a click on the board
draws nothing; the server starts again on the same port; the page reloads by itself and the
game comes back: the same servants on the board, the same branches and steps in the timeline,
the same seats. And the Sandbox's Save downloads the whole game, which its Load gives back.

The server is a subprocess with ``$NEFERTITI_HOME`` in a temporary folder; the store is read
directly (SQLite) only to wait until the autosave has happened. Chromium and the page on the
server: conftest.py. Chromium missing is a failure.
"""

from __future__ import annotations

import json
import signal
import time
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support import (
    ARTIFACTS,
    LOAD_MS,
    SANDBOX,
    SOURCE,
    STEP_MS,
    Served,
    canvas_point,
    rows,
    source,
    wait_rows,
    wait_saved,
)

from widgets import serve
from widgets.game import geometry as G

#: the server's INFO lines in its log (as ``nefertiti serve`` prints them)
LOGGED = "import logging; logging.basicConfig(level=logging.INFO); "
#: a served Sandbox that saves a game only ten minutes after its last move (or when it stops)
SAVES_LATE = "import widgets.game.session as session; session.AUTOSAVE_DELAY_MS = 600_000; "
expect.set_options(timeout=STEP_MS)

#: Every select of the page (the timeline's steps and branches, the seats, the new game's
#: options): its options and its value, as the browser's Bokeh models hold them.
SELECTS = """() => {
    const out = [];
    for (const doc of Bokeh.documents) {
        for (const m of doc.all_models) {
            if (typeof m.type === "string" && m.type.endsWith("Select") && "options" in m) {
                // the comparison's two choices are the view's defaults, not the game's
                const compare = m.title === "First branch" || m.title === "Second branch";
                out.push(JSON.stringify([m.title ?? "", m.options, compare ? null : m.value]));
            }
        }
    }
    return out.sort();
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Served(
        tmp_path_factory.mktemp("restart") / "home", code=LOGGED + SANDBOX, name="restart"
    )
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def sandbox_url(server):
    """conftest.page opens this module's own (killable) server."""
    return server.url


def open_sandbox(page, url: str) -> None:
    page.goto(url, timeout=LOAD_MS)
    wait_loaded(page)


def wait_loaded(page) -> None:
    page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)


def play_square(page, which: int = 0) -> None:
    """Click a legal square on the board (the first, or the last with ``which=-1``); wait for the
    servant and the server's next legal squares."""
    legal = source(page, "board-legal")
    assert legal["x"], "no legal square on the board"
    before = rows(page, "board-servants")
    page.mouse.click(*canvas_point(page, legal["x"][which], legal["y"][which], G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", f"n === {before + 1}")
    wait_rows(page, "board-legal", "n > 0")
    time.sleep(0.3)  # a person's pause


def view(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def token_of(page) -> str:
    return parse_qs(urlparse(page.url).query)["game"][0]


#: The page's servants and selects (as :data:`SELECTS`) once they are what ``like`` holds (what
#: another page showed), or without ``like`` once they hold the game played here
#: (:func:`play_a_game_with_a_branch_and_a_bot_seat`: its second branch, Green's bot); else null.
SHOWN_JS = f"""(like) => {{
    const shown = {{servants: ({SOURCE})("board-servants"), selects: ({SELECTS})()}};
    if (like) return JSON.stringify(shown) === JSON.stringify(like) ? shown : null;
    const played = shown.selects.some((s) => s.includes('"main-2"'))
        && shown.selects.some((s) => s.startsWith('["Green"') && s.endsWith(',"random"]'));
    return played ? shown : null;
}}"""


def what_the_page_shows(page, like: dict | None = None) -> dict:
    """The servants on the board and every select of the page: with the new game's view shown
    (the seats among them), then with the timeline shown (its steps and branches).

    A view fills its lists when it is shown, after it appears (a busy server sends them later):
    the page is read once its selects hold the game played here, or, given ``like`` (what
    another page showed), once they are the same (else, after STEP_MS, as they are: the
    caller's comparison then says what differs)."""
    view(page, "Timeline")
    expect(page.get_by_text("Name of a new branch")).to_be_visible()
    view(page, "New game and files")
    expect(page.get_by_text("Who plays each colour", exact=False)).to_be_visible()
    wanted = {"servants": like["servants"], "selects": like["selects"]} if like else None
    try:
        return page.wait_for_function(SHOWN_JS, arg=wanted, polling=100).json_value()
    except PlaywrightTimeout:
        if like is None:
            raise
        return {"servants": source(page, "board-servants"), "selects": page.evaluate(SELECTS)}


def wait_token(page, other_than: str) -> str:
    """The game's token in the page's address once the page has put its own there (it does so
    after the board is drawn): another than ``other_than``."""
    page.wait_for_function(
        "(old) => { const t = new URL(location.href).searchParams.get('game'); "
        "return !!t && t !== old; }",
        arg=other_than,
        polling=100,
    )
    return token_of(page)


def assert_same_page(after: dict, before: dict) -> None:
    assert after["servants"] == before["servants"]
    lost = sorted(set(before["selects"]) - set(after["selects"]))
    new = sorted(set(after["selects"]) - set(before["selects"]))
    assert not lost and not new, f"before only {lost}; after only {new}"


def play_a_game_with_a_branch_and_a_bot_seat(page) -> int:
    """Four placements, two undone and another played (a second branch, main-2), a seat given
    to a bot that is not to move yet; returns the step."""
    for which in (0, -1, 7, 10):  # on three markets: none closes (their resolution has no squares)
        play_square(page, which)
    view(page, "Timeline")
    undo = page.get_by_role("button", name="Undo", exact=True)
    for expected in (3, 2):
        undo.click()
        wait_rows(page, "board-servants", f"n === {expected}")
    play_square(page, which=3)  # not what was played here before: a new branch
    view(page, "New game and files")
    # Red decides now (step 3), then Blue, Black, Green: a bot for Green does not move yet.
    page.get_by_role("combobox", name="Green").select_option(label="Bot: random moves")
    return 3


def test_a_killed_server_loses_nothing_and_the_page_takes_no_moves_meanwhile(page, server):
    step = play_a_game_with_a_branch_and_a_bot_seat(page)
    token = token_of(page)
    wait_saved(server.home, token, ["main-2", "seats: [random, human, human, human]"], step)
    before = what_the_page_shows(page)
    assert any("main-2" in s for s in before["selects"])
    assert any(s.startswith('["Green"') and s.endswith(',"random"]') for s in before["selects"])
    servants = rows(page, "board-servants")

    server.kill()
    banner = page.locator("#nefertiti-offline")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    page.screenshot(path=str(ARTIFACTS / "restart-connection-lost.png"))
    legal = source(page, "board-legal")
    point = canvas_point(page, legal["x"][0], legal["y"][0], G.WIDTH, G.HEIGHT)
    page.mouse.click(*point)  # on the banner's cover
    page.evaluate(
        "() => { document.getElementById('nefertiti-offline').style.pointerEvents = 'none'; }"
    )
    page.mouse.move(*point)
    page.mouse.down()  # on the board itself: CLICKS_JS draws nothing at the press either
    time.sleep(0.3)
    assert rows(page, "board-servants") == servants
    page.mouse.up()
    time.sleep(0.3)
    assert rows(page, "board-servants") == servants

    server.start()  # the same port, the same $NEFERTITI_HOME
    page.wait_for_function(
        "() => !document.getElementById('nefertiti-offline') && !!window.Bokeh "
        "&& Bokeh.documents.length > 0",
        polling=100,
        timeout=LOAD_MS,
    )  # the page reloaded itself
    wait_loaded(page)
    expect(page.get_by_text("Your game is back where you left it", exact=False)).to_be_visible()
    assert token_of(page) == token
    after = what_the_page_shows(page, like=before)
    page.screenshot(path=str(ARTIFACTS / "restart-game-back.png"))
    assert_same_page(after, before)


@pytest.fixture(scope="module")
def late_saving_server(tmp_path_factory):
    """A server of its own whose autosave waits ten minutes after a move (the product's waits
    700 ms): a stop that comes after a move always comes before its save, however slow the
    machine, so only the stop's own writing can keep the move."""
    server = Served(
        tmp_path_factory.mktemp("late-saving") / "home",
        code=LOGGED + SAVES_LATE + SANDBOX,
        name="late-saving",
    )
    server.start()
    yield server
    server.stop()


def test_a_move_made_just_before_the_server_is_stopped_is_written(chromium, late_saving_server):
    """A service manager stops the server (SIGTERM) before the autosave's delay after a move has
    passed: the move is written before the process ends, and is on the board when the page has
    reloaded itself after the start."""
    server = late_saving_server
    context = chromium.new_context(viewport={"width": 1500, "height": 1150})
    context.set_default_timeout(STEP_MS)
    try:
        page = context.new_page()
        open_sandbox(page, server.url)
        wait_rows(page, "board-legal", "n > 0", timeout=LOAD_MS)
        play_square(page)
        token = token_of(page)
        servants = rows(page, "board-servants")
        legal = source(page, "board-legal")
        page.mouse.click(*canvas_point(page, legal["x"][-1], legal["y"][-1], G.WIDTH, G.HEIGHT))
        # the server's answer: the next player's squares, in the next player's colour (the
        # browser changes the squares itself at the click, before the server has it, but not
        # their colour): the move is made, its save scheduled ten minutes later...
        page.wait_for_function(
            f"() => {{ const c = ({SOURCE})('board-legal').colour; "
            f"return c.length > 0 && c[0] !== {json.dumps(legal['colour'][0])}; }}"
        )
        server.process.send_signal(signal.SIGTERM)  # ...when the stop comes
        assert server.process.wait(timeout=STEP_MS / 1000) == 0
        assert "game(s) written" in server.log.read_text()
        expect(page.locator("#nefertiti-offline")).to_be_visible()
        server.start()
        # The page reloads itself as soon as the server answers (widgets.game.reconnect); a
        # goto of ours would race that reload and be aborted by it, so the test waits for it as
        # a user does.
        page.wait_for_function(
            "() => !document.getElementById('nefertiti-offline') && !!window.Bokeh "
            "&& Bokeh.documents.length > 0",
            polling=100,
            timeout=LOAD_MS,
        )
        wait_loaded(page)
        assert token_of(page) == token
        wait_rows(page, "board-servants", f"n === {servants + 1}")
    finally:
        context.close()


def test_a_reload_keeps_the_last_move_and_the_page_it_left_never_undoes_the_next(page, server):
    """A move, and a reload at once (before the autosave's delay): the move is on the reloaded
    page. Two moves there; the page the reload left is dropped by the server some seconds later
    (its session's last save): a reload after that still shows all three moves."""
    play_square(page)
    token = token_of(page)
    servants = rows(page, "board-servants")
    legal = source(page, "board-legal")
    page.mouse.click(*canvas_point(page, legal["x"][-1], legal["y"][-1], G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", f"n === {servants + 1}")
    page.reload(timeout=LOAD_MS)  # at once: the move's save is still to come
    wait_loaded(page)
    assert token_of(page) == token
    wait_rows(page, "board-servants", f"n === {servants + 1}")
    play_square(page)
    play_square(page)
    wait_saved(server.home, token, [], servants + 3)
    # the left page's session is dropped some seconds after the reload (UNUSED_SESSION_MS,
    # checked every CHECK_UNUSED_MS): its save then is refused (the server says so at INFO)
    # instead of putting the older game back
    server.wait_for_log("not overwritten", timeout=serve.UNUSED_SESSION_MS / 1000 + 60)
    page.reload(timeout=LOAD_MS)
    wait_loaded(page)
    assert token_of(page) == token
    wait_rows(page, "board-servants", f"n === {servants + 3}")
    wait_saved(server.home, token, [], servants + 3)


def test_a_new_tab_of_the_same_browser_is_offered_the_game(page, server):
    """A second tab while the first still plays: the offer, and on Resume a copy of the game
    (its own token: the two tabs never write into one game). A closed tab's game is taken up
    under its own token: tests/test_store.py."""
    step = play_a_game_with_a_branch_and_a_bot_seat(page)
    token = token_of(page)
    wait_saved(server.home, token, ["main-2"], step)
    before = what_the_page_shows(page)
    tab = page.context.new_page()  # the same browser (its cookie), no game in the address
    open_sandbox(tab, server.url)
    offer = tab.get_by_text("Resume your game from", exact=False)
    expect(offer).to_be_visible()
    tab.screenshot(path=str(ARTIFACTS / "restart-offer.png"))
    tab.get_by_role("button", name="Resume", exact=True).click()
    expect(offer).to_be_hidden()
    expect(tab.get_by_text("open in another tab as well", exact=False)).to_be_visible()
    assert_same_page(what_the_page_shows(tab, like=before), before)
    wait_token(tab, other_than=token)  # a copy: its own token


def test_another_browser_with_the_link_gets_a_new_game(chromium, page, server):
    play_square(page)
    token = token_of(page)
    wait_saved(server.home, token, [], 1)
    other = chromium.new_context(viewport={"width": 1500, "height": 1150})
    try:
        stranger = other.new_page()
        open_sandbox(stranger, f"{server.url}?game={token}")
        assert rows(stranger, "board-servants") == 0
        wait_token(stranger, other_than=token)  # a new game of its own
        expect(stranger.get_by_text("Resume your game", exact=False)).to_be_hidden()
    finally:
        other.close()


def test_save_downloads_the_whole_game_and_load_gives_it_back(page, tmp_path):
    play_a_game_with_a_branch_and_a_bot_seat(page)
    before = what_the_page_shows(page)
    view(page, "New game and files")
    with page.expect_download() as download:
        page.get_by_role("button", name="Save the game", exact=False).click()
    path = tmp_path / "game.yaml"
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "nefertiti_record: 2" in text and "main-2" in text
    assert "seats: [random, human, human, human]" in text

    page.get_by_role("button", name="Start a new game", exact=True).click()
    wait_rows(page, "board-servants", "n === 0")
    page.locator("input[type=file]").set_input_files(str(path))
    expect(page.get_by_text("Loaded game.yaml", exact=False)).to_be_visible()
    assert_same_page(what_the_page_shows(page, like=before), before)
