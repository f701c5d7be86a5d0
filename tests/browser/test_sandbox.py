"""The served Sandbox in Chromium, as a teacher uses it: clicks on the board, the decision panel's
buttons, the views below the board (characters, scores, timeline, files) and the language.

One server for the module; every test opens its own browser context (a new Bokeh session, so a
new game): nothing leaks from one test into the next. Waits poll the browser's Bokeh models
(``wait_for_function``) or use ``expect``; the sleeps are a person's pauses between placements
and the holds of one test's presses. Chromium missing is a failure, not a skip.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from english_words import english_sentences
from playwright.sync_api import expect
from support import ARTIFACTS, LOAD_MS, SOURCE, STEP_MS, canvas_point, rows, source, wait_rows

from nefertiti_core import new_game
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets.game import geometry as G

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "nefertiti_core" / "scenarios"
BETWEEN_CLICKS = 0.35  # a person's pause between two placements
expect.set_options(timeout=STEP_MS)  # the default 5 s is short on a busy 2-core machine

#: A position file with a typo in a colour (line 4: the second player's).
BAD_COLOUR = "nefertiti: 1\nplayers:\n- {colour: red}\n- {colour: blu}\n- {colour: green}\n"
#: A game record whose first move is mistyped ("plaec" for "place").
MISTYPED_MOVE = (
    "nefertiti_record: 1\nstart:\n  nefertiti: 1\n  players:\n  - {colour: red}\n"
    "  - {colour: blue}\n  - {colour: green}\nmoves: ['plaec gizeh.left#1']\n"
)

# The first-game layout (R2.8): every market on its left stall, Louqsor closed; Blue starts.
START = new_game(4, 0)
CELLS = G.squares(START.side)


def cell(market: int, index: int) -> G.SquareCell:
    return next(c for c in CELLS if c.market == market and c.index == index)


# --- reading the browser's Bokeh document (what is drawn): support.SOURCE, rows, wait_rows ---
def wait_texts(page, needle: str, timeout: int = STEP_MS) -> None:
    """Wait until one of the board's texts contains ``needle``."""
    page.wait_for_function(
        f"""(needle) => {{ const d = ({SOURCE})("board-texts");
            return !!d && d.text.some((t) => t.includes(needle)); }}""",
        arg=needle,
        polling=5,
        timeout=timeout,
    )


def wait_column(page, name: str, column: str, expected: list, timeout: int = STEP_MS) -> None:
    page.wait_for_function(
        f"""([name, column, expected]) => {{ const d = ({SOURCE})(name);
            return !!d && JSON.stringify(d[column]) === JSON.stringify(expected); }}""",
        arg=[name, column, expected],
        polling=5,
        timeout=timeout,
    )


# --- the Sandbox, Chromium and a page on it: conftest.py (sandbox_url, chromium, page) ------
def click_square(page, square: G.SquareCell) -> None:
    page.mouse.click(*canvas_point(page, square.x, square.y, G.WIDTH, G.HEIGHT))


def place(page, square: G.SquareCell) -> None:
    """Click an empty square and wait until its servant is drawn."""
    before = rows(page, "board-servants")
    click_square(page, square)
    wait_rows(page, "board-servants", f"n === {before + 1}")
    time.sleep(BETWEEN_CLICKS)


def view(page, name: str) -> None:
    """Show one of the views below the board (the row of buttons under it)."""
    page.get_by_role("button", name=name, exact=True).click()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"sandbox-{name}.png"
    page.screenshot(path=str(path))
    return path


def decision_button(page, label: str):
    """The decision panel's visible option button whose label starts with ``label``."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(label)))


def load_scenario(page, file_name: str) -> None:
    view(page, "New game and files")
    page.locator("input[type=file]").set_input_files(str(SCENARIOS / file_name))
    expect(page.get_by_text(f"Loaded {file_name}", exact=False)).to_be_visible()


# --- the tests -------------------------------------------------------------------------------
def test_a_click_on_a_square_draws_the_servant_and_the_next_player_decides(page):
    assert rows(page, "board-servants") == 0
    square = cell(R.GIZEH, 0)
    click_square(page, square)
    wait_rows(page, "board-servants", "n === 1", timeout=LOAD_MS)  # the first click can be slow
    servants = source(page, "board-servants")
    assert (servants["x"], servants["y"], servants["who"]) == ([square.x], [square.y], ["blue"])
    expect(page.get_by_text("Black decides now")).to_be_visible()
    expect(page.get_by_text("Blue decides now")).to_have_count(0)
    screenshot(page, "placement")


def test_a_press_draws_the_servant_and_only_a_release_on_the_same_square_plays_it(page):
    """CLICKS_JS: the servant shows while the button is still down; a release on another square
    takes it back and plays nothing; a slow press (Bokeh's Tap gave up after 0.3 s) and two
    quick clicks (Bokeh's DoubleTap) are clicks like any other."""
    first, other = cell(R.GIZEH, 0), cell(R.GIZEH, 3)
    page.mouse.move(*canvas_point(page, first.x, first.y, G.WIDTH, G.HEIGHT))
    # the square's note beside the pointer (HOVER_JS)
    page.wait_for_function(
        """() => { for (const d of Bokeh.documents) { const m = d.get_model_by_name("board-hover");
            if (m) return m.visible && m.text.startsWith("The 1"); } return false; }"""
    )
    page.mouse.down()
    wait_rows(page, "board-servants", "n === 1", timeout=LOAD_MS)  # drawn before the release
    assert source(page, "board-servants")["who"] == ["blue"]
    page.mouse.move(*canvas_point(page, other.x, other.y, G.WIDTH, G.HEIGHT), steps=4)
    page.mouse.up()
    wait_rows(page, "board-servants", "n === 0")  # taken back
    time.sleep(1.0)  # the server had time to play it, had it been sent
    expect(page.get_by_text("Blue decides now")).to_be_visible()
    assert rows(page, "board-servants") == 0

    page.mouse.move(*canvas_point(page, other.x, other.y, G.WIDTH, G.HEIGHT))
    page.mouse.down()
    time.sleep(0.8)  # a slow press
    page.mouse.up()
    expect(page.get_by_text("Black decides now")).to_be_visible()
    servants = source(page, "board-servants")
    assert (servants["x"], servants["y"], servants["who"]) == ([other.x], [other.y], ["blue"])

    # two clicks 50 ms apart, by Black then Green (hot seat): both are played
    for square in (cell(R.ABOU_SIMBEL, 0), cell(R.ABOU_SIMBEL, 1)):
        page.mouse.click(*canvas_point(page, square.x, square.y, G.WIDTH, G.HEIGHT))
        time.sleep(0.05)
    wait_rows(page, "board-servants", "n === 3")
    expect(page.get_by_text("Red decides now")).to_be_visible()
    assert sorted(source(page, "board-servants")["who"]) == ["black", "blue", "green"]


def test_a_market_closes_and_its_resolution_is_clicked_through(page):
    # Abou Simbel's left stall closes on exactly 11, 14 or 17 (R3.5): 8 + 2 + 1 = 11, placed
    # by Blue, Black and Green (hot seat: each click is the next player's placement).
    def closed_text_x():
        texts = source(page, "board-texts")
        return [x for x, t in zip(texts["x"], texts["text"], strict=True) if t == "MARKET CLOSED"]

    louqsor_x = G.status_xy(R.LOUQSOR)[0]
    abou_x = G.status_xy(R.ABOU_SIMBEL)[0]
    assert closed_text_x() == [pytest.approx(louqsor_x)]
    cards_before = rows(page, "board-cards")
    for index in (6, 2):  # 8, then 2 (Deben)
        place(page, cell(R.ABOU_SIMBEL, index))
    click_square(page, cell(R.ABOU_SIMBEL, 0))  # 1: the sum is 11, the market closes
    # Its resolution starts at once: Blue (8) takes cards, then Black (2) and Green (1) bid.
    expect(page.get_by_text("Blue decides now")).to_be_visible()
    assert rows(page, "board-servants") == 3
    screenshot(page, "market-closing")

    decision_button(page, "Take the upper card").click()
    expect(page.get_by_text("Black decides now")).to_be_visible()
    # Black buys lower card 1 by clicking the card on the board (CLICKS_JS sends a click off
    # the squares too; the server turns it into "buy lower1")
    card = next(c for c in G.cards() if c.market == R.ABOU_SIMBEL and c.slot == 1)
    page.mouse.click(*canvas_point(page, card.x, card.y, G.WIDTH, G.HEIGHT))
    expect(page.get_by_text("Green decides now")).to_be_visible()
    decision_button(page, "Take half the reserve").click()

    # Closed: the servants went home, the tile moved to Abou Simbel, Louqsor opened.
    wait_rows(page, "board-servants", "n === 0")
    expect(page.get_by_text("Red decides now")).to_be_visible()
    page.wait_for_function(
        f"""([x]) => {{ const d = ({SOURCE})("board-texts");
            return d.text.some((t, i) => t === "MARKET CLOSED" && Math.abs(d.x[i] - x) < 1e-6); }}""",
        arg=[abou_x],
        polling=5,
    )
    assert closed_text_x() == [pytest.approx(abou_x)]
    cards = source(page, "board-cards")
    louqsor = [
        (x, y)
        for x, y in zip(cards["x"], cards["y"], strict=True)
        if x > G.REGION_W and y < G.REGION_H
    ]
    assert len(louqsor) == 4  # its four cards are dealt
    # Abou Simbel lost the two cards taken and bought (Green took half the reserve instead);
    # Louqsor gained four.
    assert len(cards["x"]) == cards_before - 2 + 4
    screenshot(page, "market-closed")


def test_recruiting_the_scribe_and_the_royal_servant_changes_the_scores(page):
    # The Scribe (R10.7): Blue holds 4 senets, worth 5 each with two holders, +2: 28.
    load_scenario(page, "scribe.yaml")
    expect(page.get_by_text("Blue decides now")).to_be_visible()
    view(page, "Scores")
    wait_column(page, "scores-prestige", "top", [0, 0, 0, 0])
    view(page, "Characters")
    recruit = page.get_by_role("button", name="Recruit", exact=True)
    expect(recruit).to_have_count(len(R.PILES))
    scribe = recruit.nth(R.PILES.index("scribe"))
    expect(scribe).to_be_enabled()
    scribe.click()
    decision_button(page, "Score your 4 senets").click()
    view(page, "Scores")
    wait_column(page, "scores-prestige", "top", [0, 0, 28, 0])
    screenshot(page, "scribe")

    # The Royal Servant (R10.6): three players hold chairs (worth 5); each scores 5.
    load_scenario(page, "royal-servant.yaml")
    expect(page.get_by_text("Green decides now")).to_be_visible()
    view(page, "Scores")
    wait_column(page, "scores-prestige", "top", [0, 0, 0, 0])
    view(page, "Characters")
    royal = recruit.nth(R.PILES.index("royal_servant"))
    expect(royal).to_be_enabled()
    royal.click()
    decision_button(page, "Name chairs").click()
    view(page, "Scores")
    wait_column(page, "scores-prestige", "top", [5, 5, 5, 0])
    screenshot(page, "royal-servant")


def test_undo_in_the_timeline_takes_the_servant_back(page):
    place(page, cell(R.AKHET_ATON, 0))
    expect(page.get_by_text("Black decides now")).to_be_visible()
    view(page, "Timeline")
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_enabled()
    undo.click()
    wait_rows(page, "board-servants", "n === 0")
    expect(page.get_by_text("Blue decides now")).to_be_visible()
    expect(undo).to_be_disabled()  # back at the start: nothing left to undo
    screenshot(page, "undo")


def test_switching_the_language_relabels_the_board_and_the_panels(page, tmp_path):
    page.get_by_role("button", name="Deutsch", exact=True).click()
    wait_texts(page, "Vorrat")
    expect(page.get_by_role("button", name="Ausspielen", exact=True).first).to_be_visible()
    expect(page.get_by_role("button", name="Einsetzen", exact=True)).to_be_visible()
    expect(page.get_by_text("Blau entscheidet jetzt")).to_be_visible()
    screenshot(page, "deutsch")

    # A German teacher's file with a typo: refused in German, naming the file, line and field.
    bad = tmp_path / "tippfehler.yaml"
    bad.write_text(BAD_COLOUR, encoding="utf-8")
    view(page, "Neues Spiel und Dateien")
    page.locator("input[type=file]").set_input_files(str(bad))
    # said twice: as the file's status and as the decision panel's error
    refusal = page.get_by_text("tippfehler.yaml: Zeile 4: players.1.colour:", exact=False).first
    expect(refusal).to_be_visible()
    said = refusal.inner_text()
    assert "die Farbe 'blu' gibt es nicht (meintest du 'blue'?)" in said, said
    assert english_sentences(said) == [], said
    expect(page.get_by_text("Blau entscheidet jetzt")).to_be_visible()  # the game as it was
    size = page.viewport_size
    page.set_viewport_size({"width": 1024, "height": 768})  # as on a classroom's projector
    refusal.scroll_into_view_if_needed()
    # on the projector the refusal is whole in the window, and still the German one
    box = refusal.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1024, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    expect(refusal).to_have_text(said)
    screenshot(page, "bad-file-deutsch")
    page.set_viewport_size(size)
    # A YAML syntax error (a tab in the indentation) is said in German too, with its line.
    tab = tmp_path / "tabulator.yaml"
    tab.write_text("nefertiti: 1\nplayers:\n\t- {colour: red}\n", encoding="utf-8")
    page.locator("input[type=file]").set_input_files(str(tab))
    syntax = page.get_by_text("tabulator.yaml: Zeile 3:", exact=False).first
    expect(syntax).to_contain_text("rücke mit Leerzeichen ein, nicht mit Tabulatoren")
    assert "indent with spaces" not in syntax.inner_text()
    screenshot(page, "yaml-error-deutsch")
    # A game record with a mistyped move: said in German, with the option meant.
    record = tmp_path / "partie.yaml"
    record.write_text(MISTYPED_MOVE, encoding="utf-8")
    page.locator("input[type=file]").set_input_files(str(record))
    move = page.get_by_text("partie.yaml: moves.0:", exact=False).first
    expect(move).to_contain_text("ist kein Zug in der Zugschreibweise (meintest du 'place gizeh")
    assert english_sentences(move.inner_text()) == [], move.inner_text()
    page.set_viewport_size({"width": 1024, "height": 768})
    move.scroll_into_view_if_needed()
    screenshot(page, "mistyped-move-deutsch")
    page.set_viewport_size(size)
    view(page, "Personenkarten")  # back to the characters, whose buttons are checked below

    page.get_by_role("button", name="中文", exact=True).click()
    wait_texts(page, "储备")
    expect(page.get_by_role("button", name="雇佣", exact=True).first).to_be_visible()
    expect(page.get_by_role("button", name="放置", exact=True)).to_be_visible()
    texts = source(page, "board-texts")["text"]
    assert not any("Vorrat" in t or "Reserve" in t for t in texts)
    screenshot(page, "chinese")
    # the same two files refused in Chinese: the tab, then the mistyped move with the one meant
    view(page, tr("zh", "panel.view.setup"))
    page.locator("input[type=file]").set_input_files(str(tab))
    syntax = page.get_by_text("tabulator.yaml", exact=False).filter(has_text=tr("zh", "yaml.tabs"))
    expect(syntax.first).to_be_visible()
    assert english_sentences(syntax.first.inner_text()) == [], syntax.first.inner_text()
    page.locator("input[type=file]").set_input_files(str(record))
    said = tr("zh", "notation.not_option_near", move="'plaec gizeh.left#1'", near="'place gizeh")
    # "'plaec gizeh.left#1' 不是记谱中的着法（你是不是想写 'place gizeh"
    meant = said[: said.index("'place gizeh") + len("'place gizeh")]
    move = page.get_by_text("partie.yaml", exact=False).filter(has_text=meant).first
    expect(move).to_be_visible()
    assert english_sentences(move.inner_text()) == [], move.inner_text()
    page.set_viewport_size({"width": 1024, "height": 768})
    move.scroll_into_view_if_needed()
    screenshot(page, "mistyped-move-chinese")
    page.set_viewport_size(size)


@pytest.mark.parametrize("width", [1500, 1000, 800])
def test_the_sandbox_fits_its_width_beside_or_below_the_board(chromium, sandbox_url, width):
    """From a 1024-pixel projector up (#16 item 1): the decision beside the board. Narrower (a
    notebook's column, a small window): one column, the decision below the board, nothing cut
    off at the right."""
    context = chromium.new_context(viewport={"width": width, "height": 1100})
    try:
        check_fits(context.new_page(), sandbox_url, width)
    finally:
        context.close()


def check_fits(page, sandbox_url: str, width: int) -> None:
    page.goto(sandbox_url, timeout=LOAD_MS)
    board = page.locator(".bk-Canvas").first
    board.wait_for(timeout=LOAD_MS)
    expect(page.get_by_text("Blue decides now")).to_be_visible(timeout=LOAD_MS)
    decider = page.get_by_text("Turn 1: Blue's turn")  # the decision panel's first line
    place_button = page.get_by_role("button", name="Place", exact=True)
    board_box, decider_box = board.bounding_box(), decider.bounding_box()
    button_box = place_button.bounding_box()
    if width >= 1000:
        assert decider_box["x"] >= board_box["x"] + board_box["width"]
        assert decider_box["y"] < board_box["y"] + board_box["height"]
    else:
        assert decider_box["y"] >= board_box["y"] + board_box["height"]
    assert button_box["x"] + button_box["width"] <= width  # the decision's button is all there
    page_width = page.evaluate("() => document.documentElement.scrollWidth")
    assert page_width <= width, f"the page is {page_width} px wide in a {width} px window"
    page.screenshot(path=str(ARTIFACTS / f"sandbox-width-{width}.png"), full_page=True)


@pytest.mark.parametrize("button, lang", [("Deutsch", "de"), ("中文", "zh")])
def test_a_refused_click_is_told_in_the_pages_language_with_the_options_in_words(
    page, button, lang
):
    """Black clicks the square Blue has just taken: the page says why in German (Chinese), and
    names what Black may do in words, never in the command line's notation."""
    from nefertiti_core.engine import options as O
    from nefertiti_core.teaching.refusal import refusal

    page.get_by_role("button", name=button, exact=True).click()
    square = cell(R.GIZEH, 0)
    place(page, square)  # Blue's servant
    click_square(page, square)  # Black, on the same square
    state = new_game(4, 0)
    state.apply(square.option)
    told, _rule = refusal(state, square.option, lang)
    shown = page.get_by_text(told[:24])
    expect(shown).to_be_visible()
    text = shown.inner_text()
    notation = {state.option_text(o) for o in range(len(O.OPTION_KIND))}
    assert not [n for n in notation if (" " in n or "#" in n) and n in text], text
    assert rows(page, "board-servants") == 1  # nothing played
    screenshot(page, f"refused-{lang}")
