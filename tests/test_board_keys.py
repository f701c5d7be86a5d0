"""The board by keyboard and as text, through their public surfaces: the keyboard order and
each key's square (widgets.game.board_keys.key_squares), the squares' names and the position's
words (nefertiti_core.teaching.board_words), the text view and its announcement
(widgets.game.board_text), and Enter on a square playing exactly what a click there plays
(BoardKeys.pressed, as the page sends it). The browser journeys: tests/browser/test_keyboard_board.py.
"""

from __future__ import annotations

import pytest

from nefertiti_core import new_game
from nefertiti_core.engine import options as O
from nefertiti_core.engine import rules as R
from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import scenario_path
from nefertiti_core.files.scenario import load
from nefertiti_core.teaching.board_words import market_words, square_words
from nefertiti_core.teaching.explain import describe_option
from widgets.game import geometry as G
from widgets.game.board import Board
from widgets.game.board_keys import key_squares
from widgets.game.board_text import BoardText
from widgets.game.session import GameSession

START = new_game(4, 0)  # the first game: Blue places first
CELLS = G.squares(START.side)


def test_the_keyboard_order_is_market_by_market_row_by_row_left_to_right():
    keys = key_squares(CELLS)
    assert len(keys) == len(CELLS)
    order = [(k.cell.market, -k.cell.y, k.cell.x) for k in keys]
    assert order == sorted(order)
    assert [k.cell.market for k in keys][:1] == [R.GIZEH]
    assert keys[0].cell.index == 0 and keys[0].row == 0


def test_each_key_moves_to_its_neighbour_and_wraps_at_the_ends():
    keys = key_squares(CELLS)
    last = len(keys) - 1
    assert keys[0].left == last and keys[last].right == 0
    assert all(keys[i].right == i + 1 for i in range(last))
    # down from Gizeh's last row: Akhet-Aton's first row; up from it: back into Gizeh
    gizeh = [i for i, k in enumerate(keys) if k.cell.market == R.GIZEH]
    bottom = gizeh[-1]
    below = keys[keys[bottom].down]
    assert below.cell.market == R.AKHET_ATON and below.row == 0
    assert keys[keys[bottom].down].up in gizeh
    # up and down stay in the column as near as may be
    top = keys[0]
    assert keys[top.down].row == 1
    assert abs(keys[top.down].cell.x - top.cell.x) <= 0.5
    # Home and End: the market's first and last squares
    for i in gizeh:
        assert (keys[i].home, keys[i].end) == (gizeh[0], gizeh[-1])


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_a_squares_name_says_where_who_and_whether_placing_is_possible(lang):
    state = load(scenario_path("closing-step-by-step")).state
    green, red = tr(lang, "colour.green"), tr(lang, "colour.red")

    def name(market, index):  # as the decision panel names the square
        return describe_option(state, O.place_id(market, 0, index), lang, short=True)

    five = name(R.ABOU_SIMBEL, 4)  # Green's servant there closes Abou Simbel
    assert tr(lang, "market.abou_simbel") in five
    assert square_words(state, R.ABOU_SIMBEL, 4, lang) == tr(
        lang, "keys.square.place_closes", square=five, player=green
    )
    # without hints, the name never says which square closes a market (a lesson's question)
    assert square_words(state, R.ABOU_SIMBEL, 4, lang, hints=False) == tr(
        lang, "keys.square.place", square=five, player=green
    )
    assert square_words(state, R.ABOU_SIMBEL, 0, lang) == tr(
        lang, "keys.square.servant", square=name(R.ABOU_SIMBEL, 0), player=red
    )
    assert square_words(state, R.LOUQSOR, 0, lang) == tr(
        lang, "keys.square.closed", square=name(R.LOUQSOR, 0)
    )


def test_a_markets_words_name_its_servants_and_with_hints_its_status():
    state = load(scenario_path("closing-step-by-step")).state
    lines = market_words(state, R.ABOU_SIMBEL, "en")
    assert any(line.startswith("Servants: Red on the first 1") for line in lines), lines
    assert "Closing rule" in lines[-1]
    assert not any("Closing rule" in line for line in market_words(state, 2, "en", hints=False))


def test_enter_on_a_square_plays_what_a_click_there_plays():
    session = GameSession(new_game(4, 0))
    board = Board(session, keys=True)
    keys = board.board_keys
    names = [s["name"] for s in keys.squares]
    assert names[0] == "The 1 of Gizeh's left stall: empty, Blue can place here"
    keys.pressed = [1, 1]  # the page's Enter on the second square (the 2 of Gizeh)
    assert session.state.owners[R.GIZEH][1] == session.state.colours.index("blue")
    assert keys.squares[1]["name"] == "The 2 of Gizeh's left stall: Blue's servant"
    # the same press again (a message delivered twice) plays nothing; a forged one neither
    version = session.version
    keys.pressed = [1, 1]
    keys.pressed = ["x", 2]
    keys.pressed = [999, 3]
    assert session.version == version
    # a square Black may not take now is refused in words, as a click there is
    keys.pressed = [1, 4]
    assert session.error and session.version == version


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_grid_is_named_for_what_enter_does_on_its_board(lang):
    """A board played on names its grid ``keys.board``; a board that answers with the square
    (``on_square``, an exercise's) names it ``keys.board.answer`` from the start, with no second
    build of the grid to rename it."""
    played = Board(GameSession(new_game(4, 0), lang=lang), keys=True)
    assert played.board_keys.label == tr(lang, "keys.board")
    answers = Board(GameSession(new_game(4, 0), lang=lang), keys=True, on_square=lambda cell: None)
    assert answers.board_keys.label == tr(lang, "keys.board.answer")


def test_the_text_view_announces_each_step_in_the_pages_language():
    session = GameSession(new_game(4, 0), lang="de")
    text = BoardText(session)
    assert text.announcement.startswith(tr("de", "text.no_step"))
    titles = [s["title"] for s in text.sections]
    assert titles[0] == tr("de", "text.last") and titles[-1] == tr("de", "text.players")
    session.play(O.place_id(R.GIZEH, 0, 1))
    assert text.announcement.startswith("Blau setzt einen Diener auf")
    assert "Jetzt entscheidet Schwarz" in text.announcement
    session.lang = "zh"
    assert "。轮到黑方作决定" in text.announcement
