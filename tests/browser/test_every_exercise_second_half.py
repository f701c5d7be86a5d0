"""Every exercise of the second half of the tutorials (every other notebook from 01), answered
wrong and right in JupyterLab as a learner does (``every_exercise.py`` says how)."""

from __future__ import annotations

import pytest
from every_exercise import (
    HALVES,
    answer_every_exercise,
    check_half,
    lab,  # noqa: F401 - the module's JupyterLab and Chromium (a fixture)
)


@pytest.mark.parametrize("notebook", HALVES["second"])
def test_every_exercise_of_the_notebook_answered_wrong_then_right(lab, notebook):  # noqa: F811
    answer_every_exercise(lab, notebook)


def test_no_exercise_of_the_half_was_left_unanswered():
    """Runs last in the module."""
    check_half("second")
