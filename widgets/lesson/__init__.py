"""What the tutorial notebooks show: a live board staged from a position file, its exercises and
the learner's record (``notebook``), demonstrations (``demos``), and the rule tables of each
lesson (``pieces``, ``stall_tables``, ``rule_summaries``, ``score_sheet``, ``setup_view``,
``game_length``, ``branches``).

A notebook imports the calls it uses from here: ``from widgets.lesson import Lesson, demo``.
"""

from widgets.lesson.demos import demo, watch_game
from widgets.lesson.notebook import Lesson, coverage_html, coverage_rows, coverage_view, exercises

__all__ = [
    "Lesson",
    "coverage_html",
    "coverage_rows",
    "coverage_view",
    "demo",
    "exercises",
    "watch_game",
]
