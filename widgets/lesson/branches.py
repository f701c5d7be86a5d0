"""Two branches of a game's history side by side, for the what-if notebook: the Timeline's own
comparison table (scores as if the game ended there, Deben, prestige, gifts, who leads), from
the engine's history (:meth:`History.compare`)."""

from __future__ import annotations

import panel as pn

from widgets.game.timeline import comparison_html

__all__ = ["branch_comparison"]


def branch_comparison(session, a: str, b: str, lang: str = "en") -> pn.pane.HTML:
    """Branches ``a`` and ``b`` of ``session`` (a :class:`GameSession`), player by player."""
    return pn.pane.HTML(
        comparison_html(session.compare(a, b), lang),
        sizing_mode="stretch_width",
        css_classes=["branch-comparison"],
    )
