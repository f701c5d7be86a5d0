"""Every number a lesson states, checked against the engine (issue #13 item 9).

One module per notebook, ``tests/claims/nb<NN>.py`` for ``tutorials/<NN>-*.ipynb``, holds
``CLAIMS``: a list of :class:`Claim`. A claim quotes a phrase of the notebook's prose that states a
number ("a 7 makes exactly 14") and a check that asks the engine (or the rules data) whether it is
so. ``tests/test_lesson_numbers.py`` fails when a claim's phrase is no longer in the notebook, when
its check fails, and when the prose states a number that no claim covers, so that a change to a
rule, the gift values or a scenario cannot leave a lesson saying something false.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    """``text``: a phrase exactly as it appears in the notebook's Markdown (it covers the numbers
    inside it); ``check``: returns True when the engine agrees (or raises AssertionError with the
    engine's figure)."""

    text: str
    check: Callable[[], bool]
