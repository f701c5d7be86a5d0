"""What the tutorial notebooks show: a live board staged from a position file, its exercises and
the learner's record (``notebook``), demonstrations (``demos``), and the rule tables of each
lesson (``pieces``, ``stall_tables``, ``rule_summaries``, ``score_sheet``, ``setup_view``,
``game_length``, ``branches``).

A notebook imports the calls it uses from here: ``from widgets.lesson import Lesson, demo``.
Its first cell may choose the language of all of them: ``use_language("de")`` (``language``);
a game's story, score and players a cell prints itself follow it too (``game_words``).

A lesson's first cell loads Panel's notebook extension. A learner who runs a later cell first (out
of order, or after restarting the kernel) would otherwise see Panel's text for each object
(``Column [0] …``) instead of a board: importing this package in a kernel loads the extension
when no cell has yet, so every cell shows its board whatever the order. It also underlines the
links of the lesson's text (``kernel.UNDERLINED_LINKS``), which the notebook's page tells from
the text around by colour alone.
"""

from widgets.lesson.commands import output_of
from widgets.lesson.demos import demo, watch_game
from widgets.lesson.game_words import (
    compare_rules,
    describe_variant,
    game_progress,
    narrate,
    outcome_line,
    score_table,
    seat_name,
)
from widgets.lesson.kernel import load_panel_in_this_kernel, underline_links_in_this_kernel
from widgets.lesson.language import lesson_language, use_language
from widgets.lesson.notebook import Lesson, coverage_html, coverage_rows, coverage_view, exercises

load_panel_in_this_kernel()
underline_links_in_this_kernel()

__all__ = [
    "Lesson",
    "compare_rules",
    "coverage_html",
    "coverage_rows",
    "coverage_view",
    "demo",
    "describe_variant",
    "exercises",
    "game_progress",
    "lesson_language",
    "narrate",
    "output_of",
    "outcome_line",
    "score_table",
    "seat_name",
    "use_language",
    "watch_game",
]
