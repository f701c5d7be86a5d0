"""The board by keyboard in a browser test: what has the focus (through the shadow roots Panel
and Bokeh draw in), pressing a key until the focus is where a test wants it, and an exercise
answered on its board with the keyboard alone (Tab to the board, arrows, Enter), as a learner
who uses no mouse answers it, its verdict then in the card's live region. Used by test_keyboard_board.py, test_tutorial_in_jupyterlab.py
and test_voila.py (widgets/game/board_keys.py is the grid they drive)."""

from __future__ import annotations

from playwright.sync_api import expect

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import Exercise
from nefertiti_core.teaching.board_words import chosen_square_words, square_words
from widgets.game import geometry as G

MOST_KEYS = 120  # Tab presses to reach a control (a bound, so a lost focus fails)

#: The focused element, through the shadow roots Panel and Bokeh draw in: its role and name.
FOCUSED_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el) return null;
  return {role: el.getAttribute("role") || el.tagName.toLowerCase(),
          name: el.getAttribute("aria-label") || el.textContent.trim()};
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED_JS) or {"role": "", "name": ""}


def press_until(page, key: str, test, most: int = MOST_KEYS, what: str = "") -> dict:
    """Press ``key`` until the focused element passes ``test`` (``what``: it, in words); fail
    after ``most`` presses."""
    seen = []
    for _ in range(most):
        page.keyboard.press(key)
        now = focused(page)
        if test(now):
            return now
        seen.append(now["name"][:40])
    raise AssertionError(f"{key} never reached {what or 'it'}; focus went through: {seen[-12:]}")


def on_board(now: dict) -> bool:
    return now["role"] == "gridcell"


def answer_by_keyboard(page, block, ex: Exercise, market: int, index: int, lang: str) -> str:
    """Answer the square exercise in ``block`` (its card in the page) with the keyboard alone:
    the focus on the card's button before its board ("Start the position again"), Tab onto the
    board's grid (named for answering, in ``lang``), the arrow keys to the square (each square
    named in ``lang``: checked on the way in and at the target), Enter; the card's live line
    then says the square chosen, and the card's verdict region (a polite status, in the page
    before the answer: widgets/game/live_verdict.py) holds the engine's verdict in ``lang``, what
    a screen reader announces. Returns the live line's words."""
    state = ex.state()
    grid = block.get_by_role("grid", name=tr(lang, "keys.board.answer"), exact=True)
    expect(grid).to_have_count(1)
    block.locator(".exercise-reset button").focus()
    now = press_until(page, "Tab", on_board, 10, what="the exercise's board")
    first = square_words(state, 0, 0, lang, hints=False)  # an exercise's board shows no hints
    assert now["name"] == first, now
    target = square_words(state, market, index, lang, hints=False)
    # down through the rows into the market, then along its rows to the square
    cells = G.squares(state.side)
    names = {
        square_words(state, c.market, c.index, lang, hints=False)
        for c in cells
        if c.market == market
    }
    if now["name"] not in names:
        press_until(page, "ArrowDown", lambda f: f["name"] in names, len(cells), what="the market")
    if focused(page)["name"] != target:
        press_until(page, "ArrowRight", lambda f: f["name"] == target, 2 * len(cells), what=target)
    expect(block.get_by_role("gridcell", name=target, exact=True)).to_be_focused()
    regions = block.locator(".exercise-verdict-live").get_by_role("status")
    expect(regions.first).to_be_attached()  # there before the verdict, to be announced
    page.keyboard.press("Enter")
    said = tr(
        lang, "exercise.card.your_square", square=chosen_square_words(state, market, index, lang)
    )
    expect(block.get_by_role("status").filter(has_text=said)).to_have_count(1)
    verdict = ex.check((market, index), lang).explanation
    region = regions.filter(has_text=verdict)
    expect(region).to_have_count(1)
    expect(region).to_have_text(verdict)
    expect(region).to_have_attribute("aria-live", "polite")
    return said
