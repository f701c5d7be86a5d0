"""Two branches of a game's history side by side, for the what-if notebook: the Timeline's own
comparison table (scores as if the game ended there, Deben, prestige, gifts, who leads), from
the engine's history (:meth:`History.compare`)."""

from __future__ import annotations

import panel as pn

from widgets.game.timeline import comparison_html
from widgets.lesson.language import in_lesson_language

__all__ = ["branch_comparison"]


@in_lesson_language
def branch_comparison(session, a: str, b: str, lang: str | None = None) -> pn.pane.HTML:
    """Branches ``a`` and ``b`` of ``session`` (a :class:`GameSession`), player by player."""
    return pn.pane.HTML(
        comparison_html(session.compare(a, b), lang),
        sizing_mode="stretch_width",
        css_classes=["branch-comparison"],
    )
