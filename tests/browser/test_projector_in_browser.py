"""The Sandbox as a teacher shows it on a projector (#16 item 1), in Chromium at 1024 x 768 and
1920 x 1080: the banner says who decides and why in the decider's colour; the board and the
decision are both in view without scrolling (bounding boxes against the window); at 1920 the
board uses the width (it was 860 pixels); Undo and Redo beside the board are pressed; a bot's
move is announced in words and outlined on the board; a single-option step (the Scribe of a
player who holds one gift type, R10.7) is announced with what it did; the timeline lists the
steps in words, each in its player's colour; a loaded position shows its title and teaching note.

One server and one Chromium for the module (conftest.py's fixtures); each
window size gets its own browser context (a new game). Screenshots go to the artifacts folder (and are looked at, see the report).
Chromium missing is a failure, not a skip.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support import ARTIFACTS, LOAD_MS, SOURCE, STEP_MS, canvas_point, rows, wait_rows

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets.game import geometry as G
from widgets.theme import PLAYER_COLOURS

#: Blue's colour as the browser gives it back (``rgb(r, g, b)``).
BLUE_RGB = "rgb({}, {}, {})".format(
    *(int(PLAYER_COLOURS["blue"][i : i + 2], 16) for i in (1, 3, 5))
)

expect.set_options(timeout=STEP_MS)
FORCED_SCRIBE = Path(__file__).parents[1] / "data" / "forced-scribe.yaml"
CELLS = G.squares(new_game(4, 0).side)  # the first-game layout (R2.8): Blue starts


#: A position where Blue holds senets only: recruiting the Scribe leaves one gift type to score,
#: and the engine scores it at once (R10.7, E3).
def cell(market: int, index: int) -> G.SquareCell:
    return next(c for c in CELLS if c.market == market and c.index == index)


def shot(page, name: str, size: tuple[int, int]) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"projector-{size[0]}-{name}.png"))


def in_window(box: dict, size: tuple[int, int]) -> bool:
    width, height = size
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def assert_board_whole(page) -> None:
    """The drawn board fits its box (nothing of it cut off at the right)."""
    canvas = page.locator(".bk-Canvas").first.bounding_box()
    box = page.locator(".nefertiti-board").first.bounding_box()
    assert canvas["x"] >= box["x"] - 1, (canvas, box)
    assert canvas["x"] + canvas["width"] <= box["x"] + box["width"] + 1, (canvas, box)


def to_top(page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.fixture(params=[(1024, 768), (1920, 1080)], ids=["1024x768", "1920x1080"])
def projector(request, chromium, sandbox_url):
    size = request.param
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sandbox_url, timeout=LOAD_MS)
    page.locator(".bk-Canvas").first.wait_for(timeout=LOAD_MS)
    wait_rows(page, "board-squares", "n > 0", timeout=LOAD_MS)
    yield page, size
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def test_a_projector_shows_who_decides_the_board_and_the_decision_at_once(projector, tmp_path):
    page, size = projector
    width, height = size
    banner = page.locator(".nefertiti-banner")
    expect(banner).to_contain_text("Blue decides now", timeout=LOAD_MS)
    expect(banner).to_contain_text("places a servant on an empty square")  # why, in words
    assert banner.get_attribute("data-colour") == "blue"
    assert PLAYER_COLOURS["blue"] in (banner.get_attribute("style") or "").lower() or (
        BLUE_RGB in banner.evaluate("(el) => getComputedStyle(el).borderLeftColor")
    )

    # --- the board and the decision both in view, nothing scrolled
    board = page.locator(".bk-Canvas").first
    place = page.get_by_role("button", name="Place", exact=True)
    expect(place).to_be_visible()
    undo = page.locator(".nefertiti-undo button")
    redo = page.locator(".nefertiti-redo button")
    assert page.evaluate("() => window.scrollY") == 0
    for what, locator in (("board", board), ("banner", banner), ("Place", place), ("Undo", undo)):
        box = locator.bounding_box()
        assert box is not None and in_window(box, size), f"{what} not in view at {size}: {box}"
    board_box = board.bounding_box()
    if width == 1920:  # the board uses the width (it stayed 860 pixels)
        assert board_box["width"] >= 1000, board_box
    # Undo and Redo beside the board: above its top right corner, within its width
    undo_box = undo.bounding_box()
    assert undo_box["y"] + undo_box["height"] <= board_box["y"] + 1
    assert undo_box["x"] >= board_box["x"] + board_box["width"] / 2
    assert undo.is_disabled() and redo.is_disabled()  # nothing played yet
    shot(page, "start", size)

    # --- Black becomes a bot; Blue places; Black's move is announced in words and outlined
    page.get_by_role("button", name="New game and files", exact=True).click()
    page.get_by_label("Black", exact=True).select_option(label=tr("en", "panel.seat.random"))
    # the players' panel shows the seat's badge once the server has the change: only then is
    # Blue's click answered by Black's bot (a click sent first is played while Black is human)
    badge = page.locator("span[style*='8a5a00']", has_text=tr("en", "panel.seat.random"))
    expect(badge.first).to_be_visible()  # drawn by the server in the players' panel
    # the board keeps its size whatever view is shown below it
    assert abs(board.bounding_box()["width"] - board_box["width"]) < 2
    to_top(page)
    blue = cell(R.GIZEH, 4)  # the 5 of Gizeh's left stall
    page.mouse.click(*canvas_point(page, blue.x, blue.y, G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", "n === 2")  # Blue's servant and the bot's
    expect(banner).to_contain_text("Green decides now")
    last = page.locator(".nefertiti-last")
    expect(last).to_contain_text(re.compile(r"Black puts a servant on the .+ stall"))
    expect(last).to_contain_text("bot")
    assert "#" not in last.inner_text() and "place " not in last.inner_text()  # no notation
    outline = page.evaluate(SOURCE, "board-last")
    servants = page.evaluate(SOURCE, "board-servants")
    black = [
        (x, y)
        for x, y, who in zip(servants["x"], servants["y"], servants["who"], strict=True)
        if who == "black"
    ]
    assert outline["who"] == ["black"] and outline["colour"] == [PLAYER_COLOURS["black"]]
    assert [(outline["x"][0], outline["y"][0])] == black  # the bot's square is outlined
    assert last.bounding_box()["y"] < board.bounding_box()["y"]  # the line above the board
    assert_board_whole(page)
    shot(page, "bot-moved", size)

    # --- Undo and Redo beside the board, pressed
    expect(undo).to_be_enabled()
    undo.click()
    wait_rows(page, "board-servants", "n === 1")
    expect(banner).to_contain_text("Black decides now")  # the bot's step is taken back
    expect(last).to_contain_text("Blue puts a servant on the 5 of Gizeh's left stall")
    outline = page.evaluate(SOURCE, "board-last")
    assert outline["who"] == ["blue"] and (outline["x"][0], outline["y"][0]) == (blue.x, blue.y)
    expect(redo).to_be_enabled()
    redo.click()
    wait_rows(page, "board-servants", "n === 2")
    expect(banner).to_contain_text("Green decides now")
    expect(last).to_contain_text("Black puts a servant on")

    # --- the timeline in words, each step in its player's colour
    page.get_by_role("button", name="Timeline", exact=True).click()
    steps = page.locator(".nefertiti-timeline-words .nefertiti-step")
    expect(steps).to_have_count(2)
    newest, first = steps.nth(0), steps.nth(1)
    expect(first).to_contain_text("Blue puts a servant on the 5 of Gizeh's left stall")
    expect(newest).to_contain_text("Black puts a servant on")
    assert first.get_attribute("data-colour") == "blue"
    assert newest.get_attribute("data-colour") == "black"
    bar = first.evaluate("(el) => getComputedStyle(el).borderLeftColor")
    assert bar == BLUE_RGB, bar  # Blue's colour
    words = page.locator(".nefertiti-timeline-words").inner_text()
    assert "gizeh.left" not in words and "place " not in words  # words, not the notation
    steps.first.scroll_into_view_if_needed()
    shot(page, "timeline", size)

    # --- a loaded position: its title and teaching note; a single-option step announced
    page.get_by_role("button", name="New game and files", exact=True).click()
    path = Path(tmp_path) / "forced-scribe.yaml"
    path.write_text(FORCED_SCRIBE.read_text(encoding="utf-8"), encoding="utf-8")
    page.locator("input[type=file]").set_input_files(str(path))
    note = page.locator(".nefertiti-position")
    expect(note).to_contain_text("One gift type: the Scribe has no choice")
    expect(note).to_contain_text("Blue holds senets only")
    to_top(page)
    assert in_window(note.bounding_box(), size)
    expect(banner).to_contain_text("Blue decides now")
    shot(page, "position", size)
    page.get_by_role("button", name=re.compile(r"Scribe")).first.click()
    forced = page.locator(".nefertiti-forced")
    expect(forced).to_contain_text("single option")
    expect(forced).to_contain_text("Blue holds a single gift type, so the Scribe scores senets")
    expect(forced).to_contain_text(re.compile(r"Blue scores \d+ with the Scribe"))
    expect(last).to_contain_text("recruit the Scribe")
    to_top(page)
    for what, locator in (("board", board), ("Place", place), ("last step", last)):
        box = locator.bounding_box()
        assert box is not None and in_window(box, size), f"{what} not in view at {size}: {box}"
    assert rows(page, "board-servants") == 0
    assert_board_whole(page)
    shot(page, "forced", size)
