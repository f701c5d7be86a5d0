"""The Sandbox's projector view as components (#16 item 1): the banner (who decides and why, in
the decider's colour), Undo and Redo beside the board, the last step in words with a bot's tag
and the single-option steps, the board's outline of the last step, the timeline in words with
each player's colour, a loaded position's title and teaching note, and a board that fits its
width with texts sized for it."""

from __future__ import annotations

from pathlib import Path

import panel as pn
from rendered import figure, html, parts, source, widget

from nefertiti_core.engine import rules as R
from widgets.game import geometry as G
from widgets.game.board import Board
from widgets.game.session import GameSession
from widgets.sandbox.app import Sandbox
from widgets.theme import PLAYER_COLOURS

#: Blue holds senets only: the Scribe scores them at once, a single-option step (R10.7).
FORCED_SCRIBE = (Path(__file__).parent / "data" / "forced-scribe.yaml").read_bytes()


def square(board: Board, market: int, index: int) -> G.SquareCell:
    cells = G.squares(board.session.state.side)
    return next(c for c in cells if c.market == market and c.index == index)


def outlined(board: Board) -> dict:
    """The board's outline of the last step (the data the browser draws)."""
    return source(board, "board-last").data


def texts_size(board: Board, name: str) -> str:
    """The font size of the texts drawn from the board's source ``name``."""
    glyphs = [r.glyph for r in figure(board).renderers if r.data_source.name == name]
    return next(g.text_font_size for g in glyphs if type(g).__name__ == "Text")


def drawn_at(board: Board, width: int) -> None:
    """What the browser says once it drew a fitting board ``width`` pixels wide (SIZE_JS)."""
    source(board, "board-size").data = {"w": [width]}


def test_the_banner_says_who_decides_and_why_in_the_deciders_colour():
    sandbox = Sandbox()
    banner = sandbox.projector.banner
    assert "Blue decides now" in banner
    assert "places a servant on an empty square" in banner  # why, the phase in words
    assert f"border-left:10px solid {PLAYER_COLOURS['blue']}" in banner
    assert "data-colour='blue'" in banner
    # the decision panel beside it no longer repeats it (the banner says it)
    assert "decides now" not in html(sandbox.decision)
    sandbox.session.lang = "de"
    assert "Blau entscheidet jetzt" in sandbox.projector.banner


def test_a_bot_seat_is_named_in_the_banner_and_its_move_announced_with_a_tag_and_outlined():
    sandbox = Sandbox()
    session = sandbox.session
    session.seats = ["human", "human", "human", "random"]
    assert sandbox.projector.last_move == ""  # nothing played yet
    assert outlined(sandbox.board)["x"] == []
    blue = square(sandbox.board, R.GIZEH, 4)
    assert sandbox.board.click(blue.x, blue.y)  # Blue places; Black's bot answers at once
    last = sandbox.projector.last_move
    assert "Black puts a servant on" in last and ">bot<" in last
    outline = outlined(sandbox.board)
    servants = source(sandbox.board, "board-servants").data
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
    undo = widget(bar, pn.widgets.Button, "nefertiti-undo")
    redo = widget(bar, pn.widgets.Button, "nefertiti-redo")
    assert undo.disabled and redo.disabled
    blue = square(sandbox.board, R.GIZEH, 4)
    sandbox.board.click(blue.x, blue.y)
    assert not undo.disabled and redo.disabled
    undo.clicks += 1
    assert sandbox.session.history.step == 0 and "Blue decides now" in bar.banner
    assert bar.last_move == "" and outlined(sandbox.board)["x"] == []
    assert not redo.disabled
    redo.clicks += 1
    assert sandbox.session.history.step == 1 and "Black decides now" in bar.banner
    assert "Blue puts a servant on the 5 of Gizeh" in bar.last_move
    assert outlined(sandbox.board)["who"] == ["blue"]


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
    assert outlined(sandbox.board)["x"] == []
    sandbox.new_game()  # another game: the position's note goes
    assert sandbox.position_note.text == ""


def test_the_timeline_lists_the_steps_in_words_with_each_players_colour():
    sandbox = Sandbox()
    session = sandbox.session
    for step in ["place gizeh.left#4", "place abou_simbel.left#2"]:
        session.play(step)
    sandbox.open_view("timeline")
    words = widget(sandbox.timeline, pn.pane.HTML, "nefertiti-timeline-words").object
    assert words.index("data-step='2'") < words.index("data-step='1'")  # newest first
    assert "data-step='2' data-colour='black'" in words
    assert "data-step='1' data-colour='blue'" in words
    assert f"border-left:5px solid {PLAYER_COLOURS['blue']}" in words
    assert "Blue puts a servant on the 5 of Gizeh&#x27;s left stall" in words
    assert "gizeh.left" not in words
    steps = [p for p in parts(sandbox.timeline) if isinstance(p, pn.widgets.Select) and p.size > 1]
    labels = list(steps[0].options)  # the steps' list (a drop-down shown as a list)
    assert labels[0].startswith("2 · Black puts a servant on the Deben 2 of Abou Simbel")


def test_a_fitting_board_sizes_its_texts_for_the_width_drawn():
    session = GameSession()
    fixed = Board(session, width=860)
    fit = Board(session, width=860, fit=True, max_height="100vh - 200px")
    assert texts_size(fixed, "board-squares") == "11px"
    drawn_at(fit, 1200)  # the browser drew it 1200 pixels wide
    assert fit.drawn_width == 1200
    assert texts_size(fit, "board-squares") == "15px"
    assert texts_size(fit, "board-titles") == "21px"
    assert set(source(fit, "board-texts").data["size"]) != set(
        source(fixed, "board-texts").data["size"]
    )
    drawn_at(fit, 600)
    assert texts_size(fit, "board-squares") == "9px"  # smaller, never below 0.8 x
    assert fixed.drawn_width == 860 and texts_size(fixed, "board-squares") == "11px"
