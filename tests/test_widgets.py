"""The Panel components without a browser: each one's state handling over a GameSession.

Positions come from the shipped scenarios (nefertiti_core/scenarios/*.yaml). Buttons are pressed
the way the browser does it (their ``clicks`` go up), widget values are set as a user would, and
the tests check both the game (through the engine) and what the widgets show.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from bokeh.core.properties import value

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.engine.scoring import totals
from nefertiti_core.files.history import History
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.explain import (
    describe_event,
    describe_option,
    score_lines,
    winner_line,
)
from nefertiti_core.teaching.status import describe_preview, preview
from widgets import (
    Board,
    Characters,
    DecisionPanel,
    GameSession,
    LanguageSelector,
    Log,
    Players,
    Sandbox,
    Scores,
    Timeline,
    make_app,
)
from widgets.game import geometry as G
from widgets.game.decision import MAX_BUTTONS

SCENARIOS = Path(__file__).resolve().parents[1] / "nefertiti_core" / "scenarios"


def scenario_session(name: str, **params) -> GameSession:
    return GameSession(load(SCENARIOS / f"{name}.yaml").state, **params)


def bidding_session() -> GameSession:
    """cannot-pay.yaml after its move: Red bid 7 but cannot pay, so Red must discard (R6.3)."""
    session = scenario_session("cannot-pay")
    assert session.play("place abou_simbel.left#5")
    assert session.state.phase == "shame"
    return session


def placements(state) -> list[int]:
    return [o for o in state.legal_options() if O.OPTION_KIND[o] == O.PLACE]


def non_placements(state) -> list[int]:
    return [o for o in state.legal_options() if O.OPTION_KIND[o] != O.PLACE]


# --- the decision panel -------------------------------------------------------------------------
def test_decision_panel_names_the_decider_and_offers_every_legal_option():
    session = GameSession()
    panel = DecisionPanel(session)
    state = session.state
    decider = tr("en", f"colour.{state.colours[state.decider]}")
    assert f"{decider} decides now" in panel.who.object
    assert "R5.2" in panel.who.object  # why: a turn is a placement (R5.1, R5.2)
    assert panel.placement_options == placements(state)
    assert panel.button_options == non_placements(state)
    groups = panel.place_select.groups
    assert set(groups) <= {tr("en", f"market.{m}") for m in R.MARKETS}
    labels = [label for group in groups.values() for label in group]
    assert labels == [describe_option(state, o, "en") for o in placements(state)]


def test_decision_panel_places_the_chosen_square_and_updates_in_place():
    session = GameSession()
    panel = DecisionPanel(session)
    select = panel.place_select
    option = panel.placement_options[5]
    seat = session.state.decider
    assert panel.click(option)
    state = session.state
    assert session.history.step == 1 and session.error == ""
    assert state.owners[R.STALLS[O.SQUARE_STALL[option]].market][O.SQUARE_INDEX[option]] == seat
    assert panel.place_select is select  # the same widget, new options
    assert option not in panel.placement_options
    assert panel.placement_options == placements(state)
    assert tr("en", f"colour.{state.colours[state.decider]}") in panel.who.object


def test_placement_preview_follows_the_selection():
    session = GameSession()
    panel = DecisionPanel(session)
    option = panel.placement_options[3]
    panel.place_select.value = option
    text = describe_preview(preview(session.state, option), session.state, "en")
    assert text and text in html.unescape(panel.place_preview.object)
    assert text.startswith("If Blue places a servant on the 4 of Gizeh's left stall:")  # not #3


def test_decision_panel_during_a_market_resolution_says_who_bids_and_why():
    session = bidding_session()
    panel = DecisionPanel(session)
    state = session.state
    assert "R6.3" in panel.who.object and "Red" in panel.who.object
    assert panel.placement_options == []
    assert panel.place_box.visible is False
    assert panel.button_options == list(state.legal_options())
    for option, button in zip(panel.button_options, panel.buttons, strict=False):
        assert button.visible
        assert button.name == describe_option(state, option, "en")
        hover = describe_preview(preview(state, option), state, "en")
        assert button.description.content == hover
    assert not any(b.visible for b in panel.buttons[len(panel.button_options) :])

    discard = O.DISCARD_BASE + R.K_HARP
    assert panel.click(discard)
    state = session.state
    assert state.gifts[1][R.K_HARP] == 0
    assert state.phase == "bid" and state.decider == 2
    assert "Blue" in panel.who.object and "R6.4" in panel.who.object
    assert "Blue bid 5" in panel.who.object
    assert panel.button_options == list(state.legal_options())
    assert [b.name for b in panel.buttons if b.visible] == [
        describe_option(state, o, "en") for o in state.legal_options()
    ]


def test_a_refused_action_shows_the_engines_message_and_changes_nothing():
    session = GameSession()
    panel = DecisionPanel(session)
    option = panel.placement_options[0]
    session.play(option)
    before = session.state.state_hash()
    version = session.version
    assert session.play(option) is False  # the square is taken now
    assert session.state.state_hash() == before and session.version == version
    assert panel.error.visible
    assert "already holds" in session.error and "(R5.2)" in session.error
    assert "already holds" in panel.error.object  # the engine's message, escaped for Markdown
    panel.click(panel.placement_options[0])
    assert session.error == "" and panel.error.visible is False


def test_a_failing_callback_never_raises_into_the_page(monkeypatch):
    session = GameSession()
    panel = DecisionPanel(session)

    def broken(option, **_origin):  # by_learner=True from the panel's handler
        raise RuntimeError("boom")

    monkeypatch.setattr(session, "play", broken)
    panel.click(panel.placement_options[0])  # no exception
    assert "boom" in session.error and panel.error.visible


def test_the_bots_button_appears_for_a_bot_seat_and_plays_until_a_human_decides():
    session = GameSession()
    panel = DecisionPanel(session)
    assert panel.bots_button.visible is False
    seats = ["human"] * 4
    seats[session.state.decider] = "random"
    session.seats = seats
    assert panel.bots_button.visible
    assert "bot" in panel.who.object
    step = session.history.step
    panel.bots_button.clicks += 1
    assert session.history.step > step
    assert not session.is_bot(session.state.decider) or session.state.is_over
    assert panel.bots_button.visible is False


def test_when_the_game_is_over_the_panel_shows_the_winner_and_the_score_table():
    session = GameSession(seats=["random"] * 4)
    panel = DecisionPanel(session)
    assert session.state.is_over  # every seat a bot: the whole game is played
    assert panel.over.visible
    shown = re.sub(r"<[^>]+>", "", panel.over.object)  # its rule IDs are linked (#13)
    assert winner_line(session.state, "en") in shown
    assert panel.button_options == [] and panel.place_box.visible is False
    assert "Total for" in panel.over.object


# --- players ------------------------------------------------------------------------------------
def test_players_show_each_seats_pieces_gift_values_and_projected_score():
    session = scenario_session("merchant")
    players = Players(session)
    state = session.state
    red = players.card_html(1)
    assert "Red" in red and "decides" in red and "turn" in red
    harp_value = state.gift_value(R.HARP)
    assert f"1 harp: {harp_value} each with one holder = {harp_value}" in red
    statuette = f"1 statuette: {state.gift_value(R.STATUETTE)} each with 3 holders"
    assert statuette in red
    for seat in range(state.n):
        html = players.card_html(seat)
        assert f"If the game ended now: {totals(state)[seat]} points" in html
    assert "decides" not in players.card_html(0)
    session.play("recruit merchant")
    session.play("exchange green:statuette")
    session.play("give harp")
    red = players.card_html(1)
    assert "2 statuettes" in red  # the same pane, new text
    assert f"<b>{session.state.deben[1]}</b>" in red


def test_players_hide_the_fourth_tableau_in_a_three_player_game():
    session = GameSession()
    players = Players(session)
    assert all(card.visible for card in players.cards)
    session.new_game(3, 1)
    assert [card.visible for card in players.cards] == [True, True, True, False]


# --- characters ---------------------------------------------------------------------------------
def test_characters_enable_exactly_the_recruitable_piles_and_recruit_on_click():
    session = scenario_session("vizier")
    characters = Characters(session)
    state = session.state
    legal = [R.PILES[o - O.RECRUIT_BASE] for o in non_placements(state)]
    assert characters.recruitable() == legal and "vizier" in legal
    assert "Vizier" in characters.texts[R.VIZIER].object
    assert "R10.2" in characters.texts[R.VIZIER].object  # its effect in one line
    assert "1 in the pile" in characters.texts[R.VIZIER].object
    assert "3 in the pile" in characters.texts[R.MERCHANT].object
    button = characters.buttons[R.VIZIER]
    assert button.description.content == describe_option(state, O.RECRUIT_BASE + R.VIZIER, "en")
    characters.recruit("vizier")
    assert session.state.prestige[3] == 8  # 4 types × 2 (R10.2)
    assert characters.recruitable() == []  # one character per turn, and the pile is empty
    assert "pile empty" in characters.texts[R.VIZIER].object
    assert characters.buttons[R.VIZIER] is button


def test_characters_without_seals_nothing_is_recruitable_and_a_click_does_nothing():
    session = GameSession()
    characters = Characters(session)
    assert characters.recruitable() == []
    version = session.version
    characters.recruit("vizier")
    assert session.version == version


def test_characters_in_a_game_without_characters():
    session = GameSession()
    session.new_game(4, 0, characters=False)
    characters = Characters(session)
    assert "without characters" in characters.note.object


# --- scores -------------------------------------------------------------------------------------
def test_scores_chart_shows_prestige_and_projected_totals_with_the_breakdown_on_hover():
    session = scenario_session("vizier")
    scores = Scores(session)
    figure, source = scores.figure, scores.projected
    state = session.state
    assert source.data["top"] == totals(state)
    assert scores.prestige.data["top"] == [0, 0, 0, 0]
    assert score_lines(state, 3, "en")[-1] in source.data["tip"][3]
    session.play("recruit vizier")
    assert scores.figure is figure and scores.projected is source  # built once
    assert scores.prestige.data["top"] == [0, 0, 0, 8]
    assert source.data["top"] == totals(session.state)
    assert figure.xaxis.major_label_overrides == {0: "Green", 1: "Red", 2: "Blue", 3: "Black"}
    session.lang = "de"
    assert figure.xaxis.major_label_overrides[0] == "Grün"
    assert scores.legend_items[0].label == value(tr("de", "panel.scores.prestige"))
    assert figure.yaxis.axis_label == tr("de", "panel.scores.points")


def test_scores_follow_the_number_of_players():
    session = GameSession()
    scores = Scores(session)
    session.new_game(3, 2)
    assert len(scores.projected.data["top"]) == 3
    assert scores.figure.xaxis.ticker.ticks == [0, 1, 2]


# --- log ----------------------------------------------------------------------------------------
def test_log_explains_every_step_newest_first_with_its_rule():
    session = bidding_session()
    log = Log(session)
    state = session.state
    expected = [
        (data.get("turn", 0), data.get("rule", ""), describe_event(name, data, state.colours))
        for name, data in reversed(state.log)
        if name != "decision"
    ]
    assert log.entries == expected
    assert any(rule == "R6.1" or rule.startswith("R3") for _, rule, _ in log.entries)
    assert "R5.2" in log.entries_pane.object or "R5.3" in log.entries_pane.object
    session.play(O.DISCARD_BASE + R.K_HARP)
    assert "discard" in log.entries[0][2].lower() or "R6.3" in log.entries[0][2]


def shown_events(state, keep) -> list[str]:
    """The explanations of the events ``keep`` accepts, newest first (the end excepted)."""
    return [
        describe_event(name, data, state.colours)
        for name, data in reversed(state.log)
        if name not in ("decision", "game_over") and keep(name, data)
    ]


def test_log_filters_by_player_and_market_on_the_event_data():
    session = GameSession(seats=["random"] * 4)
    state = session.state
    log = Log(session, max_entries=10_000)

    def texts():
        return [text for _, _, text in log.entries if "wins" not in text]

    def blue(name, data):
        bidders = [seat for seat, _ in data.get("bids") or ()]
        scorers = [entry[0] for entry in data.get("scored") or ()]
        return 2 in (data.get("seat"), data.get("partner")) or 2 in bidders + scorers

    log.set_filter(seat=2)
    assert texts() == shown_events(state, blue) and texts()
    assert len(texts()) < len(shown_events(state, lambda name, data: True))
    log.set_filter(seat=-1, market=R.GIZEH)
    assert texts() == shown_events(state, lambda name, data: data.get("market") == R.GIZEH)
    log.set_filter(seat=2, market=R.LOUQSOR)
    louqsor = shown_events(
        state,
        lambda name, data: blue(name, data) and (name == "roll" or data.get("market") == R.LOUQSOR),
    )
    assert texts() == louqsor
    assert any("dice" in text or "roll" in text for text in louqsor)
    log.set_filter()
    assert log.entries[0][2].endswith(winner_line(state, "en"))


def test_log_renders_at_most_the_newest_entries_of_a_long_game():
    session = GameSession(seats=["random"] * 4)
    log = Log(session, max_entries=50)
    assert session.state.is_over
    assert len(log.entries) == 50
    assert "newest 50 of" in log.count.object
    assert "wins" in log.entries[0][2]  # the end with its winner line (R9.2)


# --- timeline -----------------------------------------------------------------------------------
def played_session(steps: int = 4) -> GameSession:
    session = GameSession()
    for _ in range(steps):
        session.play(session.state.legal_options()[0])
    return session


def test_timeline_undo_redo_and_jump():
    session = played_session(4)
    timeline = Timeline(session)
    hashes = [session.history.jump(i).state_hash() for i in range(5)]
    session.jump(4)
    assert timeline.redo_button.disabled and not timeline.undo_button.disabled
    timeline.undo_button.clicks += 1
    assert session.history.step == 3 and session.state.state_hash() == hashes[3]
    assert not timeline.redo_button.disabled
    timeline.redo_button.clicks += 1
    assert session.history.step == 4
    timeline.jump_to(1)
    assert session.history.step == 1 and session.state.state_hash() == hashes[1]
    assert timeline.slider.value == 1 and timeline.slider.end == 4
    assert len(timeline.steps.options) == 5  # the start and 4 steps
    timeline.steps.value = 3
    assert session.history.step == 3
    assert "Step 3 of 4" in timeline.position.object


def test_timeline_branches_new_switch_rename_and_compare():
    session = played_session(4)
    timeline = Timeline(session)
    session.jump(2)
    timeline.new_name.value = "what if"
    timeline.new_button.clicks += 1
    assert session.history.branch == "what if" and timeline.branch.value == "what if"
    assert timeline.new_name.value == ""
    session.play(session.state.legal_options()[-1])
    assert timeline.branch.options == ["main", "what if"]
    assert {timeline.compare_a.value, timeline.compare_b.value} == {"main", "what if"}
    timeline.branch.value = "main"
    assert session.history.branch == "main" and session.history.step == 4
    timeline.rename_to.value = "first try"
    timeline.rename_button.clicks += 1
    assert session.history.branches == ["first try", "what if"]
    timeline.compare("first try", "what if")
    table = timeline.table.object
    assert timeline.table.visible and "first try" in table and "what if" in table
    comparison = session.compare("first try", "what if")
    for player in comparison.players:
        assert f">{player.scores[0]}<" in table
    assert "3 steps" in table and "4 steps" in table


def test_timeline_refuses_a_taken_branch_name_with_the_engines_message():
    session = played_session(2)
    timeline = Timeline(session)
    before = session.state.state_hash()
    timeline.new_name.value = "main"
    timeline.new_button.clicks += 1
    assert "already exists" in session.error
    assert session.state.state_hash() == before and session.history.branches == ["main"]


# --- language -----------------------------------------------------------------------------------
def test_the_language_selector_switches_every_label_and_explanation():
    session = bidding_session()
    selector = LanguageSelector(session)
    decision, players, log = DecisionPanel(session), Players(session), Log(session)
    characters, timeline = Characters(session), Timeline(session)
    english = (decision.who.object, players.card_html(0), log.entries[0][2])
    selector.value = "de"
    assert session.lang == "de"
    assert decision.who.object != english[0] and "Rot" in decision.who.object
    assert "Grün" in players.card_html(0)
    assert log.entries[0][2] != english[2]
    assert characters.buttons[0].name == "Ausspielen"
    assert timeline.undo_button.name == "Zurück"
    assert decision.buttons[0].name == describe_option(
        session.state, decision.button_options[0], "de"
    )
    session.lang = "zh"
    assert selector.value == "zh"
    assert "红方" in decision.who.object
    assert list(selector.buttons.options) == ["English", "Deutsch", "中文"]


# --- the sandbox --------------------------------------------------------------------------------
def test_make_app_builds_a_new_session_and_sandbox_each_call():
    first, second = make_app(), make_app()
    assert first is not second
    assert first.sandbox.session is not second.sandbox.session
    sandbox = first.sandbox
    for part in (sandbox.board, sandbox.decision, sandbox.players, sandbox.log, sandbox.timeline):
        assert part.session is sandbox.session
    sandbox.session.play(sandbox.session.state.legal_options()[0])
    assert second.sandbox.session.history.step == 0


def test_sandbox_new_game_with_its_options():
    sandbox = Sandbox(GameSession())
    sandbox.players_count.value = 3
    assert len(sandbox.first_player.options) == 4  # highest roll + 3 colours
    sandbox.seed.value = 9
    sandbox.layout_choice.value = "random"
    sandbox.with_characters.value = False
    sandbox.first_player.value = 2
    sandbox.start_button.clicks += 1
    state = sandbox.session.state
    assert state.n == 3 and state.turn_player == 2 and not any(state.piles)
    assert state.config.seed == 9 and state.config.layout == "random"
    assert [s.visible for s in sandbox.seat_selects] == [True, True, True, False]


def test_sandbox_seats_become_bots_and_the_bots_play():
    sandbox = Sandbox(GameSession())
    session = sandbox.session
    for select in sandbox.seat_selects:
        select.value = "random"
    assert session.seats == ["random"] * 4
    assert sandbox.decision.bots_button.visible
    sandbox.decision.bots_button.clicks += 1
    assert session.state.is_over


def test_sandbox_loads_a_scenario_with_warnings_and_refuses_a_broken_file():
    sandbox = Sandbox(GameSession())
    session = sandbox.session
    text = (SCENARIOS / "cannot-pay.yaml").read_text()
    assert sandbox.load_file(text.encode(), "cannot-pay.yaml")
    assert session.state.deben[1] == 5 and sandbox.file_status.alert_type == "success"
    broken_total = text.replace("deben: 12", "deben: 30")
    assert sandbox.load_file(broken_total.encode(), "more-deben.yaml")
    assert sandbox.file_status.alert_type == "warning" and "R12" in sandbox.file_status.object
    before = session.state.state_hash()
    assert not sandbox.load_file(b"nefertiti: 1\nplayers: 5\n", "broken.yaml")
    assert session.state.state_hash() == before
    assert session.error and sandbox.decision.error.visible
    assert sandbox.file_status.alert_type == "danger"
    assert not sandbox.load_file(b"\xff\xfe", "binary.yaml")
    assert session.state.state_hash() == before


def test_sandbox_loads_a_game_record_into_the_timeline():
    history = History(load(SCENARIOS / "merchant.yaml").state)
    for move in ("recruit merchant", "exchange green:statuette", "give harp"):
        history.play(move)
    sandbox = Sandbox(GameSession())
    assert sandbox.load_file(history.record().dumps().encode(), "game.yaml")
    session = sandbox.session
    assert session.history.length() == 3 and session.history.step == 3
    assert session.state.state_hash() == history.state.state_hash()
    sandbox.open_view("timeline")
    assert len(sandbox.timeline.steps.options) == 4


def test_sandbox_saves_the_position_so_that_it_loads_back():
    sandbox = Sandbox(GameSession())
    session = sandbox.session
    session.play(session.state.legal_options()[3])
    saved = sandbox.save_file()
    assert isinstance(saved, io.StringIO)
    before = session.state.state_hash()
    other = Sandbox(GameSession())
    assert other.load_file(saved.getvalue().encode(), "saved.yaml")
    assert other.session.state.state_hash() == before


def test_sandbox_hints_language_and_views():
    sandbox = Sandbox(GameSession())
    sandbox.hints_checkbox.value = False
    assert sandbox.session.hints is False
    sandbox.language.value = "zh"
    assert sandbox.start_button.name == tr("zh", "panel.setup.start")
    assert tr("zh", "panel.view.log") in sandbox.view_picker.options
    sandbox.open_view("log")
    assert sandbox.visible_view == "log"
    assert sandbox.view_boxes["characters"].visible is False


# --- the board ----------------------------------------------------------------------------------
def test_board_notes_name_squares_by_bid_and_mark_in_the_language_never_by_index():
    session = GameSession()  # the first-game layout: every market on its left stall (R2.8)
    board = Board(session)
    tips = board.sources["tips"].data["tip"]
    assert tips and not any("#" in tip for tip in tips)
    assert "The Deben 4" in tips and "The first 1" in tips and "The plain 2" in tips
    session.lang = "de"
    assert "Die 2 mit Münzsymbol" in board.sources["tips"].data["tip"]


def test_board_click_on_a_square_places_the_servant():
    session = GameSession()
    board = Board(session)
    state = session.state
    legal = set(state.legal_options())
    cell = next(c for c in G.squares(state.side) if c.option in legal)
    seat = state.decider
    assert board.click(cell.x + 0.3, cell.y - 0.3)
    assert session.state.owners[cell.market][cell.index] == seat
    assert (cell.x, cell.y) in zip(
        board.sources["servants"].data["x"], board.sources["servants"].data["y"], strict=True
    )
    before = session.state.state_hash()
    assert not board.click(cell.x, cell.y)  # taken now: refused, nothing changes
    assert session.error and session.state.state_hash() == before


def test_board_click_on_a_card_during_a_bid_buys_it():
    session = bidding_session()
    session.play(O.DISCARD_BASE + R.K_HARP)
    board = Board(session)
    state = session.state
    m = state.res_market
    card = next(c for c in G.cards() if c.market == m and c.slot == 2)
    kind = state.cards[m][2]
    blue_deben = state.deben[2]
    assert board.click(card.x, card.y)
    assert session.state.gifts[2][kind] == state.gifts[2][kind] + 1
    assert session.state.deben[2] == blue_deben - 5  # Blue's bid (R6.4)


def test_board_click_on_a_card_when_no_card_can_be_taken():
    session = GameSession()
    board = Board(session)
    card = G.cards()[0]
    before = session.state.state_hash()
    assert not board.click(card.x, card.y)
    assert session.error == tr("en", "board.card_not_now")
    assert session.state.state_hash() == before


def test_square_at_hits_the_drawn_square_and_not_the_gap():
    cells = G.squares((0, 0, 0, 0))
    first = cells[0]
    assert G.square_at(cells, first.x, first.y) == first
    half = G.SQUARE / 2
    assert G.square_at(cells, first.x + half - 0.01, first.y - half + 0.01) == first
    assert G.square_at(cells, first.x + 0.5, first.y) is None  # the gap between two squares
    assert G.square_at(cells, -5, -5) is None
    assert len({(c.market, c.index) for c in cells}) == len(cells)
    for cell in cells:
        assert G.square_at(cells, cell.x, cell.y) == cell


@pytest.mark.parametrize("sides", [(0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 0, 1)])
def test_squares_follow_the_visible_stalls(sides):
    cells = G.squares(sides)
    for m in range(4):
        stall = R.STALLS[m * 2 + sides[m]]
        mine = [c for c in cells if c.market == m]
        assert len(mine) == len(stall.squares)
        assert all(c.option == O.place_id(m, sides[m], c.index) for c in mine)


def test_card_at_finds_each_card_and_nothing_outside():
    cells = G.cards()
    assert len(cells) == 16
    for cell in cells:
        assert G.card_at(cells, cell.x, cell.y) == cell
        assert G.card_at(cells, cell.x + G.CARD_W / 2 - 0.01, cell.y) == cell
    assert G.card_at(cells, 0.1, 0.1) is None
    square = G.squares((0, 0, 0, 0))[0]
    assert G.card_at(cells, square.x, square.y) is None


def test_hidden_views_wait_and_catch_up_when_shown():
    sandbox = Sandbox(GameSession())
    session = sandbox.session
    assert sandbox.visible_view == "characters"
    assert sandbox.log.active is False and sandbox.characters.active
    before = list(sandbox.log.entries)
    session.play(session.state.legal_options()[0])
    assert sandbox.log.entries == before  # hidden: not redrawn on every click
    sandbox.open_view("log")
    assert sandbox.log.active and sandbox.characters.active is False
    assert sandbox.log.entries != before
    assert "R5" in sandbox.log.entries[1][1]


# --- click latency: what the browser gets (issue #4) ---------------------------------------------
def _changes(doc, action) -> set[str]:
    """The names (or types) of the models that ``action`` changes in ``doc``."""
    from bokeh.document.events import ModelChangedEvent

    seen: list = []

    def record(event):
        seen.append(event)

    doc.on_change(record)
    try:
        action()
    finally:
        doc.remove_on_change(record)
    names = set()
    for event in seen:
        model = getattr(event, "model", None)
        if model is not None:
            attr = event.attr if isinstance(event, ModelChangedEvent) else "data"
            names.add(f"{model.name or type(model).__name__}.{attr}")
    return names


def _in_document(component):
    from bokeh.document import Document

    doc = Document()
    viewable = component.__panel__() if hasattr(component, "__panel__") else component
    doc.add_root(viewable.get_root(doc))
    return doc


def test_board_tells_the_browser_where_a_click_places_the_deciders_servant():
    session = GameSession()
    board = Board(session)
    state = session.state
    legal = set(state.legal_options())
    cells = [c for c in G.squares(state.side) if c.option in legal]
    data = board.sources["legal"].data
    assert list(zip(data["x"], data["y"], strict=True)) == [(c.x, c.y) for c in cells]
    colour = state.colours[state.decider]
    assert set(data["who"]) == {colour}
    assert board.click(cells[0].x, cells[0].y)
    after = session.state
    assert set(board.sources["legal"].data["who"]) == {after.colours[after.decider]}
    assert (cells[0].x, cells[0].y) not in zip(
        board.sources["legal"].data["x"], board.sources["legal"].data["y"], strict=True
    )
    # nothing to place (a market's resolution), or a click that answers an exercise: no list
    assert Board(bidding_session()).sources["legal"].data["x"] == []
    assert Board(GameSession(), on_square=lambda cell: None).sources["legal"].data["x"] == []


def test_board_draws_a_legal_placement_in_the_browser_and_hovers_on_the_canvas():
    from bokeh.models import CustomJS

    fig = Board(GameSession()).figure
    # the browser's click handler, installed at layout and when the pointer comes in
    (install,) = fig.js_property_callbacks["change:inner_width"]
    assert isinstance(install, CustomJS)
    assert {"legal", "servants", "clicks"} <= set(install.args)
    assert "sync: false" in install.code  # drawn, not sent back: the server decides
    assert "pointerdown" in install.code and "pointerup" in install.code
    for event in ("mouseenter", "mousemove"):
        assert install in fig.js_event_callbacks[event]
    assert {"mousemove", "mouseleave"} <= set(fig.js_event_callbacks)
    assert not {"tap", "doubletap"} & set(fig.js_event_callbacks)  # see CLICKS_JS
    assert not [t for t in fig.tools if type(t).__name__ == "HoverTool"]  # see HOVER_JS


def test_a_click_from_the_browser_plays_on_the_server():
    session = GameSession()
    board = Board(session)
    _in_document(board)
    state = session.state
    cell = next(c for c in G.squares(state.side) if c.option in state.legal_options())
    before = state.decisions
    # what CLICKS_JS sends for a release on the square (a count makes two clicks two changes)
    board.sources["clicks"].data = dict(x=[cell.x + 0.2], y=[cell.y - 0.1], n=[1])
    assert session.state.decisions == before + 1
    assert session.state.owners[cell.market][cell.index] >= 0


def test_the_same_click_delivered_twice_is_played_once():
    """Voila delivered one click's change twice: the second was refused ('the 8 already holds
    Red's servant') on the learner's board. The browser's count tells them apart."""
    session = GameSession()
    board = Board(session)
    _in_document(board)
    state = session.state
    cells = [c for c in G.squares(state.side) if c.option in state.legal_options()]
    before = state.decisions
    board.sources["clicks"].data = dict(x=[cells[0].x], y=[cells[0].y], n=[1])
    board.sources["clicks"].data = dict(x=[cells[0].x + 0.01], y=[cells[0].y], n=[1])  # again
    assert session.state.decisions == before + 1 and session.error == ""
    board.sources["clicks"].data = dict(x=[cells[1].x], y=[cells[1].y], n=[2])  # the next click
    assert session.state.decisions == before + 2


def test_a_placement_changes_only_what_the_board_draws_on_its_overlay():
    session = GameSession()
    board = Board(session, keys=True)
    doc = _in_document(board)
    overlay = {
        r.data_source.name for r in board.figure.renderers if getattr(r, "level", "") == "overlay"
    }
    assert {"board-servants", "board-playable", "board-closing", "board-texts"} <= overlay
    state = session.state
    cell = next(c for c in G.squares(state.side) if c.option in state.legal_options())
    changed = _changes(doc, lambda: board.click(cell.x, cell.y))
    sources = {name.split(".")[0] for name in changed}
    assert "board-servants" in sources
    # neither is drawn; nor is the keyboard grid, whose squares' names change (board_keys.py)
    assert sources <= overlay | {"board-legal", "board-tips", "board-keys"}


def test_a_refused_click_on_a_square_sends_the_servants_again():
    session = GameSession()
    board = Board(session)
    doc = _in_document(board)
    state = session.state
    cell = next(c for c in G.squares(state.side) if c.option in state.legal_options())
    assert board.click(cell.x, cell.y)
    # The browser may have drawn a servant for this click already: the server's data did not
    # change, so it sends its servants (and the legal squares) again.
    changed = _changes(doc, lambda: board.click(cell.x, cell.y))
    assert {"board-servants.data", "board-legal.data"} <= changed
    assert session.error


def test_html_panes_send_only_their_text(monkeypatch):
    """Panel's own HTML pane updates every property of its model when its text changes (in a
    served app its stylesheets come as new models each time, and Bokeh walks the whole
    document's model graph); ours sets the text alone."""
    from widgets.game.common import HTML

    pane = HTML("<b>before</b>")
    doc = _in_document(pane)
    (root,) = doc.roots

    def update(self, **props):
        raise AssertionError(f"every property sent again: {sorted(props)}")

    monkeypatch.setattr(type(root), "update", update)
    changed = _changes(doc, lambda: setattr(pane, "object", "<b>after</b>"))
    assert {name.split(".")[1] for name in changed} == {"text"}
    assert "after" in root.text


def test_decision_buttons_keep_their_hover_texts_and_the_dropdown_is_never_emptied():
    session = GameSession()
    panel = DecisionPanel(session)
    groups = dict(panel.place_select.groups)
    session.load_state(bidding_session().state)  # nothing to place: a market's resolution
    assert panel.placement_options == [] and panel.place_box.visible is False
    assert panel.place_select.groups == groups  # hidden, not emptied ("None not in list")
    tips = [b.description for b in panel.buttons]
    visible = [b for b in panel.buttons if b.visible]
    assert visible and all(b.description.content for b in visible)
    session.new_game()
    session.load_state(bidding_session().state)
    assert [b.description for b in panel.buttons] == tips  # the same Tooltip models, reused
    session.new_game()
    assert panel.placement_options == placements(session.state)
    assert panel.place_select.value in panel.placement_options
    assert not panel.click(O.DISCARD_BASE + R.K_HARP)  # not an option now


def test_disabled_recruit_buttons_look_unavailable():
    characters = Characters(GameSession())
    assert characters.recruitable() == []
    assert all(any(":disabled" in str(css) for css in b.stylesheets) for b in characters.buttons)


def test_decision_buttons_are_made_when_first_needed_and_kept():
    """A page holds only the buttons it has needed (each is a Bokeh model in every update)."""
    session = GameSession()
    panel = DecisionPanel(session)
    assert len(panel.buttons) == len(panel.button_options) < MAX_BUTTONS
    session.load_state(bidding_session().state)
    made = list(panel.buttons)
    assert len(made) >= len(panel.button_options) > 0
    session.new_game()
    assert panel.buttons[: len(made)] == made  # kept, hidden when not needed
    assert all(not b.visible for b in panel.buttons[len(panel.button_options) :])


def test_without_a_character_to_recruit_the_decision_does_not_offer_one():
    basic = GameSession(new_game(4, seed=2, characters=False, record_events=True))
    panel = DecisionPanel(basic)
    assert "recruit" not in panel.who.object and "places a servant" in panel.who.object
    full = DecisionPanel(GameSession(new_game(4, seed=2, record_events=True)))
    recruits = any(O.OPTION_KIND[o] == O.RECRUIT for o in full.session.state.legal_options())
    assert ("may first recruit" in full.who.object) == recruits


def test_the_scores_axis_ends_above_the_highest_bar_in_steps_of_ten():
    session = GameSession()
    scores = Scores(session)
    end = scores.figure.y_range.end
    assert end % 10 == 0
    tops = list(scores.projected.data["top"]) + list(scores.prestige.data["top"])
    assert max(tops) * 1.25 <= end < max(tops) * 1.25 + 10
