"""Every exercise of the English part of the tutorials (the first-game path 00-03, then 06, 09,
12, 15),
answered wrong and right in JupyterLab as a learner does (``every_exercise.py`` says how); and
the checks that the three languages' parts are every notebook and every exercise of the
engine's table."""

from __future__ import annotations

import pytest
from every_exercise import (
    LANGUAGES,
    NOTEBOOKS,
    PARTS,
    answer_every_exercise,
    check_part,
    lab,  # noqa: F401 - the module's JupyterLab and Chromium (a fixture)
)

from nefertiti_core.files.exercises import EXERCISES, TOPICS, exercises_for


def test_every_topic_has_a_notebook_that_shows_its_exercises():
    assert sorted(set(NOTEBOOKS.values())) == sorted(TOPICS), NOTEBOOKS


def test_the_parts_are_every_notebook_once_in_every_language():
    assert sorted(nb for lang in LANGUAGES for nb in PARTS[lang]) == sorted(NOTEBOOKS)
    assert all(PARTS[lang] for lang in LANGUAGES), PARTS


def test_the_parts_topics_are_the_engines_whole_table():
    """The three parts' topics together hold every exercise of the engine's table."""
    covered = {ex.id for topic in NOTEBOOKS.values() for ex in exercises_for(topic)}
    assert covered == set(EXERCISES), sorted(set(EXERCISES) ^ covered)


@pytest.mark.parametrize("notebook", PARTS["en"])
def test_every_exercise_of_the_notebook_answered_wrong_then_right(lab, notebook):  # noqa: F811
    answer_every_exercise(lab, notebook)


def test_no_exercise_of_the_part_was_left_unanswered():
    """Runs last in the module."""
    check_part("en")
