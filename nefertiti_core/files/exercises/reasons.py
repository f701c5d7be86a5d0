"""The reason an exercise's feedback gives: a sentence or two that name the rule by its ID *and*
its title and say the fact of this position that decides the answer.

A learner who reads "R5.4" alone learns nothing; "(R5.4, No servant left)" next to "Black has no
servant on Akhet-Aton" tells them which rule and why it bites here. The kinds
(:mod:`.kinds`) build their reasons from the pieces here: :func:`cite` for the rule, and
:func:`stall_reason` for the many questions about whether and where a stall closes. The long
account of how the position plays out (the engine's narration) is not the reason: it goes to the
feedback's folded details (:attr:`.answers.Feedback.details`).

Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...teaching import rules_reference
from ...teaching.status import StallStatus
from ...teaching.words import render

if TYPE_CHECKING:
    from .base import ExerciseWords


def cite(w: ExerciseWords, *rule_ids: str) -> str:
    """``(R5.4, No servant left)``; several rules: ``(R6.1, Order of settling; R6.2, ...)``."""
    named = [
        w("exercise.cite.rule", id=rule_id, title=rules_reference.get(rule_id, w.lang).title)
        for rule_id in rule_ids
    ]
    return w("exercise.cite", rules=w("exercise.cite.separator").join(named))


def stall_reason(w: ExerciseWords, status: StallStatus, colours, squares: bool = True) -> list[str]:
    """How the stall closes, with its rule named, and how far it is now: "Abou Simbel's right
    stall closes on bids adding up to 17 or more (R3.6, ...). The bids add up to 8, 9 short of
    the 17 that close it." With ``squares``, also the squares where the decider closes it now
    (that sentence is the answer of a click-the-square question, so those leave it out)."""
    parts = [
        w.s(
            "exercise.key.stall_rule",
            stall=w.stall(status.stall_id),
            rule=w(f"status.rule.{status.rule}"),
            cite=cite(w, status.rule_id),
        )
    ]
    progress = [render(message, colours, w.lang) for message in status.progress]
    if progress:
        parts.append(progress[0])
    if squares and len(progress) > 1:
        parts.append(progress[-1])
    return parts
