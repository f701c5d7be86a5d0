"""A rules comparison in sentences: one side's rules, then every player's Deben and points.

:func:`nefertiti_core.engine.variants.compare_rules` plays one position on under two sets of
rules and labels each outcome with its rules in words; :func:`outcome_line` says one outcome as
a learner reads it ("The rules as printed: Red 12 Deben and 15 points; …."), not Python tuples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.i18n import tr
from .words import Words

if TYPE_CHECKING:
    from ..engine.variants import RulesOutcome


def outcome_line(outcome: RulesOutcome, colours, lang: str = "en") -> str:
    """One side of a rules comparison in a sentence: its label, then every player's Deben and
    points, the players named by ``colours`` (the compared position's, in seat order)."""
    w = Words(lang, tuple(colours))
    players = tr(lang, "compare.sep").join(
        tr(lang, "compare.player", player=w.player(p), deben=deben, points=points)
        for p, (deben, points) in enumerate(zip(outcome.deben, outcome.scores, strict=True))
    )
    return tr(lang, "compare.outcome", rules=outcome.label, players=players)
