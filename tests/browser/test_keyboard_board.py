"""The board by keyboard and as text, played with the keyboard alone, in Chromium against
``nefertiti serve`` (widgets/game/board_keys.py, board_text.py).

In the Sandbox (1280 x 800) a learner loads a position where Green's servant closes Abou Simbel,
Tabs onto the board, moves with the arrow keys to the 5 of Abou Simbel (each square's name says
what stands there and whether Green may place there), places with Enter, and settles the market
from the decision panel with Tab and Enter; the live region says each step in the log's words and
the text view's headings and lines follow (checked through the accessibility tree). On a
classroom learner's page (a Pixel 5, once in German and once in Chinese) a learner joins, gets
Blue's seat and places the first servant of the first game the same way, the squares' names and
the announcement in that language. axe-core finds no serious or critical violation on either
page. The Sandbox's journey ends in German, then in Chinese: the language switched by keyboard,
the live region, the grid and its squares speak it. Only ``page.keyboard`` plays: no mouse, no
``click``. Chromium missing is a failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from axe import check
from board_keyboard import focused, on_board, press_until
from playwright.sync_api import expect
from support import ARTIFACTS
from test_classroom import LOAD_MS, PIXEL_5, STEP_MS, Class, Server
from test_refusal_in_words import notation_in

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.squares import square_name
from nefertiti_core.files.announce import last_step
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.board_words import chosen_square_words, square_words

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ARTIFACTS / "keyboard-board"
VIEWPORT = {"width": 1280, "height": 800}
expect.set_options(timeout=STEP_MS)


def live(page):
    return page.locator(".board-text .live")


def step_words(state, option: int, lang: str) -> str:
    """The log's words for ``option`` played on ``state`` (what the live region says first)."""
    start = state.copy()
    start.log = []
    history = History(start)
    history.play(option)
    return last_step(history, lang).line


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def ring_drawn(page) -> bool:
    """The focused square's outline is drawn, over the board's canvas."""
    return page.evaluate(
        """() => { let el = document.activeElement;
          while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
          const s = getComputedStyle(el), box = el.getBoundingClientRect();
          return s.outlineStyle === 'solid' && parseFloat(s.outlineWidth) >= 2
            && box.width > 8 && box.height > 8; }"""
    )


def test_a_learner_closes_and_settles_a_market_by_keyboard_in_the_sandbox(page):
    page.set_viewport_size(VIEWPORT)
    # the board's grid and its text view pass axe (the files view opened below has a number
    # spinner and a file box axe flags: not this feature's, and not checked here)
    expect(page.get_by_role("grid")).to_have_count(1)
    check(page, "the Sandbox with the keyboard board and its text view")
    # the position: loaded through the Sandbox's file box (the keyboard opens its view)
    files = page.get_by_role("button", name="New game and files", exact=True)
    files.focus()
    page.keyboard.press("Enter")
    page.locator("input[type=file]").set_input_files(
        str(ROOT / "nefertiti_core" / "scenarios" / "closing-step-by-step.yaml")
    )
    expect(page.get_by_text("Loaded closing-step-by-step.yaml", exact=False)).to_be_visible()
    expect(live(page)).to_contain_text("Now Green decides")
    state = load(scenario_path("closing-step-by-step")).state
    # Tab onto the board: the first square of Gizeh, named with who may place there
    now = press_until(page, "Tab", on_board)
    assert now["name"] == square_words(state, 0, 0, "en"), now
    assert ring_drawn(page)
    # the arrows: right along the row, down through the rows and on to the next market
    page.keyboard.press("ArrowRight")
    assert focused(page)["name"] == square_words(state, 0, 1, "en")
    target = square_words(state, 2, 4, "en")  # the 5 of Abou Simbel: it closes the market
    assert target.endswith("Green can place here and this closes the market"), target
    press_until(page, "ArrowDown", lambda f: "of Abou Simbel" in f["name"], 30)
    press_until(page, "ArrowRight", lambda f: f["name"].startswith("The 5 of Abou Simbel"), 10)
    assert focused(page)["name"] == target
    assert ring_drawn(page)
    shot(page, "sandbox-1280-focused-square")
    # Enter places Green's servant there, as a click would; the live region says the step
    page.keyboard.press("Enter")
    expect(live(page)).to_contain_text(step_words(state, O.place_id(2, 0, 4), "en"))
    expect(live(page)).to_contain_text("Now Green decides")
    # the focus stays on the square, whose name now says whose servant stands there
    placed = re.compile(
        r"^The 5 of Abou Simbel's left stall: (Green's servant|the market is closed)$"
    )
    expect(page.get_by_role("gridcell", name=placed)).to_be_focused()
    # the settlement, from the decision panel: Tab to each option and Enter
    # each bidder in turn (R6): Tab to the first offered card or share, Enter; each step said
    choices = re.compile(r"^(Take|Buy) ")
    for _ in range(6):
        words = live(page).inner_text()
        if "Now Red decides (turn 2" in words:
            break
        press_until(
            page,
            "Tab",
            lambda f: f["role"] == "button" and bool(choices.match(f["name"])),
            what="a settlement's option",
        )
        page.keyboard.press("Enter")
        expect(live(page)).not_to_have_text(words)
    expect(live(page)).to_contain_text("Now Red decides (turn 2, Red's turn)")
    # a read command: the players, into the live region
    press_until(page, "Tab", lambda f: f["name"] == "Read the players")
    page.keyboard.press("Enter")
    expect(live(page)).to_contain_text("Green:")
    # the text view: its heading; each market and the players in full, folded until opened
    text = page.locator(".board-text")
    expect(text.get_by_role("heading", name="The board in words", level=2)).to_be_visible()
    folded = text.get_by_role("heading", name="Abou Simbel — right", level=3)
    expect(folded).to_be_hidden()
    press_until(page, "Tab", lambda f: f["name"] == "Every market and the players, in full")
    page.keyboard.press("Enter")
    expect(folded).to_be_visible()  # Abou Simbel's words: the right stall now, and closed
    snapshot = text.aria_snapshot()
    assert 'heading "Players" [level=3]' in snapshot, snapshot
    # Escape leaves the board: back on a square, then out
    press_until(page, "Shift+Tab", on_board, 300, what="the board")
    page.keyboard.press("Escape")
    assert not on_board(focused(page))
    # the same board in German, then in Chinese (the language buttons, pressed by keyboard):
    # the live region, the grid's name and the squares' names speak the page's language
    for lang in ("de", "zh"):
        button = page.get_by_role("button", name=tr(lang, f"panel.lang.{lang}"), exact=True)
        button.focus()
        page.keyboard.press("Enter")
        red = tr(lang, "colour.red")
        decider = tr(lang, "text.decider", turn=2, player=red, turn_player=red)
        expect(live(page)).to_contain_text(decider)
        expect(page.get_by_role("grid", name=tr(lang, "keys.board"), exact=True)).to_have_count(1)
        press_until(page, "Tab", on_board, what="the board")  # the square last visited
        gizeh = tuple(chosen_square_words(state, 0, i, lang) for i in range(7))
        press_until(page, "ArrowDown", lambda f, g=gizeh: f["name"].startswith(g), 30, what="Gizeh")
        page.keyboard.press("Home")  # the market's first square, named in the page's language
        assert focused(page)["name"].startswith(gizeh[0]), focused(page)
        page.keyboard.press("ArrowRight")
        assert focused(page)["name"].startswith(chosen_square_words(state, 0, 1, lang))
        page.keyboard.press("Escape")
    shot(page, "sandbox-1280-zh")


# --- a classroom learner's page, on a phone, in German and in Chinese ------------------------
CLASSES = {"de": ("de-DE", "Jürgen"), "zh": ("zh-CN", "王芳")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("keyboard-board-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def klass(chromium, server):
    klass = Class(chromium, server)
    yield klass
    klass.close()
    assert not klass.errors, f"JavaScript errors in the pages: {klass.errors}"


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_a_learner_places_by_keyboard_on_a_phone(klass, server, lang):
    locale, name = CLASSES[lang]
    teacher = klass.page({"width": 1024, "height": 768}, locale=locale)
    teacher.goto(f"{server.base}/classroom", timeout=LOAD_MS)
    teacher.locator(".room-open button").click(timeout=LOAD_MS)
    expect(teacher.locator(".room-join-code")).to_be_visible(timeout=LOAD_MS)
    code = teacher.locator(".room-code").inner_text().strip()
    # the learner joins with the keyboard: type, Tab, Enter
    learner = klass.page(PIXEL_5.get("viewport", {"width": 393, "height": 851}), locale=locale,
                         **{k: v for k, v in PIXEL_5.items() if k != "viewport"})  # fmt: skip
    learner.goto(f"{server.base}/join", timeout=LOAD_MS)
    learner.locator(".room-code-input input").focus()
    learner.keyboard.type(code)
    learner.locator(".room-name-input input").focus()
    learner.keyboard.type(name)
    learner.locator(".room-join button").focus()
    learner.keyboard.press("Enter")
    expect(learner.locator(".room-status")).to_be_visible(timeout=LOAD_MS)
    state = new_game(4, 0)  # the first game: Blue places first
    blue = state.colours.index("blue")
    teacher.locator(f".room-seat-{blue} select").select_option(label=f"{name} (#1)")
    expect(learner.locator(".room-status")).to_have_attribute("data-seat", str(blue))
    first = square_words(state, 0, 0, lang)
    expect(learner.get_by_role("gridcell", name=first, exact=True)).to_have_count(1)
    now = press_until(learner, "Tab", on_board)
    assert now["name"] == first, now
    assert ring_drawn(learner)
    shot(learner, f"learner-pixel5-{lang}-focused-square")
    learner.keyboard.press("ArrowRight")
    second = square_words(state, 0, 1, lang)
    assert focused(learner)["name"] == second
    learner.keyboard.press("Enter")
    expect(live(learner)).to_contain_text(step_words(state, O.place_id(0, 0, 1), lang))
    state.apply(O.place_id(0, 0, 1))
    expect(learner.locator(".room-status[data-step='1']")).to_have_count(1)
    now = square_words(state, 0, 1, lang)
    expect(learner.get_by_role("gridcell", name=now, exact=True)).to_be_focused()
    text = learner.locator(".board-text")
    expect(text.get_by_role("heading", name=tr(lang, "text.heading"), level=2)).to_be_visible()
    where = square_name(state.visible_stall(0), 1, lang, marked=True)
    servant = tr(lang, "text.servant", player=tr(lang, "colour.blue"), square=where)
    expect(text).to_contain_text(tr(lang, "text.servants", servants=servant))
    # the text view and the decision panel name options and steps in words, not move notation
    shown = text.inner_text() + " ".join(learner.locator(".decision-option").all_inner_texts())
    assert not notation_in(shown), notation_in(shown)
    shot(learner, f"learner-pixel5-{lang}-text-view")
    check(learner, f"a learner's page on a phone ({lang}) with the keyboard board")
