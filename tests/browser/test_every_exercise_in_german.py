"""Every exercise of the German part of the tutorials (04, 07, 10, 13,
from ``tutorials/de``), answered wrong and right in JupyterLab as a German learner does, the
verdicts the engine's German ones (``every_exercise.py`` says how)."""

from __future__ import annotations

import pytest
from every_exercise import (
    PARTS,
    answer_every_exercise,
    check_part,
    lab,  # noqa: F401 - the module's JupyterLab and Chromium (a fixture)
)


@pytest.mark.parametrize("notebook", PARTS["de"])
def test_every_exercise_of_the_notebook_answered_wrong_then_right(lab, notebook):  # noqa: F811
    answer_every_exercise(lab, notebook)


def test_no_exercise_of_the_part_was_left_unanswered():
    """Runs last in the module."""
    check_part("de")
