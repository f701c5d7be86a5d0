"""A first game played to its end in the served Sandbox, as a learner plays it: three players
(the fewest the rules allow, R1.1: the shortest real game), Green the learner and Red and Blue
bots with random moves; Green makes every one of their own decisions through the page's
decision panel (the "Place" button for a placement, an option's button for every other step),
the bots answer on their own, and the game goes on until it is over. The final scoring is then
shown and read: the winner's sentence, each player's total, and the players' panel's final
scores, then again in German and in Chinese.

Each step is event-driven: after Green's click the test waits until the decision panel says
something else (the server took the step), then until Green decides again or the game is over.
The final scoring is screenshotted (tests/browser/artifacts/first-game-final.png).
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from support import ARTIFACTS

from nefertiti_core.engine.i18n import tr

STEP_MS = 60_000  # a bot's move and the page's update on a busy 2-core machine
VIEWPORT = {"width": 1500, "height": 1150}
expect.set_options(timeout=STEP_MS)

#: Green's own decisions in a three-player game: about 30 (placements, bids, cards); a game that
#: never ends within this many fails the test instead of running on.
MAX_DECISIONS = 120


#: The decision panel's "who decides and why" (turn, decider, reason, bid queue), read through
#: the shadow roots Panel renders into.
WHO_JS = """() => {
  const find = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.classList && el.classList.contains('decision-who')) return el;
      if (el.shadowRoot) { const found = find(el.shadowRoot); if (found) return found; }
    }
    return null;
  };
  const host = find(document);
  return host ? (host.shadowRoot || host).textContent : null;
}"""


def _who_text(page) -> str:
    return page.evaluate(WHO_JS)


def _wait_for_a_change(page, before: str) -> None:
    """Until the panel says something else: the server has taken the step."""
    page.wait_for_function(
        f"(before) => {{ const now = ({WHO_JS})(); return now !== null && now !== before; }}",
        arg=before,
        polling=50,
        timeout=STEP_MS,
    )


def _play_one_decision(page) -> str:
    """Green's decision, through the page: "Place" (the placement chosen in the drop-down) when
    Green places, otherwise the first option's button. Returns what was pressed."""
    place = page.get_by_role("button", name=tr("en", "panel.decision.place"), exact=True)
    if place.is_visible():
        place.click()
        return "place"
    option = page.locator(".decision-option >> visible=true").first
    label = option.inner_text()
    option.click()
    return label


def test_a_learner_plays_a_first_game_against_two_bots_to_the_final_scoring(page):
    # a new three-player game, dealt from a fixed seed, Red and Blue played by bots
    page.get_by_role("button", name="New game and files", exact=True).click()
    page.get_by_label(tr("en", "panel.setup.players"), exact=True).select_option("3")
    page.get_by_label(tr("en", "panel.setup.seed"), exact=True).fill("7")
    page.get_by_role("button", name=tr("en", "panel.setup.start"), exact=True).click()
    expect(page.get_by_label("Black", exact=True)).to_be_hidden()  # three seats now
    random_bot = tr("en", "panel.seat.random")
    for colour in ("Red", "Blue"):
        page.get_by_label(colour, exact=True).select_option(label=random_bot)

    green = page.get_by_text("Green decides now", exact=True)
    over = page.get_by_text(tr("en", "panel.decision.over"), exact=True)
    pressed: list[str] = []
    started = time.monotonic()  # reported, never asserted: the machine may be busy
    # a seat made a bot while it decides waits for "Let the bots play"; after that, bots move on
    # their own whenever play comes to them
    bots = page.get_by_role("button", name=tr("en", "panel.decision.bots"), exact=True)
    expect(green.or_(bots).first).to_be_visible()
    if not green.first.is_visible():
        bots.click()
    expect(green.or_(over).first).to_be_visible()
    while not over.first.is_visible():
        assert len(pressed) < MAX_DECISIONS, f"no end after {len(pressed)} decisions: {pressed}"
        before = _who_text(page)
        pressed.append(_play_one_decision(page))
        # the server took the step (the panel says something else), then the bots played on
        _wait_for_a_change(page, before)
        expect(green.or_(over).first).to_be_visible()

    # the final scoring, read: the winner's sentence, every player's total, the final scores
    assert pressed.count("place") >= 8, pressed  # Green's servants went out, turn after turn
    winner = page.get_by_text(re.compile(r"^(Green|Red|Blue) wins with \d+ points \(R9\.2\)\.$"))
    tie = page.get_by_text(re.compile(r"tie on \d+ points"))
    expect(winner.or_(tie).first).to_be_visible()
    for colour in ("Green", "Red", "Blue"):
        expect(page.get_by_text(re.compile(rf"^Total for {colour}: \d+$")).first).to_be_visible()
    finals = page.get_by_text(re.compile(r"^Final score: \d+ points$"))
    expect(finals.nth(2)).to_be_attached()  # one per player in the players' panel
    totals = {
        colour: int(
            page.get_by_text(re.compile(rf"^Total for {colour}: \d+$"))
            .first.inner_text()
            .rsplit(" ", 1)[1]
        )
        for colour in ("Green", "Red", "Blue")
    }
    said = winner.or_(tie).first.inner_text()
    best = max(totals.values())
    if winner.count():
        name = said.split(" ", 1)[0]
        assert totals[name] == best and f"with {best} points" in said, (totals, said)
    took = time.monotonic() - started
    print(
        f"\nGreen's decisions: {len(pressed)} ({pressed.count('place')} placements) in {took:.0f} s"
    )
    print(said)

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    winner.or_(tie).first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "first-game-final.png"), full_page=True)

    # the final scoring read in German and in Chinese: the page's language reaches it
    for lang, button in (("de", "Deutsch"), ("zh", "中文")):
        page.get_by_role("button", name=button, exact=True).click()
        expect(page.get_by_text(tr(lang, "panel.decision.over"), exact=True).first).to_be_visible()
        for total in totals.values():
            final = tr(lang, "panel.players.final", total=total)
            expect(page.get_by_text(final, exact=True).first).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / f"first-game-final-{lang}.png"), full_page=True)
