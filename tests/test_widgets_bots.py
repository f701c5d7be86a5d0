"""Bots, hints and odds in the widgets, without a browser: the session's bot seats (at once in a
notebook, one move at a time in the background when served), the HintsView and the OddsView.

A served app is imitated by a stand-in Bokeh document that records the callbacks the widgets
schedule (``add_timeout_callback``, ``add_next_tick_callback``); the test runs them as the server's
event loop would. Odds run in this process (``workers=1``) except where the pool is the point.
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import panel as pn
import pytest

from nefertiti_core.engine import options as O
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.scenario import load
from nefertiti_core.play.bots import bot_kinds
from nefertiti_core.play.hints import hints as engine_hints
from widgets import GameSession, HintsView, OddsView, Sandbox
from widgets.game import session as session_module
from widgets.game.odds import AS_IT_IS
from widgets.game.session import MCTS_SECONDS, SEAT_KINDS, make_seat_bot
from widgets.theme import PLAYER_COLOURS

SCENARIOS = Path(__file__).resolve().parents[1] / "nefertiti_core" / "scenarios"


def first_placement(state) -> int:
    return next(o for o in state.legal_options() if O.OPTION_KIND[o] == O.PLACE)


class FakeDocument:
    """Records what a served session's document would run later (thread-safe enough for tests)."""

    session_context = object()

    def __init__(self):
        self.timeouts = []
        self.ticks = []
        self.destroyed = []

    def on_session_destroyed(self, *callbacks):
        self.destroyed.extend(callbacks)

    def add_timeout_callback(self, callback, ms):
        self.timeouts.append((callback, ms))

    def add_next_tick_callback(self, callback):
        self.ticks.append(callback)

    def run_ticks(self) -> int:
        ran = 0
        while self.ticks:
            self.ticks.pop(0)()
            ran += 1
        return ran

    def wait_for_tick(self, timeout: float = 30.0) -> None:
        """Wait until a background thread has scheduled something for the next tick."""
        deadline = time.monotonic() + timeout
        while not self.ticks and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.ticks, "nothing arrived from the background thread"

    def run_timeouts(self) -> int:
        ran = 0
        while self.timeouts:
            callback, _ = self.timeouts.pop(0)
            callback()
            ran += 1
        return ran


@pytest.fixture()
def served(monkeypatch):
    """Imitate a served app: every widget module sees the stand-in document."""
    doc = FakeDocument()
    monkeypatch.setattr(session_module, "served_document", lambda: doc)
    import widgets.game.hints
    import widgets.game.odds

    monkeypatch.setattr(widgets.game.hints, "served_document", lambda: doc)
    monkeypatch.setattr(widgets.game.odds, "served_document", lambda: doc)
    return doc


# --- seats ----------------------------------------------------------------------------------------
def test_seat_kinds_are_human_and_every_bot_kind():
    assert SEAT_KINDS == ("human", *bot_kinds())
    assert {"random", "greedy", "mcts"} <= set(SEAT_KINDS)


def test_a_greedy_seat_moves_after_the_human_move_in_a_notebook():
    session = GameSession()
    state = session.state
    human = state.decider
    seats = ["human"] * 4
    seats[(human + 1) % 4] = "greedy"
    session.seats = seats
    step = session.history.step
    assert session.play(first_placement(state))
    assert session.history.step >= step + 2  # the human's placement and the greedy bot's
    assert not session.is_bot(session.state.decider)
    assert session.bot_for((human + 1) % 4).kind == "greedy"


def test_each_bot_seat_has_its_own_bot_and_a_seat_change_makes_new_ones():
    session = GameSession()
    session.seats = ["greedy", "random", "human", "human"]
    greedy, rnd = session.bot_for(0), session.bot_for(1)
    assert (greedy.kind, rnd.kind) == ("greedy", "random") and greedy is session.bot_for(0)
    session.seats = ["random", "random", "human", "human"]
    assert session.bot_for(0).kind == "random"


def test_an_mcts_seat_thinks_at_most_a_second():
    pytest.importorskip("pyspiel")
    bot = make_seat_bot("mcts", seed=0)
    assert bot.kind == "mcts" and bot.time_limit <= 1.0 == MCTS_SECONDS


def test_a_bot_that_cannot_be_made_is_an_error_on_the_page_not_an_exception(monkeypatch):
    def broken(kind, seed):
        raise ImportError("no module named pyspiel")

    monkeypatch.setattr(session_module, "make_seat_bot", broken)
    session = GameSession()
    seats = ["human"] * 4
    seats[session.state.decider] = "mcts"
    session.seats = seats
    assert session.run_bots() == 0
    assert "pyspiel" in session.error


# --- served: one bot move at a time -----------------------------------------------------------------
def test_served_bots_move_one_at_a_time_in_the_background(served):
    session = GameSession()
    human = session.state.decider
    session.seats = ["greedy" if seat != human else "human" for seat in range(4)]
    step = session.history.step
    assert session.play(first_placement(session.state))
    assert session.history.step == step + 1  # the human's move only: the bots have not moved
    assert session.is_bot(session.state.decider)
    assert len(served.timeouts) == 1 and served.timeouts[0][1] > 0
    served.run_ticks()  # the page's own update of the human's move
    moves = 0
    while session.is_bot(session.state.decider) and moves < 20:
        assert served.run_timeouts() == 1  # the pause, then the bot thinks in a thread ...
        assert session.bot_thinking == session.state.decider
        served.wait_for_tick()  # ... and its move arrives on the next tick
        before = session.history.step
        served.run_ticks()
        assert session.history.step == before + 1
        assert session.bot_thinking == -1
        moves += 1
    assert moves >= 3  # three bot turns, and any bids or cards of a closing
    assert session.state.decider == human


def test_served_bot_move_is_dropped_when_the_game_changed_meanwhile(served):
    session = GameSession()
    human = session.state.decider
    session.seats = ["random" if seat != human else "human" for seat in range(4)]
    session.play(first_placement(session.state))
    served.run_ticks()
    served.run_timeouts()  # the bot starts thinking
    served.wait_for_tick()
    session.undo()  # the teacher takes the move back before the bot's move arrives
    state = session.state
    served.run_ticks()
    assert session.state is state  # the late move was not played on the other position


def test_served_bot_failure_reaches_the_page_as_an_error(served, monkeypatch):
    class Broken:
        kind = "random"

        def choose(self, state):
            raise RuntimeError("the bot tripped")

    session = GameSession()
    human = session.state.decider
    session.seats = ["random" if seat != human else "human" for seat in range(4)]
    monkeypatch.setattr(session, "bot_for", lambda seat: Broken())
    session.play(first_placement(session.state))
    served.run_ticks()
    served.run_timeouts()
    served.wait_for_tick()
    assert session.error == ""  # nothing changed from the thread itself
    served.run_ticks()
    assert "the bot tripped" in session.error and session.bot_thinking == -1


# --- hints ----------------------------------------------------------------------------------------
def test_hints_view_ranks_the_options_and_plays_one():
    session = GameSession()
    view = HintsView(session, time_budget=0.3)
    assert not view.shown and "Hint" in view.status.object
    view.button.clicks += 1
    assert view.hints and [h.rank for h in view.hints] == sorted(h.rank for h in view.hints)
    assert len(view.shown) == min(len(view.hints), 6)
    best = view.hints[0]
    assert best.text in view.shown[0].replace("&#x27;", "'")
    assert all(f"{h.value:.1f}" in text for h, text in zip(view.hints, view.shown, strict=False))
    assert set(best.option for best in view.hints) <= set(session.state.legal_options())
    step = session.history.step
    view.play_buttons[0].clicks += 1
    assert session.history.step == step + 1
    assert not view.shown and "changed" in view.status.object


def test_hints_view_uses_the_engine_in_the_session_language():
    session = GameSession(lang="de")
    view = HintsView(session, time_budget=0.2)
    view.request()
    # The ranking depends on the time budget (the machine's speed); the German texts do not.
    expected = engine_hints(session.state, lang="de", time_budget=0.2)
    assert {h.text for h in view.hints} == {h.text for h in expected}
    assert view.button.name == tr("de", "hints.button")
    session.lang = "zh"
    assert view.button.name == tr("zh", "hints.button")
    in_chinese = {h.text for h in engine_hints(session.state, "zh", 0.2)}
    assert view.hints and {h.text for h in view.hints} == in_chinese


def test_hints_view_shows_a_broken_ranking_as_a_message():
    def broken(state, lang, budget):
        raise RuntimeError("no ranking today")

    view = HintsView(GameSession(), hints_function=broken)
    view.request()
    assert not view.shown and "no ranking today" in view.status.object
    assert not view.button.disabled


def test_hints_view_when_the_game_is_over():
    session = GameSession(seats=["random"] * 4)
    assert session.state.is_over
    view = HintsView(session)
    view.request()
    assert not view.shown and tr("en", "hints.none").split(":")[0] in view.status.object


def test_hints_view_served_ranks_in_the_background(served):
    session = GameSession()
    view = HintsView(session, time_budget=0.2)
    view.request()
    assert view.button.disabled and not view.shown
    view.join(30)
    served.wait_for_tick()
    served.run_ticks()
    assert view.shown and not view.button.disabled


# --- odds -----------------------------------------------------------------------------------------
def test_odds_view_runs_and_shows_wins_histogram_and_next_closing():
    session = GameSession()
    view = OddsView(session, workers=1)
    assert view.bot_select.value in ("greedy", "random")
    assert view.run(playouts=50, bots="random")
    view.join(120)
    report = view.report
    assert report.playouts == 50 and not report.cancelled
    assert "50" in view.status.object and not view.progress.visible
    assert view.wins.object.count("<li") == 4
    for seat in range(4):
        source = view.sources[seat]
        assert sum(source.data["top"]) == 50
        assert view.bars[seat].glyph.fill_color == PLAYER_COLOURS[session.colours[seat]]
    assert tr("en", "odds.close.title") in view.closes.object
    assert view.chart.visible and not view.stale
    session.play(first_placement(session.state))
    assert view.stale and "moved on" in view.status.object


def test_odds_view_progress_and_cancel():
    session = GameSession()
    view = OddsView(session, workers=1)
    seen = []

    def on_progress(event):
        seen.append(event.new)
        if event.new >= 20:
            view.cancel()

    view.progress.param.watch(on_progress, "value")
    view.run(playouts=5000, bots="random")
    view.join(120)
    assert view.report.cancelled and view.report.playouts < 5000
    assert seen and view.progress.max == 5000
    assert "Cancelled" in view.status.object


def test_odds_view_with_two_worker_processes():
    view = OddsView(GameSession(), workers=2)
    view.run(playouts=50, bots="random")
    view.join(120)
    assert view.report.backend == "processes" and view.report.playouts == 50


def test_odds_view_louqsor_exact_chances_and_languages():
    state = load(SCENARIOS / "louqsor-left-dice.yaml").state
    session = GameSession(state, lang="de")
    view = OddsView(session, workers=1)
    assert view.run_button.name == tr("de", "odds.run")
    view.run(playouts=20, bots="random")
    view.join(120)
    assert "4/36" in view.louqsor.object and "R3.7" in view.louqsor.object
    session.lang = "en"
    assert view.run_button.name == "Run" and "4/36" in view.louqsor.object


def test_odds_view_what_if_a_louqsor_placement():
    state = load(SCENARIOS / "louqsor-left-dice.yaml").state
    assert state.forced_rolls == [3, 2]  # the scenario fixes a closing roll (R4.4) ...
    state.forced_rolls.clear()  # ... which the odds would respect: free dice here
    session = GameSession(state)
    view = OddsView(session, workers=1)
    option = state.parse("place louqsor.left#2")
    assert option in view.what_if.options.values()
    assert view.run(playouts=30, bots="random", option=option)
    view.join(120)
    assert view.report.option == "place louqsor.left#2"
    assert view.report.louqsor_exact == Fraction(4, 36)
    text = view.louqsor.object
    assert "4/36" in text and "in the playouts it closed" in text
    session.play("place louqsor.left#2")  # the menu follows the game
    assert option not in view.what_if.options.values()
    assert view.what_if.value == AS_IT_IS


def test_odds_view_game_over_and_errors():
    session = GameSession(seats=["random"] * 4)
    view = OddsView(session, workers=1)
    assert not view.run(playouts=50, bots="random")
    assert "over" in view.status.object
    session = GameSession()
    view = OddsView(session, workers=1)
    view.bot_select.options = {"nobot": "nobot"}
    view.bot_select.value = "nobot"
    view.run(playouts=50)
    view.join(60)
    assert "not a bot" in view.status.object and view.report is None


def test_odds_view_served_updates_through_the_document(served):
    session = GameSession()
    view = OddsView(session, workers=1)
    view.run(playouts=50, bots="random")
    view.join(120)
    assert view.report is None  # nothing reached the page yet: it waits for the next tick
    served.run_ticks()
    assert view.report.playouts == 50 and view.chart.visible


def test_odds_view_served_stops_when_the_browser_tab_closes(served):
    view = OddsView(GameSession(), workers=1)
    view.run(playouts=5000, bots="random")
    assert len(served.destroyed) == 1
    served.destroyed[0](None)  # the session is destroyed: the playouts stop soon
    view.join(60)
    served.run_ticks()
    assert view.report.cancelled and view.report.playouts < 5000


# --- the Sandbox ----------------------------------------------------------------------------------
def test_sandbox_offers_bot_seats_hints_and_odds():
    sandbox = Sandbox(GameSession())
    options = set(sandbox.seat_selects[0].options.values())
    assert {"human", "random", "greedy", "mcts"} <= options
    assert "odds" in sandbox.view_boxes
    sandbox.open_view("odds")
    assert sandbox.visible_view == "odds"
    shown = sandbox.view_boxes["odds"].select(pn.widgets.Button)
    assert any(button is sandbox.odds.run_button for button in shown)
    sandbox.hints_view.time_budget = 0.2
    sandbox.hints_view.request()
    assert sandbox.hints_view.shown
    sandbox.session.bot_thinking = 1
    assert tr("en", "colour.red") in sandbox.bot_status.object
    sandbox.session.bot_thinking = -1
    assert sandbox.bot_status.object == ""
