"""The Sandbox's projector view as components (#16 item 1): the banner (who decides and why, in
the decider's colour), Undo and Redo beside the board, the last step in words with a bot's tag
and the single-option steps, the board's outline of the last step, the timeline in words with
each player's colour, a loaded position's title and teaching note, and a board that fits its
width with texts sized for it."""

from __future__ import annotations

from pathlib import Path

from nefertiti_core.engine import rules as R
from widgets.game import geometry as G
from widgets.game.board import Board
from widgets.game.session import GameSession
from widgets.sandbox.app import Sandbox
from widgets.theme import PLAYER_COLOURS

#: Blue holds senets only: the Scribe scores them at once, a single-option step (R10.7).
FORCED_SCRIBE = (Path(__file__).parent / "data" / "forced-scribe.yaml").read_bytes()


def square(board: Board, market: int, index: int) -> G.SquareCell:
    return next(c for c in board.cells if c.market == market and c.index == index)


def test_the_banner_says_who_decides_and_why_in_the_deciders_colour():
    sandbox = Sandbox()
    banner = sandbox.projector.banner
    assert "Blue decides now" in banner
    assert "places a servant on an empty square" in banner  # why, the phase in words
    assert f"border-left:10px solid {PLAYER_COLOURS['blue']}" in banner
    assert "data-colour='blue'" in banner
    # the decision panel beside it no longer repeats it (the banner says it)
    assert "decides now" not in sandbox.decision.who.object
    sandbox.session.lang = "de"
    assert "Blau entscheidet jetzt" in sandbox.projector.banner


def test_a_bot_seat_is_named_in_the_banner_and_its_move_announced_with_a_tag_and_outlined():
    sandbox = Sandbox()
    session = sandbox.session
    session.seats = ["human", "human", "human", "random"]
    assert sandbox.projector.last_move == ""  # nothing played yet
    assert sandbox.board._last.data["x"] == []
    blue = square(sandbox.board, R.GIZEH, 4)
    assert sandbox.board.click(blue.x, blue.y)  # Blue places; Black's bot answers at once
    last = sandbox.projector.last_move
    assert "Black puts a servant on" in last and ">bot<" in last
    outline = sandbox.board._last.data
    servants = sandbox.board._servants.data
    black = [
        (x, y)
        for x, y, who in zip(servants["x"], servants["y"], servants["who"], strict=True)
        if who == "black"
    ]
    assert outline["who"] == ["black"] and [(outline["x"][0], outline["y"][0])] == black
    assert "Green decides now" in sandbox.projector.banner


def test_undo_and_redo_beside_the_board():
    sandbox = Sandbox()
    bar = sandbox.projector
    assert bar._undo.disabled and bar._redo.disabled
    blue = square(sandbox.board, R.GIZEH, 4)
    sandbox.board.click(blue.x, blue.y)
    assert not bar._undo.disabled and bar._redo.disabled
    bar._undo.clicks += 1
    assert sandbox.session.history.step == 0 and "Blue decides now" in bar.banner
    assert bar.last_move == "" and sandbox.board._last.data["x"] == []
    assert not bar._redo.disabled
    bar._redo.clicks += 1
    assert sandbox.session.history.step == 1 and "Black decides now" in bar.banner
    assert "Blue puts a servant on the 5 of Gizeh" in bar.last_move
    assert sandbox.board._last.data["who"] == ["blue"]


def test_a_loaded_position_shows_its_title_and_note_and_a_forced_step_is_announced():
    sandbox = Sandbox()
    assert sandbox.position_note.text == ""
    assert sandbox.load_file(FORCED_SCRIBE, "forced.yaml")
    note = sandbox.position_note.text
    assert "One gift type" in note and "Blue holds senets only" in note
    sandbox.session.lang = "de"
    assert "Eine Geschenkart" in sandbox.position_note.text
    sandbox.session.lang = "en"
    state = sandbox.session.state
    recruit = next(o for o in state.legal_options() if state.option_text(o) == "recruit scribe")
    assert sandbox.decision.click(recruit)
    last = sandbox.projector.last_move
    assert "single option" in last
    assert "Blue holds a single gift type, so the Scribe scores senets" in last
    # the recruit is about no market: nothing is outlined on the board
    assert sandbox.board._last.data["x"] == []
    sandbox.new_game()  # another game: the position's note goes
    assert sandbox.position_note.text == ""


def test_the_timeline_lists_the_steps_in_words_with_each_players_colour():
    sandbox = Sandbox()
    session = sandbox.session
    for step in ["place gizeh.left#4", "place abou_simbel.left#2"]:
        session.play(step)
    sandbox.open_view("timeline")
    html = sandbox.timeline._words.object
    assert html.index("data-step='2'") < html.index("data-step='1'")  # newest first
    assert "data-step='2' data-colour='black'" in html
    assert "data-step='1' data-colour='blue'" in html
    assert f"border-left:5px solid {PLAYER_COLOURS['blue']}" in html
    assert "Blue puts a servant on the 5 of Gizeh&#x27;s left stall" in html
    assert "gizeh.left" not in html
    labels = list(sandbox.timeline.steps.options)
    assert labels[0].startswith("2 · Black puts a servant on the Deben 2 of Abou Simbel")


def test_a_fitting_board_sizes_its_texts_for_the_width_drawn():
    session = GameSession()
    fixed = Board(session, width=860)
    fit = Board(session, width=860, fit=True, max_height="100vh - 200px")
    assert fixed._square_labels.text_font_size == "11px"
    fit._on_size("data", {}, {"w": [1200]})  # the browser drew it 1200 pixels wide
    assert fit.drawn_width == 1200
    assert fit._square_labels.text_font_size == "15px"
    assert fit._title_glyph.text_font_size == "21px"
    assert set(fit._texts.data["size"]) != set(fixed._texts.data["size"])
    fit._on_size("data", {}, {"w": [600]})
    assert fit._square_labels.text_font_size == "9px"  # smaller, never below 0.8 x
    assert fixed.drawn_width == 860 and fixed._square_labels.text_font_size == "11px"
