"""The served Sandbox with a bot seat, hints and odds, in Chromium: Black is made a greedy bot in
the seat menu, Blue's (human) click on the board is answered by Black's own placement, "Hint"
shows Green's options ranked with a "Play this" button each, and the Odds view plays the game
out 50 times with random bots and draws the histogram of final scores.

One server for the module, a new browser context (a new game) for the test (conftest.py).
Chromium missing is a failure, not a skip (support.require_chromium).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from support import ARTIFACTS, LOAD_MS, STEP_MS, canvas_point, rows, wait_rows

from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from widgets.game import geometry as G

expect.set_options(timeout=STEP_MS)

VIEWPORT = {"width": 1500, "height": 1400}  # conftest.page: the odds view under the board


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bots-{name}.png"), full_page=True)


def test_a_greedy_seat_answers_hints_rank_and_odds_draw_a_histogram(page):
    # Black (seat 3) becomes a greedy bot: the seat menus are in "New game and files".
    page.get_by_role("button", name="New game and files", exact=True).click()
    page.get_by_label("Black", exact=True).select_option(label=tr("en", "panel.seat.greedy"))
    expect(page.get_by_text("Black is played by a bot", exact=False)).to_have_count(0)
    # the players' panel shows the seat's new badge once the server has taken the change
    expect(page.locator("text=Bot: greedy >> visible=true").first).to_be_visible()

    # Blue (human) places on Gizeh; Black's greedy bot answers on its own, a moment later.
    square = next(c for c in G.squares((0, 0, 0, 0)) if c.market == R.GIZEH and c.index == 0)
    page.mouse.click(*canvas_point(page, square.x, square.y, G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", "n === 2", timeout=STEP_MS)  # Blue's servant and the bot's
    expect(page.get_by_text("Green decides now")).to_be_visible()
    screenshot(page, "greedy-moved")

    # Hint: Green's options ranked, each with "Play this".
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.get_by_text(re.compile(r"^1\. "))).to_be_visible()
    expect(page.get_by_text("Green's options, best first", exact=False)).to_be_visible()
    plays = page.get_by_role("button", name="Play this", exact=True)
    expect(plays.nth(2)).to_be_visible()  # at least three options ranked
    screenshot(page, "hints")

    # Odds: 50 playouts with random bots; the histogram appears.
    page.get_by_role("button", name="Odds", exact=True).click()
    page.get_by_label("Playouts", exact=True).select_option(label="50")
    page.get_by_label("Bots playing it out", exact=True).select_option(
        label=tr("en", "panel.seat.random")
    )
    page.get_by_role("button", name="Run", exact=True).click()
    wait_rows(page, "odds-hist-0", "n > 0", timeout=STEP_MS)
    expect(page.get_by_text("50 playouts (", exact=False)).to_be_visible()
    expect(page.get_by_text("Chance to win", exact=False)).to_be_visible()
    expect(page.get_by_text("Which market closes next", exact=False)).to_be_visible()
    assert all(rows(page, f"odds-hist-{seat}") > 0 for seat in range(4))
    page.get_by_text("Which market closes next", exact=False).scroll_into_view_if_needed()
    screenshot(page, "odds")
    # Run again, greedy bots this time: on the worker processes the first run left (odds.POOLS)
    page.get_by_label("Bots playing it out", exact=True).select_option(
        label=tr("en", "panel.seat.greedy")
    )
    page.get_by_role("button", name="Run", exact=True).click()
    expect(
        page.get_by_text(f"50 playouts ({tr('en', 'panel.seat.greedy')}", exact=False)
    ).to_be_visible(timeout=LOAD_MS)


def test_an_mcts_seat_answers_within_its_second(page):
    """The seat menu's strongest kind, mcts (OpenSpiel's ISMCTS, ``MCTS_SECONDS`` a decision):
    Black made an mcts bot answers Blue's placement with one of its own, and play passes on."""
    page.get_by_role("button", name="New game and files", exact=True).click()
    mcts = tr("en", "panel.seat.mcts")
    page.get_by_label("Black", exact=True).select_option(label=mcts)
    # the players' panel shows the seat's new badge once the server has taken the change
    expect(page.locator(f"text={mcts} >> visible=true").first).to_be_visible()

    square = next(c for c in G.squares((0, 0, 0, 0)) if c.market == R.GIZEH and c.index == 0)
    page.mouse.click(*canvas_point(page, square.x, square.y, G.WIDTH, G.HEIGHT))
    wait_rows(page, "board-servants", "n === 2", timeout=STEP_MS)  # Blue's servant and the bot's
    expect(page.get_by_text("Green decides now")).to_be_visible()
    screenshot(page, "mcts-moved")


def _run_odds(page, playouts: str, bots: str) -> None:
    page.get_by_role("button", name="Odds", exact=True).click()
    page.get_by_label("Playouts", exact=True).select_option(label=playouts)
    page.get_by_label("Bots playing it out", exact=True).select_option(
        label=tr("en", f"panel.seat.{bots}")
    )
    page.get_by_role("button", name="Run", exact=True).click()


#: The second learner's short run, answered between the first's long run's chunks.
SHARED_MS = 180_000


def test_two_learners_odds_at_once_take_turns_on_the_workers(chromium, page, sandbox_url):
    """Two devices on one server: a long run (5000 greedy playouts) is under way on the first
    when the second asks for 50 random ones; the second's answer comes while the first is still
    counting (the kept workers are shared chunk by chunk), and the first can still be cancelled."""
    _run_odds(page, "5000", "greedy")
    running = page.get_by_text(re.compile(r"^[1-9]\d* of 5000 playouts"))
    expect(running).to_be_visible()
    other = chromium.new_context(viewport=VIEWPORT)
    try:
        second = other.new_page()
        second.goto(sandbox_url, timeout=STEP_MS)
        wait_rows(second, "board-squares", "n > 0", timeout=STEP_MS)
        _run_odds(second, "50", "random")
        # shared workers on a busy 2-core machine (load 10: over 30 s seen): a generous wait
        expect(second.get_by_text("50 playouts (", exact=False)).to_be_visible(timeout=SHARED_MS)
        wait_rows(second, "odds-hist-0", "n > 0", timeout=SHARED_MS)
    finally:
        other.close()
    expect(running).to_be_visible()  # the long run still counting
    page.get_by_role("button", name="Cancel", exact=True).click()
    expect(page.get_by_text(re.compile(r"^Cancelled: \d+ of 5000"))).to_be_visible()
