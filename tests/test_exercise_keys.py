"""The board by keyboard beyond the boards a game is played on, through public surfaces: an
exercise answered on the board has the keyboard grid, named for what Enter does there (answers),
and Enter on a square answers with it and says which square was chosen, in the card's language;
an exercise answered otherwise has no grid; the setup comparison's boards (played on) have the
grid, a bot game's replay (watched) the board in words. The browser journeys:
tests/browser/test_tutorial_in_jupyterlab.py (German) and tests/browser/test_voila.py (Chinese).
"""

from __future__ import annotations

import panel as pn
import pytest
from rendered import element_text

from nefertiti_core.engine.i18n import tr
from nefertiti_core.files.exercises import EXERCISES
from nefertiti_core.teaching.board_words import chosen_square_words
from widgets.game.board_keys import BoardKeys
from widgets.game.exercise import ExerciseCard
from widgets.lesson.demos import GameReplay
from widgets.lesson.setup_view import compare_layouts, compare_setups

SQUARE = EXERCISES["closing-abou-simbel/exactly-fourteen"]
CHOICE = EXERCISES["closing-abou-simbel/fifteen-stays-open"]
SQUARE_LINE = "exercise-square-line"  # the card's line: how to answer, or the square chosen


def _index(card: ExerciseCard, market: int, index: int) -> int:
    """The square's place in the grid's keyboard order (what the page's Enter sends)."""
    squares = card.board.board_keys.squares
    return next(i for i, s in enumerate(squares) if s["place"].startswith(f"{market}.{index}."))


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_enter_on_a_square_answers_a_square_exercise_and_says_the_square(lang):
    card = ExerciseCard(SQUARE, lang=lang)
    keys = card.board.board_keys
    assert keys is not None and keys.label == tr(lang, "keys.board.answer")
    assert element_text(card, SQUARE_LINE) == tr(lang, "exercise.card.click_board")
    (right,) = SQUARE.right_answer()
    keys.pressed = [_index(card, 2, right), 1]  # Enter on Abou Simbel's right square
    assert card.feedback is not None and card.feedback.correct
    square = chosen_square_words(SQUARE.state(), 2, right, lang)
    said = tr(lang, "exercise.card.your_square", square=square)
    assert element_text(card, SQUARE_LINE) == said  # in a live region: the browser journeys hear it
    # a new start of the position: the line says how to answer again
    card.reset()
    assert element_text(card, SQUARE_LINE) == tr(lang, "exercise.card.click_board")


def test_a_wrong_square_by_enter_is_judged_and_a_card_in_another_language_renames_the_grid():
    card = ExerciseCard(SQUARE, lang="en")
    (right,) = SQUARE.right_answer()
    wrong = next(
        s["place"]
        for s in card.board.board_keys.squares
        if not s["place"].startswith(f"2.{right}.") and s["place"].startswith("2.")
    )
    market, index = (int(v) for v in wrong.split(".")[:2])
    card.board.board_keys.pressed = [_index(card, market, index), 1]
    assert card.feedback is not None and card.feedback.valid and not card.feedback.correct
    card.lang = "de"
    assert card.board.board_keys.label == tr("de", "keys.board.answer")
    assert element_text(card, SQUARE_LINE).startswith("Deine Antwort: ")


def test_an_exercise_answered_by_a_choice_has_no_keyboard_grid():
    assert ExerciseCard(CHOICE).board.board_keys is None


def test_the_setup_boards_have_the_grid_and_a_replay_the_board_in_words():
    for view in (compare_setups(lang="en"), compare_layouts(lang="en")):
        canvases, grids = view.select(pn.pane.Bokeh), view.select(BoardKeys)
        assert canvases and len(grids) == len(canvases)
    replay = GameReplay(seed=3, lang="de")
    assert replay.board_text.sections[0]["title"] == tr("de", "text.last")
