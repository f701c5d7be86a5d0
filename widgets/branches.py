"""Two branches of a game's history side by side, for the what-if notebook and the Timeline's
users: each player's score (as if the game ended there), Deben and gifts on each branch, and who
leads. The numbers come from the engine's history (:meth:`GameHistory.compare`)."""

from __future__ import annotations

import pandas as pd
import panel as pn

from nefertiti_core.engine.i18n import tr

from ._common import colour_name

__all__ = ["branch_comparison"]


def _gifts(counts: dict, lang: str) -> str:
    return ", ".join(f"{n} {tr(lang, f'gift.{kind}')}" for kind, n in counts.items()) or "-"


def branch_comparison(session, a: str, b: str, lang: str = "en") -> pn.Column:
    """A table of branches ``a`` and ``b`` of ``session`` (a :class:`GameSession`), player by
    player, and a line naming the leaders on each."""
    c = session.compare(a, b)
    rows = {
        colour_name(lang, p.colour): {
            f"score {a}": p.scores[0],
            f"score {b}": p.scores[1],
            f"Deben {a}": p.deben[0],
            f"Deben {b}": p.deben[1],
            f"gifts {a}": _gifts(p.gifts[0], lang),
            f"gifts {b}": _gifts(p.gifts[1], lang),
        }
        for p in c.players
    }
    leaders = "; ".join(
        f"**{branch}**: {', '.join(colour_name(lang, colour) for colour in lead)}"
        for branch, lead in zip(c.branches, c.leaders, strict=True)
    )
    return pn.Column(
        pn.pane.Markdown(f"Leading — {leaders}"),
        pn.pane.DataFrame(pd.DataFrame(rows).T, sizing_mode="stretch_width"),
        sizing_mode="stretch_width",
    )
