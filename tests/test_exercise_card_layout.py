"""The exercise card and the lesson board use a notebook's width: the question beside the board
(or above it, in a narrow column), the board scaling to its column up to its width, the lesson's
decision column taking the rest of the row. The browser measures the result
(tests/browser/test_jupyterlab.py at 1440 x 900 and 1024 x 768, a Pixel 5 in
tests/browser/test_feedback_on_a_phone.py); this checks the layout the browser is given.
"""

from __future__ import annotations

import panel as pn
import pytest

from nefertiti_core.files.exercises import EXERCISES
from widgets.game.exercise import ExerciseCard
from widgets.lesson.notebook import Lesson, exercises

EXERCISE = "closing-abou-simbel/exactly-fourteen"


def columns(layout) -> dict[str, pn.layout.ListPanel]:
    """The layout's parts by their CSS class (the first class of each)."""
    return {part.css_classes[0]: part for part in layout if part.css_classes}


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_the_card_lays_its_question_beside_a_board_that_fits_its_column(lang):
    card = ExerciseCard(EXERCISES[EXERCISE], lang=lang, board_width=760)
    layout = card.__panel__()
    assert isinstance(layout, pn.FlexBox) and layout.flex_wrap == "wrap"
    parts = columns(layout)
    assert list(parts) == ["exercise-question", "exercise-board"]  # the question first
    question, board = parts.values()
    assert card.board.fit  # scales to its column: a phone's, a projector's, a notebook's
    assert board.max_width == 760 and card.board.__panel__() in board.objects
    assert card.result in question.objects
    # both grow into the row (the board twice as fast, up to its width); either may shrink
    for part in (question, board):
        assert part.sizing_mode == "stretch_width" and part.width is None
        assert part.styles["min-width"] == "0"
    assert board.styles["flex"].startswith("2 1 ") and question.styles["flex"].startswith("1 1 ")


def test_a_narrow_board_width_is_its_basis_too():
    card = ExerciseCard(EXERCISES[EXERCISE], board_width=320)
    board = columns(card.__panel__())["exercise-board"]
    assert board.max_width == 320 and board.styles["flex"] == "2 1 320px"


def test_a_topics_cards_default_to_the_lesson_boards_width():
    block = exercises("a-turn", lang="de")
    card = block[1][0]  # the first tab's card, as the tabs hold it
    assert columns(card)["exercise-board"].max_width == 760


def test_a_lesson_boards_decision_column_takes_the_rest_of_the_row():
    lesson = Lesson("a-turn", lang="zh")
    row = next(part for part in lesson.__panel__() if isinstance(part, pn.FlexBox))
    side = columns(row)["lesson-side"]
    assert side.width is None and side.sizing_mode == "stretch_width"
    assert side.styles["flex"] == "1 1 380px" and side.min_width == 300
