"""A first game played to its end in the served Sandbox, as a learner plays it: three players
(the fewest the rules allow, R1.1: the shortest real game), Green the learner and Red and Blue
bots with random moves; Green makes every one of their own decisions through the page's
decision panel (the "Place" button for a placement, an option's button for every other step),
the bots answer on their own, and the game goes on until it is over.

The learner changes the page's language mid-game: the game starts in English, goes on in German
from Green's :data:`SWITCHES` decision on and ends in Chinese; at each switch the decision panel
speaks the new language and the game survives it (the same servants on the board, the same
player to decide). The final scoring is read in Chinese (the winner's sentence, each player's
total, the players' panel's final scores), then again in English and in German.

Each step is event-driven: after Green's click the test waits until the decision panel says
something else (the server took the step), then until Green decides again or the game is over.
The final scoring is screenshotted (tests/browser/artifacts/first-game-final*.png).
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from support import ARTIFACTS, STEP_MS, rows, wait_rows

from nefertiti_core.engine.i18n import tr

VIEWPORT = {"width": 1500, "height": 1150}
expect.set_options(timeout=STEP_MS)

#: Green's own decisions in a three-player game: about 30 (placements, bids, cards); a game that
#: never ends within this many fails the test instead of running on.
MAX_DECISIONS = 120
#: The page's language from Green's n-th decision on (English before the first).
SWITCHES = {6: "de", 16: "zh"}


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


def _play_one_decision(page, lang: str) -> str:
    """Green's decision, through the page in ``lang``: "Place" (the placement chosen in the
    drop-down) when Green places, otherwise the first option's button. Returns what was
    pressed ("place" or the option's label)."""
    place = page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True)
    if place.is_visible():
        place.click()
        return "place"
    option = page.locator(".decision-option >> visible=true").first
    label = option.inner_text()
    option.click()
    return label


def _green_and_over(page, lang: str):
    """Locators of "Green decides now" and "The game is over." in ``lang``."""
    green = tr(lang, "panel.decision.decides", player=tr(lang, "colour.green"))
    over = tr(lang, "panel.decision.over")
    return page.get_by_text(green, exact=True), page.get_by_text(over, exact=True)


def _switch(page, lang: str, before: str) -> None:
    """Change the page's language to ``lang`` (its button on the page) and check the game
    survived it: the decision panel speaks ``lang`` (the old language's "decides now" gone),
    the same servants are on the board."""
    servants = rows(page, "board-servants")
    page.get_by_role("button", name=tr(lang, f"panel.lang.{lang}"), exact=True).click()
    green, over = _green_and_over(page, lang)
    expect(green.or_(over).first).to_be_visible()
    expect(_green_and_over(page, before)[0]).to_have_count(0)
    wait_rows(page, "board-servants", f"n === {servants}")  # the switch kept the board
    if green.first.is_visible():  # a placement's button or an option, in the new language
        place = page.get_by_role("button", name=tr(lang, "panel.decision.place"), exact=True)
        expect(place.or_(page.locator(".decision-option >> visible=true")).first).to_be_visible()


def _pattern(lang: str, key: str, **groups: str) -> re.Pattern:
    """The message ``key`` in ``lang`` as a whole-text pattern, each placeholder a group."""
    marks = {name: f"\x00{name}\x00" for name in groups}
    text = re.escape(tr(lang, key, **marks))
    for name, group in groups.items():
        text = text.replace(re.escape(marks[name]), group)
    return re.compile(f"^{text}$")


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

    lang = "en"
    green, over = _green_and_over(page, lang)
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
        if len(pressed) in SWITCHES:  # the learner changes the page's language mid-game
            _switch(page, SWITCHES[len(pressed)], lang)
            lang = SWITCHES[len(pressed)]
            green, over = _green_and_over(page, lang)
        before = _who_text(page)
        pressed.append(_play_one_decision(page, lang))
        # the server took the step (the panel says something else), then the bots played on
        _wait_for_a_change(page, before)
        expect(green.or_(over).first).to_be_visible()

    # the final scoring, read in Chinese: the winner's sentence, every total, the final scores
    assert pressed.count("place") >= 8, pressed  # Green's servants went out, turn after turn
    assert lang == "zh", f"the game ended after {len(pressed)} decisions, before the switches"
    colours = {tr("zh", f"colour.{c}"): c for c in ("green", "red", "blue")}
    names = "|".join(colours)
    winner_zh = page.get_by_text(_pattern("zh", "score.winner", player=f"({names})", points=r"\d+"))
    tied = dict(players=".+", tied=".+", player=f"({names})", others=".+", points=r"\d+")
    ties = [
        _pattern("zh", f"score.winner.{how}", deben=r"\d+", **tied).pattern
        for how in ("tiebreak", "shared", "shared_some")
    ]
    tie_zh = page.get_by_text(re.compile("|".join(f"(?:{tie})" for tie in ties)))
    expect(winner_zh.or_(tie_zh).first).to_be_visible()
    for chinese in colours:
        total = _pattern("zh", "score.total", player=re.escape(chinese), total=r"\d+")
        expect(page.get_by_text(total).first).to_be_visible()
    finals_zh = page.get_by_text(_pattern("zh", "panel.players.final", total=r"\d+"))
    expect(finals_zh.nth(2)).to_be_attached()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "first-game-final-zh.png"), full_page=True)
    said_zh = winner_zh.first.inner_text() if winner_zh.count() else ""

    # then in English: the winner is the best total
    _switch(page, "en", "zh")
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
        # the Chinese page named the same winner with the same points
        chinese = tr("zh", f"colour.{name.lower()}")
        assert said_zh == tr("zh", "score.winner", player=chinese, points=best), said_zh
    took = time.monotonic() - started
    print(
        f"\nGreen's decisions: {len(pressed)} ({pressed.count('place')} placements) in {took:.0f} s"
    )
    print(said)
    winner.or_(tie).first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "first-game-final.png"), full_page=True)

    # and in German: the page's language reaches the final scoring
    _switch(page, "de", "en")
    expect(page.get_by_text(tr("de", "panel.decision.over"), exact=True).first).to_be_visible()
    for total in totals.values():
        final = tr("de", "panel.players.final", total=total)
        expect(page.get_by_text(final, exact=True).first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "first-game-final-de.png"), full_page=True)
